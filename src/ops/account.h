/*
 * account.h — the cores of DescribeLimits and DescribeEndpoints: the
 * account's capacity quotas (cap/params.def, the numbers the capacity engine
 * enforces) and the address clients should call (the Host the request was
 * sent to, else the service's regional name).
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_ACCOUNT_H
#define SL_OPS_ACCOUNT_H

#include "ops/req.h"

typedef struct {
  int64_t account_read, account_write; /* AccountMax{Read,Write}CapacityUnits */
  int64_t table_read, table_write;     /* TableMax{Read,Write}CapacityUnits */
} sl_account_limits;

void sl_describe_limits(sl_req *req, sl_account_limits *out);

/* The endpoint's address; its cache period is SL_ENDPOINT_CACHE_MINUTES. */
#define SL_ENDPOINT_CACHE_MINUTES 1440
sl_str sl_describe_endpoint(sl_req *req);

#endif
