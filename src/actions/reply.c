/* Shared reply members; see reply.h. */
#include "actions/reply.h"
#include "ops/pages.h"

void sl_reply_single_write(sl_req *req, const sl_write_plan *plan, const sl_write_result *res) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  if (res->attributes.n) {
    sl_jw_key_c(w, "Attributes");
    sl_item_write_json(w, &res->attributes);
  }
  sl_rcc rcc = sl_req_rcc(req->body);
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = res->consumed;
    c.table_name = sl_req_str(req->body, "TableName");
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_req_write_consumed(req, &c, rcc);
  }
  if (plan->has_collection &&
      sl_str_eq_c(sl_req_str(req->body, "ReturnItemCollectionMetrics"), "SIZE")) {
    sl_jw_key_c(w, "ItemCollectionMetrics");
    sl_write_plan_write_collection(w, plan);
  }
  sl_jw_obj_end(w);
}

void sl_reply_page(sl_req *req, const sl_table *t, const sl_index *x, const sl_read_exprs *ex,
                   const sl_page_result *page) {
  sl_jw *w = &req->w;
  sl_req_record_returned(req, (int64_t)page->n);
  sl_jw_obj_begin(w);
  if (ex->select != SL_SELECT_COUNT) {
    sl_jw_key_c(w, "Items");
    sl_jw_arr_begin(w);
    for (size_t i = 0; i < page->n; i++) {
      sl_item p = sl_reads_project(req, ex, &page->items[i]);
      sl_item_write_json(w, &p);
    }
    sl_jw_arr_end(w);
  }
  sl_jw_key_c(w, "Count");
  sl_jw_int(w, (int64_t)page->n);
  sl_jw_key_c(w, "ScannedCount");
  sl_jw_int(w, page->scanned);
  if (page->more) {
    sl_jw_key_c(w, "LastEvaluatedKey");
    sl_item key = {SL_NEW_ARRAY(req->arena, sl_attr, 4), 0};
    sl_page_copy_key_attrs(&key, &page->last, &t->key);
    if (x)
      sl_page_copy_key_attrs(&key, &page->last, &x->key);
    sl_item_canonicalize(&key);
    sl_item_write_json(w, &key);
  }
  sl_rcc rcc = sl_req_rcc(req->body);
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = {.table_name = sl_req_str(req->body, "TableName"),
                     .table_read_mu = page->table_mu};
    if (x)
      sl_consumed_add_index(&c, x->name, x->global, page->index_mu, 0);
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_req_write_consumed(req, &c, rcc);
  }
  sl_jw_obj_end(w);
}
