/* The admin API; see admin.h. */
#include "server/admin.h"
#include "server/explain.h"
#include "server/metrics_http.h"
#include "server/faults.h"
#include "ops/tables.h"
#include "ops/autoscaling.h"
#include "streams/streams.h"
#include "store/store.h"
#include "cap/cap.h"
#include "metrics/metrics.h"
#include "base/json.h"
#include "base/log.h"

#include <stdlib.h>

static void reply(sl_http_response *resp, int status) {
  resp->status = status;
  resp->content_type = SL_STR("application/json");
}

static void write_clock(sl_app *app, sl_http_response *resp) {
  char iso[32];
  int64_t now = sl_clock_now_ms(&app->clock);
  sl_time_format_iso(now, iso);
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "mode");
  sl_jw_str_c(&w, sl_clock_mode_name(app->clock.mode));
  sl_jw_key_c(&w, "now");
  sl_jw_str_c(&w, iso);
  sl_jw_key_c(&w, "now_ms");
  sl_jw_int(&w, now);
  sl_jw_obj_end(&w);
  reply(resp, 200);
}

static void post_clock(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  sl_json *body;
  sl_json_error jerr;
  if (app->clock.mode != SL_CLOCK_MANUAL) {
    sl_admin_error(resp, 400, "the clock is not manual: start sluice with --clock manual");
    return;
  }
  if (sl_json_parse(&app->arena, req->body.p, req->body.len, &body, &jerr) != 0 ||
      body->type != SL_JSON_OBJECT) {
    sl_admin_error(resp, 400,
                   "expected a JSON object: {\"advance_ms\":N} or {\"set\":\"ISO8601\"}");
    return;
  }
  const sl_json *adv = sl_json_get(body, "advance_ms");
  const sl_json *set = sl_json_get(body, "set");
  if (adv && adv->type == SL_JSON_NUMBER) {
    char tmp[32];
    size_t n = adv->str.len < sizeof(tmp) - 1 ? adv->str.len : sizeof(tmp) - 1;
    memcpy(tmp, adv->str.p, n);
    tmp[n] = 0;
    char *end;
    long long ms = strtoll(tmp, &end, 10);
    if (*end || ms < 0) {
      sl_admin_error(resp, 400, "advance_ms must be a non-negative integer");
      return;
    }
    sl_clock_advance(&app->clock, ms);
  } else if (set && set->type == SL_JSON_STRING) {
    int64_t ms;
    if (!sl_time_parse_iso(set->str, &ms)) {
      sl_admin_error(resp, 400, "set must be an ISO 8601 time, e.g. 2026-11-30T12:00:00Z");
      return;
    }
    if (ms * 1000 < app->clock.manual_us) {
      sl_admin_error(resp, 400, "the clock cannot go backwards");
      return;
    }
    sl_clock_set(&app->clock, ms);
  } else {
    sl_admin_error(resp, 400, "expected {\"advance_ms\":N} or {\"set\":\"ISO8601\"}");
    return;
  }
  write_clock(app, resp);
}

/* POST /_sluice/reset [{"prefix":"t_"}]: drops every table, or only those
 * whose name starts with the prefix (parallel test workers sharing one
 * server, each with its own prefix). */
static void reset(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  sl_failure f;
  sl_failure_init(&f, &app->arena);
  sl_str prefix = SL_STR_NULL;
  if (req->body.len) {
    sl_json *body;
    sl_json_error jerr;
    const sl_json *p = NULL;
    if (sl_json_parse(&app->arena, req->body.p, req->body.len, &body, &jerr) != 0 ||
        body->type != SL_JSON_OBJECT ||
        ((p = sl_json_get(body, "prefix")) && p->type != SL_JSON_STRING)) {
      sl_admin_error(resp, 400, "expected {} or {\"prefix\":\"...\"}");
      return;
    }
    if (p)
      prefix = p->str;
  }
  for (size_t i = 0; i < sl_catalog_count(app->env.catalog);) {
    sl_table *t = sl_catalog_at(app->env.catalog, i);
    if (!sl_str_starts_with(t->name, prefix)) {
      i++;
      continue;
    }
    if (sl_tables_drop(&app->env, t, &f) != SL_OK) {
      sl_admin_error(resp, 500, "reset failed: storage error");
      return;
    }
    sl_tables_detach_capacity(&app->env, t);
    if (app->env.metrics)
      sl_metrics_forget_table(app->env.metrics, t->name, t->key.hash, t->key.range);
    sl_catalog_remove(app->env.catalog, t->name);
  }
  resp->body.len = 0;
  sl_buf_puts(&resp->body, SL_STR("{}"));
  reply(resp, 200);
}

