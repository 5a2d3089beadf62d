/*
 * DescribeEndpoints — the endpoint clients should use: this server, as the
 * client reached it (its Host header, as the service names the host the
 * client used); the service's regional name when the request had no Host.
 * Pinned by tests/conformance/test_describe_endpoints.py.
 */
#include "actions/actions.h"
#include "ops/account.h"

sl_err sl_action_describe_endpoints(sl_req *req) {
  sl_jw *w = &req->w;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Endpoints");
  sl_jw_arr_begin(w);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Address");
  sl_jw_str(w, sl_describe_endpoint(req));
  sl_jw_key_c(w, "CachePeriodInMinutes");
  sl_jw_int(w, SL_ENDPOINT_CACHE_MINUTES);
  sl_jw_obj_end(w);
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
  return SL_OK;
}
