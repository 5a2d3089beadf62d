/* UpdateTable's core; see update_table.h. Pinned by tests/conformance/test_update_table.py,
 * test_update_table_rules.py and test_gsi_lifecycle.py. */
#include "ops/update_table.h"
#include "base/log.h"
#include "cap/cap.h"
#include "ops/tables.h"
#include "ops/throughput.h"

#define MAX_UNITS 1000000000000LL

/* An index being created (resource allocation) or deleted. */
static bool index_work(const sl_table *t) {
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    if (x->status == SL_STATUS_DELETING || (x->status == SL_STATUS_CREATING && x->online))
      return true;
  }
  return false;
}

static const char msg_ppr_units[] =
    "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
    "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST";

/* The table-level members a GSI Create or Delete may not accompany. */
static unsigned also_members(const sl_update_table_in *in) {
  return (in->pt.present ? SL_UT_PROVISIONED : 0) | (in->stream.present ? SL_UT_STREAM : 0) |
         (in->warm.present ? SL_UT_WARM : 0);
}

/* How many of the members that change something the request carries
 * (an empty GlobalSecondaryIndexUpdates counts as absent, DDB-TABLE-359). */
static int n_members(const sl_update_table_in *in) {
  return (in->billing.p != NULL) + in->pt.present + in->stream.present + in->has_sse +
         (in->table_class.p != NULL) + in->has_deletion_protection + in->warm.present +
         in->od.present + (in->gsi.present && in->gsi.n > 0);
}

#define INVALID "One or more parameter values were invalid: "

/* UpdateTable makes one kind of change per request. SSESpecification,
 * TableClass and DeletionProtectionEnabled must each be the request's only
 * change, and OnDemandThroughput may come only with BillingMode; when
 * several break the rule, the first in that order is named (live, ACKQ
 * DDB-TABLE-433: "SSE > TableClass > DeletionProtection > WarmThroughput",
 * DP + ODT names DP, DP + BillingMode names DP (DDB-TABLE-156); DDB-TABLE-382:
 * ODT + Stream and ODT + Warm name ODT). WarmThroughput's own rule comes
 * after the GSI checks (check_sole_warm), as a GSI Create beside it has its
 * own text (DDB-TABLE-174). ODT beside ProvisionedThroughput or a GSI update
 * is refused by the rule's wording, not by a capture of that pair. Pinned by
 * tests/conformance/test_update_table_rules.py. */
static sl_err check_sole_members(sl_req *req, const sl_update_table_in *in) {
  int n = n_members(in);
  if (n < 2)
    return SL_OK;
  if (in->has_sse)
    return sl_fail(req, SL_E_VALIDATION,
                   INVALID "Server-Side Encryption modification must be the only operation in "
                           "the request");
  if (in->table_class.p)
    return sl_fail(req, SL_E_VALIDATION,
                   INVALID "TableClass modification must be the only operation in the request");
  if (in->has_deletion_protection)
    return sl_fail(req, SL_E_VALIDATION,
                   INVALID
                   "DeletionProtection modification must be the only operation in the request");
  if (in->od.present && n - (in->billing.p != NULL) > 1)
    return sl_fail(req, SL_E_VALIDATION,
                   INVALID "OnDemandThroughput can only be combined with BillingMode in an "
                           "UpdateTable request");
  return SL_OK;
}

/* WarmThroughput must be the request's only change (DDB-TABLE-433, -382). */
static sl_err check_sole_warm(sl_req *req, const sl_update_table_in *in) {
  if (in->warm.present && n_members(in) > 1)
    return sl_fail(req, SL_E_VALIDATION,
                   INVALID "WarmThroughput must be the only operation in the request");
  return SL_OK;
}

/* The checks that need only the request. The service makes them before it
 * looks the table up, so a malformed UpdateTable of a missing table is a
 * ValidationException (tests/conformance/test_validation_order.py). */
