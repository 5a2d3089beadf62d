/*
 * The capacity engine: resources, partitions, buckets, admission, splits.
 * The design is in cap.h; the rules and their numbers in
 * ../shared/spec/capacity-model.md (cited as "spec §N" below) and
 * cap/params.def. Every rule is pinned by a scenario in tests/unit/test_cap.c.
 */
#include "cap/cap.h"
#include "base/log.h"
#include "cap/bucket.h"

#include <stdio.h>
#include <stdlib.h>

#define SORT_PREFIX 32
#define PPM 1000000

/* A point of the key space: (partition key hash, encoded sort key prefix). */
typedef struct {
  uint64_t hash;
  uint8_t len;
  uint8_t sort[SORT_PREFIX];
} keypt;

typedef struct {
  keypt start; /* inclusive; the next partition's start is this one's end */
  sl__bucket b[2];
  sl__window win[2]; /* consumption per second, last minute */
  uint64_t bytes;
  uint64_t throttles[2];
  int64_t last_throttle_s[2];
  keypt *samples; /* ring of recent accesses (split points) */
  uint32_t n_samples, next_sample;
} part;

struct sl_cap_res {
  sl_cap *cap;
  sl_cap_res *prev, *next; /* the engine's list of live resources */
  bool is_index, has_lsi;
  sl_str name, arn; /* owned */
  sl_throughput tp;
  sl__bucket table[2];   /* check 3: provisioned rate + burst */
  sl__bucket ceiling[2]; /* check 4: on-demand 2 x previous peak */
  sl__bucket maxod[2];   /* check 1: OnDemandThroughput maximum */
  sl__bucket quota[2];   /* check 2: per-table quota */
  int64_t peak_mu[2];    /* on-demand previous peak, milli-units per second */
  sl__window usage[2];   /* resource consumption per second (previous peak) */
  part *parts;
  size_t n_parts, cap_parts;
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
};

/* ---- names ---- */

static const char *const limit_names[] = {"MaxOnDemandThroughputExceeded", "AccountLimitExceeded",
                                          "ProvisionedThroughputExceeded",
                                          "KeyRangeThroughputExceeded"};

const char *sl_cap_limit_name(sl_cap_limit limit) { return limit_names[limit]; }

const char *sl_cap_reason_name(bool index, sl_cap_dir dir, sl_cap_limit limit) {
  static char names[2][2][4][64];
  char *s = names[index][dir][limit];
  if (!s[0])
    snprintf(s, 64, "%s%s%s", index ? "Index" : "Table", dir == SL_CAP_READ ? "Read" : "Write",
             limit_names[limit]);
  return s;
}

/* ---- parameters ---- */

void sl_cap_params_default(sl_cap_params *p, const char *profile) {
#define X(name, def, unit, doc) p->name = (int64_t)(def);
#include "cap/params.def"
#undef X
  if (profile && strcmp(profile, "unlimited") == 0)
    p->unlimited = 1;
}

static bool parse_value(sl_str v, int64_t *out) {
  char tmp[64];
  if (v.len == 0 || v.len >= sizeof(tmp))
    return false;
  memcpy(tmp, v.p, v.len);
  tmp[v.len] = 0;
  char *end;
  if (tmp[v.len - 1] == '%') {
    /* "3.25%" -> ppm */
    tmp[v.len - 1] = 0;
    double d = strtod(tmp, &end);
    if (*end)
      return false;
    *out = (int64_t)(d * 10000.0 + (d >= 0 ? 0.5 : -0.5));
    return true;
  }
  long long ll = strtoll(tmp, &end, 10);
  if (*end) {
    if (strcmp(tmp, "on") == 0 || strcmp(tmp, "true") == 0)
      ll = 1;
    else if (strcmp(tmp, "off") == 0 || strcmp(tmp, "false") == 0)
      ll = 0;
    else
      return false;
  }
  *out = ll;
  return true;
}

bool sl_cap_params_set(sl_cap_params *p, sl_str name, sl_str value) {
  int64_t v;
  if (!parse_value(value, &v))
    return false;
#define X(n, def, unit, doc)                                                                       \
  if (sl_str_eq_c(name, #n)) {                                                                     \
    p->n = v;                                                                                      \
    return true;                                                                                   \
  }
#include "cap/params.def"
#undef X
  return false;
}

static sl_str trim(sl_str s) {
  while (s.len && (s.p[0] == ' ' || s.p[0] == '\t'))
    s = sl_str_make(s.p + 1, s.len - 1);
  while (s.len && (s.p[s.len - 1] == ' ' || s.p[s.len - 1] == '\t' || s.p[s.len - 1] == '\r' ||
                   s.p[s.len - 1] == '\n'))
    s.len--;
  return s;
}

bool sl_cap_params_load(sl_cap_params *p, const char *path, char *err, size_t err_len) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, err_len, "cannot open %s", path);
    return false;
  }
  char line[512];
  int lineno = 0;
  bool ok = true;
  while (fgets(line, sizeof(line), f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = 0;
    sl_str s = trim(sl_str_c(line));
    if (s.len == 0)
      continue;
    const char *eq = memchr(s.p, '=', s.len);
    if (!eq) {
      snprintf(err, err_len, "%s:%d: expected 'name = value'", path, lineno);
      ok = false;
      break;
    }
    sl_str name = trim(sl_str_make(s.p, (size_t)(eq - s.p)));
    sl_str value = trim(sl_str_make(eq + 1, s.len - (size_t)(eq - s.p) - 1));
    if (!sl_cap_params_set(p, name, value)) {
      snprintf(err, err_len, "%s:%d: unknown parameter or bad value: %.*s", path, lineno,
               (int)s.len, s.p);
      ok = false;
      break;
    }
  }
  fclose(f);
  return ok;
}

