/*
 * CloudWatch-named metrics: the registry of series, their rings on the
 * capacity clock, the recent throttle events, Prometheus exposition and
 * CloudWatch-style datapoints. See metrics.h; Contributor Insights is in
 * insights.c.
 */
#include "metrics/metrics_int.h"
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <xxhash.h>

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

typedef enum { KIND_COUNTER, KIND_GAUGE, KIND_HISTOGRAM } kind;
typedef enum { DIMS_NONE, DIMS_TABLE, DIMS_TABLE_INDEX, DIMS_TABLE_OP } dims;

static const struct {
  const char *cloudwatch, *prometheus, *unit, *help;
  kind kind;
  dims dims;
  int64_t scale;
} defs[SL_M__COUNT] = {
#define X(id, cw, prom, k, d, unit, scale, help)                                                   \
  [SL_M_##id] = {cw, prom, unit, help, KIND_##k, DIMS_##d, scale},
#include "metrics/metrics.def"
#undef X
};

/* SuccessfulRequestLatency buckets, in microseconds, and their "le" labels
 * in seconds (Prometheus base unit). */
static const int64_t hist_bounds_us[SL__HIST_BUCKETS] = {
    100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000, 2500000};
static const char *const hist_le[SL__HIST_BUCKETS + 1] = {
    "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
    "0.05",   "0.1",     "0.25",   "0.5",   "1",      "2.5",   "+Inf"};

int sl_metrics_find(sl_str cloudwatch) {
  for (int i = 0; i < SL_M__COUNT; i++)
    if (sl_str_eq_c(cloudwatch, defs[i].cloudwatch))
      return i;
  return -1;
}

const char *sl_metrics_name(sl_metric id) {
  return (unsigned)id < SL_M__COUNT ? defs[id].cloudwatch : "";
}

/* ---- registry ---- */

sl_metrics *sl_metrics_new(const sl_clock *clock) {
  sl_metrics *m = calloc(1, sizeof(*m));
  SL_ASSERT(m);
  m->clock = clock;
  m->n_buckets = 64;
  m->buckets = calloc(m->n_buckets, sizeof(sl__series *));
  SL_ASSERT(m->buckets);
  return m;
}

static void series_free(sl__series *s) {
  for (size_t i = 0; i < SL__SEC_CHUNKS; i++)
    free(s->sec[i]);
  for (size_t i = 0; i < SL__MIN_CHUNKS; i++)
    free(s->min[i]);
  free(s->hist);
  free(s);
}

static void event_clear(sl__event *e) {
  free(e->buf);
  memset(e, 0, sizeof(*e));
}

void sl_metrics_free(sl_metrics *m) {
  if (!m)
    return;
  for (int k = 0; k < SL_M__COUNT; k++) {
    sl__series *s = m->first[k];
    while (s) {
      sl__series *next = s->next_metric;
      series_free(s);
      s = next;
    }
  }
  free(m->buckets);
  if (m->events) {
    for (size_t i = 0; i < SL_METRICS_EVENTS; i++)
      event_clear(&m->events[i]);
    free(m->events);
  }
  while (m->ci) {
    sl__ci *next = m->ci->next;
    sl__ci_free(m->ci);
    m->ci = next;
  }
  for (size_t i = 0; i < m->n_deleted; i++)
    free(m->deleted[i].name);
  free(m);
}

uint64_t sl_metrics_dropped(const sl_metrics *m) { return m->dropped; }

static uint64_t series_hash(sl_metric metric, sl_str table, sl_str index, const char *op,
                            const char *verb) {
  uint64_t h = XXH3_64bits_withSeed(table.p, table.len, (uint64_t)metric * 0x9E3779B97F4A7C15ULL);
  if (index.len)
    h = XXH3_64bits_withSeed(index.p, index.len, h);
  if (op[0])
    h = XXH3_64bits_withSeed(op, strlen(op), h ^ 0x5bd1e995);
  if (verb[0])
    h = XXH3_64bits_withSeed(verb, strlen(verb), h ^ 0x27d4eb2f);
  return h;
}

static void grow(sl_metrics *m) {
  size_t n = m->n_buckets * 2;
  sl__series **b = calloc(n, sizeof(sl__series *));
  SL_ASSERT(b);
  for (size_t i = 0; i < m->n_buckets; i++) {
    sl__series *s = m->buckets[i];
    while (s) {
      sl__series *next = s->next_hash;
      s->next_hash = b[s->hash & (n - 1)];
      b[s->hash & (n - 1)] = s;
      s = next;
    }
  }
  free(m->buckets);
  m->buckets = b;
  m->n_buckets = n;
}

/* The series of (metric, table, index, op, verb), created on first use;
 * NULL when the registry is full. 'op' is "" for metrics without an
 * Operation, 'verb' "" without a Verb or OperationType. */
static bool series_is(const sl__series *s, sl_str table, sl_str index, const char *op,
                      const char *verb) {
  return !s->gone && sl_str_eq(s->table, table) && sl_str_eq(s->index, index) &&
         (s->op == op || strcmp(s->op, op) == 0) && (s->verb == verb || strcmp(s->verb, verb) == 0);
}

static sl__series *series_get(sl_metrics *m, sl_metric metric, sl_str table, sl_str index,
                              const char *op, const char *verb) {
  /* Requests come in runs on the same table: try the metric's last series
   * before hashing. */
  sl__series *last = m->recent[metric];
  if (last && series_is(last, table, index, op, verb))
    return last;
  uint64_t h = series_hash(metric, table, index, op, verb);
  for (sl__series *s = m->buckets[h & (m->n_buckets - 1)]; s; s = s->next_hash)
    if (s->hash == h && s->metric == metric && series_is(s, table, index, op, verb))
      return m->recent[metric] = s;
  if (m->n_series >= SL_METRICS_MAX_SERIES) {
    m->dropped++;
    return NULL;
  }
  sl__series *s = calloc(1, sizeof(*s) + table.len + index.len);
  SL_ASSERT(s);
  s->hash = h;
  s->metric = (uint8_t)metric;
  s->op = op;
  s->verb = verb;
  if (table.len)
    memcpy(s->names, table.p, table.len);
  if (index.len)
    memcpy(s->names + table.len, index.p, index.len);
  s->table = sl_str_make(s->names, table.len);
  s->index = sl_str_make(s->names + table.len, index.len);
  if (defs[metric].kind == KIND_HISTOGRAM) {
    s->hist = calloc(SL__HIST_BUCKETS + 1, sizeof(uint64_t));
    SL_ASSERT(s->hist);
  }
  s->next_hash = m->buckets[h & (m->n_buckets - 1)];
  m->buckets[h & (m->n_buckets - 1)] = s;
  if (m->last[metric])
    m->last[metric]->next_metric = s;
  else
    m->first[metric] = s;
  m->last[metric] = s;
  if (++m->n_series > m->n_buckets)
    grow(m);
  return m->recent[metric] = s;
}

/* Frees the deleted incarnation's series of 'table' and, if 'retire',
 * makes the live ones the deleted incarnation's; returns whether any was. */
static bool retire_series(sl_metrics *m, sl_str table, bool retire) {
  bool marked = false;
  for (int k = 0; k < SL_M__COUNT; k++) {
    sl__series **link = &m->first[k];
    sl__series *prev = NULL;
    while (*link) {
      sl__series *s = *link;
      if (!sl_str_eq(s->table, table)) {
        prev = s;
        link = &s->next_metric;
        continue;
      }
      if (!s->gone) {
        if (retire) {
          s->gone = 1;
          marked = true;
        }
        if (m->recent[k] == s)
          m->recent[k] = NULL;
        prev = s;
        link = &s->next_metric;
        continue;
      }
      *link = s->next_metric;
      if (m->recent[k] == s)
        m->recent[k] = NULL;
      sl__series **h = &m->buckets[s->hash & (m->n_buckets - 1)];
      while (*h != s)
        h = &(*h)->next_hash;
      *h = s->next_hash;
      series_free(s);
      m->n_series--;
    }
    m->last[k] = prev;
  }
  return marked;
}

/* Ages the events of 'table': live ones become the deleted incarnation's,
 * the deleted incarnation's are never shown again. */
static bool retire_events(sl_metrics *m, sl_str table) {
  bool marked = false;
  if (m->events)
    for (size_t i = 0; i < SL_METRICS_EVENTS; i++)
      if (m->events[i].buf &&
          sl_str_eq(sl_str_make(m->events[i].buf, m->events[i].table_len), table) &&
          m->events[i].gone < 2) {
        marked |= m->events[i].gone == 0;
        m->events[i].gone++;
      }
  return marked;
}

static void deleted_remove(sl_metrics *m, size_t i) {
  free(m->deleted[i].name);
  memmove(&m->deleted[i], &m->deleted[i + 1], (m->n_deleted - i - 1) * sizeof(sl__deleted));
  m->n_deleted--;
}

void sl_metrics_forget_table(sl_metrics *m, sl_str table, sl_str pk_name, sl_str sk_name) {
  /* The previous deleted incarnation goes; the live one takes its place. */
  for (size_t i = 0; i < m->n_deleted; i++)
    if (sl_str_eq(sl_str_make(m->deleted[i].name, m->deleted[i].len), table)) {
      deleted_remove(m, i);
      break;
    }
  bool kept = retire_series(m, table, true);
  kept |= retire_events(m, table);
  sl__ci_forget_table(m, table);
  if (!kept)
    return;
  if (m->n_deleted == SL_METRICS_DELETED_TABLES) {
    sl_str oldest = sl_str_make(m->deleted[0].name, m->deleted[0].len);
    retire_series(m, oldest, false);
    if (m->events)
      for (size_t i = 0; i < SL_METRICS_EVENTS; i++)
        if (m->events[i].gone == 1 &&
            sl_str_eq(sl_str_make(m->events[i].buf, m->events[i].table_len), oldest))
          m->events[i].gone = 2;
    deleted_remove(m, 0);
  }
  sl__deleted *d = &m->deleted[m->n_deleted++];
  d->name = malloc(table.len + pk_name.len + sk_name.len + 1);
  SL_ASSERT(d->name);
  sl_str parts[3] = {table, pk_name, sk_name};
  for (size_t i = 0, at = 0; i < 3; at += parts[i].len, i++)
    if (parts[i].len)
      memcpy(d->name + at, parts[i].p, parts[i].len);
  d->len = table.len;
  d->pk_len = pk_name.len;
  d->sk_len = sk_name.len;
  d->deleted_ms = sl__metrics_now_ms(m);
}

/* ---- rings ---- */

static sl__cell *ring_cell(sl__chunk **chunks, size_t n_chunks, int64_t slot) {
  if (slot < 0)
    return NULL;
  int64_t epoch = slot / SL__CHUNK_CELLS;
  sl__chunk **pc = &chunks[epoch % (int64_t)n_chunks];
  if (!*pc) {
    *pc = calloc(1, sizeof(sl__chunk));
    SL_ASSERT(*pc);
    (*pc)->epoch = epoch;
  } else if ((*pc)->epoch != epoch) {
    if ((*pc)->epoch > epoch)
      return NULL; /* older than what the ring holds */
    memset((*pc)->c, 0, sizeof((*pc)->c));
    (*pc)->epoch = epoch;
  }
  return &(*pc)->c[slot % SL__CHUNK_CELLS];
}

static const sl__cell *ring_peek(sl__chunk *const *chunks, size_t n_chunks, int64_t slot) {
  if (slot < 0)
    return NULL;
  int64_t epoch = slot / SL__CHUNK_CELLS;
  const sl__chunk *c = chunks[epoch % (int64_t)n_chunks];
  if (!c || c->epoch != epoch)
    return NULL;
  const sl__cell *cell = &c->c[slot % SL__CHUNK_CELLS];
  return cell->count ? cell : NULL;
}

static void cell_add(sl__cell *c, int64_t v) {
  if (!c)
    return;
  if (c->count == 0 || v < c->min)
    c->min = v;
  if (c->count == 0 || v > c->max)
    c->max = v;
  c->sum += v;
  c->count++;
}

static void cell_merge(sl__cell *into, const sl__cell *c) {
  if (!c || !c->count)
    return;
  if (into->count == 0 || c->min < into->min)
    into->min = c->min;
  if (into->count == 0 || c->max > into->max)
    into->max = c->max;
  into->sum += c->sum;
  into->count += c->count;
}

static void series_add(sl__series *s, int64_t now_ms, int64_t v) {
  if (!s)
    return;
  if (defs[s->metric].kind == KIND_GAUGE)
    s->total_sum = v;
  else
    s->total_sum += v;
  s->total_count++;
  cell_add(ring_cell(s->sec, SL__SEC_CHUNKS, now_ms / 1000), v);
  cell_add(ring_cell(s->min, SL__MIN_CHUNKS, now_ms / 60000), v);
}

static void record(sl_metrics *m, sl_metric metric, sl_str table, sl_str index, const char *op,
                   int64_t v) {
  series_add(series_get(m, metric, table, index, op, ""), sl__metrics_now_ms(m), v);
}

/* ---- recording ---- */

const char *sl_metrics_verb_dimension(const char *operation) {
  if (strcmp(operation, "ExecuteStatement") == 0)
    return "Verb";
  if (strcmp(operation, "BatchExecuteStatement") == 0 ||
      strcmp(operation, "ExecuteTransaction") == 0)
    return "OperationType";
  return NULL;
}

void sl_metrics_request(sl_metrics *m, sl_str table, const char *operation, sl_outcome outcome,
                        int64_t latency_us, int64_t returned_items) {
  sl_metrics_request_verb(m, table, operation, "", outcome, latency_us, returned_items);
}

void sl_metrics_request_verb(sl_metrics *m, sl_str table, const char *operation, const char *verb,
                             sl_outcome outcome, int64_t latency_us, int64_t returned_items) {
  sl_str none = SL_STR_NULL;
  if (!verb)
    verb = "";
  if (outcome == SL_OUTCOME_USER_ERROR) {
    record(m, SL_M_USER_ERRORS, none, none, "", 1);
    return;
  }
  if (table.len == 0)
    return;
  switch (outcome) {
  case SL_OUTCOME_OK: {
    int64_t now = sl__metrics_now_ms(m);
    sl__series *s = series_get(m, SL_M_SUCCESSFUL_REQUEST_LATENCY, table, none, operation, verb);
    if (s) {
      if (latency_us < 0)
        latency_us = 0;
      series_add(s, now, latency_us);
      size_t b = 0;
      while (b < SL__HIST_BUCKETS && latency_us > hist_bounds_us[b])
        b++;
      s->hist[b]++;
    }
    if (returned_items >= 0)
      series_add(series_get(m, SL_M_RETURNED_ITEM_COUNT, table, none, operation, verb), now,
                 returned_items);
    return;
  }
  case SL_OUTCOME_SYSTEM_ERROR:
    series_add(series_get(m, SL_M_SYSTEM_ERRORS, table, none, operation, verb),
               sl__metrics_now_ms(m), 1);
    return;
  case SL_OUTCOME_THROTTLED:
    series_add(series_get(m, SL_M_THROTTLED_REQUESTS, table, none, operation, verb),
               sl__metrics_now_ms(m), 1);
    return;
  case SL_OUTCOME_CONDITION_FAILED:
    record(m, SL_M_CONDITIONAL_CHECK_FAILED, table, none, "", 1);
    return;
  case SL_OUTCOME_TRANSACTION_CONFLICT:
    record(m, SL_M_TRANSACTION_CONFLICT, table, none, "", 1);
    return;
  case SL_OUTCOME_USER_ERROR:
    return;
  }
}

void sl_metrics_consumed(sl_metrics *m, sl_str table, sl_str index, bool write, int64_t mu) {
  record(m, write ? SL_M_CONSUMED_WRITE : SL_M_CONSUMED_READ, table, index, "", mu);
}

static void event_push(sl_metrics *m, int64_t now, sl_str table, sl_str index, bool write,
                       unsigned limits, const char *operation, const char *exception, sl_str pk,
                       sl_str sk, int partition) {
  if (!m->events) {
    m->events = calloc(SL_METRICS_EVENTS, sizeof(sl__event));
    SL_ASSERT(m->events);
  }
  sl__event *e = &m->events[m->ev_next];
  event_clear(e);
  m->ev_next = (m->ev_next + 1) % SL_METRICS_EVENTS;
  if (m->ev_n < SL_METRICS_EVENTS)
    m->ev_n++;
  /* Event keys are for reading, not for matching: long ones are cut. */
  enum { KEY_MAX = 256 };
  if (pk.len > KEY_MAX)
    pk.len = KEY_MAX;
  if (sk.len > KEY_MAX)
    sk.len = KEY_MAX;
  e->t_ms = now;
  e->op = operation ? operation : "";
  e->exception = exception ? exception : "";
  e->write = write;
  e->is_index = index.len > 0;
  e->limits = (uint8_t)limits;
  e->partition = partition;
  e->table_len = (uint16_t)table.len;
  e->index_len = (uint16_t)index.len;
  e->pk_len = (uint16_t)pk.len;
  e->sk_len = (uint16_t)sk.len;
  size_t n = table.len + index.len + pk.len + sk.len;
  e->buf = malloc(n ? n : 1);
  SL_ASSERT(e->buf);
  char *p = e->buf;
  sl_str parts[4] = {table, index, pk, sk};
  for (int i = 0; i < 4; i++) {
    if (parts[i].len)
      memcpy(p, parts[i].p, parts[i].len);
    p += parts[i].len;
  }
}

void sl_metrics_throttle_event(sl_metrics *m, sl_str table, sl_str index, bool write,
                               unsigned limits, const char *operation, const char *exception,
                               sl_str pk, sl_str sk, int partition) {
  int64_t now = sl__metrics_now_ms(m);
  series_add(series_get(m, write ? SL_M_WRITE_THROTTLE_EVENTS : SL_M_READ_THROTTLE_EVENTS, table,
                        index, "", ""),
             now, 1);
  sl_metric base =
      write ? SL_M_WRITE_MAX_ON_DEMAND_THROTTLE_EVENTS : SL_M_READ_MAX_ON_DEMAND_THROTTLE_EVENTS;
  for (unsigned l = 0; l < 4; l++)
    if (limits & (1u << l))
      series_add(series_get(m, (sl_metric)(base + l), table, index, "", ""), now, 1);
  event_push(m, now, table, index, write, limits, operation, exception, pk, sk, partition);
}

void sl_metrics_provisioned(sl_metrics *m, sl_str table, sl_str index, int64_t rcu, int64_t wcu) {
  record(m, SL_M_PROVISIONED_READ, table, index, "", rcu);
  record(m, SL_M_PROVISIONED_WRITE, table, index, "", wcu);
}

void sl_metrics_backfill(sl_metrics *m, sl_str table, sl_str index, int64_t consumed_mu,
                         int64_t throttle_events, double percent) {
  if (consumed_mu > 0)
    record(m, SL_M_ONLINE_INDEX_CONSUMED_WRITE, table, index, "", consumed_mu);
  if (throttle_events > 0)
    record(m, SL_M_ONLINE_INDEX_THROTTLE_EVENTS, table, index, "", throttle_events);
  record(m, SL_M_ONLINE_INDEX_PROGRESS, table, index, "", (int64_t)(percent * 1000.0 + 0.5));
}

void sl_metrics_ttl_deleted(sl_metrics *m, sl_str table, int64_t n) {
  record(m, SL_M_TTL_DELETED, table, SL_STR_NULL, "", n);
}

void sl_metrics_stream_read(sl_metrics *m, sl_str table, int64_t records, int64_t bytes) {
  record(m, SL_M_RETURNED_RECORDS_COUNT, table, SL_STR_NULL, "GetRecords", records);
  record(m, SL_M_RETURNED_BYTES, table, SL_STR_NULL, "GetRecords", bytes);
}

/* ---- Prometheus exposition (text format 0.0.4) ---- */

/* 'v / scale' exactly, for a power-of-ten scale: "12", "0.5", "-1.25". */
static void put_scaled(sl_buf *b, int64_t v, int64_t scale) {
  char tmp[48];
  bool neg = v < 0;
  uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  uint64_t sc = (uint64_t)scale;
  int digits = 0;
  for (uint64_t s = sc; s > 1; s /= 10)
    digits++;
  uint64_t ip = u / sc, fp = u % sc;
  int n = snprintf(tmp, sizeof(tmp), "%s%llu", neg ? "-" : "", (unsigned long long)ip);
  if (fp) {
    n += snprintf(tmp + n, sizeof(tmp) - (size_t)n, ".%0*llu", digits, (unsigned long long)fp);
    while (tmp[n - 1] == '0')
      n--;
  }
  sl_buf_append(b, tmp, (size_t)n);
}

static void put_escaped(sl_buf *b, sl_str s, bool quote) {
  for (size_t i = 0; i < s.len; i++) {
    char c = s.p[i];
    if (c == '\\')
      sl_buf_puts(b, SL_STR("\\\\"));
    else if (c == '\n')
      sl_buf_puts(b, SL_STR("\\n"));
    else if (c == '"' && quote)
      sl_buf_puts(b, SL_STR("\\\""));
    else
      sl_buf_putc(b, c);
  }
}

/* '{table_name="..",...' without the closing brace; returns whether any
 * label was written. */
static bool put_labels(sl_buf *b, const sl__series *s) {
  bool any = false;
  struct {
    const char *name;
    sl_str value;
  } labels[5] = {{"table_name", s->table},
                 {"global_secondary_index_name", s->index},
                 {"operation", sl_str_c(s->op)},
                 {"verb", SL_STR_NULL},
                 {"operation_type", SL_STR_NULL}};
  const char *vd = s->verb[0] ? sl_metrics_verb_dimension(s->op) : NULL;
  if (vd)
    labels[vd[0] == 'V' ? 3 : 4].value = sl_str_c(s->verb);
  for (int i = 0; i < 5; i++) {
    if (!labels[i].value.len)
      continue;
    sl_buf_putc(b, any ? ',' : '{');
    sl_buf_puts(b, sl_str_c(labels[i].name));
    sl_buf_puts(b, SL_STR("=\""));
    put_escaped(b, labels[i].value, true);
    sl_buf_putc(b, '"');
    any = true;
  }
  return any;
}

static void put_family_head(sl_buf *b, const char *name, const char *suffix, const char *help,
                            const char *type) {
  sl_buf_printf(b, "# HELP %s%s ", name, suffix);
  put_escaped(b, sl_str_c(help), false);
  sl_buf_printf(b, "\n# TYPE %s%s %s\n", name, suffix, type);
}

static void put_sample(sl_buf *b, const char *name, const char *suffix, const sl__series *s,
                       const char *extra_label, sl_str extra_value, int64_t v, int64_t scale) {
  sl_buf_printf(b, "%s%s", name, suffix);
  bool any = s ? put_labels(b, s) : false;
  if (extra_label) {
    sl_buf_putc(b, any ? ',' : '{');
    sl_buf_printf(b, "%s=\"", extra_label);
    put_escaped(b, extra_value, true);
    sl_buf_putc(b, '"');
    any = true;
  }
  if (any)
    sl_buf_putc(b, '}');
  sl_buf_putc(b, ' ');
  put_scaled(b, v, scale);
  sl_buf_putc(b, '\n');
}

void sl_metrics_write_prometheus(sl_metrics *m, sl_buf *out) {
  for (int k = 0; k < SL_M__COUNT; k++) {
    const char *name = defs[k].prometheus;
    /* Deleted tables' series are not exposed (their counters would go
     * backwards when the table is created again). */
    const sl__series *s = m->first[k];
    while (s && s->gone)
      s = s->next_metric;
    if (!s && defs[k].dims != DIMS_NONE)
      continue;
    switch (defs[k].kind) {
    case KIND_COUNTER:
      put_family_head(out, name, "_total", defs[k].help, "counter");
      if (!s)
        put_sample(out, name, "_total", NULL, NULL, SL_STR_NULL, 0, 1);
      for (; s; s = s->next_metric)
        if (!s->gone)
          put_sample(out, name, "_total", s, NULL, SL_STR_NULL, s->total_sum, defs[k].scale);
      break;
    case KIND_GAUGE:
      put_family_head(out, name, "", defs[k].help, "gauge");
      /* OnlineIndexPercentageProgress is a percentage in CloudWatch and a
       * ratio here (Prometheus base units): milli-percent / 100000. */
      for (; s; s = s->next_metric)
        if (!s->gone)
          put_sample(out, name, "", s, NULL, SL_STR_NULL, s->total_sum,
                     k == SL_M_ONLINE_INDEX_PROGRESS ? 100000 : defs[k].scale);
      break;
    case KIND_HISTOGRAM:
      put_family_head(out, name, "", defs[k].help, "histogram");
      for (; s; s = s->next_metric) {
        if (s->gone)
          continue;
        uint64_t cum = 0;
        for (size_t i = 0; i <= SL__HIST_BUCKETS; i++) {
          cum += s->hist[i];
          put_sample(out, name, "_bucket", s, "le", sl_str_c(hist_le[i]), (int64_t)cum, 1);
        }
        put_sample(out, name, "_sum", s, NULL, SL_STR_NULL, s->total_sum, 1000000);
        put_sample(out, name, "_count", s, NULL, SL_STR_NULL, (int64_t)s->total_count, 1);
      }
      break;
    }
  }
  put_family_head(out, "sluice_metrics_series", "",
                  "Metric series held in memory (at most " STRINGIFY(SL_METRICS_MAX_SERIES) ")",
                  "gauge");
  sl_buf_printf(out, "sluice_metrics_series %zu\n", m->n_series);
  put_family_head(out, "sluice_metrics_dropped_series", "_total",
                  "Series not created because the registry was full", "counter");
  sl_buf_printf(out, "sluice_metrics_dropped_series_total %llu\n", (unsigned long long)m->dropped);
}

/* ---- CloudWatch-style datapoints ---- */

bool sl_metrics_write_datapoints(sl_metrics *m, sl_jw *w, sl_str table, bool deleted, sl_str index,
                                 sl_str operation, sl_str verb, sl_metric metric, int64_t period_s,
                                 int64_t start_ms, int64_t end_ms, const char **err) {
  if ((unsigned)metric >= SL_M__COUNT) {
    *err = "unknown metric";
    return false;
  }
  bool seconds = period_s < 60;
  if (period_s <= 0 || (seconds && 60 % period_s != 0) || (!seconds && period_s % 60 != 0)) {
    *err = "period must be 1, 5, 10, 30 or a multiple of 60 seconds";
    return false;
  }
  if (end_ms <= start_ms) {
    *err = "end must be after start";
    return false;
  }
  int64_t period_ms = period_s * 1000;
  int64_t first = start_ms / period_ms * period_ms;
  if ((end_ms - first + period_ms - 1) / period_ms > 1440) {
    *err = "too many datapoints: at most 1440 periods per request";
    return false;
  }
  const int64_t unit_ms = seconds ? 1000 : 60000;
  const int64_t scale = defs[metric].scale;
  /* Only slots the ring can still hold are worth looking at. */
  int64_t hi_slot = sl__metrics_now_ms(m) / unit_ms;
  int64_t lo_slot = hi_slot - (seconds ? SL_METRICS_SECONDS : SL_METRICS_MINUTES) + 1;
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Label");
  sl_jw_str_c(w, defs[metric].cloudwatch);
  sl_jw_key_c(w, "Datapoints");
  sl_jw_arr_begin(w);
  for (int64_t t = first; t < end_ms; t += period_ms) {
    sl__cell agg = {0};
    for (const sl__series *s = m->first[metric]; s; s = s->next_metric) {
      if (s->gone != deleted || !sl_str_eq(s->table, table) || !sl_str_eq(s->index, index))
        continue;
      if (operation.len && !sl_str_eq_c(operation, s->op))
        continue;
      if (verb.len && !sl_str_eq_c(verb, s->verb))
        continue;
      int64_t from = t / unit_ms, to = (t + period_ms) / unit_ms;
      for (int64_t slot = from < lo_slot ? lo_slot : from; slot < to && slot <= hi_slot; slot++)
        cell_merge(&agg, seconds ? ring_peek(s->sec, SL__SEC_CHUNKS, slot)
                                 : ring_peek(s->min, SL__MIN_CHUNKS, slot));
    }
    if (!agg.count)
      continue;
    char iso[32];
    sl_time_format_iso(t, iso);
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "Timestamp");
    sl_jw_str_c(w, iso);
    sl_jw_key_c(w, "SampleCount");
    sl_jw_double(w, (double)agg.count);
    sl_jw_key_c(w, "Sum");
    sl_jw_double(w, (double)agg.sum / (double)scale);
    sl_jw_key_c(w, "Average");
    sl_jw_double(w, (double)agg.sum / (double)scale / (double)agg.count);
    sl_jw_key_c(w, "Minimum");
    sl_jw_double(w, (double)agg.min / (double)scale);
    sl_jw_key_c(w, "Maximum");
    sl_jw_double(w, (double)agg.max / (double)scale);
    sl_jw_key_c(w, "Unit");
    sl_jw_str_c(w, defs[metric].unit);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
  return true;
}

int64_t sl_metrics_window_sum(sl_metrics *m, sl_metric metric, sl_str table, bool deleted,
                              sl_str index, bool all_indexes, int64_t start_ms, int64_t end_ms,
                              int64_t *last_ms) {
  int64_t now_slot_s = sl__metrics_now_ms(m) / 1000;
  bool seconds = start_ms / 1000 > now_slot_s - SL_METRICS_SECONDS;
  const int64_t unit_ms = seconds ? 1000 : 60000;
  int64_t hi_slot = sl__metrics_now_ms(m) / unit_ms;
  int64_t lo_slot = hi_slot - (seconds ? SL_METRICS_SECONDS : SL_METRICS_MINUTES) + 1;
  int64_t from = start_ms / unit_ms, to = (end_ms + unit_ms - 1) / unit_ms;
  if (from < lo_slot)
    from = lo_slot;
  if (to > hi_slot + 1)
    to = hi_slot + 1;
  int64_t sum = 0, last = -1;
  if ((unsigned)metric >= SL_M__COUNT) {
    if (last_ms)
      *last_ms = -1;
    return 0;
  }
  for (const sl__series *s = m->first[metric]; s; s = s->next_metric) {
    if (s->gone != deleted || !sl_str_eq(s->table, table) ||
        (!all_indexes && !sl_str_eq(s->index, index)))
      continue;
    for (int64_t slot = from; slot < to; slot++) {
      const sl__cell *c = seconds ? ring_peek(s->sec, SL__SEC_CHUNKS, slot)
                                  : ring_peek(s->min, SL__MIN_CHUNKS, slot);
      if (!c)
        continue;
      sum += c->sum;
      if (slot * unit_ms > last)
        last = slot * unit_ms;
    }
  }
  if (last_ms)
    *last_ms = last;
  return sum;
}

double sl_metrics_minute_sum(sl_metrics *m, sl_metric metric, sl_str table, sl_str index,
                             int64_t minute) {
  if ((unsigned)metric >= SL_M__COUNT)
    return 0;
  int64_t hi = sl__metrics_now_ms(m) / 60000;
  if (minute > hi || minute <= hi - SL_METRICS_MINUTES)
    return 0;
  int64_t sum = 0;
  for (const sl__series *s = m->first[metric]; s; s = s->next_metric) {
    if (s->gone || !sl_str_eq(s->table, table) || !sl_str_eq(s->index, index))
      continue;
    const sl__cell *c = ring_peek(s->min, SL__MIN_CHUNKS, minute);
    if (c)
      sum += c->sum;
  }
  return (double)sum / (double)defs[metric].scale;
}

/* ---- recent throttle events ---- */

static const char *const limit_names[4] = {"MaxOnDemandThroughputExceeded", "AccountLimitExceeded",
                                           "ProvisionedThroughputExceeded",
                                           "KeyRangeThroughputExceeded"};

void sl_metrics_write_events(sl_metrics *m, sl_jw *w, sl_str table, bool deleted, size_t limit) {
  sl_jw_arr_begin(w);
  size_t written = 0;
  for (size_t i = 0; m->events && i < m->ev_n && written < limit; i++) {
    const sl__event *e = &m->events[(m->ev_next + SL_METRICS_EVENTS - 1 - i) % SL_METRICS_EVENTS];
    if (e->gone != (deleted ? 1 : 0))
      continue;
    const char *p = e->buf;
    sl_str et = sl_str_make(p, e->table_len);
    sl_str ei = sl_str_make(p + e->table_len, e->index_len);
    sl_str pk = sl_str_make(p + e->table_len + e->index_len, e->pk_len);
    sl_str sk = sl_str_make(pk.p + e->pk_len, e->sk_len);
    if (table.len && !sl_str_eq(et, table))
      continue;
    written++;
    char iso[32];
    sl_time_format_iso(e->t_ms, iso);
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "time");
    sl_jw_str_c(w, iso);
    sl_jw_key_c(w, "time_ms");
    sl_jw_int(w, e->t_ms);
    sl_jw_key_c(w, "operation");
    sl_jw_str_c(w, e->op);
    sl_jw_key_c(w, "exception");
    sl_jw_str_c(w, e->exception);
    sl_jw_key_c(w, "table");
    sl_jw_str(w, et);
    sl_jw_key_c(w, "index");
    if (ei.len)
      sl_jw_str(w, ei);
    else
      sl_jw_null(w);
    sl_jw_key_c(w, "direction");
    sl_jw_str_c(w, e->write ? "write" : "read");
    sl_jw_key_c(w, "reasons");
    sl_jw_arr_begin(w);
    for (unsigned l = 0; l < 4; l++) {
      if (!(e->limits & (1u << l)))
        continue;
      char reason[96];
      snprintf(reason, sizeof(reason), "%s%s%s", e->is_index ? "Index" : "Table",
               e->write ? "Write" : "Read", limit_names[l]);
      sl_jw_str_c(w, reason);
    }
    sl_jw_arr_end(w);
    sl_jw_key_c(w, "partition");
    if (e->partition >= 0)
      sl_jw_int(w, e->partition);
    else
      sl_jw_null(w);
    sl_jw_key_c(w, "partition_key");
    sl_jw_str(w, pk);
    sl_jw_key_c(w, "sort_key");
    if (sk.len)
      sl_jw_str(w, sk);
    else
      sl_jw_null(w);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

void sl_metrics_write_deleted(sl_metrics *m, sl_jw *w, int64_t start_ms, int64_t end_ms) {
  sl_jw_arr_begin(w);
  for (size_t i = m->n_deleted; i-- > 0;) {
    const sl__deleted *d = &m->deleted[i];
    sl_str name = sl_str_make(d->name, d->len);
    int64_t last_r = -1, last_w = -1;
    int64_t thr = sl_metrics_window_sum(m, SL_M_READ_THROTTLE_EVENTS, name, true, SL_STR_NULL, true,
                                        start_ms, end_ms, &last_r) +
                  sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, name, true, SL_STR_NULL,
                                        true, start_ms, end_ms, &last_w);
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "name");
    sl_jw_str(w, name);
    sl_jw_key_c(w, "deleted_ms");
    sl_jw_int(w, d->deleted_ms);
    sl_jw_key_c(w, "partition_key");
    sl_jw_str(w, sl_str_make(d->name + d->len, d->pk_len));
    sl_jw_key_c(w, "sort_key");
    if (d->sk_len)
      sl_jw_str(w, sl_str_make(d->name + d->len + d->pk_len, d->sk_len));
    else
      sl_jw_null(w);
    sl_jw_key_c(w, "throttle_events");
    sl_jw_int(w, thr);
    sl_jw_key_c(w, "last_throttle_ms");
    if (last_r >= 0 || last_w >= 0)
      sl_jw_int(w, last_r > last_w ? last_r : last_w);
    else
      sl_jw_null(w);
    /* The GSIs the incarnation recorded anything on: consumed capacity or
     * throttles (an index never used has nothing to show). */
    sl_jw_key_c(w, "indexes");
    sl_jw_arr_begin(w);
    const sl_metric kinds[] = {SL_M_CONSUMED_READ, SL_M_CONSUMED_WRITE, SL_M_READ_THROTTLE_EVENTS,
                               SL_M_WRITE_THROTTLE_EVENTS};
    sl_str seen[16];
    size_t n_seen = 0;
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
      for (const sl__series *s = m->first[kinds[k]]; s; s = s->next_metric) {
        if (s->gone != 1 || !s->index.len || !sl_str_eq(s->table, name))
          continue;
        bool dup = false;
        for (size_t j = 0; j < n_seen && !dup; j++)
          dup = sl_str_eq(seen[j], s->index);
        if (dup || n_seen == sizeof(seen) / sizeof(seen[0]))
          continue;
        seen[n_seen++] = s->index;
        sl_jw_str(w, s->index);
      }
    sl_jw_arr_end(w);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}