/* The optional ?window_s=N (1..86400 seconds of the clock) into *window;
 * false with a 400 reply when it is malformed. */
static bool window_param(sl_app *app, sl_http_request *req, sl_http_response *resp,
                         int64_t *window) {
  bool has_window;
  sl_str window_s = sl_admin_query(&app->arena, req->query, "window_s", &has_window);
  if (!has_window)
    return true;
  char tmp[16];
  size_t n = window_s.len < sizeof(tmp) - 1 ? window_s.len : sizeof(tmp) - 1;
  memcpy(tmp, window_s.p, n);
  tmp[n] = 0;
  char *end;
  long long v = strtoll(tmp, &end, 10);
  if (n == 0 || *end || v < 1 || v > 86400) {
    sl_admin_error(resp, 400, "window_s must be 1..86400");
    return false;
  }
  *window = v;
  return true;
}

/* Auto scaling's activities on the table and its GSIs (ops/autoscaling.h),
 * newest first: those that started in the last 'window_s' seconds of the
 * clock (all kept when 0), at most 200. */
static void write_scaling(sl_app *app, const sl_table *t, int64_t window_s, sl_jw *w) {
  sl_jw_arr_begin(w);
  const sl_autoscaling *as = app->env.autoscaling;
  int64_t since = window_s > 0 ? sl_clock_now_ms(&app->clock) - window_s * 1000 : INT64_MIN;
  size_t written = 0;
  for (size_t i = as ? as->n_activities : 0; i-- > 0 && written < 200;) {
    const sl_as_activity *a = as->activities[i];
    /* "table/T" or "table/T/index/I" */
    sl_str id = a->resource_id;
    if (id.len < 6 + t->name.len || memcmp(id.p, "table/", 6) != 0 ||
        memcmp(id.p + 6, t->name.p, t->name.len) != 0 ||
        (id.len > 6 + t->name.len && id.p[6 + t->name.len] != '/'))
      continue;
    if (a->start_ms < since)
      break;
    written++;
    sl_str index = id.len > 6 + t->name.len + 7
                       ? sl_str_make(id.p + 6 + t->name.len + 7, id.len - 6 - t->name.len - 7)
                       : SL_STR_NULL;
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "index");
    if (index.len)
      sl_jw_str(w, index);
    else
      sl_jw_null(w);
    sl_jw_key_c(w, "dimension");
    sl_jw_str_c(w, sl_scalable_dim_name(a->dim));
    sl_jw_key_c(w, "direction");
    sl_jw_str_c(w, a->dim == SL_DIM_TABLE_READ || a->dim == SL_DIM_INDEX_READ ? "read" : "write");
    sl_jw_key_c(w, "start_ms");
    sl_jw_int(w, a->start_ms);
    sl_jw_key_c(w, "end_ms");
    sl_jw_int(w, a->end_ms);
    sl_jw_key_c(w, "status");
    sl_jw_str(w, a->status_code);
    sl_jw_key_c(w, "description");
    sl_jw_str(w, a->description);
    sl_jw_key_c(w, "cause");
    sl_jw_str(w, a->cause);
    sl_jw_key_c(w, "status_message");
    sl_jw_str(w, a->status_message);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
}

/* A table with LSIs: its largest item collections (store/items.h) against
 * the limit; null for a table without LSIs (it has no item collections). */