void sl_cap_params_describe(const sl_cap_params *p, sl_buf *out) {
#define X(name, def, unit, doc)                                                                    \
  sl_buf_printf(out, "  %-28s %14lld  %-10s %s\n", #name, (long long)p->name, unit, doc);
#include "cap/params.def"
#undef X
}

void sl_cap_params_write_json(const sl_cap_params *p, sl_jw *w) {
  sl_jw_obj_begin(w);
#define X(name, def, unit, doc)                                                                    \
  sl_jw_key_c(w, #name);                                                                           \
  sl_jw_int(w, p->name);
#include "cap/params.def"
#undef X
  sl_jw_obj_end(w);
}

/* ---- engine ---- */

sl_cap *sl_cap_new(const sl_cap_params *p, const sl_clock *clock) {
  sl_cap *c = calloc(1, sizeof(*c));
  if (!c)
    sl_panic("out of memory");
  if (p)
    c->p = *p;
  else
    sl_cap_params_default(&c->p, "aws");
  c->clock = clock;
  int64_t rate = c->p.control_plane_rate * 1000;
  sl__bucket_init(&c->control, rate, rate, rate, sl_clock_now_us(clock));
  return c;
}

bool sl_cap_control_admit(sl_cap *c) {
  if (c->p.unlimited || c->p.control_plane_rate <= 0)
    return true;
  sl__bucket_refill(&c->control, sl_clock_now_us(c->clock));
  if (c->control.level <= 0)
    return false;
  c->control.level -= 1000;
  return true;
}

void sl_cap_free(sl_cap *c) {
  if (!c)
    return;
  while (c->resources)
    sl_cap_res_free(c, c->resources);
  free(c);
}

const sl_cap_params *sl_cap_params_of(const sl_cap *c) { return &c->p; }

bool sl_cap_unlimited(const sl_cap *c) { return c->p.unlimited != 0; }

/* ---- key points ---- */

static void keypt_make(keypt *k, uint64_t hash, sl_str sort) {
  k->hash = hash;
  k->len = (uint8_t)(sort.len < SORT_PREFIX ? sort.len : SORT_PREFIX);
  if (k->len)
    memcpy(k->sort, sort.p, k->len);
}

static int keypt_cmp(const keypt *a, const keypt *b) {
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  size_t n = a->len < b->len ? a->len : b->len;
  int c = n ? memcmp(a->sort, b->sort, n) : 0;
  if (c)
    return c;
  return (a->len > b->len) - (a->len < b->len);
}

static int keypt_qsort_cmp(const void *a, const void *b) { return keypt_cmp(a, b); }

/* The partition holding 'k': the last whose start <= k. */
static size_t part_find(const sl_cap_res *r, const keypt *k) {
  size_t lo = 0, hi = r->n_parts;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (keypt_cmp(&r->parts[mid].start, k) <= 0)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* ---- rates ---- */

static int64_t now_us(const sl_cap *c) { return sl_clock_now_us(c->clock); }

static bool on_demand(const sl_cap_res *r) { return r->tp.billing == SL_BILLING_PAY_PER_REQUEST; }

static int64_t with_tolerance(const sl_cap *c, int64_t mu) {
  return (int64_t)((__int128)mu * (PPM + c->p.key_range_tolerance_ppm) / PPM);
}

static int64_t partition_base(const sl_cap *c, int dir) {
  return (dir == SL_CAP_READ ? c->p.partition_read_rate : c->p.partition_write_rate) * 1000;
}

static int64_t provisioned_mu(const sl_cap_res *r, int dir) {
  return (dir == SL_CAP_READ ? r->tp.rcu : r->tp.wcu) * 1000;
}

/* The shape of a bucket: its rate, its burst (cap) and the unused capacity
 * it retains beyond the burst (spec §4, §5). */
typedef struct {
  int64_t rate, cap, retained_cap;
} shape;

static shape partition_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t full = with_tolerance(c, partition_base(c, dir));
  if (!on_demand(r) && !c->p.adaptive_capacity) {
    /* Legacy equal shares: each partition gets table rate / n, with the
     * table's burst retained per partition (its cap is the retained part). */
    int64_t share = provisioned_mu(r, dir) / (int64_t)(r->n_parts ? r->n_parts : 1);
    int64_t rate = share < full ? share : full;
    return (shape){rate, rate * c->p.burst_seconds, 0};
  }
  return (shape){full, full * c->p.partition_burst_ms / 1000, full * c->p.burst_seconds};
}

static shape ceiling_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t rate = with_tolerance(c, 2 * r->peak_mu[dir]);
  return (shape){rate, rate * c->p.ondemand_ceiling_burst_ms / 1000, rate * c->p.burst_seconds};
}

static void reshape(sl__bucket *b, shape s, int64_t t) {
  sl__bucket_reshape(b, s.rate, s.cap, s.retained_cap, t);
}

/* A new bucket of this shape, full: burst and retained capacity (spec §5: the
 * service lets a new table spend its burst at once). */
static void bucket_new_full(sl__bucket *b, shape s, int64_t t) {
  sl__bucket_init(b, s.rate, s.cap, s.cap, t);
  b->retained = b->retained_cap = s.retained_cap;
}

static void reshape_partitions(sl_cap *c, sl_cap_res *r, int64_t t) {
  for (size_t i = 0; i < r->n_parts; i++)
    for (int d = 0; d < 2; d++)
      reshape(&r->parts[i].b[d], partition_shape(c, r, d), t);
}

static shape table_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t rate = provisioned_mu(r, dir);
  return (shape){rate, rate * c->p.burst_seconds, 0};
}

static shape maxod_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t max = dir == SL_CAP_READ ? r->tp.max_read_ru : r->tp.max_write_ru;
  int64_t rate = max > 0 ? max * 1000 : 0;
  return (shape){rate, rate * c->p.max_ondemand_burst_ms / 1000, 0};
}

static shape quota_shape(const sl_cap *c, int dir) {
  int64_t q = (dir == SL_CAP_READ ? c->p.table_quota_read : c->p.table_quota_write) * 1000;
  return (shape){q, q, 0};
}

static void reshape_table(sl_cap *c, sl_cap_res *r, int64_t t) {
  for (int d = 0; d < 2; d++) {
    reshape(&r->table[d], table_shape(c, r, d), t);
    reshape(&r->ceiling[d], ceiling_shape(c, r, d), t);
    reshape(&r->maxod[d], maxod_shape(c, r, d), t);
    reshape(&r->quota[d], quota_shape(c, d), t);
  }
}

