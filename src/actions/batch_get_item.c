/*
 * BatchGetItem — up to 100 items by key over one or more tables, each read
 * admitted by the capacity engine on its own.
 * Pinned by tests/conformance/test_batch_get_item.py and
 * test_batch_capacity.py.
 *
 * Request: RequestItems {table name or ARN: {Keys, ConsistentRead,
 * ProjectionExpression, ExpressionAttributeNames, AttributesToGet}},
 * ReturnConsumedCapacity.
 *
 * Order of checks (dynalite's record of the service's texts, DynamoDB Local's
 * order):
 *  1. per table, in request order: expression and legacy projection members
 *     not mixed; each key's values (the item codec), no key twice ("Provided
 *     list of item keys contains duplicates", before the table is even looked
 *     up), and the running count: the 101st key is "Too many items requested
 *     for the BatchGetItem call"; AttributesToGet without duplicates; the
 *     projection and its names parsed (ops/reads.h) — the service's order,
 *     which validates a request whole before it looks a table up (DynamoDB
 *     Local looks the table up first: tests/conformance/
 *     test_validation_order.py);
 *  2. every table exists (ResourceNotFoundException). DynamoDB Local looks
 *     each table up and checks its keys table by table, in the order of its
 *     hash map, so which error wins between a bad key in one table and an
 *     unknown other table depends on the names; sluice looks every table up
 *     first, in request order;
 *  3. per table: its projection against the key schema (no path into a key
 *     attribute), then each key against the key schema, and no item asked twice across a table
 * named once by name and once by ARN.
 *
 * Then the core (ops/batch_get_item.h: per-key admission in request order,
 * the 16 MB limit) and the reply: Responses lists each table's items
 * (missing ones are simply absent; a table with none gets []);
 * UnprocessedKeys come back with their table's ConsistentRead and
 * projection members, so that the value can be sent again as is;
 * ConsumedCapacity is a list with one entry per RequestItems key.
 */
#include "actions/actions.h"
#include "ops/batch.h"
#include "ops/batch_get_item.h"
#include "expr/expr.h"
#include "store/key.h"

static bool item_eq(const sl_item *a, const sl_item *b) {
  if (a->n != b->n)
    return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!sl_str_eq(a->attrs[i].name, b->attrs[i].name) || !sl_av_eq(&a->attrs[i].v, &b->attrs[i].v))
      return false;
  return true;
}

/* Step 1 for one table: projection members, keys, count. */
static sl_err parse_table(sl_req *req, const sl_json *spec, uint32_t table, sl_bg_key *keys,
                          uint32_t *n) {
  /* A table entry carries GetItem's projection members. */
  sl_err err = sl_expr_check_params(&req->fail, spec, SL_EXPR_OP_GET_ITEM);
  if (err != SL_OK)
    return err;
  bool legacy = sl_in_has(spec, "AttributesToGet");
  const sl_json *list = sl_json_get(spec, "Keys");
  uint32_t first = *n;
  for (size_t i = 0; list && list->type == SL_JSON_ARRAY && i < list->arr.n; i++) {
    const sl_json *k = list->arr.items[i];
    sl_item key = {0};
    if (k && k->type == SL_JSON_OBJECT &&
        (err = sl_item_from_json(&req->fail, req->arena, k, &key)) != SL_OK)
      return err;
    for (uint32_t j = first; j < *n; j++)
      if (item_eq(&keys[j].key, &key))
        return sl_fail(req, SL_E_VALIDATION, "Provided list of item keys contains duplicates");
    if (*n == SL_BATCH_GET_MAX)
      return sl_fail(req, SL_E_VALIDATION, "Too many items requested for the BatchGetItem call");
    sl_bg_key *g = &keys[(*n)++];
    g->json = k;
    g->table = table;
    g->key = key;
  }
  const sl_json *atg = sl_json_get(spec, "AttributesToGet");
  for (size_t i = 0; legacy && atg->type == SL_JSON_ARRAY && i < atg->arr.n; i++) {
    for (size_t j = 0; j < i; j++) {
      const sl_json *a = atg->arr.items[i], *b = atg->arr.items[j];
      if (a && b && a->type == SL_JSON_STRING && b->type == SL_JSON_STRING &&
          sl_str_eq(a->str, b->str))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: Duplicate value in attribute "
                       "name: %.*s",
                       SL_STR_FMT(a->str));
    }
  }
  return SL_OK;
}

/* Step 3 for one table: its projection members (a KeysAndAttributes entry
 * has GetItem's member names). */
/* Step 1 for one table's projection: parsed before any table is looked up,
 * as the service validates a request whole first. */
static sl_err parse_projection(sl_req *req, sl_bg_table *gt) {
  gt->consistent = sl_in_bool(gt->spec, "ConsistentRead", false);
  return sl_reads_parse_of(req, gt->spec, false, SL_READS_GET, &gt->ex);
}

