/*
 * CreateTable — defines a table, its key schema, indexes and throughput.
 * Pinned by tests/conformance/test_create_table.py.
 *
 * Order of checks after the model validation (the service's, as dynalite
 * recorded it from the live service): billing mode vs throughput, key schema,
 * local then global secondary indexes, unused attribute definitions; they
 * build the new table. Then the core (ops/create_table.h: existence, table
 * count, capacity quotas, commit) and the reply, which describes the table
 * as CREATING.
 */
#include "actions/actions.h"
#include "ops/create_table.h"
#include "actions/describe.h"
#include "actions/members.h"
#include "ops/tables.h"
#include "ops/throughput.h"
#include "base/log.h"

#define MAX_LSI 5
#define MAX_GSI 20
#define MAX_UNITS 1000000000000LL

/* Reads ProvisionedThroughput {ReadCapacityUnits, WriteCapacityUnits}. */
static sl_err parse_units(sl_req *req, const sl_json *pt, int64_t *rcu, int64_t *wcu) {
  *rcu = sl_in_int(pt, "ReadCapacityUnits", 0);
  *wcu = sl_in_int(pt, "WriteCapacityUnits", 0);
  if (*rcu > MAX_UNITS)
    return sl_fail(req, SL_E_VALIDATION, "Given value %lld for ReadCapacityUnits is out of bounds",
                   (long long)*rcu);
  if (*wcu > MAX_UNITS)
    return sl_fail(req, SL_E_VALIDATION, "Given value %lld for WriteCapacityUnits is out of bounds",
                   (long long)*wcu);
  return SL_OK;
}

static bool name_used(const sl_table *t, sl_str name) {
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (sl_str_eq(t->indexes[i].name, name))
      return true;
  return false;
}

static sl_err parse_indexes(sl_req *req, sl_table *t, const sl_json *list, bool global) {
  const char *kind = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
  if (!list || list->type != SL_JSON_ARRAY)
    return SL_OK;
  if (list->arr.n == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: List of %s is empty", kind);
  if (!global && !sl_key_has_range(&t->key))
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Table KeySchema does not have a "
                   "range key, which is required when specifying a LocalSecondaryIndex");
  sl_index *all = SL_NEW_ARRAY(&t->mem, sl_index, t->n_indexes + list->arr.n + 1);
  if (t->n_indexes)
    memcpy(all, t->indexes, t->n_indexes * sizeof(sl_index));
  t->indexes = all;
  for (size_t i = 0; i < list->arr.n; i++) {
    const sl_json *o = list->arr.items[i];
    sl_index *x = &t->indexes[t->n_indexes];
    memset(x, 0, sizeof(*x));
    x->global = global;
    x->name = sl_table_str(t, sl_in_str(o, "IndexName"));
    sl_key_schema_in ks = sl_in_key_schema(req->arena, sl_json_get(o, "KeySchema"));
    sl_err err = sl_schema_check_keys_defined(req, t, &ks);
    if (err != SL_OK)
      return err;
    if ((err = (global ? sl_schema_gsi_key : sl_schema_key)(req, t, &ks, &x->key)) != SL_OK)
      return err;
    if (!global) {
      if (!sl_key_has_range(&x->key))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: Index KeySchema does not have a "
                       "range key for index: %.*s",
                       SL_STR_FMT(x->name));
      if (!sl_str_eq(x->key.hash, t->key.hash))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: Index KeySchema does not have "
                       "the same leading hash key as table KeySchema for index: %.*s. index hash "
                       "key: %.*s, table hash key: %.*s",
                       SL_STR_FMT(x->name), SL_STR_FMT(x->key.hash), SL_STR_FMT(t->key.hash));
    }
    sl_projection_in proj = sl_in_projection(req->arena, sl_json_get(o, "Projection"));
    if ((err = sl_schema_projection(req, t, &proj, x)) != SL_OK)
      return err;
    if (name_used(t, x->name))
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: Duplicate index name: %.*s",
                     SL_STR_FMT(x->name));
    if (global) {
      x->tp.billing = t->tp.billing;
      x->tp.max_read_ru = x->tp.max_write_ru = -1;
      const sl_json *pt = sl_json_get(o, "ProvisionedThroughput");
      bool has_pt = pt && pt->type == SL_JSON_OBJECT;
      if (t->tp.billing == SL_BILLING_PAY_PER_REQUEST && has_pt)
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: ProvisionedThroughput should "
                       "not be specified for index: %.*s when BillingMode is PAY_PER_REQUEST",
                       SL_STR_FMT(x->name));
      if (t->tp.billing == SL_BILLING_PROVISIONED && !has_pt)
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: ProvisionedThroughput must be "
                       "specified for index: %.*s",
                       SL_STR_FMT(x->name));
      if (has_pt && (err = parse_units(req, pt, &x->tp.rcu, &x->tp.wcu)) != SL_OK)
        return err;
      x->tp.highest_rcu = x->tp.rcu;
      x->tp.highest_wcu = x->tp.wcu;
      sl_units_in od = sl_in_units(sl_json_get(o, "OnDemandThroughput"), "MaxReadRequestUnits",
                                   "MaxWriteRequestUnits");
      sl_units_in wt = sl_in_units(sl_json_get(o, "WarmThroughput"), "ReadUnitsPerSecond",
                                   "WriteUnitsPerSecond");
      if ((err = sl_tp_set_on_demand(req, "index", &x->tp, &od)) != SL_OK ||
          (err = sl_tp_set_warm(req, "index", x->name, &x->tp, NULL, &wt, true)) != SL_OK)
        return err;
    }
    x->arn = sl_schema_index_arn(t, x->name);
    t->n_indexes++;
  }
  uint32_t count = 0;
  for (uint32_t i = 0; i < t->n_indexes; i++)
    count += t->indexes[i].global == global;
  if (!global && count > MAX_LSI)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Number of LocalSecondaryIndexes "
                   "exceeds per-table limit of %d",
                   MAX_LSI);
  if (global && count > MAX_GSI)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds "
                   "the per-table limit of %d",
                   MAX_GSI);
  return SL_OK;
}

