/* Read-side request members and page replies; see reads.h. */
#include "api/reads.h"
#include "base/log.h"

sl_err sl_reads_index(sl_req *req, const sl_table *t, const sl_index **out) {
  *out = NULL;
  sl_str name = sl_req_str(req->body, "IndexName");
  if (!sl_req_has(req->body, "IndexName"))
    return SL_OK;
  const sl_index *x = sl_table_index(t, name);
  if (!x)
    return sl_fail(req, SL_E_VALIDATION, "The table does not have the specified index: %.*s",
                   SL_STR_FMT(name));
  *out = x;
  return SL_OK;
}

sl_err sl_reads_parse(sl_req *req, const sl_table *t, const sl_index *x, sl_reads_kind kind,
                      sl_read_exprs *out) {
  memset(out, 0, sizeof(*out));
  const sl_json *body = req->body;
  sl_str select = sl_req_str(body, "Select");
  if (sl_str_eq_c(select, "COUNT"))
    out->select = SL_SELECT_COUNT;
  else if (sl_str_eq_c(select, "ALL_PROJECTED_ATTRIBUTES"))
    out->select = SL_SELECT_ALL_PROJECTED_ATTRIBUTES;
  else if (sl_str_eq_c(select, "SPECIFIC_ATTRIBUTES"))
    out->select = SL_SELECT_SPECIFIC_ATTRIBUTES;
  if (out->select == SL_SELECT_ALL_PROJECTED_ATTRIBUTES && !x)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Select type "
                   "ALL_PROJECTED_ATTRIBUTES is not supported without an IndexName");
  (void)t;
  (void)kind;
  return SL_OK;
}

void sl_reads_page_opts(sl_read_exprs *ex, sl_page_opts *o) {
  o->count_only = ex->select == SL_SELECT_COUNT;
  o->fetch_base = ex->fetch_base;
}

sl_item sl_reads_project(sl_req *req, const sl_read_exprs *ex, const sl_item *it) {
  (void)req;
  (void)ex;
  return *it;
}

void sl_reads_write_page(sl_req *req, const sl_table *t, const sl_index *x, const sl_read_exprs *ex,
                         const sl_page_result *page) {
  sl_jw *w = &req->w;
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
    sl_page_write_last_key(req, t, x, &page->last);
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
