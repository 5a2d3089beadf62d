/*
 * What a simulation found: the diagnosis, costs, hottest keys, and the
 * text, JSON and CSV reports; see simulate.h.
 */
#include "tools/sim_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the run found ---- */

const char *const sl__sim_limit_names[4] = {"MaxOnDemandThroughputExceeded", "AccountLimitExceeded",
                                            "ProvisionedThroughputExceeded",
                                            "KeyRangeThroughputExceeded"};

bool sl__sim_on_demand(const res_state *r) { return r->tp.billing == SL_BILLING_PAY_PER_REQUEST; }

const char *sl__sim_unit_name(const res_state *r, int dir) {
  if (sl__sim_on_demand(r))
    return dir ? "WRU" : "RRU";
  return dir ? "WCU" : "RCU";
}

uint64_t sl__sim_throttles(const dir_series *d) {
  return d->total_throttled[0] + d->total_throttled[1] + d->total_throttled[2] +
         d->total_throttled[3];
}

/* Highest accepted units per second over the steps. */
double sl__sim_peak_rate(const sl_sim *m, const int64_t *v) {
  double step_s = (double)m->s->step_us / 1e6, best = 0;
  for (size_t i = 0; i < m->n_steps; i++) {
    double x = (double)v[i] / 1000 / step_s;
    best = x > best ? x : best;
  }
  return best;
}

size_t sl__sim_hottest_keys(const sl_sim *m, sl__sim_hot_key *out) {
  size_t n = 0;
  for (uint32_t i = 0; i < m->s->n_workloads; i++) {
    const wl_state *w = &m->wl[i];
    for (uint64_t k = 0; k < w->n_keys; k++) {
      uint64_t req = w->key_req[k];
      if (!req || (n == TOP_KEYS && req <= out[n - 1].requests))
        continue;
      size_t at = n < TOP_KEYS ? n++ : TOP_KEYS - 1;
      while (at > 0 && out[at - 1].requests < req) {
        out[at] = out[at - 1];
        at--;
      }
      out[at] = (sl__sim_hot_key){i, k, req, w->key_thr[k]};
    }
  }
  return n;
}

/* The partition of 'r' holding 'hash'. */
static size_t partition_of(sl_sim *m, res_state *r, uint64_t hash) {
  size_t n = sl_cap_res_partitions(r->res);
  for (size_t i = 0; i < n; i++) {
    sl_cap_partition_info p;
    if (sl_cap_res_partition(m->cap, r->res, i, &p) && hash >= p.lo_hash &&
        (p.hi_hash == 0 || hash < p.hi_hash))
      return i;
  }
  return 0;
}

/* The workload whose keys dominate the traffic of 'ri', and its top key's
 * share of its requests. */
static double top_key_share(sl_sim *m, uint32_t ri, int dir, uint32_t *wl_out, uint64_t *key_out) {
  double best = 0;
  for (uint32_t i = 0; i < m->s->n_workloads; i++) {
    const wl_state *w = &m->wl[i];
    const sl_sim_workload *wl = w->w;
    uint32_t target = wl->index >= 0 ? m->gsi_res[wl->table][wl->index] : m->table_res[wl->table];
    if (target != ri || (int)sl_sim_op_writes((sl_sim_op)wl->op) != dir || !w->key_req)
      continue;
    uint64_t total = 0, top = 0, topk = 0;
    for (uint64_t k = 0; k < w->n_keys; k++) {
      total += w->key_req[k];
      if (w->key_req[k] > top) {
        top = w->key_req[k];
        topk = k;
      }
    }
    double share = total ? (double)top / (double)total : 0;
    if (share > best) {
      best = share;
      *wl_out = i;
      *key_out = topk;
    }
  }
  return best;
}

void sl__sim_fmt_num(sl_buf *b, double x) {
  /* 1234567.8 -> "1,234,568" */
  char tmp[48];
  snprintf(tmp, sizeof(tmp), "%.0f", x);
  size_t n = strlen(tmp), lead = tmp[0] == '-';
  for (size_t i = 0; i < n; i++) {
    sl_buf_putc(b, tmp[i]);
    size_t left = n - 1 - i;
    if (i >= lead && left && left % 3 == 0)
      sl_buf_putc(b, ',');
  }
}

/* The diagnosis, one finding per line, in the seeds' terms: the limit, the
 * resource, why, and what fixes it. */