static sl_err check_request(sl_req *req, const sl_update_table_in *in) {
  /* AttributeDefinitions alone changes nothing, and an empty
   * GlobalSecondaryIndexUpdates counts as absent here (DDB-TABLE-359). */
  bool any = in->billing.p || in->pt.present || (in->gsi.present && in->gsi.n > 0) ||
             in->stream.present || in->has_sse || in->has_deletion_protection ||
             in->table_class.p || in->od.present || in->warm.present;
  if (!any)
    return sl_fail(req, SL_E_VALIDATION,
                   "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
                   "GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "
                   "MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, "
                   "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is "
                   "required");
  if (in->pt.present && sl_str_eq_c(in->billing, "PAY_PER_REQUEST"))
    return sl_fail(req, SL_E_VALIDATION, "%s", msg_ppr_units);
  if (in->pt.present && in->pt.read > MAX_UNITS)
    return sl_fail(req, SL_E_VALIDATION, "Given value %lld for ReadCapacityUnits is out of bounds",
                   (long long)in->pt.read);
  if (in->pt.present && in->pt.write > MAX_UNITS)
    return sl_fail(req, SL_E_VALIDATION, "Given value %lld for WriteCapacityUnits is out of bounds",
                   (long long)in->pt.write);
  /* The stream's texts are the service's (ACKQ DDB-TABLE-442 catalogue,
   * DDB-TABLE-050/-433; tests/conformance/test_update_table.py, "streams"). */
  if (in->stream.present && in->stream.enabled && in->stream.view_type.len == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: If stream is being enabled then "
                   "UpdateViewType is required");
  if (in->stream.present && !in->stream.enabled && in->stream.view_type.p)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: If stream is being disabled, then "
                   "UpdateViewType must not be specified");
  if (in->stream.present && (in->pt.present || sl_str_eq_c(in->billing, "PROVISIONED")))
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: You cannot modify stream status "
                   "while updating table IOPS");
  sl_err err = check_sole_members(req, in);
  if (err == SL_OK)
    err = sl_indexes_check_updates(req, &in->gsi, &in->defs, also_members(in));
  if (err == SL_OK)
    err = check_sole_warm(req, in);
  return err;
}

/* A change to a table still UPDATING for an earlier UpdateTable: refused
 * with a text naming what is being updated, ResourceInUseException (ACKQ
 * DDB-TABLE-444 catalogue of the service's texts; DDB-TABLE-369 and -370
 * for what a throughput change or billing switch refuses and admits).
 * - IOPS (throughput, billing): a throughput change or billing switch
 *   "Table IOPS are currently being updated. Table: <T>"; a stream change
 *   "Can't enable or disable stream while table IOPS are being updated.
 *   Table: <T>"; OnDemandThroughput during a billing switch
 *   "OnDemandThroughput cannot be updated while BillingMode update is in
 *   progress"; DeletionProtectionEnabled, WarmThroughput and SSESpecification
 *   are admitted (DDB-TABLE-369, -462). Anything else (TableClass, a GSI
 *   update) gets the IOPS text: inferred, no capture of those pairs.
 * - Stream: a throughput change or billing switch "Can't change table IOPS
 *   when stream status is being updated. Table: <T> Stream: <label>
 *   Operation: ENABLE|DISABLE"; anything else "A stream status change is
 *   currently in progress. Table: <T> Stream: <label> Operation: ..." (the
 *   catalogue names it for a second stream change; for the rest inferred).
 * - TableClass: "Can't update table class when a table class update is in
 *   progress. Table: <T> TableClassUpdateInProgress: <class>" (the catalogue
 *   names it for a second class change; the service words other changes
 *   "Can't <X> when a table class update is in progress", X not captured, so
 *   they get this text too: inferred).
 * A table UPDATING for nothing the service keeps it UPDATING for (sluice's
 * UPDATING after a deletion-protection or warm-throughput change) admits
 * the change. Pinned by tests/conformance/test_update_table_rules.py. */
