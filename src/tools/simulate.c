/*
 * `sluice simulate`: a scenario played against the capacity engine on a
 * manual clock; see simulate.h. docs/simulate.md documents the scenario
 * and the report; tests/conformance/test_simulate_tool.py checks the
 * examples against capacity-model.md's calibration targets and against the
 * server over HTTP.
 */
#include "tools/sim_int.h"
#include "tools/tools.h"
#include "base/rng.h"
#include "cap/cap.h"
#include "cap/cost.h"
#include "cap/scaling.h"
#include "store/key.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- random numbers: splitmix64 (seeding) and xorshift64* ---- */

static uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static void rng_seed(rng *r, uint64_t seed) { r->s = splitmix(seed) | 1; }
static uint64_t rng_next(rng *r) { return sl_rng_next(&r->s); }
/* [0, 1) */
static double rng_unit(rng *r) { return sl_rng_unit(&r->s); }
static uint64_t rng_below(rng *r, uint64_t n) { return n <= 1 ? 0 : rng_next(r) % n; }

/* ---- keys ---- */

/* Zipf ranks 1..n with P(k) ~ k^-s: rejection-inversion sampling
 * (Hörmann and Derflinger), constant time for any n. */
static double zipf_h1(double x) {
  return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}
static double zipf_h2(double x) {
  return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}
static double zipf_H(double s, double x) {
  double l = log(x);
  return zipf_h2((1 - s) * l) * l;
}
static double zipf_Hinv(double s, double x) {
  double t = x * (1 - s);
  if (t < -1)
    t = -1;
  return exp(zipf_h1(t) * x);
}
static double zipf_h(double s, double x) { return exp(-s * log(x)); }

static uint64_t zipf_draw(const sl_sim_keys *k, rng *r) {
  double s = k->exponent, n = (double)k->count;
  double hx1 = zipf_H(s, 1.5) - 1, hn = zipf_H(s, n + 0.5);
  double sc = 2 - zipf_Hinv(s, zipf_H(s, 2.5) - zipf_h(s, 2));
  for (;;) {
    double u = hn + rng_unit(r) * (hx1 - hn);
    double x = zipf_Hinv(s, u);
    double kk = floor(x + 0.5);
    if (kk < 1)
      kk = 1;
    else if (kk > n)
      kk = n;
    if (kk - x <= sc || u >= zipf_H(s, kk + 0.5) - zipf_h(s, kk))
      return (uint64_t)kk - 1;
  }
}

/* The key index a request uses ('seq': the workload's running item number,
 * for the sequential distribution). Hot keys are indexes 0..hot_keys-1. */
static uint64_t key_draw(const sl_sim_keys *k, rng *r, uint64_t seq) {
  switch (k->kind) {
  case SL_KEYS_ZIPF:
    return zipf_draw(k, r);
  case SL_KEYS_HOT:
    if (rng_unit(r) < k->hot_share)
      return rng_below(r, k->hot_keys);
    return k->hot_keys + rng_below(r, k->count);
  case SL_KEYS_SEQUENTIAL:
    return seq;
  case SL_KEYS_NAMED: {
    double u = rng_unit(r);
    uint32_t lo = 0, hi = k->n_names - 1;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (k->weights[mid] > u)
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo;
  }
  case SL_KEYS_UNIFORM:
  default:
    return rng_below(r, k->count);
  }
}

uint64_t sl__sim_keys_space(const sl_sim_keys *k) {
  return k->kind == SL_KEYS_HOT ? k->count + k->hot_keys : k->count;
}

/* The key's text (an S value): prefix + number, "hot" + number for hot
 * keys, or the name. */
sl_str sl__sim_key_text(const sl_sim_keys *k, uint64_t idx, char *buf) {
  if (k->kind == SL_KEYS_NAMED)
    return k->names[idx];
  sl_str prefix = k->prefix;
  if (k->kind == SL_KEYS_HOT) {
    if (idx < k->hot_keys)
      prefix = SL_STR("hot");
    else
      idx -= k->hot_keys;
  }
  size_t n = prefix.len > 64 ? 64 : prefix.len;
  memcpy(buf, prefix.p, n);
  char digits[24];
  int d = 0;
  do {
    digits[d++] = (char)('0' + idx % 10);
    idx /= 10;
  } while (idx);
  while (d)
    buf[n++] = digits[--d];
  return sl_str_make(buf, n);
}

uint64_t sl__sim_key_hash(const sl_sim_keys *k, uint64_t idx) {
  char buf[96];
  sl_av v = {.type = SL_AV_S};
  v.s = sl__sim_key_text(k, idx, buf);
  return sl_key_hash(&v);
}

const char *const sl__sim_outcome_names[5] = {
    "OK", "ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
    "TransactionCanceledException"};

/* ---- event heap ---- */

static bool ev_before(const ev *a, const ev *b) {
  return a->t < b->t || (a->t == b->t && a->order < b->order);
}

static void heap_push(sl_sim *m, ev e) {
  if (m->n_heap == m->heap_cap) {
    m->heap_cap = m->heap_cap ? 2 * m->heap_cap : 1024;
    m->heap = realloc(m->heap, m->heap_cap * sizeof(ev));
    if (!m->heap)
      abort();
  }
  e.order = m->order++;
  size_t i = m->n_heap++;
  while (i) {
    size_t p = (i - 1) / 2;
    if (!ev_before(&e, &m->heap[p]))
      break;
    m->heap[i] = m->heap[p];
    i = p;
  }
  m->heap[i] = e;
}

static ev heap_pop(sl_sim *m) {
  ev top = m->heap[0], last = m->heap[--m->n_heap];
  size_t i = 0, n = m->n_heap;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && ev_before(&m->heap[c + 1], &m->heap[c]))
      c++;
    if (!ev_before(&m->heap[c], &last))
      break;
    m->heap[i] = m->heap[c];
    i = c;
  }
  if (n)
    m->heap[i] = last;
  return top;
}

/* ---- set-up ---- */

static sl_throughput tp_of(bool on_demand, int64_t rcu, int64_t wcu, int64_t max_r, int64_t max_w,
                           int64_t warm_r, int64_t warm_w) {
  sl_throughput tp = {0};
  tp.billing = on_demand ? SL_BILLING_PAY_PER_REQUEST : SL_BILLING_PROVISIONED;
  tp.rcu = on_demand ? 0 : rcu;
  tp.wcu = on_demand ? 0 : wcu;
  tp.highest_rcu = tp.rcu;
  tp.highest_wcu = tp.wcu;
  tp.max_read_ru = max_r;
  tp.max_write_ru = max_w;
  tp.warm_read = warm_r;
  tp.warm_write = warm_w;
  tp.warm_status = SL_STATUS_ACTIVE;
  return tp;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fprintf(stderr, "sluice simulate: out of memory\n");
    exit(1);
  }
  return p;
}

static void series_alloc(dir_series *d, size_t n) {
  d->offered_mu = xcalloc(n, sizeof(int64_t));
  d->accepted_mu = xcalloc(n, sizeof(int64_t));
  d->accepted = xcalloc(n, sizeof(uint32_t));
  for (int l = 0; l < 4; l++)
    d->throttled[l] = xcalloc(n, sizeof(uint32_t));
  d->provisioned = xcalloc(n, sizeof(int64_t));
  d->first_throttle_us = -1;
}

static void series_free(dir_series *d) {
  free(d->offered_mu);
  free(d->accepted_mu);
  free(d->accepted);
  for (int l = 0; l < 4; l++)
    free(d->throttled[l]);
  free(d->provisioned);
}

static uint32_t res_add(sl_sim *m, uint32_t table, int32_t gsi, const sl_throughput *tp) {
  const sl_sim_table *t = &m->s->tables[table];
  res_state *r = &m->res[m->n_res];
  r->tp = *tp;
  r->is_index = gsi >= 0;
  r->table = table;
  r->gsi = gsi;
  r->name = gsi >= 0 ? t->gsis[gsi].name : t->name;
  char buf[512];
  if (gsi >= 0)
    snprintf(buf, sizeof(buf), "arn:aws:dynamodb:us-east-1:000000000000:table/%.*s/index/%.*s",
             SL_STR_FMT(t->name), SL_STR_FMT(t->gsis[gsi].name));
  else
    snprintf(buf, sizeof(buf), "arn:aws:dynamodb:us-east-1:000000000000:table/%.*s",
             SL_STR_FMT(t->name));
  r->arn = sl_str_make(strdup(buf), strlen(buf));
  if (gsi >= 0)
    snprintf(buf, sizeof(buf), "GSI %.*s of table %.*s", SL_STR_FMT(t->gsis[gsi].name),
             SL_STR_FMT(t->name));
  else
    snprintf(buf, sizeof(buf), "table %.*s", SL_STR_FMT(t->name));
  r->label = sl_str_make(strdup(buf), strlen(buf));
  sl_cap_res_init init = {.is_index = gsi >= 0,
                          .name = r->name,
                          .table = t->name,
                          .arn = r->arn,
                          .tp = &r->tp,
                          .has_lsi = t->n_lsis > 0};
  r->res = sl_cap_res_new(m->cap, &init);
  for (int d = 0; d < 2; d++)
    series_alloc(&r->d[d], m->n_steps);
  r->partitions = xcalloc(m->n_steps, sizeof(uint16_t));
  return m->n_res++;
}

static void wl_init(sl_sim *m, uint32_t i) {
  wl_state *w = &m->wl[i];
  memset(w, 0, sizeof(*w));
  w->w = &m->s->workloads[i];
  w->phase_start = m->t0;
  rng_seed(&w->jitter, m->s->seed * 1000003 + i * 7919 + 17);
  w->quota = 500;
  w->ad_cap = 1; /* botocore: TokenBucket(max_rate=1), enabled after the first throttle */
  w->ad_fill = 1;
  w->ad_tokens = 0;
  w->ad_last = -1;
  w->ad_bucket = floor((double)m->t0 / SEC);
  w->cubic_wmax = 0;
  w->cubic_k = 0;
  w->cubic_last_fail = (double)m->t0 / SEC;
  uint64_t space = sl__sim_keys_space(&w->w->keys);
  if (w->w->keys.kind != SL_KEYS_SEQUENTIAL && space <= MAX_TRACKED_KEYS) {
    w->n_keys = space;
    w->key_req = xcalloc(space, sizeof(uint64_t));
    w->key_thr = xcalloc(space, sizeof(uint64_t));
  }
  size_t n = m->n_steps;
  w->s_requests = xcalloc(n, sizeof(uint32_t));
  w->s_attempts = xcalloc(n, sizeof(uint32_t));
  w->s_throttled = xcalloc(n, sizeof(uint32_t));
  w->s_succeeded = xcalloc(n, sizeof(uint32_t));
  w->s_failed = xcalloc(n, sizeof(uint32_t));
  w->s_rate_limit = xcalloc(n, sizeof(double));
}

/* The time of the workload's next arrival after 'in_phase' arrivals of the
 * current phase, moving through phases; INT64_MAX when the phases end. */
static void wl_schedule(sl_sim *m, wl_state *w) {
  const sl_sim_workload *wl = w->w;
  while (w->phase < wl->n_phases) {
    const sl_sim_phase *p = &wl->phases[w->phase];
    int64_t t;
    if (p->rate_from == p->rate_to) {
      double rate = p->rate_from;
      t = rate > 0 ? w->phase_start + (int64_t)((double)w->in_phase * 1e6 / rate) : INT64_MAX;
    } else {
      /* A linear ramp: the n-th arrival where the integral of the rate
       * reaches n. */
      double d = (double)p->duration_us / 1e6, a = p->rate_from, b = (p->rate_to - a) / d;
      double n = (double)w->in_phase, x;
      if (fabs(b) < 1e-12)
        x = a > 0 ? n / a : 1e300;
      else {
        double disc = a * a + 2 * b * n;
        x = disc < 0 ? 1e300 : (-a + sqrt(disc)) / b;
      }
      t = x < 1e12 ? w->phase_start + (int64_t)(x * 1e6) : INT64_MAX;
    }
    if (t < w->phase_start + p->duration_us) {
      if (wl->per_ms)
        t = t / 1000 * 1000;
      w->next_t = t;
      return;
    }
    w->phase_start += p->duration_us;
    w->phase++;
    w->in_phase = 0;
  }
  w->next_t = INT64_MAX;
}

static bool set_params(sl_sim *m, char *err, size_t err_len) {
  sl_cap_params_default(&m->params, "aws");
  for (uint32_t i = 0; i < m->s->n_params; i++)
    if (!sl_cap_params_set(&m->params, m->s->param_names[i], m->s->param_values[i])) {
      snprintf(err, err_len,
               "params.%.*s: unknown capacity parameter or not a number: '%.*s' (sluice serve "
               "--help lists them)",
               SL_STR_FMT(m->s->param_names[i]), SL_STR_FMT(m->s->param_values[i]));
      return false;
    }
  return true;
}

static const sl_sim_scaling *scaling_of(const sl_sim *m, const res_state *r, int dir);

/* A scheduled action's first firing at or after 'from_ms' (cap/scaling.h). */
static int64_t sched_next(const sl_sim_scheduled *a, int64_t put_ms, int64_t from_ms) {
  sl_schedule_ctx c = {.sched = &a->sched,
                       .tz = a->tz,
                       .has_start = a->has_start,
                       .has_end = a->has_end,
                       .start_ms = a->start_ms,
                       .end_ms = a->end_ms,
                       .put_ms = put_ms};
  return sl_schedule_next(&c, from_ms);
}
static void table_units(const sl_sim *m, uint32_t table, const sl_throughput *next,
                        const bool *touched, int64_t *r, int64_t *w);

