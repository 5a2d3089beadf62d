/*
 * jobs.h — background work on the capacity clock: one tick runs every job
 * that is due, in this order: the streams' shards (following the table's
 * partitions, rolled over) and retention (streams/streams.h, first, so a
 * stream has its shards before anything writes to its table), table and
 * index state changes and the end of GSI deletions (jobs/tables.h), GSI
 * backfill steps (jobs/backfill.h), TTL expiry (jobs/ttl.h).
 *
 * The server calls sl_jobs_tick every SL_APP_TICK_MS of real time and before
 * each request; each job does a bounded amount of work per call and is
 * idempotent, so the clock can be real, scaled or manual. Jobs see only the
 * sl_env they are given; they never call the request layers above them.
 *
 * Threads: the loop thread.
 */
#ifndef SL_JOBS_JOBS_H
#define SL_JOBS_JOBS_H

#include "jobs/env.h"

void sl_jobs_tick(sl_env *env, int64_t now_ms);

#endif
