/* micro_cap — what admission costs (issue #3: under 1 µs per request; the
 * `unlimited` profile no slower than no engine at all).
 *
 *   micro_cap      prints ns per sl_cap_admit for: a single-partition
 *                  PutItem-like charge on an on-demand table, the same on a
 *                  provisioned table, a write with 3 GSI charges, the
 *                  `unlimited` profile, and an empty loop (no engine).
 *
 * The clock advances 125 µs per admission (8,000 requests/s), so buckets
 * refill, windows roll and heat is evaluated as in a real workload. Prints
 * CPU time per call; never a timed test. */
#include "cap/cap.h"

#include <stdio.h>
#include <time.h>

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static sl_throughput tp_of(bool on_demand) {
  sl_throughput tp = {0};
  tp.billing = on_demand ? SL_BILLING_PAY_PER_REQUEST : SL_BILLING_PROVISIONED;
  tp.rcu = on_demand ? 0 : 40000;
  tp.wcu = on_demand ? 0 : 40000;
  tp.max_read_ru = tp.max_write_ru = -1;
  return tp;
}

static double run(const char *profile, bool on_demand, int n_gsi, bool engine) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, 1796040000000LL);
  sl_cap_params p;
  sl_cap_params_default(&p, profile);
  sl_cap *c = sl_cap_new(&p, &clk);
  sl_throughput tp = tp_of(on_demand);
  sl_cap_res_init init = {.name = SL_STR("t"), .arn = SL_STR("arn:t"), .tp = &tp};
  sl_cap_res *res[4];
  res[0] = sl_cap_res_new(c, &init);
  init.is_index = true;
  for (int i = 1; i <= n_gsi; i++)
    res[i] = sl_cap_res_new(c, &init);
  const int iters = 2000000;
  int admitted = 0;
  double t0 = cpu_s();
  for (int i = 0; i < iters; i++) {
    clk.manual_us += 125;
    sl_cap_charge ch[4];
    for (int k = 0; k <= n_gsi; k++)
      ch[k] = (sl_cap_charge){.res = res[k], .dir = SL_CAP_WRITE, .hash = rnd(), .cost_mu = 1000};
    sl_cap_verdict v;
    if (!engine)
      admitted += (int)(ch[0].hash & 1);
    else
      admitted += sl_cap_admit(c, ch, (size_t)n_gsi + 1, &v);
  }
  double ns = (cpu_s() - t0) / iters * 1e9;
  sl_cap_free(c);
  return ns + (admitted < 0 ? 1 : 0);
}

int main(void) {
  printf("admission cost, CPU ns per request (2,000,000 requests at 8,000/s of clock time)\n");
  printf("  on-demand table, 1 charge          %7.1f ns\n", run("aws", true, 0, true));
  printf("  provisioned table, 1 charge        %7.1f ns\n", run("aws", false, 0, true));
  printf("  on-demand table + 3 GSIs, 4 charges %6.1f ns\n", run("aws", true, 3, true));
  printf("  unlimited profile, 1 charge        %7.1f ns\n", run("unlimited", true, 0, true));
  printf("  no engine (loop only)              %7.1f ns\n", run("aws", true, 0, false));
  return 0;
}
