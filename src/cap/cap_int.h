/*
 * cap_int.h — what the files of src/cap/ share (sl__ names); see cap.h for
 * the design and bucket.h for its two primitives.
 *
 * The files, each calling only those listed below it (no two call each
 * other, directly or around a circle):
 *
 * inspect.c  the admin dump: sl_cap_res_write_json, sl_cap_res_partition
 * admit.c    limit and reason names, the five checks, the spike rule;
 *            check, debit, admit, record_throttle
 * res.c      the engine (new, free) and resources
 *            (new, free, configure; table-level buckets; the previous peak)
 * part.c     the partition map: key points, partition buckets, splits for
 *            heat and for size, the initial partition count
 * params.c   defaults, --config parsing, describe and JSON of the parameters
 * control.c  control-plane rules over sl_throughput, the control-plane
 *            request rate
 * cost.c     pure pricing (cost.h): sizes -> units; includes no other cap/
 *            header and needs none of these structs
 * charge.c   building charges from key values (charge.h): needs none of
 *            these structs either
 *
 * The structs below are the engine's whole state. The inline helpers are
 * the ones admission runs for every charge (finding a charge's partition),
 * kept here so that the split into files costs no call.
 *
 * Ownership: the engine owns its resources (a list, res.c); a resource owns
 * its name, ARN and partitions; a partition owns its ring of samples and
 * its throttle history (sl__part_init / sl__part_free, part.c). All malloc'd, outside any arena.
 * Threads: as cap.h (the loop thread, or the simulator's own).
 */
#ifndef SL_CAP_CAP_INT_H
#define SL_CAP_CAP_INT_H

#include "base/log.h"
#include "cap/bucket.h"
#include "cap/cap.h"

#include <string.h>

#define SL__CAP_SORT_PREFIX 32 /* bytes of the encoded sort key a key point keeps */
#define SL__CAP_PPM 1000000    /* ratios are in parts per million (params.def) */

/* A point of the key space: (partition key hash, encoded sort key prefix). */
typedef struct {
  uint64_t hash;
  uint8_t len;
  uint8_t sort[SL__CAP_SORT_PREFIX];
} sl__keypt;

/* A partition's throttles on the clock, for "throttled N times in the
 * window": counts per second over the last SL_CAP_THROTTLE_SECONDS and per
 * minute over the last SL_CAP_THROTTLE_MINUTES, by direction. Each ring
 * remembers its newest slot; slots between it and a newer one are cleared
 * when the newer one is written, so a slot older than the ring reads as 0.
 * Allocated at the partition's first throttle (~14 KB). */
typedef struct {
  int64_t sec_head, min_head; /* newest second / minute written */
  uint32_t sec[SL_CAP_THROTTLE_SECONDS][2];
  uint32_t min[SL_CAP_THROTTLE_MINUTES][2];
} sl__thr_hist;

typedef struct {
  sl__keypt start; /* inclusive; the next partition's start is this one's end */
  sl__bucket b[2];
  sl__window win[2]; /* consumption per second, last minute */
  uint64_t bytes;
  uint64_t throttles[2];
  int64_t last_throttle_s[2];
  sl__thr_hist *thr;  /* NULL until the first throttle; the left half keeps it on a split */
  sl__keypt *samples; /* ring of recent accesses (split points) */
  uint32_t n_samples, next_sample;
  uint32_t id, parent; /* sl_cap_part_ref (cap.h) */
} sl__part;            /* one partition: a range of the key space with its own buckets */

/* New previous peaks waiting peak_base_delay_ms before they become the base
 * of the on-demand ceiling (res.c sl__cap_peak_tick), rising in time and
 * value. An entry gathers the peaks observed within delay / SL__PEAKS_MAX
 * of its first: it holds the highest and is due delay after the last of
 * them (never sooner than observed), so the ring covers a whole delay; were
 * it full, a new peak joins the newest entry. */
#define SL__PEAKS_MAX 32
typedef struct {
  int64_t first_us[SL__PEAKS_MAX]; /* the entry's first observation */
  int64_t at_us[SL__PEAKS_MAX];    /* its last: due at at_us + delay */
  int64_t mu[SL__PEAKS_MAX];
  uint32_t n;
} sl__peak_seen;

struct sl_cap_res {
  sl_cap *cap;
  sl_cap_res *prev, *next; /* the engine's list of live resources */
  bool is_index, has_lsi;
  sl_str name, arn;  /* owned */
  sl_str table_name; /* owned: the table of a GSI, or the name of a table */
  sl_throughput tp;
  sl__bucket table[2];    /* check 3: provisioned rate + burst */
  sl__bucket ceiling[2];  /* check 4: on-demand 2 x previous peak */
  sl__bucket maxod[2];    /* check 1: OnDemandThroughput maximum */
  sl__bucket quota[2];    /* check 2: per-table quota */
  int64_t peak_mu[2];     /* on-demand previous peak, milli-units per second */
  sl__peak_seen peaks[2]; /* higher peaks observed, the base after peak_base_delay_ms */
  sl__window usage[2];    /* resource consumption per second (previous peak) */
  sl__part *parts;
  size_t n_parts, cap_parts;
  uint32_t next_part_id; /* partition ids are never reused in a resource's life */
  uint64_t epoch;        /* sl_cap_res_epoch (cap.h) */
  bool layout_dirty;     /* made or split since sl_cap_res_layout_saved */
  int64_t hot_since_us;  /* start of the current heat episode, 0 if none */
  int64_t last_split_us; /* last split for heat in this episode, 0 if none */
  int64_t last_heat_s;   /* last second heat was evaluated */
  uint64_t splits_heat, splits_size;
  uint64_t throttles[2][4]; /* by direction and limit */
};

