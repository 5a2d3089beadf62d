/* The HTTP endpoints of metrics/; see metrics_http.h. */
#include "server/metrics_http.h"
#include "base/json.h"
#include "metrics/metrics.h"

#include <stdlib.h>

void sl_admin_error(sl_http_response *resp, int status, const char *msg) {
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "error");
  sl_jw_str_c(&w, msg);
  sl_jw_obj_end(&w);
  resp->status = status;
  resp->content_type = SL_STR("application/json");
}

static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The decoded value of query parameter 'name' (form encoding: %XX and '+'),
 * or an empty slice; *present says whether it was there at all. */
sl_str sl_admin_query(sl_arena *a, sl_str query, const char *name, bool *present) {
  size_t nlen = strlen(name);
  const char *p = query.p, *end = query.p + query.len;
  if (present)
    *present = false;
  while (p && p < end) {
    const char *amp = memchr(p, '&', (size_t)(end - p));
    const char *stop = amp ? amp : end;
    const char *eq = memchr(p, '=', (size_t)(stop - p));
    const char *kend = eq ? eq : stop;
    if ((size_t)(kend - p) == nlen && memcmp(p, name, nlen) == 0) {
      if (present)
        *present = true;
      const char *v = eq ? eq + 1 : stop;
      char *out = sl_arena_alloc(a, (size_t)(stop - v) + 1);
      size_t n = 0;
      for (const char *q = v; q < stop; q++) {
        if (*q == '+') {
          out[n++] = ' ';
        } else if (*q == '%' && stop - q >= 3 && hexval(q[1]) >= 0 && hexval(q[2]) >= 0) {
          out[n++] = (char)(hexval(q[1]) * 16 + hexval(q[2]));
          q += 2;
        } else {
          out[n++] = *q;
        }
      }
      out[n] = 0;
      return sl_str_make(out, n);
    }
    p = amp ? amp + 1 : NULL;
  }
  return SL_STR_NULL;
}

static bool parse_int(sl_str s, int64_t *out) {
  if (s.len == 0 || s.len > 18)
    return false;
  int64_t v = 0;
  for (size_t i = 0; i < s.len; i++) {
    if (s.p[i] < '0' || s.p[i] > '9')
      return false;
    v = v * 10 + (s.p[i] - '0');
  }
  *out = v;
  return true;
}

/* An ISO 8601 time or epoch milliseconds. */
static bool parse_time(sl_str s, int64_t *ms) {
  return parse_int(s, ms) || sl_time_parse_iso(s, ms);
}

/* Samples the provisioned capacity of every provisioned table and GSI. */
static void sample_provisioned(sl_app *app) {
  for (size_t i = 0; i < sl_catalog_count(app->env.catalog); i++) {
    const sl_table *t = sl_catalog_at(app->env.catalog, i);
    if (t->tp.billing != SL_BILLING_PROVISIONED)
      continue;
    sl_metrics_provisioned(app->env.metrics, t->name, SL_STR_NULL, t->tp.rcu, t->tp.wcu);
    for (uint32_t j = 0; j < t->n_indexes; j++)
      if (t->indexes[j].global)
        sl_metrics_provisioned(app->env.metrics, t->name, t->indexes[j].name, t->indexes[j].tp.rcu,
                               t->indexes[j].tp.wcu);
  }
}

static void prometheus(sl_app *app, sl_http_response *resp) {
  sample_provisioned(app);
  resp->body.len = 0;
  sl_metrics_write_prometheus(app->env.metrics, &resp->body);
  resp->status = 200;
  resp->content_type = SL_STR("text/plain; version=0.0.4; charset=utf-8");
}

/* ?incarnation=live (the default) or deleted: the table's last deleted
 * incarnation (metrics/metrics.h). False with a 400 reply when malformed. */
static bool incarnation_param(sl_app *app, sl_http_request *req, sl_http_response *resp,
                              bool *deleted) {
  bool has;
  sl_str v = sl_admin_query(&app->arena, req->query, "incarnation", &has);
  *deleted = has && sl_str_eq_c(v, "deleted");
  if (has && !*deleted && !sl_str_eq_c(v, "live")) {
    sl_admin_error(resp, 400, "incarnation must be live or deleted");
    return false;
  }
  return true;
}

