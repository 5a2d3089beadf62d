/* The target-tracking policy engine; see scaling.h. Pinned by
 * tests/unit/cap/test_scaling.c and tests/conformance/test_autoscaling_capacity.py. */
#include "cap/scaling.h"

#include <math.h>

int64_t sl_scaling_newest_minute(const sl_scaling_params *p, int64_t now_ms) {
  /* Minute m is visible once (m + 1) * 60000 + delay <= now. */
  int64_t t = now_ms - p->metric_delay_ms;
  int64_t m = (t >= 0 ? t / 60000 : (t - 59999) / 60000);
  return m - 1;
}

uint32_t sl_scaling_window(const sl_scaling_params *p) {
  int64_t n = p->out_datapoints > p->in_datapoints ? p->out_datapoints : p->in_datapoints;
  return n < 1 ? 1 : (uint32_t)n;
}

static double utilization(const sl_scaling_state *s, uint32_t i) {
  if (s->provisioned <= 0)
    return 0;
  return s->units[i] / 60.0 / (double)s->provisioned * 100.0;
}

/* True if the newest 'n' datapoints all satisfy the comparison. */
static bool run_of(const sl_scaling_state *s, int64_t n, double threshold, bool above) {
  if (n < 1 || (uint64_t)n > s->n)
    return false;
  for (uint32_t i = s->n - (uint32_t)n; i < s->n; i++) {
    double u = utilization(s, i);
    if (above ? !(u > threshold) : !(u < threshold))
      return false;
  }
  return true;
}

static bool within(int64_t last_ms, int64_t cooldown_ms, int64_t now_ms) {
  return last_ms != SL_SCALING_NEVER && now_ms < last_ms + cooldown_ms;
}

sl_scaling_decision sl_scaling_evaluate(const sl_scaling_params *p, const sl_scaling_policy *pol,
                                        const sl_scaling_state *s) {
  sl_scaling_decision d = {0};
  if (s->n == 0 || s->provisioned <= 0 || pol->target_pct <= 0)
    return d;
  d.utilization_pct = utilization(s, s->n - 1);
  double per_second = s->units[s->n - 1] / 60.0;
  double wanted = ceil(per_second / (pol->target_pct / 100.0) - 1e-9);
  int64_t capacity = (int64_t)wanted;
  d.wanted = capacity;
  if (capacity < pol->min)
    capacity = pol->min;
  if (capacity > pol->max)
    capacity = pol->max;
  d.alarm_high = run_of(s, p->out_datapoints, pol->target_pct, true);
  d.alarm_low = run_of(s, p->in_datapoints, pol->target_pct - (double)p->in_margin_pct, false);
  if (d.alarm_high) {
    if (capacity > s->provisioned &&
        !within(s->last_out_ms, pol->scale_out_cooldown_ms, s->now_ms)) {
      d.kind = SL_SCALING_OUT;
      d.capacity = capacity;
    }
    return d;
  }
  if (d.alarm_low && !pol->disable_scale_in && capacity < s->provisioned &&
      !within(s->last_in_ms, pol->scale_in_cooldown_ms, s->now_ms) &&
      !within(s->last_out_ms, pol->scale_out_cooldown_ms, s->now_ms)) {
    d.kind = SL_SCALING_IN;
    d.capacity = capacity;
  }
  return d;
}

sl_scaling_decision sl_scaling_combine(const sl_scaling_decision *d, const sl_scaling_policy *pols,
                                       uint32_t n, uint32_t *by) {
  sl_scaling_decision out = {0};
  int64_t best = -1;
  uint32_t voters = 0, in = 0;
  *by = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    out.alarm_high |= d[i].alarm_high;
    out.alarm_low |= d[i].alarm_low;
    if (d[i].kind == SL_SCALING_OUT && d[i].capacity > best) {
      best = d[i].capacity;
      *by = i;
    }
  }
  if (*by != UINT32_MAX) {
    out.kind = SL_SCALING_OUT;
    out.capacity = best;
    out.utilization_pct = d[*by].utilization_pct;
    return out;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (pols[i].disable_scale_in)
      continue;
    voters++;
    if (d[i].kind != SL_SCALING_IN)
      continue;
    in++;
    if (d[i].capacity > best) {
      best = d[i].capacity;
      *by = i;
    }
  }
  if (voters == 0 || in < voters) {
    *by = UINT32_MAX;
    return out;
  }
  out.kind = SL_SCALING_IN;
  out.capacity = best;
  out.utilization_pct = d[*by].utilization_pct;
  return out;
}

