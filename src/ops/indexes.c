/* GSI lifecycle after CreateTable: GlobalSecondaryIndexUpdates and the end
 * of a deletion; see indexes.h. Pinned by
 * tests/conformance/test_gsi_lifecycle.py. */
#include "ops/indexes.h"
#include "ops/tables.h"
#include "ops/throughput.h"
#include "base/log.h"
#include "cap/cap.h"
#include "store/key.h"

#define MAX_GSI 20
#define MAX_UNITS 1000000000000LL

static const char msg_one_online[] =
    "Subscriber limit exceeded: Only 1 online index can be created "
    "or deleted simultaneously per table";
static const char msg_no_defs[] = "One or more parameter values were invalid: "
                                  "AttributeDefinitions is not specified for index: %.*s";

static const sl_cap_params *params(sl_req *req) { return sl_cap_params_of(req->env->cap); }

/* Created by UpdateTable and still allocating resources (Backfilling false). */
static bool allocating(const sl_index *x) {
  return x->status == SL_STATUS_CREATING && x->online && !x->backfilling;
}

/* "a, b" of the GSIs allocating (deleting = false) or DELETING. */
static sl_str names_busy(sl_req *req, const sl_table *t, bool deleting) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    if (deleting ? x->status != SL_STATUS_DELETING : !allocating(x))
      continue;
    if (b.len)
      sl_buf_puts(&b, SL_STR(", "));
    sl_buf_puts(&b, x->name);
  }
  return sl_buf_str(&b);
}

sl_err sl_indexes_check_table_update(sl_req *req, const sl_table *old, bool throughput,
                                     bool on_demand, bool stream) {
  sl_str deleting = names_busy(req, old, true);
  sl_str creating = names_busy(req, old, false);
  /* A stream change: "Can't change stream status when an index is being
   * created" (ACKQ DDB-TABLE-444 catalogue), with the table and indexes
   * named as the IOPS text names them; the deleting case is worded by
   * analogy (no capture). Pinned by tests/conformance/test_update_table_rules.py. */
  if (stream && (creating.len || deleting.len))
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Can't change stream status when an index is being %s. Table: %.*s "
                             "Indexes: [%.*s]",
                   creating.len ? "created" : "deleted", SL_STR_FMT(old->name),
                   SL_STR_FMT(creating.len ? creating : deleting));
  if (throughput && deleting.len)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Can't change table IOPS when an index is being deleted. Table: %.*s "
                             "Indexes: [%.*s]",
                   SL_STR_FMT(old->name), SL_STR_FMT(deleting));
  if (throughput && creating.len)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Can't change table IOPS when an index is being created. Table: %.*s "
                             "Indexes: [%.*s]",
                   SL_STR_FMT(old->name), SL_STR_FMT(creating));
  if (on_demand && deleting.len)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE
                   "OnDemandThroughput cannot be updated while index deletion is in progress "
                   "for indexes: [%.*s]",
                   SL_STR_FMT(deleting));
  if (on_demand && creating.len)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE
                   "OnDemandThroughput cannot be updated while index creation is in progress "
                   "for indexes: [%.*s]",
                   SL_STR_FMT(creating));
  return SL_OK;
}

/* ---- GlobalSecondaryIndexUpdates ---- */

/* One action per entry, one entry per index, one Create or Delete in all. */
static sl_err check_entries(sl_req *req, const sl_gsi_updates_in *list, uint32_t *n_online,
                            bool *any_create) {
  *n_online = 0;
  *any_create = false;
  for (uint32_t i = 0; i < list->n; i++) {
    int n = list->e[i].n_actions;
    if (n == 0)
      return sl_fail(req, SL_E_VALIDATION,
                     "One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, "
                     "GlobalSecondaryIndexUpdate.Delete must not be null");
    if (n > 1)
      return sl_fail(req, SL_E_VALIDATION,
                     "Only one global secondary index action is allowed per "
                     "GlobalSecondaryIndexUpdate object");
  }
  for (uint32_t i = 0; i < list->n; i++) {
    sl_gsi_action k = list->e[i].kind;
    sl_str name = list->e[i].name;
    for (uint32_t j = 0; j < i; j++) {
      if (sl_str_eq(name, list->e[j].name))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: Only one global secondary "
                       "index update per index is allowed simultaneously. Index: %.*s",
                       SL_STR_FMT(name));
    }
    *n_online += k == SL_GSI_CREATE || k == SL_GSI_DELETE;
    *any_create |= k == SL_GSI_CREATE;
  }
  if (*n_online > 1)
    return sl_fail(req, SL_E_LIMIT_EXCEEDED, "%s", msg_one_online);
  return SL_OK;
}