sl_sim *sl_sim_new(const sl_scenario *s, char *err, size_t err_len) {
  sl_sim *m = xcalloc(1, sizeof(*m));
  m->s = s;
  if (!set_params(m, err, err_len)) {
    free(m);
    return NULL;
  }
  m->t0 = s->start_ms * 1000;
  m->end = m->t0 + s->duration_us;
  m->n_steps = (size_t)((s->duration_us + s->step_us - 1) / s->step_us);
  uint32_t n_res = 0;
  for (uint32_t i = 0; i < s->n_tables; i++)
    n_res += 1 + s->tables[i].n_gsis;
  if (m->n_steps * n_res > 4000000) {
    snprintf(err, err_len,
             "step_s: %zu steps for %u tables and GSIs is too many series points (at most "
             "4,000,000): use a larger step_s",
             m->n_steps, n_res);
    free(m);
    return NULL;
  }
  sl_clock_init(&m->clock, SL_CLOCK_MANUAL, 1, s->start_ms);
  m->cap = sl_cap_new(&m->params, &m->clock);
  uint32_t n = 0;
  for (uint32_t i = 0; i < s->n_tables; i++)
    n += 1 + s->tables[i].n_gsis;
  m->res = xcalloc(n, sizeof(res_state));
  m->table_res = xcalloc(s->n_tables, sizeof(uint32_t));
  for (uint32_t i = 0; i < s->n_tables; i++) {
    const sl_sim_table *t = &s->tables[i];
    sl_throughput tp =
        tp_of(t->on_demand, t->rcu, t->wcu, t->max_read, t->max_write, t->warm_read, t->warm_write);
    m->table_res[i] = res_add(m, i, -1, &tp);
    for (uint32_t g = 0; g < t->n_gsis; g++) {
      const sl_sim_gsi *x = &t->gsis[g];
      sl_throughput gtp = tp_of(t->on_demand, x->rcu, x->wcu, x->max_read, x->max_write,
                                x->warm_read, x->warm_write);
      m->gsi_res[i][g] = res_add(m, i, (int32_t)g, &gtp);
    }
  }
  /* CreateTable's quotas, table by table in file order (cap/control.c). */
  int64_t acc_r = 0, acc_w = 0;
  for (uint32_t i = 0; i < s->n_tables; i++) {
    sl_cap_quota_units u = {.creating = true, .others_r = acc_r, .others_w = acc_w};
    table_units(m, i, NULL, NULL, &u.r, &u.w);
    sl_cap_quota q = sl_cap_quota_check(&m->params, &u);
    if (q != SL_QUOTA_OK) {
      char msg[1024];
      sl_cap_quota_message(&m->params, &u, q, "us-east-1", msg, sizeof(msg));
      snprintf(err, err_len,
               "tables[%u]: CreateTable would fail: LimitExceededException: %s (raise "
               "params.table_quota_* / account_quota_* to simulate a raised quota)",
               i, msg);
      sl_sim_free(m);
      return NULL;
    }
    acc_r += u.r;
    acc_w += u.w;
  }
  /* OnDemandThroughput and WarmThroughput against the per-table quotas, as
   * CreateTable checks them (cap/control.c) */
  for (uint32_t i = 0; i < m->n_res; i++) {
    const res_state *r = &m->res[i];
    /* At creation: against what a new resource reports (its warm values
     * not yet set). */
    sl_throughput fresh = r->tp;
    fresh.warm_read = fresh.warm_write = 0;
    char msg[1024], path[64];
    sl_cap_units_check c =
        sl_cap_on_demand_check(&m->params, r->is_index ? "index" : "table", r->tp.max_read_ru,
                               r->tp.max_write_ru, "us-east-1", msg, sizeof(msg));
    if (c == SL_UNITS_OK)
      c = sl_cap_warm_check(&m->params, r->is_index ? "index" : "table", r->name, &fresh, NULL,
                            true, r->tp.warm_read, r->tp.warm_write, "us-east-1", msg, sizeof(msg));
    if (c == SL_UNITS_OK)
      continue;
    if (r->is_index)
      snprintf(path, sizeof(path), "tables[%u].gsis[%d]", r->table, r->gsi);
    else
      snprintf(path, sizeof(path), "tables[%u]", r->table);
    snprintf(err, err_len, "%s: CreateTable would fail: %s: %s", path,
             c == SL_UNITS_LIMIT ? "LimitExceededException" : "ValidationException", msg);
    sl_sim_free(m);
    return NULL;
  }
  /* Auto scaling: the datapoints of every clock minute of the run; a
   * scalable target brings the units within its bounds when registered. */
  m->next_warm_ms = INT64_MAX;
  m->next_status_ms = INT64_MAX;
  m->first_minute = s->start_ms / 60000;
  m->n_minutes = (s->start_ms + s->duration_us / 1000) / 60000 - m->first_minute + 1;
  m->next_eval_minute = m->first_minute;
  for (uint32_t i = 0; i < m->n_res; i++) {
    res_state *r = &m->res[i];
    for (int d = 0; d < 2; d++) {
      r->last_out_ms[d] = r->last_in_ms[d] = SL_SCALING_NEVER;
      const sl_sim_scaling *sc = scaling_of(m, r, d);
      if (!sc->on)
        continue;
      m->any_scaling = true;
      r->minute_units[d] = xcalloc((size_t)m->n_minutes, sizeof(double));
      r->bound_min[d] = sc->min;
      r->bound_max[d] = sc->max;
      r->sched_next[d] = xcalloc(sc->n_scheduled + 1, sizeof(int64_t));
      for (uint32_t k = 0; k < sc->n_scheduled; k++)
        r->sched_next[d][k] = sched_next(&sc->scheduled[k], s->start_ms, s->start_ms);
      int64_t *u = d ? &r->tp.wcu : &r->tp.rcu;
      if (*u < sc->min)
        *u = sc->min;
      if (*u > sc->max)
        *u = sc->max;
      if (*u > (d ? r->tp.highest_wcu : r->tp.highest_rcu))
        *(d ? &r->tp.highest_wcu : &r->tp.highest_rcu) = *u;
      sl_cap_res_configure(m->cap, r->res, &r->tp);
    }
  }
  for (uint32_t i = 0; i < s->n_workloads; i++) {
    wl_init(m, i);
    wl_schedule(m, &m->wl[i]);
  }
  return m;
}

void sl_sim_free(sl_sim *m) {
  if (!m)
    return;
  for (uint32_t i = 0; i < m->n_res; i++) {
    for (int d = 0; d < 2; d++)
      series_free(&m->res[i].d[d]);
    free(m->res[i].partitions);
    free(m->res[i].minute_units[0]);
    free(m->res[i].minute_units[1]);
    free(m->res[i].sched_next[0]);
    free(m->res[i].sched_next[1]);
    free((void *)m->res[i].arn.p);
    free((void *)m->res[i].label.p);
  }
  for (uint32_t i = 0; i < m->s->n_workloads; i++) {
    wl_state *w = &m->wl[i];
    free(w->key_req);
    free(w->key_thr);
    free(w->s_requests);
    free(w->s_attempts);
    free(w->s_throttled);
    free(w->s_succeeded);
    free(w->s_failed);
    free(w->s_rate_limit);
    free(w->ad_q);
    free(w->mass);
    free(w->pend);
  }
  free(m->send);
  free(m->shares);
  free(m->slots);
  for (size_t i = 0; i < m->n_cp; i++) {
    free(m->cp[i].what);
    free(m->cp[i].error);
  }
  free(m->cp);
  sl_cap_free(m->cap);
  free(m->res);
  free(m->table_res);
  free(m->heap);
  free(m);
}

/* ---- one attempt ---- */

static size_t step_of(const sl_sim *m, int64_t t) {
  size_t s = (size_t)((t - m->t0) / m->s->step_us);
  return s < m->n_steps ? s : m->n_steps - 1;
}

/* A standard normal draw (Box-Muller). */
static double rng_normal(rng *r) {
  double u = rng_unit(r), v = rng_unit(r);
  return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

static uint32_t item_bytes(const sl_sim_size *z, rng *r) {
  switch ((sl_sim_size_kind)z->kind) {
  case SL_SIZE_NORMAL:
  case SL_SIZE_LOGNORMAL:
    /* Drawn again outside the bounds (a truncated distribution); after 64
     * tries the nearer bound. */
    for (int i = 0;; i++) {
      double x = rng_normal(r);
      double b = z->kind == SL_SIZE_NORMAL ? z->mean + z->sd * x : z->mean * exp(z->sd * x);
      b = round(b);
      if (b >= z->min && b <= z->max)
        return (uint32_t)b;
      if (i == 63)
        return b < z->min ? z->min : z->max;
    }
  case SL_SIZE_WEIGHTED: {
    double u = rng_unit(r);
    uint32_t lo = 0, hi = z->n_values - 1;
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (z->weights[mid] > u)
        hi = mid;
      else
        lo = mid + 1;
    }
    return z->values[lo];
  }
  case SL_SIZE_FIXED:
  case SL_SIZE_UNIFORM:
  default:
    return z->min == z->max ? z->min : z->min + (uint32_t)rng_below(r, z->max - z->min + 1);
  }
}

/* What one item of a request costs on the resource it reads or writes
 * (cap/cost.h, as ops/ charges it): a read's 4 KB steps, a Query/Scan
 * page's items summed and rounded once (an LSI page its entries, plus each
 * base item a fetch of unprojected attributes reads), a write's 1 KB steps
 * plus its LSI entries, which are charged to the table. */
static int64_t table_mu(const sl_sim *m, const sl_sim_workload *wl, uint32_t bytes,
                        bool transactional) {
  const sl_sim_table *t = &m->s->tables[wl->table];
  int64_t mu;
  sl_cost_read how = wl->index >= 0 || !wl->consistent ? SL_COST_EVENTUAL : SL_COST_STRONG;
  if (transactional)
    how = SL_COST_TRANSACTIONAL;
  switch ((sl_sim_op)wl->op) {
  case SL_OP_QUERY:
  case SL_OP_SCAN: {
    /* A page of an LSI reads its entries; fetching attributes the LSI does
     * not project reads each base item too, rounded up on its own. */
    size_t each = wl->lsi >= 0 ? t->lsi_entry_bytes[wl->lsi] : bytes;
    size_t sizes[1] = {each * wl->items};
    mu = sl_cost_page_mu(sizes, 1, how);
    if (wl->fetch)
      mu += (int64_t)wl->items * sl_cost_lsi_fetch_mu(bytes, how);
    break;
  }
  case SL_OP_GET:
  case SL_OP_BATCH_GET:
  case SL_OP_TRANSACT_GET:
    mu = sl_cost_read_units_mu(bytes, how);
    break;
  default:
    mu = sl_cost_write_units_mu(bytes, transactional);
    /* LSI entries are charged to the table (facts §2.2). */
    for (uint32_t l = 0; l < t->n_lsis; l++) {
      sl_cost_index_change c = {.has = wl->op != SL_OP_DELETE,
                                .had = wl->op != SL_OP_PUT && wl->op != SL_OP_BATCH_WRITE &&
                                       wl->op != SL_OP_TRANSACT_WRITE,
                                .changed = true,
                                .old_size = t->lsi_entry_bytes[l],
                                .new_size = t->lsi_entry_bytes[l]};
      mu += sl_cost_index_write_mu(&c, transactional);
    }
    break;
  }
  return mu;
}

/* A GSI entry's write cost for an item of 'wl' (entry of 'eb' bytes). */
static int64_t gsi_mu(const sl_sim_workload *wl, const sl_sim_gsi *x, uint32_t eb,
                      bool transactional) {
  sl_cost_index_change ic = {.new_size = eb, .old_size = eb};
  if (wl->op == SL_OP_DELETE) {
    ic.had = true;
  } else if (wl->op == SL_OP_UPDATE) {
    ic.had = ic.has = true;
    ic.key_changed = x->keys_change;
    ic.changed = true;
  } else {
    ic.has = true;
  }
  return sl_cost_index_write_mu(&ic, transactional);
}

/* The charges of item 'j' of a request: appended to m->charges. Returns
 * the key index of the item (for the hottest keys). */
static uint64_t item_charges(sl_sim *m, const wl_state *w, const ev *e, uint32_t j, size_t *n,
                             bool transactional, bool *new_item, uint64_t *bytes_out) {
  const sl_sim_workload *wl = w->w;
  const sl_sim_table *t = &m->s->tables[wl->table];
  rng r;
  rng_seed(&r, e->req_seed + (uint64_t)j * 0x9E3779B97F4A7C15ull);
  uint64_t kidx = key_draw(&wl->keys, &r, e->item_base + j);
  uint32_t bytes = item_bytes(&wl->item, &r);
  *bytes_out = bytes;
  *new_item = wl->keys.kind == SL_KEYS_SEQUENTIAL;
  sl_cap_dir dir = sl_sim_op_writes((sl_sim_op)wl->op) ? SL_CAP_WRITE : SL_CAP_READ;
  uint32_t ri = wl->index >= 0 ? m->gsi_res[wl->table][wl->index] : m->table_res[wl->table];
  int64_t mu = table_mu(m, wl, bytes, transactional);
  sl_cap_charge *c = &m->charges[*n];
  memset(c, 0, sizeof(*c));
  c->res = m->res[ri].res;
  c->dir = (uint8_t)dir;
  c->cost_mu = mu;
  if (wl->op == SL_OP_SCAN) {
    /* A Scan page reads the next stretch of the hash space. */
    uint64_t pages = wl->keys.count / wl->items + 1;
    c->hash = (uint64_t)((e->item_base + j) % pages) * (UINT64_MAX / pages);
  } else {
    const sl_sim_keys *k = wl->index >= 0 ? &t->gsis[wl->index].keys : &wl->keys;
    uint64_t kk = wl->index >= 0 ? key_draw(k, &r, e->item_base + j) : kidx;
    c->hash = sl__sim_key_hash(k, kk);
  }
  m->charge_res[*n] = ri;
  m->charge_item[*n] = (uint8_t)j;
  (*n)++;
  if (dir != SL_CAP_WRITE)
    return kidx;
  for (uint32_t g = 0; g < t->n_gsis; g++) {
    const sl_sim_gsi *x = &t->gsis[g];
    if (x->share < 1 && rng_unit(&r) >= x->share)
      continue;
    uint64_t gk = key_draw(&x->keys, &r, e->item_base + j);
    uint32_t eb = x->entry.max ? item_bytes(&x->entry, &r) : bytes;
    sl_cap_charge *gc = &m->charges[*n];
    memset(gc, 0, sizeof(*gc));
    gc->res = m->res[m->gsi_res[wl->table][g]].res;
    gc->dir = SL_CAP_WRITE;
    gc->hash = sl__sim_key_hash(&x->keys, gk);
    gc->cost_mu = gsi_mu(wl, x, eb, transactional);
    m->charge_res[*n] = m->gsi_res[wl->table][g];
    m->charge_item[*n] = (uint8_t)j;
    (*n)++;
  }
  return kidx;
}

static res_state *res_of_ptr(sl_sim *m, const sl_cap_res *p) {
  for (uint32_t i = 0; i < m->n_res; i++)
    if (m->res[i].res == p)
      return &m->res[i];
  return &m->res[0];
}

/* Consumed units for auto scaling's one-minute datapoints. */
static void consumed(sl_sim *m, uint32_t ri, int dir, int64_t t, int64_t mu) {
  res_state *r = &m->res[ri];
  if (!r->minute_units[dir])
    return;
  int64_t i = t / 60000000 - m->first_minute;
  if (i >= 0 && i < m->n_minutes)
    r->minute_units[dir][i] += (double)mu / 1000;
}

/* Records one admission of charges [from, to). */
static void record(sl_sim *m, size_t from, size_t to, bool admitted, const sl_cap_verdict *v,
                   int64_t t) {
  size_t s = step_of(m, t);
  for (size_t i = from; i < to; i++) {
    dir_series *d = &m->res[m->charge_res[i]].d[m->charges[i].dir];
    d->offered_mu[s] += m->charges[i].cost_mu;
    d->total_offered_mu += m->charges[i].cost_mu;
    if (admitted) {
      consumed(m, m->charge_res[i], m->charges[i].dir, t, m->charges[i].cost_mu);
      d->accepted_mu[s] += m->charges[i].cost_mu;
      d->total_accepted_mu += m->charges[i].cost_mu;
      d->accepted[s]++;
      d->total_accepted++;
    }
  }
  if (admitted)
    return;
  for (uint32_t i = 0; i < v->n_reasons; i++) {
    res_state *r = res_of_ptr(m, v->reasons[i].res);
    dir_series *d = &r->d[v->reasons[i].dir];
    d->throttled[v->reasons[i].limit][s]++;
    d->total_throttled[v->reasons[i].limit]++;
    if (d->first_throttle_us < 0)
      d->first_throttle_us = t - m->t0;
  }
}