static sl_err check_while_updating(sl_req *req, const sl_update_table_in *in, const sl_table *old,
                                   bool switching) {
  uint8_t cause = old->update_cause;
  /* A record saved before update_cause existed: a pending change is IOPS. */
  if (old->tp.pending_rcu > 0 || old->tp.pending_wcu > 0)
    cause |= SL_UPDATE_IOPS;
  bool iops = in->pt.present || switching;
  const char *op = old->stream_enabled ? "ENABLE" : "DISABLE";
  if (cause & SL_UPDATE_IOPS) {
    if (iops)
      return sl_fail(req, SL_E_RESOURCE_IN_USE,
                     SL_IN_USE "Table IOPS are currently being updated. Table: %.*s",
                     SL_STR_FMT(old->name));
    if (in->stream.present)
      return sl_fail(req, SL_E_RESOURCE_IN_USE,
                     SL_IN_USE "Can't enable or disable stream while table IOPS are being updated. "
                               "Table: %.*s",
                     SL_STR_FMT(old->name));
    if (in->od.present && (cause & SL_UPDATE_BILLING))
      return sl_fail(req, SL_E_RESOURCE_IN_USE,
                     SL_IN_USE
                     "OnDemandThroughput cannot be updated while BillingMode update is in "
                     "progress");
    if (in->table_class.p || (in->gsi.present && in->gsi.n > 0) || in->od.present)
      return sl_fail(req, SL_E_RESOURCE_IN_USE,
                     SL_IN_USE "Table IOPS are currently being updated. Table: %.*s",
                     SL_STR_FMT(old->name));
    return SL_OK;
  }
  if (cause & SL_UPDATE_STREAM) {
    if (iops)
      return sl_fail(req, SL_E_RESOURCE_IN_USE,
                     SL_IN_USE
                     "Can't change table IOPS when stream status is being updated. Table: "
                     "%.*s Stream: %.*s Operation: %s",
                     SL_STR_FMT(old->name), SL_STR_FMT(old->stream_label), op);
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "A stream status change is currently in progress. Table: %.*s Stream: "
                             "%.*s Operation: %s",
                   SL_STR_FMT(old->name), SL_STR_FMT(old->stream_label), op);
  }
  if (cause & SL_UPDATE_CLASS)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Can't update table class when a table class update is in progress. "
                             "Table: %.*s TableClassUpdateInProgress: %s",
                   SL_STR_FMT(old->name),
                   old->table_class ? "STANDARD_INFREQUENT_ACCESS" : "STANDARD");
  return SL_OK;
}