/* A Create or Delete must be alone with the table-level changes the service
 * refuses next to it (ack-api-quirks DDB-TABLE-174). SSESpecification,
 * TableClass and DeletionProtectionEnabled, which must be alone in any
 * request, are refused before (ops/update_table.c). */
static sl_err check_combination(sl_req *req, unsigned also, bool create) {
  if (also & SL_UT_PROVISIONED)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: "
                   "You cannot create or delete index while updating table IOPS");
  if (also & SL_UT_STREAM)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: "
                   "You cannot create or delete index while changing stream status");
  if (!create)
    return SL_OK;
  if (also & SL_UT_WARM)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Create global secondary index "
                   "cannot be specified when updating WarmThroughput");
  return SL_OK;
}

/* The Create or Delete against the indexes already being created or deleted. */
static sl_err check_online_state(sl_req *req, const sl_table *old, sl_gsi_action kind,
                                 sl_str name) {
  const sl_index *target = sl_table_index(old, name);
  if (target && target->status == SL_STATUS_DELETING)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Index is being deleted. Table: %.*s Index: %.*s",
                   SL_STR_FMT(old->name), SL_STR_FMT(name));
  if (kind == SL_GSI_DELETE && target && allocating(target))
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE
                   "Index creation is in resource allocation phase. Retry deletion during "
                   "backfilling phase or when the index is active. Table: %.*s Index: %.*s",
                   SL_STR_FMT(old->name), SL_STR_FMT(name));
  for (uint32_t i = 0; i < old->n_indexes; i++) {
    const sl_index *x = &old->indexes[i];
    if (x == target || !x->global)
      continue;
    if (x->status == SL_STATUS_CREATING || x->status == SL_STATUS_DELETING)
      return sl_fail(req, SL_E_LIMIT_EXCEEDED, "%s", msg_one_online);
  }
  return SL_OK;
}

static sl_index *find_mut(sl_table *t, sl_str name) {
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (sl_str_eq(t->indexes[i].name, name))
      return &t->indexes[i];
  return NULL;
}

static sl_err not_found(sl_req *req, const sl_table *t, sl_str name) {
  return sl_fail(req, SL_E_RESOURCE_NOT_FOUND,
                 "Requested resource not found: Index %.*s for table %.*s", SL_STR_FMT(name),
                 SL_STR_FMT(t->name));
}

/* The per-index provisioned maximum (ack-api-quirks DDB-TABLE-170). */
static sl_err check_index_quota(sl_req *req, sl_str name, int64_t rcu, int64_t wcu) {
  const sl_cap_params *p = params(req);
  const char *what = rcu > p->table_quota_read    ? "Read"
                     : wcu > p->table_quota_write ? "Write"
                                                  : NULL;
  if (!what)
    return SL_OK;
  int64_t v = what[0] == 'R' ? rcu : wcu;
  int64_t max = what[0] == 'R' ? p->table_quota_read : p->table_quota_write;
  return sl_fail(req, SL_E_LIMIT_EXCEEDED,
                 "The requested %sCapacityUnits for index %.*s, %lld, is above the per index "
                 "maximum for the account in %s. Per table maximum: %lld. Refer to the Amazon "
                 "DynamoDB Developer Guide for current limits and how to request higher limits.",
                 what, SL_STR_FMT(name), (long long)v, req->env->region, (long long)max);
}

static sl_err apply_delete(sl_req *req, sl_table *t, const sl_gsi_update_in *a,
                           sl_index_updates *out) {
  sl_str name = a->name;
  sl_index *x = find_mut(t, name);
  if (!x)
    return not_found(req, t, name);
  if (!x->global)
    return sl_fail(req, SL_E_VALIDATION,
                   "Cannot delete an index that is not a GlobalSecondaryIndex: %.*s",
                   SL_STR_FMT(name));
  x->status = SL_STATUS_DELETING;
  out->delay_ms = sl_env_delay_ms(req->env, SL_DELAY_TABLE_UPDATE);
  x->status_until_ms = (uint64_t)(req->now_ms + out->delay_ms);
  x->backfilling = false;
  x->online = false;
  /* Writes stop paying for the index at once: its capacity is released
   * after the commit; the entries go when the deletion completes. */
  out->release = x->cap;
  x->cap = NULL;
  out->deleted = true;
  return SL_OK;
}

