/* Unit tests of cap/scaling: the target-tracking policy engine, pure, on
 * hand-made datapoints (the defaults of cap/params.def). */
#include "harness.h"
#include "cap/scaling.h"
#include "base/clock.h"

#include <string.h>

static const sl_scaling_params P = {
    .out_datapoints = 2, .in_datapoints = 15, .in_margin_pct = 20, .metric_delay_ms = 180000};

static sl_scaling_policy policy(void) {
  return (sl_scaling_policy){.target_pct = 70, .min = 5, .max = 1000};
}

static sl_scaling_state state(const double *units, uint32_t n, int64_t provisioned) {
  return (sl_scaling_state){.provisioned = provisioned,
                            .units = units,
                            .n = n,
                            .now_ms = 10 * 60000,
                            .last_out_ms = SL_SCALING_NEVER,
                            .last_in_ms = SL_SCALING_NEVER};
}

/* A minute's datapoint is seen 180 s after the minute ends. */
static void test_visibility(void) {
  CHECK_INT(sl_scaling_newest_minute(&P, 60000 + 180000), 0);
  CHECK_INT(sl_scaling_newest_minute(&P, 60000 + 180000 - 1), -1);
  CHECK_INT(sl_scaling_newest_minute(&P, 10 * 60000), 6);
  CHECK_INT(sl_scaling_window(&P), 15);
}

/* Two minutes above the target scale out to consumption / target. */
static void test_scale_out(void) {
  sl_scaling_policy pol = policy();
  double one[] = {5 * 60, 100 * 60}; /* 5/s, then 100/s on 10 units */
  sl_scaling_state s = state(one, 2, 10);
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD); /* one datapoint above */
  double two[] = {100 * 60, 100 * 60};
  s = state(two, 2, 10);
  sl_scaling_decision d = sl_scaling_evaluate(&P, &pol, &s);
  CHECK_INT(d.kind, SL_SCALING_OUT);
  CHECK_INT(d.capacity, 143); /* ceil(100 / 0.7) */
  CHECK(d.alarm_high);
  pol.max = 50;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).capacity, 50);
  /* Within the scale-out cooldown of the last scale-out: held. */
  pol.max = 1000;
  pol.scale_out_cooldown_ms = 300000;
  s.last_out_ms = s.now_ms - 299999;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD);
  s.last_out_ms = s.now_ms - 300000;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_OUT);
  /* A scale-in cooldown does not hold a scale-out. */
  pol.scale_in_cooldown_ms = 3600000;
  s.last_in_ms = s.now_ms - 1;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_OUT);
}

/* Fifteen minutes 20 points below the target scale in, not fourteen. */
static void test_scale_in(void) {
  sl_scaling_policy pol = policy();
  double low[15];
  for (int i = 0; i < 15; i++)
    low[i] = 20 * 60; /* 20/s on 100 units: 20 % < 50 % */
  sl_scaling_state s = state(low, 14, 100);
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD);
  s = state(low, 15, 100);
  sl_scaling_decision d = sl_scaling_evaluate(&P, &pol, &s);
  CHECK_INT(d.kind, SL_SCALING_IN);
  CHECK_INT(d.capacity, 29); /* ceil(20 / 0.7) */
  /* 55 % is below the target but not 20 points below: held. */
  for (int i = 0; i < 15; i++)
    low[i] = 55 * 60;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD);
  for (int i = 0; i < 15; i++)
    low[i] = 1 * 60;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).capacity, 5); /* the minimum */
  pol.disable_scale_in = true;
  d = sl_scaling_evaluate(&P, &pol, &s);
  CHECK_INT(d.kind, SL_SCALING_HOLD);
  CHECK(d.alarm_low);
  pol.disable_scale_in = false;
  pol.scale_in_cooldown_ms = 600000;
  s.last_in_ms = s.now_ms - 599999;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD);
  s.last_in_ms = SL_SCALING_NEVER;
  pol.scale_out_cooldown_ms = 600000;
  s.last_out_ms = s.now_ms - 1;
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD);
  /* At the minimum already: nothing to do. */
  s = state(low, 15, 5);
  CHECK_INT(sl_scaling_evaluate(&P, &pol, &s).kind, SL_SCALING_HOLD);
}