struct sl_cap {
  sl_cap_params p;
  const sl_clock *clock;
  sl__bucket control; /* control-plane request rate, requests in milli-units */
  sl_cap_res *resources;
  bool layouts_dirty; /* some resource's layout_dirty was set */
};

/* ---- clock, modes, rates ---- */

static inline int64_t sl__cap_now_us(const sl_cap *c) { return sl_clock_now_us(c->clock); }

static inline bool sl__cap_on_demand(const sl_cap_res *r) {
  return r->tp.billing == SL_BILLING_PAY_PER_REQUEST;
}

static inline int64_t sl__cap_with_tolerance(const sl_cap *c, int64_t mu) {
  return (int64_t)((__int128)mu * (SL__CAP_PPM + c->p.key_range_tolerance_ppm) / SL__CAP_PPM);
}

static inline int64_t sl__cap_provisioned_mu(const sl_cap_res *r, int dir) {
  return (dir == SL_CAP_READ ? r->tp.rcu : r->tp.wcu) * 1000;
}

/* The shape of a bucket: its rate, its burst (cap) and the unused capacity
 * it retains beyond the burst (spec §4, §5). */
typedef struct {
  int64_t rate, cap, retained_cap;
} sl__shape;

static inline void sl__shape_apply(sl__bucket *b, sl__shape s, int64_t t) {
  sl__bucket_reshape(b, s.rate, s.cap, s.retained_cap, t);
}

/* A new bucket of this shape, full: burst and retained capacity (spec §5: the
 * service lets a new table spend its burst at once). */
static inline void sl__bucket_new_full(sl__bucket *b, sl__shape s, int64_t t) {
  sl__bucket_init(b, s.rate, s.cap, s.cap, t);
  b->retained = b->retained_cap = s.retained_cap;
}

/* ---- key points ---- */

static inline void sl__keypt_make(sl__keypt *k, uint64_t hash, sl_str sort) {
  k->hash = hash;
  k->len = (uint8_t)(sort.len < SL__CAP_SORT_PREFIX ? sort.len : SL__CAP_SORT_PREFIX);
  if (k->len)
    memcpy(k->sort, sort.p, k->len);
}

static inline int sl__keypt_cmp(const sl__keypt *a, const sl__keypt *b) {
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = n ? memcmp(a->sort, b->sort, n) : 0;
  if (c)
    return c;
  return (a->len > b->len) - (a->len < b->len);
}

/* The partition holding 'k': the last whose start <= k. */
static inline size_t sl__part_find(const sl_cap_res *r, const sl__keypt *k) {
  size_t lo = 0, hi = r->n_parts;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (sl__keypt_cmp(&r->parts[mid].start, k) <= 0)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* ---- partitions (part.c) ---- */

/* The shape of a partition bucket in direction 'dir' (spec §4, §5). */
sl__shape sl__part_shape(const sl_cap *c, const sl_cap_res *r, int dir);
/* Gives every partition of 'r' its current shape (after a settings change or,
 * under legacy equal shares, a split). */
void sl__parts_reshape(sl_cap *c, sl_cap_res *r, int64_t t);
/* A new partition starting at 'start', with full buckets; sl__part_free
 * frees its samples. */
void sl__part_init(sl_cap *c, sl_cap_res *r, sl__part *p, const sl__keypt *start, int64_t t);
void sl__part_free(sl__part *p);
/* Counts one throttle of partition p in direction 'dir' at clock second 's'
 * in its throttle history. */
void sl__part_throttle_note(sl__part *p, int dir, int64_t s);
/* Records an access to 'k' among the recent accesses that choose split points. */
void sl__part_sample(const sl_cap *c, sl__part *p, const sl__keypt *k);
/* The end (exclusive) of partition i's hash range; 0 means 2^64. */
uint64_t sl__part_end_hash(const sl_cap_res *r, size_t i);
/* The heat score of a partition at clock second 's' (0: not hot). */
int64_t sl__part_heat(const sl_cap *c, sl__part *p, int64_t s);
/* Once per clock second of traffic: the heat episode and splits for heat. */
void sl__cap_heat_tick(sl_cap *c, sl_cap_res *r, int64_t t);
/* Splits until 'r' has at least 'needed' partitions (spec §4, §6). */
void sl__cap_ensure_partitions(sl_cap *c, sl_cap_res *r, int64_t needed, int64_t t);

/* ---- resources (res.c) ---- */

/* Observes the previous peak (spec §6) before a use of the usage window. */
void sl__cap_peak_tick(sl_cap *c, sl_cap_res *r, int64_t t);

#endif