static sl_err apply_update(sl_req *req, const sl_table *old, sl_table *t, const sl_gsi_update_in *a,
                           sl_index_updates *out) {
  sl_str name = a->name;
  sl_index *x = find_mut(t, name);
  const sl_index *ox = sl_table_index(old, name);
  if (!x || !ox)
    return not_found(req, t, name);
  if (!x->global)
    return sl_fail(req, SL_E_VALIDATION,
                   "Cannot update an index that is not a GlobalSecondaryIndex: %.*s",
                   SL_STR_FMT(name));
  if (x->status == SL_STATUS_DELETING)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Index is being deleted. Table: %.*s Index: %.*s", SL_STR_FMT(t->name),
                   SL_STR_FMT(name));
  if (allocating(x))
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE
                   "Index is being created but is not backfilling yet. Table: %.*s Index: %.*s",
                   SL_STR_FMT(t->name), SL_STR_FMT(name));
  /* A second Update while the first is UPDATING the index (ACKQ DDB-TABLE-444
   * catalogue; seen live for a second OnDemandThroughput update of a GSI).
   * Pinned by tests/conformance/test_update_table_rules.py. */
  if (x->status == SL_STATUS_UPDATING)
    return sl_fail(req, SL_E_RESOURCE_IN_USE,
                   SL_IN_USE "Index is being updated. Table: %.*s Index: %.*s", SL_STR_FMT(t->name),
                   SL_STR_FMT(name));
  bool changed = false;
  sl_err err;
  if (a->pt.present) {
    if (t->tp.billing == SL_BILLING_PAY_PER_REQUEST)
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: The only Updates for index: %.*s "
                     "when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, "
                     "WarmThroughput",
                     SL_STR_FMT(name));
    int64_t rcu = a->pt.read, wcu = a->pt.write;
    if (rcu > MAX_UNITS || wcu > MAX_UNITS)
      return sl_fail(req, SL_E_VALIDATION,
                     "This operation cannot be performed with given input values. Please contact "
                     "DynamoDB service team for more info: Action Blocked: IndexUpdate");
    if (ox->tp.billing == SL_BILLING_PROVISIONED && rcu == ox->tp.rcu && wcu == ox->tp.wcu)
      return sl_fail(req, SL_E_VALIDATION,
                     "The provisioned throughput for the index %.*s will not change. The requested "
                     "value equals the current value. Current ReadCapacityUnits provisioned for "
                     "index %.*s: %lld. Requested ReadCapacityUnits: %lld. Current "
                     "WriteCapacityUnits provisioned for index %.*s: %lld. Requested "
                     "WriteCapacityUnits: %lld. Refer to the Amazon DynamoDB Developer Guide for "
                     "current limits and how to request higher limits.",
                     SL_STR_FMT(name), SL_STR_FMT(name), (long long)ox->tp.rcu, (long long)rcu,
                     SL_STR_FMT(name), (long long)ox->tp.wcu, (long long)wcu);
    if ((err = check_index_quota(req, name, rcu, wcu)) != SL_OK)
      return err;
    /* The index's own decrease budget (capacity-model.md §5). */
    if ((err = sl_tp_set_provisioned(req, &ox->tp, &x->tp, rcu, wcu)) != SL_OK)
      return err;
    out->throughput = true;
    changed = true;
  }
  if (a->od.present) {
    if (t->tp.billing == SL_BILLING_PROVISIONED)
      return sl_fail(
          req, SL_E_VALIDATION,
          "Max%sRequestUnits for OnDemandThroughput for index : %.*s cannot be specified "
          "when the table BillingMode is PROVISIONED",
          a->od.has_read ? "Read" : "Write", SL_STR_FMT(name));
    if ((err = sl_tp_set_on_demand(req, "index", &x->tp, &a->od)) != SL_OK)
      return err;
    changed = true;
  }
  if ((err = sl_tp_set_warm(req, "index", name, &x->tp, x->cap, &a->warm, false)) != SL_OK)
    return err;
  /* Warm throughput has its own status; the index itself stays ACTIVE. */
  if (changed && x->status == SL_STATUS_ACTIVE) {
    x->status = SL_STATUS_UPDATING;
    x->status_until_ms = (uint64_t)(req->now_ms + sl_env_delay_ms(req->env, SL_DELAY_TABLE_UPDATE));
  }
  out->any = true;
  return SL_OK;
}

