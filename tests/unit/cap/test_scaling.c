/* Unit tests of cap/scaling: the target-tracking policy engine, pure, on
 * hand-made datapoints (the defaults of cap/params.def). */
#include "harness.h"
#include "cap/scaling.h"

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

int main(void) {
  RUN(test_visibility);
  RUN(test_scale_out);
  RUN(test_scale_in);
  return DONE();
}
