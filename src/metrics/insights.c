/*
 * Contributor Insights: per table or GSI, the enablement state the three
 * *ContributorInsights operations report, and while enabled, per minute, a
 * space-saving top-k of partition keys and of partition+sort keys by consumed
 * throughput units and by throttle count. See metrics.h (facts §8 and
 * DG contributorinsights_HowItWorks: consumed throughput units = 3 x write
 * units + read units; throttle count = throttled requests of the key).
 */
#include "metrics/metrics_int.h"
#include "base/log.h"

#include <stdlib.h>
#include <xxhash.h>

/* Counters per list: twice the k reported, so the reported keys are
 * the sketch's well-separated head. */
#define CI_COUNTERS (2 * SL_METRICS_TOPK)
/* Parts of a partition+sort key kept (the pair must fit SL_TOPK_KEY_MAX). */
#define CI_PART_MAX ((SL_TOPK_KEY_MAX - 4) / 2)

static void minute_free(sl__ci_minute *mm) {
  if (!mm)
    return;
  for (int i = 0; i < SL__CI_LISTS; i++)
    sl_topk_free(&mm->lists[i]);
  free(mm);
}

static void clear_minutes(sl__ci *c) {
  for (size_t i = 0; i < SL_CI_MINUTES; i++) {
    minute_free(c->mins[i]);
    c->mins[i] = NULL;
  }
}

void sl__ci_free(sl__ci *c) {
  clear_minutes(c);
  free(c);
}

static sl__ci *find(const sl_metrics *m, sl_str table, sl_str index) {
  for (sl__ci *c = m->ci; c; c = c->next)
    if (sl_str_eq(c->table, table) && sl_str_eq(c->index, index))
      return c;
  return NULL;
}

static sl__ci *make(sl_metrics *m, sl_str table, sl_str index) {
  sl__ci *c = calloc(1, sizeof(*c) + table.len + index.len);
  SL_ASSERT(c);
  if (table.len)
    memcpy(c->names, table.p, table.len);
  if (index.len)
    memcpy(c->names + table.len, index.p, index.len);
  c->table = sl_str_make(c->names, table.len);
  c->index = sl_str_make(c->names + table.len, index.len);
  c->next = m->ci;
  m->ci = c;
  return c;
}

static uint64_t generation_of(sl_str table_id) {
  return XXH3_64bits(table_id.p, table_id.len) | 1; /* 0: a fresh state */
}

void sl_metrics_ci_set(sl_metrics *m, sl_str table, sl_str index, sl_str table_id,
                       sl_ci_mode mode) {
  uint64_t generation = generation_of(table_id);
  int64_t now = sl__metrics_now_ms(m);
  sl__ci *c = find(m, table, index);
  if (!c)
    c = make(m, table, index);
  if (c->generation != generation) {
    /* A state left by a dropped table of the same name. */
    if (c->state.mode != SL_CI_DISABLED)
      m->ci_enabled--;
    memset(&c->state, 0, sizeof(c->state));
    clear_minutes(c);
    c->generation = generation;
  }
  bool was = c->state.mode != SL_CI_DISABLED;
  if (mode != SL_CI_DISABLED) {
    if (!was) {
      c->state.created_ms = now;
      m->ci_enabled++;
    }
  } else {
    if (was)
      m->ci_enabled--;
    clear_minutes(c);
  }
  c->state.mode = mode;
  c->state.updated_ms = now;
}

sl_ci_state sl_metrics_ci_get(const sl_metrics *m, sl_str table, sl_str index, sl_str table_id) {
  const sl__ci *c = find(m, table, index);
  if (!c || c->generation != generation_of(table_id))
    return (sl_ci_state){0};
  return c->state;
}

bool sl_metrics_ci_any(const sl_metrics *m) { return m->ci_enabled > 0; }

sl_ci_mode sl_metrics_ci_mode(const sl_metrics *m, sl_str table, sl_str index) {
  if (!m->ci_enabled)
    return SL_CI_DISABLED;
  const sl__ci *c = find(m, table, index);
  return c ? c->state.mode : SL_CI_DISABLED;
}