static void write_collections(sl_app *app, const sl_table *t, sl_jw *w) {
  sl_failure f;
  sl_failure_init(&f, &app->arena);
  sl_txn *txn = NULL;
  if (!sl_table_has_lsi(t) || sl_store_begin(app->env.store, false, &f, &txn) != SL_OK) {
    sl_jw_null(w);
    return;
  }
  sl_store_collection top[10];
  size_t n = 0, seen = 0;
  bool more = false;
  sl_store_collections_top(txn, &app->arena, t, 10, 100000, top, &n, &seen, &more);
  sl_store_abort(txn);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "limit_bytes");
  sl_jw_int(w, sl_cap_params_of(app->env.cap)->item_collection_max_bytes);
  sl_jw_key_c(w, "collections");
  sl_jw_uint(w, seen);
  sl_jw_key_c(w, "more");
  sl_jw_bool(w, more);
  sl_jw_key_c(w, "largest");
  sl_jw_arr_begin(w);
  for (size_t i = 0; i < n; i++) {
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "partition_key");
    sl_jw_str(w, top[i].pk);
    sl_jw_key_c(w, "bytes");
    sl_jw_int(w, top[i].bytes);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

/* GET /_sluice/tables/{name}/stream: the table's enabled stream, shard by
 * shard, with what sluice knows of its readers (streams/streams.h): each
 * shard's records past the furthest GetRecords position ("unread", counted
 * up to 10,000), the oldest unread record's time (its age is the lag), the
 * newest record's, and the last read. A shard nobody read has every record
 * unread. For the stream as a whole: the oldest record kept and its age,
 * and the records per second over the last ?window_s=N seconds of the clock
 * (1..86400, the dashboard's time window; STREAM_RATE_MS without it; over the
 * stream's life when it is younger; records made in that span,
 * counted up to STREAM_RATE_CAP of them over all shards, split evenly, at
 * least 100 a shard: a shard past its share gives the rate over the span its
 * counted records cover, and "rate_capped" is true). The page polls every
 * second, so the count is bounded on the loop thread. */