void sl__sim_diagnose(sl_sim *m, sl_buf *b, size_t *n_out, sl_str *lines, size_t max) {
  size_t n = 0;
  for (uint32_t ri = 0; ri < m->n_res && n < max; ri++) {
    res_state *r = &m->res[ri];
    for (int dir = 0; dir < 2 && n < max; dir++) {
      dir_series *d = &r->d[dir];
      uint64_t thr = sl__sim_throttles(d);
      if (!thr)
        continue;
      int lim = 0;
      for (int l = 1; l < 4; l++)
        if (d->total_throttled[l] > d->total_throttled[lim])
          lim = l;
      const char *u = sl__sim_unit_name(r, dir);
      double peak = sl__sim_peak_rate(m, d->accepted_mu);
      size_t start = b->len;
      sl_buf_printf(b, "%s: %s throttled %llu times (first after %.2f s; %s, reason %s). ",
                    r->label.p, dir ? "writes" : "reads", (unsigned long long)thr,
                    (double)d->first_throttle_us / 1e6, sl__sim_limit_names[lim],
                    sl_cap_reason_name(r->is_index, (sl_cap_dir)dir, (sl_cap_limit)lim));
      if (lim == SL_LIMIT_KEY_RANGE) {
        uint32_t wi = 0;
        uint64_t key = 0;
        double share = top_key_share(m, ri, dir, &wi, &key);
        const sl_sim_table *t = &m->s->tables[r->table];
        const sl_sim_keys *gk = r->is_index ? &t->gsis[r->gsi].keys : NULL;
        double part_limit =
            (double)(dir ? m->params.partition_write_rate : m->params.partition_read_rate) *
            (1 + (double)m->params.key_range_tolerance_ppm / 1e6);
        /* One key offered more than a partition serves is a hot key whatever
         * its share (the head of a Zipf distribution at internet scale). */
        double key_rate = 0;
        if (share > 0 && m->wl[wi].requests) {
          const wl_state *kw = &m->wl[wi];
          double per_req = (double)d->total_offered_mu / 1000 / (double)kw->requests;
          key_rate = (double)kw->key_req[key] * per_req / ((double)m->s->duration_us / 1e6);
        }
        if (share >= 0.05 || key_rate > part_limit) {
          char kb[96];
          const sl_sim_keys *k = &m->wl[wi].w->keys;
          sl_str text = sl__sim_key_text(k, key, kb);
          size_t part = partition_of(m, r, sl__sim_key_hash(k, key));
          sl_buf_printf(b,
                        "Partition %zu of %s is held at about %.0f %s/s by one key, '%.*s' "
                        "(%.1f %% of the requests, offered %.0f %s/s): a partition serves at most "
                        "1,000 WCU / "
                        "3,000 RCU per second and one key never splits away, so more table "
                        "capacity will not help. Fix: shard the key (write it as '%.*s#1' .. "
                        "'%.*s#N' and read all N), or cache its reads.",
                        part, r->label.p, part_limit, u, SL_STR_FMT(text), share * 100, key_rate, u,
                        SL_STR_FMT(text), SL_STR_FMT(text));
        } else if (gk && (gk->kind == SL_KEYS_HOT || gk->kind == SL_KEYS_NAMED || gk->count < 16)) {
          sl_buf_printf(b,
                        "The GSI's partition key has few distinct values (%llu), so its writes "
                        "pile onto a few partitions: each takes at most 1,000 WCU/s, and GSI "
                        "back-pressure rejects the table's writes with it. Fix: add a "
                        "random suffix to the GSI key (and query every suffix), or choose a "
                        "key with more values.",
                        (unsigned long long)sl__sim_keys_space(gk));
        } else if (sl__sim_on_demand(r)) {
          sl_buf_printf(b,
                        "Keys are spread, so this is the on-demand table's ceiling: it serves "
                        "twice its previous peak (a new table: 4,000 WRU / 12,000 RRU per "
                        "second on %zu partitions) and grows only by splitting partitions for "
                        "heat (the first after ~8 minutes of heat, then one per 10 minutes, "
                        "~1,000 WRU/s each); accepted peaked at %.0f %s/s. Fix: pre-warm with "
                        "WarmThroughput (%s set to the peak you expect), or ramp traffic up.",
                        sl_cap_res_partitions(r->res), peak, u,
                        dir ? "WriteUnitsPerSecond" : "ReadUnitsPerSecond");
        } else {
          sl_buf_printf(b,
                        "Keys are spread, so the table's %zu partitions are the limit (1,000 "
                        "WCU / 3,000 RCU each); accepted peaked at %.0f %s/s. Fix: raise the "
                        "provisioned capacity (more partitions), or wait for splits for heat.",
                        sl_cap_res_partitions(r->res), peak, u);
        }
      } else if (lim == SL_LIMIT_PROVISIONED) {
        double offered = sl__sim_peak_rate(m, d->offered_mu);
        sl_buf_printf(b,
                      "%s is provisioned at %lld %s/s and was offered up to %.0f %s/s; burst "
                      "capacity (up to 300 s of unused capacity) covers short spikes only. "
                      "Fix: provision at least %.0f %s, switch to on-demand, or scale with "
                      "auto scaling.",
                      r->label.p, (long long)(dir ? r->tp.wcu : r->tp.rcu), u, offered, u,
                      ceil(offered * 1.1), u);
        if (r->minute_units[dir])
          sl_buf_printf(b,
                        " Auto scaling is on but acts on one-minute datapoints: a scale-out "
                        "comes about %lld minutes after a rise (%lld datapoints above the "
                        "target, visible %lld s late) and is sized by the consumed units, which "
                        "throttling holds down, so a short burst is throttled before it lands "
                        "(min capacity or a lower target leaves headroom).",
                        (long long)(m->params.scaling_out_datapoints +
                                    m->params.scaling_metric_delay_ms / 60000),
                        (long long)m->params.scaling_out_datapoints,
                        (long long)(m->params.scaling_metric_delay_ms / 1000));
      } else if (lim == SL_LIMIT_MAX_ON_DEMAND) {
        sl_buf_printf(b,
                      "The configured OnDemandThroughput %s = %lld caps %s. Fix: raise it, or "
                      "remove it (-1).",
                      dir ? "MaxWriteRequestUnits" : "MaxReadRequestUnits",
                      (long long)(dir ? r->tp.max_write_ru : r->tp.max_read_ru), r->label.p);
      } else {
        sl_buf_printf(b,
                      "The per-table quota (%lld %s/s) caps %s. Fix: ask AWS for a higher quota "
                      "(and raise table_quota_* in params to simulate it).",
                      (long long)(dir ? m->params.table_quota_write : m->params.table_quota_read),
                      u, r->label.p);
      }
      if (r->is_index && dir == SL_CAP_WRITE)
        sl_buf_printf(b,
                      " GSI back-pressure: every write to table %.*s that lands in this "
                      "index is rejected with it.",
                      SL_STR_FMT(m->s->tables[r->table].name));
      lines[n++] = sl_str_make((const char *)(uintptr_t)start, b->len - start);
      sl_buf_putc(b, 0);
    }
  }
  for (uint32_t i = 0; i < m->s->n_workloads && n < max; i++) {
    const wl_state *w = &m->wl[i];
    if (!w->requests)
      continue;
    double amp = (double)w->attempts / (double)w->requests;
    if (amp < 1.2)
      continue;
    size_t start = b->len;
    sl_buf_printf(b,
                  "Workload '%.*s' (retry %s) sent %.2f attempts per request: retries add load "
                  "where capacity is already short, so the throttled resource sees more "
                  "requests than the application makes, and backoff added %.0f ms per request "
                  "on average (worst %.1f s). Backoff with jitter (standard, adaptive) "
                  "spreads them; fixing the limit above removes them.",
                  SL_STR_FMT(w->w->name), sl_sim_retry_name((sl_sim_retry)w->w->client.retry), amp,
                  w->lat_sum_ms / (double)(w->succeeded + w->failed ? w->succeeded + w->failed : 1),
                  (double)w->lat_max_us / 1e6);
    lines[n++] = sl_str_make((const char *)(uintptr_t)start, b->len - start);
    sl_buf_putc(b, 0);
  }
  /* The control plane: auto scaling that burnt the decrease budget (seed
   * 002), and actions the control plane refused. */
  for (uint32_t ri = 0; ri < m->n_res && n < max; ri++) {
    res_state *r = &m->res[ri];
    for (int dir = 0; dir < 2 && n < max; dir++) {
      if (!r->scale_ins_refused[dir])
        continue;
      int64_t first = -1;
      for (size_t i = 0; i < m->n_cp && first < 0; i++)
        if (!m->cp[i].ok && m->cp[i].res == ri && m->cp[i].dir == dir)
          first = m->cp[i].at_us;
      size_t start = b->len;
      sl_buf_printf(b,
                    "Auto scaling of %s %s capacity oscillated: %u scale-outs and %u scale-ins, "
                    "then %u scale-ins refused from %.0f s (minute %.0f) with "
                    "LimitExceededException: \"Subscriber limit exceeded: Provisioned "
                    "throughput decreases are limited within a given UTC day\" — the decrease "
                    "budget (%lld at any time, then one per %lld minutes, %lld a day) is spent, "
                    "so the capacity stays at the last peak and is paid for. Fix: raise the "
                    "target utilization and add a scale-in cooldown (scale_in_cooldown_s) so "
                    "it stops lowering capacity after every dip, make fewer larger decreases, "
                    "or switch a bursty workload to on-demand (PAY_PER_REQUEST), which has no "
                    "decrease budget.",
                    r->label.p, dir ? "write" : "read", r->scale_outs[dir], r->scale_ins[dir],
                    r->scale_ins_refused[dir], (double)first / 1e6, floor((double)first / 6e7),
                    (long long)m->params.decreases_free,
                    (long long)(m->params.decrease_interval_ms / 60000),
                    (long long)m->params.decreases_max);
      lines[n++] = sl_str_make((const char *)(uintptr_t)start, b->len - start);
      sl_buf_putc(b, 0);
    }
  }
  for (size_t i = 0; i < m->n_cp && n < max; i++) {
    const cp_event *e = &m->cp[i];
    if (e->ok || e->dir >= 0)
      continue;
    size_t start = b->len;
    sl_buf_printf(b, "%s at %.0f s was refused: %s. Nothing changed.", e->what,
                  (double)e->at_us / 1e6, e->error);
    lines[n++] = sl_str_make((const char *)(uintptr_t)start, b->len - start);
    sl_buf_putc(b, 0);
  }
  if (!n) {
    size_t start = b->len;
    sl_buf_puts(b, SL_STR("No throttling: the design serves the offered load."));
    for (uint32_t ri = 0; ri < m->n_res; ri++) {
      res_state *r = &m->res[ri];
      for (int dir = 0; dir < 2; dir++) {
        double peak = sl__sim_peak_rate(m, r->d[dir].accepted_mu);
        if (peak <= 0)
          continue;
        sl_buf_printf(b, " %s peaked at %.0f %s/s %s", r->label.p, peak, sl__sim_unit_name(r, dir),
                      dir ? "of writes" : "of reads");
        if (!sl__sim_on_demand(r))
          sl_buf_printf(b, " of %lld provisioned", (long long)(dir ? r->tp.wcu : r->tp.rcu));
        sl_buf_putc(b, '.');
      }
    }
    lines[n++] = sl_str_make((const char *)(uintptr_t)start, b->len - start);
    sl_buf_putc(b, 0);
  }
  /* Offsets become pointers now that the buffer stops moving. */
  for (size_t i = 0; i < n; i++)
    lines[i].p = b->p + (uintptr_t)lines[i].p;
  *n_out = n;
}