/* Several policies: the largest scale-out; a scale-in only when every
 * policy with scale-in enabled is ready, to the largest capacity. */
static void test_combine(void) {
  sl_scaling_policy pols[3] = {policy(), policy(), policy()};
  sl_scaling_decision d[3] = {{.kind = SL_SCALING_OUT, .capacity = 20},
                              {.kind = SL_SCALING_OUT, .capacity = 40},
                              {.kind = SL_SCALING_HOLD}};
  uint32_t by;
  sl_scaling_decision c = sl_scaling_combine(d, pols, 3, &by);
  CHECK_INT(c.kind, SL_SCALING_OUT);
  CHECK_INT(c.capacity, 40);
  CHECK_INT(by, 1);
  d[0] = (sl_scaling_decision){.kind = SL_SCALING_IN, .capacity = 8};
  d[1] = (sl_scaling_decision){.kind = SL_SCALING_IN, .capacity = 12};
  c = sl_scaling_combine(d, pols, 3, &by);
  CHECK_INT(c.kind, SL_SCALING_HOLD); /* the third policy is not ready */
  CHECK_INT(by, UINT32_MAX);
  pols[2].disable_scale_in = true; /* ... and no longer votes */
  c = sl_scaling_combine(d, pols, 3, &by);
  CHECK_INT(c.kind, SL_SCALING_IN);
  CHECK_INT(c.capacity, 12);
  CHECK_INT(by, 1);
  pols[0].disable_scale_in = pols[1].disable_scale_in = true;
  CHECK_INT(sl_scaling_combine(d, pols, 3, &by).kind, SL_SCALING_HOLD);
  CHECK_INT(sl_scaling_combine(d, pols, 0, &by).kind, SL_SCALING_HOLD);
}

static int64_t T(const char *iso) {
  int64_t ms = 0;
  CHECK(sl_time_parse_iso(sl_str_c(iso), &ms));
  return ms;
}

/* The next firing of 'expr' in 'tz' at or after 'from'. */
static int64_t next_of(const char *expr, const char *tz, int64_t from) {
  sl_schedule s;
  char err[200];
  CHECK(sl_schedule_parse(expr, strlen(expr), &s, err, sizeof(err)));
  sl_schedule_ctx c = {.sched = &s, .tz = tz, .put_ms = from};
  return sl_schedule_next(&c, from);
}

static bool parses(const char *expr) {
  sl_schedule s;
  char err[200];
  return sl_schedule_parse(expr, strlen(expr), &s, err, sizeof(err));
}