static const char *key_type_name(uint8_t type) { return sl_av_type_name((sl_av_type)type); }

/* Where an attribute is a key already: "key{name:S:HASH}". */
static sl_str existing_element(sl_req *req, const sl_table *t, sl_str attr) {
  const sl_key_schema *schemas[1 + 25];
  uint32_t n = 0;
  schemas[n++] = &t->key;
  for (uint32_t i = 0; i < t->n_indexes && n < SL_ARRAY_LEN(schemas); i++)
    schemas[n++] = &t->indexes[i].key;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t nh = sl_key_n_hash(schemas[i]), np = nh + sl_key_n_range(schemas[i]);
    for (uint32_t k = 0; k < np; k++) {
      sl_key_attr a = sl_key_part(schemas[i], k);
      if (sl_str_eq(a.name, attr))
        return sl_arena_printf(req->arena, "key{%.*s:%s:%s}", SL_STR_FMT(attr),
                               key_type_name(a.type), k < nh ? "HASH" : "RANGE");
    }
  }
  return sl_arena_printf(req->arena, "key{%.*s:%s:HASH}", SL_STR_FMT(attr),
                         key_type_name(sl_table_attr_type(t, attr)));
}

/* Adds the request's definitions of the new index's key attributes to 't'.
 * Definitions no key of the index uses are ignored, as the service ignores
 * them (DDB-TABLE-162); redefining a known attribute's type is refused. */
static sl_err merge_defs(sl_req *req, sl_table *t, const sl_attr_defs_in *defs,
                         const sl_key_schema_in *ks) {
  SL_ASSERT(defs->present && defs->n > 0); /* sl_indexes_check_updates */
  sl_attr_def *all = SL_NEW_ARRAY(&t->mem, sl_attr_def, t->n_defs + ks->n + 1);
  memcpy(all, t->defs, t->n_defs * sizeof(sl_attr_def));
  t->defs = all;
  for (uint32_t k = 0; k < ks->n; k++) {
    sl_str attr = ks->e[k].attr;
    for (uint32_t i = 0; i < defs->n; i++) {
      if (!sl_str_eq(defs->e[i].attr, attr))
        continue;
      uint8_t type = sl_schema_attr_type(defs->e[i].type);
      uint8_t have = sl_table_attr_type(t, attr);
      if (have && have != type)
        /* The text Alternator's test_gsi_key_type_conflict_on_update quotes
         * from the service. */
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: Attributes cannot be redefined. "
                       "Please check that your attribute has the same type as previously defined. "
                       "Existing schema: Schema:[SchemaElement: %.*s] New schema: "
                       "Schema:[SchemaElement: key{%.*s:%s:%.*s}]",
                       SL_STR_FMT(existing_element(req, t, attr)), SL_STR_FMT(attr),
                       key_type_name(type), SL_STR_FMT(ks->e[k].type));
      if (!have)
        t->defs[t->n_defs++] = (sl_attr_def){sl_table_str(t, attr), type};
      break;
    }
  }
  return SL_OK;
}