sl__sim_cost sl__sim_cost_of(const sl_sim *m, const res_state *r) {
  const sl_sim_prices *p = &m->s->prices;
  sl__sim_cost c = {0};
  if (sl__sim_on_demand(r)) {
    c.read_units = (double)r->d[0].total_accepted_mu / 1000;
    c.write_units = (double)r->d[1].total_accepted_mu / 1000;
  }
  c.rcu_hours = r->provisioned_unit_hours[0];
  c.wcu_hours = r->provisioned_unit_hours[1];
  c.dollars = sl_price_dollars(p, c.read_units, c.write_units, c.rcu_hours, c.wcu_hours);
  return c;
}

double sl__sim_latency_quantile(const wl_state *w, double q) {
  uint64_t total = 0;
  for (size_t i = 0; i < LAT_BUCKETS; i++)
    total += w->lat_hist[i];
  if (!total)
    return 0;
  uint64_t want = (uint64_t)ceil(q * (double)total), seen = 0;
  for (size_t i = 0; i < LAT_BUCKETS; i++) {
    seen += w->lat_hist[i];
    if (seen >= want)
      return i < 100 ? (double)i : 100 + (double)(i - 100) * 100;
  }
  return 0;
}

/* ---- JSON ---- */

static void j_u32s(sl_jw *w, const char *key, const uint32_t *v, size_t n) {
  sl_jw_key_c(w, key);
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++)
    sl_jw_uint(w, v[i]);
  sl_jw_arr_end(w);
}