/* The exception a throttled request gets (spec §3): from its first reason. */
static outcome outcome_of(sl_sim *m, const sl_cap_verdict *v) {
  if (!v->n_reasons)
    return OUT_THROTTLING;
  const sl_cap_reason *r = &v->reasons[0];
  switch ((sl_cap_limit)r->limit) {
  case SL_LIMIT_MAX_ON_DEMAND:
    return OUT_THROTTLING;
  case SL_LIMIT_ACCOUNT:
    return m->params.account_limit_exception ? OUT_THROTTLING : OUT_RLE;
  case SL_LIMIT_PROVISIONED:
    return OUT_PTEE;
  case SL_LIMIT_KEY_RANGE:
  default:
    return sl_cap_res_on_demand(r->res) ? OUT_THROTTLING : OUT_PTEE;
  }
}

/* ---- the client ---- */

/* botocore RateClocker.record: the measured response rate. */
static void ad_record(wl_state *w, double now) {
  double bucket = floor(now * 2) / 2;
  w->ad_count++;
  if (bucket > w->ad_bucket) {
    double rate = (double)w->ad_count / (bucket - w->ad_bucket);
    w->ad_measured = rate * 0.8 + w->ad_measured * 0.2;
    w->ad_count = 0;
    w->ad_bucket = bucket;
  }
}

static void ad_refill(wl_state *w, double now) {
  if (w->ad_last < 0) {
    w->ad_last = now;
    return;
  }
  w->ad_tokens += (now - w->ad_last) * w->ad_fill;
  if (w->ad_tokens > w->ad_cap)
    w->ad_tokens = w->ad_cap;
  w->ad_last = now;
}

static void ad_set_rate(wl_state *w, double now, double rate) {
  ad_refill(w, now);
  w->ad_fill = rate > 0.5 ? rate : 0.5;
  w->ad_cap = rate >= 1 ? rate : 1;
  if (w->ad_tokens > w->ad_cap)
    w->ad_tokens = w->ad_cap;
}

/* botocore ClientRateLimiter.on_receiving_response. */
static void ad_response(wl_state *w, double now, bool throttled) {
  ad_record(w, now);
  double rate;
  if (!throttled) {
    double dt = now - w->cubic_last_fail - w->cubic_k;
    rate = 0.4 * dt * dt * dt + w->cubic_wmax;
  } else {
    double use = w->ad_enabled && w->ad_fill < w->ad_measured ? w->ad_fill : w->ad_measured;
    w->cubic_wmax = use;
    w->cubic_k = cbrt(use * (1 - 0.7) / 0.4);
    w->cubic_last_fail = now;
    rate = use * 0.7;
    w->ad_enabled = true;
  }
  double cap = 2 * w->ad_measured;
  ad_set_rate(w, now, rate < cap ? rate : cap);
}

static bool retryable(sl_sim_retry p, outcome o) {
  switch (p) {
  case SL_RETRY_NONE:
    return false;
  case SL_RETRY_LEGACY: /* _retry.json: not RequestLimitExceeded */
    return o == OUT_THROTTLING || o == OUT_PTEE;
  case SL_RETRY_IMMEDIATE:
    return true;
  default: /* standard modes: the throttling codes; TransactionCanceled is not one */
    return o == OUT_THROTTLING || o == OUT_PTEE || o == OUT_RLE;
  }
}

/* The delay before retry number 'n' (1 = the first retry), in µs. */
static int64_t retry_delay(wl_state *w, uint32_t n) {
  const sl_sim_client *c = &w->w->client;
  double e = ldexp(1, (int)(n - 1 < 30 ? n - 1 : 30));
  switch ((sl_sim_retry)c->retry) {
  case SL_RETRY_LEGACY:
    return (int64_t)(0.05 * e * 1e6);
  case SL_RETRY_STANDARD:
  case SL_RETRY_ADAPTIVE:
    return (int64_t)(rng_unit(&w->jitter) * (e < 20 ? e : 20) * 1e6);
  case SL_RETRY_2026:
    return (int64_t)(rng_unit(&w->jitter) * (e < 20 ? e : 20) * 1e6);
  case SL_RETRY_IMMEDIATE:
    return (int64_t)c->delay_ms * 1000;
  case SL_RETRY_NONE:
  default:
    return 0;
  }
}

static void finish(sl_sim *m, wl_state *w, const ev *e, int64_t t, bool ok) {
  size_t s = step_of(m, t);
  if (ok) {
    w->succeeded++;
    w->s_succeeded[s]++;
  } else {
    w->failed++;
    w->s_failed[s]++;
  }
  int64_t lat = t - e->first_t;
  double ms = (double)lat / 1000;
  w->lat_sum_ms += ms;
  if (lat > w->lat_max_us)
    w->lat_max_us = lat;
  size_t b = ms < 100 ? (size_t)ms : 100 + (size_t)((ms - 100) / 100);
  w->lat_hist[b < LAT_BUCKETS ? b : LAT_BUCKETS - 1]++;
  /* standard modes: the retry quota's refund (botocore quota.py). */
  if (ok && (w->w->client.retry == SL_RETRY_STANDARD || w->w->client.retry == SL_RETRY_ADAPTIVE ||
             w->w->client.retry == SL_RETRY_2026)) {
    w->quota += e->quota_held ? e->quota_held : 1;
    if (w->quota > 500)
      w->quota = 500;
  }
}

/* An adaptive client's send waiting for a token, at the end of the line. */
static void ad_wait(wl_state *w, const ev *e) {
  if (w->ad_q_n == w->ad_q_cap) {
    size_t cap = w->ad_q_cap ? 2 * w->ad_q_cap : 1024;
    ev *q = malloc(cap * sizeof(*q));
    if (!q)
      abort();
    for (size_t i = 0; i < w->ad_q_n; i++)
      q[i] = w->ad_q[(w->ad_q_head + i) % w->ad_q_cap];
    free(w->ad_q);
    w->ad_q = q;
    w->ad_q_cap = cap;
    w->ad_q_head = 0;
  }
  w->ad_q[(w->ad_q_head + w->ad_q_n++) % w->ad_q_cap] = *e;
}

/* When the first send in line gets its token at the current rate (epoch
 * µs; INT64_MAX: none waits): the bucket holds one by then. */
static int64_t ad_release_t(const wl_state *w) {
  if (!w->ad_q_n)
    return INT64_MAX;
  double need = 1 - w->ad_tokens;
  int64_t t = (int64_t)ceil((w->ad_last + (need > 0 ? need / w->ad_fill : 0)) * SEC);
  int64_t head = w->ad_q[w->ad_q_head].t;
  return t > head ? t : head;
}

/* The first send in line takes its token at 't' and goes. */
static ev ad_release(wl_state *w, int64_t t) {
  ev e = w->ad_q[w->ad_q_head];
  w->ad_q_head = (w->ad_q_head + 1) % w->ad_q_cap;
  w->ad_q_n--;
  ad_refill(w, (double)t / SEC);
  w->ad_tokens = w->ad_tokens > 1 ? w->ad_tokens - 1 : 0;
  e.t = t;
  e.token_held = true;
  return e;
}

/* Makes one attempt of 'e' at its time. */
static void attempt(sl_sim *m, ev *e) {
  wl_state *w = &m->wl[e->wl];
  const sl_sim_workload *wl = w->w;
  const sl_sim_client *cl = &wl->client;
  double now = (double)e->t / SEC;
  /* adaptive: take a token before sending, or wait in line for one */
  if (cl->retry == SL_RETRY_ADAPTIVE && w->ad_enabled && !e->token_held) {
    ad_refill(w, now);
    if (w->ad_q_n || w->ad_tokens < 1) {
      ad_wait(w, e);
      return;
    }
    w->ad_tokens -= 1;
  }
  e->token_held = false;
  m->clock.manual_us = e->t;
  e->attempt++;
  w->attempts++;
  m->total_attempts++;
  size_t s = step_of(m, e->t);
  w->s_attempts[s]++;
  sl_sim_op op = (sl_sim_op)wl->op;
  bool batch = op == SL_OP_BATCH_GET || op == SL_OP_BATCH_WRITE;
  bool txn = op == SL_OP_TRANSACT_GET || op == SL_OP_TRANSACT_WRITE;
  uint32_t n_items = batch || txn ? wl->items : 1;
  size_t n = 0;
  uint64_t keys[MAX_ITEMS];
  bool new_item[MAX_ITEMS];
  uint64_t bytes[MAX_ITEMS];
  size_t first_charge[MAX_ITEMS + 1];
  for (uint32_t j = 0; j < n_items; j++) {
    first_charge[j] = n;
    if (!(e->pending[j / 64] >> (j % 64) & 1)) {
      keys[j] = UINT64_MAX;
      continue;
    }
    keys[j] = item_charges(m, w, e, j, &n, txn, &new_item[j], &bytes[j]);
  }
  first_charge[n_items] = n;
  outcome out = OUT_OK;
  uint32_t throttled_items = 0, tried_items = 0;
  sl_cap_verdict v;
  if (op == SL_OP_QUERY || op == SL_OP_SCAN) {
    /* Check before the page, debit its cost after reading it (spec §3). */
    bool ok = sl_cap_check(m->cap, m->charges, n, &v);
    if (ok)
      sl_cap_debit(m->cap, m->charges, n);
    else
      sl_cap_record_throttle(m->cap, m->charges, n, &v);
    record(m, 0, n, ok, &v, e->t);
    if (ok)
      e->pending[0] = e->pending[1] = 0;
    else
      out = outcome_of(m, &v);
    tried_items = 1;
    throttled_items = !ok;
  } else if (batch) {
    for (uint32_t j = 0; j < n_items; j++) {
      size_t a = first_charge[j], b = first_charge[j + 1];
      if (a == b)
        continue;
      tried_items++;
      bool ok = sl_cap_admit(m->cap, m->charges + a, b - a, &v);
      record(m, a, b, ok, &v, e->t);
      if (ok) {
        e->pending[j / 64] &= ~(1ull << (j % 64));
        if (new_item[j])
          sl_cap_note_bytes(m->cap, m->charges[a].res, m->charges[a].hash, SL_STR_NULL,
                            (int64_t)bytes[j]);
      } else {
        throttled_items++;
        if (out == OUT_OK || throttled_items == 1)
          out = outcome_of(m, &v);
      }
    }
    /* Only a batch whose every item was throttled fails (spec §3). */
    if (throttled_items < tried_items)
      out = OUT_OK;
  } else {
    bool ok = sl_cap_admit(m->cap, m->charges, n, &v);
    record(m, 0, n, ok, &v, e->t);
    tried_items = n_items;
    if (ok) {
      e->pending[0] = e->pending[1] = 0;
      if (sl_sim_op_writes(op))
        for (uint32_t j = 0; j < n_items; j++)
          if (new_item[j])
            sl_cap_note_bytes(m->cap, m->charges[first_charge[j]].res,
                              m->charges[first_charge[j]].hash, SL_STR_NULL, (int64_t)bytes[j]);
    } else {
      throttled_items = n_items;
      out = txn ? OUT_TXN_CANCELED : outcome_of(m, &v);
    }
  }
  /* hottest keys */
  if (w->key_req)
    for (uint32_t j = 0; j < n_items; j++)
      if (keys[j] != UINT64_MAX && keys[j] < w->n_keys) {
        w->key_req[keys[j]]++;
        bool thr = batch ? (e->pending[j / 64] >> (j % 64) & 1) : out != OUT_OK;
        if (thr)
          w->key_thr[keys[j]]++;
      }
  bool throttled = throttled_items > 0;
  if (throttled) {
    w->throttled_attempts++;
    w->s_throttled[s]++;
  }
  if (cl->retry == SL_RETRY_ADAPTIVE)
    ad_response(w, now, out != OUT_OK);
  w->outcomes[out]++;
  if (out == OUT_OK) {
    bool left = e->pending[0] || e->pending[1];
    if (!left) {
      finish(m, w, e, e->t, true);
      return;
    }
    /* UnprocessedItems: the SDK does not resend them; the application may. */
    if (cl->resend_unprocessed && e->resends < cl->resend_max) {
      e->resends++;
      w->resends++;
      double base = (double)cl->resend_base_ms * 1000 * ldexp(1, (int)e->resends - 1);
      e->t += (int64_t)(rng_unit(&w->jitter) * base) + 1;
      heap_push(m, *e);
      return;
    }
    finish(m, w, e, e->t, false);
    return;
  }
  /* A failed call: retry as the policy says. */
  if (e->attempt < cl->max_attempts && retryable((sl_sim_retry)cl->retry, out)) {
    if (cl->retry == SL_RETRY_STANDARD || cl->retry == SL_RETRY_ADAPTIVE ||
        cl->retry == SL_RETRY_2026) {
      if (w->quota < 5) {
        finish(m, w, e, e->t, false);
        return;
      }
      w->quota -= 5;
      e->quota_held = 5;
    }
    e->t += retry_delay(w, e->attempt) + (cl->retry == SL_RETRY_IMMEDIATE ? 0 : 1);
    heap_push(m, *e);
    return;
  }
  finish(m, w, e, e->t, false);
}

/* ---- the run ---- */

static void sample(sl_sim *m, size_t s) {
  int64_t t = m->t0 + (int64_t)(s + 1) * m->s->step_us;
  if (t > m->end)
    t = m->end;
  double hours = (double)(t - (m->t0 + (int64_t)s * m->s->step_us)) / 3.6e9;
  for (uint32_t i = 0; i < m->n_res; i++) {
    res_state *r = &m->res[i];
    size_t parts = sl_cap_res_partitions(r->res);
    r->partitions[s] = (uint16_t)(parts > 65535 ? 65535 : parts);
    if (s > 0 && r->partitions[s] > r->partitions[s - 1])
      r->parts_added += r->partitions[s] - r->partitions[s - 1];
    bool od = r->tp.billing == SL_BILLING_PAY_PER_REQUEST;
    r->d[0].provisioned[s] = od ? 0 : r->tp.rcu;
    r->d[1].provisioned[s] = od ? 0 : r->tp.wcu;
    if (!od) {
      r->provisioned_unit_hours[0] += (double)r->tp.rcu * hours;
      r->provisioned_unit_hours[1] += (double)r->tp.wcu * hours;
    }
  }
  for (uint32_t i = 0; i < m->s->n_workloads; i++) {
    wl_state *w = &m->wl[i];
    w->s_rate_limit[s] = w->ad_enabled ? w->ad_fill : 0;
  }
}

/* ---- the control plane ----
 *
 * Actions and auto-scaling activities change a table's resources as a
 * committed UpdateTable does, after the control plane's own rules, which
 * are the server's (cap/control.c, as ops/throughput.c applies them): the
 * decrease budget of each table and GSI, the limit on switches to
 * on-demand, and the account's provisioned quota. A refused change changes
 * nothing (one UpdateTable is all or nothing) and is reported with the
 * service's LimitExceededException message.
 */