void sl__ci_forget_table(sl_metrics *m, sl_str table) {
  sl__ci **link = &m->ci;
  while (*link) {
    sl__ci *c = *link;
    if (!sl_str_eq(c->table, table)) {
      link = &c->next;
      continue;
    }
    if (c->state.mode != SL_CI_DISABLED)
      m->ci_enabled--;
    *link = c->next;
    sl__ci_free(c);
  }
}

static sl__ci_minute *minute_get(sl__ci *c, int64_t minute) {
  sl__ci_minute **pm = &c->mins[minute % SL_CI_MINUTES];
  if (*pm && (*pm)->minute == minute)
    return *pm;
  if (*pm && (*pm)->minute > minute)
    return NULL;
  minute_free(*pm);
  *pm = calloc(1, sizeof(sl__ci_minute));
  SL_ASSERT(*pm);
  (*pm)->minute = minute;
  for (int i = 0; i < SL__CI_LISTS; i++)
    sl_topk_init(&(*pm)->lists[i], CI_COUNTERS);
  return *pm;
}

/* A partition+sort key as one sketch key: pk length (4 bytes), pk, sk. */
static sl_str pair_key(char *buf, sl_str pk, sl_str sk) {
  if (pk.len > CI_PART_MAX)
    pk.len = CI_PART_MAX;
  if (sk.len > CI_PART_MAX)
    sk.len = CI_PART_MAX;
  uint32_t n = (uint32_t)pk.len;
  memcpy(buf, &n, 4);
  if (pk.len)
    memcpy(buf + 4, pk.p, pk.len);
  if (sk.len)
    memcpy(buf + 4 + pk.len, sk.p, sk.len);
  return sl_str_make(buf, 4 + pk.len + sk.len);
}

void sl_metrics_ci_key(sl_metrics *m, sl_str table, sl_str index, sl_str pk, sl_str sk, bool write,
                       int64_t mu, bool throttled) {
  if (!m->ci_enabled)
    return;
  sl__ci *c = find(m, table, index);
  if (!c || c->state.mode == SL_CI_DISABLED)
    return;
  if (!throttled && c->state.mode == SL_CI_THROTTLED_ONLY)
    return;
  sl__ci_minute *mm = minute_get(c, sl__metrics_now_ms(m) / 60000);
  if (!mm)
    return;
  int64_t weight = throttled ? 1 : write ? 3 * mu : mu;
  sl_topk_add(&mm->lists[throttled ? SL__CI_PKT : SL__CI_PKC], pk, weight);
  if (sk.len) {
    char buf[SL_TOPK_KEY_MAX];
    sl_topk_add(&mm->lists[throttled ? SL__CI_SKT : SL__CI_SKC], pair_key(buf, pk, sk), weight);
  }
}

/* ---- exposition ---- */

static int key_cmp(const void *a, const void *b) {
  const sl_topk_entry *x = a, *y = b;
  return sl_str_cmp(sl_str_make(x->key, x->len), sl_str_make(y->key, y->len));
}

static int count_cmp(const void *a, const void *b) {
  const sl_topk_entry *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return key_cmp(a, b);
}

/* The top keys of one list over the window, merged across minutes: counts
 * and possible overcounts add up. */