static void j_num(sl_jw *w, const char *key, double v) {
  char buf[64];
  if (v == floor(v) && fabs(v) < 1e15)
    snprintf(buf, sizeof(buf), "%.0f", v);
  else
    snprintf(buf, sizeof(buf), "%.6g", v);
  sl_jw_key_c(w, key);
  sl_jw_number_raw(w, sl_str_c(buf));
}

static void j_nums(sl_jw *w, const char *key, const int64_t *v, size_t n, double scale) {
  sl_jw_key_c(w, key);
  sl_jw_arr_begin(w);
  char buf[64];
  for (size_t i = 0; i < n; i++) {
    double x = (double)v[i] * scale;
    if (x == floor(x) && fabs(x) < 1e15)
      snprintf(buf, sizeof(buf), "%.0f", x);
    else
      snprintf(buf, sizeof(buf), "%.6g", x);
    sl_jw_number_raw(w, sl_str_c(buf));
  }
  sl_jw_arr_end(w);
}

static void j_str(sl_jw *w, const char *key, sl_str v) {
  sl_jw_key_c(w, key);
  sl_jw_str(w, v);
}

void sl_sim_write_json(sl_sim *m, sl_buf *out) {
  const sl_scenario *s = m->s;
  sl_jw w;
  sl_jw_init(&w, out);
  double step_s = (double)s->step_us / 1e6;
  double sim_s = (double)s->duration_us / 1e6;
  sl_jw_obj_begin(&w);
  j_str(&w, "scenario", s->name);
  j_num(&w, "seed", (double)s->seed);
  j_num(&w, "duration_s", sim_s);
  j_num(&w, "step_s", step_s);
  j_num(&w, "wall_s", m->wall_s);
  j_num(&w, "cpu_s", m->cpu_s);
  sl_jw_key_c(&w, "mode");
  sl_jw_str_c(&w, s->aggregate ? "aggregate" : "requests");
  if (s->aggregate) {
    sl_buf note;
    sl_buf_init(&note, NULL);
    sl__sim_aggregate_note(m, &note);
    sl_jw_key_c(&w, "mode_note");
    sl_jw_str(&w, sl_str_make(note.p, note.len));
    sl_buf_free(&note);
  }
  j_num(&w, "simulated_seconds_per_wall_second", m->wall_s > 0 ? sim_s / m->wall_s : 0);
  j_num(&w, "attempts", (double)m->total_attempts);
  sl_jw_key_c(&w, "time_s");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < m->n_steps; i++) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%.6g", (double)i * step_s);
    sl_jw_number_raw(&w, sl_str_c(buf));
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "resources");
  sl_jw_arr_begin(&w);
  double total_dollars = 0;
  for (uint32_t ri = 0; ri < m->n_res; ri++) {
    res_state *r = &m->res[ri];
    sl_jw_obj_begin(&w);
    j_str(&w, "name", r->name);
    sl_jw_key_c(&w, "kind");
    sl_jw_str_c(&w, r->is_index ? "GSI" : "table");
    j_str(&w, "table", s->tables[r->table].name);
    j_str(&w, "arn", r->arn);
    sl_jw_key_c(&w, "billing_mode");
    sl_jw_str_c(&w, sl__sim_on_demand(r) ? "PAY_PER_REQUEST" : "PROVISIONED");
    j_num(&w, "partitions", (double)sl_cap_res_partitions(r->res));
    j_num(&w, "partitions_added", r->parts_added);
    for (int dir = 0; dir < 2; dir++) {
      dir_series *d = &r->d[dir];
      sl_jw_key_c(&w, dir ? "write" : "read");
      sl_jw_obj_begin(&w);
      sl_jw_key_c(&w, "units");
      sl_jw_str_c(&w, sl__sim_unit_name(r, dir));
      j_num(&w, "offered_units", (double)d->total_offered_mu / 1000);
      j_num(&w, "accepted_units", (double)d->total_accepted_mu / 1000);
      j_num(&w, "accepted_events", (double)d->total_accepted);
      j_num(&w, "throttled_events", (double)sl__sim_throttles(d));
      j_num(&w, "peak_accepted_units_per_s", sl__sim_peak_rate(m, d->accepted_mu));
      sl_jw_key_c(&w, "first_throttle_s");
      if (d->first_throttle_us < 0)
        sl_jw_null(&w);
      else
        sl_jw_double(&w, (double)d->first_throttle_us / 1e6);
      sl_jw_key_c(&w, "throttled_by_reason");
      sl_jw_obj_begin(&w);
      for (int l = 0; l < 4; l++)
        if (d->total_throttled[l])
          j_num(&w, sl_cap_reason_name(r->is_index, (sl_cap_dir)dir, (sl_cap_limit)l),
                (double)d->total_throttled[l]);
      sl_jw_obj_end(&w);
      sl_jw_key_c(&w, "series");
      sl_jw_obj_begin(&w);
      j_nums(&w, "offered_units_per_s", d->offered_mu, m->n_steps, 1.0 / 1000 / step_s);
      j_nums(&w, "accepted_units_per_s", d->accepted_mu, m->n_steps, 1.0 / 1000 / step_s);
      j_u32s(&w, "accepted_events", d->accepted, m->n_steps);
      for (int l = 0; l < 4; l++)
        if (d->total_throttled[l])
          j_u32s(&w, sl__sim_limit_names[l], d->throttled[l], m->n_steps);
      if (!sl__sim_on_demand(r))
        j_nums(&w, "provisioned_units", d->provisioned, m->n_steps, 1);
      sl_jw_obj_end(&w);
      sl_jw_obj_end(&w);
    }
    sl_jw_key_c(&w, "partitions_series");
    sl_jw_arr_begin(&w);
    for (size_t i = 0; i < m->n_steps; i++)
      sl_jw_uint(&w, r->partitions[i]);
    sl_jw_arr_end(&w);
    sl_jw_key_c(&w, "partitions_at_end");
    sl_jw_arr_begin(&w);
    size_t np = sl_cap_res_partitions(r->res);
    for (size_t i = 0; i < np; i++) {
      sl_cap_partition_info p;
      if (!sl_cap_res_partition(m->cap, r->res, i, &p))
        continue;
      sl_jw_obj_begin(&w);
      char hb[24];
      snprintf(hb, sizeof(hb), "%016llx", (unsigned long long)p.lo_hash);
      sl_jw_key_c(&w, "from_hash");
      sl_jw_str_c(&w, hb);
      for (int dir = 0; dir < 2; dir++) {
        sl_jw_key_c(&w, dir ? "write" : "read");
        sl_jw_obj_begin(&w);
        j_num(&w, "consumed_last_minute_per_s", (double)p.consumed_minute_mu[dir] / 1000 / 60);
        j_num(&w, "limit_per_s", (double)p.rate_mu[dir] / 1000);
        j_num(&w, "throttles", (double)p.throttles[dir]);
        sl_jw_obj_end(&w);
      }
      sl_jw_key_c(&w, "hot");
      sl_jw_bool(&w, p.hot);
      sl_jw_obj_end(&w);
    }
    sl_jw_arr_end(&w);
    sl__sim_cost c = sl__sim_cost_of(m, r);
    total_dollars += c.dollars;
    sl_jw_key_c(&w, "cost");
    sl_jw_obj_begin(&w);
    j_num(&w, "read_request_units", c.read_units);
    j_num(&w, "write_request_units", c.write_units);
    j_num(&w, "rcu_hours", c.rcu_hours);
    j_num(&w, "wcu_hours", c.wcu_hours);
    j_num(&w, "dollars", c.dollars);
    sl_jw_obj_end(&w);
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "workloads");
  sl_jw_arr_begin(&w);
  for (uint32_t i = 0; i < s->n_workloads; i++) {
    wl_state *x = &m->wl[i];
    sl_jw_obj_begin(&w);
    j_str(&w, "name", x->w->name);
    sl_jw_key_c(&w, "operation");
    sl_jw_str_c(&w, sl_sim_op_name((sl_sim_op)x->w->op));
    sl_jw_key_c(&w, "retry");
    sl_jw_str_c(&w, sl_sim_retry_name((sl_sim_retry)x->w->client.retry));
    j_num(&w, "requests", (double)x->requests);
    j_num(&w, "attempts", (double)x->attempts);
    j_num(&w, "attempts_per_request", x->requests ? (double)x->attempts / (double)x->requests : 0);
    j_num(&w, "throttled_attempts", (double)x->throttled_attempts);
    j_num(&w, "succeeded", (double)x->succeeded);
    j_num(&w, "failed", (double)x->failed);
    j_num(&w, "unprocessed_resends", (double)x->resends);
    j_num(&w, "in_flight_at_end", (double)x->in_flight_end);
    sl_jw_key_c(&w, "errors");
    sl_jw_obj_begin(&w);
    for (int o = 1; o < 5; o++)
      if (x->outcomes[o])
        j_num(&w, sl__sim_outcome_names[o], (double)x->outcomes[o]);
    sl_jw_obj_end(&w);
    sl_jw_key_c(&w, "latency_added_ms");
    sl_jw_obj_begin(&w);
    uint64_t done = x->succeeded + x->failed;
    j_num(&w, "mean", done ? x->lat_sum_ms / (double)done : 0);
    j_num(&w, "p50", sl__sim_latency_quantile(x, 0.5));
    j_num(&w, "p99", sl__sim_latency_quantile(x, 0.99));
    j_num(&w, "max", (double)x->lat_max_us / 1000);
    sl_jw_obj_end(&w);
    sl_jw_key_c(&w, "series");
    sl_jw_obj_begin(&w);
    j_u32s(&w, "requests", x->s_requests, m->n_steps);
    j_u32s(&w, "attempts", x->s_attempts, m->n_steps);
    j_u32s(&w, "throttled_attempts", x->s_throttled, m->n_steps);
    j_u32s(&w, "succeeded", x->s_succeeded, m->n_steps);
    j_u32s(&w, "failed", x->s_failed, m->n_steps);
    if (x->w->client.retry == SL_RETRY_ADAPTIVE) {
      sl_jw_key_c(&w, "client_rate_limit");
      sl_jw_arr_begin(&w);
      for (size_t k = 0; k < m->n_steps; k++) {
        char buf[32];
        snprintf(buf, sizeof(buf), "%.1f", x->s_rate_limit[k]);
        sl_jw_number_raw(&w, sl_str_c(buf));
      }
      sl_jw_arr_end(&w);
    }
    sl_jw_obj_end(&w);
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl__sim_hot_key hk[TOP_KEYS];
  size_t nk = sl__sim_hottest_keys(m, hk);
  sl_jw_key_c(&w, "hottest_keys");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < nk; i++) {
    char kb[96];
    const sl_sim_keys *k = &m->wl[hk[i].wl].w->keys;
    sl_jw_obj_begin(&w);
    j_str(&w, "key", sl__sim_key_text(k, hk[i].idx, kb));
    j_str(&w, "workload", m->wl[hk[i].wl].w->name);
    j_num(&w, "requests", hk[i].requests);
    j_num(&w, "throttled", hk[i].throttled);
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "cost");
  sl_jw_obj_begin(&w);
  j_num(&w, "dollars", total_dollars);
  sl_jw_key_c(&w, "prices");
  sl_jw_obj_begin(&w);
  j_str(&w, "date", s->prices.date);
  j_num(&w, "write_request_per_million", s->prices.write_per_million);
  j_num(&w, "read_request_per_million", s->prices.read_per_million);
  j_num(&w, "wcu_hour", s->prices.wcu_hour);
  j_num(&w, "rcu_hour", s->prices.rcu_hour);
  sl_jw_obj_end(&w);
  sl_jw_obj_end(&w);
  /* actions and auto-scaling activities, done or refused */
  sl_jw_key_c(&w, "control_plane");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < m->n_cp; i++) {
    const cp_event *e = &m->cp[i];
    sl_jw_obj_begin(&w);
    j_num(&w, "time_s", (double)e->at_us / 1e6);
    j_str(&w, "resource", m->res[e->res].label);
    sl_jw_key_c(&w, "kind");
    sl_jw_str_c(&w, e->dir < 0 ? "action" : "autoscaling");
    if (e->dir >= 0) {
      sl_jw_key_c(&w, "direction");
      sl_jw_str_c(&w, e->dir ? "write" : "read");
      j_num(&w, "from", (double)e->from);
      j_num(&w, "to", (double)e->to);
    }
    j_str(&w, "description", sl_str_c(e->what));
    sl_jw_key_c(&w, "status");
    sl_jw_str_c(&w, e->ok ? "Successful" : "Failed");
    if (e->error)
      j_str(&w, "message", sl_str_c(e->error));
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_buf db;
  sl_buf_init(&db, NULL);
  sl_str lines[64];
  size_t nl;
  sl__sim_diagnose(m, &db, &nl, lines, 64);
  sl_jw_key_c(&w, "diagnosis");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < nl; i++)
    sl_jw_str(&w, lines[i]);
  sl_jw_arr_end(&w);
  sl_buf_free(&db);
  sl_jw_obj_end(&w);
  sl_buf_putc(out, '\n');
}

