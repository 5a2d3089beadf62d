/* Background work on the clock; see jobs.h. */
#include "jobs/jobs.h"
#include "jobs/backfill.h"
#include "jobs/tables.h"
#include "jobs/ttl.h"
#include "streams/streams.h"

void sl_jobs_tick(sl_env *env, int64_t now_ms) {
  /* Streams first: a stream's shards exist before the TTL sweep (or any
   * request after this tick) writes to its table. */
  if (env->streams) {
    sl_failure f = {0};
    sl_streams_tick(env->streams, env->catalog, now_ms, &f);
  }
  sl_tables_advance(env, now_ms);
  sl_indexes_advance(env, now_ms);
  sl_backfill_tick(env, now_ms);
  sl_ttl_tick(env, now_ms);
}