static void test_schedule_parse(void) {
  CHECK(parses("at(2026-12-01T10:00:00)"));
  CHECK(!parses("at(2026-02-30T10:00:00)"));
  CHECK(!parses("at(2026-12-01 10:00:00)"));
  CHECK(parses("rate(1 minute)"));
  CHECK(parses("rate(5 minutes)"));
  CHECK(!parses("rate(1 minutes)"));
  CHECK(!parses("rate(0 hours)"));
  CHECK(!parses("rate(-1 hours)"));
  CHECK(!parses("rate(5minutes)"));
  CHECK(!parses("rate(5  minutes)"));
  CHECK(!parses("rate(088888888888888 minutes)")); /* beyond 100 years */
  CHECK(parses("rate(36500 days)"));
  CHECK(parses("cron(30 6 ? * MON *)"));
  CHECK(parses("cron(0/15 9-17 ? * MON-FRI 2026-2030)"));
  CHECK(parses("cron(0 8 1,15 * ? *)"));
  CHECK(parses("cron(15 10 ? * 6L *)"));
  CHECK(parses("cron(0 0 L * ? *)"));
  CHECK(parses("cron(0 0 LW * ? *)"));
  CHECK(parses("cron(0 0 3W * ? *)"));
  CHECK(parses("cron(0 0 ? * 3#2 *)"));
  CHECK(parses("cron(0 0 ? JAN-MAR L *)"));
  CHECK(!parses("cron(0 0 * * * *)"));   /* neither day field is ? */
  CHECK(!parses("cron(0 0 ? * ? *)"));   /* both are */
  CHECK(!parses("cron(0 0 1 * MON *)")); /* both set */
  CHECK(!parses("cron(0 0 * * ?)"));     /* five fields */
  CHECK(!parses("cron(0 0 * * ? * *)")); /* seven */
  CHECK(!parses("cron(60 0 * * ? *)"));  /* minute 60 */
  CHECK(!parses("cron(0 24 * * ? *)"));
  CHECK(!parses("cron(0 0 32 * ? *)"));
  CHECK(!parses("cron(0 0 ? 13 ? *)"));
  CHECK(!parses("cron(0 0 ? * 8 *)"));
  CHECK(!parses("cron(0 0 ? * 1/2 *)")); /* no / in Day-of-week */
  CHECK(!parses("cron(0 0 * * ? 1969)"));
  CHECK(!parses("cron(0 0 * * ? 2200)"));
  CHECK(!parses("cron(? 0 * * ? *)"));
  CHECK(!parses("cron(0 0 ? * 3#6 *)"));
  CHECK(!parses("cron(0, 0 * * ? *)"));
  CHECK(!parses("every day"));
  CHECK(sl_timezone_valid("", 0));
  CHECK(sl_timezone_valid("America/New_York", 16));
  CHECK(sl_timezone_valid("Etc/GMT+9", 9));
  CHECK(!sl_timezone_valid("Mars/Olympus", 12));
  CHECK(!sl_timezone_valid("../etc/passwd", 13));
  CHECK(!sl_timezone_valid("/etc/localtime", 14));
}

static void test_cron_next(void) {
  int64_t t0 = T("2026-12-02T06:40:00Z"); /* a Wednesday */
  /* Every Monday at 06:30 UTC. */
  CHECK_INT(next_of("cron(30 6 ? * MON *)", "", t0), T("2026-12-07T06:30:00Z"));
  /* At the minute itself: that minute. */
  CHECK_INT(next_of("cron(40 6 * * ? *)", "", t0), T("2026-12-02T06:40:00Z"));
  CHECK_INT(next_of("cron(40 6 * * ? *)", "", t0 + 1), T("2026-12-03T06:40:00Z"));
  /* Steps and ranges. */
  CHECK_INT(next_of("cron(0/15 9-17 ? * MON-FRI *)", "", t0), T("2026-12-02T09:00:00Z"));
  CHECK_INT(next_of("cron(5/20 * * * ? *)", "", t0), T("2026-12-02T06:45:00Z"));
  CHECK_INT(next_of("cron(0 22-2 * * ? *)", "", t0), T("2026-12-02T22:00:00Z"));
  /* Last day, last weekday, nearest weekday, n-th and last weekday n. */
  CHECK_INT(next_of("cron(0 0 L * ? *)", "", t0), T("2026-12-31T00:00:00Z"));
  CHECK_INT(next_of("cron(0 0 L 2 ? *)", "", t0), T("2027-02-28T00:00:00Z"));
  CHECK_INT(next_of("cron(0 0 L 2 ? 2028)", "", t0), T("2028-02-29T00:00:00Z"));
  /* 2027-01-31 is a Sunday: the last weekday is Friday the 29th. */
  CHECK_INT(next_of("cron(0 0 LW 1 ? *)", "", t0), T("2027-01-29T00:00:00Z"));
  /* 2027-05-01 is a Saturday: 1W is Monday the 3rd, not April's 30th. */
  CHECK_INT(next_of("cron(0 0 1W 5 ? *)", "", t0), T("2027-05-03T00:00:00Z"));
  /* 2026-12-05 is a Saturday: 5W is Friday the 4th; 6W (Sunday) Monday the 7th. */
  CHECK_INT(next_of("cron(0 0 5W * ? *)", "", t0), T("2026-12-04T00:00:00Z"));
  CHECK_INT(next_of("cron(0 0 6W * ? *)", "", t0), T("2026-12-07T00:00:00Z"));
  /* The second Tuesday of December 2026 is the 8th; the last Friday the 25th. */
  CHECK_INT(next_of("cron(0 12 ? * 3#2 *)", "", t0), T("2026-12-08T12:00:00Z"));
  CHECK_INT(next_of("cron(15 10 ? * 6L *)", "", t0), T("2026-12-25T10:15:00Z"));
  /* L alone in Day-of-week: Saturday. */
  CHECK_INT(next_of("cron(0 0 ? * L *)", "", t0), T("2026-12-05T00:00:00Z"));
  /* A year list. */
  CHECK_INT(next_of("cron(0 0 1 JAN ? 2030,2031)", "", t0), T("2030-01-01T00:00:00Z"));
  CHECK_INT(next_of("cron(0 0 1 JAN ? 2020)", "", t0), INT64_MAX);
  /* Time zones: 09:00 in New York is 14:00 UTC in winter, 13:00 in summer. */
  CHECK_INT(next_of("cron(0 9 * * ? *)", "America/New_York", t0), T("2026-12-02T14:00:00Z"));
  CHECK_INT(next_of("cron(0 9 * * ? *)", "America/New_York", T("2027-07-01T00:00:00Z")),
            T("2027-07-01T13:00:00Z"));
  /* Etc/GMT+9 is nine hours behind UTC (the POSIX sign). */
  CHECK_INT(next_of("at(2026-12-03T00:00:00)", "Etc/GMT+9", t0), T("2026-12-03T09:00:00Z"));
  CHECK_INT(next_of("at(2026-12-03T00:00:00)", "", t0), T("2026-12-03T00:00:00Z"));
  /* Tokyo is UTC+9 without daylight saving. */
  CHECK_INT(next_of("cron(0 0 ? * SUN *)", "Asia/Tokyo", t0), T("2026-12-05T15:00:00Z"));
  /* The zone is restored: UTC again afterwards. */
  CHECK_INT(next_of("cron(0 0 * * ? *)", "", t0), T("2026-12-03T00:00:00Z"));
}