void sl__sim_aggregate_note(const sl_sim *m, sl_buf *b) {
  sl_buf_printf(b,
                "Aggregate mode: requests counted per partition and %g ms step, not one by one. "
                "On the seed scenarios it departs from the per-request mode by at most 0.5 %% "
                "of accepted units and 0.3 s of the first throttle; with retries, batches and "
                "transactions, client attempts per request by up to 16 %% (legacy's fixed "
                "backoff; batches 12 %%, an application loop and the SDK standard modes 4 %%), "
                "and the "
                "adaptive retry mode's successes by 5 %% and its added latency by 6 %% "
                "(docs/simulate.md, \"The aggregate mode\").",
                (double)m->s->aggregate_step_us / 1000);
}

/* ---- text ---- */

void sl_sim_write_text(sl_sim *m, sl_buf *b) {
  const sl_scenario *s = m->s;
  double sim_s = (double)s->duration_us / 1e6;
  sl_buf_printf(b, "scenario: %.*s (seed %llu)\n", SL_STR_FMT(s->name),
                (unsigned long long)s->seed);
  sl_buf_printf(b,
                "simulated %.0f s in %.2f s of wall time, %.2f s of CPU (%.0f simulated seconds "
                "per second; %s mode), ",
                sim_s, m->wall_s, m->cpu_s, m->wall_s > 0 ? sim_s / m->wall_s : 0,
                s->aggregate ? "aggregate" : "per-request");
  sl__sim_fmt_num(b, (double)m->total_attempts);
  sl_buf_puts(b, SL_STR(" attempts\n"));
  if (s->aggregate) {
    sl__sim_aggregate_note(m, b);
    sl_buf_puts(b, SL_STR("\n"));
  }
  sl_buf_puts(b, SL_STR("\nresources\n"));
  double total = 0;
  for (uint32_t ri = 0; ri < m->n_res; ri++) {
    res_state *r = &m->res[ri];
    sl_buf_printf(b, "  %s (%s, %zu partitions at the end, %u added)\n", r->label.p,
                  sl__sim_on_demand(r) ? "on-demand" : "provisioned", sl_cap_res_partitions(r->res),
                  r->parts_added);
    for (int dir = 0; dir < 2; dir++) {
      dir_series *d = &r->d[dir];
      if (!d->total_offered_mu && sl__sim_on_demand(r))
        continue;
      sl_buf_printf(b, "    %-6s offered ", dir ? "writes" : "reads");
      sl__sim_fmt_num(b, (double)d->total_offered_mu / 1000);
      sl_buf_printf(b, " %s, accepted ", sl__sim_unit_name(r, dir));
      sl__sim_fmt_num(b, (double)d->total_accepted_mu / 1000);
      sl_buf_printf(b, " (peak %.0f/s)", sl__sim_peak_rate(m, d->accepted_mu));
      if (!sl__sim_on_demand(r))
        sl_buf_printf(b, ", provisioned %lld", (long long)(dir ? r->tp.wcu : r->tp.rcu));
      uint64_t thr = sl__sim_throttles(d);
      if (thr) {
        sl_buf_puts(b, SL_STR(", throttled "));
        sl__sim_fmt_num(b, (double)thr);
        sl_buf_printf(b, " (first after %.2f s:", (double)d->first_throttle_us / 1e6);
        for (int l = 0; l < 4; l++)
          if (d->total_throttled[l]) {
            sl_buf_printf(b, " %s ",
                          sl_cap_reason_name(r->is_index, (sl_cap_dir)dir, (sl_cap_limit)l));
            sl__sim_fmt_num(b, (double)d->total_throttled[l]);
          }
        sl_buf_putc(b, ')');
      }
      sl_buf_putc(b, '\n');
    }
    sl__sim_cost c = sl__sim_cost_of(m, r);
    total += c.dollars;
  }
  sl_buf_puts(b, SL_STR("\nworkloads\n"));
  for (uint32_t i = 0; i < s->n_workloads; i++) {
    wl_state *x = &m->wl[i];
    sl_buf_printf(b, "  %.*s (%s, retry %s): ", SL_STR_FMT(x->w->name),
                  sl_sim_op_name((sl_sim_op)x->w->op),
                  sl_sim_retry_name((sl_sim_retry)x->w->client.retry));
    sl__sim_fmt_num(b, (double)x->requests);
    sl_buf_puts(b, SL_STR(" requests, "));
    sl__sim_fmt_num(b, (double)x->attempts);
    sl_buf_printf(b, " attempts (%.2f per request), ",
                  x->requests ? (double)x->attempts / (double)x->requests : 0);
    sl__sim_fmt_num(b, (double)x->succeeded);
    sl_buf_puts(b, SL_STR(" succeeded, "));
    sl__sim_fmt_num(b, (double)x->failed);
    uint64_t done = x->succeeded + x->failed;
    sl_buf_printf(b, " failed; latency added by backoff: mean %.1f ms, p99 %.0f ms",
                  done ? x->lat_sum_ms / (double)done : 0, sl__sim_latency_quantile(x, 0.99));
    if (x->in_flight_end) {
      sl_buf_puts(b, SL_STR("; "));
      sl__sim_fmt_num(b, (double)x->in_flight_end);
      sl_buf_puts(b, SL_STR(" still waiting to be sent or retried at the end"));
    }
    sl_buf_putc(b, '\n');
  }
  sl__sim_hot_key hk[TOP_KEYS];
  size_t nk = sl__sim_hottest_keys(m, hk);
  if (nk) {
    sl_buf_puts(b, SL_STR("\nhottest keys\n"));
    for (size_t i = 0; i < nk && i < 5; i++) {
      char kb[96];
      sl_str t = sl__sim_key_text(&m->wl[hk[i].wl].w->keys, hk[i].idx, kb);
      sl_buf_printf(b, "  %-24.*s ", SL_STR_FMT(t));
      sl__sim_fmt_num(b, (double)hk[i].requests);
      sl_buf_puts(b, SL_STR(" requests, "));
      sl__sim_fmt_num(b, (double)hk[i].throttled);
      sl_buf_printf(b, " throttled (workload %.*s)\n", SL_STR_FMT(m->wl[hk[i].wl].w->name));
    }
  }
  sl_buf_printf(b,
                "\ncost: $%.3f (prices of %.*s: $%g per million WRU, $%g per million RRU, $%g "
                "per WCU-hour, $%g per RCU-hour)\n",
                total, SL_STR_FMT(s->prices.date), s->prices.write_per_million,
                s->prices.read_per_million, s->prices.wcu_hour, s->prices.rcu_hour);
  if (m->n_cp) {
    size_t refused = 0;
    for (size_t i = 0; i < m->n_cp; i++)
      refused += !m->cp[i].ok;
    sl_buf_printf(b, "\ncontrol plane: %zu changes, %zu refused\n", m->n_cp, refused);
    size_t shown = 0;
    for (size_t i = 0; i < m->n_cp; i++) {
      const cp_event *e = &m->cp[i];
      /* the first 30 (the JSON has them all) */
      if (shown == 30)
        break;
      shown++;
      sl_buf_printf(b, "  %9.1f s  %-10s %s%s%s\n", (double)e->at_us / 1e6,
                    e->ok ? "Successful" : "Failed", e->dir < 0 ? "" : m->res[e->res].label.p,
                    e->dir < 0 ? "" : ": ", e->what);
      if (e->error)
        sl_buf_printf(b, "             %s\n", e->error);
    }
    if (shown < m->n_cp)
      sl_buf_printf(b, "  ... %zu more (--json lists every one)\n", m->n_cp - shown);
  }
  sl_buf db;
  sl_buf_init(&db, NULL);
  sl_str lines[64];
  size_t nl;
  sl__sim_diagnose(m, &db, &nl, lines, 64);
  sl_buf_puts(b, SL_STR("\ndiagnosis\n"));
  for (size_t i = 0; i < nl; i++)
    sl_buf_printf(b, "  - %.*s\n", SL_STR_FMT(lines[i]));
  sl_buf_free(&db);
}