static const sl_sim_scaling *scaling_of(const sl_sim *m, const res_state *r, int dir) {
  const sl_sim_table *t = &m->s->tables[r->table];
  return r->is_index ? &t->gsis[r->gsi].scaling[dir] : &t->scaling[dir];
}

/* A table's provisioned units (its own and its GSIs') with 'next' in place
 * of the current settings where 'touched'. */
static void table_units(const sl_sim *m, uint32_t table, const sl_throughput *next,
                        const bool *touched, int64_t *r, int64_t *w) {
  *r = *w = 0;
  for (uint32_t i = 0; i < m->n_res; i++) {
    if (m->res[i].table != table)
      continue;
    const sl_throughput *tp = next && touched[i] ? &next[i] : &m->res[i].tp;
    if (tp->billing != SL_BILLING_PROVISIONED)
      continue;
    /* as ops/throughput.c counts them: a pending change's units */
    bool pending = !(next && touched[i]) && tp->pending_rcu > 0 && tp->pending_wcu > 0;
    *r += pending ? tp->pending_rcu : tp->rcu;
    *w += pending ? tp->pending_wcu : tp->wcu;
  }
}

static void status_ready(sl_sim *m, int64_t t_ms);

static void cp_add(sl_sim *m, int64_t at_us, uint32_t ri, int dir, bool ok, int64_t from,
                   int64_t to, const char *what, const char *error) {
  if (m->n_cp == m->cp_cap) {
    m->cp_cap = m->cp_cap ? 2 * m->cp_cap : 64;
    m->cp = realloc(m->cp, m->cp_cap * sizeof(*m->cp));
    if (!m->cp)
      abort();
  }
  cp_event *e = &m->cp[m->n_cp++];
  *e = (cp_event){.at_us = at_us, .res = ri, .dir = (int8_t)dir, .ok = ok, .from = from, .to = to};
  e->what = strdup(what);
  e->error = error ? strdup(error) : NULL;
}

/* Commits 'next' (the new settings of the resources 'touched', all of one
 * table) if the control plane allows it, in the order UpdateTable checks
 * (ops/update_table.c): the decrease budget, the switch to on-demand,
 * OnDemandThroughput and WarmThroughput against the per-table quotas, the
 * account's quota. Else false with the exception's name in 'type' and its
 * message in 'err'. A committed change leaves the table (a GSI's own
 * change: the GSI; one of warm throughput alone: neither) UPDATING for
 * table_update_delay_ms, its provisioned units pending until then
 * (sl_cap_pending_set, as ops/throughput.c does; status_ready applies
 * them), and new warm throughput UPDATING for warm_delay_ms, as on the
 * server (jobs/tables.c makes them ACTIVE). */
static bool cp_commit(sl_sim *m, uint32_t table, sl_throughput *next, const bool *touched,
                      int64_t now_ms, const char **type, char *err, size_t err_len) {
  const sl_cap_params *p = &m->params;
  uint32_t tr = m->table_res[table];
  *type = "LimitExceededException";
  /* decreases: each table's and GSI's own budget (spec §5) */
  for (uint32_t i = 0; i < m->n_res; i++) {
    const sl_throughput *old = &m->res[i].tp;
    if (!touched[i] || old->billing != SL_BILLING_PROVISIONED ||
        next[i].billing != SL_BILLING_PROVISIONED)
      continue;
    if (next[i].rcu < old->rcu || next[i].wcu < old->wcu) {
      sl_cap_decrease d = sl_cap_decrease_allowed(p, old, now_ms);
      if (!d.allowed) {
        sl_cap_decrease_message(p, &d, err, err_len);
        return false;
      }
    }
  }
  /* a switch to on-demand: the table's limit (spec §6) */
  if (touched[tr] && m->res[tr].tp.billing != SL_BILLING_PAY_PER_REQUEST &&
      next[tr].billing == SL_BILLING_PAY_PER_REQUEST) {
    int64_t when;
    if (!sl_cap_ppr_switch_allowed(p, &m->res[tr].tp, now_ms, &when)) {
      sl_cap_ppr_switch_message(p, &m->res[tr].tp, when, err, err_len);
      return false;
    }
  }
  /* OnDemandThroughput, then WarmThroughput (cap/control.c) */
  for (int warm = 0; warm < 2; warm++)
    for (uint32_t i = 0; i < m->n_res; i++) {
      const sl_throughput *old = &m->res[i].tp;
      const sl_throughput *nx = &next[i];
      const char *what = m->res[i].is_index ? "index" : "table";
      sl_cap_units_check c = SL_UNITS_OK;
      if (!touched[i])
        continue;
      if (!warm && (nx->max_read_ru != old->max_read_ru || nx->max_write_ru != old->max_write_ru))
        c = sl_cap_on_demand_check(p, what, nx->max_read_ru, nx->max_write_ru, "us-east-1", err,
                                   err_len);
      if (warm && (nx->warm_read != old->warm_read || nx->warm_write != old->warm_write))
        c = sl_cap_warm_check(p, what, m->res[i].name, old, m->res[i].res, false, nx->warm_read,
                              nx->warm_write, "us-east-1", err, err_len);
      if (c != SL_UNITS_OK) {
        *type = c == SL_UNITS_LIMIT ? "LimitExceededException" : "ValidationException";
        return false;
      }
    }
  /* the account's quota (an update: the per-table maximum is checked at
   * creation only, as UpdateTable does) */
  sl_cap_quota_units u = {0};
  table_units(m, table, next, touched, &u.r, &u.w);
  table_units(m, table, NULL, NULL, &u.old_r, &u.old_w);
  for (uint32_t t = 0; t < m->s->n_tables; t++) {
    int64_t r, w;
    if (t == table)
      continue;
    table_units(m, t, NULL, NULL, &r, &w);
    u.others_r += r;
    u.others_w += w;
  }
  sl_cap_quota q = sl_cap_quota_check(p, &u);
  if (q != SL_QUOTA_OK) {
    sl_cap_quota_message(p, &u, q, "us-east-1", err, err_len);
    return false;
  }
  int64_t until = now_ms + p->table_update_delay_ms;
  /* The table is UPDATING after its own change: a GSI's alone leaves it
   * ACTIVE (ops/indexes.c), and so does one of warm throughput alone, which
   * has its own status (ops/update_table.c). */
  const sl_throughput *o = &m->res[tr].tp, *x = &next[tr];
  bool table_change =
      touched[tr] && (x->rcu != o->rcu || x->wcu != o->wcu || x->billing != o->billing ||
                      x->max_read_ru != o->max_read_ru || x->max_write_ru != o->max_write_ru);
  for (uint32_t i = 0; i < m->n_res; i++) {
    if (!touched[i])
      continue;
    res_state *r = &m->res[i];
    sl_throughput tp = next[i];
    bool was_prov = r->tp.billing == SL_BILLING_PROVISIONED;
    bool od_changed = tp.max_read_ru != r->tp.max_read_ru || tp.max_write_ru != r->tp.max_write_ru;
    bool pending = false;
    if (i == tr && r->tp.billing != SL_BILLING_PAY_PER_REQUEST &&
        tp.billing == SL_BILLING_PAY_PER_REQUEST)
      sl_cap_ppr_switch_record(&tp, now_ms);
    if (tp.billing == SL_BILLING_PAY_PER_REQUEST) {
      tp.pending_rcu = tp.pending_wcu = 0;
    } else if (was_prov && (tp.rcu != r->tp.rcu || tp.wcu != r->tp.wcu)) {
      /* as ops/throughput.c sl_tp_set_provisioned: the units in effect stay
       * until the resource is ACTIVE again (status_ready applies them) */
      int64_t rcu = tp.rcu, wcu = tp.wcu;
      tp.rcu = r->tp.rcu;
      tp.wcu = r->tp.wcu;
      sl_cap_pending_set(&tp, rcu, wcu, now_ms);
      pending = true;
    } else if (!was_prov) {
      /* from on-demand: the units are there at once */
      sl_cap_units_set(&tp, tp.rcu, tp.wcu);
    }
    if ((tp.warm_read != r->tp.warm_read || tp.warm_write != r->tp.warm_write) &&
        p->warm_delay_ms > 0 && r->tp.warm_status != SL_STATUS_UPDATING) {
      /* the values in effect before are reported until it is ACTIVE; a
       * change while UPDATING keeps its end (ops/throughput.c) */
      tp.warm_prev_read = r->tp.warm_read;
      tp.warm_prev_write = r->tp.warm_write;
      tp.warm_status = SL_STATUS_UPDATING;
      tp.warm_ready_ms = (uint64_t)(now_ms + p->warm_delay_ms);
      if (now_ms + p->warm_delay_ms < m->next_warm_ms)
        m->next_warm_ms = now_ms + p->warm_delay_ms;
    }
    r->tp = tp;
    sl_cap_res_configure(m->cap, r->res, &r->tp);
    /* A GSI's own change leaves it (not the table) UPDATING, if it was
     * ACTIVE (ops/indexes.c apply_update); a table's, the table. */
    if (r->is_index && (pending || od_changed) && r->updating_until_ms <= now_ms)
      r->updating_until_ms = until;
    if (pending) {
      int64_t at = r->is_index ? r->updating_until_ms : until;
      if (at < m->next_status_ms)
        m->next_status_ms = at;
    }
  }
  /* A change admitted while UPDATING does not end the earlier one sooner
   * (ops/update_table.c). */
  if (table_change) {
    if (m->updating_until_ms[table] <= now_ms)
      m->updating_cause[table] = 0;
    if (m->updating_until_ms[table] < until)
      m->updating_until_ms[table] = until;
  }
  /* No delay: ACTIVE again at once (the server's next tick, at this time). */
  status_ready(m, now_ms);
  return true;
}

/* Pending throughput changes whose resource's UPDATING ended by 't_ms'
 * take effect, each at its time, as jobs/tables.c applies them
 * (sl_cap_pending_apply). */
static void status_ready(sl_sim *m, int64_t t_ms) {
  if (m->next_status_ms > t_ms)
    return;
  int64_t next = INT64_MAX;
  for (uint32_t i = 0; i < m->n_res; i++) {
    res_state *r = &m->res[i];
    if (r->tp.pending_rcu <= 0 || r->tp.pending_wcu <= 0)
      continue;
    int64_t at = r->is_index ? r->updating_until_ms : m->updating_until_ms[r->table];
    if (at <= t_ms) {
      if (m->clock.manual_us < at * 1000)
        m->clock.manual_us = at * 1000;
      if (sl_cap_pending_apply(&m->params, &r->tp, at))
        sl_cap_res_configure(m->cap, r->res, &r->tp);
    } else if (at < next) {
      next = at;
    }
  }
  m->next_status_ms = next;
}

/* Warm throughput whose UPDATING ended by 't_ms' becomes ACTIVE at its
 * time: partitions pre-split, previous peak raised (jobs/tables.c). */
static void warm_ready(sl_sim *m, int64_t t_ms) {
  if (m->next_warm_ms > t_ms)
    return;
  int64_t next = INT64_MAX;
  for (uint32_t i = 0; i < m->n_res; i++) {
    res_state *r = &m->res[i];
    if (r->tp.warm_status != SL_STATUS_UPDATING)
      continue;
    if ((int64_t)r->tp.warm_ready_ms <= t_ms) {
      r->tp.warm_status = SL_STATUS_ACTIVE;
      m->clock.manual_us = (int64_t)r->tp.warm_ready_ms * 1000;
      sl_cap_res_configure(m->cap, r->res, &r->tp);
    } else if ((int64_t)r->tp.warm_ready_ms < next) {
      next = (int64_t)r->tp.warm_ready_ms;
    }
  }
  m->next_warm_ms = next;
}

static void apply_action(sl_sim *m, const sl_sim_action *a) {
  uint32_t ri = a->index >= 0 ? m->gsi_res[a->table][a->index] : m->table_res[a->table];
  m->clock.manual_us = m->t0 + a->at_us;
  sl_throughput *next = xcalloc(m->n_res, sizeof(*next));
  bool *touched = xcalloc(m->n_res, sizeof(*touched));
  /* A mode switch is the table's and its GSIs'. */
  for (uint32_t i = 0; i < m->n_res; i++) {
    res_state *r = &m->res[i];
    bool self = i == ri;
    bool mode = a->on_demand >= 0 && r->table == a->table;
    if (!self && !mode)
      continue;
    sl_throughput tp = r->tp;
    if (mode) {
      tp.billing = a->on_demand ? SL_BILLING_PAY_PER_REQUEST : SL_BILLING_PROVISIONED;
      if (!a->on_demand && !tp.rcu) {
        tp.rcu = a->rcu > 0 ? a->rcu : 1;
        tp.wcu = a->wcu > 0 ? a->wcu : 1;
      }
      if (a->on_demand) {
        tp.rcu = tp.wcu = 0;
      }
    }
    if (self) {
      if (a->rcu > 0 && tp.billing == SL_BILLING_PROVISIONED)
        tp.rcu = a->rcu;
      if (a->wcu > 0 && tp.billing == SL_BILLING_PROVISIONED)
        tp.wcu = a->wcu;
      if (a->max_read != -2)
        tp.max_read_ru = a->max_read;
      if (a->max_write != -2)
        tp.max_write_ru = a->max_write;
      if (a->warm_read > 0)
        tp.warm_read = a->warm_read;
      if (a->warm_write > 0)
        tp.warm_write = a->warm_write;
    }
    next[i] = tp;
    touched[i] = true;
  }
  char what[256], err[1200], msg[1300];
  const res_state *r = &m->res[ri];
  int n = snprintf(what, sizeof(what), "UpdateTable of %s:", r->label.p);
  if (a->on_demand >= 0)
    n += snprintf(what + n, sizeof(what) - (size_t)n, " BillingMode %s",
                  a->on_demand ? "PAY_PER_REQUEST" : "PROVISIONED");
  if (a->rcu > 0)
    n += snprintf(what + n, sizeof(what) - (size_t)n, " ReadCapacityUnits %lld -> %lld",
                  (long long)r->tp.rcu, (long long)a->rcu);
  if (a->wcu > 0)
    n += snprintf(what + n, sizeof(what) - (size_t)n, " WriteCapacityUnits %lld -> %lld",
                  (long long)r->tp.wcu, (long long)a->wcu);
  if (a->max_read != -2 || a->max_write != -2)
    n += snprintf(what + n, sizeof(what) - (size_t)n, " OnDemandThroughput");
  if (a->warm_read > 0 || a->warm_write > 0)
    snprintf(what + n, sizeof(what) - (size_t)n, " WarmThroughput");
  int64_t now_ms = m->clock.manual_us / 1000;
  const char *type;
  bool ok;
  /* Another UpdateTable while the table is UPDATING: the server's texts and
   * the changes it admits (ops/update_table.c check_while_updating). */
  const res_state *tr = &m->res[m->table_res[a->table]];
  bool switching =
      a->on_demand >= 0 && (a->on_demand != 0) != (tr->tp.billing == SL_BILLING_PAY_PER_REQUEST);
  bool iops = switching || a->rcu > 0 || a->wcu > 0;
  bool od = a->max_read != -2 || a->max_write != -2;
  uint8_t cause = m->updating_until_ms[a->table] > now_ms ? m->updating_cause[a->table] : 0;
  const char *sname = m->s->tables[a->table].name.p;
  int sname_len = (int)m->s->tables[a->table].name.len;
  bool warm = a->warm_read > 0 || a->warm_write > 0;
  bool units = a->rcu > 0 || a->wcu > 0;
  type = "ResourceInUseException";
  ok = false;
  /* One kind of change per UpdateTable (ops/update_table.c check_sole_members). */
  if (od && (units || warm)) {
    type = "ValidationException";
    snprintf(err, sizeof(err),
             "One or more parameter values were invalid: OnDemandThroughput can only be combined "
             "with BillingMode in an UpdateTable request");
  } else if (warm && (units || a->on_demand >= 0)) {
    type = "ValidationException";
    snprintf(err, sizeof(err),
             "One or more parameter values were invalid: WarmThroughput must be the only operation "
             "in the request");
  } else if ((cause & SL_UPDATE_IOPS) && (iops || (od && !(cause & SL_UPDATE_BILLING))))
    snprintf(err, sizeof(err),
             "Attempt to change a resource which is still in use: Table IOPS are currently "
             "being updated. Table: %.*s",
             sname_len, sname);
  else if ((cause & SL_UPDATE_BILLING) && od)
    snprintf(err, sizeof(err),
             "Attempt to change a resource which is still in use: OnDemandThroughput cannot be "
             "updated while BillingMode update is in progress");
  /* A second change of a GSI while its own is UPDATING it (ops/indexes.c
   * apply_update). */
  else if (r->is_index && r->updating_until_ms > now_ms)
    snprintf(err, sizeof(err),
             "Attempt to change a resource which is still in use: Index is being updated. "
             "Table: %.*s Index: %.*s",
             sname_len, sname, (int)r->name.len, r->name.p);
  else if ((ok = cp_commit(m, a->table, next, touched, now_ms, &type, err, sizeof(err))))
    m->updating_cause[a->table] |=
        (uint8_t)((iops ? SL_UPDATE_IOPS : 0) | (switching ? SL_UPDATE_BILLING : 0));
  snprintf(msg, sizeof(msg), "%s: %s", type, err);
  cp_add(m, a->at_us, ri, -1, ok, 0, 0, what, ok ? NULL : msg);
  free(next);
  free(touched);
}

