/* Shared reply members; see reply.h. */
#include "actions/reply.h"
#include "actions/members.h"
#include "ops/pages.h"

#include <stdio.h>

void sl_reply_single_write(sl_req *req, const sl_write_plan *plan, const sl_write_result *res) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  if (res->attributes.n) {
    sl_jw_key_c(w, "Attributes");
    sl_item_write_json(w, &res->attributes);
  }
  sl_rcc rcc = sl_in_rcc(req->body);
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = res->consumed;
    c.table_name = sl_in_str(req->body, "TableName");
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_reply_consumed(&req->w, &c, rcc);
  }
  if (plan->has_collection &&
      sl_str_eq_c(sl_in_str(req->body, "ReturnItemCollectionMetrics"), "SIZE")) {
    sl_jw_key_c(w, "ItemCollectionMetrics");
    sl_reply_collection(w, plan);
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
    sl_item key = {SL_NEW_ARRAY(req->arena, sl_attr, 2 + 2 * SL_KEY_MAX_PARTS), 0};
    sl_page_copy_key_attrs(&key, &page->last, &t->key);
    if (x)
      sl_page_copy_key_attrs(&key, &page->last, &x->key);
    sl_item_canonicalize(&key);
    sl_item_write_json(w, &key);
  }
  sl_rcc rcc = sl_in_rcc(req->body);
  if (rcc != SL_RCC_NONE) {
    sl_consumed c = {.table_name = sl_in_str(req->body, "TableName"),
                     .table_read_mu = page->table_mu};
    if (x)
      sl_consumed_add_index(&c, x->name, x->global, page->index_mu, 0);
    sl_jw_key_c(w, "ConsumedCapacity");
    sl_reply_consumed(&req->w, &c, rcc);
  }
  sl_jw_obj_end(w);
}

/* ---- members of several replies ---- */

static void write_units(sl_jw *w, const char *key, int64_t mu) {
  sl_jw_key_c(w, key);
  sl_jw_double(w, (double)mu / 1000.0);
}

/* {["ReadCapacityUnits":r,]["WriteCapacityUnits":w,]"CapacityUnits":x}. */
static void write_capacity(sl_jw *w, int64_t read_mu, int64_t write_mu, bool rd, bool wr) {
  sl_jw_obj_begin(w);
  if (rd)
    write_units(w, "ReadCapacityUnits", read_mu);
  if (wr)
    write_units(w, "WriteCapacityUnits", write_mu);
  write_units(w, "CapacityUnits", read_mu + write_mu);
  sl_jw_obj_end(w);
}

/* One ConsumedCapacity object. The read/write split: a single operation
 * shows it only when it did both (none does today; kept for the shape), a
 * transaction per direction it used, as the service reports them (AWS CLI
 * examples; live observations in test_transact_write_items.py). */
static void write_consumed(sl_jw *w, const sl_consumed *c, sl_rcc mode, bool transact) {
  int64_t read = c->table_read_mu, write = c->table_write_mu;
  for (uint32_t i = 0; i < c->n_idx; i++) {
    read += c->idx[i].read_mu;
    write += c->idx[i].write_mu;
  }
  bool rd = transact ? read > 0 : read > 0 && write > 0;
  bool wr = transact ? write > 0 : rd;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, c->table_name);
  write_units(w, "CapacityUnits", read + write);
  if (rd)
    write_units(w, "ReadCapacityUnits", read);
  if (wr)
    write_units(w, "WriteCapacityUnits", write);
  if (mode == SL_RCC_INDEXES) {
    sl_jw_key_c(w, "Table");
    write_capacity(w, c->table_read_mu, c->table_write_mu, rd, wr);
    for (int global = 0; global < 2; global++) {
      bool any = false;
      for (uint32_t i = 0; i < c->n_idx; i++) {
        if (c->idx[i].global != global)
          continue;
        if (!any) {
          sl_jw_key_c(w, global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
          sl_jw_obj_begin(w);
          any = true;
        }
        sl_jw_key(w, c->idx[i].name);
        write_capacity(w, c->idx[i].read_mu, c->idx[i].write_mu, rd, wr);
      }
      if (any)
        sl_jw_obj_end(w);
    }
  }
  sl_jw_obj_end(w);
}