/* A new provisioned table bucket: initial_burst of capacity (spec §5;
 * default: full). */
static void table_bucket_new(sl_cap *c, sl_cap_res *r, int dir, int64_t t) {
  shape s = table_shape(c, r, dir);
  int64_t level = s.rate * c->p.initial_burst_ms / 1000;
  sl__bucket_init(&r->table[dir], s.rate, s.cap, level < s.cap ? level : s.cap, t);
}

/* ---- partitions ---- */

static void part_init(sl_cap *c, sl_cap_res *r, part *p, const keypt *start, int64_t t) {
  memset(p, 0, sizeof(*p));
  p->start = *start;
  int64_t s = t / 1000000;
  for (int d = 0; d < 2; d++) {
    /* A partition starts full, except under legacy equal shares, where its
     * share of a new table's capacity starts like the table: with the
     * initial burst (spec §5). */
    shape sh = partition_shape(c, r, d);
    bucket_new_full(&p->b[d], sh, t);
    if (!on_demand(r) && !c->p.adaptive_capacity) {
      int64_t level = sh.rate * c->p.initial_burst_ms / 1000;
      p->b[d].level = level < sh.cap ? level : sh.cap;
    }
    sl__window_init(&p->win[d], (int32_t)(c->p.peak_window_ms / 1000), s);
    p->last_throttle_s[d] = INT64_MIN / 2;
  }
  uint32_t n = (uint32_t)(c->p.split_sample > 0 ? c->p.split_sample : 1);
  p->samples = calloc(n, sizeof(keypt));
  if (!p->samples)
    sl_panic("out of memory");
}

static void part_free(part *p) { free(p->samples); }

static uint32_t sample_cap(const sl_cap *c) {
  return (uint32_t)(c->p.split_sample > 0 ? c->p.split_sample : 1);
}

static void part_sample(const sl_cap *c, part *p, const keypt *k) {
  uint32_t n = sample_cap(c);
  p->samples[p->next_sample] = *k;
  p->next_sample = (p->next_sample + 1) % n;
  if (p->n_samples < n)
    p->n_samples++;
}

/* The end (exclusive) of partition i's hash range; 0 means 2^64. */
static uint64_t part_end_hash(const sl_cap_res *r, size_t i) {
  return i + 1 < r->n_parts ? r->parts[i + 1].start.hash : 0;
}

/* Inserts a partition starting at 'point' after partition i. 'right_share'
 * (ppm) is the estimated share of i's consumption and bytes above the point. */
static void part_split(sl_cap *c, sl_cap_res *r, size_t i, const keypt *point, int64_t right_share,
                       int64_t t) {
  if (r->n_parts == r->cap_parts) {
    r->cap_parts = r->cap_parts ? r->cap_parts * 2 : 8;
    r->parts = realloc(r->parts, r->cap_parts * sizeof(part));
    if (!r->parts)
      sl_panic("out of memory");
  }
  memmove(&r->parts[i + 2], &r->parts[i + 1], (r->n_parts - i - 1) * sizeof(part));
  r->n_parts++;
  part *left = &r->parts[i], *right = &r->parts[i + 1];
  part_init(c, r, right, point, t);
  for (int d = 0; d < 2; d++) {
    /* Both halves inherit the parent's bucket state; consumption history is
     * divided by the observed share, so heat carries over fairly. */
    right->b[d] = left->b[d];
    right->win[d] = left->win[d];
    right->win[d].sum = 0;
    left->win[d].sum = 0;
    for (int s = 0; s < right->win[d].n; s++) {
      int64_t v = left->win[d].slot[s];
      int64_t rv = (int64_t)((__int128)v * right_share / PPM);
      right->win[d].slot[s] = rv;
      left->win[d].slot[s] = v - rv;
      right->win[d].sum += rv;
      left->win[d].sum += v - rv;
    }
    right->last_throttle_s[d] = left->last_throttle_s[d];
  }
  uint64_t rb = (uint64_t)((__int128)left->bytes * right_share / PPM);
  right->bytes = rb;
  left->bytes -= rb;
  /* Samples go to the side they belong to. */
  keypt *old = left->samples;
  uint32_t n_old = left->n_samples;
  uint32_t n = sample_cap(c);
  left->samples = calloc(n, sizeof(keypt));
  if (!left->samples)
    sl_panic("out of memory");
  left->n_samples = left->next_sample = 0;
  for (uint32_t k = 0; k < n_old; k++)
    part_sample(c, keypt_cmp(&old[k], point) < 0 ? left : right, &old[k]);
  free(old);
  if (!on_demand(r) && !c->p.adaptive_capacity)
    reshape_partitions(c, r, t);
}

/* Splits partition i at the middle of its hash range (size splits and the
 * doubling of provisioned partitions). Returns false if the range is a single
 * hash. */
static bool part_split_mid(sl_cap *c, sl_cap_res *r, size_t i, int64_t t) {
  uint64_t lo = r->parts[i].start.hash;
  uint64_t hi = part_end_hash(r, i);
  uint64_t width = hi ? hi - lo : (uint64_t)0 - lo; /* 2^64 - lo when hi is 2^64 */
  if (hi == 0 && lo == 0)
    width = UINT64_MAX;
  if (width < 2)
    return false;
  keypt mid = {.hash = lo + width / 2, .len = 0};
  part_split(c, r, i, &mid, PPM / 2, t);
  return true;
}

/* Chooses a point that separates distinct recently accessed keys of
 * partition i (spec §4): the median sample, or the first sample above it
 * when the median is the smallest key. A table with LSIs splits only between
 * partition keys. Returns false when every sample is the same key. */