#define STREAM_RATE_MS 60000
#define STREAM_RATE_CAP 10000
static void table_stream(sl_app *app, sl_http_request *req, sl_str name, sl_http_response *resp) {
  int64_t window_s = STREAM_RATE_MS / 1000;
  if (!window_param(app, req, resp, &window_s))
    return;
  sl_table *t = sl_catalog_get(app->env.catalog, name);
  if (!t) {
    sl_admin_error(resp, 404, "no such table");
    return;
  }
  sl_failure f;
  sl_failure_init(&f, &app->arena);
  sl_txn *txn = NULL;
  sl_stream st;
  int64_t now = sl_clock_now_ms(&app->clock);
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "table");
  sl_jw_str(&w, t->name);
  sl_jw_key_c(&w, "now_ms");
  sl_jw_int(&w, now);
  sl_jw_key_c(&w, "stream");
  if (!t->stream_enabled || !app->env.streams || sl_streams_index(app->env.streams, &f) != SL_OK ||
      sl_store_begin(app->env.store, false, &f, &txn) != SL_OK) {
    sl_jw_null(&w);
    sl_jw_obj_end(&w);
    reply(resp, 200);
    return;
  }
  if (!sl_streams_get(txn, &app->arena, t->name, t->stream_label, &st)) {
    sl_store_abort(txn);
    sl_jw_null(&w);
    sl_jw_obj_end(&w);
    reply(resp, 200);
    return;
  }
  sl_stream_shard *shards = NULL;
  size_t n = 0;
  sl_streams_shards(txn, &app->arena, &st, &shards, &n);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "view_type");
  sl_jw_str(&w, t->stream_view_type);
  sl_jw_key_c(&w, "label");
  sl_jw_str(&w, t->stream_label);
  int64_t oldest = 0;
  bool any = sl_streams_oldest(txn, &st, shards, n, &oldest);
  sl_jw_key_c(&w, "oldest_record_ms");
  if (any)
    sl_jw_int(&w, oldest);
  else
    sl_jw_null(&w);
  sl_jw_key_c(&w, "oldest_record_age_ms");
  if (any)
    sl_jw_int(&w, now - oldest);
  else
    sl_jw_null(&w);
  /* The rate's span: the window, or the stream's life when shorter (at
   * least a second, so a stream made this instant is not divided by 0). */
  int64_t span = now - (int64_t)st.created_ms;
  if (span > window_s * 1000)
    span = window_s * 1000;
  if (span < 1000)
    span = 1000;
  uint64_t recent = 0;
  bool capped = false;
  int64_t covered = span;
  uint64_t share = n ? STREAM_RATE_CAP / n : STREAM_RATE_CAP;
  if (share < 100)
    share = 100;
  for (size_t i = 0; i < n; i++) {
    sl_stream_count c = sl_streams_count_since(txn, &st, &shards[i], now - span, share);
    recent += c.n;
    if (c.capped) {
      capped = true;
      if (now - c.oldest_ms < covered)
        covered = now - c.oldest_ms > 0 ? now - c.oldest_ms : 1;
    }
  }
  if (capped) { /* Every shard's records within the span the capped count covers. */
    recent = 0;
    for (size_t i = 0; i < n; i++)
      recent += sl_streams_count_since(txn, &st, &shards[i], now - covered, share).n;
  }
  sl_jw_key_c(&w, "rate_window_ms");
  sl_jw_int(&w, covered);
  sl_jw_key_c(&w, "records_in_window");
  sl_jw_uint(&w, recent);
  sl_jw_key_c(&w, "records_per_second");
  sl_jw_double(&w, (double)recent * 1000.0 / (double)covered);
  sl_jw_key_c(&w, "rate_capped");
  sl_jw_bool(&w, capped);
  sl_jw_key_c(&w, "shards");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < n; i++) {
    const sl_stream_shard *sh = &shards[i];
    sl_stream_reader rd;
    bool read = sl_streams_reader(app->env.streams, st.id, sh->no, &rd);
    uint64_t from = read && rd.pos > sh->trim_seq ? rd.pos : sh->trim_seq;
    sl_stream_count unread = sl_streams_count(txn, &st, sh, from, 10000);
    int64_t newest = sl_streams_newest_ms(txn, &st, sh), first_ms = -1;
    uint64_t first, last;
    if (sl_streams_shard_bounds(txn, &st, sh, &first, &last))
      first_ms = sl_streams_count(txn, &st, sh, first, 1).oldest_ms;
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "shard_id");
    sl_jw_str_c(&w, sh->id);
    sl_jw_key_c(&w, "parent_shard_id");
    bool has_parent = false;
    for (size_t j = 0; j < n && sh->parent >= 0; j++)
      if ((int64_t)shards[j].no == sh->parent) {
        sl_jw_str_c(&w, shards[j].id);
        has_parent = true;
        break;
      }
    if (!has_parent)
      sl_jw_null(&w);
    sl_jw_key_c(&w, "open");
    sl_jw_bool(&w, sh->closed_ms == 0);
    sl_jw_key_c(&w, "created_ms");
    sl_jw_int(&w, (int64_t)sh->created_ms);
    sl_jw_key_c(&w, "closed_ms");
    if (sh->closed_ms)
      sl_jw_int(&w, (int64_t)sh->closed_ms);
    else
      sl_jw_null(&w);
    sl_jw_key_c(&w, "oldest_record_ms");
    if (first_ms >= 0)
      sl_jw_int(&w, first_ms);
    else
      sl_jw_null(&w);
    sl_jw_key_c(&w, "newest_record_ms");
    if (newest >= 0)
      sl_jw_int(&w, newest);
    else
      sl_jw_null(&w);
    sl_jw_key_c(&w, "read");
    sl_jw_bool(&w, read);
    sl_jw_key_c(&w, "last_read_ms");
    if (read)
      sl_jw_int(&w, rd.read_ms);
    else
      sl_jw_null(&w);
    sl_jw_key_c(&w, "reads");
    sl_jw_uint(&w, read ? rd.reads : 0);
    sl_jw_key_c(&w, "unread_records");
    sl_jw_uint(&w, unread.n);
    sl_jw_key_c(&w, "unread_capped");
    sl_jw_bool(&w, unread.capped);
    sl_jw_key_c(&w, "oldest_unread_ms");
    if (unread.oldest_ms >= 0)
      sl_jw_int(&w, unread.oldest_ms);
    else
      sl_jw_null(&w);
    sl_jw_key_c(&w, "lag_ms");
    if (unread.oldest_ms >= 0)
      sl_jw_int(&w, now - unread.oldest_ms);
    else
      sl_jw_int(&w, 0);
    sl_jw_obj_end(&w);
  }
  sl_store_abort(txn);
  sl_jw_arr_end(&w);
  sl_jw_obj_end(&w);
  sl_jw_obj_end(&w);
  reply(resp, 200);
}

