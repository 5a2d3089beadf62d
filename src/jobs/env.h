/*
 * env.h — the running state that requests and background jobs work on: the
 * storage, the catalog of tables, the capacity engine, the metrics and the
 * clock, plus the identity that goes into ARNs.
 *
 * Design: the composition root (server/app.c) owns every handle and fills
 * one sl_env; everything below it (actions through ops/ and jobs/) receives
 * the sl_env explicitly instead of the whole server, so that a layer only
 * reaches what it is given and the loop could later be sharded by table.
 *
 * Control-plane delays (sl_env_delay_ms): how long a table stays CREATING
 * or UPDATING, an index is allocated, a warm throughput change is UPDATING.
 * With `--delays instant` (the default) each is its capacity parameter
 * (table_create_delay_ms ..., 0 by default); with `--delays realistic` each
 * is drawn uniformly from its realistic_*_min_ms .. _max_ms range
 * (cap/params.def, docs/capacity.md "Control-plane delays") by a generator
 * of its own seeded by --seed, so that a run repeats its delays and no
 * other random choice (request ids, faults, pace) shifts them.
 *
 * Ownership: borrowed; the server outlives every request and job.
 * Threads: the loop thread.
 */
#ifndef SL_JOBS_ENV_H
#define SL_JOBS_ENV_H

#include "base/clock.h"
#include "store/catalog.h"
#include "store/store.h"

struct sl_cap;
struct sl_metrics;
struct sl_streams;
struct sl_autoscaling;

/* The control-plane delays of sl_env_delay_ms. */
typedef enum {
  SL_DELAY_TABLE_CREATE,   /* CreateTable, restores: CREATING -> ACTIVE */
  SL_DELAY_TABLE_UPDATE,   /* a throughput change, a GSI update or deletion, other table changes */
  SL_DELAY_BILLING_SWITCH, /* a billing-mode switch (instant: table_update_delay_ms) */
  SL_DELAY_INDEX_CREATE,   /* a GSI added by UpdateTable: resource allocation */
  SL_DELAY_INDEX_BACKFILL, /* then its backfill, at the least (instant: 0) */
  SL_DELAY_WARM,           /* a WarmThroughput change: UPDATING -> ACTIVE */
} sl_delay_kind;

typedef struct sl_env {
  sl_store *store;
  sl_catalog *catalog;
  struct sl_cap *cap;
  struct sl_metrics *metrics;
  struct sl_streams *streams;         /* streams/streams.h */
  struct sl_autoscaling *autoscaling; /* ops/autoscaling.h: scalable targets, policies */
  sl_clock *clock;
  const char *region;     /* "us-east-1" */
  const char *account_id; /* "000000000000" */
  uint64_t rng;           /* xorshift64* state (request ids, table ids) */
  bool delays_realistic;  /* --delays realistic */
  uint64_t delay_rng;     /* xorshift64* state of the realistic delays (from --seed) */
} sl_env;

/* 64 random bits (xorshift64*; not for secrets). */
uint64_t sl_env_random(sl_env *env);

/* The delay of a control-plane transition starting now, in ms (above). */
int64_t sl_env_delay_ms(sl_env *env, sl_delay_kind kind);
/* The CREATING time of a GSI created with its table (CreateTable, restores),
 * whose own is 'table_ms': with --delays realistic the same, as they become
 * ACTIVE together (DDB-TABLE-148), else index_create_delay_ms. */
int64_t sl_env_index_with_table_ms(sl_env *env, int64_t table_ms);

#endif