/* Auto scaling: the policies of resource 'ri', direction 'dir', evaluated on
 * the datapoint of clock minute 'minute' at the instant it became visible
 * and combined (ops/autoscaling.c's evaluate). */
static void scaling_eval(sl_sim *m, const sl_scaling_params *sp, uint32_t ri, int dir,
                         int64_t minute, int64_t at_ms) {
  res_state *r = &m->res[ri];
  const sl_sim_scaling *sc = scaling_of(m, r, dir);
  /* as ops/autoscaling.c's evaluate: nothing while the table is UPDATING */
  if (!sc->on || r->tp.billing != SL_BILLING_PROVISIONED || minute < m->first_minute ||
      m->updating_until_ms[r->table] > at_ms)
    return;
  enum { MAX_WINDOW = 240 };
  double dp[MAX_WINDOW];
  uint32_t n = sl_scaling_window(sp);
  if (n > MAX_WINDOW)
    n = MAX_WINDOW;
  if ((uint64_t)(minute - m->first_minute + 1) < n)
    n = (uint32_t)(minute - m->first_minute + 1);
  for (uint32_t i = 0; i < n; i++) {
    int64_t mi = minute - (int64_t)(n - 1 - i) - m->first_minute;
    dp[i] = mi >= 0 && mi < m->n_minutes ? r->minute_units[dir][mi] : 0;
  }
  int64_t units = dir ? r->tp.wcu : r->tp.rcu;
  sl_scaling_state st = {.provisioned = units,
                         .units = dp,
                         .n = n,
                         .now_ms = at_ms,
                         .last_out_ms = r->last_out_ms[dir],
                         .last_in_ms = r->last_in_ms[dir]};
  /* Several policies: cap/scaling.h sl_scaling_combine, as ops/autoscaling.c
   * combines them. */
  sl_scaling_policy pols[SL_SIM_MAX_POLICIES];
  sl_scaling_decision ds[SL_SIM_MAX_POLICIES];
  for (uint32_t k = 0; k < sc->n_policies; k++) {
    const sl_sim_policy *sp_k = &sc->policies[k];
    pols[k] = (sl_scaling_policy){.target_pct = sp_k->target_pct,
                                  .scale_out_cooldown_ms = sp_k->scale_out_cooldown_ms,
                                  .scale_in_cooldown_ms = sp_k->scale_in_cooldown_ms,
                                  .disable_scale_in = sp_k->disable_scale_in,
                                  .min = r->bound_min[dir],
                                  .max = r->bound_max[dir]};
    ds[k] = sl_scaling_evaluate(sp, &pols[k], &st);
  }
  uint32_t by;
  sl_scaling_decision d = sl_scaling_combine(ds, pols, sc->n_policies, &by);
  if (d.kind == SL_SCALING_HOLD)
    return;
  bool up = d.kind == SL_SCALING_OUT;
  sl_throughput *next = xcalloc(m->n_res, sizeof(*next));
  bool *touched = xcalloc(m->n_res, sizeof(*touched));
  next[ri] = r->tp;
  if (dir)
    next[ri].wcu = d.capacity;
  else
    next[ri].rcu = d.capacity;
  touched[ri] = true;
  char what[160], err[1200], msg[1400];
  snprintf(what, sizeof(what), "Setting %s capacity units to %lld.", dir ? "write" : "read",
           (long long)d.capacity);
  m->clock.manual_us = at_ms * 1000;
  const char *type;
  bool ok = cp_commit(m, r->table, next, touched, at_ms, &type, err, sizeof(err));
  /* the activity's status message, as DescribeScalingActivities gives it */
  if (ok)
    snprintf(msg, sizeof(msg), "%s", what);
  else
    snprintf(msg, sizeof(msg), "Failed to set %s capacity units to %lld. Reason: %s",
             dir ? "write" : "read", (long long)d.capacity, err);
  cp_add(m, at_ms * 1000 - m->t0, ri, dir, ok, units, d.capacity, what, ok ? NULL : msg);
  if (ok && up) {
    r->last_out_ms[dir] = at_ms;
    r->scale_outs[dir]++;
  } else if (ok) {
    r->last_in_ms[dir] = at_ms;
    r->scale_ins[dir]++;
  } else if (!up) {
    r->scale_ins_refused[dir]++;
  }
  free(next);
  free(touched);
}

/* Scheduled actions due by 'until_ms', in time order: each sets the
 * target's bounds and brings the units within them, as the server's
 * (ops/autoscaling.c fire_scheduled). */
static void sched_until(sl_sim *m, int64_t until_ms) {
  for (;;) {
    int64_t best = INT64_MAX;
    uint32_t bi = 0, bk = 0;
    int bd = 0;
    for (uint32_t i = 0; i < m->n_res; i++)
      for (int d = 0; d < 2; d++) {
        const sl_sim_scaling *sc = scaling_of(m, &m->res[i], d);
        for (uint32_t k = 0; sc->on && k < sc->n_scheduled; k++)
          if (m->res[i].sched_next[d][k] < best)
            best = m->res[i].sched_next[d][k], bi = i, bd = d, bk = k;
      }
    if (best > until_ms || best * 1000 >= m->end)
      return;
    status_ready(m, best);
    res_state *r = &m->res[bi];
    const sl_sim_scheduled *a = &scaling_of(m, r, bd)->scheduled[bk];
    r->sched_next[bd][bk] = sched_next(a, m->s->start_ms, best + 1);
    if (a->has_min)
      r->bound_min[bd] = a->min;
    if (a->has_max)
      r->bound_max[bd] = a->max;
    if (r->bound_min[bd] > r->bound_max[bd]) {
      if (a->has_min)
        r->bound_max[bd] = r->bound_min[bd];
      else
        r->bound_min[bd] = r->bound_max[bd];
    }
    int64_t units = bd ? r->tp.wcu : r->tp.rcu;
    int64_t to = units < r->bound_min[bd]   ? r->bound_min[bd]
                 : units > r->bound_max[bd] ? r->bound_max[bd]
                                            : units;
    /* as ops/autoscaling.c's enforce_bounds: nothing while the table is
     * UPDATING */
    if (to == units || r->tp.billing != SL_BILLING_PROVISIONED ||
        m->updating_until_ms[r->table] > best)
      continue;
    sl_throughput *next = xcalloc(m->n_res, sizeof(*next));
    bool *touched = xcalloc(m->n_res, sizeof(*touched));
    next[bi] = r->tp;
    *(bd ? &next[bi].wcu : &next[bi].rcu) = to;
    touched[bi] = true;
    char what[160], err[1200], msg[1400];
    snprintf(what, sizeof(what), "Setting %s capacity units to %lld.", bd ? "write" : "read",
             (long long)to);
    m->clock.manual_us = best * 1000;
    const char *type;
    bool ok = cp_commit(m, r->table, next, touched, best, &type, err, sizeof(err));
    if (!ok)
      snprintf(msg, sizeof(msg), "Failed to set %s capacity units to %lld. Reason: %s",
               bd ? "write" : "read", (long long)to, err);
    cp_add(m, best * 1000 - m->t0, bi, bd, ok, units, to, what, ok ? NULL : msg);
    free(next);
    free(touched);
  }
}

/* Every datapoint that has become visible by 't' (epoch µs), in order. */
static void scaling_tick(sl_sim *m, int64_t t) {
  if (!m->any_scaling)
    return;
  sl_scaling_params sp = {.out_datapoints = m->params.scaling_out_datapoints,
                          .in_datapoints = m->params.scaling_in_datapoints,
                          .in_margin_pct = m->params.scaling_in_margin_pct,
                          .metric_delay_ms = m->params.scaling_metric_delay_ms};
  for (;;) {
    int64_t minute = m->next_eval_minute;
    int64_t at_ms = (minute + 1) * 60000 + sp.metric_delay_ms;
    if (at_ms * 1000 > t || at_ms * 1000 >= m->end) {
      sched_until(m, t / 1000);
      return;
    }
    sched_until(m, at_ms);
    /* a change made earlier in this catch-up has taken effect by now, as
     * ops/autoscaling.c's tick advances the tables */
    status_ready(m, at_ms);
    m->next_eval_minute++;
    for (uint32_t i = 0; i < m->n_res; i++)
      for (int d = 0; d < 2; d++)
        scaling_eval(m, &sp, i, d, minute, at_ms);
  }
}

/* Actions and auto-scaling evaluations due by 't' (epoch µs), in time
 * order (an action first at the same instant). */
static void cp_until(sl_sim *m, int64_t t) {
  const sl_scenario *s = m->s;
  for (;;) {
    int64_t ta =
        m->next_action < s->n_actions ? m->t0 + s->actions[m->next_action].at_us : INT64_MAX;
    int64_t nw = m->next_warm_ms < m->next_status_ms ? m->next_warm_ms : m->next_status_ms;
    int64_t tw = nw < INT64_MAX / 1000 ? nw * 1000 : INT64_MAX;
    if (tw <= t && tw <= ta) {
      scaling_tick(m, tw);
      status_ready(m, tw / 1000);
      warm_ready(m, tw / 1000);
      continue;
    }
    if (ta <= t) {
      scaling_tick(m, ta - 1);
      apply_action(m, &s->actions[m->next_action++]);
      continue;
    }
    scaling_tick(m, t);
    return;
  }
}

static void run_aggregate(sl_sim *m);

void sl_sim_run(sl_sim *m) {
  struct timespec a, b, ca, cb;
  clock_gettime(CLOCK_MONOTONIC, &a);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
  const sl_scenario *s = m->s;
  for (; !s->aggregate;) {
    /* The earliest of: a workload's arrival, a retry. */
    int64_t t = INT64_MAX;
    int wi = -1;
    for (uint32_t i = 0; i < s->n_workloads; i++)
      if (m->wl[i].next_t < t) {
        t = m->wl[i].next_t;
        wi = (int)i;
      }
    bool retry = m->n_heap && m->heap[0].t <= t;
    if (retry)
      t = m->heap[0].t;
    /* an adaptive client's send that waited for its token */
    int qi = -1;
    for (uint32_t i = 0; i < s->n_workloads; i++) {
      int64_t tq = ad_release_t(&m->wl[i]);
      if (tq < t) {
        t = tq;
        qi = (int)i;
      }
    }
    if (t >= m->end)
      break;
    while (m->next_sample < m->n_steps && m->t0 + (int64_t)(m->next_sample + 1) * s->step_us <= t) {
      int64_t ts = m->t0 + (int64_t)(m->next_sample + 1) * s->step_us;
      cp_until(m, ts);
      m->clock.manual_us = ts;
      sample(m, m->next_sample++);
    }
    cp_until(m, t);
    ev e;
    if (qi >= 0) {
      e = ad_release(&m->wl[qi], t);
    } else if (retry) {
      e = heap_pop(m);
    } else {
      wl_state *w = &m->wl[wi];
      memset(&e, 0, sizeof(e));
      e.t = t;
      e.first_t = t;
      e.wl = (uint32_t)wi;
      e.req_seed = splitmix(s->seed ^ ((uint64_t)wi << 56) ^ w->seq);
      const sl_sim_workload *wl = w->w;
      bool multi = wl->op == SL_OP_BATCH_GET || wl->op == SL_OP_BATCH_WRITE ||
                   wl->op == SL_OP_TRANSACT_GET || wl->op == SL_OP_TRANSACT_WRITE;
      uint32_t items = multi ? wl->items : 1;
      e.item_base = wl->op == SL_OP_SCAN ? w->scan_page++ : w->item_seq;
      w->item_seq += items;
      for (uint32_t j = 0; j < items; j++)
        e.pending[j / 64] |= 1ull << (j % 64);
      w->seq++;
      w->requests++;
      w->s_requests[step_of(m, t)]++;
      w->in_phase++;
      wl_schedule(m, w);
    }
    attempt(m, &e);
  }
  if (s->aggregate)
    run_aggregate(m);
  for (size_t i = 0; i < m->n_heap; i++)
    m->wl[m->heap[i].wl].in_flight_end++;
  for (uint32_t i = 0; i < s->n_workloads; i++)
    m->wl[i].in_flight_end += m->wl[i].ad_q_n;
  while (m->next_sample < m->n_steps) {
    int64_t ts = m->t0 + (int64_t)(m->next_sample + 1) * s->step_us;
    if (ts > m->end)
      ts = m->end;
    cp_until(m, ts);
    m->clock.manual_us = ts;
    sample(m, m->next_sample++);
  }
  while (m->next_action < s->n_actions && s->actions[m->next_action].at_us < s->duration_us)
    apply_action(m, &s->actions[m->next_action++]);
  clock_gettime(CLOCK_MONOTONIC, &b);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
  m->wall_s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
  m->cpu_s = (double)(cb.tv_sec - ca.tv_sec) + (double)(cb.tv_nsec - ca.tv_nsec) / 1e9;
}

