/*
 * The partition map of a resource (see cap.h, "Partitions", and cap_int.h):
 * key points, partition buckets, the ring of recent accesses that chooses
 * split points, heat, splits for heat and for size, and the initial
 * partition count. Rules from ../shared/spec/capacity-model.md ("spec §N");
 * every one is pinned by a scenario in tests/unit/cap/test_cap.c.
 */
#include "cap/cap_int.h"

#include <stdlib.h>

/* ---- partition buckets ---- */

static int64_t partition_base(const sl_cap *c, int dir) {
  return (dir == SL_CAP_READ ? c->p.partition_read_rate : c->p.partition_write_rate) * 1000;
}

sl__shape sl__part_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t full = sl__cap_with_tolerance(c, partition_base(c, dir));
  if (!sl__cap_on_demand(r) && !c->p.adaptive_capacity) {
    /* Legacy equal shares: each partition gets table rate / n, with the
     * table's burst retained per partition (its cap is the retained part). */
    int64_t share = sl__cap_provisioned_mu(r, dir) / (int64_t)(r->n_parts ? r->n_parts : 1);
    int64_t rate = share < full ? share : full;
    return (sl__shape){rate, rate * c->p.burst_seconds, 0};
  }
  return (sl__shape){full, full * c->p.partition_burst_ms / 1000, full * c->p.burst_seconds};
}

void sl__parts_reshape(sl_cap *c, sl_cap_res *r, int64_t t) {
  for (size_t i = 0; i < r->n_parts; i++)
    for (int d = 0; d < 2; d++)
      sl__shape_apply(&r->parts[i].b[d], sl__part_shape(c, r, d), t);
}

static int keypt_qsort_cmp(const void *a, const void *b) { return sl__keypt_cmp(a, b); }

/* ---- partitions ---- */

void sl__part_init(sl_cap *c, sl_cap_res *r, sl__part *p, const sl__keypt *start, int64_t t) {
  memset(p, 0, sizeof(*p));
  p->start = *start;
  int64_t s = t / 1000000;
  for (int d = 0; d < 2; d++) {
    /* A partition starts full, except under legacy equal shares, where its
     * share of a new table's capacity starts like the table: with the
     * initial burst (spec §5). */
    sl__shape sh = sl__part_shape(c, r, d);
    sl__bucket_new_full(&p->b[d], sh, t);
    if (!sl__cap_on_demand(r) && !c->p.adaptive_capacity) {
      int64_t level = sh.rate * c->p.initial_burst_ms / 1000;
      p->b[d].level = level < sh.cap ? level : sh.cap;
    }
    sl__window_init(&p->win[d], (int32_t)(c->p.peak_window_ms / 1000), s);
    p->last_throttle_s[d] = INT64_MIN / 2;
  }
  p->id = r->next_part_id++;
  p->parent = SL_CAP_NO_PART;
  uint32_t n = (uint32_t)(c->p.split_sample > 0 ? c->p.split_sample : 1);
  p->samples = calloc(n, sizeof(sl__keypt));
  if (!p->samples)
    sl_panic("out of memory");
}

void sl__part_free(sl__part *p) {
  free(p->samples);
  free(p->thr);
}

/* Moves a ring's head to 'slot', clearing the slots it passes. */
static void thr_advance(uint32_t (*ring)[2], int64_t n, int64_t *head, int64_t slot) {
  if (slot <= *head)
    return;
  int64_t from = slot - *head >= n ? slot - n + 1 : *head + 1;
  for (int64_t k = from; k <= slot; k++)
    ring[k % n][0] = ring[k % n][1] = 0;
  *head = slot;
}

void sl__part_throttle_note(sl__part *p, int dir, int64_t s) {
  if (s < 0)
    return;
  if (!p->thr) {
    p->thr = calloc(1, sizeof(*p->thr));
    if (!p->thr)
      sl_panic("out of memory");
    p->thr->sec_head = s;
    p->thr->min_head = s / 60;
  }
  sl__thr_hist *h = p->thr;
  thr_advance(h->sec, SL_CAP_THROTTLE_SECONDS, &h->sec_head, s);
  thr_advance(h->min, SL_CAP_THROTTLE_MINUTES, &h->min_head, s / 60);
  /* The clock never goes back; a second older than the head is still in
   * the ring unless it has left it. */
  if (s > h->sec_head - SL_CAP_THROTTLE_SECONDS)
    h->sec[s % SL_CAP_THROTTLE_SECONDS][dir]++;
  if (s / 60 > h->min_head - SL_CAP_THROTTLE_MINUTES)
    h->min[(s / 60) % SL_CAP_THROTTLE_MINUTES][dir]++;
}

