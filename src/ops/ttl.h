/*
 * ttl.h — Time to Live: the UpdateTimeToLive rules and the expiry sweep.
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
 * Expiry: an item whose TTL attribute is a Number of epoch seconds at or
 * before the clock is expired; one whose time is more than five years in the
 * past is not (the service ignores such values), nor is an attribute of any
 * other type. A sweep of each TTL-enabled table starts at most every
 * ttl_delete_delay_ms of the clock and walks the table in key order,
 * SL_TTL_ITEMS_PER_MS items per millisecond of clock since its last step and
 * at most SL_TTL_STEP_ITEMS a tick (ticks also run before every request, and
 * must stay cheap there; a table of a million items takes ~50 s of clock a
 * pass, so its expired items may outlive the delay); expired items are deleted with
 * sl_store_item_delete (indexes follow) without consuming capacity, and
 * counted in TimeToLiveDeletedItemCount. Expired items stay readable until
 * the sweep reaches them, as on the service.
 *
 * Threads: the loop thread.
 */
#ifndef SL_API_TTL_H
#define SL_API_TTL_H

#include "ops/req.h"

#define SL_TTL_STEP_ITEMS 2000
#define SL_TTL_ITEMS_PER_MS 20

enum { SL_TTL_DISABLED = 0, SL_TTL_ENABLING = 1, SL_TTL_ENABLED = 2, SL_TTL_DISABLING = 3 };

/* Checks TimeToLiveSpecification {Enabled, AttributeName} against 't' with
 * the service's messages, in its order. */
sl_err sl_ttl_check_update(sl_req *req, const sl_table *t, bool enable, sl_str attr);

/* True when 'it' has expired on table 't' at 'now_ms'. */
bool sl_ttl_expired(const sl_table *t, const sl_item *it, int64_t now_ms);

/* One step of the expiry sweep; returns the number of items deleted. */
uint64_t sl_ttl_tick(sl_app *app, int64_t now_ms);

#endif
