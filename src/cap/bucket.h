/*
 * bucket.h — token buckets and per-second consumption windows, the two
 * primitives of the capacity engine (module-private to cap/).
 *
 * sl__bucket: level and cap in milli-units, rate in milli-units per second,
 * refilled lazily from the clock in microseconds with the fractional
 * remainder carried, so that many tiny refills add up exactly to one big one
 * (determinism on the manual clock). The level may go negative (debt).
 *
 * A bucket may also keep *retained* capacity beyond its cap (retained_cap >
 * 0): refill that would overflow a full bucket accrues there, up to
 * retained_cap. The level is the burst that ordinary requests spend; the
 * retained part is spent only by the spike rule of admit.c (a large request on
 * a quiet bucket). retained_cap = 0 is a plain token bucket.
 *
 * sl__window: consumption per whole second of the clock over the last N
 * seconds (N <= SL__WINDOW_MAX), with a running sum. Advancing it reports the
 * sum of the window that just completed, which is how the on-demand previous
 * peak (a 1-minute average) is observed.
 */
#ifndef SL_CAP_BUCKET_H
#define SL_CAP_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  int64_t level;        /* milli-units, may be negative */
  int64_t cap;          /* milli-units */
  int64_t rate;         /* milli-units per second */
  int64_t last_us;      /* clock time of the last refill */
  int64_t rem;          /* refill remainder, in milli-unit-microseconds (< 1e6) */
  int64_t retained;     /* milli-units kept beyond a full level, <= retained_cap */
  int64_t retained_cap; /* 0: nothing is kept beyond the cap */
} sl__bucket;

static inline void sl__bucket_init(sl__bucket *b, int64_t rate, int64_t cap, int64_t level,
                                   int64_t now_us) {
  b->rate = rate;
  b->cap = cap;
  b->level = level;
  b->last_us = now_us;
  b->rem = 0;
  b->retained = 0;
  b->retained_cap = 0;
}

/* Longest refill step computed exactly: rate (<= ~1e9 mu/s) x 1e12 us stays
 * far from int64 overflow once divided; a longer idle time fills any bucket
 * whose cap and retained_cap are below 1e12 s of its rate. */
#define SL__REFILL_MAX_US 1000000000000LL

static inline void sl__bucket_refill(sl__bucket *b, int64_t now_us) {
  int64_t dt = now_us - b->last_us;
  if (dt <= 0)
    return;
  b->last_us = now_us;
  if (b->level >= b->cap && b->retained >= b->retained_cap) {
    b->rem = 0;
    return;
  }
  if (dt > SL__REFILL_MAX_US)
    dt = SL__REFILL_MAX_US;
  __int128 acc = (__int128)b->rate * dt + b->rem;
  b->level += (int64_t)(acc / 1000000);
  b->rem = (int64_t)(acc % 1000000);
  if (b->level > b->cap) {
    b->retained += b->level - b->cap;
    b->level = b->cap;
    if (b->retained >= b->retained_cap) {
      b->retained = b->retained_cap;
      b->rem = 0;
    }
  }
}

/* Changes rate and cap keeping the level (clamped to the new cap); the
 * retained part is kept too, clamped to 'retained_cap'. */
static inline void sl__bucket_reshape(sl__bucket *b, int64_t rate, int64_t cap,
                                      int64_t retained_cap, int64_t now_us) {
  sl__bucket_refill(b, now_us);
  b->rate = rate;
  b->cap = cap;
  if (b->level > cap)
    b->level = cap;
  b->retained_cap = retained_cap;
  if (b->retained > retained_cap)
    b->retained = retained_cap;
}

#define SL__WINDOW_MAX 120

typedef struct {
  int64_t slot[SL__WINDOW_MAX];
  int64_t sum;
  int64_t sec; /* the second slot 'sec % n' holds */
  int32_t n;   /* window length in seconds */
} sl__window;

static inline void sl__window_init(sl__window *w, int32_t n, int64_t now_s) {
  for (int i = 0; i < SL__WINDOW_MAX; i++)
    w->slot[i] = 0;
  w->sum = 0;
  w->n = n < 1 ? 1 : n > SL__WINDOW_MAX ? SL__WINDOW_MAX : n;
  w->sec = now_s;
}

/* Moves the window to second 'now_s'. Returns the sum of the last complete
 * window before the move (or -1 if the window did not move). */
static inline int64_t sl__window_advance(sl__window *w, int64_t now_s) {
  if (now_s <= w->sec)
    return -1;
  int64_t completed = w->sum;
  int64_t steps = now_s - w->sec;
  if (steps >= w->n) {
    for (int i = 0; i < w->n; i++)
      w->slot[i] = 0;
    w->sum = 0;
  } else {
    for (int64_t s = w->sec + 1; s <= now_s; s++) {
      int idx = (int)(s % w->n);
      w->sum -= w->slot[idx];
      w->slot[idx] = 0;
    }
  }
  w->sec = now_s;
  return completed;
}

static inline void sl__window_add(sl__window *w, int64_t now_s, int64_t v) {
  sl__window_advance(w, now_s);
  w->slot[now_s % w->n] += v;
  w->sum += v;
}

#endif
