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
} sl_env;

/* 64 random bits (xorshift64*; not for secrets). */
uint64_t sl_env_random(sl_env *env);

#endif
