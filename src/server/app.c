/* The server's state; see app.h. */
#include "server/app.h"
#include "jobs/backfill.h"
#include "ops/indexes.h"
#include "ops/ttl.h"
#include "ops/describe.h"
#include "ops/tables.h"
#include "base/log.h"
#include "cap/cap.h"
#include "metrics/metrics.h"

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
}

uint64_t sl_app_random(sl_app *app) {
  /* xorshift64* */
  uint64_t x = app->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  app->rng = x;
  return x * 0x2545F4914F6CDD1DULL;
}

sl_err sl_app_open(sl_app *app, const sl_app_config *cfg, sl_failure *f) {
  memset(app, 0, sizeof(*app));
  app->cfg = *cfg;
  sl_arena_init(&app->arena);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  app->rng = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^
             0x9E3779B97F4A7C15ULL;
  sl_clock_init(&app->clock, cfg->clock_mode, cfg->time_scale, cfg->clock_start_ms);
  sl_store_config sc = {.data_dir = cfg->data_dir, .map_size = cfg->map_size};
  sl_err err = sl_store_open(&sc, f, &app->store);
  if (err != SL_OK)
    return err;
  app->catalog = sl_catalog_new();
  if ((err = sl_catalog_load(app->catalog, app->store, f)) != SL_OK)
    return err;
  sl_cap_params params;
  sl_cap_params_default(&params, cfg->profile);
  if (cfg->config_file) {
    char msg[512];
    if (!sl_cap_params_load(&params, cfg->config_file, msg, sizeof(msg)))
      return sl_failf(f, SL_E_VALIDATION, "%s", msg);
  }
  app->cap = sl_cap_new(&params, &app->clock);
  app->metrics = sl_metrics_new(&app->clock);
  for (size_t i = 0; i < sl_catalog_count(app->catalog); i++)
    sl_tables_attach_capacity(app, sl_catalog_at(app->catalog, i));
  return SL_OK;
}

void sl_app_tick(sl_app *app) {
  int64_t now = sl_clock_now_ms(&app->clock);
  sl_tables_advance(app, now);
  sl_indexes_advance(app, now);
  sl_backfill_tick(app, now);
  sl_ttl_tick(app, now);
}

void sl_app_close(sl_app *app) {
  if (app->catalog) {
    for (size_t i = 0; i < sl_catalog_count(app->catalog); i++)
      sl_tables_detach_capacity(app, sl_catalog_at(app->catalog, i));
    sl_catalog_free(app->catalog);
  }
  sl_cap_free(app->cap);
  sl_metrics_free(app->metrics);
  sl_store_close(app->store);
  sl_arena_destroy(&app->arena);
}
