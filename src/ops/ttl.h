/*
 * ttl.h — Time to Live: the cores of UpdateTimeToLive and
 * DescribeTimeToLive, with the service's rules.
 *
 * Rules (facts §10; ack-api-quirks DDB-TABLE-143..147, the live service's
 * texts; tests/conformance/test_ttl.py):
 *  - the status is ENABLED or DISABLED at once (the service's ENABLING and
 *    DISABLING were never observed); DescribeTimeToLive shows AttributeName
 *    only while ENABLED;
 *  - enabling when enabled: "TimeToLive is already enabled" (same attribute)
 *    or "TimeToLive is active on a different AttributeName: current
 *    AttributeName is X"; disabling needs the current attribute (the same
 *    "different AttributeName" text otherwise) and, when disabled, fails with
 *    "TimeToLive is already disabled";
 *  - these checks come first; then a second change within
 *    ttl_update_interval_ms (one hour) of the last one fails with "Time to live
 *    has been modified multiple times within a fixed interval".
 *
 *
 * The expiry sweep is jobs/ttl.h.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_TTL_H
#define SL_OPS_TTL_H

#include "jobs/ttl.h"
#include "ops/req.h"

/* UpdateTimeToLive: TimeToLiveSpecification {Enabled, AttributeName} for
 * the table 'table' names, checked against it with the service's messages in
 * its order, then committed (a new setting starts a new expiry sweep). */
sl_err sl_update_time_to_live(sl_req *req, sl_str table, bool enable, sl_str attr);

/* DescribeTimeToLive's TimeToLiveDescription. */
typedef struct {
  uint8_t status; /* SL_TTL_* (jobs/ttl.h) */
  sl_str attr;    /* AttributeName while ENABLED or ENABLING, else empty */
} sl_ttl_description;
/* Refused while the table is CREATING or DELETING (the service's text). */
sl_err sl_describe_time_to_live(sl_req *req, sl_str table, sl_ttl_description *out);

#endif
