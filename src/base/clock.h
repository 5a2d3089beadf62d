/*
 * clock.h — the one clock every timed rule reads.
 *
 * Modes (capacity-model.md §1):
 *  - real:   wall time (CLOCK_REALTIME at start) advanced by CLOCK_MONOTONIC,
 *            so a wall-clock jump does not disturb buckets;
 *  - scaled: like real, but elapsed time is multiplied by 'scale'
 *            (--time-scale N: a 34-minute scenario in 34/N minutes);
 *  - manual: advances only when told (admin API POST /_sluice/clock). With a
 *            manual clock and a fixed seed, the capacity model is
 *            deterministic.
 * Time is in milliseconds since the Unix epoch (UTC); sl_clock_now_us gives
 * microseconds for bucket arithmetic.
 *
 * Threads: read and advanced on the loop thread.
 */
#ifndef SL_BASE_CLOCK_H
#define SL_BASE_CLOCK_H

#include "base/str.h"

typedef enum { SL_CLOCK_REAL, SL_CLOCK_SCALED, SL_CLOCK_MANUAL } sl_clock_mode;

typedef struct {
  sl_clock_mode mode;
  double scale;      /* SCALED */
  int64_t start_us;  /* epoch µs at start (or the manual clock's time) */
  int64_t mono0_us;  /* CLOCK_MONOTONIC at start */
  int64_t manual_us; /* MANUAL: current time */
} sl_clock;

/* start_ms < 0: the wall time now. */
void sl_clock_init(sl_clock *c, sl_clock_mode mode, double scale, int64_t start_ms);
int64_t sl_clock_now_us(const sl_clock *c);
static inline int64_t sl_clock_now_ms(const sl_clock *c) { return sl_clock_now_us(c) / 1000; }
/* MANUAL only: returns false for other modes. */
bool sl_clock_advance(sl_clock *c, int64_t delta_ms);
bool sl_clock_set(sl_clock *c, int64_t epoch_ms);
const char *sl_clock_mode_name(sl_clock_mode m);

/* ISO 8601 UTC, "2026-11-30T12:00:00.000Z" (24 chars + NUL). */
void sl_time_format_iso(int64_t epoch_ms, char out[32]);
/* Parses "YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)"; returns false if malformed. */
bool sl_time_parse_iso(sl_str s, int64_t *epoch_ms);

#endif
