/*
 * metrics_int.h — the registry's insides, shared by metrics.c (series,
 * rings, events, exposition) and insights.c (Contributor Insights). Not for
 * other modules: use metrics.h.
 *
 * A ring is an array of 60-cell chunks; cell i of the ring (second or minute
 * number since the epoch) lives in chunk (i / 60) % n_chunks at position
 * i % 60, and the chunk remembers which 60-cell span ('epoch' = i / 60) it
 * holds, so stale chunks read as empty and are cleared when written again.
 * Chunks are allocated on first write.
 */
#ifndef SL_METRICS_METRICS_INT_H
#define SL_METRICS_METRICS_INT_H

#include "metrics/metrics.h"
#include "metrics/topk.h"

#define SL__CHUNK_CELLS 60
#define SL__SEC_CHUNKS (SL_METRICS_SECONDS / SL__CHUNK_CELLS)
#define SL__MIN_CHUNKS (SL_METRICS_MINUTES / SL__CHUNK_CELLS)
#define SL__HIST_BUCKETS 14

typedef struct {
  int64_t sum, min, max;
  uint64_t count;
} sl__cell;

typedef struct {
  int64_t epoch;
  sl__cell c[SL__CHUNK_CELLS];
} sl__chunk;

typedef struct sl__series sl__series;
struct sl__series {
  sl__series *next_hash;
  sl__series *next_metric; /* the metric's series in creation order */
  uint64_t hash;
  uint8_t metric;   /* sl_metric */
  uint8_t gone;     /* 0: the live table's; 1: its last deleted incarnation's */
  const char *op;   /* static string; "" when the metric has no Operation */
  const char *verb; /* static: the Verb or OperationType (sl_metrics_verb_dimension), or "" */
  sl_str table, index;
  int64_t total_sum; /* counters: running sum; gauges: last value */
  uint64_t total_count;
  uint64_t *hist; /* HISTOGRAM only: SL__HIST_BUCKETS + 1 (+Inf) counts */
  sl__chunk *sec[SL__SEC_CHUNKS];
  sl__chunk *min[SL__MIN_CHUNKS];
  char names[]; /* table and index bytes */
};

typedef struct {
  int64_t t_ms;
  const char *op, *exception;
  bool write, is_index;
  uint8_t gone; /* 0: the live table's; 1: the last deleted incarnation's; 2: older */
  uint8_t limits;
  int32_t partition;
  char *buf; /* table | index | pk | sk */
  uint16_t table_len, index_len, pk_len, sk_len;
} sl__event;

/* The four Contributor Insights lists (rule kinds of facts §8). */
enum { SL__CI_PKC = 0, SL__CI_PKT, SL__CI_SKC, SL__CI_SKT, SL__CI_LISTS };

typedef struct {
  int64_t minute;
  sl_topk lists[SL__CI_LISTS];
} sl__ci_minute;

typedef struct sl__ci sl__ci;
struct sl__ci {
  sl__ci *next;
  sl_str table, index;
  uint64_t generation;
  sl_ci_state state;
  sl__ci_minute *mins[SL_CI_MINUTES];
  char names[];
};

/* A deleted table whose last incarnation's series and events are kept. */
typedef struct {
  char *name; /* malloc'd: the table name, then the key attribute names */
  size_t len, pk_len, sk_len;
  int64_t deleted_ms;
} sl__deleted;

struct sl_metrics {
  const sl_clock *clock;
  sl__series **buckets;
  size_t n_buckets, n_series;
  sl__series *first[SL_M__COUNT], *last[SL_M__COUNT];
  sl__series *recent[SL_M__COUNT]; /* the last series each metric looked up */
  uint64_t dropped;
  sl__event *events; /* SL_METRICS_EVENTS, allocated at the first event */
  size_t ev_next, ev_n;
  sl__ci *ci;
  size_t ci_enabled;
  sl__deleted deleted[SL_METRICS_DELETED_TABLES]; /* oldest first */
  size_t n_deleted;
};

static inline int64_t sl__metrics_now_ms(const sl_metrics *m) { return sl_clock_now_ms(m->clock); }

/* Contributor Insights teardown (insights.c). */
void sl__ci_free(sl__ci *c);
void sl__ci_forget_table(sl_metrics *m, sl_str table);

#endif