/* GET /_sluice/tables/{name}/capacity[?window_s=N]: the table and each GSI
 * as the capacity engine sees them (capacity-model.md §8); with window_s,
 * each partition's throttles over the last N seconds of the clock, and the
 * auto scaling activities of that window; the largest item collections of
 * a table with LSIs. */
static void table_capacity(sl_app *app, sl_str name, sl_http_request *req, sl_http_response *resp) {
  sl_table *t = sl_catalog_get(app->env.catalog, name);
  if (!t) {
    sl_admin_error(resp, 404, "no such table");
    return;
  }
  int64_t window = 0;
  if (!window_param(app, req, resp, &window))
    return;
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "table");
  sl_jw_str(&w, t->name);
  sl_jw_key_c(&w, "now_ms");
  sl_jw_int(&w, sl_clock_now_ms(&app->clock));
  sl_jw_key_c(&w, "resources");
  sl_jw_arr_begin(&w);
  if (t->cap)
    sl_cap_res_write_json(app->env.cap, t->cap, &w, window);
  for (uint32_t i = 0; i < t->n_indexes; i++)
    if (t->indexes[i].cap)
      sl_cap_res_write_json(app->env.cap, t->indexes[i].cap, &w, window);
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "scaling_activities");
  write_scaling(app, t, window, &w);
  sl_jw_key_c(&w, "item_collections");
  write_collections(app, t, &w);
  sl_jw_obj_end(&w);
  reply(resp, 200);
}

/* The table's enabled stream: {"view_type","label","shards","open_shards",
 * "oldest_record_ms","next_sequence_number"} (shards still kept), or null. */
/* A key schema's attribute names: "partition_key" and "sort_key", the
 * first of each (null: no sort key), and "partition_keys" and "sort_keys",
 * every attribute in KeySchema order (a multi-attribute GSI key has up to
 * four of each). */
static void write_key_names(sl_jw *w, const sl_key_schema *k) {
  uint32_t nh = sl_key_n_hash(k), nr = sl_key_n_range(k);
  sl_jw_key_c(w, "partition_key");
  sl_jw_str(w, sl_key_part(k, 0).name);
  sl_jw_key_c(w, "sort_key");
  if (nr)
    sl_jw_str(w, sl_key_part(k, nh).name);
  else
    sl_jw_null(w);
  sl_jw_key_c(w, "partition_keys");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < nh; i++)
    sl_jw_str(w, sl_key_part(k, i).name);
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "sort_keys");
  sl_jw_arr_begin(w);
  for (uint32_t i = 0; i < nr; i++)
    sl_jw_str(w, sl_key_part(k, nh + i).name);
  sl_jw_arr_end(w);
}

