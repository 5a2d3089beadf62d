/*
 * Admission (see cap.h, "Admission", and cap_int.h): the names of limits
 * and throttling reasons, the five checks of a charge in the spec's order,
 * the spike rule, and the calls an operation makes — check, debit, admit,
 * record_throttle. Rules from ../shared/spec/capacity-model.md ("spec §N"),
 * pinned by tests/unit/cap/test_cap.c.
 */
#include "cap/cap_int.h"

#include <stdio.h>
#include <stdlib.h>

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
  sl__cap_peak_tick(c, r, t);
  if (sl__cap_on_demand(r)) {
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
  if (sl__cap_on_demand(r)) {
    sl__bucket_refill(&r->ceiling[d], t);
    if (r->ceiling[d].level <= 0)
      fails |= 1u << SL_LIMIT_KEY_RANGE;
  }
  sl__keypt k;
  sl__keypt_make(&k, ch->hash, ch->sort);
  size_t pi = sl__part_find(r, &k);
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
  int64_t t = sl__cap_now_us(c);
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
  int64_t share = (int64_t)((__int128)b->cap * c->p.spike_share_ppm / SL__CAP_PPM);
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
      sl__part *p = &r->parts[g[i].part];
      sl__bucket_refill(&p->b[d], t);
      spend(c, &p->b[d], mu, below_rate(&p->win[d], &p->b[d], t));
    } else if (sl__cap_on_demand(r)) {
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
  int64_t t = sl__cap_now_us(c);
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
    sl__cap_peak_tick(c, ch->res, t);
    sl__keypt k;
    sl__keypt_make(&k, ch->hash, ch->sort);
    ng = group_add(g, ng, ch->res, ch->dir, SIZE_MAX, ch->cost_mu);
    ng = group_add(g, ng, ch->res, ch->dir, sl__part_find(ch->res, &k), ch->cost_mu);
  }
  spend_groups(c, g, ng, t);
  if (g != small)
    free(g);
  for (size_t i = 0; i < n; i++) {
    const sl_cap_charge *ch = &charges[i];
    sl_cap_res *r = ch->res;
    if (!r)
      continue;
    sl__keypt k;
    sl__keypt_make(&k, ch->hash, ch->sort);
    sl__part *p = &r->parts[sl__part_find(r, &k)];
    sl__window_add(&p->win[ch->dir], s, ch->cost_mu);
    sl__window_add(&r->usage[ch->dir], s, ch->cost_mu);
    sl__part_sample(c, p, &k);
    sl__cap_heat_tick(c, r, t);
  }
}

void sl_cap_record_throttle(sl_cap *c, const sl_cap_charge *charges, size_t n,
                            const sl_cap_verdict *v) {
  if (c->p.unlimited)
    return;
  int64_t t = sl__cap_now_us(c);
  int64_t s = t / 1000000;
  for (size_t i = 0; i < n && i < 64; i++) {
    if (!(v->failed_mask & (1ull << i)) || !charges[i].res)
      continue;
    sl_cap_res *r = charges[i].res;
    int d = charges[i].dir;
    sl__keypt k;
    sl__keypt_make(&k, charges[i].hash, charges[i].sort);
    sl__part *p = &r->parts[sl__part_find(r, &k)];
    p->throttles[d]++;
    p->last_throttle_s[d] = s;
    sl__part_throttle_note(p, d, s);
    sl__part_sample(c, p, &k);
    for (uint32_t j = 0; j < v->n_reasons; j++)
      if (v->reasons[j].res == r && v->reasons[j].dir == d)
        r->throttles[d][v->reasons[j].limit]++;
    sl__cap_heat_tick(c, r, t);
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
