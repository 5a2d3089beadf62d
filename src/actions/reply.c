/* Shared reply members; see reply.h. */
#include "actions/reply.h"

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