static void write_stream(sl_app *app, const sl_table *t, sl_jw *w) {
  sl_failure f;
  sl_failure_init(&f, &app->arena);
  sl_txn *txn = NULL;
  sl_stream st;
  if (!t->stream_enabled || sl_streams_index(app->env.streams, &f) != SL_OK ||
      sl_store_begin(app->env.store, false, &f, &txn) != SL_OK) {
    sl_jw_null(w);
    return;
  }
  if (!sl_streams_get(txn, &app->arena, t->name, t->stream_label, &st)) {
    sl_store_abort(txn);
    sl_jw_null(w);
    return;
  }
  sl_stream_shard *shards = NULL;
  size_t n = 0, open = 0;
  sl_streams_shards(txn, &app->arena, &st, &shards, &n);
  for (size_t i = 0; i < n; i++)
    if (!shards[i].closed_ms)
      open++;
  int64_t oldest = 0;
  bool any = sl_streams_oldest(txn, &st, shards, n, &oldest);
  sl_store_abort(txn);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "view_type");
  sl_jw_str(w, t->stream_view_type);
  sl_jw_key_c(w, "label");
  sl_jw_str(w, t->stream_label);
  sl_jw_key_c(w, "shards");
  sl_jw_uint(w, n);
  sl_jw_key_c(w, "open_shards");
  sl_jw_uint(w, open);
  /* For a reader's lag: the oldest record kept (ms of the clock; null when
   * none) and the number the next record of any stream gets. */
  sl_jw_key_c(w, "oldest_record_ms");
  if (any)
    sl_jw_int(w, oldest);
  else
    sl_jw_null(w);
  sl_jw_key_c(w, "next_sequence_number");
  sl_jw_uint(w, sl_streams_next_seq(app->env.streams));
  sl_jw_obj_end(w);
}

/* GET /_sluice/tables[?window_s=N]: every table with its mode, settings,
 * counts, key attribute names and, over the last N seconds of the clock
 * (default 60, at most 86400), its throttle events (table and GSIs, reads
 * and writes) and when the last one was; and "deleted_tables", the deleted
 * tables whose last incarnation's metrics are kept, with theirs. */