/* Step 3 for one key: the schema, and no earlier key on the same item. */
static sl_err check_key(sl_req *req, const sl_table *t, sl_bg_key *keys, uint32_t i) {
  sl_bg_key *g = &keys[i];
  sl_err err = sl_req_check_key(req, t, &g->key, &g->kv);
  if (err != SL_OK)
    return err;
  g->skey = sl_batch_item_key(req, t, &g->kv);
  for (uint32_t j = 0; j < i; j++)
    if (sl_str_eq(keys[j].skey, g->skey))
      return sl_fail(req, SL_E_VALIDATION, "Provided list of item keys contains duplicates");
  return SL_OK;
}

static void echo_member(sl_jw *w, const sl_json *spec, const char *member) {
  if (!sl_in_has(spec, member))
    return;
  sl_jw_key_c(w, member);
  sl_jw_value(w, sl_json_get(spec, member));
}

static void write_reply(sl_req *req, const sl_bg_table *tables, uint32_t n_tables,
                        const sl_bg_key *keys, uint32_t n, sl_rcc rcc) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  int64_t returned = 0;
  for (uint32_t i = 0; i < n; i++)
    returned += keys[i].state == SL_BG_READ && keys[i].found;
  sl_req_record_returned(req, returned);
  sl_jw_key_c(w, "Responses");
  sl_jw_obj_begin(w);
  for (uint32_t ti = 0; ti < n_tables; ti++) {
    sl_jw_key(w, tables[ti].given);
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < n; i++)
      if (keys[i].table == ti && keys[i].state == SL_BG_READ && keys[i].found)
        sl_item_write_json(w, &keys[i].item);
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "UnprocessedKeys");
  sl_jw_obj_begin(w);
  for (uint32_t ti = 0; ti < n_tables; ti++) {
    const sl_bg_table *gt = &tables[ti];
    if (!gt->any_unprocessed)
      continue;
    sl_jw_key(w, gt->given);
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "Keys");
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < n; i++)
      if (keys[i].table == ti && keys[i].state == SL_BG_UNPROCESSED)
        sl_jw_value(w, keys[i].json);
    sl_jw_arr_end(w);
    echo_member(w, gt->spec, "AttributesToGet");
    echo_member(w, gt->spec, "ConsistentRead");
    echo_member(w, gt->spec, "ProjectionExpression");
    echo_member(w, gt->spec, "ExpressionAttributeNames");
    sl_jw_obj_end(w);
  }
  sl_jw_obj_end(w);
  if (rcc != SL_RCC_NONE) {
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_jw_arr_begin(w);
    for (uint32_t ti = 0; ti < n_tables; ti++)
      sl_reply_consumed(&req->w, &tables[ti].consumed, rcc);
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
}

sl_err sl_action_batch_get_item(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "RequestItems");
  size_t n_members = items && items->type == SL_JSON_OBJECT ? items->obj.n : 0;
  sl_bg_table *tables = sl_arena_calloc(req->arena, n_members ? n_members : 1, sizeof(*tables));
  sl_bg_key *keys = sl_arena_calloc(req->arena, SL_BATCH_GET_MAX, sizeof(*keys));
  uint32_t n_tables = 0, n = 0;
  sl_err err;

  /* 1. Values and projections, table by table. */
  for (size_t i = 0; i < n_members; i++) {
    const sl_json_member *m = &items->obj.members[i];
    if (sl_in_member_shadowed(items, i) || !m->value || m->value->type != SL_JSON_OBJECT)
      continue;
    tables[n_tables].given = m->key;
    tables[n_tables].spec = m->value;
    if ((err = parse_table(req, m->value, n_tables, keys, &n)) != SL_OK ||
        (err = parse_projection(req, &tables[n_tables])) != SL_OK)
      return err;
    n_tables++;
  }
  /* 2. Tables. */
  for (uint32_t ti = 0; ti < n_tables; ti++)
    if ((err = sl_batch_table(req, tables[ti].given, &tables[ti].t)) != SL_OK)
      return err;
  /* 3. Projections and keys against their tables, duplicates across tables. */
  for (uint32_t ti = 0, i = 0; ti < n_tables; ti++) {
    if ((err = sl_reads_bind(req, tables[ti].t, NULL, &tables[ti].ex)) != SL_OK)
      return err;
    for (; i < n && keys[i].table == ti; i++)
      if ((err = check_key(req, tables[ti].t, keys, i)) != SL_OK)
        return err;
  }
  sl_rcc rcc = sl_in_rcc(req->body);

  if ((err = sl_batch_get_item(req, tables, n_tables, keys, n)) != SL_OK)
    return err;
  for (uint32_t ti = 0; ti < n_tables; ti++)
    tables[ti].consumed.table_name = tables[ti].given;
  for (uint32_t i = 0; i < n; i++)
    if (keys[i].state == SL_BG_UNPROCESSED)
      tables[keys[i].table].any_unprocessed = true;
  write_reply(req, tables, n_tables, keys, n, rcc);
  return SL_OK;
}
