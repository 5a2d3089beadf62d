/*
 * ttl.h — Time to Live: the UpdateTimeToLive rules.
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

/* Checks TimeToLiveSpecification {Enabled, AttributeName} against 't' with
 * the service's messages, in its order. */
sl_err sl_ttl_check_update(sl_req *req, const sl_table *t, bool enable, sl_str attr);

#endif
