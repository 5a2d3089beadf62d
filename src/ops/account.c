/* DescribeLimits' and DescribeEndpoints' cores; see account.h. Pinned by
 * tests/conformance/test_capacity_http.py (DescribeLimits) and
 * test_describe_endpoints.py. */
#include "ops/account.h"
#include "cap/cap.h"

void sl_describe_limits(sl_req *req, sl_account_limits *out) {
  const sl_cap_params *p = sl_cap_params_of(req->env->cap);
  out->account_read = p->account_quota_read;
  out->account_write = p->account_quota_write;
  out->table_read = p->table_quota_read;
  out->table_write = p->table_quota_write;
}

sl_str sl_describe_endpoint(sl_req *req) {
  if (req->host.len)
    return req->host;
  return sl_arena_printf(req->arena, "dynamodb.%s.amazonaws.com", req->env->region);
}
