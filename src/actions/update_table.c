/*
 * UpdateTable — changes a table's billing mode, provisioned throughput,
 * on-demand maximums, warm throughput, stream, class or deletion protection,
 * and creates, updates or deletes global secondary indexes (ops/indexes.h).
 * Pinned by tests/conformance/test_update_table.py and test_gsi_lifecycle.py
 * (and the capacity scenarios for the throughput rules).
 *
 * The change is made on a clone of the table and installed only after the
 * catalog record is committed: a rejected update changes nothing.
 */
#include "actions/actions.h"
#include "ops/update_table.h"
#include "ops/describe.h"
#include "ops/indexes.h"
#include "ops/tables.h"
#include "ops/throughput.h"
#include "base/log.h"

#define MAX_UNITS 1000000000000LL

/* Applies the request's throughput members to 't'. */
static sl_err update_throughput(sl_req *req, const sl_table *old, sl_table *t, bool *changed) {
  const sl_json *body = req->body;
  sl_str billing = sl_req_str(body, "BillingMode");
  const sl_json *pt = sl_json_get(body, "ProvisionedThroughput");
  bool has_pt = pt && pt->type == SL_JSON_OBJECT;
  uint8_t mode = old->tp.billing;
  if (billing.len)
    mode = sl_str_eq_c(billing, "PAY_PER_REQUEST") ? SL_BILLING_PAY_PER_REQUEST
                                                   : SL_BILLING_PROVISIONED;
  if (mode == SL_BILLING_PAY_PER_REQUEST && has_pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
                   "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  if (mode == SL_BILLING_PROVISIONED && old->tp.billing == SL_BILLING_PAY_PER_REQUEST && !has_pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: ProvisionedThroughput must be "
                   "specified when BillingMode is PROVISIONED");
  if (has_pt) {
    int64_t rcu = sl_req_int(pt, "ReadCapacityUnits", 0);
    int64_t wcu = sl_req_int(pt, "WriteCapacityUnits", 0);
    if (rcu > MAX_UNITS)
      return sl_fail(req, SL_E_VALIDATION,
                     "Given value %lld for ReadCapacityUnits is out of bounds", (long long)rcu);
    if (wcu > MAX_UNITS)
      return sl_fail(req, SL_E_VALIDATION,
                     "Given value %lld for WriteCapacityUnits is out of bounds", (long long)wcu);
    if (old->tp.billing == SL_BILLING_PROVISIONED && rcu == old->tp.rcu && wcu == old->tp.wcu)
      return sl_fail(req, SL_E_VALIDATION,
                     "The provisioned throughput for the table will not change. The requested "
                     "value equals the current value. Current ReadCapacityUnits provisioned for "
                     "the table: %lld. Requested ReadCapacityUnits: %lld. Current "
                     "WriteCapacityUnits provisioned for the table: %lld. Requested "
                     "WriteCapacityUnits: %lld. Refer to the Amazon DynamoDB Developer Guide for "
                     "current limits and how to request higher limits.",
                     (long long)old->tp.rcu, (long long)rcu, (long long)old->tp.wcu,
                     (long long)wcu);
    sl_err err = sl_tp_set_provisioned(req, &old->tp, &t->tp, rcu, wcu);
    if (err != SL_OK)
      return err;
    *changed = true;
  }
  if (mode != old->tp.billing) {
    sl_err err = sl_tp_set_billing(req, old->name, &old->tp, &t->tp, mode);
    if (err != SL_OK)
      return err;
    for (uint32_t i = 0; i < t->n_indexes; i++) {
      t->indexes[i].tp.billing = mode;
      if (mode == SL_BILLING_PAY_PER_REQUEST)
        t->indexes[i].tp.rcu = t->indexes[i].tp.wcu = 0;
    }
    *changed = true;
  }
  const sl_json *od = sl_json_get(body, "OnDemandThroughput");
  if (od && od->type == SL_JSON_OBJECT) {
    sl_err err = sl_tp_set_on_demand(req, "table", &t->tp, od);
    if (err != SL_OK)
      return err;
    *changed = true;
  }
  const sl_json *wt = sl_json_get(body, "WarmThroughput");
  if (wt && wt->type == SL_JSON_OBJECT) {
    sl_err err = sl_tp_set_warm(req, "table", t->name, &t->tp, wt, false);
    if (err != SL_OK)
      return err;
    *changed = true;
  }
  if (*changed) {
    sl_err err = sl_tp_check_quotas(req, t, old);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

/* An index being created (resource allocation) or deleted. */
static bool index_work(const sl_table *t) {
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    if (x->status == SL_STATUS_DELETING || (x->status == SL_STATUS_CREATING && x->online))
      return true;
  }
  return false;
}

sl_err sl_action_update_table(sl_req *req) {
  sl_table *old, *t = NULL;
  bool changed = false;
  sl_index_updates gsi = {0};
  const sl_json *body = req->body;
  static const sl_unsupported unsupported[] = {
      {"ReplicaUpdates", "global tables"},
      {"MultiRegionConsistency", "global tables"},
      {"GlobalTableWitnessUpdates", "global tables"},
      {"GlobalTableSettingsReplicationMode", "global tables"},
  };
  sl_err err = sl_req_refuse_unsupported(req, body, unsupported,
                                         sizeof(unsupported) / sizeof(unsupported[0]));
  if (err == SL_OK)
    err = sl_tables_refuse_kms(req, body);
  if (err == SL_OK)
    err = sl_req_table(req, "TableName", SL_LOOKUP_CONTROL, &old);
  if (err != SL_OK)
    return err;
  static const char *const members[] = {"ProvisionedThroughput",
                                        "BillingMode",
                                        "GlobalSecondaryIndexUpdates",
                                        "StreamSpecification",
                                        "SSESpecification",
                                        "ReplicaUpdates",
                                        "TableClass",
                                        "DeletionProtectionEnabled",
                                        "OnDemandThroughput",
                                        "WarmThroughput"};
  /* AttributeDefinitions alone changes nothing, and an empty
   * GlobalSecondaryIndexUpdates counts as absent here (DDB-TABLE-359). */
  bool any = false;
  for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
    any |= sl_req_has(body, members[i]);
  const sl_json *gsi_updates = sl_json_get(body, "GlobalSecondaryIndexUpdates");
  if (gsi_updates && gsi_updates->type == SL_JSON_ARRAY && gsi_updates->arr.n == 0) {
    any = false;
    for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
      if (strcmp(members[i], "GlobalSecondaryIndexUpdates") != 0)
        any |= sl_req_has(body, members[i]);
  }
  if (!any)
    return sl_fail(req, SL_E_VALIDATION,
                   "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                   "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "
                   "MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, "
                   "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is "
                   "required");
  /* A table UPDATING only for an index being created or deleted takes the
   * index rules of ops/indexes.h instead. */
  if (old->status != SL_STATUS_ACTIVE && !(old->status == SL_STATUS_UPDATING && index_work(old)))
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   "Attempt to change a resource which is still in use: Table is being %s: %.*s",
                   old->status == SL_STATUS_CREATING ? "created" : "updated",
                   SL_STR_FMT(old->name));
  sl_str billing = sl_req_str(body, "BillingMode");
  bool switching = billing.len && !sl_str_eq_c(billing, old->tp.billing == SL_BILLING_PROVISIONED
                                                            ? "PROVISIONED"
                                                            : "PAY_PER_REQUEST");
  if ((err = sl_indexes_check_table_update(req, old,
                                           sl_req_has(body, "ProvisionedThroughput") || switching,
                                           sl_req_has(body, "OnDemandThroughput"))) != SL_OK)
    return err;
  t = sl_table_clone(old);
  if ((err = update_throughput(req, old, t, &changed)) != SL_OK)
    goto out;
  if ((err = sl_indexes_update(req, old, t, &gsi)) != SL_OK)
    goto out;
  if (sl_req_has(body, "DeletionProtectionEnabled")) {
    t->deletion_protection = sl_req_bool(body, "DeletionProtectionEnabled", false);
    changed = true;
  }
  if (sl_req_has(body, "TableClass")) {
    t->table_class = sl_str_eq_c(sl_req_str(body, "TableClass"), "STANDARD_INFREQUENT_ACCESS");
    changed = true;
  }
  const sl_json *ss = sl_json_get(body, "StreamSpecification");
  if (ss && ss->type == SL_JSON_OBJECT) {
    bool enable = sl_req_bool(ss, "StreamEnabled", false);
    if (enable && old->stream_enabled) {
      err = sl_fail(req, SL_E_VALIDATION, "Table already has an enabled stream: %.*s",
                    SL_STR_FMT(old->arn));
      goto out;
    }
    if (!enable && !old->stream_enabled) {
      err = sl_fail(req, SL_E_VALIDATION, "Table does not have an enabled stream: %.*s",
                    SL_STR_FMT(old->arn));
      goto out;
    }
    if (enable && sl_req_str(ss, "StreamViewType").len == 0) {
      /* As CreateTable words it (actions/create_table.c). */
      err = sl_fail(req, SL_E_VALIDATION,
                    "One or more parameter values were invalid: StreamViewType is required when "
                    "StreamEnabled is true");
      goto out;
    }
    t->stream_enabled = enable;
    if (enable) {
      t->stream_view_type = sl_table_str(t, sl_req_str(ss, "StreamViewType"));
      char label[32];
      sl_time_format_iso(req->now_ms, label);
      label[23] = 0;
      t->stream_label = sl_table_str(t, sl_str_c(label));
    }
    changed = true;
  }
  /* The reply shows the units before the change; committing frees 'old'. */
  sl_table *before = sl_table_clone(old);
  if ((err = sl_update_table(req, old, t, &gsi, changed)) != SL_OK) {
    sl_table_free(before);
    return err; /* the core freed 't' */
  }
  req->table = t;
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "TableDescription");
  sl_describe_updated_table(req, before, t);
  sl_jw_obj_end(&req->w);
  sl_table_free(before);
  return SL_OK;
out:
  sl_table_free(t);
  return err;
}
