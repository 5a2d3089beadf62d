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