static bool split_point(const sl_cap *c, const sl_cap_res *r, const part *p, keypt *out,
                        int64_t *right_share) {
  uint32_t n = p->n_samples;
  if (n < 2)
    return false;
  keypt tmp[256];
  keypt *s = n <= 256 ? tmp : malloc(n * sizeof(keypt));
  if (!s)
    sl_panic("out of memory");
  for (uint32_t k = 0; k < n; k++) {
    s[k] = p->samples[k];
    if (r->has_lsi)
      s[k].len = 0;
  }
  qsort(s, n, sizeof(keypt), keypt_qsort_cmp);
  bool ok = false;
  uint32_t m = n / 2;
  if (keypt_cmp(&s[0], &s[m]) < 0) {
    *out = s[m];
    ok = true;
  } else {
    for (uint32_t k = m + 1; k < n; k++) {
      if (keypt_cmp(&s[k], &s[m]) > 0) {
        *out = s[k];
        ok = true;
        break;
      }
    }
  }
  if (ok) {
    /* The boundary must lie strictly inside the partition. */
    if (keypt_cmp(out, &p->start) <= 0)
      ok = false;
  }
  if (ok) {
    uint32_t right = 0;
    for (uint32_t k = 0; k < n; k++)
      right += keypt_cmp(&s[k], out) >= 0;
    *right_share = (int64_t)right * PPM / n;
  }
  if (s != tmp)
    free(s);
  (void)c;
  return ok;
}

/* A partition is hot while its consumption over the last minute is at least
 * hot_threshold of its limit, or it is throttling (spec §4). Returns a score
 * (0: not hot) ranking throttling partitions first. */
static int64_t part_heat(const sl_cap *c, part *p, int64_t s) {
  int64_t best = 0;
  for (int d = 0; d < 2; d++) {
    sl__window_advance(&p->win[d], s);
    int64_t limit = p->b[d].rate * p->win[d].n;
    int64_t used_ppm = limit > 0 ? (int64_t)((__int128)p->win[d].sum * PPM / limit) : 0;
    int64_t score = 0;
    if (s - p->last_throttle_s[d] <= 1)
      score = 2 * PPM + used_ppm;
    else if (used_ppm >= c->p.hot_threshold_ppm)
      score = used_ppm;
    if (score > best)
      best = score;
  }
  return best;
}

/* Once per clock second of traffic: track the heat episode and split for
 * heat on the spec's schedule (spec §4). */
static void heat_tick(sl_cap *c, sl_cap_res *r, int64_t t) {
  int64_t s = t / 1000000;
  if (s == r->last_heat_s)
    return;
  r->last_heat_s = s;
  int64_t scores_small[64];
  int64_t *scores = r->n_parts <= 64 ? scores_small : malloc(r->n_parts * sizeof(int64_t));
  if (!scores)
    sl_panic("out of memory");
  bool any = false;
  for (size_t i = 0; i < r->n_parts; i++) {
    scores[i] = part_heat(c, &r->parts[i], s);
    any |= scores[i] > 0;
  }
  if (!any) {
    r->hot_since_us = 0;
    r->last_split_us = 0;
    goto out;
  }
  if (r->hot_since_us == 0)
    r->hot_since_us = t;
  int64_t due = r->last_split_us ? r->last_split_us + c->p.split_interval_ms * 1000
                                 : r->hot_since_us + c->p.split_first_after_ms * 1000;
  if (t < due)
    goto out;
  /* Split the hottest partition that can be split; a partition whose
   * traffic is one key cannot (the seed articles' lesson). */
  for (;;) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < r->n_parts; i++)
      if (scores[i] > 0 && (best == SIZE_MAX || scores[i] > scores[best]))
        best = i;
    if (best == SIZE_MAX)
      break;
    keypt point;
    int64_t share;
    if (split_point(c, r, &r->parts[best], &point, &share)) {
      part_split(c, r, best, &point, share, t);
      r->splits_heat++;
      r->last_split_us = t;
      break;
    }
    scores[best] = 0;
  }
out:
  if (scores != scores_small)
    free(scores);
}

/* Observes the previous peak: the highest 1-minute average consumption
 * (spec §6). Called before each use of the resource's usage window. */
static void peak_tick(sl_cap *c, sl_cap_res *r, int64_t t) {
  int64_t s = t / 1000000;
  for (int d = 0; d < 2; d++) {
    int64_t completed = sl__window_advance(&r->usage[d], s);
    if (completed < 0)
      continue;
    int64_t avg = completed / r->usage[d].n;
    if (avg > r->peak_mu[d]) {
      r->peak_mu[d] = avg;
      reshape(&r->ceiling[d], ceiling_shape(c, r, d), t);
    }
  }
}

/* ---- resources ---- */

int64_t sl_cap_initial_partitions(const sl_cap_params *p, const sl_throughput *tp,
                                  uint64_t stored_bytes) {
  int64_t n = 1;
  int64_t pr = p->partition_read_rate > 0 ? p->partition_read_rate : 1;
  int64_t pw = p->partition_write_rate > 0 ? p->partition_write_rate : 1;
  if (tp->billing == SL_BILLING_PROVISIONED) {
    /* ceil(RCU/3000 + WCU/1000), exactly. */
    int64_t num = tp->rcu * pw + tp->wcu * pr, den = pr * pw;
    n = (num + den - 1) / den;
  } else {
    n = p->ondemand_initial_partitions;
  }
  if (tp->warm_status == SL_STATUS_ACTIVE && (tp->warm_read || tp->warm_write)) {
    int64_t wr = (tp->warm_read + pr - 1) / pr, ww = (tp->warm_write + pw - 1) / pw;
    int64_t w = wr > ww ? wr : ww;
    if (w > n)
      n = w;
  }
  int64_t max_bytes = p->partition_max_bytes > 0 ? p->partition_max_bytes : 1;
  int64_t nb = (int64_t)((stored_bytes + (uint64_t)max_bytes - 1) / (uint64_t)max_bytes);
  if (nb > n)
    n = nb;
  return n < 1 ? 1 : n;
}

/* Brings the resource's partition count up to what its settings require:
 * doubling (each range split in two) as the historical rule says (spec §4). */