static void list_tables(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  int64_t window = 60;
  if (!window_param(app, req, resp, &window))
    return;
  int64_t now = sl_clock_now_ms(&app->clock);
  int64_t start = (now / 1000 + 1 - window) * 1000;
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "tables");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < sl_catalog_count(app->env.catalog); i++) {
    sl_table *t = sl_catalog_at(app->env.catalog, i);
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "name");
    sl_jw_str(&w, t->name);
    sl_jw_key_c(&w, "mode");
    sl_jw_str_c(&w,
                t->tp.billing == SL_BILLING_PAY_PER_REQUEST ? "PAY_PER_REQUEST" : "PROVISIONED");
    sl_jw_key_c(&w, "read_capacity_units");
    sl_jw_int(&w, t->tp.rcu);
    sl_jw_key_c(&w, "write_capacity_units");
    sl_jw_int(&w, t->tp.wcu);
    sl_jw_key_c(&w, "item_count");
    sl_jw_uint(&w, t->item_count);
    sl_jw_key_c(&w, "size_bytes");
    sl_jw_uint(&w, t->size_bytes);
    sl_jw_key_c(&w, "status");
    sl_jw_str_c(&w, sl_status_name((sl_status)t->status));
    /* When a CREATING or UPDATING table, and an UPDATING warm throughput,
     * become ACTIVE (clock ms; --delays realistic draws them). */
    if (t->status == SL_STATUS_CREATING || t->status == SL_STATUS_UPDATING) {
      sl_jw_key_c(&w, "status_until_ms");
      sl_jw_uint(&w, t->status_until_ms);
    }
    if (t->tp.warm_status == SL_STATUS_UPDATING) {
      sl_jw_key_c(&w, "warm_until_ms");
      sl_jw_uint(&w, t->tp.warm_ready_ms);
    }
    sl_jw_key_c(&w, "partitions");
    sl_jw_uint(&w, t->cap ? sl_cap_res_partitions(t->cap) : 0);
    write_key_names(&w, &t->key);
    int64_t last_r = -1, last_w = -1, thr = 0;
    if (app->env.metrics) {
      thr = sl_metrics_window_sum(app->env.metrics, SL_M_READ_THROTTLE_EVENTS, t->name, false,
                                  SL_STR_NULL, true, start, now + 1, &last_r) +
            sl_metrics_window_sum(app->env.metrics, SL_M_WRITE_THROTTLE_EVENTS, t->name, false,
                                  SL_STR_NULL, true, start, now + 1, &last_w);
    }
    sl_jw_key_c(&w, "stream");
    write_stream(app, t, &w);
    sl_jw_key_c(&w, "window_s");
    sl_jw_int(&w, window);
    sl_jw_key_c(&w, "throttle_events");
    sl_jw_int(&w, thr);
    sl_jw_key_c(&w, "last_throttle_ms");
    if (last_r >= 0 || last_w >= 0)
      sl_jw_int(&w, last_r > last_w ? last_r : last_w);
    else
      sl_jw_null(&w);
    sl_jw_key_c(&w, "indexes");
    sl_jw_arr_begin(&w);
    for (uint32_t j = 0; j < t->n_indexes; j++) {
      sl_jw_obj_begin(&w);
      sl_jw_key_c(&w, "name");
      sl_jw_str(&w, t->indexes[j].name);
      sl_jw_key_c(&w, "global");
      sl_jw_bool(&w, t->indexes[j].global);
      /* An index being created by UpdateTable: the end of its resource
       * allocation and the earliest end of its backfill (clock ms). */
      if (t->indexes[j].online && t->indexes[j].status == SL_STATUS_CREATING) {
        sl_jw_key_c(&w, "alloc_until_ms");
        sl_jw_uint(&w, t->indexes[j].alloc_until_ms);
        sl_jw_key_c(&w, "backfill_until_ms");
        sl_jw_uint(&w, t->indexes[j].backfill_until_ms);
      }
      if (t->indexes[j].global && app->env.metrics) {
        sl_jw_key_c(&w, "throttle_events");
        sl_jw_int(
            &w, sl_metrics_window_sum(app->env.metrics, SL_M_READ_THROTTLE_EVENTS, t->name, false,
                                      t->indexes[j].name, false, start, now + 1, NULL) +
                    sl_metrics_window_sum(app->env.metrics, SL_M_WRITE_THROTTLE_EVENTS, t->name,
                                          false, t->indexes[j].name, false, start, now + 1, NULL));
      }
      write_key_names(&w, &t->indexes[j].key);
      sl_jw_obj_end(&w);
    }
    sl_jw_arr_end(&w);
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  /* What deleted tables did (their last incarnation, metrics/metrics.h). */
  sl_jw_key_c(&w, "deleted_tables");
  if (app->env.metrics)
    sl_metrics_write_deleted(app->env.metrics, &w, start, now + 1);
  else
    sl_jw_raw(&w, SL_STR("[]"));
  sl_jw_obj_end(&w);
  reply(resp, 200);
}

/* GET /_sluice/config: the capacity parameters in force. */
static void config(sl_app *app, sl_http_response *resp) {
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "profile");
  sl_jw_str_c(&w, app->cfg.profile);
  sl_jw_key_c(&w, "region");
  sl_jw_str_c(&w, app->cfg.region);
  sl_jw_key_c(&w, "account_id");
  sl_jw_str_c(&w, app->cfg.account_id);
  sl_jw_key_c(&w, "clock");
  sl_jw_str_c(&w, sl_clock_mode_name(app->clock.mode));
  sl_jw_key_c(&w, "durable");
  sl_jw_bool(&w, sl_store_durable(app->env.store));
  sl_jw_key_c(&w, "capacity");
  sl_cap_params_write_json(sl_cap_params_of(app->env.cap), &w);
  sl_jw_obj_end(&w);
  reply(resp, 200);
}

/* /_sluice/faults: GET lists, POST adds (a rule or an array), DELETE
 * /_sluice/faults/{id} removes one, DELETE /_sluice/faults all. */
