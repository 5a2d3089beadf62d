/* Background work on the clock; see jobs.h. */
#include "jobs/jobs.h"
#include "base/log.h"
#include "jobs/backfill.h"
#include "jobs/tables.h"
#include "jobs/ttl.h"
#include "streams/streams.h"

void sl_jobs_tick(sl_env *env, int64_t now_ms) {
  /* Streams first: a stream's shards exist before the TTL sweep (or any
   * request after this tick) writes to its table. */
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  /* Partition layouts before the streams: shards follow saved ones only. */
  if (sl_tables_save_layouts(env, &f) != SL_OK)
    sl_warn("cannot save partition layouts: %.*s", SL_STR_FMT(f.message));
  else if (env->streams)
    sl_streams_tick(env->streams, env->catalog, now_ms, &f);
  sl_arena_destroy(&a);
  sl_tables_advance(env, now_ms);
  sl_indexes_advance(env, now_ms);
  sl_backfill_tick(env, now_ms);
  sl_ttl_tick(env, now_ms);
}