/* ---- the aggregate mode ----
 *
 * Requests are counted per partition and per aggregate step instead of
 * admitted one by one (the scale of a 1,000,000-WCU table): each step, a
 * workload's arrivals are shared among the resource's partitions by the
 * probability mass of its keys in each partition's hash range (stochastic
 * rounding from the seed), and each partition's share is admitted in
 * chunks — one sl_cap_admit per chunk, at times spread over the step, its
 * placement a key drawn from the partition's mass (so heat samples and
 * split points follow the keys). A chunk costs at most 90 % of the spike
 * rule's share of a partition burst, so the rule that lets one large
 * request pay from retained capacity does not mistake a chunk for one. A
 * chunk is admitted or throttled whole: the engine's "admit if positive,
 * then debit" takes a chunk where one-by-one admission would stop partway,
 * so accepted counts match over a second and the first throttle is known to
 * a chunk's time. The client's retries and resends are groups of requests
 * in flight (struct sl__sim_group below): a throttled share is retried over
 * its backoff's jitter window on its partition's hash range; batches split
 * into failed calls and UnprocessedItems by the share of items throttled;
 * transactions are chunks built item by item, all or nothing.
 * docs/simulate.md reports how far it departs from the per-request mode on
 * the seed scenarios and on retries, batches and transactions.
 */

struct sl__sim_mass {
  uint64_t hash;
  uint64_t idx;
  double cum; /* mass of this key and every key before it in hash order */
};

#define MASS_MAX_KEYS 10000000