static void faults(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  sl_str rest = sl_str_make(req->path.p + 15, req->path.len - 15);
  bool get = sl_str_eq_c(req->method, "GET"), post = sl_str_eq_c(req->method, "POST");
  bool del = sl_str_eq_c(req->method, "DELETE");
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  if (rest.len == 0 && get) {
    sl_faults_write(app->faults, &w);
  } else if (rest.len == 0 && post) {
    sl_json *body = NULL;
    sl_json_error jerr;
    char err[300];
    if (sl_json_parse(&app->arena, req->body.p, req->body.len, &body, &jerr) != 0) {
      sl_admin_error(resp, 400, "the body must be a fault rule or an array of rules (JSON)");
      return;
    }
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "rules");
    if (!sl_faults_add(app->faults, &app->env, body, &w, err, sizeof(err))) {
      sl_admin_error(resp, 400, err);
      return;
    }
    sl_jw_obj_end(&w);
  } else if (rest.len == 0 && del) {
    sl_faults_clear(app->faults);
    sl_jw_obj_begin(&w);
    sl_jw_obj_end(&w);
  } else if (del && rest.len > 1 && rest.p[0] == '/') {
    char tmp[24];
    size_t n = rest.len - 1 < sizeof(tmp) - 1 ? rest.len - 1 : sizeof(tmp) - 1;
    memcpy(tmp, rest.p + 1, n);
    tmp[n] = 0;
    char *end;
    unsigned long long id = strtoull(tmp, &end, 10);
    if (*end || !sl_faults_delete(app->faults, id)) {
      sl_admin_error(resp, 404, "no such fault rule");
      return;
    }
    sl_jw_obj_begin(&w);
    sl_jw_obj_end(&w);
  } else {
    sl_admin_error(resp, 404, "no such endpoint");
    return;
  }
  reply(resp, 200);
}

void sl_admin_handle(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  if (sl_metrics_http_handle(app, req, resp))
    return;
  bool get = sl_str_eq_c(req->method, "GET"), post = sl_str_eq_c(req->method, "POST");
  sl_str tables = SL_STR("/_sluice/tables/"), suffix = SL_STR("/capacity");
  if (get && sl_str_starts_with(req->path, tables) && req->path.len > tables.len + suffix.len &&
      memcmp(req->path.p + req->path.len - suffix.len, suffix.p, suffix.len) == 0) {
    table_capacity(app,
                   sl_str_make(req->path.p + tables.len, req->path.len - tables.len - suffix.len),
                   req, resp);
    return;
  }
  sl_str stream_suffix = SL_STR("/stream");
  if (get && sl_str_starts_with(req->path, tables) &&
      req->path.len > tables.len + stream_suffix.len &&
      memcmp(req->path.p + req->path.len - stream_suffix.len, stream_suffix.p, stream_suffix.len) ==
          0) {
    table_stream(
        app, req,
        sl_str_make(req->path.p + tables.len, req->path.len - tables.len - stream_suffix.len),
        resp);
    return;
  }
  if (sl_str_starts_with(req->path, SL_STR("/_sluice/faults"))) {
    faults(app, req, resp);
    return;
  }
  if (sl_str_eq_c(req->path, "/_sluice/tables") && get)
    list_tables(app, req, resp);
  else if (sl_str_eq_c(req->path, "/_sluice/config") && get)
    config(app, resp);
  else if (sl_str_eq_c(req->path, "/_sluice/clock") && get)
    write_clock(app, resp);
  else if (sl_str_eq_c(req->path, "/_sluice/clock") && post)
    post_clock(app, req, resp);
  else if (sl_str_eq_c(req->path, "/_sluice/reset") && post)
    reset(app, req, resp);
  else if (sl_str_eq_c(req->path, "/_sluice/explain") && post)
    sl_explain_handle(app, req, resp);
  else if (sl_str_eq_c(req->path, "/_sluice/execute") && post)
    sl_explain_execute(app, req, resp);
  else
    sl_admin_error(resp, 404, "no such endpoint");
}
