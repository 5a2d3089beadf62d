/*
 * app.h — the composition root of `sluice serve`: opens the storage, catalog,
 * clock, capacity engine and metrics from the configuration, and hands them
 * to everything below as one sl_env (jobs/env.h).
 *
 * Design: one sl_app per process, owned by `sluice serve` (main.c); nothing
 * below server/ sees it (no globals): requests and jobs get &app->env, so the
 * loop could later be sharded by table.
 *
 * Ownership: sl_app_open fills an sl_app the caller owns; sl_app_close
 * releases everything it opened.
 * Threads: the loop thread.
 */
#ifndef SL_SERVER_APP_H
#define SL_SERVER_APP_H

#include "jobs/env.h"

struct sl_sigv4_config;
struct sl_faults;

typedef struct {
  const char *region;     /* "us-east-1" */
  const char *account_id; /* "000000000000" */
  const char *data_dir;   /* NULL: in memory */
  uint64_t map_size;
  uint64_t pretouch; /* --pretouch: in-memory storage made present at start */
  sl_clock_mode clock_mode;
  double time_scale;
  int64_t clock_start_ms; /* < 0: now */
  const char *profile;    /* "aws" | "unlimited" */
  const char *config_file;
  struct sl_sigv4_config *auth; /* --auth, --credentials, --admin-token (net/sigv4.h); NULL: any */
  uint64_t seed;                /* --seed: fault probabilities (server/faults.h) */
  bool seed_given;              /* --seed named: request ids and ARN uuids follow it too */
  const char *faults_file;      /* --faults FILE: rules loaded at start */
  bool latency_aws;             /* --latency aws: data-plane answers at the service's pace */
  bool delays_realistic;        /* --delays realistic: control-plane delays drawn (jobs/env.h) */
  uint32_t readers_per_shard;   /* --readers-per-shard (streams/streams.h); 0: the default, 2 */
  int64_t shard_rollover_ms;    /* --shard-rollover (streams/streams.h); 0: the default, 4 h */
} sl_app_config;

typedef struct sl_app {
  sl_app_config cfg;
  sl_env env; /* store, catalog, capacity engine, metrics, clock (owned here) */
  sl_clock clock;
  sl_arena arena; /* the request arena, reset after every request */
  uint64_t requests;
  struct sl_faults *faults; /* injected faults (server/faults.h) */
  uint64_t pace_rng;        /* --latency aws jitter, from --seed */
} sl_app;

void sl_app_config_default(sl_app_config *c);
sl_err sl_app_open(sl_app *app, const sl_app_config *cfg, sl_failure *f);
void sl_app_close(sl_app *app);

/* Background work due on the clock (jobs/jobs.h), run on the loop thread
 * every SL_APP_TICK_MS of real time and before each request. */
#define SL_APP_TICK_MS 100
void sl_app_tick(sl_app *app);
/* Group commit (store/store.h): a sync that makes every commit so far
 * durable (one fsync) before the server sends the answers that saw them, in
 * the server's three steps (net/server.h sl_server_barrier; store/store.h
 * sl_store_sync_begin): begin on the loop thread, run (the fsync) on a pool
 * thread, end on the loop thread, which ends the process if the fsync
 * failed: no answer may claim a write that is not on disk. */
bool sl_app_sync_begin(void *app);
int sl_app_sync_run(void *app);
void sl_app_sync_end(void *app, int rc);

#endif