/* Every attribute definition must be used by a key of the table or an index. */
static sl_err check_defs_used(sl_req *req, const sl_table *t) {
  bool all_used = true;
  sl_str used[2 + 2 * SL_KEY_MAX_PARTS * 25];
  uint32_t n_used = 0;
  const sl_key_schema *schemas[1 + 25];
  uint32_t n_schemas = 0;
  schemas[n_schemas++] = &t->key;
  for (uint32_t i = 0; i < t->n_indexes; i++)
    schemas[n_schemas++] = &t->indexes[i].key;
  for (uint32_t s = 0; s < n_schemas; s++) {
    uint32_t n_names = sl_key_n_hash(schemas[s]) + sl_key_n_range(schemas[s]);
    for (uint32_t k = 0; k < n_names; k++) {
      sl_str name = sl_key_part(schemas[s], k).name;
      bool seen = false;
      for (uint32_t j = 0; j < n_used; j++)
        seen |= sl_str_eq(used[j], name);
      if (!seen)
        used[n_used++] = name;
    }
  }
  for (uint32_t i = 0; i < t->n_defs; i++) {
    bool found = false;
    for (uint32_t j = 0; j < n_used; j++)
      found |= sl_str_eq(used[j], t->defs[i].name);
    all_used &= found;
  }
  if (all_used)
    return SL_OK;
  if (t->n_indexes == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Number of attributes in KeySchema "
                   "does not exactly match number of attributes defined in AttributeDefinitions");
  sl_buf defs, keys;
  sl_buf_init(&defs, req->arena);
  sl_buf_init(&keys, req->arena);
  for (uint32_t i = 0; i < t->n_defs; i++) {
    if (i)
      sl_buf_puts(&defs, SL_STR(", "));
    sl_buf_puts(&defs, t->defs[i].name);
  }
  for (uint32_t i = 0; i < n_used; i++) {
    if (i)
      sl_buf_puts(&keys, SL_STR(", "));
    sl_buf_puts(&keys, used[i]);
  }
  return sl_fail(req, SL_E_VALIDATION,
                 "One or more parameter values were invalid: Some AttributeDefinitions are not "
                 "used. AttributeDefinitions: [%.*s], keys used: [%.*s]",
                 SL_STR_FMT(sl_buf_str(&defs)), SL_STR_FMT(sl_buf_str(&keys)));
}