static int mass_cmp(const void *a, const void *b) {
  const struct sl__sim_mass *x = a, *y = b;
  return x->hash < y->hash ? -1 : x->hash > y->hash ? 1 : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The probability of key index 'i' under 'k'. */
static double key_prob(const sl_sim_keys *k, uint64_t i, double zipf_norm) {
  switch (k->kind) {
  case SL_KEYS_ZIPF:
    return pow((double)(i + 1), -k->exponent) / zipf_norm;
  case SL_KEYS_HOT:
    return i < k->hot_keys ? k->hot_share / k->hot_keys : (1 - k->hot_share) / (double)k->count;
  case SL_KEYS_NAMED:
    return k->weights[i] - (i ? k->weights[i - 1] : 0);
  default:
    return 1 / (double)k->count;
  }
}

static void mass_build(const sl_sim *m, wl_state *w) {
  const sl_sim_workload *wl = w->w;
  /* a Query of a GSI reads where the index's keys are; a Scan reads the
   * hash space in order, evenly */
  const sl_sim_keys *k = wl->index >= 0 ? &m->s->tables[wl->table].gsis[wl->index].keys : &wl->keys;
  uint64_t n = sl__sim_keys_space(k);
  if (k->kind == SL_KEYS_SEQUENTIAL || n > MASS_MAX_KEYS || wl->op == SL_OP_SCAN)
    return; /* evenly over the hash space */
  w->mass = xcalloc(n, sizeof(*w->mass));
  w->n_mass = n;
  double norm = 0;
  if (k->kind == SL_KEYS_ZIPF)
    for (uint64_t i = 0; i < n; i++)
      norm += pow((double)(i + 1), -k->exponent);
  for (uint64_t i = 0; i < n; i++) {
    w->mass[i].hash = sl__sim_key_hash(k, i);
    w->mass[i].idx = i;
    w->mass[i].cum = key_prob(k, i, norm);
  }
  qsort(w->mass, n, sizeof(*w->mass), mass_cmp);
  for (uint64_t i = 1; i < n; i++)
    w->mass[i].cum += w->mass[i - 1].cum;
}

/* The mass of the keys whose hash is below 'h' (h == 0 with 'end': all). */
static double mass_below(const wl_state *w, uint64_t h, bool end) {
  if (!w->mass)
    return end ? 1 : ldexp((double)h, -64);
  if (end)
    return w->mass[w->n_mass - 1].cum;
  uint64_t lo = 0, hi = w->n_mass;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (w->mass[mid].hash < h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? w->mass[lo - 1].cum : 0;
}

/* A key drawn from the mass between 'a' and 'b': its hash, and its index
 * (UINT64_MAX when keys are not enumerated). */
static uint64_t mass_draw(const wl_state *w, rng *r, double a, double b, uint64_t lo_hash,
                          uint64_t hi_hash, uint64_t *idx) {
  *idx = UINT64_MAX;
  if (!w->mass) {
    uint64_t span = hi_hash - lo_hash; /* hi_hash 0: the end of the space */
    return lo_hash + (span ? rng_next(r) % span : rng_next(r));
  }
  double u = a + rng_unit(r) * (b - a);
  uint64_t lo = 0, hi = w->n_mass - 1;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (w->mass[mid].cum <= u)
      lo = mid + 1;
    else
      hi = mid;
  }
  *idx = w->mass[lo].idx;
  return w->mass[lo].hash;
}

/* The offered rate of a workload at 't' (requests per second). */
static double rate_at(const sl_sim *m, const wl_state *w, int64_t t) {
  int64_t start = m->t0;
  for (uint32_t i = 0; i < w->w->n_phases; i++) {
    const sl_sim_phase *p = &w->w->phases[i];
    if (t < start + p->duration_us) {
      double x = (double)(t - start) / (double)p->duration_us;
      return p->rate_from + (p->rate_to - p->rate_from) * x;
    }
    start += p->duration_us;
  }
  return 0;
}

/* The mean cost of one request of 'w' on its resource and of its entry on
 * each GSI: exact for fixed sizes, else the mean over 4,096 draws of the
 * size distribution (the 1 KB and 4 KB steps make it no function of the
 * mean size). */
static void agg_costs(const sl_sim *m, wl_state *w) {
  const sl_sim_workload *wl = w->w;
  const sl_sim_table *t = &m->s->tables[wl->table];
  bool fixed = wl->item.min == wl->item.max;
  for (uint32_t g = 0; g < t->n_gsis; g++)
    fixed = fixed && (!t->gsis[g].entry.max || t->gsis[g].entry.min == t->gsis[g].entry.max);
  uint32_t draws = fixed ? 1 : 4096;
  rng r;
  rng_seed(&r, m->s->seed ^ 0xA66E6A7Eull);
  double sum = 0, gsum[SL_SIM_MAX_GSIS] = {0};
  for (uint32_t i = 0; i < draws; i++) {
    uint32_t bytes = item_bytes(&wl->item, &r);
    sum += (double)table_mu(m, wl, bytes, false);
    for (uint32_t g = 0; g < t->n_gsis && sl_sim_op_writes((sl_sim_op)wl->op); g++) {
      const sl_sim_gsi *x = &t->gsis[g];
      uint32_t eb = x->entry.max ? item_bytes(&x->entry, &r) : bytes;
      gsum[g] += (double)gsi_mu(wl, x, eb, false);
    }
  }
  w->agg_mu = sum / draws;
  for (uint32_t g = 0; g < t->n_gsis; g++)
    w->agg_gsi_mu[g] = gsum[g] / draws;
}

/* Requests in flight in the aggregate mode: a group of requests that share
 * their attempt number, resends, retry-quota tokens held and the hash range
 * their keys lie in (a throttled share keeps its partition's range, so its
 * retries return to the keys that were throttled, as one request's retries
 * do), due uniformly over [t_a, t_b] (the jitter window of its backoff;
 * t_a == t_b: at that instant). A transaction group is one chunk of
 * transactions, which keeps its request seed and so its keys. */
struct sl__sim_group {
  int64_t t_a, t_b; /* epoch µs */
  uint32_t attempt; /* attempts made */
  uint32_t resends;
  bool held;       /* retry quota held: a success refunds 5 */
  bool waited;     /* adaptive: sends that waited for tokens, kept apart in their line */
  uint64_t lo, hi; /* hash range, hi exclusive (0: 2^64) */
  uint64_t reqs, items;
  double first_sum;    /* Σ of the requests' first send times (µs since the start) */
  uint64_t seed, base; /* transactions: the chunk's request seed and first item number */
};
typedef struct sl__sim_group agg_group;

struct sl__sim_share {
  uint32_t group;
  size_t part;
  uint64_t lo, hi;
  double ma, mb;
  uint64_t count, accepted, throttled;
  uint64_t per_chunk;
  uint32_t chunks, chunk;
  uint8_t out; /* the outcome of its throttles */
};
typedef struct sl__sim_share agg_share;

/* Stochastic rounding from the workload's jitter. */
static uint64_t sround(rng *r, double x) { return x <= 0 ? 0 : (uint64_t)floor(x + rng_unit(r)); }

static uint64_t hi_min(uint64_t a, uint64_t b) { return !a ? b : !b ? a : a < b ? a : b; }

static void pend_push(wl_state *w, const agg_group *g) {
  if (w->n_pend == w->pend_cap) {
    w->pend_cap = w->pend_cap ? 2 * w->pend_cap : 64;
    w->pend = realloc(w->pend, w->pend_cap * sizeof(*w->pend));
    if (!w->pend)
      abort();
  }
  w->pend[w->n_pend++] = *g;
}

static bool quota_mode(const sl_sim_client *c) {
  return c->retry == SL_RETRY_STANDARD || c->retry == SL_RETRY_ADAPTIVE ||
         c->retry == SL_RETRY_2026;
}

/* The window of retry number 'n' (1: the first), as retry_delay draws it
 * (µs after the failed attempt). */
static void retry_window(const wl_state *w, uint32_t n, int64_t *lo, int64_t *hi) {
  const sl_sim_client *c = &w->w->client;
  double e = ldexp(1, (int)(n - 1 < 30 ? n - 1 : 30));
  switch ((sl_sim_retry)c->retry) {
  case SL_RETRY_LEGACY:
    *lo = *hi = (int64_t)(0.05 * e * 1e6) + 1;
    return;
  case SL_RETRY_STANDARD:
  case SL_RETRY_ADAPTIVE:
  case SL_RETRY_2026:
    *lo = 1;
    *hi = (int64_t)((e < 20 ? e : 20) * 1e6) + 1;
    return;
  case SL_RETRY_IMMEDIATE:
    *lo = *hi = (int64_t)c->delay_ms * 1000;
    return;
  case SL_RETRY_NONE:
  default:
    *lo = *hi = 0;
  }
}

/* 'n' requests finished at 't', their mean first send at 'first_us' (µs
 * since the start); as finish() does for one. */
static void finish_n(sl_sim *m, wl_state *w, int64_t t, uint64_t n, bool ok, double first_us,
                     bool held) {
  if (!n)
    return;
  size_t s = step_of(m, t);
  if (ok) {
    w->succeeded += n;
    w->s_succeeded[s] += (uint32_t)n;
  } else {
    w->failed += n;
    w->s_failed[s] += (uint32_t)n;
  }
  double lat = (double)(t - m->t0) - first_us;
  if (lat < 0)
    lat = 0;
  double ms = lat / 1000;
  w->lat_sum_ms += ms * (double)n;
  if ((int64_t)lat > w->lat_max_us)
    w->lat_max_us = (int64_t)lat;
  size_t b = ms < 100 ? (size_t)ms : 100 + (size_t)((ms - 100) / 100);
  w->lat_hist[b < LAT_BUCKETS ? b : LAT_BUCKETS - 1] += n;
  if (ok && quota_mode(&w->w->client)) {
    w->quota += (int64_t)n * (held ? 5 : 1);
    if (w->quota > 500)
      w->quota = 500;
  }
}

/* The adaptive client's responses: 'ok' successes and 'thr' throttles at
 * 'now' (each throttle lowers the rate, as one response at a time does). */
static void ad_responses(wl_state *w, double now, uint64_t ok, uint64_t thr) {
  if (w->w->client.retry != SL_RETRY_ADAPTIVE || !(ok + thr))
    return;
  /* The measured rate counts every response (ad_response records one a
   * call). The rate drops once a step, at its first throttle: a
   * per-request client's rate drops at the first throttle and it sends the
   * rest of the step slower, so it sees few more (each further throttle
   * would cut the rate by 0.7 again: 64 of them, to the floor). */
  uint64_t cut = thr && w->cubic_last_fail != now ? 1 : 0;
  uint64_t calls = (ok ? 1 : 0) + cut;
  w->ad_count += ok + thr - calls;
  if (ok)
    ad_response(w, now, false);
  if (cut)
    ad_response(w, now, true);
}

/* The part of 'g' due before 't1' (its window's share that ends by then),
 * taken out of 'g' into 'out'. */
static bool pend_take(wl_state *w, agg_group *g, int64_t t, int64_t t1, agg_group *out) {
  if (g->t_a >= t1)
    return false;
  int64_t from = g->t_a > t ? g->t_a : t;
  uint64_t n = g->reqs;
  if (g->t_b >= t1 && g->t_b > from)
    n = sround(&w->jitter, (double)g->reqs * (double)(t1 - from) / (double)(g->t_b - from));
  if (n > g->reqs)
    n = g->reqs;
  *out = *g;
  out->reqs = n;
  out->items =
      n == g->reqs ? g->items : (uint64_t)llround((double)g->items * (double)n / (double)g->reqs);
  if (n && out->items < n)
    out->items = n;
  out->first_sum = g->first_sum * (double)n / (double)g->reqs;
  g->reqs -= n;
  g->items -= out->items;
  g->first_sum -= out->first_sum;
  g->t_a = from > t1 ? from : t1;
  return n > 0;
}

static bool group_same(const agg_group *a, const agg_group *b) {
  return a->attempt == b->attempt && a->resends == b->resends && a->held == b->held &&
         a->lo == b->lo && a->hi == b->hi && !a->waited && !b->waited;
}

/* A client whose retries come after a fixed delay (legacy's 50 ms, an
 * application loop's delay_ms): in the per-request mode they fall on the
 * arrivals' grid (agg_step_items). */
static bool agg_grid(const sl_sim_client *c) {
  return c->retry == SL_RETRY_IMMEDIATE || c->retry == SL_RETRY_LEGACY;
}

/* The sends of 'w' due in [t, t1): its retries and resends due then, then
 * its new arrivals; with the adaptive client's limiter on, only as many as
 * it has tokens for (the rest wait for the next step). */
static size_t agg_due(sl_sim *m, wl_state *w, int64_t t, int64_t t1, uint64_t fresh,
                      uint32_t per_req, bool txn) {
  m->n_send = 0;
  for (size_t i = 0; i < w->n_pend; i++) {
    agg_group *g = &w->pend[i], part;
    if (!pend_take(w, g, t, t1, &part))
      goto next;
    size_t j = txn ? m->n_send : 0; /* a transaction chunk keeps its keys */
    for (; j < m->n_send; j++)
      if (group_same(&m->send[j], &part))
        break;
    if (j < m->n_send) {
      m->send[j].reqs += part.reqs;
      m->send[j].items += part.items;
      m->send[j].first_sum += part.first_sum;
    } else {
      if (m->n_send == m->send_cap) {
        m->send_cap = m->send_cap ? 2 * m->send_cap : 64;
        m->send = realloc(m->send, m->send_cap * sizeof(*m->send));
        if (!m->send)
          abort();
      }
      m->send[m->n_send++] = part;
    }
  next:
    if (!g->reqs)
      w->pend[i--] = w->pend[--w->n_pend];
  }
  if (fresh) {
    if (m->n_send == m->send_cap) {
      m->send_cap = m->send_cap ? 2 * m->send_cap : 64;
      m->send = realloc(m->send, m->send_cap * sizeof(*m->send));
      if (!m->send)
        abort();
    }
    m->send[m->n_send++] = (agg_group){.reqs = fresh,
                                       .items = fresh * per_req,
                                       .first_sum = (double)fresh * (double)((t + t1) / 2 - m->t0)};
  }
  if (w->w->client.retry == SL_RETRY_ADAPTIVE && w->ad_enabled) {
    /* the tokens earned by the step's start (responses come later in the
     * step, so the bucket's clock never goes back) */
    ad_refill(w, (double)t / SEC);
    double tokens = w->ad_tokens > 0 ? floor(w->ad_tokens) : 0;
    /* first come, first served: the sends that have waited longest first,
     * as botocore's bucket serves its line (the new arrivals last) */
    for (size_t i = 1; i < m->n_send; i++) {
      agg_group g = m->send[i];
      double fg = g.reqs ? g.first_sum / (double)g.reqs : 0;
      size_t j = i;
      for (; j > 0 && (m->send[j - 1].reqs ? m->send[j - 1].first_sum / (double)m->send[j - 1].reqs
                                           : 0) > fg;
           j--)
        m->send[j] = m->send[j - 1];
      m->send[j] = g;
    }
    for (size_t i = 0; i < m->n_send; i++) {
      agg_group *g = &m->send[i];
      uint64_t n = (double)g->reqs <= tokens ? g->reqs : (uint64_t)tokens;
      if (txn && n < g->reqs)
        n = 0; /* a transaction chunk waits whole */
      tokens -= (double)n;
      w->ad_tokens -= (double)n;
      if (n == g->reqs)
        continue;
      agg_group wait = *g;
      wait.reqs = g->reqs - n;
      wait.items = txn ? g->items
                       : (uint64_t)llround((double)g->items * (double)wait.reqs / (double)g->reqs);
      wait.first_sum = g->first_sum * (double)wait.reqs / (double)g->reqs;
      wait.t_a = wait.t_b = t1;
      wait.waited = true;
      pend_push(w, &wait);
      g->reqs = n;
      g->items -= wait.items;
      g->first_sum -= wait.first_sum;
    }
  }
  /* a client retrying after a fixed delay: the oldest first (most attempts
   * made, then most resends; the new arrivals last): of the chunks at one instant the first on a
   * partition takes what its bucket holds, as, in the per-request mode, the send queued first does
   * among those due at the same microsecond */
  for (size_t i = 1; !txn && agg_grid(&w->w->client) && i < m->n_send; i++) {
    agg_group g = m->send[i];
    size_t j = i;
    for (; j > 0 && (m->send[j - 1].attempt < g.attempt ||
                     (m->send[j - 1].attempt == g.attempt && m->send[j - 1].resends < g.resends));
         j--)
      m->send[j] = m->send[j - 1];
    m->send[j] = g;
  }
  /* transactions: in time order (each chunk is admitted at its own time,
   * agg_step_txn), at one microsecond the oldest first, as the per-request
   * mode's heap serves them; the pending array's order would move the
   * clock back and forth */
  for (size_t i = 1; txn && i < m->n_send; i++) {
    agg_group g = m->send[i];
    size_t j = i;
    for (; j > 0 && (m->send[j - 1].t_a > g.t_a ||
                     (m->send[j - 1].t_a == g.t_a && m->send[j - 1].attempt < g.attempt));
         j--)
      m->send[j] = m->send[j - 1];
    m->send[j] = g;
  }
  size_t st = step_of(m, t);
  for (size_t i = 0; i < m->n_send; i++) {
    w->attempts += m->send[i].reqs;
    m->total_attempts += m->send[i].reqs;
    w->s_attempts[st] += (uint32_t)m->send[i].reqs;
  }
  return m->n_send;
}

/* The cost limit of one chunk (milli-units): 90 % of the spike rule's
 * share of a partition burst. */
static double chunk_limit_mu(const sl_sim *m, bool write) {
  const sl_cap_params *p = &m->params;
  double tol = 1 + (double)p->key_range_tolerance_ppm / 1e6;
  double burst = (double)(write ? p->partition_write_rate : p->partition_read_rate) * tol *
                 (double)p->partition_burst_ms / 1000;
  return burst * (double)p->spike_share_ppm / 1e6 * 0.9 * 1000;
}

/* What became of one group of item sends: its requests succeed, fail (and
 * are retried as the policy says) or, for batches, leave UnprocessedItems
 * (resent if the client does). */
static void agg_resolve(sl_sim *m, wl_state *w, const agg_group *g, agg_share *sh, size_t n_sh,
                        int64_t at) {
  const sl_sim_client *cl = &w->w->client;
  size_t st = step_of(m, at);
  double now = (double)at / SEC;
  uint64_t X = 0;
  for (size_t i = 0; i < n_sh; i++)
    X += sh[i].throttled;
  double mean_first = g->reqs ? g->first_sum / (double)g->reqs : 0;
  if (!X) {
    w->outcomes[OUT_OK] += g->reqs;
    ad_responses(w, now, g->reqs, 0);
    finish_n(m, w, at, g->reqs, true, mean_first, g->held);
    return;
  }
  /* Requests whose every item was throttled fail; those with some
   * throttled items succeed with UnprocessedItems. Items of a batch land on
   * independent keys: with a share f of items throttled, f^k of the
   * k-item batches fail whole (exact for one item a request). */
  double f = (double)X / (double)g->items, k = (double)g->items / (double)g->reqs;
  uint64_t F = sround(&w->jitter, (double)g->reqs * pow(f, k));
  if (F > g->reqs)
    F = g->reqs;
  if ((double)F * k > (double)X)
    F = (uint64_t)((double)X / k);
  uint64_t anyt = sround(&w->jitter, (double)g->reqs * (1 - pow(1 - f, k)));
  if (anyt > g->reqs)
    anyt = g->reqs;
  uint64_t P = anyt > F ? anyt - F : 0;
  if (F + P > g->reqs)
    P = g->reqs - F;
  w->outcomes[OUT_OK] += g->reqs;
  w->throttled_attempts += F + P;
  w->s_throttled[st] += (uint32_t)(F + P);
  uint64_t done_ok = g->reqs - F - P;
  /* F and P shared by the throttled shares, in proportion to their items */
  double uf = rng_unit(&w->jitter), up = rng_unit(&w->jitter), cum = 0;
  uint64_t thr_responses = 0;
  for (size_t i = 0; i < n_sh; i++) {
    if (!sh[i].throttled)
      continue;
    double prev = cum;
    cum += (double)sh[i].throttled / (double)X;
    uint64_t Fi = (uint64_t)floor((double)F * cum + uf) - (uint64_t)floor((double)F * prev + uf);
    uint64_t Pi = (uint64_t)floor((double)P * cum + up) - (uint64_t)floor((double)P * prev + up);
    uint64_t itF = (uint64_t)llround((double)Fi * k);
    if (itF > sh[i].throttled || !Pi)
      itF = sh[i].throttled;
    uint64_t itP = sh[i].throttled - itF;
    if (Pi && !itP) {
      done_ok += Pi;
      Pi = 0;
    }
    if (Fi && !itF) {
      done_ok += Fi;
      Fi = 0;
    }
    outcome o = (outcome)sh[i].out;
    w->outcomes[o] += Fi;
    w->outcomes[OUT_OK] -= Fi;
    thr_responses += Fi;
    agg_group ng = *g;
    ng.lo = sh[i].lo;
    ng.hi = sh[i].hi;
    ng.attempt = g->attempt + 1;
    ng.waited = false;
    /* the failed calls: retried as the policy says */
    uint64_t retry = 0;
    if (Fi && ng.attempt < cl->max_attempts && retryable((sl_sim_retry)cl->retry, o)) {
      retry = Fi;
      if (quota_mode(cl)) {
        uint64_t can = w->quota >= 5 ? (uint64_t)(w->quota / 5) : 0;
        retry = retry < can ? retry : can;
        w->quota -= 5 * (int64_t)retry;
        ng.held = ng.held || retry > 0;
      }
    }
    if (retry) {
      int64_t lo, hi;
      retry_window(w, ng.attempt, &lo, &hi);
      ng.t_a = at + lo;
      ng.t_b = at + hi;
      ng.reqs = retry;
      ng.items = (uint64_t)llround((double)itF * (double)retry / (double)Fi);
      if (ng.items < retry)
        ng.items = retry;
      ng.first_sum = mean_first * (double)retry;
      pend_push(w, &ng);
    }
    finish_n(m, w, at, Fi - retry, false, mean_first, g->held);
    /* the UnprocessedItems: resent or given up */
    if (Pi && cl->resend_unprocessed && g->resends < cl->resend_max) {
      agg_group rg = *g;
      rg.lo = sh[i].lo;
      rg.hi = sh[i].hi;
      rg.attempt = g->attempt + 1;
      rg.resends = g->resends + 1;
      rg.waited = false;
      double base = (double)cl->resend_base_ms * 1000 * ldexp(1, (int)rg.resends - 1);
      rg.t_a = at + 1;
      rg.t_b = at + 1 + (int64_t)base;
      rg.reqs = Pi;
      rg.items = itP;
      rg.first_sum = mean_first * (double)Pi;
      w->resends += Pi;
      pend_push(w, &rg);
    } else {
      finish_n(m, w, at, Pi, false, mean_first, g->held);
    }
  }
  ad_responses(w, now, g->reqs - thr_responses, thr_responses);
  finish_n(m, w, at, done_ok, true, mean_first, g->held);
}

/* A chunk's instant in a step: its slot, then the fraction of a slot after
 * it (2^-32), then its share (the shares' order). */
struct sl__sim_slot {
  uint64_t at; /* slot << 32 | fraction */
  uint32_t share;
};

static int slot_cmp(const void *a, const void *b) {
  const struct sl__sim_slot *x = a, *y = b;
  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  return (x->share > y->share) - (x->share < y->share);
}

/* Where a retry of a fixed-delay client falls between two arrivals of the
 * per-request mode's grid ('gap' µs apart): after 'attempts' sends, the sum
 * of the delays since its first (which fell on the grid), modulo the gap,
 * as a fraction of it (0: at an arrival's microsecond). */
static double grid_offset(const sl_sim_client *c, uint32_t attempts, double gap) {
  if (!attempts || !(gap > 0))
    return 0;
  double d = c->retry == SL_RETRY_IMMEDIATE
                 ? (double)attempts * (double)c->delay_ms * 1000
                 : 50000 * (ldexp(1, (int)(attempts < 40 ? attempts : 40)) - 1) + attempts;
  double f = fmod(d, gap) / gap;
  return f < 0 ? 0 : f < 1 ? f : 0;
}

/* Chunk number sh->chunk of a share, admitted at the clock's time: on its
 * partition and, for writes, each GSI's share of its items on a GSI key
 * drawn from the index's keys, admitted together, as one write is (GSI
 * back-pressure). */
static inline void agg_chunk(sl_sim *m, wl_state *w, uint32_t ri, bool write, agg_share *sh) {
  const sl_sim_workload *wl = w->w;
  const sl_sim_table *tb = &m->s->tables[wl->table];
  res_state *r = &m->res[ri];
  uint64_t done = (uint64_t)sh->chunk * sh->per_chunk;
  uint64_t c = sh->count - done < sh->per_chunk ? sh->count - done : sh->per_chunk;
  sh->chunk++;
  uint64_t kidx;
  sl_cap_charge ch[1 + SL_SIM_MAX_GSIS];
  uint32_t ch_res[1 + SL_SIM_MAX_GSIS];
  uint64_t ch_items[1 + SL_SIM_MAX_GSIS];
  size_t nch = 1;
  ch[0] = (sl_cap_charge){.res = r->res, .dir = write ? SL_CAP_WRITE : SL_CAP_READ};
  ch[0].hash = mass_draw(w, &w->jitter, sh->ma, sh->mb, sh->lo, sh->hi, &kidx);
  ch[0].cost_mu = llround(w->agg_mu * (double)c);
  ch_res[0] = ri;
  ch_items[0] = c;
  if (wl->index >= 0)
    kidx = UINT64_MAX; /* the index's keys, not the workload's */
  for (uint32_t g = 0; write && g < tb->n_gsis; g++) {
    const sl_sim_gsi *x = &tb->gsis[g];
    uint64_t cg = c;
    if (x->share < 1)
      cg = (uint64_t)floor((double)c * x->share + rng_unit(&w->jitter));
    if (!cg)
      continue;
    ch[nch] = (sl_cap_charge){
        .res = m->res[m->gsi_res[wl->table][g]].res,
        .dir = SL_CAP_WRITE,
        .hash = sl__sim_key_hash(&x->keys, key_draw(&x->keys, &w->jitter, w->item_seq)),
        .cost_mu = llround(w->agg_gsi_mu[g] * (double)cg)};
    ch_res[nch] = m->gsi_res[wl->table][g];
    ch_items[nch++] = cg;
  }
  w->item_seq += c;
  sl_cap_verdict v;
  bool ok = sl_cap_admit(m->cap, ch, nch, &v);
  size_t s2 = step_of(m, m->clock.manual_us);
  for (size_t q = 0; q < nch; q++) {
    dir_series *dq = &m->res[ch_res[q]].d[ch[q].dir];
    dq->offered_mu[s2] += ch[q].cost_mu;
    dq->total_offered_mu += ch[q].cost_mu;
    if (!ok)
      continue;
    consumed(m, ch_res[q], ch[q].dir, m->clock.manual_us, ch[q].cost_mu);
    dq->accepted_mu[s2] += ch[q].cost_mu;
    dq->total_accepted_mu += ch[q].cost_mu;
    dq->accepted[s2] += (uint32_t)ch_items[q];
    dq->total_accepted += ch_items[q];
  }
  if (kidx != UINT64_MAX && w->key_req && kidx < w->n_keys) {
    w->key_req[kidx] += c;
    if (!ok)
      w->key_thr[kidx] += c;
  }
  if (ok) {
    sh->accepted += c;
    return;
  }
  sh->throttled += c;
  sh->out = (uint8_t)outcome_of(m, &v);
  for (uint32_t q = 0; q < v.n_reasons; q++) {
    dir_series *dd = &res_of_ptr(m, v.reasons[q].res)->d[v.reasons[q].dir];
    dd->throttled[v.reasons[q].limit][s2] += (uint32_t)c;
    dd->total_throttled[v.reasons[q].limit] += c;
    if (dd->first_throttle_us < 0)
      dd->first_throttle_us = m->clock.manual_us - m->t0;
  }
}

/* One aggregate step of a workload of single items, pages or batches. */
static void agg_step_items(sl_sim *m, uint32_t wi, int64_t t, int64_t t1, uint64_t fresh) {
  const sl_scenario *s = m->s;
  wl_state *w = &m->wl[wi];
  const sl_sim_workload *wl = w->w;
  sl_sim_op op = (sl_sim_op)wl->op;
  uint32_t per_req = op == SL_OP_BATCH_GET || op == SL_OP_BATCH_WRITE ? wl->items : 1;
  if (!agg_due(m, w, t, t1, fresh, per_req, false))
    return;
  uint32_t ri = wl->index >= 0 ? m->gsi_res[wl->table][wl->index] : m->table_res[wl->table];
  res_state *r = &m->res[ri];
  bool write = sl_sim_op_writes(op);
  const sl_sim_table *tb = &s->tables[wl->table];
  const sl_cap_params *p = &m->params;
  double tol = 1 + (double)p->key_range_tolerance_ppm / 1e6;
  double unit_mu = w->agg_mu;
  for (uint32_t g = 0; write && g < tb->n_gsis; g++)
    if (w->agg_gsi_mu[g] > unit_mu)
      unit_mu = w->agg_gsi_mu[g];
  uint64_t per_chunk = (uint64_t)(chunk_limit_mu(m, write) / unit_mu);
  /* A GSI partition takes chunks from every table partition: each chunk's
   * entries cost at most 1/16 of what a GSI partition serves in a step, so
   * that a GSI key's throttling follows its rate. */
  for (uint32_t g = 0; write && g < tb->n_gsis; g++) {
    double cap_mu = (double)p->partition_write_rate * tol * (double)(t1 - t) / 1e6 / 16 * 1000;
    if (w->agg_gsi_mu[g] > 0 && (double)per_chunk * w->agg_gsi_mu[g] > cap_mu)
      per_chunk = (uint64_t)(cap_mu / w->agg_gsi_mu[g]);
  }
  if (per_chunk < 1)
    per_chunk = 1;
  bool fine = wl->client.retry != SL_RETRY_NONE || wl->client.resend_unprocessed;
  /* each group's items shared by the partitions over its hash range, by
   * the keys' mass */
  size_t np = sl_cap_res_partitions(r->res);
  size_t need = np * m->n_send;
  if (need > m->shares_cap) {
    m->shares_cap = need;
    m->shares = realloc(m->shares, need * sizeof(agg_share));
    if (!m->shares)
      abort();
  }
  agg_share *shares = m->shares;
  size_t n_sh = 0;
  uint32_t rounds = 0;
  double total = mass_below(w, 0, true);
  for (uint32_t gi = 0; gi < m->n_send; gi++) {
    const agg_group *g = &m->send[gi];
    double ga = mass_below(w, g->lo, false), gb = g->hi ? mass_below(w, g->hi, false) : total;
    /* systematic rounding: share i gets floor(E_i + u) - floor(E_i-1 + u)
     * of the cumulative expectations E, which adds up to the items exactly */
    double u = rng_unit(&w->jitter), prev = u, cum_mass = 0;
    size_t first = n_sh;
    for (size_t i = 0; i < np; i++) {
      sl_cap_partition_info info;
      sl_cap_res_partition(m->cap, r->res, i, &info);
      uint64_t lo = info.lo_hash > g->lo ? info.lo_hash : g->lo;
      uint64_t hi = hi_min(info.hi_hash, g->hi);
      if (hi && lo >= hi)
        continue;
      agg_share *sh = &shares[n_sh++];
      *sh = (agg_share){.group = gi, .part = i, .lo = lo, .hi = hi};
      sh->ma = mass_below(w, lo, false);
      sh->mb = hi ? mass_below(w, hi, false) : total;
      cum_mass += sh->mb - sh->ma;
      double cum = gb > ga ? cum_mass / (gb - ga) : 1;
      if (cum > 1)
        cum = 1;
      cum = cum * (double)g->items + u;
      sh->count = (uint64_t)floor(cum) - (uint64_t)floor(prev);
      prev = cum;
    }
    /* the last share takes what rounding left */
    uint64_t sum = 0;
    for (size_t i = first; i < n_sh; i++)
      sum += shares[i].count;
    if (n_sh > first && sum != g->items) {
      agg_share *last = &shares[n_sh - 1];
      last->count = last->count + g->items >= sum ? last->count + g->items - sum : 0;
    }
    for (size_t i = first; i < n_sh; i++) {
      /* A client that retries or resends reacts to the share of its
       * requests throttled: at least 16 chunks a share, so that a
       * saturated partition throttles a share of them, not all or none. */
      uint64_t pc = per_chunk;
      if (fine && (shares[i].count + 15) / 16 < pc)
        pc = (shares[i].count + 15) / 16;
      shares[i].per_chunk = pc ? pc : 1;
      shares[i].chunks =
          (uint32_t)((shares[i].count + shares[i].per_chunk - 1) / shares[i].per_chunk);
      rounds = shares[i].chunks > rounds ? shares[i].chunks : rounds;
    }
  }
  if (!fine) {
    /* a client that does not react to throttles: each share's chunks in
     * the first rounds, which the engine admits faster */
    for (uint32_t k = 0; k < rounds; k++) {
      m->clock.manual_us = t + (int64_t)((double)(t1 - t) * ((double)k + 0.5) / rounds);
      for (size_t i = 0; i < n_sh; i++)
        if (shares[i].chunk < shares[i].chunks && shares[i].chunk == k)
          agg_chunk(m, w, ri, write, &shares[i]);
    }
  } else {
    /* A client that retries: a share's chunks spread evenly over R
     * instants of the step, so that retries and new requests on one
     * partition interleave in time; chunks at one instant in the shares'
     * order. With jittered backoff, chunk j of C at instant
     * ceil((j + 1) R / C) - 1 of R = the most chunks of a share. A client
     * that retries after a fixed delay (an application loop, legacy) sends
     * its retries on the per-request mode's arrival grid: a retry due at an
     * arrival's microsecond goes before it, the older retry first (the
     * heap's order). So its shares come oldest first (agg_due), R is at
     * least one instant a new arrival, and chunk j at an instant drawn
     * from the j-th C-th of the step, so that which shares meet at an
     * instant is drawn too (evenly spread shares of equal counts would
     * otherwise always meet, or never). */
    bool grid = agg_grid(&wl->client);
    uint64_t R = grid && fresh > rounds ? fresh : rounds;
    if (R > UINT32_MAX)
      R = UINT32_MAX;
    /* the per-request mode's gap between two arrivals */
    double rate = grid ? rate_at(m, w, t + (t1 - t) / 2) : 0;
    double gap = rate > 0 ? 1e6 / rate : 0;
    size_t n_slots = 0;
    for (size_t i = 0; i < n_sh; i++)
      n_slots += shares[i].chunks;
    if (n_slots > m->slots_cap) {
      m->slots_cap = n_slots;
      m->slots = realloc(m->slots, n_slots * sizeof(*m->slots));
      if (!m->slots)
        abort();
    }
    size_t q = 0;
    for (size_t i = 0; i < n_sh; i++) {
      uint64_t c = shares[i].chunks, frac = 0;
      if (grid)
        frac =
            (uint64_t)(ldexp(grid_offset(&wl->client, m->send[shares[i].group].attempt, gap), 32));
      if (frac > UINT32_MAX)
        frac = UINT32_MAX;
      for (uint32_t j = 0; j < shares[i].chunks; j++) {
        uint64_t k;
        if (grid)
          k = (uint64_t)(((double)j + rng_unit(&w->jitter)) * (double)R / (double)c);
        else
          k = ((uint64_t)(j + 1) * R + c - 1) / c - 1;
        m->slots[q++] =
            (struct sl__sim_slot){.at = (k < R ? k : R - 1) << 32 | frac, .share = (uint32_t)i};
      }
    }
    qsort(m->slots, n_slots, sizeof(*m->slots), slot_cmp);
    for (size_t z = 0; z < n_slots; z++) {
      /* a grid client's instants from the slot's start (a retry at its
       * fraction of a slot after the arrival), the others' at mid-slot */
      double k = (double)(m->slots[z].at >> 32) +
                 (grid ? ldexp((double)(m->slots[z].at & 0xffffffffu), -32) : 0.5);
      m->clock.manual_us = t + (int64_t)((double)(t1 - t) * k / (double)R);
      agg_chunk(m, w, ri, write, &shares[m->slots[z].share]);
    }
  }
  /* each group's requests: done, retried or resent */
  int64_t at = t + (t1 - t) / 2;
  for (size_t i = 0, j; i < n_sh; i = j) {
    for (j = i; j < n_sh && shares[j].group == shares[i].group; j++)
      ;
    agg_resolve(m, w, &m->send[shares[i].group], shares + i, j - i, at);
  }
}

/* One aggregate step of a transaction workload: chunks of transactions,
 * each built item by item as the per-request mode builds one (the same
 * keys, GSIs and prices) and admitted all or nothing; a chunk that fails
 * is retried whole (TransactionCanceledException: only by an application
 * loop). */
static void agg_step_txn(sl_sim *m, uint32_t wi, int64_t t, int64_t t1, uint64_t fresh) {
  wl_state *w = &m->wl[wi];
  const sl_sim_workload *wl = w->w;
  const sl_sim_client *cl = &wl->client;
  /* One transaction a chunk (as the per-request mode admits them) up to
   * 1,000 a step; more share a chunk, within its limits. */
  uint32_t k = wl->items;
  uint64_t c = (fresh + 999) / 1000;
  uint64_t lim =
      (uint64_t)(chunk_limit_mu(m, sl_sim_op_writes((sl_sim_op)wl->op)) / (2 * w->agg_mu * k));
  if (lim < c)
    c = lim;
  if (c > MAX_ITEMS / k)
    c = MAX_ITEMS / k;
  if (c < 1)
    c = 1;
  /* new arrivals as chunks, each with its own seed and items */
  uint64_t chunks = (fresh + c - 1) / c;
  for (uint64_t i = 0; i < chunks; i++) {
    uint64_t n = fresh - i * c < c ? fresh - i * c : c;
    int64_t at = t + (int64_t)((double)(t1 - t) * ((double)i + 0.5) / (double)chunks);
    agg_group g = {.t_a = at,
                   .t_b = at,
                   .reqs = n,
                   .items = n * k,
                   .first_sum = (double)n * (double)(at - m->t0),
                   .seed = splitmix(m->s->seed ^ ((uint64_t)wi << 56) ^ w->seq),
                   .base = w->item_seq};
    w->seq++;
    w->item_seq += n * k;
    pend_push(w, &g);
  }
  if (!agg_due(m, w, t, t1, 0, k, true))
    return;
  size_t st = step_of(m, t);
  for (size_t gi = 0; gi < m->n_send; gi++) {
    agg_group g = m->send[gi];
    if (!g.reqs)
      continue;
    int64_t at = g.t_a > t ? g.t_a : t;
    m->clock.manual_us = at;
    ev e = {.req_seed = g.seed, .item_base = g.base};
    size_t n = 0;
    uint64_t keys[MAX_ITEMS];
    for (uint32_t j = 0; j < g.items && j < MAX_ITEMS; j++) {
      bool new_item;
      uint64_t bytes;
      keys[j] = item_charges(m, w, &e, j, &n, true, &new_item, &bytes);
    }
    sl_cap_verdict v;
    bool ok = sl_cap_admit(m->cap, m->charges, n, &v);
    record(m, 0, n, ok, &v, at);
    if (w->key_req)
      for (uint32_t j = 0; j < g.items && j < MAX_ITEMS; j++)
        if (keys[j] < w->n_keys) {
          w->key_req[keys[j]]++;
          w->key_thr[keys[j]] += !ok;
        }
    double mean_first = g.first_sum / (double)g.reqs;
    ad_responses(w, (double)at / SEC, ok ? g.reqs : 0, ok ? 0 : g.reqs);
    if (ok) {
      w->outcomes[OUT_OK] += g.reqs;
      finish_n(m, w, at, g.reqs, true, mean_first, g.held);
      continue;
    }
    w->outcomes[OUT_TXN_CANCELED] += g.reqs;
    w->throttled_attempts += g.reqs;
    w->s_throttled[st] += (uint32_t)g.reqs;
    g.attempt++;
    if (g.attempt < cl->max_attempts && retryable((sl_sim_retry)cl->retry, OUT_TXN_CANCELED)) {
      if (quota_mode(cl)) { /* not reached: the SDKs do not retry it */
        if (w->quota < 5 * (int64_t)g.reqs) {
          finish_n(m, w, at, g.reqs, false, mean_first, g.held);
          continue;
        }
        w->quota -= 5 * (int64_t)g.reqs;
        g.held = true;
      }
      g.t_a = g.t_b = at + retry_delay(w, g.attempt) + (cl->retry == SL_RETRY_IMMEDIATE ? 0 : 1);
      pend_push(w, &g);
      continue;
    }
    finish_n(m, w, at, g.reqs, false, mean_first, g.held);
  }
}

/* A workload's own step within an aggregate step 'dt' (a whole fraction of
 * it): a client whose retries come back sooner than the step (legacy's
 * 50 ms, an application loop's delay_ms) is stepped at its retry delay, so
 * that a retry is sent when it is due rather than at the next step. */
static int64_t agg_sub_step(const sl_sim_workload *wl, int64_t dt) {
  const sl_sim_client *c = &wl->client;
  int64_t d = dt;
  if (c->retry == SL_RETRY_IMMEDIATE)
    d = (int64_t)c->delay_ms * 1000;
  else if (c->retry == SL_RETRY_LEGACY)
    d = 50000;
  if (d < 1000)
    d = 1000;
  if (d >= dt)
    return dt;
  int64_t n = (dt + d - 1) / d;
  return (dt + n - 1) / n;
}

static void run_aggregate(sl_sim *m) {
  const sl_scenario *s = m->s;
  for (uint32_t i = 0; i < s->n_workloads; i++) {
    mass_build(m, &m->wl[i]);
    agg_costs(m, &m->wl[i]);
  }
  int64_t dt = s->aggregate_step_us;
  for (int64_t t = m->t0; t < m->end; t += dt) {
    int64_t t1 = t + dt < m->end ? t + dt : m->end;
    while (m->next_sample < m->n_steps && m->t0 + (int64_t)(m->next_sample + 1) * s->step_us <= t) {
      int64_t ts = m->t0 + (int64_t)(m->next_sample + 1) * s->step_us;
      cp_until(m, ts);
      m->clock.manual_us = ts;
      sample(m, m->next_sample++);
    }
    cp_until(m, t);
    for (uint32_t wi = 0; wi < s->n_workloads; wi++) {
      wl_state *w = &m->wl[wi];
      const sl_sim_workload *wl = w->w;
      int64_t sub = agg_sub_step(wl, dt);
      for (int64_t a = t; a < t1; a += sub) {
        int64_t b = a + sub < t1 ? a + sub : t1;
        w->agg_due += rate_at(m, w, a + (b - a) / 2) * (double)(b - a) / 1e6;
        uint64_t n = (uint64_t)w->agg_due;
        w->agg_due -= (double)n;
        if (n) {
          size_t st = step_of(m, a);
          w->requests += n;
          w->s_requests[st] += (uint32_t)n;
        }
        if (!n && !w->n_pend)
          continue;
        if (wl->op == SL_OP_TRANSACT_GET || wl->op == SL_OP_TRANSACT_WRITE)
          agg_step_txn(m, wi, a, b, n);
        else
          agg_step_items(m, wi, a, b, n);
      }
    }
  }
  for (uint32_t i = 0; i < s->n_workloads; i++)
    for (size_t j = 0; j < m->wl[i].n_pend; j++)
      m->wl[i].in_flight_end += m->wl[i].pend[j].reqs;
}

/* ---- the command ---- */
