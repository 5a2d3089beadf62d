/*
 * The engine and its resources (see cap.h and cap_int.h): the engine's
 * parameters, clock and control-plane bucket (spent by control.c); a resource's table-level buckets
 * (provisioned rate, on-demand ceiling, OnDemandThroughput maximum, per-table
 * quota), its previous peak, and its life: new, configure, free. The
 * partition map is part.c's. Rules from ../shared/spec/capacity-model.md
 * ("spec §N"), pinned by tests/unit/cap/test_cap.c.
 */
#include "cap/cap_int.h"

#include <stdlib.h>

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

void sl_cap_free(sl_cap *c) {
  if (!c)
    return;
  while (c->resources)
    sl_cap_res_free(c, c->resources);
  free(c);
}

const sl_cap_params *sl_cap_params_of(const sl_cap *c) { return &c->p; }

bool sl_cap_unlimited(const sl_cap *c) { return c->p.unlimited != 0; }
/* ---- table-level buckets ---- */

static sl__shape ceiling_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t rate = sl__cap_with_tolerance(c, 2 * r->peak_mu[dir]);
  return (sl__shape){rate, rate * c->p.ondemand_ceiling_burst_ms / 1000, rate * c->p.burst_seconds};
}

static sl__shape table_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t rate = sl__cap_provisioned_mu(r, dir);
  return (sl__shape){rate, rate * c->p.burst_seconds, 0};
}

static sl__shape maxod_shape(const sl_cap *c, const sl_cap_res *r, int dir) {
  int64_t max = dir == SL_CAP_READ ? r->tp.max_read_ru : r->tp.max_write_ru;
  int64_t rate = max > 0 ? max * 1000 : 0;
  return (sl__shape){rate, rate * c->p.max_ondemand_burst_ms / 1000, 0};
}

static sl__shape quota_shape(const sl_cap *c, int dir) {
  int64_t q = (dir == SL_CAP_READ ? c->p.table_quota_read : c->p.table_quota_write) * 1000;
  return (sl__shape){q, q, 0};
}

static void reshape_table(sl_cap *c, sl_cap_res *r, int64_t t) {
  for (int d = 0; d < 2; d++) {
    sl__shape_apply(&r->table[d], table_shape(c, r, d), t);
    sl__shape_apply(&r->ceiling[d], ceiling_shape(c, r, d), t);
    sl__shape_apply(&r->maxod[d], maxod_shape(c, r, d), t);
    sl__shape_apply(&r->quota[d], quota_shape(c, d), t);
  }
}

/* A new provisioned table bucket: initial_burst of capacity (spec §5;
 * default: full). */
static void table_bucket_new(sl_cap *c, sl_cap_res *r, int dir, int64_t t) {
  sl__shape s = table_shape(c, r, dir);
  int64_t level = s.rate * c->p.initial_burst_ms / 1000;
  sl__bucket_init(&r->table[dir], s.rate, s.cap, level < s.cap ? level : s.cap, t);
}

/* Observes the previous peak: the highest 1-minute average consumption
 * (spec §6). Called before each use of the resource's usage window.
 *
 * "Throttling can occur if you exceed double your previous peak within 30
 * minutes" (developer guide; Knowledge Center: "spread your traffic growth
 * over at least 30 minutes"): a new peak becomes the base of the 2 x
 * ceiling peak_base_delay_ms after it was observed (peaks observed within
 * delay / 32 of each other count from the last of them: cap_int.h
 * sl__peak_seen). Default 0: at once, because seed 003's new table stepped
 * past 2 x its initial peak at minute 8 (about 5,100 writes/s here), which a
 * 30-minute delay would hold at 4,130/s until minute 31
 * (tests/unit/cap/test_cap.c test_peak_base_delay, _ramp, _calibration;
 * docs/capacity.md). */
void sl__cap_peak_tick(sl_cap *c, sl_cap_res *r, int64_t t) {
  int64_t s = t / 1000000;
  int64_t delay_us = c->p.peak_base_delay_ms * 1000;
  for (int d = 0; d < 2; d++) {
    sl__peak_seen *q = &r->peaks[d];
    /* Due peaks first, so that the ring has room for a new one. */
    int64_t base = r->peak_mu[d];
    uint32_t due = 0;
    while (due < q->n && q->at_us[due] + delay_us <= t) {
      if (q->mu[due] > base)
        base = q->mu[due];
      due++;
    }
    if (due) {
      memmove(q->first_us, q->first_us + due, (q->n - due) * sizeof(int64_t));
      memmove(q->at_us, q->at_us + due, (q->n - due) * sizeof(int64_t));
      memmove(q->mu, q->mu + due, (q->n - due) * sizeof(int64_t));
      q->n -= due;
    }
    int64_t completed = sl__window_advance(&r->usage[d], s);
    if (completed >= 0) {
      int64_t avg = completed / r->usage[d].n;
      int64_t seen = q->n ? q->mu[q->n - 1] : base;
      if (avg > seen && delay_us <= 0) {
        base = avg;
      } else if (avg > seen) {
        if (q->n &&
            (q->n == SL__PEAKS_MAX || t - q->first_us[q->n - 1] < delay_us / SL__PEAKS_MAX)) {
          q->at_us[q->n - 1] = t; /* never earlier than observed */
          q->mu[q->n - 1] = avg;
        } else {
          q->first_us[q->n] = q->at_us[q->n] = t;
          q->mu[q->n] = avg;
          q->n++;
        }
      }
    }
    if (base > r->peak_mu[d]) {
      r->peak_mu[d] = base;
      sl__shape_apply(&r->ceiling[d], ceiling_shape(c, r, d), t);
    }
  }
}

