/*
 * backfill.h — building a GSI added by UpdateTable: the table's existing
 * items are copied into the new index on the clock, paying with the index's
 * write capacity (capacity-model.md §7, facts §10).
 *
 * Design: sl_backfill_tick (called by sl_jobs_tick) takes, for every online
 * index past its resource-allocation phase, one bounded step: it reads the
 * next items of the table in key order after the index's cursor (at most
 * SL_BACKFILL_ITEMS_PER_MS items per millisecond of clock since its last step,
 * SL_BACKFILL_STEP_ITEMS items and SL_BACKFILL_STEP_BYTES bytes: ticks also run
 * before every request, and must stay cheap there), and writes the
 * entry of each item the index projects, after admitting one write of the
 * entry's size on the index's resource through the capacity engine. When the
 * index throttles, the step stops where it is (OnlineIndexThrottleEvents) and
 * the next tick resumes there, so a backfill runs exactly as fast as the
 * index's capacity allows on any clock. The parameter backfill_rate, when not
 * 0, replaces that admission with a fixed rate in write units per second
 * (still debited from the index's resource). An entry a concurrent write has
 * already made is left alone and costs nothing.
 *
 * Each step is one write transaction holding the entries and the table's
 * catalog record with the new cursor (sl_index.backfill_key), so a crash or
 * restart resumes at the last committed step. Items whose index key has the
 * wrong type or is too long for a key are skipped, as the service skips them.
 * When the cursor passes the last item (and not before the index's
 * backfill_until_ms: --delays realistic) the index becomes ACTIVE, its
 * ItemCount and IndexSizeBytes are recounted from its entries, and metrics
 * get the step's OnlineIndexConsumedWriteCapacity, throttle events and
 * OnlineIndexPercentageProgress.
 *
 * Writes to the table during a backfill maintain the new index like any
 * other (store/items.h), so the index is complete when the cursor ends.
 *
 * Threads: the loop thread.
 */
#ifndef SL_JOBS_BACKFILL_H
#define SL_JOBS_BACKFILL_H

#include "jobs/env.h"

#define SL_BACKFILL_STEP_ITEMS 1000
#define SL_BACKFILL_ITEMS_PER_MS 20
#define SL_BACKFILL_STEP_BYTES (4 << 20)

/* One step of every backfill due at 'now_ms'; returns true if an index
 * became ACTIVE. */
bool sl_backfill_tick(sl_env *env, int64_t now_ms);

#endif