/* Applies the request's throughput members to 't'. */
static sl_err update_throughput(sl_req *req, const sl_update_table_in *in, const sl_table *old,
                                sl_table *t, bool *changed) {
  sl_str billing = in->billing;
  bool has_pt = in->pt.present;
  uint8_t mode = old->tp.billing;
  if (billing.len)
    mode = sl_str_eq_c(billing, "PAY_PER_REQUEST") ? SL_BILLING_PAY_PER_REQUEST
                                                   : SL_BILLING_PROVISIONED;
  /* PAY_PER_REQUEST named in the request was checked before the lookup. */
  if (mode == SL_BILLING_PAY_PER_REQUEST && has_pt)
    return sl_fail(req, SL_E_VALIDATION, "%s", msg_ppr_units);
  if (mode == SL_BILLING_PROVISIONED && old->tp.billing == SL_BILLING_PAY_PER_REQUEST && !has_pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: ProvisionedThroughput must be "
                   "specified when BillingMode is PROVISIONED");
  if (has_pt) {
    int64_t rcu = in->pt.read, wcu = in->pt.write;
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
        t->indexes[i].tp.rcu = t->indexes[i].tp.wcu = t->indexes[i].tp.pending_rcu =
            t->indexes[i].tp.pending_wcu = 0;
    }
    *changed = true;
  }
  /* An on-demand maximum has no meaning for a provisioned table (live, ACKQ
   * DDB-TABLE-059; tests/conformance/test_update_table_rules.py). */
  if (in->od.present && mode == SL_BILLING_PROVISIONED)
    return sl_fail(req, SL_E_VALIDATION,
                   INVALID "Max%sRequestUnits for OnDemandThroughput cannot be specified when the "
                           "table BillingMode is PROVISIONED",
                   in->od.has_read ? "Read" : "Write");
  if (in->od.present) {
    sl_err err = sl_tp_set_on_demand(req, "table", &t->tp, &in->od);
    if (err != SL_OK)
      return err;
    *changed = true;
  }
  /* Warm throughput has its own status: the table stays ACTIVE while it is
   * UPDATING (ACKQ DDB-TABLE-179, -459: "TableStatus never left ACTIVE";
   * tests/conformance/test_warm_throughput.py). */
  if (in->warm.present) {
    sl_err err = sl_tp_set_warm(req, "table", t->name, &t->tp, t->cap, &in->warm, false);
    if (err != SL_OK)
      return err;
  }
  if (*changed) {
    sl_err err = sl_tp_check_quotas(req, t, old);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

static sl_err commit(sl_req *req, sl_table *old, sl_table *t, sl_index_updates *gsi, bool changed,
                     uint8_t cause) {
  sl_err err;
  if (changed) {
    /* A change admitted while the table is UPDATING (check_while_updating)
     * does not end the earlier one sooner. A billing-mode switch takes longer
     * than other changes under --delays realistic (jobs/env.h). */
    sl_delay_kind kind =
        t->tp.billing != old->tp.billing ? SL_DELAY_BILLING_SWITCH : SL_DELAY_TABLE_UPDATE;
    uint64_t until = (uint64_t)(req->now_ms + sl_env_delay_ms(req->env, kind));
    if (old->status != SL_STATUS_UPDATING || old->status_until_ms < until)
      t->status_until_ms = until;
    t->status = SL_STATUS_UPDATING;
    t->update_cause |= cause;
  }
  if (gsi->created || gsi->deleted) {
    /* The table is UPDATING while the index's resources are allocated or
     * released (DDB-TABLE-148). */
    t->status = SL_STATUS_UPDATING;
    t->status_until_ms = (uint64_t)(req->now_ms + gsi->delay_ms);
  }
  if ((err = sl_indexes_assign_ids(req, t)) != SL_OK)
    goto out;
  if ((err = sl_tables_commit_version(req, old, t)) != SL_OK)
    goto out;
  sl_indexes_committed(req, t, gsi);
  if (t->cap)
    sl_cap_res_configure(req->env->cap, t->cap, &t->tp);
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (t->indexes[i].cap)
      sl_cap_res_configure(req->env->cap, t->indexes[i].cap, &t->indexes[i].tp);
  req->table = t;
  return SL_OK;
out:
  sl_table_free(t);
  return err;
}

sl_err sl_update_table(sl_req *req, const sl_update_table_in *in, sl_update_table_result *out) {
  sl_table *old, *t = NULL;
  bool changed = false;
  sl_index_updates gsi = {0};
  out->before = out->table = NULL;
  sl_err err = check_request(req, in);
  if (err != SL_OK || (err = sl_req_lookup(req, in->table, SL_LOOKUP_CONTROL, &old)) != SL_OK)
    return err;
  bool switching =
      in->billing.len &&
      !sl_str_eq_c(in->billing,
                   old->tp.billing == SL_BILLING_PROVISIONED ? "PROVISIONED" : "PAY_PER_REQUEST");
  if ((err = sl_tables_check_settled(req, old)) != SL_OK)
    return err;
  /* A table UPDATING only for an index being created or deleted takes the
   * index rules of ops/indexes.h instead. */
  if (old->status == SL_STATUS_UPDATING && !index_work(old) &&
      (err = check_while_updating(req, in, old, switching)) != SL_OK)
    return err;
  uint8_t cause =
      (in->pt.present || switching ? SL_UPDATE_IOPS : 0) | (switching ? SL_UPDATE_BILLING : 0) |
      (in->stream.present ? SL_UPDATE_STREAM : 0) | (in->table_class.p ? SL_UPDATE_CLASS : 0);
  if ((err = sl_indexes_check_table_update(req, old, in->pt.present || switching, in->od.present,
                                           in->stream.present)) != SL_OK)
    return err;
  t = sl_table_clone(old);
  if ((err = update_throughput(req, in, old, t, &changed)) != SL_OK ||
      (err = sl_indexes_update(req, &in->gsi, &in->defs, old, t, &gsi)) != SL_OK)
    goto out;
  if (in->has_deletion_protection) {
    t->deletion_protection = in->deletion_protection;
    changed = true;
  }
  if (in->table_class.p) {
    t->table_class = sl_str_eq_c(in->table_class, "STANDARD_INFREQUENT_ACCESS");
    changed = true;
  }
  if (in->stream.present) {
    bool enable = in->stream.enabled;
    if (enable && old->stream_enabled) {
      err = sl_fail(req, SL_E_VALIDATION, "Table already has an enabled stream: TableName: %.*s",
                    SL_STR_FMT(old->name));
      goto out;
    }
    if (!enable && !old->stream_enabled) {
      err = sl_fail(req, SL_E_VALIDATION, "Table has no stream to disable: TableName: %.*s",
                    SL_STR_FMT(old->name));
      goto out;
    }
    t->stream_enabled = enable;
    if (enable) {
      t->stream_view_type = sl_table_str(t, in->stream.view_type);
      char label[32];
      sl_time_format_iso(req->now_ms, label);
      label[23] = 0;
      t->stream_label = sl_table_str(t, sl_str_c(label));
    }
    changed = true;
  }
  /* The reply shows the units before the change; committing frees 'old'. */
  sl_table *before = sl_table_clone(old);
  if ((err = commit(req, old, t, &gsi, changed, cause)) != SL_OK) {
    sl_table_free(before);
    return err; /* commit freed 't' */
  }
  out->before = before;
  out->table = t;
  return SL_OK;
out:
  sl_table_free(t);
  return err;
}
