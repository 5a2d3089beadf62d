/*
 * app.h — the server's state: storage, catalog, clock, capacity engine and
 * metrics, and the configuration they were made from.
 *
 * Design: one sl_app per process, owned by `sluice serve` (main.c) and passed
 * explicitly to everything (no globals), so the loop could later be sharded by
 * table. Requests borrow it through sl_req.
 *
 * Ownership: sl_app_open fills an sl_app the caller owns; sl_app_close
 * releases everything it opened.
 * Threads: the loop thread.
 */
#ifndef SL_API_APP_H
#define SL_API_APP_H

#include "base/clock.h"
#include "store/catalog.h"
#include "store/store.h"

struct sl_cap;
struct sl_metrics;
struct sl_sigv4_config;

typedef struct {
  const char *region;     /* "us-east-1" */
  const char *account_id; /* "000000000000" */
  const char *data_dir;   /* NULL: in memory */
  uint64_t map_size;
  sl_clock_mode clock_mode;
  double time_scale;
  int64_t clock_start_ms; /* < 0: now */
  const char *profile;    /* "aws" | "unlimited" */
  const char *config_file;
  const char *endpoint_address; /* DescribeEndpoints Address */
  struct sl_sigv4_config *auth; /* --auth, --credentials, --admin-token (net/sigv4.h); NULL: any */
} sl_app_config;

typedef struct sl_app {
  sl_app_config cfg;
  sl_store *store;
  sl_catalog *catalog;
  sl_clock clock;
  struct sl_cap *cap;
  struct sl_metrics *metrics;
  sl_arena arena; /* the request arena, reset after every request */
  uint64_t rng;   /* request ids, table ids */
  uint64_t requests;
} sl_app;

void sl_app_config_default(sl_app_config *c);
sl_err sl_app_open(sl_app *app, const sl_app_config *cfg, sl_failure *f);
void sl_app_close(sl_app *app);

/* Background work due on the clock, run on the loop thread every
 * SL_APP_TICK_MS of real time (and before each request): table and index
 * state changes, GSI backfill, TTL expiry. Each step is idempotent and does
 * a bounded amount of work per call. */
#define SL_APP_TICK_MS 100
void sl_app_tick(sl_app *app);

/* 64 random bits (xorshift seeded at start; not for secrets). */
uint64_t sl_app_random(sl_app *app);

#endif