/* ---- resources ---- */

static void apply_peaks(sl_cap *c, sl_cap_res *r, bool became_on_demand) {
  if (!sl__cap_on_demand(r))
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
  int64_t t = sl__cap_now_us(c);
  r->cap = c;
  r->next = c->resources;
  if (c->resources)
    c->resources->prev = r;
  c->resources = r;
  r->is_index = init->is_index;
  r->has_lsi = init->has_lsi;
  sl_str tname = init->is_index ? init->table : init->name;
  char *name = malloc(init->name.len + 1), *arn = malloc(init->arn.len + 1);
  char *table = malloc(tname.len + 1);
  if (!name || !arn || !table)
    sl_panic("out of memory");
  memcpy(name, init->name.p, init->name.len);
  memcpy(arn, init->arn.p, init->arn.len);
  if (tname.len)
    memcpy(table, tname.p, tname.len);
  name[init->name.len] = arn[init->arn.len] = table[tname.len] = 0;
  r->name = sl_str_make(name, init->name.len);
  r->table_name = sl_str_make(table, tname.len);
  r->arn = sl_str_make(arn, init->arn.len);
  r->tp = *init->tp;
  r->last_heat_s = INT64_MIN / 2;
  apply_peaks(c, r, r->tp.highest_rcu > 0 || r->tp.highest_wcu > 0);
  for (int d = 0; d < 2; d++) {
    sl__window_init(&r->usage[d], (int32_t)(c->p.peak_window_ms / 1000), t / 1000000);
    table_bucket_new(c, r, d, t);
    sl__bucket_new_full(&r->ceiling[d], ceiling_shape(c, r, d), t);
    sl__bucket_new_full(&r->maxod[d], maxod_shape(c, r, d), t);
    sl__bucket_new_full(&r->quota[d], quota_shape(c, d), t);
  }
  /* Partitions: evenly spread over the hash space. */
  int64_t n = sl_cap_initial_partitions(&c->p, &r->tp, init->stored_bytes);
  r->cap_parts = (size_t)n;
  r->parts = calloc(r->cap_parts, sizeof(sl__part));
  if (!r->parts)
    sl_panic("out of memory");
  r->n_parts = (size_t)n;
  for (int64_t i = 0; i < n; i++) {
    sl__keypt start = {
        .hash = (uint64_t)((((unsigned __int128)1 << 64) * (uint64_t)i) / (uint64_t)n), .len = 0};
    sl__part_init(c, r, &r->parts[i], &start, t);
    r->parts[i].bytes = init->stored_bytes / (uint64_t)n;
  }
  r->epoch = init->epoch;
  r->layout_dirty = c->layouts_dirty = true;
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
    sl__part_free(&r->parts[i]);
  free(r->parts);
  free((char *)r->name.p);
  free((char *)r->table_name.p);
  free((char *)r->arn.p);
  free(r);
}

void sl_cap_res_configure(sl_cap *c, sl_cap_res *r, const sl_throughput *tp) {
  int64_t t = sl__cap_now_us(c);
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
      sl__bucket_new_full(&r->ceiling[d], ceiling_shape(c, r, d), t);
      sl__bucket_new_full(&r->quota[d], quota_shape(c, d), t);
      sl__bucket_new_full(&r->maxod[d], maxod_shape(c, r, d), t);
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
  sl__cap_ensure_partitions(c, r, sl_cap_initial_partitions(&c->p, &r->tp, bytes), t);
  sl__parts_reshape(c, r, t);
}

sl_str sl_cap_res_arn(const sl_cap_res *r) { return r->arn; }
sl_str sl_cap_res_name(const sl_cap_res *r) { return r->name; }
sl_str sl_cap_res_table_name(const sl_cap_res *r) { return r->table_name; }
bool sl_cap_res_is_index(const sl_cap_res *r) { return r->is_index; }
bool sl_cap_res_on_demand(const sl_cap_res *r) { return sl__cap_on_demand(r); }
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

void sl_cap_res_set_peak(sl_cap *c, sl_cap_res *r, int dir, int64_t units) {
  int64_t t = sl__cap_now_us(c);
  r->peak_mu[dir] = units * 1000;
  sl__shape_apply(&r->ceiling[dir], ceiling_shape(c, r, dir), t);
}

void sl_cap_res_drain_burst(sl_cap *c, sl_cap_res *r) {
  int64_t t = sl__cap_now_us(c);
  for (int d = 0; d < 2; d++) {
    sl__bucket *b = &r->table[d];
    sl__bucket_refill(b, t);
    if (b->level > 0)
      b->level = 0;
    b->retained = 0;
    for (size_t i = 0; i < r->n_parts; i++) {
      b = &r->parts[i].b[d];
      sl__bucket_refill(b, t);
      if (b->level > 0)
        b->level = 0;
      b->retained = 0;
    }
  }
}
