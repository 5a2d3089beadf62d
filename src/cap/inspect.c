/*
 * Inspection (see cap.h, "introspection"): a resource and its partitions as
 * the admin API, the dashboard and the simulator read them. Reading refills
 * buckets and advances windows to the clock, as admission would; it changes
 * nothing else.
 */
#include "cap/cap_int.h"

#include <stdio.h>

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
  int64_t t = sl__cap_now_us(c);
  int64_t s = t / 1000000;
  sl__part *p = &r->parts[i];
  memset(out, 0, sizeof(*out));
  out->lo_hash = p->start.hash;
  out->hi_hash = sl__part_end_hash(r, i);
  out->bytes = p->bytes;
  out->hot = sl__part_heat(c, p, s) > 0;
  for (int d = 0; d < 2; d++) {
    sl__bucket_refill(&p->b[d], t);
    out->level_mu[d] = p->b[d].level;
    out->rate_mu[d] = p->b[d].rate;
    out->cap_mu[d] = p->b[d].cap;
    out->retained_mu[d] = p->b[d].retained;
    out->consumed_minute_mu[d] = p->win[d].sum;
    out->throttles[d] = p->throttles[d];
    out->last_throttle_ms[d] = p->throttles[d] ? p->last_throttle_s[d] * 1000 : -1;
  }
  return true;
}

uint64_t sl_cap_part_throttles_since(sl_cap *c, sl_cap_res *r, size_t i, int dir,
                                     int64_t since_ms) {
  if (i >= r->n_parts || !r->parts[i].thr || dir < 0 || dir > 1)
    return 0;
  const sl__thr_hist *h = r->parts[i].thr;
  int64_t now_s = sl__cap_now_us(c) / 1000000;
  int64_t from_s = since_ms < 0 ? 0 : since_ms / 1000;
  uint64_t n = 0;
  if (from_s > now_s - SL_CAP_THROTTLE_SECONDS) {
    for (int64_t k = from_s; k <= now_s && k <= h->sec_head; k++)
      if (k > h->sec_head - SL_CAP_THROTTLE_SECONDS)
        n += h->sec[k % SL_CAP_THROTTLE_SECONDS][dir];
    return n;
  }
  int64_t from_m = from_s / 60, now_m = now_s / 60;
  if (from_m <= now_m - SL_CAP_THROTTLE_MINUTES)
    from_m = now_m - SL_CAP_THROTTLE_MINUTES + 1;
  for (int64_t k = from_m; k <= now_m && k <= h->min_head; k++)
    if (k > h->min_head - SL_CAP_THROTTLE_MINUTES)
      n += h->min[k % SL_CAP_THROTTLE_MINUTES][dir];
  return n;
}

void sl_cap_res_write_json(sl_cap *c, sl_cap_res *r, sl_jw *w, int64_t window_s) {
  int64_t t = sl__cap_now_us(c);
  sl__cap_peak_tick(c, r, t);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "kind");
  sl_jw_str_c(w, r->is_index ? "index" : "table");
  sl_jw_key_c(w, "name");
  sl_jw_str(w, r->name);
  sl_jw_key_c(w, "arn");
  sl_jw_str(w, r->arn);
  sl_jw_key_c(w, "mode");
  sl_jw_str_c(w, sl__cap_on_demand(r) ? "PAY_PER_REQUEST" : "PROVISIONED");
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
  /* Higher peaks observed, waiting peak_base_delay_ms to become the base
   * (res.c sl__cap_peak_tick): units and the clock ms they count from. */
  sl_jw_key_c(w, "previous_peak_pending");
  sl_jw_obj_begin(w);
  for (int d = 0; d < 2; d++) {
    sl_jw_key_c(w, d == SL_CAP_READ ? "read" : "write");
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < r->peaks[d].n; i++) {
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "units");
      sl_jw_double(w, (double)r->peaks[d].mu[i] / 1000.0);
      sl_jw_key_c(w, "base_from_ms");
      sl_jw_int(w, (r->peaks[d].at_us[i] + c->p.peak_base_delay_ms * 1000 + 999) / 1000);
      sl_jw_obj_end(w);
    }
    sl_jw_arr_end(w);
  }
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
    if (sl__cap_on_demand(r)) {
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
      sl_jw_key_c(w, sl_cap_limit_name((sl_cap_limit)l));
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
      sl_jw_key_c(w, "last_throttle_ms");
      if (pi.last_throttle_ms[d] >= 0)
        sl_jw_int(w, pi.last_throttle_ms[d]);
      else
        sl_jw_null(w);
      if (window_s > 0) {
        sl_jw_key_c(w, "throttles_in_window");
        sl_jw_uint(w, sl_cap_part_throttles_since(c, r, i, d, (t / 1000000 + 1 - window_s) * 1000));
      }
      sl_jw_obj_end(w);
    }
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

static sl_cap_part_ref part_ref(const sl__part *p) {
  return (sl_cap_part_ref){p->id, p->parent, p->start.hash};
}

sl_cap_part_ref sl_cap_res_part_at(const sl_cap_res *r, uint64_t hash, sl_str sort) {
  sl__keypt k;
  sl__keypt_make(&k, hash, sort);
  return part_ref(&r->parts[sl__part_find(r, &k)]);
}

size_t sl_cap_res_part_refs(const sl_cap_res *r, sl_cap_part_ref *out, size_t cap) {
  for (size_t i = 0; i < r->n_parts && i < cap; i++)
    out[i] = part_ref(&r->parts[i]);
  return r->n_parts;
}