/* ---- schedules ---- */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool fail_msg(char *err, size_t errlen, const char *msg) {
  snprintf(err, errlen, "%s", msg);
  return false;
}

static int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  int64_t doe = z - era * 146097;
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = yoe + era * 400;
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int64_t mp = (5 * doy + 2) / 153;
  *d = (int)(doy - (153 * mp + 2) / 5 + 1);
  *m = (int)(mp < 10 ? mp + 3 : mp - 9);
  *y = (int)(yy + (*m <= 2));
}

static int days_in_month(int y, int m) {
  static const int n[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : n[m - 1];
}

/* 1 = Sunday ... 7 = Saturday (the cron numbering). */
static int weekday(int y, int m, int d) {
  int64_t z = days_from_civil(y, m, d); /* 1970-01-01 was a Thursday (5) */
  int64_t w = (z % 7 + 7 + 4) % 7;      /* 0 = Sunday */
  return (int)w + 1;
}

typedef struct {
  const char *p, *end;
} cur;

static const char *const month_names[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                          "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
static const char *const day_names[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

/* A number or, for months and weekdays, a three-letter name. */
static bool value(const char **p, const char *end, int field, int *out) {
  const char *s = *p;
  if (s < end && isdigit((unsigned char)*s)) {
    int v = 0;
    while (s < end && isdigit((unsigned char)*s) && v < 100000)
      v = v * 10 + (*s++ - '0');
    *p = s;
    *out = v;
    return true;
  }
  if ((field == 3 || field == 4) && end - s >= 3) {
    const char *const *names = field == 3 ? month_names : day_names;
    int n = field == 3 ? 12 : 7;
    for (int i = 0; i < n; i++)
      if (toupper((unsigned char)s[0]) == names[i][0] &&
          toupper((unsigned char)s[1]) == names[i][1] &&
          toupper((unsigned char)s[2]) == names[i][2]) {
        *p = s + 3;
        *out = i + 1;
        return true;
      }
  }
  return false;
}

static void set_bit(sl_cron *c, int field, int v) {
  switch (field) {
  case 0:
    c->minutes |= 1ULL << v;
    break;
  case 1:
    c->hours |= 1U << v;
    break;
  case 2:
    c->dom |= 1U << v;
    break;
  case 3:
    c->months |= (uint16_t)(1U << v);
    break;
  case 4:
    c->dow |= (uint8_t)(1U << v);
    break;
  default:
    c->years[(v - 1970) / 64] |= 1ULL << ((v - 1970) % 64);
    break;
  }
}

static const int lo_of[6] = {0, 0, 1, 1, 1, 1970};
static const int hi_of[6] = {59, 23, 31, 12, 7, 2199};
static const char *const field_names[6] = {"Minutes", "Hours",       "Day-of-month",
                                           "Month",   "Day-of-week", "Year"};

/* One field, [p, end). */
static bool field_parse(sl_cron *c, int field, const char *p, const char *end, char *err,
                        size_t errlen) {
  int lo = lo_of[field], hi = hi_of[field];
  char msg[160];
  snprintf(msg, sizeof(msg), "invalid %s field of the cron expression", field_names[field]);
  size_t n = (size_t)(end - p);
  if (n == 1 && *p == '?') {
    if (field != 2 && field != 4)
      return fail_msg(err, errlen, msg);
    if (field == 2)
      c->dom_any = true;
    else
      c->dow_any = true;
    return true;
  }
  if (field == 2 && n == 1 && *p == 'L') {
    c->dom_last = true;
    return true;
  }
  if (field == 2 && n == 2 && p[0] == 'L' && p[1] == 'W') {
    c->dom_last_weekday = true;
    return true;
  }
  if (field == 2 && n >= 2 && end[-1] == 'W') {
    const char *q = p;
    int v;
    if (!value(&q, end - 1, field, &v) || q != end - 1 || v < 1 || v > 31)
      return fail_msg(err, errlen, msg);
    c->dom_nearest = v;
    return true;
  }
  if (field == 4 && n == 1 && *p == 'L') {
    c->dow |= 1U << 7; /* L alone: the last day of the week, Saturday */
    return true;
  }
  if (field == 4 && n >= 2 && end[-1] == 'L') {
    const char *q = p;
    int v;
    if (!value(&q, end - 1, field, &v) || q != end - 1 || v < 1 || v > 7)
      return fail_msg(err, errlen, msg);
    c->dow_last = v;
    return true;
  }
  if (field == 4 && memchr(p, '#', n)) {
    const char *q = p;
    int v, k;
    if (!value(&q, end, field, &v) || q >= end || *q != '#' || v < 1 || v > 7)
      return fail_msg(err, errlen, msg);
    q++;
    if (!value(&q, end, 0, &k) || q != end || k < 1 || k > 5)
      return fail_msg(err, errlen, msg);
    c->dow_nth_day = v;
    c->dow_nth = k;
    return true;
  }
  /* A list of items: * | a | a-b, each optionally /step (not in Day-of-week). */
  while (p < end) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *ie = comma ? comma : end;
    const char *q = p;
    int a, b, step = 1;
    bool star = false;
    if (q < ie && *q == '*') {
      star = true;
      q++;
      a = lo;
      b = hi;
    } else {
      if (!value(&q, ie, field, &a))
        return fail_msg(err, errlen, msg);
      b = a;
      if (q < ie && *q == '-') {
        q++;
        if (!value(&q, ie, field, &b))
          return fail_msg(err, errlen, msg);
      }
    }
    if (q < ie && *q == '/') {
      if (field == 4)
        return fail_msg(err, errlen, msg);
      q++;
      if (!value(&q, ie, 0, &step) || step < 1)
        return fail_msg(err, errlen, msg);
      if (!star && b == a)
        b = hi; /* a/step: from a to the end of the range */
    }
    if (q != ie || a < lo || a > hi || b < lo || b > hi)
      return fail_msg(err, errlen, msg);
    /* A range may wrap (FRI-MON, 22-2), as in the Quartz syntax EventBridge follows. */
    int span = b >= a ? b - a : b - a + (hi - lo + 1);
    for (int k = 0; k <= span; k += step) {
      int v = a + k;
      if (v > hi)
        v -= hi - lo + 1;
      set_bit(c, field, v);
    }
    p = comma ? comma + 1 : end;
    if (comma && p == end)
      return fail_msg(err, errlen, msg);
  }
  return true;
}

static bool cron_parse(const char *s, size_t len, sl_cron *c, char *err, size_t errlen) {
  memset(c, 0, sizeof(*c));
  const char *p = s, *end = s + len;
  int field = 0;
  while (p < end) {
    while (p < end && *p == ' ')
      p++;
    if (p == end)
      break;
    const char *fe = p;
    while (fe < end && *fe != ' ')
      fe++;
    if (field == 6)
      return fail_msg(err, errlen, "a cron expression has six fields");
    if (!field_parse(c, field, p, fe, err, errlen))
      return false;
    field++;
    p = fe;
  }
  if (field != 6)
    return fail_msg(err, errlen, "a cron expression has six fields");
  bool dom_set = !c->dom_any, dow_set = !c->dow_any;
  if (dom_set == dow_set)
    return fail_msg(err, errlen,
                    "one of the Day-of-month and Day-of-week fields of a cron expression must "
                    "be ?, and not both");
  return true;
}

static bool civil_ok(int y, int mo, int d, int h, int mi, int s) {
  return y >= 1970 && y <= 2199 && mo >= 1 && mo <= 12 && d >= 1 && d <= days_in_month(y, mo) &&
         h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59;
}

bool sl_schedule_parse(const char *s, size_t len, sl_schedule *out, char *err, size_t errlen) {
  memset(out, 0, sizeof(*out));
  if (len > 4 && memcmp(s, "at(", 3) == 0 && s[len - 1] == ')') {
    int *v = out->at_civil;
    char buf[24];
    if (len - 4 == 19) {
      memcpy(buf, s + 3, 19);
      buf[19] = 0;
      char t, tail;
      if (sscanf(buf, "%4d-%2d-%2d%c%2d:%2d:%2d%c", &v[0], &v[1], &v[2], &t, &v[3], &v[4], &v[5],
                 &tail) == 7 &&
          t == 'T' && buf[4] == '-' && buf[7] == '-' && buf[13] == ':' && buf[16] == ':' &&
          civil_ok(v[0], v[1], v[2], v[3], v[4], v[5])) {
        out->kind = SL_SCHED_AT;
        return true;
      }
    }
    return fail_msg(err, errlen, "an at() schedule is at(yyyy-mm-ddThh:mm:ss)");
  }
  if (len > 6 && memcmp(s, "rate(", 5) == 0 && s[len - 1] == ')') {
    /* value: digits; one space; unit. At most 100 years, so that the
     * arithmetic of the firings stays far from overflow. */
    const char *p = s + 5, *end = s + len - 1;
    int64_t v = 0;
    bool digits = p < end && isdigit((unsigned char)*p);
    while (p < end && isdigit((unsigned char)*p) && v <= 100LL * 366 * 24 * 60)
      v = v * 10 + (*p++ - '0');
    size_t ul = p < end && *p == ' ' ? (size_t)(end - p - 1) : 0;
    const char *unit = p + 1;
    int64_t u = 0;
    if (digits && v > 0 && ul > 0) {
      const char *one[3] = {"minute", "hour", "day"};
      const int64_t ms[3] = {60000, 3600000, 86400000};
      for (int i = 0; i < 3; i++) {
        size_t n1 = strlen(one[i]);
        if ((v == 1 && ul == n1 && memcmp(unit, one[i], n1) == 0) ||
            (v != 1 && ul == n1 + 1 && memcmp(unit, one[i], n1) == 0 && unit[n1] == 's'))
          u = ms[i];
      }
    }
    if (u && v <= 100LL * 366 * 86400000 / u) {
      out->kind = SL_SCHED_RATE;
      out->rate_ms = v * u;
      return true;
    }
    return fail_msg(err, errlen,
                    "a rate() schedule is rate(value unit), value a positive integer (at most "
                    "100 years), unit minute, minutes, hour, hours, day or days");
  }
  if (len > 6 && memcmp(s, "cron(", 5) == 0 && s[len - 1] == ')') {
    out->kind = SL_SCHED_CRON;
    return cron_parse(s + 5, len - 6, &out->cron, err, errlen);
  }
  return fail_msg(err, errlen,
                  "expected at(yyyy-mm-ddThh:mm:ss), rate(value unit) or cron(fields)");
}

bool sl_timezone_valid(const char *tz, size_t len) {
  if (len == 0)
    return true;
  if (len > 200 || tz[0] == '/' || tz[0] == '.')
    return false;
  for (size_t i = 0; i < len; i++) {
    char c = tz[i];
    if (!(isalnum((unsigned char)c) || c == '/' || c == '_' || c == '-' || c == '+'))
      return false;
    if (c == '/' && i + 1 < len && tz[i + 1] == '.')
      return false;
  }
  const char *dir = getenv("TZDIR");
  char path[512];
  snprintf(path, sizeof(path), "%s/%.*s", dir && *dir ? dir : "/usr/share/zoneinfo", (int)len, tz);
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  char magic[4] = {0};
  size_t got = fread(magic, 1, 4, f);
  fclose(f);
  return got == 4 && memcmp(magic, "TZif", 4) == 0;
}

/* ---- local time through the C library ---- */

typedef struct {
  char *saved;
  bool had;
  bool utc;
} tz_scope;

static void tz_enter(tz_scope *z, const char *tz) {
  z->utc = !tz || !*tz;
  if (z->utc)
    return;
  const char *old = getenv("TZ");
  z->had = old != NULL;
  z->saved = old ? strdup(old) : NULL;
  setenv("TZ", tz, 1);
  tzset();
}

static void tz_leave(tz_scope *z) {
  if (z->utc)
    return;
  if (z->had)
    setenv("TZ", z->saved, 1);
  else
    unsetenv("TZ");
  free(z->saved);
  tzset();
}

/* Local civil time -> epoch ms (in the zone entered). */
static int64_t local_to_ms(const tz_scope *z, int y, int mo, int d, int h, int mi, int s) {
  if (z->utc)
    return ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60000 + s * 1000;
  struct tm tm = {.tm_year = y - 1900,
                  .tm_mon = mo - 1,
                  .tm_mday = d,
                  .tm_hour = h,
                  .tm_min = mi,
                  .tm_sec = s,
                  .tm_isdst = -1};
  time_t t = mktime(&tm);
  return (int64_t)t * 1000;
}

static void ms_to_local(const tz_scope *z, int64_t ms, int *y, int *mo, int *d, int *h, int *mi) {
  int64_t sec = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  if (z->utc) {
    int64_t days = sec >= 0 ? sec / 86400 : (sec - 86399) / 86400;
    int64_t rem = sec - days * 86400;
    civil_from_days(days, y, mo, d);
    *h = (int)(rem / 3600);
    *mi = (int)(rem % 3600 / 60);
    return;
  }
  time_t t = (time_t)sec;
  struct tm tm;
  localtime_r(&t, &tm);
  *y = tm.tm_year + 1900;
  *mo = tm.tm_mon + 1;
  *d = tm.tm_mday;
  *h = tm.tm_hour;
  *mi = tm.tm_min;
}

static bool year_on(const sl_cron *c, int y) {
  if (y < 1970 || y > 2199)
    return false;
  return (c->years[(y - 1970) / 64] >> ((y - 1970) % 64)) & 1;
}

static bool day_on(const sl_cron *c, int y, int mo, int d) {
  if (!((c->months >> mo) & 1) || !year_on(c, y))
    return false;
  int last = days_in_month(y, mo);
  int wd = weekday(y, mo, d);
  if (!c->dom_any) {
    if (c->dom_last)
      return d == last;
    if (c->dom_last_weekday) {
      int lw = last, w = weekday(y, mo, last);
      if (w == 1)
        lw -= 2;
      else if (w == 7)
        lw -= 1;
      return d == lw;
    }
    if (c->dom_nearest) {
      int n = c->dom_nearest > last ? last : c->dom_nearest;
      int w = weekday(y, mo, n), t = n;
      if (w == 7) /* Saturday: Friday, or Monday when the 1st */
        t = n == 1 ? 3 : n - 1;
      else if (w == 1) /* Sunday: Monday, or Friday when the last day */
        t = n == last ? n - 2 : n + 1;
      return d == t;
    }
    return (c->dom >> d) & 1;
  }
  if (c->dow_last)
    return wd == c->dow_last && d + 7 > last;
  if (c->dow_nth)
    return wd == c->dow_nth_day && (d - 1) / 7 + 1 == c->dow_nth;
  return (c->dow >> wd) & 1;
}

/* The first cron minute at or after 'from_ms' (epoch ms). */
static int64_t cron_next(const sl_cron *c, const tz_scope *z, int64_t from_ms) {
  int y, mo, d, h, mi;
  /* A minute that starts before from_ms is not a candidate. */
  int64_t from_min = from_ms % 60000 == 0 ? from_ms : from_ms - from_ms % 60000 + 60000;
  ms_to_local(z, from_min, &y, &mo, &d, &h, &mi);
  int64_t day = days_from_civil(y, mo, d);
  /* Start a day early: a time zone's repeated hour can map an earlier local day later. */
  for (int64_t k = day - 1; k < day + 366 * 231; k++) {
    int yy, mm, dd;
    civil_from_days(k, &yy, &mm, &dd);
    if (yy > 2199)
      break;
    if (!year_on(c, yy)) {
      k = days_from_civil(yy + 1, 1, 1) - 1;
      continue;
    }
    if (!((c->months >> mm) & 1)) {
      k = days_from_civil(mm == 12 ? yy + 1 : yy, mm == 12 ? 1 : mm + 1, 1) - 1;
      continue;
    }
    if (!day_on(c, yy, mm, dd))
      continue;
    for (int hh = 0; hh < 24; hh++) {
      if (!((c->hours >> hh) & 1))
        continue;
      for (int m2 = 0; m2 < 60; m2++) {
        if (!((c->minutes >> m2) & 1))
          continue;
        int64_t t = local_to_ms(z, yy, mm, dd, hh, m2, 0);
        if (t >= from_min)
          return t;
      }
    }
  }
  return INT64_MAX;
}

int64_t sl_schedule_next(const sl_schedule_ctx *c, int64_t from_ms) {
  const sl_schedule *s = c->sched;
  if (c->has_start && from_ms < c->start_ms)
    from_ms = c->start_ms;
  int64_t next = INT64_MAX;
  if (s->kind == SL_SCHED_RATE) {
    int64_t base = c->has_start ? c->start_ms : c->put_ms;
    int64_t k = from_ms <= base ? 0 : (from_ms - base + s->rate_ms - 1) / s->rate_ms;
    if (k == 0 && !c->has_start)
      k = 1; /* a rate starts one period after the action is put */
    next = base + k * s->rate_ms;
  } else {
    tz_scope z;
    tz_enter(&z, c->tz);
    if (s->kind == SL_SCHED_AT) {
      const int *v = s->at_civil;
      int64_t t = local_to_ms(&z, v[0], v[1], v[2], v[3], v[4], v[5]);
      next = t >= from_ms ? t : INT64_MAX;
    } else {
      /* A StartTime still ahead: the action runs then, then on its recurrence. */
      if (c->has_start && from_ms == c->start_ms)
        next = c->start_ms;
      else
        next = cron_next(&s->cron, &z, from_ms);
    }
    tz_leave(&z);
  }
  if (c->has_end && next != INT64_MAX && next > c->end_ms)
    next = INT64_MAX;
  return next;
}