static void ensure_partitions(sl_cap *c, sl_cap_res *r, int64_t needed, int64_t t) {
  /* On-demand (warm throughput, spec §6) pre-splits to exactly what is
   * needed: the widest hash range first. */
  while (on_demand(r) && (int64_t)r->n_parts < needed) {
    size_t widest = SIZE_MAX;
    uint64_t best = 0;
    for (size_t i = 0; i < r->n_parts; i++) {
      uint64_t end = part_end_hash(r, i), lo = r->parts[i].start.hash;
      uint64_t width = end ? end - lo : (uint64_t)0 - lo;
      if (!end && !lo)
        width = UINT64_MAX;
      if (width > best) {
        best = width;
        widest = i;
      }
    }
    if (widest == SIZE_MAX || !part_split_mid(c, r, widest, t))
      return;
  }
  /* Provisioned increases double the partitions (spec §4, historical rule). */
  while ((int64_t)r->n_parts < needed) {
    size_t n = r->n_parts;
    bool any = false;
    for (size_t i = n; i-- > 0;)
      any |= part_split_mid(c, r, i, t);
    if (!any)
      break;
  }
}

static void apply_peaks(sl_cap *c, sl_cap_res *r, bool became_on_demand) {
  if (!on_demand(r))
    return;
  for (int d = 0; d < 2; d++) {
    int64_t initial =
        (d == SL_CAP_READ ? c->p.ondemand_initial_read_peak : c->p.ondemand_initial_write_peak) *
        1000;
    int64_t floor = initial;
    if (became_on_demand) {
      int64_t half = (d == SL_CAP_READ ? r->tp.highest_rcu : r->tp.highest_wcu) * 1000 / 2;
      if (half > floor)
        floor = half;
    }
    if (r->tp.warm_status == SL_STATUS_ACTIVE) {
      int64_t half = (d == SL_CAP_READ ? r->tp.warm_read : r->tp.warm_write) * 1000 / 2;
      if (half > floor)
        floor = half;
    }
    if (r->peak_mu[d] < floor)
      r->peak_mu[d] = floor;
  }
}

sl_cap_res *sl_cap_res_new(sl_cap *c, const sl_cap_res_init *init) {
  sl_cap_res *r = calloc(1, sizeof(*r));
  if (!r)
    sl_panic("out of memory");
  int64_t t = now_us(c);
  r->cap = c;
  r->next = c->resources;
  if (c->resources)
    c->resources->prev = r;
  c->resources = r;
  r->is_index = init->is_index;
  r->has_lsi = init->has_lsi;
  char *name = malloc(init->name.len + 1), *arn = malloc(init->arn.len + 1);
  if (!name || !arn)
    sl_panic("out of memory");
  memcpy(name, init->name.p, init->name.len);
  memcpy(arn, init->arn.p, init->arn.len);
  name[init->name.len] = arn[init->arn.len] = 0;
  r->name = sl_str_make(name, init->name.len);
  r->arn = sl_str_make(arn, init->arn.len);
  r->tp = *init->tp;
  r->last_heat_s = INT64_MIN / 2;
  apply_peaks(c, r, r->tp.highest_rcu > 0 || r->tp.highest_wcu > 0);
  for (int d = 0; d < 2; d++) {
    sl__window_init(&r->usage[d], (int32_t)(c->p.peak_window_ms / 1000), t / 1000000);
    table_bucket_new(c, r, d, t);
    bucket_new_full(&r->ceiling[d], ceiling_shape(c, r, d), t);
    bucket_new_full(&r->maxod[d], maxod_shape(c, r, d), t);
    bucket_new_full(&r->quota[d], quota_shape(c, d), t);
  }
  /* Partitions: evenly spread over the hash space. */
  int64_t n = sl_cap_initial_partitions(&c->p, &r->tp, init->stored_bytes);
  r->cap_parts = (size_t)n;
  r->parts = calloc(r->cap_parts, sizeof(part));
  if (!r->parts)
    sl_panic("out of memory");
  r->n_parts = (size_t)n;
  for (int64_t i = 0; i < n; i++) {
    keypt start = {.hash = (uint64_t)((((unsigned __int128)1 << 64) * (uint64_t)i) / (uint64_t)n),
                   .len = 0};
    part_init(c, r, &r->parts[i], &start, t);
    r->parts[i].bytes = init->stored_bytes / (uint64_t)n;
  }
  return r;
}

void sl_cap_res_free(sl_cap *c, sl_cap_res *r) {
  if (!r)
    return;
  if (r->prev)
    r->prev->next = r->next;
  else
    c->resources = r->next;
  if (r->next)
    r->next->prev = r->prev;
  for (size_t i = 0; i < r->n_parts; i++)
    part_free(&r->parts[i]);
  free(r->parts);
  free((char *)r->name.p);
  free((char *)r->arn.p);
  free(r);
}

void sl_cap_res_configure(sl_cap *c, sl_cap_res *r, const sl_throughput *tp) {
  int64_t t = now_us(c);
  bool became_on_demand =
      tp->billing == SL_BILLING_PAY_PER_REQUEST && r->tp.billing != SL_BILLING_PAY_PER_REQUEST;
  bool became_provisioned =
      tp->billing == SL_BILLING_PROVISIONED && r->tp.billing != SL_BILLING_PROVISIONED;
  r->tp = *tp;
  apply_peaks(c, r, became_on_demand);
  reshape_table(c, r, t);
  if (became_on_demand) {
    /* The on-demand buckets of a switched table start full, like a new
     * table's (spec §6). */
    for (int d = 0; d < 2; d++) {
      bucket_new_full(&r->ceiling[d], ceiling_shape(c, r, d), t);
      bucket_new_full(&r->quota[d], quota_shape(c, d), t);
      bucket_new_full(&r->maxod[d], maxod_shape(c, r, d), t);
    }
  }
  if (became_provisioned) {
    /* A fresh provisioned bucket starts with its initial burst. */
    for (int d = 0; d < 2; d++)
      table_bucket_new(c, r, d, t);
  }
  uint64_t bytes = 0;
  for (size_t i = 0; i < r->n_parts; i++)
    bytes += r->parts[i].bytes;
  ensure_partitions(c, r, sl_cap_initial_partitions(&c->p, &r->tp, bytes), t);
  reshape_partitions(c, r, t);
}