/* ---- CSV ---- */

void sl_sim_write_csv(sl_sim *m, sl_buf *b) {
  double step_s = (double)m->s->step_us / 1e6;
  sl_buf_puts(b, SL_STR("time_s,resource,kind,direction,units,offered_units_per_s,"
                        "accepted_units_per_s,accepted_events,MaxOnDemandThroughputExceeded,"
                        "AccountLimitExceeded,ProvisionedThroughputExceeded,"
                        "KeyRangeThroughputExceeded,provisioned,partitions\n"));
  for (size_t i = 0; i < m->n_steps; i++)
    for (uint32_t ri = 0; ri < m->n_res; ri++) {
      res_state *r = &m->res[ri];
      for (int dir = 0; dir < 2; dir++) {
        dir_series *d = &r->d[dir];
        sl_buf_printf(b, "%g,%.*s,%s,%s,%s,%g,%g,%u,%u,%u,%u,%u,%lld,%u\n", (double)i * step_s,
                      SL_STR_FMT(r->name), r->is_index ? "GSI" : "table", dir ? "write" : "read",
                      sl__sim_unit_name(r, dir), (double)d->offered_mu[i] / 1000 / step_s,
                      (double)d->accepted_mu[i] / 1000 / step_s, d->accepted[i], d->throttled[0][i],
                      d->throttled[1][i], d->throttled[2][i], d->throttled[3][i],
                      (long long)d->provisioned[i], r->partitions[i]);
      }
    }
}
