/*
 * ttl.h — Time to Live expiry on the capacity clock (the UpdateTimeToLive
 * rules are ops/ttl.h).
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
 * the store's write funnel (store/items.h: index entries and item collections follow) without
 * consuming capacity, and counted in TimeToLiveDeletedItemCount. Expired items stay readable until
 * the sweep reaches them, as on the service.
 *
 * Threads: the loop thread.
 */
#ifndef SL_JOBS_TTL_H
#define SL_JOBS_TTL_H

#include "jobs/env.h"
#include "store/item.h"

#define SL_TTL_STEP_ITEMS 2000
#define SL_TTL_ITEMS_PER_MS 20

enum { SL_TTL_DISABLED = 0, SL_TTL_ENABLING = 1, SL_TTL_ENABLED = 2, SL_TTL_DISABLING = 3 };

/* True when 'it' has expired on table 't' at 'now_ms'. */
bool sl_ttl_expired(const sl_table *t, const sl_item *it, int64_t now_ms);

/* One step of the expiry sweep; returns the number of items deleted. */
uint64_t sl_ttl_tick(sl_env *env, int64_t now_ms);

#endif