sl_str sl_cap_res_arn(const sl_cap_res *r) { return r->arn; }
sl_str sl_cap_res_name(const sl_cap_res *r) { return r->name; }
bool sl_cap_res_is_index(const sl_cap_res *r) { return r->is_index; }
bool sl_cap_res_on_demand(const sl_cap_res *r) { return on_demand(r); }
size_t sl_cap_res_partitions(const sl_cap_res *r) { return r->n_parts; }

void sl_cap_res_serves(const sl_cap_res *r, int64_t *read_ups, int64_t *write_ups) {
  const sl_cap *c = r->cap;
  int64_t n = (int64_t)r->n_parts;
  int64_t rd = n * c->p.partition_read_rate, wr = n * c->p.partition_write_rate;
  if (r->tp.warm_read > rd)
    rd = r->tp.warm_read;
  if (r->tp.warm_write > wr)
    wr = r->tp.warm_write;
  *read_ups = rd;
  *write_ups = wr;
}

void sl_cap_note_bytes(sl_cap *c, sl_cap_res *r, uint64_t hash, sl_str sort, int64_t delta) {
  keypt k;
  keypt_make(&k, hash, sort);
  size_t i = part_find(r, &k);
  part *p = &r->parts[i];
  if (delta < 0 && (uint64_t)-delta > p->bytes)
    p->bytes = 0;
  else
    p->bytes = (uint64_t)((int64_t)p->bytes + delta);
  /* Split by size (spec §4), at the median of the partition's recent keys
   * (every admitted access is sampled): the bytes are shared in the same
   * proportion. Keys that cannot be separated (one item; one item collection
   * of a table with LSIs) do not split. The write itself is a sample. */
  if (delta > 0)
    part_sample(c, &r->parts[i], &k);
  int64_t t = now_us(c);
  while (c->p.partition_max_bytes > 0 && r->parts[i].bytes > (uint64_t)c->p.partition_max_bytes) {
    keypt point;
    int64_t share;
    if (!split_point(c, r, &r->parts[i], &point, &share))
      break;
    part_split(c, r, i, &point, share, t);
    r->splits_size++;
    i = part_find(r, &k);
  }
}

/* ---- admission ---- */

static void add_reason(sl_cap_verdict *v, sl_cap_res *r, int dir, int limit) {
  for (uint32_t i = 0; i < v->n_reasons; i++)
    if (v->reasons[i].res == r && v->reasons[i].dir == dir && v->reasons[i].limit == limit)
      return;
  if (v->n_reasons < SL_CAP_MAX_REASONS)
    v->reasons[v->n_reasons++] = (sl_cap_reason){r, (uint8_t)dir, (uint8_t)limit};
}

/* Runs the five checks for one charge; returns a bit mask of failed limits
 * (bit 4 set additionally when the partition itself failed). */
static unsigned check_charge(sl_cap *c, const sl_cap_charge *ch, size_t *part_out, int64_t t) {
  sl_cap_res *r = ch->res;
  int d = ch->dir;
  unsigned fails = 0;
  peak_tick(c, r, t);
  if (on_demand(r)) {
    int64_t max = d == SL_CAP_READ ? r->tp.max_read_ru : r->tp.max_write_ru;
    if (max > 0) {
      sl__bucket_refill(&r->maxod[d], t);
      if (r->maxod[d].level <= 0)
        fails |= 1u << SL_LIMIT_MAX_ON_DEMAND;
    }
    sl__bucket_refill(&r->quota[d], t);
    if (r->quota[d].level <= 0)
      fails |= 1u << SL_LIMIT_ACCOUNT;
  } else {
    sl__bucket_refill(&r->table[d], t);
    if (r->table[d].level <= 0)
      fails |= 1u << SL_LIMIT_PROVISIONED;
  }
  if (on_demand(r)) {
    sl__bucket_refill(&r->ceiling[d], t);
    if (r->ceiling[d].level <= 0)
      fails |= 1u << SL_LIMIT_KEY_RANGE;
  }
  keypt k;
  keypt_make(&k, ch->hash, ch->sort);
  size_t pi = part_find(r, &k);
  *part_out = pi;
  sl__bucket_refill(&r->parts[pi].b[d], t);
  if (r->parts[pi].b[d].level <= 0)
    fails |= 1u << SL_LIMIT_KEY_RANGE;
  return fails;
}

bool sl_cap_check(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out) {
  memset(out, 0, sizeof(*out));
  out->first_failed = -1;
  out->partition = -1;
  out->admitted = true;
  if (c->p.unlimited)
    return true;
  int64_t t = now_us(c);
  for (size_t i = 0; i < n; i++) {
    if (!charges[i].res)
      continue;
    size_t pi;
    unsigned fails = check_charge(c, &charges[i], &pi, t);
    if (!fails)
      continue;
    out->admitted = false;
    if (out->first_failed < 0) {
      out->first_failed = (int32_t)i;
      out->partition = (int32_t)pi;
    }
    if (i < 64)
      out->failed_mask |= 1ull << i;
    for (int l = 0; l < 4; l++)
      if (fails & (1u << l))
        add_reason(out, charges[i].res, charges[i].dir, l);
  }
  return out->admitted;
}

/* ---- the spike rule ---- */

/* Whether a bucket's resource or partition used less than half the
 * bucket's rate on average over the last minute (its per-second window). A
 * stream held to the rate never qualifies, whatever the size of its
 * requests; a test suite's traffic on a new table always does. */
static bool below_rate(sl__window *w, const sl__bucket *b, int64_t t) {
  sl__window_advance(w, t / 1000000);
  return 2 * w->sum < b->rate * w->n;
}

/* Debits one request's cost 'mu' on bucket 'b' (already refilled). A large
 * request — more than spike_share of the burst — on a quiet bucket (its
 * burst holds at least that share, and it used less than half its rate on
 * average over the last minute) pays its excess over that share from the
 * bucket's retained
 * capacity, as far as there is some; everything else is paid from the burst,
 * which may go negative (spec §3, §5; cap.h). Under sustained overload a
 * bucket is never quiet, so a stream is held to the rate whatever the size
 * of its requests. */