static uint32_t sample_cap(const sl_cap *c) {
  return (uint32_t)(c->p.split_sample > 0 ? c->p.split_sample : 1);
}

void sl__part_sample(const sl_cap *c, sl__part *p, const sl__keypt *k) {
  uint32_t n = sample_cap(c);
  p->samples[p->next_sample] = *k;
  p->next_sample = (p->next_sample + 1) % n;
  if (p->n_samples < n)
    p->n_samples++;
}

/* The end (exclusive) of partition i's hash range; 0 means 2^64. */
uint64_t sl__part_end_hash(const sl_cap_res *r, size_t i) {
  return i + 1 < r->n_parts ? r->parts[i + 1].start.hash : 0;
}

/* Inserts a partition starting at 'point' after partition i. 'right_share'
 * (ppm) is the estimated share of i's consumption and bytes above the point. */
static void part_split(sl_cap *c, sl_cap_res *r, size_t i, const sl__keypt *point,
                       int64_t right_share, int64_t t) {
  if (r->n_parts == r->cap_parts) {
    r->cap_parts = r->cap_parts ? r->cap_parts * 2 : 8;
    r->parts = realloc(r->parts, r->cap_parts * sizeof(sl__part));
    if (!r->parts)
      sl_panic("out of memory");
  }
  memmove(&r->parts[i + 2], &r->parts[i + 1], (r->n_parts - i - 1) * sizeof(sl__part));
  r->n_parts++;
  sl__part *left = &r->parts[i], *right = &r->parts[i + 1];
  sl__part_init(c, r, right, point, t);
  /* The split partition ends: both halves are new ones, its children. */
  uint32_t parent = left->id;
  left->id = r->next_part_id++;
  left->parent = right->parent = parent;
  r->layout_dirty = c->layouts_dirty = true;
  for (int d = 0; d < 2; d++) {
    /* Both halves inherit the parent's bucket state; consumption history is
     * divided by the observed share, so heat carries over fairly. */
    right->b[d] = left->b[d];
    right->win[d] = left->win[d];
    right->win[d].sum = 0;
    left->win[d].sum = 0;
    for (int s = 0; s < right->win[d].n; s++) {
      int64_t v = left->win[d].slot[s];
      int64_t rv = (int64_t)((__int128)v * right_share / SL__CAP_PPM);
      right->win[d].slot[s] = rv;
      left->win[d].slot[s] = v - rv;
      right->win[d].sum += rv;
      left->win[d].sum += v - rv;
    }
    right->last_throttle_s[d] = left->last_throttle_s[d];
  }
  uint64_t rb = (uint64_t)((__int128)left->bytes * right_share / SL__CAP_PPM);
  right->bytes = rb;
  left->bytes -= rb;
  /* Samples go to the side they belong to. */
  sl__keypt *old = left->samples;
  uint32_t n_old = left->n_samples;
  uint32_t n = sample_cap(c);
  left->samples = calloc(n, sizeof(sl__keypt));
  if (!left->samples)
    sl_panic("out of memory");
  left->n_samples = left->next_sample = 0;
  for (uint32_t k = 0; k < n_old; k++)
    sl__part_sample(c, sl__keypt_cmp(&old[k], point) < 0 ? left : right, &old[k]);
  free(old);
  if (!sl__cap_on_demand(r) && !c->p.adaptive_capacity)
    sl__parts_reshape(c, r, t);
}

/* Splits partition i at the middle of its hash range (size splits and the
 * doubling of provisioned partitions). Returns false if the range is a single
 * hash. */
static bool part_split_mid(sl_cap *c, sl_cap_res *r, size_t i, int64_t t) {
  uint64_t lo = r->parts[i].start.hash;
  uint64_t hi = sl__part_end_hash(r, i);
  uint64_t width = hi ? hi - lo : (uint64_t)0 - lo; /* 2^64 - lo when hi is 2^64 */
  if (hi == 0 && lo == 0)
    width = UINT64_MAX;
  if (width < 2)
    return false;
  sl__keypt mid = {.hash = lo + width / 2, .len = 0};
  part_split(c, r, i, &mid, SL__CAP_PPM / 2, t);
  return true;
}

