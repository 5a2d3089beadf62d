/*
 * Throttled requests on the wire: which exception, which message, which
 * reasons list (facts §1.2–1.4, spec §3). Pinned by
 * tests/conformance/test_throttling_wire.py.
 */
#include "api/req.h"

static const char msg_provisioned_table[] = "The level of configured provisioned throughput for "
                                            "the table was exceeded. Consider increasing "
                                            "your provisioning level with the UpdateTable API.";
static const char msg_provisioned_index[] =
    "The level of configured provisioned throughput for one or more global secondary indexes of "
    "the "
    "table was exceeded. Consider increasing your provisioning level for the under-provisioned "
    "global secondary indexes with the UpdateTable API";
static const char msg_on_demand_table[] =
    "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically "
    "scaling your table or index so please try again shortly. If exceptions persist, check if you "
    "have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
static const char msg_on_demand_index[] =
    "Throughput exceeds the current capacity for one or more global secondary indexes. DynamoDB is "
    "automatically scaling your index so please try again shortly.";
static const char msg_account[] =
    "Throughput exceeds the current throughput limit for your account. To request a limit "
    "increase, contact AWS Support at https://aws.amazon.com/support";

void sl_throttle_exception(const sl_cap_verdict *v, sl_err *code, const char **message) {
  const sl_cap_reason *r = &v->reasons[0];
  bool index = sl_cap_res_is_index(r->res);
  switch ((sl_cap_limit)r->limit) {
  case SL_LIMIT_MAX_ON_DEMAND:
    *code = SL_E_THROTTLING;
    *message = index ? msg_on_demand_index : msg_on_demand_table;
    return;
  case SL_LIMIT_ACCOUNT:
    *code = SL_E_REQUEST_LIMIT_EXCEEDED;
    *message = msg_account;
    return;
  case SL_LIMIT_PROVISIONED:
    *code = SL_E_PROVISIONED_THROUGHPUT_EXCEEDED;
    *message = index ? msg_provisioned_index : msg_provisioned_table;
    return;
  case SL_LIMIT_KEY_RANGE:
    if (sl_cap_res_on_demand(r->res)) {
      *code = SL_E_THROTTLING;
      *message = index ? msg_on_demand_index : msg_on_demand_table;
    } else {
      *code = SL_E_PROVISIONED_THROUGHPUT_EXCEEDED;
      *message = index ? msg_provisioned_index : msg_provisioned_table;
    }
    return;
  }
}

void sl_throttle_write_reasons(sl_jw *w, const sl_cap_verdict *v) {
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

sl_err sl_req_throttled(sl_req *req, const sl_cap_verdict *v) {
  sl_err code;
  const char *message;
  sl_throttle_exception(v, &code, &message);
  sl_buf b;
  sl_buf_init(&b, req->arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  /* ThrottlingException's model member is lower-case "throttlingReasons";
   * the other two exceptions use "ThrottlingReasons" (facts §1.2). */
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, code == SL_E_THROTTLING ? "throttlingReasons" : "ThrottlingReasons");
  sl_throttle_write_reasons(&w, v);
  sl_jw_obj_end(&w);
  /* Keep the members without the braces: the error writer splices them. */
  sl_fail(req, code, "%s", message);
  req->fail.extra = sl_str_make(b.p + 1, b.len - 2);
  return code;
}

sl_err sl_req_admit(sl_req *req, const sl_cap_charge *charges, size_t n) {
  sl_cap_verdict v;
  if (sl_cap_admit(req->app->cap, charges, n, &v))
    return SL_OK;
  return sl_req_throttled(req, &v);
}