static void datapoints(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  sl_arena *a = &app->arena;
  sl_str table = sl_admin_query(a, req->query, "table", NULL);
  sl_str metric_name = sl_admin_query(a, req->query, "metric", NULL);
  sl_str index = sl_admin_query(a, req->query, "index", NULL);
  sl_str operation = sl_admin_query(a, req->query, "operation", NULL);
  sl_str verb = sl_admin_query(a, req->query, "verb", NULL);
  bool has_period, has_start, has_end;
  sl_str period_s = sl_admin_query(a, req->query, "period", &has_period);
  sl_str start_s = sl_admin_query(a, req->query, "start", &has_start);
  sl_str end_s = sl_admin_query(a, req->query, "end", &has_end);
  int metric = sl_metrics_find(metric_name);
  if (metric < 0) {
    sl_admin_error(resp, 400,
                   "metric must be a CloudWatch metric name, e.g. ConsumedReadCapacityUnits");
    return;
  }
  if (table.len == 0 && metric != SL_M_USER_ERRORS) {
    sl_admin_error(resp, 400, "table is required");
    return;
  }
  bool deleted;
  if (!incarnation_param(app, req, resp, &deleted))
    return;
  int64_t period = 60, start, end = sl_clock_now_ms(&app->clock);
  if (has_period && !parse_int(period_s, &period)) {
    sl_admin_error(resp, 400, "period must be a number of seconds");
    return;
  }
  if (has_end && !parse_time(end_s, &end)) {
    sl_admin_error(resp, 400, "end must be an ISO 8601 time or epoch milliseconds");
    return;
  }
  start = end - (period >= 60 ? 3600 * 1000 : 300 * 1000);
  if (has_start && !parse_time(start_s, &start)) {
    sl_admin_error(resp, 400, "start must be an ISO 8601 time or epoch milliseconds");
    return;
  }
  if (metric == SL_M_PROVISIONED_READ || metric == SL_M_PROVISIONED_WRITE)
    sample_provisioned(app);
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  const char *err = NULL;
  if (!sl_metrics_write_datapoints(app->env.metrics, &w, table, deleted, index, operation, verb,
                                   (sl_metric)metric, period, start, end, &err)) {
    sl_admin_error(resp, 400, err);
    return;
  }
  resp->status = 200;
  resp->content_type = SL_STR("application/json");
}

static void events(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  sl_str table = sl_admin_query(&app->arena, req->query, "table", NULL);
  bool has_limit;
  sl_str limit_s = sl_admin_query(&app->arena, req->query, "limit", &has_limit);
  int64_t limit = 100;
  if (has_limit && (!parse_int(limit_s, &limit) || limit < 1 || limit > SL_METRICS_EVENTS)) {
    sl_admin_error(resp, 400, "limit must be 1..1000");
    return;
  }
  bool deleted;
  if (!incarnation_param(app, req, resp, &deleted))
    return;
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "now_ms");
  sl_jw_int(&w, sl_clock_now_ms(&app->clock));
  sl_jw_key_c(&w, "events");
  sl_metrics_write_events(app->env.metrics, &w, table, deleted, (size_t)limit);
  sl_jw_obj_end(&w);
  resp->status = 200;
  resp->content_type = SL_STR("application/json");
}

static void insights(sl_app *app, sl_str name, sl_http_request *req, sl_http_response *resp) {
  if (!sl_catalog_get(app->env.catalog, name)) {
    sl_admin_error(resp, 404, "no such table");
    return;
  }
  bool has_minutes;
  sl_str minutes_s = sl_admin_query(&app->arena, req->query, "minutes", &has_minutes);
  int64_t minutes = 5;
  if (has_minutes && (!parse_int(minutes_s, &minutes) || minutes < 1 || minutes > SL_CI_MINUTES)) {
    sl_admin_error(resp, 400, "minutes must be 1..60");
    return;
  }
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "table");
  sl_jw_str(&w, name);
  sl_jw_key_c(&w, "now_ms");
  sl_jw_int(&w, sl_clock_now_ms(&app->clock));
  sl_jw_key_c(&w, "resources");
  sl_metrics_write_insights(app->env.metrics, &w, name, (int)minutes);
  sl_jw_obj_end(&w);
  resp->status = 200;
  resp->content_type = SL_STR("application/json");
}