/* Chooses a point that separates distinct recently accessed keys of
 * partition i (spec §4): the median sample, or the first sample above it
 * when the median is the smallest key. A table with LSIs splits only between
 * partition keys. Returns false when every sample is the same key. */
static bool split_point(const sl_cap *c, const sl_cap_res *r, const sl__part *p, sl__keypt *out,
                        int64_t *right_share) {
  uint32_t n = p->n_samples;
  if (n < 2)
    return false;
  sl__keypt tmp[256];
  sl__keypt *s = n <= 256 ? tmp : malloc(n * sizeof(sl__keypt));
  if (!s)
    sl_panic("out of memory");
  for (uint32_t k = 0; k < n; k++) {
    s[k] = p->samples[k];
    if (r->has_lsi)
      s[k].len = 0;
  }
  qsort(s, n, sizeof(sl__keypt), keypt_qsort_cmp);
  bool ok = false;
  uint32_t m = n / 2;
  if (sl__keypt_cmp(&s[0], &s[m]) < 0) {
    *out = s[m];
    ok = true;
  } else {
    for (uint32_t k = m + 1; k < n; k++) {
      if (sl__keypt_cmp(&s[k], &s[m]) > 0) {
        *out = s[k];
        ok = true;
        break;
      }
    }
  }
  if (ok) {
    /* The boundary must lie strictly inside the partition. */
    if (sl__keypt_cmp(out, &p->start) <= 0)
      ok = false;
  }
  if (ok) {
    uint32_t right = 0;
    for (uint32_t k = 0; k < n; k++)
      right += sl__keypt_cmp(&s[k], out) >= 0;
    *right_share = (int64_t)right * SL__CAP_PPM / n;
  }
  if (s != tmp)
    free(s);
  (void)c;
  return ok;
}

/* A partition is hot while its consumption over the last minute is at least
 * hot_threshold of its limit, or it is throttling (spec §4). Returns a score
 * (0: not hot) ranking throttling partitions first. */
int64_t sl__part_heat(const sl_cap *c, sl__part *p, int64_t s) {
  int64_t best = 0;
  for (int d = 0; d < 2; d++) {
    sl__window_advance(&p->win[d], s);
    int64_t limit = p->b[d].rate * p->win[d].n;
    int64_t used_ppm = limit > 0 ? (int64_t)((__int128)p->win[d].sum * SL__CAP_PPM / limit) : 0;
    int64_t score = 0;
    if (s - p->last_throttle_s[d] <= 1)
      score = 2 * SL__CAP_PPM + used_ppm;
    else if (used_ppm >= c->p.hot_threshold_ppm)
      score = used_ppm;
    if (score > best)
      best = score;
  }
  return best;
}

/* Once per clock second of traffic: track the heat episode and split for
 * heat on the spec's schedule (spec §4). */
