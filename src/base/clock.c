/* The clock; see clock.h. */
#include "base/clock.h"

#include <stdio.h>
#include <time.h>

static int64_t mono_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t wall_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void sl_clock_init(sl_clock *c, sl_clock_mode mode, double scale, int64_t start_ms) {
  c->mode = mode;
  c->scale = scale > 0 ? scale : 1.0;
  c->start_us = start_ms >= 0 ? start_ms * 1000 : wall_us();
  c->mono0_us = mono_us();
  c->manual_us = c->start_us;
}

int64_t sl_clock_now_us(const sl_clock *c) {
  switch (c->mode) {
  case SL_CLOCK_MANUAL:
    return c->manual_us;
  case SL_CLOCK_SCALED:
    return c->start_us + (int64_t)((double)(mono_us() - c->mono0_us) * c->scale);
  case SL_CLOCK_REAL:
    break;
  }
  return c->start_us + (mono_us() - c->mono0_us);
}

bool sl_clock_advance(sl_clock *c, int64_t delta_ms) {
  if (c->mode != SL_CLOCK_MANUAL || delta_ms < 0)
    return false;
  c->manual_us += delta_ms * 1000;
  return true;
}

bool sl_clock_set(sl_clock *c, int64_t epoch_ms) {
  if (c->mode != SL_CLOCK_MANUAL)
    return false;
  c->manual_us = epoch_ms * 1000;
  return true;
}

const char *sl_clock_mode_name(sl_clock_mode m) {
  return m == SL_CLOCK_MANUAL ? "manual" : m == SL_CLOCK_SCALED ? "scaled" : "real";
}

void sl_time_format_iso(int64_t epoch_ms, char out[32]) {
  time_t secs = (time_t)(epoch_ms / 1000);
  int ms = (int)(epoch_ms % 1000);
  if (ms < 0) {
    ms += 1000;
    secs -= 1;
  }
  struct tm tm;
  gmtime_r(&secs, &tm);
  snprintf(out, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (tm.tm_year + 1900) % 10000,
           (tm.tm_mon + 1) % 100, tm.tm_mday % 100, tm.tm_hour % 100, tm.tm_min % 100,
           tm.tm_sec % 100, ms % 1000);
}

static bool digits(const char *p, int n, int *out) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9')
      return false;
    v = v * 10 + (p[i] - '0');
  }
  *out = v;
  return true;
}

bool sl_time_parse_iso(sl_str s, int64_t *epoch_ms) {
  char b[40];
  if (s.len < 19 || s.len >= sizeof(b))
    return false;
  memcpy(b, s.p, s.len);
  b[s.len] = 0;
  int Y, M, D, h, m, sec, ms = 0;
  if (!digits(b, 4, &Y) || b[4] != '-' || !digits(b + 5, 2, &M) || b[7] != '-' ||
      !digits(b + 8, 2, &D) || (b[10] != 'T' && b[10] != ' ') || !digits(b + 11, 2, &h) ||
      b[13] != ':' || !digits(b + 14, 2, &m) || b[16] != ':' || !digits(b + 17, 2, &sec))
    return false;
  if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60)
    return false;
  const char *p = b + 19;
  if (*p == '.') {
    p++;
    int n = 0, frac = 0;
    while (*p >= '0' && *p <= '9') {
      if (n < 3)
        frac = frac * 10 + (*p - '0');
      n++;
      p++;
    }
    if (n == 0)
      return false;
    while (n < 3) {
      frac *= 10;
      n++;
    }
    ms = frac;
  }
  int64_t offset_s = 0;
  if (*p == 'Z') {
    p++;
  } else if (*p == '+' || *p == '-') {
    int oh, om;
    if (!digits(p + 1, 2, &oh) || p[3] != ':' || !digits(p + 4, 2, &om))
      return false;
    offset_s = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
    p += 6;
  } else if (*p != 0) {
    return false;
  }
  if (*p != 0)
    return false;
  /* Days from civil (proleptic Gregorian), valid for any year. */
  int y = Y - (M <= 2);
  int era = (y >= 0 ? y : y - 399) / 400;
  int yoe = y - era * 400;
  int doy = (153 * (M + (M > 2 ? -3 : 9)) + 2) / 5 + D - 1;
  int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  int64_t days = (int64_t)era * 146097 + doe - 719468;
  *epoch_ms = ((days * 86400 + h * 3600 + m * 60 + sec) - offset_s) * 1000 + ms;
  return true;
}