static void write_list(sl_jw *w, const sl__ci *c, int list, int64_t lo, int64_t hi) {
  size_t n = 0, cap = 0;
  sl_topk_entry *all = NULL;
  for (size_t i = 0; i < SL_CI_MINUTES; i++) {
    const sl__ci_minute *mm = c->mins[i];
    if (!mm || mm->minute < lo || mm->minute > hi)
      continue;
    const sl_topk *t = &mm->lists[list];
    if (n + t->n > cap) {
      cap = (n + t->n) * 2;
      all = realloc(all, cap * sizeof(sl_topk_entry));
      SL_ASSERT(all);
    }
    if (t->n)
      memcpy(all + n, t->e, t->n * sizeof(sl_topk_entry));
    n += t->n;
  }
  size_t k = 0;
  if (n) {
    qsort(all, n, sizeof(sl_topk_entry), key_cmp);
    for (size_t i = 0; i < n; i++) {
      if (k && key_cmp(&all[k - 1], &all[i]) == 0) {
        all[k - 1].count += all[i].count;
        all[k - 1].error += all[i].error;
      } else {
        all[k++] = all[i];
      }
    }
    qsort(all, k, sizeof(sl_topk_entry), count_cmp);
  }
  bool throttled = list == SL__CI_PKT || list == SL__CI_SKT;
  bool pair = list == SL__CI_SKC || list == SL__CI_SKT;
  double scale = throttled ? 1.0 : 1000.0;
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < k && i < SL_METRICS_TOPK; i++) {
    const sl_topk_entry *e = &all[i];
    sl_jw_obj_begin(w);
    sl_str pk = sl_str_make(e->key, e->len), sk = SL_STR_NULL;
    if (pair) {
      uint32_t pl = 0;
      if (e->len >= 4)
        memcpy(&pl, e->key, 4);
      if (pl > e->len - 4)
        pl = e->len - 4;
      pk = sl_str_make(e->key + 4, pl);
      sk = sl_str_make(e->key + 4 + pl, e->len - 4 - pl);
    }
    sl_jw_key_c(w, "partition_key");
    sl_jw_str(w, pk);
    if (pair) {
      sl_jw_key_c(w, "sort_key");
      sl_jw_str(w, sk);
    }
    sl_jw_key_c(w, throttled ? "throttle_count" : "consumed_throughput_units");
    sl_jw_double(w, (double)e->count / scale);
    sl_jw_key_c(w, "max_overcount");
    sl_jw_double(w, (double)e->error / scale);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  free(all);
}

void sl_metrics_write_insights(sl_metrics *m, sl_jw *w, sl_str table, int minutes) {
  if (minutes < 1)
    minutes = 1;
  if (minutes > SL_CI_MINUTES)
    minutes = SL_CI_MINUTES;
  int64_t hi = sl__metrics_now_ms(m) / 60000, lo = hi - minutes + 1;
  sl_jw_arr_begin(w);
  /* Table first, then its GSIs by name. */
  for (int pass = 0; pass < 2; pass++) {
    size_t n = 0;
    const sl__ci *list[256];
    for (const sl__ci *c = m->ci; c && n < 256; c = c->next)
      if (sl_str_eq(c->table, table) && c->state.mode != SL_CI_DISABLED &&
          (pass == 0) == (c->index.len == 0))
        list[n++] = c;
    for (size_t i = 1; i < n; i++)
      for (size_t j = i; j > 0 && sl_str_cmp(list[j - 1]->index, list[j]->index) > 0; j--) {
        const sl__ci *t = list[j];
        list[j] = list[j - 1];
        list[j - 1] = t;
      }
    for (size_t i = 0; i < n; i++) {
      const sl__ci *c = list[i];
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "table");
      sl_jw_str(w, c->table);
      sl_jw_key_c(w, "index");
      if (c->index.len)
        sl_jw_str(w, c->index);
      else
        sl_jw_null(w);
      sl_jw_key_c(w, "mode");
      sl_jw_str_c(w, c->state.mode == SL_CI_THROTTLED_ONLY ? "THROTTLED_KEYS"
                                                           : "ACCESSED_AND_THROTTLED_KEYS");
      sl_jw_key_c(w, "minutes");
      sl_jw_int(w, minutes);
      sl_jw_key_c(w, "most_accessed_keys");
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "partition_key");
      write_list(w, c, SL__CI_PKC, lo, hi);
      sl_jw_key_c(w, "partition_and_sort_key");
      write_list(w, c, SL__CI_SKC, lo, hi);
      sl_jw_obj_end(w);
      sl_jw_key_c(w, "most_throttled_keys");
      sl_jw_obj_begin(w);
      sl_jw_key_c(w, "partition_key");
      write_list(w, c, SL__CI_PKT, lo, hi);
      sl_jw_key_c(w, "partition_and_sort_key");
      write_list(w, c, SL__CI_SKT, lo, hi);
      sl_jw_obj_end(w);
      sl_jw_obj_end(w);
    }
  }
  sl_jw_arr_end(w);
}