void sl__cap_heat_tick(sl_cap *c, sl_cap_res *r, int64_t t) {
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
    scores[i] = sl__part_heat(c, &r->parts[i], s);
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
    sl__keypt point;
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

/* Fault injection's force_split (cap.h): partition i splits now, at the
 * median of its recent accesses when they name two distinct keys, else at
 * the middle of its hash range. */
bool sl_cap_res_force_split(sl_cap *c, sl_cap_res *r, size_t i) {
  if (i >= r->n_parts)
    return false;
  int64_t t = sl__cap_now_us(c);
  sl__keypt point;
  int64_t share;
  if (split_point(c, r, &r->parts[i], &point, &share)) {
    part_split(c, r, i, &point, share, t);
    r->splits_heat++;
    return true;
  }
  if (!part_split_mid(c, r, i, t))
    return false;
  r->splits_size++;
  return true;
}

/* ---- partition count and size ---- */

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
void sl__cap_ensure_partitions(sl_cap *c, sl_cap_res *r, int64_t needed, int64_t t) {
  /* On-demand (warm throughput, spec §6) pre-splits to exactly what is
   * needed: the widest hash range first. */
  while (sl__cap_on_demand(r) && (int64_t)r->n_parts < needed) {
    size_t widest = SIZE_MAX;
    uint64_t best = 0;
    for (size_t i = 0; i < r->n_parts; i++) {
      uint64_t end = sl__part_end_hash(r, i), lo = r->parts[i].start.hash;
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

void sl_cap_note_bytes(sl_cap *c, sl_cap_res *r, uint64_t hash, sl_str sort, int64_t delta) {
  sl__keypt k;
  sl__keypt_make(&k, hash, sort);
  size_t i = sl__part_find(r, &k);
  sl__part *p = &r->parts[i];
  if (delta < 0 && (uint64_t)-delta > p->bytes)
    p->bytes = 0;
  else
    p->bytes = (uint64_t)((int64_t)p->bytes + delta);
  /* Split by size (spec §4), at the median of the partition's recent keys
   * (every admitted access is sampled): the bytes are shared in the same
   * proportion. Keys that cannot be separated (one item; one item collection
   * of a table with LSIs) do not split. The write itself is a sample. */
  if (delta > 0)
    sl__part_sample(c, &r->parts[i], &k);
  int64_t t = sl__cap_now_us(c);
  while (c->p.partition_max_bytes > 0 && r->parts[i].bytes > (uint64_t)c->p.partition_max_bytes) {
    sl__keypt point;
    int64_t share;
    if (!split_point(c, r, &r->parts[i], &point, &share))
      break;
    part_split(c, r, i, &point, share, t);
    r->splits_size++;
    i = sl__part_find(r, &k);
  }
}

/* ---- the layout across a restart (cap.h) ---- */

_Static_assert(sizeof(((sl_cap_part_start *)0)->sort) == SL__CAP_SORT_PREFIX,
               "a saved start point holds the whole sort key prefix");

size_t sl_cap_res_layout(const sl_cap_res *r, sl_cap_part_start *out, size_t cap,
                         uint32_t *next_id) {
  for (size_t i = 0; i < r->n_parts && i < cap; i++) {
    const sl__part *p = &r->parts[i];
    memset(&out[i], 0, sizeof(out[i]));
    out[i].hash = p->start.hash;
    out[i].sort_len = p->start.len;
    memcpy(out[i].sort, p->start.sort, p->start.len);
    out[i].id = p->id;
    out[i].parent = p->parent;
  }
  *next_id = r->next_part_id;
  return r->n_parts;
}

static sl__keypt start_point(const sl_cap_part_start *s) {
  sl__keypt k = {.hash = s->hash, .len = s->sort_len};
  memcpy(k.sort, s->sort, s->sort_len);
  return k;
}

bool sl_cap_res_layout_restore(sl_cap *c, sl_cap_res *r, const sl_cap_part_start *v, size_t n,
                               uint32_t next_id, uint64_t epoch) {
  if (n == 0 || v[0].hash != 0 || v[0].sort_len != 0)
    return false;
  for (size_t i = 0; i < n; i++) {
    if (v[i].sort_len > SL__CAP_SORT_PREFIX || v[i].id >= next_id ||
        (v[i].parent != SL_CAP_NO_PART && v[i].parent >= next_id))
      return false;
    if (i > 0) {
      sl__keypt a = start_point(&v[i - 1]), b = start_point(&v[i]);
      if (sl__keypt_cmp(&a, &b) >= 0)
        return false;
    }
  }
  int64_t t = sl__cap_now_us(c);
  uint64_t bytes = 0;
  for (size_t i = 0; i < r->n_parts; i++) {
    bytes += r->parts[i].bytes;
    sl__part_free(&r->parts[i]);
  }
  free(r->parts);
  r->cap_parts = r->n_parts = n;
  r->parts = calloc(n, sizeof(sl__part));
  if (!r->parts)
    sl_panic("out of memory");
  for (size_t i = 0; i < n; i++) {
    sl__keypt start = start_point(&v[i]);
    sl__part_init(c, r, &r->parts[i], &start, t);
    r->parts[i].id = v[i].id;
    r->parts[i].parent = v[i].parent;
    r->parts[i].bytes = bytes / n;
  }
  r->next_part_id = next_id;
  r->epoch = epoch;
  r->layout_dirty = false;
  /* Settings that need more partitions than were saved (another profile or
   * config file) split as sl_cap_res_configure would, which marks the layout
   * changed again. */
  sl__cap_ensure_partitions(c, r, sl_cap_initial_partitions(&c->p, &r->tp, bytes), t);
  sl__parts_reshape(c, r, t);
  return true;
}

uint64_t sl_cap_res_epoch(const sl_cap_res *r) { return r->epoch; }
bool sl_cap_res_layout_dirty(const sl_cap_res *r) { return r->layout_dirty; }
void sl_cap_res_layout_saved(sl_cap_res *r) { r->layout_dirty = false; }
bool sl_cap_layouts_dirty(const sl_cap *c) { return c->layouts_dirty; }
void sl_cap_layouts_saved(sl_cap *c) { c->layouts_dirty = false; }