static void spend(const sl_cap *c, sl__bucket *b, int64_t mu, bool below) {
  int64_t share = (int64_t)((__int128)b->cap * c->p.spike_share_ppm / PPM);
  bool quiet = b->level >= share && below;
  if (b->retained > 0 && mu > share && quiet) {
    int64_t extra = mu - share;
    int64_t from = extra < b->retained ? extra : b->retained;
    b->retained -= from;
    mu -= from;
  }
  b->level -= mu;
}

/* One request's total on one bucket: the charges of one call that fall on
 * the same resource and direction and, for partition buckets, the same
 * partition (part == SIZE_MAX: the resource's table-level buckets). */
typedef struct {
  sl_cap_res *res;
  int dir;
  size_t part;
  int64_t mu;
} spend_group;

static size_t group_add(spend_group *g, size_t n, sl_cap_res *r, int dir, size_t pi, int64_t mu) {
  for (size_t i = n; i-- > 0;) {
    if (g[i].res == r && g[i].dir == dir && g[i].part == pi) {
      g[i].mu += mu;
      return n;
    }
  }
  g[n] = (spend_group){r, dir, pi, mu};
  return n + 1;
}

static void spend_groups(sl_cap *c, spend_group *g, size_t n, int64_t t) {
  for (size_t i = 0; i < n; i++) {
    sl_cap_res *r = g[i].res;
    int d = g[i].dir;
    int64_t mu = g[i].mu;
    if (g[i].part != SIZE_MAX) {
      part *p = &r->parts[g[i].part];
      sl__bucket_refill(&p->b[d], t);
      spend(c, &p->b[d], mu, below_rate(&p->win[d], &p->b[d], t));
    } else if (on_demand(r)) {
      sl__bucket_refill(&r->maxod[d], t);
      r->maxod[d].level -= mu;
      sl__bucket_refill(&r->quota[d], t);
      r->quota[d].level -= mu;
      sl__bucket_refill(&r->ceiling[d], t);
      spend(c, &r->ceiling[d], mu, below_rate(&r->usage[d], &r->ceiling[d], t));
    } else {
      sl__bucket_refill(&r->table[d], t);
      r->table[d].level -= mu;
    }
  }
}

void sl_cap_debit(sl_cap *c, const sl_cap_charge *charges, size_t n) {
  if (c->p.unlimited || n == 0)
    return;
  int64_t t = now_us(c);
  int64_t s = t / 1000000;
  /* Pay per bucket first, with the consumption observed before this
   * request; then record the consumption charge by charge. */
  spend_group small[32];
  spend_group *g = 2 * n <= 32 ? small : malloc(2 * n * sizeof(spend_group));
  if (!g)
    sl_panic("out of memory");
  size_t ng = 0;
  for (size_t i = 0; i < n; i++) {
    const sl_cap_charge *ch = &charges[i];
    if (!ch->res)
      continue;
    peak_tick(c, ch->res, t);
    keypt k;
    keypt_make(&k, ch->hash, ch->sort);
    ng = group_add(g, ng, ch->res, ch->dir, SIZE_MAX, ch->cost_mu);
    ng = group_add(g, ng, ch->res, ch->dir, part_find(ch->res, &k), ch->cost_mu);
  }
  spend_groups(c, g, ng, t);
  if (g != small)
    free(g);
  for (size_t i = 0; i < n; i++) {
    const sl_cap_charge *ch = &charges[i];
    sl_cap_res *r = ch->res;
    if (!r)
      continue;
    keypt k;
    keypt_make(&k, ch->hash, ch->sort);
    part *p = &r->parts[part_find(r, &k)];
    sl__window_add(&p->win[ch->dir], s, ch->cost_mu);
    sl__window_add(&r->usage[ch->dir], s, ch->cost_mu);
    part_sample(c, p, &k);
    heat_tick(c, r, t);
  }
}

void sl_cap_record_throttle(sl_cap *c, const sl_cap_charge *charges, size_t n,
                            const sl_cap_verdict *v) {
  if (c->p.unlimited)
    return;
  int64_t t = now_us(c);
  int64_t s = t / 1000000;
  for (size_t i = 0; i < n && i < 64; i++) {
    if (!(v->failed_mask & (1ull << i)) || !charges[i].res)
      continue;
    sl_cap_res *r = charges[i].res;
    int d = charges[i].dir;
    keypt k;
    keypt_make(&k, charges[i].hash, charges[i].sort);
    part *p = &r->parts[part_find(r, &k)];
    p->throttles[d]++;
    p->last_throttle_s[d] = s;
    part_sample(c, p, &k);
    for (uint32_t j = 0; j < v->n_reasons; j++)
      if (v->reasons[j].res == r && v->reasons[j].dir == d)
        r->throttles[d][v->reasons[j].limit]++;
    heat_tick(c, r, t);
  }
}

bool sl_cap_admit(sl_cap *c, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out) {
  if (sl_cap_check(c, charges, n, out)) {
    sl_cap_debit(c, charges, n);
    return true;
  }
  sl_cap_record_throttle(c, charges, n, out);
  return false;
}

/* ---- introspection ---- */

static void write_bucket(sl_jw *w, const char *key, sl__bucket *b, int64_t t) {
  sl__bucket_refill(b, t);
  sl_jw_key_c(w, key);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "level");
  sl_jw_double(w, (double)b->level / 1000.0);
  sl_jw_key_c(w, "rate");
  sl_jw_double(w, (double)b->rate / 1000.0);
  sl_jw_key_c(w, "cap");
  sl_jw_double(w, (double)b->cap / 1000.0);
  if (b->retained_cap > 0) {
    sl_jw_key_c(w, "retained");
    sl_jw_double(w, (double)b->retained / 1000.0);
    sl_jw_key_c(w, "retained_cap");
    sl_jw_double(w, (double)b->retained_cap / 1000.0);
  }
  sl_jw_obj_end(w);
}

static void write_hash(sl_jw *w, uint64_t h) {
  char tmp[24];
  snprintf(tmp, sizeof(tmp), "%016llx", (unsigned long long)h);
  sl_jw_str_c(w, tmp);
}