/* The string member 'key' of a JSON object, or an empty slice. */
static sl_str json_str(const sl_json *obj, const char *key) {
  const sl_json *v = obj ? sl_json_get(obj, key) : NULL;
  return v && v->type == SL_JSON_STRING ? v->str : SL_STR_NULL;
}

/* POST /_sluice/tables/{name}/insights {"action": "ENABLE"|"DISABLE",
 * "index": NAME, "mode": "THROTTLED_KEYS"|"ACCESSED_AND_THROTTLED_KEYS"}:
 * what UpdateContributorInsights does, for the dashboard, which calls the
 * admin API only (it has no credentials to sign a DynamoDB request with
 * under --auth sigv4). */
static void set_insights(sl_app *app, sl_str name, sl_http_request *req, sl_http_response *resp) {
  sl_table *t = sl_catalog_get(app->env.catalog, name);
  if (!t) {
    sl_admin_error(resp, 404, "no such table");
    return;
  }
  sl_json *body = NULL;
  sl_json_error jerr;
  if (sl_json_parse(&app->arena, req->body.p, req->body.len, &body, &jerr) != 0 ||
      body->type != SL_JSON_OBJECT) {
    sl_admin_error(resp, 400, "the body must be a JSON object");
    return;
  }
  sl_str action = json_str(body, "action"), index = json_str(body, "index");
  if (!sl_str_eq_c(action, "ENABLE") && !sl_str_eq_c(action, "DISABLE")) {
    sl_admin_error(resp, 400, "action must be ENABLE or DISABLE");
    return;
  }
  if (index.len) {
    const sl_index *x = sl_table_index(t, index);
    if (!x || !x->global) {
      sl_admin_error(resp, 404, "no such global secondary index");
      return;
    }
  }
  bool enable = sl_str_eq_c(action, "ENABLE");
  bool throttled_only = sl_str_eq_c(json_str(body, "mode"), "THROTTLED_KEYS");
  sl_ci_mode mode = !enable          ? SL_CI_DISABLED
                    : throttled_only ? SL_CI_THROTTLED_ONLY
                                     : SL_CI_ACCESSED_AND_THROTTLED;
  sl_metrics_ci_set(app->env.metrics, t->name, index, sl_str_c(t->uuid), mode);
  resp->body.len = 0;
  sl_jw w;
  sl_jw_init(&w, &resp->body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "table");
  sl_jw_str(&w, t->name);
  sl_jw_key_c(&w, "status");
  sl_jw_str_c(&w, enable ? "ENABLING" : "DISABLING");
  sl_jw_obj_end(&w);
  resp->status = 200;
  resp->content_type = SL_STR("application/json");
}

bool sl_metrics_http_handle(sl_app *app, sl_http_request *req, sl_http_response *resp) {
  sl_str path = req->path;
  sl_str tables = SL_STR("/_sluice/tables/"), suffix = SL_STR("/insights");
  bool insights_path = sl_str_starts_with(path, tables) && path.len > tables.len + suffix.len &&
                       memcmp(path.p + path.len - suffix.len, suffix.p, suffix.len) == 0;
  if (!insights_path && !sl_str_eq_c(path, "/metrics") && !sl_str_eq_c(path, "/_sluice/metrics") &&
      !sl_str_eq_c(path, "/_sluice/events"))
    return false;
  if (insights_path && app->env.metrics && sl_str_eq_c(req->method, "POST")) {
    set_insights(app, sl_str_make(path.p + tables.len, path.len - tables.len - suffix.len), req,
                 resp);
    return true;
  }
  if (!sl_str_eq_c(req->method, "GET")) {
    sl_admin_error(resp, 405, "method not allowed: use GET");
    return true;
  }
  if (!app->env.metrics)
    sl_admin_error(resp, 404, "metrics are off");
  else if (insights_path)
    insights(app, sl_str_make(path.p + tables.len, path.len - tables.len - suffix.len), req, resp);
  else if (sl_str_eq_c(path, "/metrics"))
    prometheus(app, resp);
  else if (sl_str_eq_c(path, "/_sluice/metrics"))
    datapoints(app, req, resp);
  else
    events(app, req, resp);
  return true;
}