/* StartTime: the action runs then, then on its recurrence; EndTime ends it. */
static void test_schedule_window(void) {
  sl_schedule s;
  char err[200];
  const char *e = "cron(0 12 * * ? *)";
  CHECK(sl_schedule_parse(e, strlen(e), &s, err, sizeof(err)));
  int64_t t0 = T("2026-12-02T06:40:00Z");
  sl_schedule_ctx c = {.sched = &s,
                       .tz = "",
                       .has_start = true,
                       .start_ms = T("2026-12-04T08:00:00Z"),
                       .has_end = true,
                       .end_ms = T("2026-12-06T12:00:00Z"),
                       .put_ms = t0};
  CHECK_INT(sl_schedule_next(&c, t0), T("2026-12-04T08:00:00Z"));
  CHECK_INT(sl_schedule_next(&c, T("2026-12-04T08:00:00Z") + 1), T("2026-12-04T12:00:00Z"));
  CHECK_INT(sl_schedule_next(&c, T("2026-12-06T12:00:00Z")), T("2026-12-06T12:00:00Z"));
  CHECK_INT(sl_schedule_next(&c, T("2026-12-06T12:00:00Z") + 1), INT64_MAX);
  /* rate(): from StartTime, else one period after the put. */
  e = "rate(2 hours)";
  CHECK(sl_schedule_parse(e, strlen(e), &s, err, sizeof(err)));
  CHECK_INT(sl_schedule_next(&c, t0), T("2026-12-04T08:00:00Z"));
  CHECK_INT(sl_schedule_next(&c, T("2026-12-04T08:00:01Z")), T("2026-12-04T10:00:00Z"));
  c.has_start = c.has_end = false;
  CHECK_INT(sl_schedule_next(&c, t0), t0 + 7200000);
}

int main(void) {
  RUN(test_visibility);
  RUN(test_scale_out);
  RUN(test_scale_in);
  RUN(test_combine);
  RUN(test_schedule_parse);
  RUN(test_cron_next);
  RUN(test_schedule_window);
  return DONE();
}