static sl_err apply_create(sl_req *req, const sl_attr_defs_in *defs, const sl_table *old,
                           sl_table *t, const sl_gsi_update_in *a, sl_index_updates *out) {
  sl_str name = a->name;
  const sl_key_schema_in *ks = &a->key;
  sl_err err;
  if (sl_table_index(t, name))
    return sl_fail(req, SL_E_VALIDATION, "Attempting to create an index which already exists");
  uint32_t n_gsi = 0;
  for (uint32_t i = 0; i < t->n_indexes; i++)
    n_gsi += t->indexes[i].global;
  if (n_gsi >= MAX_GSI)
    return sl_fail(
        req, SL_E_LIMIT_EXCEEDED,
        "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table "
        "limit of %d",
        MAX_GSI);
  if ((err = merge_defs(req, t, defs, ks)) != SL_OK ||
      (err = sl_schema_check_keys_defined(req, t, ks)) != SL_OK)
    return err;
  sl_index x;
  memset(&x, 0, sizeof(x));
  x.global = true;
  x.name = sl_table_str(t, name);
  if ((err = sl_schema_gsi_key(req, t, ks, &x.key)) != SL_OK ||
      (err = sl_schema_projection(req, t, &a->projection, &x)) != SL_OK)
    return err;
  x.tp.billing = t->tp.billing;
  x.tp.max_read_ru = x.tp.max_write_ru = -1;
  bool pt = a->pt.present;
  if (t->tp.billing == SL_BILLING_PAY_PER_REQUEST && pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: ProvisionedThroughput should not be "
                   "specified for index: %.*s when BillingMode is PAY_PER_REQUEST",
                   SL_STR_FMT(name));
  if (t->tp.billing == SL_BILLING_PROVISIONED && !pt)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Both ReadCapacityUnits and "
                   "WriteCapacityUnits must be specified for index: %.*s",
                   SL_STR_FMT(name));
  if (pt) {
    x.tp.rcu = a->pt.read;
    x.tp.wcu = a->pt.write;
    if (x.tp.rcu > MAX_UNITS)
      return sl_fail(req, SL_E_VALIDATION,
                     "Given value %lld for ReadCapacityUnits is out of bounds",
                     (long long)x.tp.rcu);
    if (x.tp.wcu > MAX_UNITS)
      return sl_fail(req, SL_E_VALIDATION,
                     "Given value %lld for WriteCapacityUnits is out of bounds",
                     (long long)x.tp.wcu);
    if ((err = check_index_quota(req, name, x.tp.rcu, x.tp.wcu)) != SL_OK)
      return err;
    x.tp.highest_rcu = x.tp.rcu;
    x.tp.highest_wcu = x.tp.wcu;
    out->throughput = true;
  }
  if (a->od.present && t->tp.billing == SL_BILLING_PROVISIONED)
    return sl_fail(req, SL_E_VALIDATION,
                   "Max%sRequestUnits for OnDemandThroughput for index: %.*s cannot be specified "
                   "when the table BillingMode is PROVISIONED",
                   a->od.has_read ? "Read" : "Write", SL_STR_FMT(name));
  if ((err = sl_tp_set_on_demand(req, "index", &x.tp, &a->od)) != SL_OK ||
      (err = sl_tp_set_warm(req, "index", x.name, &x.tp, NULL, &a->warm, true)) != SL_OK)
    return err;
  x.arn = sl_schema_index_arn(t, name);
  /* Online creation: resources first (Backfilling false), then the backfill
   * (jobs/backfill.h) until every item is copied. With no allocation delay a
   * non-empty table's index is backfilling as soon as it exists. */
  int64_t delay = sl_env_delay_ms(req->env, SL_DELAY_INDEX_CREATE);
  out->delay_ms = delay;
  x.status = SL_STATUS_CREATING;
  x.status_until_ms = (uint64_t)INT64_MAX; /* never by sl_tables_advance */
  x.online = true;
  x.alloc_until_ms = (uint64_t)(req->now_ms + delay);
  int64_t backfill = sl_env_delay_ms(req->env, SL_DELAY_INDEX_BACKFILL);
  x.backfill_until_ms = backfill ? x.alloc_until_ms + (uint64_t)backfill : 0;
  x.backfilling = delay == 0 && old->item_count > 0;
  sl_index *all = SL_NEW_ARRAY(&t->mem, sl_index, t->n_indexes + 2);
  memcpy(all, t->indexes, t->n_indexes * sizeof(sl_index));
  all[t->n_indexes++] = x;
  t->indexes = all;
  out->created = true;
  return SL_OK;
}

/* PAY_PER_REQUEST -> PROVISIONED needs throughput for every GSI in the same
 * request (DDB-TABLE-152). */
