/* The server's state; see app.h. */
#include "server/app.h"
#include "base/log.h"
#include "jobs/jobs.h"
#include "jobs/tables.h"
#include "cap/cap.h"
#include "metrics/metrics.h"
#include "streams/streams.h"
#include "ops/autoscaling.h"
#include "server/faults.h"

#include <time.h>
#include <unistd.h>

void sl_app_config_default(sl_app_config *c) {
  memset(c, 0, sizeof(*c));
  c->region = "us-east-1";
  c->account_id = "000000000000";
  c->clock_mode = SL_CLOCK_REAL;
  c->time_scale = 1.0;
  c->clock_start_ms = -1;
  c->profile = "aws";
  c->seed = 1;
}

sl_err sl_app_open(sl_app *app, const sl_app_config *cfg, sl_failure *f) {
  memset(app, 0, sizeof(*app));
  app->cfg = *cfg;
  sl_arena_init(&app->arena);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  /* Request ids, table and stream ids, Auto Scaling ARN uuids: from the
   * clock unless --seed was named (then a run repeats them; by default two
   * runs on one --data-dir never give a new table an id used before). */
  app->env.rng = cfg->seed_given ? (cfg->seed * 0xD1B54A32D192ED03ULL) ^ 0x2545F4914F6CDD1DULL
                                 : ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^
                                       ((uint64_t)getpid() << 40) ^ 0x9E3779B97F4A7C15ULL;
  if (!app->env.rng)
    app->env.rng = 1;
  /* --delays realistic: a generator of its own, always from --seed (default
   * 1), so that the same seed draws the same delays (jobs/env.h). */
  app->env.delays_realistic = cfg->delays_realistic;
  app->env.delay_rng = (cfg->seed + 2) * 0xBF58476D1CE4E5B9ULL ^ 0x94D049BB133111EBULL;
  if (!app->env.delay_rng)
    app->env.delay_rng = 1;
  sl_clock_init(&app->clock, cfg->clock_mode, cfg->time_scale, cfg->clock_start_ms);
  sl_env *env = &app->env;
  env->clock = &app->clock;
  env->region = app->cfg.region;
  env->account_id = app->cfg.account_id;
  sl_store_config sc = {
      .data_dir = cfg->data_dir, .map_size = cfg->map_size, .pretouch = cfg->pretouch};
  sl_err err = sl_store_open(&sc, f, &env->store);
  if (err != SL_OK)
    return err;
  env->catalog = sl_catalog_new();
  if ((err = sl_catalog_load(env->catalog, env->store, f)) != SL_OK)
    return err;
  sl_cap_params params;
  sl_cap_params_default(&params, cfg->profile);
  if (cfg->config_file) {
    char msg[512];
    if (!sl_cap_params_load(&params, cfg->config_file, msg, sizeof(msg)))
      return sl_failf(f, SL_E_VALIDATION, "%s", msg);
  }
  env->cap = sl_cap_new(&params, &app->clock);
  env->metrics = sl_metrics_new(&app->clock);
  sl_streams_params sp;
  sl_streams_params_default(&sp);
  if (cfg->readers_per_shard)
    sp.readers_per_shard = cfg->readers_per_shard;
  if (cfg->shard_rollover_ms)
    sp.shard_rollover_ms = cfg->shard_rollover_ms;
  if ((err = sl_streams_open(env->store, &app->clock, &sp, f, &env->streams)) != SL_OK)
    return err;
  env->autoscaling = sl_autoscaling_new();
  if ((err = sl_autoscaling_load(env, f)) != SL_OK)
    return err;
  for (size_t i = 0; i < sl_catalog_count(env->catalog); i++)
    sl_tables_attach_capacity(env, sl_catalog_at(env->catalog, i));
  if ((err = sl_tables_load_layouts(env, f)) != SL_OK)
    return err;
  /* Fault rules last: their actions may name the tables just loaded. A bad
   * --faults file stops the start. */
  app->faults = sl_faults_new(cfg->seed);
  app->pace_rng = (cfg->seed + 1) * 0x9E3779B97F4A7C15ULL;
  if (!app->pace_rng)
    app->pace_rng = 1;
  if (cfg->faults_file) {
    char msg[512];
    if (!sl_faults_load(app->faults, env, cfg->faults_file, msg, sizeof(msg))) {
      sl_app_close(app);
      return sl_failf(f, SL_E_VALIDATION, "%s", msg);
    }
  }
  return SL_OK;
}

void sl_app_tick(sl_app *app) {
  int64_t now = sl_clock_now_ms(&app->clock);
  sl_jobs_tick(&app->env, now);
  sl_autoscaling_tick(&app->env, now);
}

static _Noreturn void sync_failed(sl_failure *f) {
  sl_panic("cannot make committed writes durable (fsync failed): %.*s", SL_STR_FMT(f->message));
}

bool sl_app_sync_begin(void *ctx) { return sl_store_sync_begin(((sl_app *)ctx)->env.store); }

int sl_app_sync_run(void *ctx) { return sl_store_sync_run(((sl_app *)ctx)->env.store); }

void sl_app_sync_end(void *ctx, int rc) {
  sl_app *app = ctx;
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  if (sl_store_sync_end(app->env.store, rc, &f) != SL_OK)
    sync_failed(&f);
  sl_arena_destroy(&a);
}

void sl_app_close(sl_app *app) {
  sl_env *env = &app->env;
  if (env->catalog) {
    for (size_t i = 0; i < sl_catalog_count(env->catalog); i++)
      sl_tables_detach_capacity(env, sl_catalog_at(env->catalog, i));
    sl_catalog_free(env->catalog);
  }
  sl_streams_close(env->streams);
  sl_autoscaling_free(env->autoscaling);
  sl_faults_free(app->faults);
  sl_cap_free(env->cap);
  sl_metrics_free(env->metrics);
  sl_store_close(env->store);
  sl_arena_destroy(&app->arena);
}
