/*
 * BatchWriteItem — up to 25 puts and deletes over one or more tables, each
 * admitted by the capacity engine on its own.
 * Pinned by tests/conformance/test_batch_write_item.py and
 * test_batch_capacity.py.
 *
 * Request: RequestItems {table name or ARN: [{PutRequest: {Item}} |
 * {DeleteRequest: {Key}}, ...]}, ReturnConsumedCapacity,
 * ReturnItemCollectionMetrics: with SIZE, ItemCollectionMetrics lists per
 * table with LSIs one entry per admitted write, the collection's size after
 * it (ops/write.h); without such a table the member is left out. (DynamoDB
 * Local never sends it for this operation; the model documents it.)
 *
 * Order of checks (dynalite's record of the service's texts, DynamoDB Local's
 * order):
 *  1. per table, in request order: every request holds exactly one of
 *     PutRequest / DeleteRequest ("Supplied AttributeValue has more than one
 *     datatypes set, ..." — the service's text, even for an empty request);
 *     then per request its values (the item codec), a put's size, and the
 *     running count: the 26th request is "Too many items requested for the
 *     BatchWriteItem call";
 *  2. every table exists (ResourceNotFoundException). DynamoDB Local looks
 *     each table up and checks its keys table by table, in the order of its
 *     hash map, so which error wins between a bad key in one table and an
 *     unknown other table depends on the names; sluice looks every table up
 *     first, in request order;
 *  3. each item or key against its table's key schema, where a put whose key
 *     attribute is missing or of another type gets "The provided key element
 *     does not match the schema" (not PutItem's texts), and no two requests
 *     touch one item, even across a table named once by name and once by ARN
 *     ("Provided list of item keys contains duplicates").
 * All of that happens before anything is written.
 *
 * Then the core (ops/batch_write_item.h: per-write admission in request
 * order, apply, commit) and the reply: UnprocessedItems as they were sent,
 * ItemCollectionMetrics, ConsumedCapacity (a list, one entry per
 * RequestItems key).
 */
#include "actions/actions.h"
#include "ops/batch.h"
#include "ops/batch_write_item.h"

static const char msg_not_one_request[] =
    "Supplied AttributeValue has more than one datatypes set, "
    "must contain exactly one of the supported datatypes";

static bool one_request(const sl_json *r) {
  if (!r || r->type != SL_JSON_OBJECT)
    return false;
  return sl_in_has(r, "PutRequest") != sl_in_has(r, "DeleteRequest");
}

/* Step 1 for one table's list: request shapes, values, sizes and the count. */
static sl_err parse_table(sl_req *req, const sl_json *list, uint32_t table, sl_bw_request *reqs,
                          uint32_t *n) {
  for (size_t i = 0; i < list->arr.n; i++)
    if (!one_request(list->arr.items[i]))
      return sl_fail(req, SL_E_VALIDATION, "%s", msg_not_one_request);
  for (size_t i = 0; i < list->arr.n; i++) {
    const sl_json *r = list->arr.items[i];
    bool put = sl_in_has(r, "PutRequest");
    const sl_json *v = put ? sl_json_get(sl_json_get(r, "PutRequest"), "Item")
                           : sl_json_get(sl_json_get(r, "DeleteRequest"), "Key");
    sl_item item;
    sl_err err = sl_item_from_json(&req->fail, req->arena, v, &item);
    if (err != SL_OK)
      return err;
    if (put && sl_item_size(&item) > SL_ITEM_MAX_BYTES)
      return sl_fail(req, SL_E_VALIDATION, "Item size has exceeded the maximum allowed size");
    if (*n == SL_BATCH_WRITE_MAX)
      return sl_fail(req, SL_E_VALIDATION, "Too many items requested for the BatchWriteItem call");
    sl_bw_request *w = &reqs[(*n)++];
    w->value = v;
    w->put = put;
    w->table = table;
    w->item = item;
  }
  return SL_OK;
}

/* Step 3 for one request: its key against the table, and no earlier request
 * on the same item. */
static sl_err check_request(sl_req *req, const sl_table *t, sl_bw_request *reqs, uint32_t i) {
  sl_bw_request *w = &reqs[i];
  sl_err err;
  if (w->put) {
    /* The service words a bad key in a batch put like a bad Key (dynalite
     * actions/batchWriteItem.js rewrites PutItem's texts to this one). */
    if (!sl_item_keyvals(&w->item, &t->key, &w->kv))
      return sl_fail(req, SL_E_VALIDATION, "The provided key element does not match the schema");
    err = sl_req_check_item(req, t, &w->item, &w->kv);
  } else {
    err = sl_req_check_key(req, t, &w->item, &w->kv);
  }
  if (err != SL_OK)
    return err;
  w->key = sl_batch_item_key(req, t, &w->kv);
  for (uint32_t j = 0; j < i; j++)
    if (sl_str_eq(reqs[j].key, w->key))
      return sl_fail(req, SL_E_VALIDATION, "Provided list of item keys contains duplicates");
  return SL_OK;
}