static sl_err check_provisioned_switch(sl_req *req, const sl_table *old, const sl_table *t) {
  if (old->tp.billing != SL_BILLING_PAY_PER_REQUEST || t->tp.billing != SL_BILLING_PROVISIONED)
    return SL_OK;
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    if (x->global && x->status != SL_STATUS_DELETING && (x->tp.rcu == 0 || x->tp.wcu == 0))
      return sl_fail(req, SL_E_VALIDATION,
                     "One or more parameter values were invalid: ProvisionedThroughput must be "
                     "specified for index: %.*s",
                     SL_STR_FMT(x->name));
  }
  return SL_OK;
}

sl_err sl_indexes_check_updates(sl_req *req, const sl_gsi_updates_in *list,
                                const sl_attr_defs_in *defs, unsigned also) {
  if (!list->present)
    return SL_OK;
  /* An empty list alone counts as absent (UpdateTable's "At least one of"
   * check); next to a real change it is refused (DDB-TABLE-359). */
  if (list->n == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: List of "
                   "GlobalSecondaryIndexUpdates is empty");
  uint32_t n_online;
  bool any_create;
  sl_err err = check_entries(req, list, &n_online, &any_create);
  if (err == SL_OK && n_online)
    err = check_combination(req, also, any_create);
  for (uint32_t i = 0; err == SL_OK && i < list->n; i++)
    if (list->e[i].kind == SL_GSI_CREATE && (!defs->present || defs->n == 0))
      err = sl_fail(req, SL_E_VALIDATION, msg_no_defs, SL_STR_FMT(list->e[i].name));
  return err;
}

sl_err sl_indexes_update(sl_req *req, const sl_gsi_updates_in *list, const sl_attr_defs_in *defs,
                         const sl_table *old, sl_table *t, sl_index_updates *out) {
  memset(out, 0, sizeof(*out));
  sl_err err;
  if (list->present) {
    for (uint32_t i = 0; i < list->n; i++) {
      const sl_gsi_update_in *a = &list->e[i];
      if ((a->kind == SL_GSI_CREATE || a->kind == SL_GSI_DELETE) &&
          (err = check_online_state(req, old, a->kind, a->name)) != SL_OK)
        return err;
    }
    for (uint32_t i = 0; i < list->n; i++) {
      const sl_gsi_update_in *a = &list->e[i];
      switch (a->kind) {
      case SL_GSI_CREATE:
        err = apply_create(req, defs, old, t, a, out);
        break;
      case SL_GSI_UPDATE:
        err = apply_update(req, old, t, a, out);
        break;
      case SL_GSI_DELETE:
        err = apply_delete(req, t, a, out);
        break;
      case SL_GSI_NONE:
        err = SL_OK;
        break;
      }
      if (err != SL_OK)
        return err;
    }
    out->any = true;
  }
  if ((err = check_provisioned_switch(req, old, t)) != SL_OK)
    return err;
  if (out->throughput && (err = sl_tp_check_quotas(req, t, old)) != SL_OK)
    return err;
  return SL_OK;
}

sl_err sl_indexes_assign_ids(sl_req *req, sl_table *t) {
  bool need = false;
  for (uint32_t i = 0; i < t->n_indexes; i++)
    need |= t->indexes[i].id == 0;
  if (!need)
    return SL_OK;
  sl_txn *txn;
  sl_err err = sl_store_begin(req->env->store, true, &req->fail, &txn);
  if (err != SL_OK)
    return err;
  for (uint32_t i = 0; err == SL_OK && i < t->n_indexes; i++)
    if (t->indexes[i].id == 0)
      err = sl_store_next_id(txn, &t->indexes[i].id, &req->fail);
  if (err != SL_OK) {
    sl_store_abort(txn);
    return err;
  }
  return sl_store_commit(txn, &req->fail);
}

void sl_indexes_committed(sl_req *req, sl_table *t, sl_index_updates *u) {
  if (u->created)
    sl_tables_attach_capacity(req->env, t);
  if (u->release) {
    sl_cap_res_free(req->env->cap, u->release);
    u->release = NULL;
  }
}

sl_err sl_indexes_check_delete_table(sl_req *req, const sl_table *t) {
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (t->indexes[i].global && t->indexes[i].status != SL_STATUS_ACTIVE)
      return sl_fail(req, SL_E_RESOURCE_IN_USE,
                     SL_IN_USE "Cannot delete table while indexes are being created, updated, or "
                               "deleted.");
  return SL_OK;
}