bool sl_cap_res_partition(sl_cap *c, sl_cap_res *r, size_t i, sl_cap_partition_info *out) {
  if (i >= r->n_parts)
    return false;
  int64_t t = now_us(c);
  int64_t s = t / 1000000;
  part *p = &r->parts[i];
  memset(out, 0, sizeof(*out));
  out->lo_hash = p->start.hash;
  out->hi_hash = part_end_hash(r, i);
  out->bytes = p->bytes;
  out->hot = part_heat(c, p, s) > 0;
  for (int d = 0; d < 2; d++) {
    sl__bucket_refill(&p->b[d], t);
    out->level_mu[d] = p->b[d].level;
    out->rate_mu[d] = p->b[d].rate;
    out->cap_mu[d] = p->b[d].cap;
    out->retained_mu[d] = p->b[d].retained;
    out->consumed_minute_mu[d] = p->win[d].sum;
    out->throttles[d] = p->throttles[d];
  }
  return true;
}

void sl_cap_res_write_json(sl_cap *c, sl_cap_res *r, sl_jw *w) {
  int64_t t = now_us(c);
  peak_tick(c, r, t);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "kind");
  sl_jw_str_c(w, r->is_index ? "index" : "table");
  sl_jw_key_c(w, "name");
  sl_jw_str(w, r->name);
  sl_jw_key_c(w, "arn");
  sl_jw_str(w, r->arn);
  sl_jw_key_c(w, "mode");
  sl_jw_str_c(w, on_demand(r) ? "PAY_PER_REQUEST" : "PROVISIONED");
  sl_jw_key_c(w, "settings");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "read_capacity_units");
  sl_jw_int(w, r->tp.rcu);
  sl_jw_key_c(w, "write_capacity_units");
  sl_jw_int(w, r->tp.wcu);
  sl_jw_key_c(w, "max_read_request_units");
  sl_jw_int(w, r->tp.max_read_ru);
  sl_jw_key_c(w, "max_write_request_units");
  sl_jw_int(w, r->tp.max_write_ru);
  sl_jw_key_c(w, "warm_read_units_per_second");
  sl_jw_int(w, r->tp.warm_read);
  sl_jw_key_c(w, "warm_write_units_per_second");
  sl_jw_int(w, r->tp.warm_write);
  sl_jw_key_c(w, "adaptive_capacity");
  sl_jw_bool(w, c->p.adaptive_capacity != 0);
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "previous_peak");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "read");
  sl_jw_double(w, (double)r->peak_mu[SL_CAP_READ] / 1000.0);
  sl_jw_key_c(w, "write");
  sl_jw_double(w, (double)r->peak_mu[SL_CAP_WRITE] / 1000.0);
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "consumed_last_minute");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "read");
  sl_jw_double(w, (double)r->usage[SL_CAP_READ].sum / 1000.0);
  sl_jw_key_c(w, "write");
  sl_jw_double(w, (double)r->usage[SL_CAP_WRITE].sum / 1000.0);
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "buckets");
  sl_jw_obj_begin(w);
  static const char *const dirs[2] = {"read", "write"};
  for (int d = 0; d < 2; d++) {
    sl_jw_key_c(w, dirs[d]);
    sl_jw_obj_begin(w);
    if (on_demand(r)) {
      write_bucket(w, "ceiling", &r->ceiling[d], t);
      write_bucket(w, "account_quota", &r->quota[d], t);
      if ((d == SL_CAP_READ ? r->tp.max_read_ru : r->tp.max_write_ru) > 0)
        write_bucket(w, "max_on_demand", &r->maxod[d], t);
    } else {
      write_bucket(w, "table", &r->table[d], t);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "throttles");
  sl_jw_obj_begin(w);
  for (int d = 0; d < 2; d++) {
    sl_jw_key_c(w, dirs[d]);
    sl_jw_obj_begin(w);
    for (int l = 0; l < 4; l++) {
      sl_jw_key_c(w, limit_names[l]);
      sl_jw_uint(w, r->throttles[d][l]);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "split");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "hot_since_ms");
  if (r->hot_since_us)
    sl_jw_int(w, r->hot_since_us / 1000);
  else
    sl_jw_null(w);
  sl_jw_key_c(w, "last_split_ms");
  if (r->last_split_us)
    sl_jw_int(w, r->last_split_us / 1000);
  else
    sl_jw_null(w);
  sl_jw_key_c(w, "splits_for_heat");
  sl_jw_uint(w, r->splits_heat);
  sl_jw_key_c(w, "splits_for_size");
  sl_jw_uint(w, r->splits_size);
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "partitions");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < r->n_parts; i++) {
    sl_cap_partition_info pi;
    sl_cap_res_partition(c, r, i, &pi);
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "index");
    sl_jw_uint(w, i);
    sl_jw_key_c(w, "hash_range");
    sl_jw_arr_begin(w);
    write_hash(w, pi.lo_hash);
    if (pi.hi_hash)
      write_hash(w, pi.hi_hash);
    else
      sl_jw_str_c(w, "10000000000000000");
    sl_jw_arr_end(w);
    if (r->parts[i].start.len) {
      sl_jw_key_c(w, "sort_split");
      sl_jw_bool(w, true);
    }
    sl_jw_key_c(w, "stored_bytes");
    sl_jw_uint(w, pi.bytes);
    sl_jw_key_c(w, "hot");
    sl_jw_bool(w, pi.hot);
    for (int d = 0; d < 2; d++) {
      sl_jw_key_c(w, dirs[d]);
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "level");
      sl_jw_double(w, (double)pi.level_mu[d] / 1000.0);
      sl_jw_key_c(w, "rate");
      sl_jw_double(w, (double)pi.rate_mu[d] / 1000.0);
      sl_jw_key_c(w, "cap");
      sl_jw_double(w, (double)pi.cap_mu[d] / 1000.0);
      sl_jw_key_c(w, "retained");
      sl_jw_double(w, (double)pi.retained_mu[d] / 1000.0);
      sl_jw_key_c(w, "consumed_last_minute");
      sl_jw_double(w, (double)pi.consumed_minute_mu[d] / 1000.0);
      sl_jw_key_c(w, "throttles");
      sl_jw_uint(w, pi.throttles[d]);
      sl_jw_obj_end(w);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}