static void write_collections(sl_jw *w, const sl_bw_table *tables, uint32_t n_tables,
                              const sl_bw_request *reqs, uint32_t n) {
  bool any = false;
  for (uint32_t ti = 0; ti < n_tables; ti++) {
    bool table_any = false;
    for (uint32_t i = 0; i < n; i++) {
      if (reqs[i].table != ti || !reqs[i].admitted || !reqs[i].plan.has_collection)
        continue;
      if (!any) {
        sl_jw_key_c(w, "ItemCollectionMetrics");
        sl_jw_obj_begin(w);
        any = true;
      }
      if (!table_any) {
        sl_jw_key(w, tables[ti].given);
        sl_jw_arr_begin(w);
        table_any = true;
      }
      sl_reply_collection(w, &reqs[i].plan);
    }
    if (table_any)
      sl_jw_arr_end(w);
  }
  if (any)
    sl_jw_obj_end(w);
}

static void write_unprocessed(sl_jw *w, const sl_bw_table *tables, uint32_t n_tables,
                              const sl_bw_request *reqs, uint32_t n) {
  sl_jw_key_c(w, "UnprocessedItems");
  sl_jw_obj_begin(w);
  for (uint32_t ti = 0; ti < n_tables; ti++) {
    if (!tables[ti].any_throttled)
      continue;
    sl_jw_key(w, tables[ti].given);
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < n; i++) {
      if (reqs[i].table != ti || reqs[i].admitted)
        continue;
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, reqs[i].put ? "PutRequest" : "DeleteRequest");
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, reqs[i].put ? "Item" : "Key");
      sl_jw_value(w, reqs[i].value);
      sl_jw_obj_end(w);
      sl_jw_obj_end(w);
    }
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
}

sl_err sl_action_batch_write_item(sl_req *req) {
  const sl_json *items = sl_json_get(req->body, "RequestItems");
  size_t n_members = items && items->type == SL_JSON_OBJECT ? items->obj.n : 0;
  sl_bw_table *tables = sl_arena_calloc(req->arena, n_members ? n_members : 1, sizeof(*tables));
  sl_bw_request *reqs = sl_arena_calloc(req->arena, SL_BATCH_WRITE_MAX, sizeof(*reqs));
  uint32_t n_tables = 0, n = 0;
  sl_err err;

  /* 1. Shapes and values, table by table. */
  for (size_t i = 0; i < n_members; i++) {
    const sl_json_member *m = &items->obj.members[i];
    if (sl_in_member_shadowed(items, i))
      continue;
    /* The model's checks skip a null list; the service's own then refuses
     * it (the text DynamoDB Local shares with it). */
    if (!m->value || m->value->type == SL_JSON_NULL)
      return sl_fail(req, SL_E_VALIDATION,
                     "The batch write request list for a table cannot be null or empty: %.*s",
                     SL_STR_FMT(m->key));
    if (m->value->type != SL_JSON_ARRAY)
      continue;
    tables[n_tables].given = m->key;
    if ((err = parse_table(req, m->value, n_tables, reqs, &n)) != SL_OK)
      return err;
    n_tables++;
  }
  /* 2. Tables. */
  for (uint32_t ti = 0; ti < n_tables; ti++)
    if ((err = sl_batch_table(req, tables[ti].given, &tables[ti].t)) != SL_OK)
      return err;
  /* 3. Keys against their tables; duplicates. */
  for (uint32_t i = 0; i < n; i++)
    if ((err = check_request(req, tables[reqs[i].table].t, reqs, i)) != SL_OK)
      return err;
  sl_rcc rcc = sl_in_rcc(req->body);

  if ((err = sl_batch_write_item(req, reqs, n, tables)) != SL_OK)
    return err;

  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  write_unprocessed(w, tables, n_tables, reqs, n);
  if (sl_str_eq_c(sl_in_str(req->body, "ReturnItemCollectionMetrics"), "SIZE"))
    write_collections(w, tables, n_tables, reqs, n);
  if (rcc != SL_RCC_NONE) {
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_jw_arr_begin(w);
    for (uint32_t ti = 0; ti < n_tables; ti++) {
      tables[ti].consumed.table_name = tables[ti].given;
      sl_reply_consumed(&req->w, &tables[ti].consumed, rcc);
    }
    sl_jw_arr_end(w);
  }
  sl_jw_obj_end(w);
  return SL_OK;
}