void sl_reply_consumed(sl_jw *w, const sl_consumed *c, sl_rcc mode) {
  write_consumed(w, c, mode, false);
}

void sl_reply_transact_consumed(sl_jw *w, const sl_transact_tables *tt, sl_rcc mode) {
  if (mode == SL_RCC_NONE)
    return;
  sl_jw_key_c(w, "ConsumedCapacity");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < tt->n; i++)
    write_consumed(w, &tt->c[i], mode, true);
  sl_jw_arr_end(w);
}

void sl_reply_time(sl_jw *w, int64_t epoch_ms) {
  char tmp[40];
  int64_t s = epoch_ms / 1000, ms = epoch_ms % 1000;
  snprintf(tmp, sizeof(tmp), "%lld.%03lld", (long long)s, (long long)ms);
  sl_jw_number_raw(w, sl_str_c(tmp));
}

void sl_reply_collection(sl_jw *w, const sl_write_plan *p) {
  sl_attr key = {p->t->key.hash, *p->kv.hash};
  sl_item it = {&key, 1};
  int64_t gb = p->collection_bytes >> 30;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ItemCollectionKey");
  sl_item_write_json(w, &it);
  sl_jw_key_c(w, "SizeEstimateRangeGB");
  sl_jw_arr_begin(w);
  sl_jw_double(w, (double)gb);
  sl_jw_double(w, (double)(gb + 1));
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

void sl_reply_throttle_reasons(sl_jw *w, const sl_cap_verdict *v) {
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < v->n_reasons; i++) {
    const sl_cap_reason *r = &v->reasons[i];
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "reason");
    sl_jw_str_c(w, sl_cap_reason_name(sl_cap_res_is_index(r->res), (sl_cap_dir)r->dir,
                                      (sl_cap_limit)r->limit));
    sl_jw_key_c(w, "resource");
    sl_jw_str(w, sl_cap_res_arn(r->res));
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

/* ---- error details ---- */

static const char *reason_code(const sl_transact_reason *r) { return r->code ? r->code : "None"; }

static void write_cancellation(sl_jw *w, const sl_transact_cancel_detail *d) {
  sl_jw_key_c(w, "CancellationReasons");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < d->n; i++) {
    const sl_transact_reason *r = &d->r[i];
    sl_jw_obj_begin(w);
    if (r->item) {
      sl_jw_key_c(w, "Item");
      sl_item_write_json(w, r->item);
    }
    sl_jw_key_c(w, "Code");
    sl_jw_str_c(w, reason_code(r));
    /* "None" carries no Message at all (facts §1.4). */
    if (r->code) {
      sl_jw_key_c(w, "Message");
      sl_jw_str(w, r->message);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

void sl_reply_error_detail(sl_jw *w, const sl_failure *f) {
  switch ((sl_fail_detail)f->detail_kind) {
  case SL_DETAIL_NONE:
    break;
  case SL_DETAIL_THROTTLE:
    /* ThrottlingException's model member is lower-case "throttlingReasons";
     * the other two exceptions use "ThrottlingReasons" (facts §1.2). */
    sl_jw_key_c(w, f->code == SL_E_THROTTLING ? "throttlingReasons" : "ThrottlingReasons");
    sl_reply_throttle_reasons(w, f->detail);
    break;
  case SL_DETAIL_ITEM:
    sl_jw_key_c(w, "Item");
    sl_item_write_json(w, f->detail);
    break;
  case SL_DETAIL_CANCEL:
    write_cancellation(w, f->detail);
    break;
  }
}