/* Builds the table described by the request (not yet stored). */
static sl_err build(sl_req *req, sl_table *t) {
  const sl_json *body = req->body;
  sl_err err;
  t->name = sl_table_str(t, sl_in_str(body, "TableName"));
  if ((err = sl_req_check_table_name(req, t->name, "tableName")) != SL_OK)
    return err;
  t->arn = sl_table_str(t, sl_req_table_arn(req, t->name));

  /* Billing mode and throughput. */
  sl_str billing = sl_in_str(body, "BillingMode");
  t->tp.billing =
      sl_str_eq_c(billing, "PAY_PER_REQUEST") ? SL_BILLING_PAY_PER_REQUEST : SL_BILLING_PROVISIONED;
  const sl_json *pt = sl_json_get(body, "ProvisionedThroughput");
  bool has_pt = pt && pt->type == SL_JSON_OBJECT;
  if (t->tp.billing == SL_BILLING_PAY_PER_REQUEST && has_pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
                   "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
  if (t->tp.billing == SL_BILLING_PROVISIONED && !has_pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: ReadCapacityUnits and "
                   "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  if (has_pt && (err = parse_units(req, pt, &t->tp.rcu, &t->tp.wcu)) != SL_OK)
    return err;
  t->tp.highest_rcu = t->tp.rcu;
  t->tp.highest_wcu = t->tp.wcu;
  t->tp.max_read_ru = t->tp.max_write_ru = -1;
  sl_units_in od = sl_in_units(sl_json_get(body, "OnDemandThroughput"), "MaxReadRequestUnits",
                               "MaxWriteRequestUnits");
  sl_units_in wt =
      sl_in_units(sl_json_get(body, "WarmThroughput"), "ReadUnitsPerSecond", "WriteUnitsPerSecond");
  if ((err = sl_tp_set_on_demand(req, "table", &t->tp, &od)) != SL_OK ||
      (err = sl_tp_set_warm(req, "table", t->name, &t->tp, NULL, &wt, true)) != SL_OK)
    return err;
  if (t->tp.billing == SL_BILLING_PAY_PER_REQUEST)
    t->tp.last_ppr_update_ms = (uint64_t)req->now_ms;

  /* Attribute definitions and key schema. */
  const sl_json *defs = sl_json_get(body, "AttributeDefinitions");
  t->defs = SL_NEW_ARRAY(&t->mem, sl_attr_def, defs->arr.n + 1);
  for (size_t i = 0; i < defs->arr.n; i++) {
    sl_str name = sl_in_str(defs->arr.items[i], "AttributeName");
    uint8_t type = sl_schema_attr_type(sl_in_str(defs->arr.items[i], "AttributeType"));
    for (uint32_t j = 0; j < t->n_defs; j++)
      if (sl_str_eq(t->defs[j].name, name))
        return sl_fail(req, SL_E_VALIDATION, "Attribute Name is duplicated: %.*s",
                       SL_STR_FMT(name));
    t->defs[t->n_defs++] = (sl_attr_def){sl_table_str(t, name), type};
  }
  sl_key_schema_in ks = sl_in_key_schema(req->arena, sl_json_get(body, "KeySchema"));
  if ((err = sl_schema_key(req, t, &ks, &t->key)) != SL_OK)
    return err;
  if ((err = parse_indexes(req, t, sl_json_get(body, "LocalSecondaryIndexes"), false)) != SL_OK)
    return err;
  if ((err = parse_indexes(req, t, sl_json_get(body, "GlobalSecondaryIndexes"), true)) != SL_OK)
    return err;
  if ((err = check_defs_used(req, t)) != SL_OK)
    return err;

  /* Everything else the service accepts at creation. */
  /* An empty Tags list is accepted at creation, unlike TagResource's
   * (ack-api-quirks DDB-TABLE-110). */
  const sl_json *tags = sl_in_arr(body, "Tags");
  if (tags && tags->arr.n > 0) {
    sl_tag *in;
    uint32_t n;
    sl_in_tags(req->arena, tags, &in, &n);
    if ((err = sl_in_check_tags(&req->fail, tags)) != SL_OK ||
        (err = sl_tables_merge_tags(req, t, in, n)) != SL_OK)
      return err;
  }
  t->deletion_protection = sl_in_bool(body, "DeletionProtectionEnabled", false);
  t->table_class = sl_str_eq_c(sl_in_str(body, "TableClass"), "STANDARD_INFREQUENT_ACCESS");
  const sl_json *ss = sl_json_get(body, "StreamSpecification");
  /* The service's texts (ACKQ DDB-TABLE-442 catalogue; test_streams.py). */
  if (ss && ss->type == SL_JSON_OBJECT && !sl_in_bool(ss, "StreamEnabled", false) &&
      sl_in_str(ss, "StreamViewType").p)
    return sl_fail(
        req, SL_E_VALIDATION,
        "One or more parameter values were invalid: Table is being created with a stream "
        "disabled, UpdateViewType should not be specified");
  if (ss && ss->type == SL_JSON_OBJECT && sl_in_bool(ss, "StreamEnabled", false)) {
    sl_str view = sl_in_str(ss, "StreamViewType");
    if (view.len == 0)
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: Table is being created with a "
                     "stream enabled, UpdateViewType is required");
    t->stream_enabled = true;
    t->stream_view_type = sl_table_str(t, view);
    char label[32];
    sl_time_format_iso(req->now_ms, label);
    label[23] = 0; /* "2026-11-30T12:00:00.000" */
    t->stream_label = sl_table_str(t, sl_str_c(label));
  }
  static const sl_unsupported unsupported[] = {
      {"ResourcePolicy", "resource-based policies"},
      {"GlobalTableSourceArn", "global tables"},
      {"GlobalTableSettingsReplicationMode", "global tables"},
  };
  if ((err = sl_in_refuse_unsupported(req, body, unsupported,
                                      sizeof(unsupported) / sizeof(unsupported[0]))) != SL_OK)
    return err;
  return sl_in_refuse_kms(req, body);
}

sl_err sl_action_create_table(sl_req *req) {
  sl_table *t = sl_table_new();
  sl_err err = build(req, t);
  if (err != SL_OK) {
    sl_table_free(t);
    return err;
  }
  if ((err = sl_create_table(req, t)) != SL_OK)
    return err;
  /* The reply always describes the new table as CREATING, as the service's
   * does. */
  sl_jw_obj_begin(&req->w);
  sl_jw_key_c(&req->w, "TableDescription");
  sl_describe_table(req, req->table, SL_STATUS_CREATING);
  sl_jw_obj_end(&req->w);
  return SL_OK;
}
