/*
 * DescribeEndpoints — the endpoint clients should use: this server.
 * Pinned by tests/conformance/test_describe_endpoints.py.
 */
#include "actions/actions.h"
#include "ops/req.h"

sl_err sl_action_describe_endpoints(sl_req *req) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Endpoints");
  sl_jw_arr_begin(w);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Address");
  sl_jw_str_c(w, req->env->endpoint_address ? req->env->endpoint_address
                                            : "dynamodb.us-east-1.amazonaws.com");
  sl_jw_key_c(w, "CachePeriodInMinutes");
  sl_jw_int(w, 1440);
  sl_jw_obj_end(w);
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
