/* Unit tests of src/metrics (metrics.h, topk.h) and of how the request path
 * feeds it (ops/admit.c, server/dispatch.c).
 *
 * The counting rules of facts §7 are checked end to end where the request
 * path exists: a real sl_app on a manual clock answers HTTP requests through
 * the router, and the test reads the metrics back as CloudWatch datapoints.
 * The batch rule is checked at the level the batch actions use
 * (sl_req_admit_item / sl_req_fail_throttled). Rings, top-k and the
 * Prometheus text are checked on the registry alone.
 */
#include "server/router.h"
#include "ops/req.h"
#include "base/json.h"
#include "harness.h"
#include "metrics/metrics_int.h"
#include "metrics/topk.h"

#include <stdio.h>
#include <stdlib.h>

/* 2026-11-30T12:00:00Z, a whole minute. */
#define T0_MS 1796040000000LL

/* ---- reading metrics back ---- */

/* Where 'needle' occurs in the buffer, or NULL. */
static const char *has(const sl_buf *b, const char *needle) {
  return memmem(b->p, b->len, needle, strlen(needle));
}

typedef struct {
  double sum, count, min, max;
  int datapoints;
} stats;

/* Sum of the datapoints of one metric over [start, end) (period 60, or 1
 * for the per-second ring). */
static stats read_metric(sl_metrics *m, const char *table, const char *index, const char *op,
                         sl_metric metric, int64_t period, int64_t start, int64_t end) {
  stats st = {0};
  sl_arena a;
  sl_arena_init(&a);
  sl_buf b;
  sl_buf_init(&b, &a);
  sl_jw w;
  sl_jw_init(&w, &b);
  const char *err = NULL;
  bool ok =
      sl_metrics_write_datapoints(m, &w, sl_str_c(table), false, sl_str_c(index), sl_str_c(op),
                                  SL_STR_NULL, metric, period, start, end, &err);
  CHECK(ok);
  sl_json *root;
  sl_json_error jerr;
  if (ok && sl_json_parse(&a, b.p, b.len, &root, &jerr) == 0) {
    const sl_json *dps = sl_json_get(root, "Datapoints");
    for (size_t i = 0; dps && i < dps->arr.n; i++) {
      const sl_json *d = dps->arr.items[i];
      double sum = strtod(sl_json_get(d, "Sum")->str.p, NULL);
      double count = strtod(sl_json_get(d, "SampleCount")->str.p, NULL);
      double mn = strtod(sl_json_get(d, "Minimum")->str.p, NULL);
      double mx = strtod(sl_json_get(d, "Maximum")->str.p, NULL);
      if (st.datapoints == 0 || mn < st.min)
        st.min = mn;
      if (st.datapoints == 0 || mx > st.max)
        st.max = mx;
      st.sum += sum;
      st.count += count;
      st.datapoints++;
    }
  }
  sl_arena_destroy(&a);
  return st;
}

/* The metric over the hour around T0 (where every test records). */
static stats around(sl_metrics *m, const char *table, const char *index, const char *op,
                    sl_metric metric) {
  return read_metric(m, table, index, op, metric, 60, T0_MS - 3600000, T0_MS + 3600000);
}

/* ---- a server without sockets ---- */

typedef struct {
  sl_app app;
} server;

static void server_open(server *s) {
  sl_app_config cfg;
  sl_app_config_default(&cfg);
  cfg.clock_mode = SL_CLOCK_MANUAL;
  cfg.clock_start_ms = T0_MS;
  sl_failure f;
  sl_arena a;
  sl_arena_init(&a);
  sl_failure_init(&f, &a);
  sl_err err = sl_app_open(&s->app, &cfg, &f);
  CHECK_INT(err, SL_OK);
  sl_arena_destroy(&a);
}

static void server_close(server *s) { sl_app_close(&s->app); }

/* One DynamoDB call through the router; returns the HTTP status and copies
 * the reply's __type (or "") into 'type'. */
static int call(server *s, const char *op, const char *json, char type[128]) {
  sl_http_request req;
  memset(&req, 0, sizeof(req));
  req.method = SL_STR("POST");
  req.path = req.target = SL_STR("/");
  char target[96];
  snprintf(target, sizeof(target), "DynamoDB_20120810.%s", op);
  req.headers[0] = (sl_http_header){SL_STR("x-amz-target"), sl_str_c(target)};
  /* A well-formed header: --auth any checks its format (net/sigv4.h). */
  req.headers[1] = (sl_http_header){
      SL_STR("authorization"), SL_STR("AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/"
                                      "dynamodb/aws4_request, SignedHeaders=host, Signature=0")};
  req.headers[2] = (sl_http_header){SL_STR("content-type"), SL_STR("application/x-amz-json-1.0")};
  req.n_headers = 3;
  req.body = sl_str_c(json);
  sl_http_response resp;
  memset(&resp, 0, sizeof(resp));
  resp.status = 200;
  sl_buf_init(&resp.body, NULL);
  sl_router_handle(&s->app, &req, &resp);
  if (type) {
    type[0] = 0;
    const char *p = memmem(resp.body.p, resp.body.len, "\"__type\":\"", 10);
    if (p) {
      p += 10;
      const char *q = memchr(p, '"', (size_t)(resp.body.p + resp.body.len - p));
      snprintf(type, 128, "%.*s", (int)(q - p), p);
    }
  }
  int status = resp.status;
  if (status != 200 && !type)
    fprintf(stderr, "%s: %d %.*s\n", op, status, (int)resp.body.len, resp.body.p);
  sl_buf_free(&resp.body);
  return status;
}

static void advance(server *s, int64_t ms) { sl_clock_advance(&s->app.clock, ms); }

/* ---- counting rules through the request path ---- */

/* facts §7: a PutItem on a table with 3 GSIs throttled by one GSI is one
 * ThrottledRequests and one WriteThrottleEvents, on that GSI only (the
 * table and the other GSIs were not throttled). */
static void test_put_throttled_by_one_gsi(void) {
  server s;
  server_open(&s);
  char type[128];
  int st =
      call(&s, "CreateTable",
           "{\"TableName\":\"orders\",\"AttributeDefinitions\":["
           "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
           "{\"AttributeName\":\"a\",\"AttributeType\":\"S\"},"
           "{\"AttributeName\":\"b\",\"AttributeType\":\"S\"},"
           "{\"AttributeName\":\"c\",\"AttributeType\":\"S\"}],"
           "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
           "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":100},"
           "\"GlobalSecondaryIndexes\":["
           "{\"IndexName\":\"gsa\",\"KeySchema\":[{\"AttributeName\":\"a\",\"KeyType\":\"HASH\"}],"
           "\"Projection\":{\"ProjectionType\":\"ALL\"},"
           "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":100}},"
           "{\"IndexName\":\"gsb\",\"KeySchema\":[{\"AttributeName\":\"b\",\"KeyType\":\"HASH\"}],"
           "\"Projection\":{\"ProjectionType\":\"ALL\"},"
           "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":1}},"
           "{\"IndexName\":\"gsc\",\"KeySchema\":[{\"AttributeName\":\"c\",\"KeyType\":\"HASH\"}],"
           "\"Projection\":{\"ProjectionType\":\"ALL\"},"
           "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":100,\"WriteCapacityUnits\":100}}]}",
           NULL);
  CHECK_INT(st, 200);
  advance(&s, 30000); /* ACTIVE */
  /* gsb starts with its whole burst (300 s of 1 WCU): the 301st put is
   * throttled. */
  int ok = 0, throttled = 0;
  for (int i = 0; i < 400 && !throttled; i++) {
    char body[256];
    snprintf(body, sizeof(body),
             "{\"TableName\":\"orders\",\"Item\":{\"pk\":{\"S\":\"k%d\"},\"a\":{\"S\":\"a%d\"},"
             "\"b\":{\"S\":\"b%d\"},\"c\":{\"S\":\"c%d\"}}}",
             i, i, i, i);
    if (call(&s, "PutItem", body, type) == 200)
      ok++;
    else
      throttled++;
  }
  CHECK_INT(throttled, 1);
  CHECK(strstr(type, "ProvisionedThroughputExceededException") != NULL);
  sl_metrics *m = s.app.env.metrics;
  CHECK_INT(around(m, "orders", "", "PutItem", SL_M_THROTTLED_REQUESTS).sum, 1);
  CHECK_INT(around(m, "orders", "gsb", "", SL_M_WRITE_THROTTLE_EVENTS).sum, 1);
  CHECK_INT(around(m, "orders", "gsb", "", SL_M_WRITE_PROVISIONED_THROTTLE_EVENTS).sum, 1);
  CHECK_INT(around(m, "orders", "gsb", "", SL_M_WRITE_KEY_RANGE_THROTTLE_EVENTS).sum, 0);
  CHECK_INT(around(m, "orders", "", "", SL_M_WRITE_THROTTLE_EVENTS).datapoints, 0);
  CHECK_INT(around(m, "orders", "gsa", "", SL_M_WRITE_THROTTLE_EVENTS).datapoints, 0);
  CHECK_INT(around(m, "orders", "gsc", "", SL_M_WRITE_THROTTLE_EVENTS).datapoints, 0);
  /* The admitted puts consumed 1 unit each on the table and on every GSI;
   * the throttled one consumed nothing. */
  stats t = around(m, "orders", "", "", SL_M_CONSUMED_WRITE);
  CHECK_INT(t.sum, ok);
  CHECK_INT(t.count, ok);
  CHECK_INT(around(m, "orders", "gsb", "", SL_M_CONSUMED_WRITE).sum, ok);
  /* Throttles are not user errors; the latency counts successes only. */
  CHECK_INT(around(m, "", "", "", SL_M_USER_ERRORS).datapoints, 0);
  CHECK_INT(around(m, "orders", "", "PutItem", SL_M_SUCCESSFUL_REQUEST_LATENCY).count, ok);
  /* The event names the GSI, the reason and the key. */
  sl_arena a;
  sl_arena_init(&a);
  sl_buf b;
  sl_buf_init(&b, &a);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_metrics_write_events(m, &w, SL_STR("orders"), false, 10);
  CHECK(has(&b, "\"index\":\"gsb\"") != NULL);
  CHECK(has(&b, "IndexWriteProvisionedThroughputExceeded") != NULL);
  char key[32];
  snprintf(key, sizeof(key), "\"partition_key\":\"b%d\"", ok);
  CHECK(memmem(b.p, b.len, key, strlen(key)) != NULL);
  sl_arena_destroy(&a);
  server_close(&s);
}

/* facts §7: UserErrors counts 400s (no dimension), not throttles nor failed
 * conditions; SystemErrors are 500s. */
static void test_user_errors(void) {
  server s;
  server_open(&s);
  char type[128];
  CHECK_INT(call(&s, "GetItem", "{\"TableName\":\"nope\",\"Key\":{\"pk\":{\"S\":\"x\"}}}", type),
            400);
  CHECK_INT(call(&s, "NoSuchOperation", "{}", type), 400);
  stats u = around(s.app.env.metrics, "", "", "", SL_M_USER_ERRORS);
  CHECK_INT(u.sum, 2);
  server_close(&s);
}

/* facts §7 batch rule: a partially throttled batch is 0 ThrottledRequests
 * and one event per throttled item; a batch whose every item was throttled
 * is 1 ThrottledRequests. Driven the way the batch actions drive admission. */
static void test_batch_rule(void) {
  server s;
  server_open(&s);
  int st = call(&s, "CreateTable",
                "{\"TableName\":\"batch\",\"AttributeDefinitions\":["
                "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
                "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
                "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":2}}",
                NULL);
  CHECK_INT(st, 200);
  advance(&s, 1000);
  sl_app_tick(&s.app);
  sl_table *t = sl_catalog_get(s.app.env.catalog, SL_STR("batch"));
  CHECK(t && t->cap);
  if (!t || !t->cap)
    return;
  /* Spend the new table's burst (300 s of 2 WCU) but for two units. */
  sl_cap_charge drain = {.res = t->cap, .dir = SL_CAP_WRITE, .hash = 1, .cost_mu = 598000};
  sl_cap_verdict dv;
  CHECK(sl_cap_admit(s.app.env.cap, &drain, 1, &dv));
  /* One batch of 5 one-unit writes: the bucket admits while positive. */
  int events = 0;
  for (int round = 0; round < 2; round++) {
    sl_req req;
    memset(&req, 0, sizeof(req));
    req.env = &s.app.env;
    req.arena = &s.app.arena;
    req.op_name = "BatchWriteItem";
    req.table = t;
    sl_failure_init(&req.fail, req.arena);
    sl_req_metrics_begin(&req);
    int admitted = 0, throttled = 0;
    sl_cap_verdict first;
    for (int i = 0; i < 5; i++) {
      sl_cap_charge ch = {
          .res = t->cap, .dir = SL_CAP_WRITE, .hash = 1000 + (uint64_t)i, .cost_mu = 1000};
      sl_cap_verdict v;
      if (sl_req_admit_item(&req, &ch, 1, &v)) {
        admitted++;
      } else if (throttled++ == 0) {
        first = v;
      }
    }
    if (admitted == 0)
      sl_req_fail_throttled(&req, &first);
    sl_req_metrics_end(&req);
    sl_arena_reset(&s.app.arena);
    if (round == 0) {
      /* Partial: some admitted, some throttled. */
      CHECK(admitted > 0 && throttled > 0);
      CHECK_INT(around(s.app.env.metrics, "batch", "", "BatchWriteItem", SL_M_THROTTLED_REQUESTS)
                    .datapoints,
                0);
      CHECK_INT(around(s.app.env.metrics, "batch", "", "", SL_M_WRITE_THROTTLE_EVENTS).sum,
                throttled);
      /* One request: one sample of the units it consumed. */
      stats c = around(s.app.env.metrics, "batch", "", "", SL_M_CONSUMED_WRITE);
      CHECK_INT(c.count, 1);
      CHECK_INT(c.sum, admitted);
      events = throttled;
    } else {
      /* The bucket is empty now: every item is throttled. */
      CHECK_INT(admitted, 0);
      CHECK_INT(
          around(s.app.env.metrics, "batch", "", "BatchWriteItem", SL_M_THROTTLED_REQUESTS).sum, 1);
      CHECK_INT(around(s.app.env.metrics, "batch", "", "", SL_M_WRITE_THROTTLE_EVENTS).sum,
                events + 5);
    }
  }
  server_close(&s);
}

/* facts §7: ConsumedXCapacityUnits SampleCount counts requests, even those
 * that consumed 0 units; Sum is in units (milli-units exact). */
static void test_consumed_samplecount(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_metrics_consumed(m, SL_STR("t"), SL_STR_NULL, false, 0);
  sl_metrics_consumed(m, SL_STR("t"), SL_STR_NULL, false, 0);
  sl_metrics_consumed(m, SL_STR("t"), SL_STR_NULL, false, 500);
  sl_metrics_consumed(m, SL_STR("t"), SL_STR("g"), false, 1500);
  stats st = around(m, "t", "", "", SL_M_CONSUMED_READ);
  CHECK_INT(st.count, 3);
  CHECK(st.sum == 0.5);
  CHECK(st.min == 0.0 && st.max == 0.5);
  /* TableName alone is the table only; the GSI is its own series. */
  stats g = around(m, "t", "g", "", SL_M_CONSUMED_READ);
  CHECK_INT(g.count, 1);
  CHECK(g.sum == 1.5);
  sl_metrics_free(m);
}

/* The per-second and per-minute rings on the manual clock: cells land in
 * their period, old ones fall out once the ring has wrapped, and a reused
 * chunk starts empty. */
static void test_ring_rollover(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_str t = SL_STR("ring");
  sl_metrics_consumed(m, t, SL_STR_NULL, true, 1000); /* 12:00:00 */
  sl_clock_advance(&clk, 30000);
  sl_metrics_consumed(m, t, SL_STR_NULL, true, 2000); /* 12:00:30 */
  sl_clock_advance(&clk, 31000);
  sl_metrics_consumed(m, t, SL_STR_NULL, true, 4000); /* 12:01:01 */
  stats m0 = read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 60, T0_MS, T0_MS + 60000);
  CHECK_INT(m0.count, 2);
  CHECK(m0.sum == 3.0 && m0.min == 1.0 && m0.max == 2.0);
  stats m1 = read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 60, T0_MS + 60000, T0_MS + 120000);
  CHECK_INT(m1.count, 1);
  /* Per second: three separate datapoints within the last five minutes. */
  stats s = read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 1, T0_MS, T0_MS + 120000);
  CHECK_INT(s.datapoints, 3);
  /* A 120 s period cuts at multiples of 120 s: one datapoint. */
  CHECK_INT(
      read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 120, T0_MS, T0_MS + 120000).datapoints,
      1);
  /* 4 minutes later the seconds of 12:00:00 are still there; after 5
   * minutes they are gone from the second ring, not from the minute ring. */
  sl_clock_advance(&clk, 4 * 60000 - 2000);
  CHECK_INT(read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 1, T0_MS, T0_MS + 1000).count, 1);
  sl_clock_advance(&clk, 61000);
  CHECK_INT(read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 1, T0_MS, T0_MS + 1000).count, 0);
  CHECK_INT(read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 60, T0_MS, T0_MS + 60000).count, 2);
  /* One day later the minute ring has wrapped: writing 24 h after 12:00
   * reuses the chunk of 12:00 and clears it. */
  sl_clock_set(&clk, T0_MS + 24LL * 3600000);
  sl_metrics_consumed(m, t, SL_STR_NULL, true, 8000);
  CHECK_INT(read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 60, T0_MS, T0_MS + 60000).count, 0);
  stats now = read_metric(m, "ring", "", "", SL_M_CONSUMED_WRITE, 60, T0_MS + 24LL * 3600000,
                          T0_MS + 24LL * 3600000 + 60000);
  CHECK_INT(now.count, 1);
  CHECK(now.sum == 8.0);
  /* The running total behind the Prometheus counter keeps everything. */
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_metrics_write_prometheus(m, &b);
  CHECK(has(&b, "sluice_dynamodb_consumed_write_capacity_units_total{table_name=\"ring\"} 15\n") !=
        NULL);
  sl_buf_free(&b);
  /* Bad requests. */
  sl_arena a;
  sl_arena_init(&a);
  sl_buf jb;
  sl_buf_init(&jb, &a);
  sl_jw w;
  sl_jw_init(&w, &jb);
  const char *err = NULL;
  CHECK(!sl_metrics_write_datapoints(m, &w, t, false, SL_STR_NULL, SL_STR_NULL, SL_STR_NULL,
                                     SL_M_CONSUMED_WRITE, 7, T0_MS, T0_MS + 1000, &err));
  CHECK(!sl_metrics_write_datapoints(m, &w, t, false, SL_STR_NULL, SL_STR_NULL, SL_STR_NULL,
                                     SL_M_CONSUMED_WRITE, 1, T0_MS, T0_MS + 1441000, &err));
  sl_arena_destroy(&a);
  sl_metrics_free(m);
}

/* Request-level metrics: outcome and dimensions. */
static void test_request_outcomes(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_str t = SL_STR("req");
  sl_metrics_request(m, t, "Query", SL_OUTCOME_OK, 1500, 0);
  sl_metrics_request(m, t, "Query", SL_OUTCOME_OK, 500, 10);
  sl_metrics_request(m, t, "GetItem", SL_OUTCOME_OK, 100, -1);
  sl_metrics_request(m, t, "PutItem", SL_OUTCOME_CONDITION_FAILED, 100, -1);
  sl_metrics_request(m, t, "PutItem", SL_OUTCOME_SYSTEM_ERROR, 100, -1);
  sl_metrics_request(m, t, "PutItem", SL_OUTCOME_THROTTLED, 100, -1);
  sl_metrics_request(m, SL_STR_NULL, "ListTables", SL_OUTCOME_THROTTLED, 100, -1);
  stats lat = around(m, "req", "", "Query", SL_M_SUCCESSFUL_REQUEST_LATENCY);
  CHECK_INT(lat.count, 2);
  CHECK(lat.sum == 2.0 && lat.min == 0.5 && lat.max == 1.5); /* milliseconds */
  stats all = around(m, "req", "", "", SL_M_SUCCESSFUL_REQUEST_LATENCY);
  CHECK_INT(all.count, 3);
  stats ret = around(m, "req", "", "Query", SL_M_RETURNED_ITEM_COUNT);
  CHECK_INT(ret.count, 2);
  CHECK_INT(ret.sum, 10);
  CHECK_INT(around(m, "req", "", "GetItem", SL_M_RETURNED_ITEM_COUNT).count, 0);
  CHECK_INT(around(m, "req", "", "", SL_M_CONDITIONAL_CHECK_FAILED).sum, 1);
  CHECK_INT(around(m, "req", "", "PutItem", SL_M_SYSTEM_ERRORS).sum, 1);
  CHECK_INT(around(m, "req", "", "PutItem", SL_M_THROTTLED_REQUESTS).sum, 1);
  CHECK_INT(around(m, "", "", "", SL_M_USER_ERRORS).count, 0);
  sl_metrics_free(m);
}

/* "key<N>" -> N (sketch keys are not NUL-terminated). */
static int key_number(const sl_topk_entry *e) {
  char tmp[16];
  snprintf(tmp, sizeof(tmp), "%.*s", (int)e->len, e->key);
  return atoi(tmp + 3);
}

/* Space-saving: heavy keys are found, in order, and every reported count
 * brackets the true weight: count - error <= true <= count. */
static void test_topk(void) {
  sl_topk t;
  sl_topk_init(&t, 16);
  enum { KEYS = 500 };
  static int64_t truth[KEYS];
  memset(truth, 0, sizeof(truth));
  uint64_t rng = 88172645463325252ull;
  for (int i = 0; i < 20000; i++) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    /* Five heavy keys (about 60% of the weight), then a long tail. */
    int k = (rng % 100) < 60 ? (int)((rng >> 32) % 5) : 5 + (int)((rng >> 20) % (KEYS - 5));
    int64_t weight = 1 + (int64_t)(rng >> 60);
    char name[16];
    snprintf(name, sizeof(name), "key%d", k);
    sl_topk_add(&t, sl_str_c(name), weight);
    truth[k] += weight;
  }
  sl_topk_entry top[16];
  size_t n = sl_topk_top(&t, top, 16);
  CHECK_INT(n, 16);
  int heavy_found = 0;
  for (size_t i = 0; i < n; i++) {
    int k = key_number(&top[i]);
    CHECK(top[i].count >= truth[k]);
    CHECK(top[i].count - top[i].error <= truth[k]);
    if (i < 5 && k < 5)
      heavy_found++;
    if (i > 0)
      CHECK(top[i - 1].count >= top[i].count);
  }
  CHECK_INT(heavy_found, 5);
  /* The top five come out in their true order. */
  for (size_t i = 1; i < 5; i++) {
    int a = key_number(&top[i - 1]), b = key_number(&top[i]);
    CHECK(truth[a] >= truth[b]);
  }
  /* Exact while there are fewer keys than counters. */
  sl_topk small;
  sl_topk_init(&small, 4);
  sl_topk_add(&small, SL_STR("a"), 3);
  sl_topk_add(&small, SL_STR("b"), 5);
  sl_topk_add(&small, SL_STR("a"), 3);
  n = sl_topk_top(&small, top, 4);
  CHECK_INT(n, 2);
  CHECK_MEM(top[0].key, top[0].len, "a");
  CHECK_INT(top[0].count, 6);
  CHECK_INT(top[0].error, 0);
  sl_topk_free(&small);
  sl_topk_free(&t);
}

/* Contributor Insights: modes, weighting (3 x write units), the GSI
 * write-throttle exclusion is the caller's (ops/admit.c); here the
 * registry's part: enable/disable, generations, per-minute windows. */
static void test_insights(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_str t = SL_STR("ci"), id = SL_STR("uuid-1");
  CHECK(!sl_metrics_ci_any(m));
  CHECK_INT(sl_metrics_ci_get(m, t, SL_STR_NULL, id).mode, SL_CI_DISABLED);
  sl_metrics_ci_set(m, t, SL_STR_NULL, id, SL_CI_ACCESSED_AND_THROTTLED);
  CHECK(sl_metrics_ci_any(m));
  sl_ci_state st = sl_metrics_ci_get(m, t, SL_STR_NULL, id);
  CHECK_INT(st.mode, SL_CI_ACCESSED_AND_THROTTLED);
  CHECK_INT(st.created_ms, T0_MS);
  /* Another table of the same name (a new TableId) starts disabled. */
  CHECK_INT(sl_metrics_ci_get(m, t, SL_STR_NULL, SL_STR("uuid-2")).mode, SL_CI_DISABLED);
  sl_metrics_ci_key(m, t, SL_STR_NULL, SL_STR("hot"), SL_STR("1"), true, 1000, false);
  sl_metrics_ci_key(m, t, SL_STR_NULL, SL_STR("cold"), SL_STR("1"), false, 2000, false);
  sl_metrics_ci_key(m, t, SL_STR_NULL, SL_STR("hot"), SL_STR("2"), false, 500, true);
  sl_arena a;
  sl_arena_init(&a);
  sl_buf b;
  sl_buf_init(&b, &a);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_metrics_write_insights(m, &w, t, 1);
  /* "hot" wrote 1 unit (3 throughput units), "cold" read 2: hot first. */
  const char *hot = has(&b, "{\"partition_key\":\"hot\",\"consumed_throughput_units\":3.0");
  const char *cold = has(&b, "{\"partition_key\":\"cold\",\"consumed_throughput_units\":2.0");
  CHECK(hot && cold && hot < cold);
  CHECK(has(&b, "\"partition_key\":\"hot\",\"sort_key\":\"2\",\"throttle_count\":1.0") != NULL);
  /* A minute later, a one-minute window is empty; five minutes see it. */
  sl_clock_advance(&clk, 60000);
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_insights(m, &w, t, 1);
  CHECK(has(&b, "hot") == NULL);
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_insights(m, &w, t, 5);
  CHECK(has(&b, "hot") != NULL);
  /* THROTTLED_KEYS ignores accesses. */
  sl_metrics_ci_set(m, t, SL_STR("gsi"), id, SL_CI_THROTTLED_ONLY);
  sl_metrics_ci_key(m, t, SL_STR("gsi"), SL_STR("g1"), SL_STR_NULL, false, 1000, false);
  sl_metrics_ci_key(m, t, SL_STR("gsi"), SL_STR("g2"), SL_STR_NULL, false, 1000, true);
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_insights(m, &w, t, 1);
  CHECK(has(&b, "g1") == NULL);
  CHECK(has(&b, "\"partition_key\":\"g2\",\"throttle_count\":1.0") != NULL);
  /* Disabling keeps the state (LastUpdateDateTime) and drops the data. */
  sl_clock_advance(&clk, 1000);
  sl_metrics_ci_set(m, t, SL_STR_NULL, id, SL_CI_DISABLED);
  st = sl_metrics_ci_get(m, t, SL_STR_NULL, id);
  CHECK_INT(st.mode, SL_CI_DISABLED);
  CHECK_INT(st.updated_ms, T0_MS + 61000);
  CHECK(sl_metrics_ci_any(m)); /* the GSI is still on */
  sl_metrics_forget_table(m, t, SL_STR_NULL, SL_STR_NULL);
  CHECK(!sl_metrics_ci_any(m));
  sl_arena_destroy(&a);
  sl_metrics_free(m);
}

/* Prometheus text: families with HELP and TYPE, counters ending in _total,
 * label values escaped (backslash, quote, newline), the histogram's
 * cumulative buckets. scripts/promcheck.py checks the full grammar over
 * HTTP (tests/conformance/test_metrics_http.py). */
static void test_prometheus_text(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_metrics_consumed(m, SL_STR("we\"ird\\na\nme"), SL_STR_NULL, false, 1234);
  sl_metrics_request(m, SL_STR("t"), "GetItem", SL_OUTCOME_OK, 300, -1);
  sl_metrics_request(m, SL_STR("t"), "GetItem", SL_OUTCOME_OK, 3000000, -1);
  sl_metrics_backfill(m, SL_STR("t"), SL_STR("g"), 0, 0, 42.5);
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_metrics_write_prometheus(m, &b);
  sl_buf_putc(&b, 0);
  const char *s = b.p;
  CHECK(strstr(s, "# TYPE sluice_dynamodb_consumed_read_capacity_units_total counter\n"));
  CHECK(strstr(s, "sluice_dynamodb_consumed_read_capacity_units_total{table_name="
                  "\"we\\\"ird\\\\na\\nme\"} 1.234\n"));
  CHECK(strstr(s, "# TYPE sluice_dynamodb_successful_request_latency_seconds histogram\n"));
  CHECK(strstr(s, "sluice_dynamodb_successful_request_latency_seconds_bucket{table_name=\"t\","
                  "operation=\"GetItem\",le=\"0.00025\"} 0\n"));
  CHECK(strstr(s, "sluice_dynamodb_successful_request_latency_seconds_bucket{table_name=\"t\","
                  "operation=\"GetItem\",le=\"0.0005\"} 1\n"));
  CHECK(strstr(s, "sluice_dynamodb_successful_request_latency_seconds_bucket{table_name=\"t\","
                  "operation=\"GetItem\",le=\"2.5\"} 1\n"));
  CHECK(strstr(s, "sluice_dynamodb_successful_request_latency_seconds_bucket{table_name=\"t\","
                  "operation=\"GetItem\",le=\"+Inf\"} 2\n"));
  CHECK(strstr(s, "sluice_dynamodb_successful_request_latency_seconds_sum{table_name=\"t\","
                  "operation=\"GetItem\"} 3.0003\n"));
  CHECK(strstr(s, "sluice_dynamodb_successful_request_latency_seconds_count{table_name=\"t\","
                  "operation=\"GetItem\"} 2\n"));
  CHECK(strstr(s, "sluice_dynamodb_online_index_progress_ratio{table_name=\"t\","
                  "global_secondary_index_name=\"g\"} 0.425\n"));
  CHECK(strstr(s, "sluice_dynamodb_user_errors_total 0\n"));
  sl_buf_free(&b);
  sl_metrics_free(m);
}

/* Memory stays small: rings are allocated chunk by chunk as time passes,
 * and a series written every second for an hour holds the 5 chunks of the
 * second ring and 2 of the minute ring (the hour crossed a chunk
 * boundary), about 14 KB. */
static void test_memory_bounds(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_metrics_consumed(m, SL_STR("mem"), SL_STR_NULL, false, 500);
  const sl__series *s = m->first[SL_M_CONSUMED_READ];
  int sec = 0, min = 0;
  for (int i = 0; i < SL__SEC_CHUNKS; i++)
    sec += s->sec[i] != NULL;
  for (int i = 0; i < SL__MIN_CHUNKS; i++)
    min += s->min[i] != NULL;
  CHECK_INT(sec, 1);
  CHECK_INT(min, 1);
  for (int i = 0; i < 3600; i++) {
    sl_clock_advance(&clk, 1000);
    sl_metrics_consumed(m, SL_STR("mem"), SL_STR_NULL, false, 500);
  }
  sec = min = 0;
  for (int i = 0; i < SL__SEC_CHUNKS; i++)
    sec += s->sec[i] != NULL;
  for (int i = 0; i < SL__MIN_CHUNKS; i++)
    min += s->min[i] != NULL;
  CHECK_INT(sec, SL__SEC_CHUNKS);
  CHECK_INT(min, 2);
  CHECK(sizeof(sl__chunk) * (size_t)(sec + min) + sizeof(sl__series) < 16 * 1024);
  sl_metrics_free(m);
}

/* Throttle events summed over a window (the dashboard's table list): from
 * the second ring inside its 5 minutes, else whole minutes of the minute
 * ring; the table alone, one GSI, or the table with every index. */
static void test_window_sum(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_str t = SL_STR("w"), g = SL_STR("g"), none = SL_STR_NULL;
  for (int i = 0; i < 3; i++)
    sl_metrics_throttle_event(m, t, none, true, 1u << SL_METRICS_LIMIT_KEY_RANGE, "PutItem",
                              "ThrottlingException", SL_STR("hot"), none, 0);
  sl_metrics_throttle_event(m, t, g, false, 1u << SL_METRICS_LIMIT_PROVISIONED, "Query",
                            "ProvisionedThroughputExceededException", SL_STR("k"), none, 0);
  int64_t t0 = sl_clock_now_ms(&clk), last = 0;
  sl_clock_advance(&clk, 30000);
  int64_t now = sl_clock_now_ms(&clk);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, t, false, none, false, now - 60000,
                                  now + 1, &last),
            3);
  CHECK_INT(last, t0 / 1000 * 1000);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_READ_THROTTLE_EVENTS, t, false, none, false, now - 60000,
                                  now + 1, NULL),
            0);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_READ_THROTTLE_EVENTS, t, false, g, false, now - 60000,
                                  now + 1, NULL),
            1);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_READ_THROTTLE_EVENTS, t, false, none, true, now - 60000,
                                  now + 1, NULL),
            1);
  /* Outside the window: nothing, and no last time. */
  CHECK_INT(sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, t, false, none, false, now - 10000,
                                  now + 1, &last),
            0);
  CHECK_INT(last, -1);
  /* Ten minutes on: the 15-minute window reads the minute ring. */
  sl_clock_advance(&clk, 600000);
  now = sl_clock_now_ms(&clk);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, t, false, none, true, now - 900000,
                                  now + 1, &last),
            3);
  CHECK_INT(last, t0 / 60000 * 60000);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, t, false, none, true, now - 60000,
                                  now + 1, NULL),
            0);
  CHECK_INT(sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, SL_STR("other"), false, none, true,
                                  now - 900000, now + 1, NULL),
            0);
  sl_metrics_free(m);
}

/* A dropped table's series and events become its deleted incarnation's:
 * readable with 'deleted', not live, not on /metrics; dropping the name again
 * replaces them; at most SL_METRICS_DELETED_TABLES names are kept, the
 * oldest deletion going first, without touching a live table of that name. */
static void test_deleted_incarnations(void) {
  sl_clock clk;
  sl_clock_init(&clk, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_metrics *m = sl_metrics_new(&clk);
  sl_str a = SL_STR("a"), none = SL_STR_NULL;
  unsigned kr = 1u << SL_METRICS_LIMIT_KEY_RANGE;
  sl_metrics_throttle_event(m, a, none, true, kr, "PutItem", "ThrottlingException", SL_STR("hot"),
                            none, 0);
  sl_metrics_forget_table(m, a, SL_STR("pk"), SL_STR("sk"));
  int64_t now = sl_clock_now_ms(&clk);
#define THR(deleted)                                                                               \
  sl_metrics_window_sum(m, SL_M_WRITE_THROTTLE_EVENTS, a, (deleted), none, true, now - 60000,      \
                        now + 1, NULL)
  CHECK_INT(THR(false), 0);
  CHECK_INT(THR(true), 1);
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_metrics_write_events(m, &w, a, false, 10);
  CHECK(b.len == 2); /* [] */
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_events(m, &w, a, true, 10);
  CHECK(memmem(b.p, b.len, "\"partition_key\":\"hot\"", 21) != NULL);
  b.len = 0;
  sl_metrics_write_prometheus(m, &b);
  CHECK(memmem(b.p, b.len, "table_name=\"a\"", 14) == NULL);
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_deleted(m, &w, now - 60000, now + 1);
  CHECK(memmem(b.p, b.len, "\"name\":\"a\"", 10) != NULL);
  CHECK(memmem(b.p, b.len, "\"throttle_events\":1", 19) != NULL);
  CHECK(memmem(b.p, b.len, "\"partition_key\":\"pk\",\"sort_key\":\"sk\"", 33) != NULL);
  /* The next incarnation: twice, then dropped; the first is gone. */
  for (int i = 0; i < 2; i++)
    sl_metrics_throttle_event(m, a, none, true, kr, "PutItem", "ThrottlingException", SL_STR("new"),
                              none, 0);
  CHECK_INT(THR(false), 2);
  CHECK_INT(THR(true), 1);
  sl_metrics_forget_table(m, a, SL_STR("pk"), SL_STR("sk"));
  CHECK_INT(THR(false), 0);
  CHECK_INT(THR(true), 2);
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_events(m, &w, a, true, 10);
  CHECK(memmem(b.p, b.len, "\"partition_key\":\"hot\"", 21) == NULL);
  CHECK(memmem(b.p, b.len, "\"partition_key\":\"new\"", 21) != NULL);
  /* A live "a" again, then eight other tables dropped: the deleted "a" is
   * the oldest and goes, the live one stays. */
  sl_metrics_throttle_event(m, a, none, true, kr, "PutItem", "ThrottlingException", SL_STR("live"),
                            none, 0);
  size_t before = m->n_series;
  for (int i = 0; i < SL_METRICS_DELETED_TABLES; i++) {
    char name[8];
    snprintf(name, sizeof(name), "t%d", i);
    sl_metrics_consumed(m, sl_str_c(name), none, true, 1000);
    sl_metrics_forget_table(m, sl_str_c(name), SL_STR("id"), SL_STR_NULL);
  }
  CHECK_INT(m->n_deleted, SL_METRICS_DELETED_TABLES);
  CHECK_INT(THR(true), 0);
  CHECK_INT(THR(false), 1);
  CHECK(m->n_series <= before + SL_METRICS_DELETED_TABLES);
  b.len = 0;
  sl_jw_init(&w, &b);
  sl_metrics_write_events(m, &w, a, true, 10);
  CHECK(b.len == 2);
#undef THR
  sl_buf_free(&b);
  sl_metrics_free(m);
}

/* A table's metrics belong to its incarnation: after DeleteTable and
 * CreateTable under the same name the counters start at zero, /metrics no
 * longer shows the old series, and recreating it many times keeps the
 * number of series flat. */
static void test_delete_table_forgets(void) {
  server s;
  server_open(&s);
  const char *create = "{\"TableName\":\"again\",\"AttributeDefinitions\":[{\"AttributeName\":"
                       "\"pk\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":"
                       "\"pk\",\"KeyType\":\"HASH\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}";
  const char *put = "{\"TableName\":\"again\",\"Item\":{\"pk\":{\"S\":\"a\"}}}";
  size_t series_after_first = 0;
  for (int round = 0; round < 20; round++) {
    CHECK_INT(call(&s, "CreateTable", create, NULL), 200);
    advance(&s, 1000);
    CHECK_INT(around(s.app.env.metrics, "again", "", "", SL_M_CONSUMED_WRITE).sum, 0);
    CHECK_INT(call(&s, "PutItem", put, NULL), 200);
    CHECK_INT(around(s.app.env.metrics, "again", "", "", SL_M_CONSUMED_WRITE).sum, 1);
    /* From the second round on, the series of the live table and of its
     * last deleted incarnation: no more however many rounds. */
    if (round == 1)
      series_after_first = s.app.env.metrics->n_series;
    if (round >= 1)
      CHECK_INT(s.app.env.metrics->n_series, series_after_first);
    if (round >= 1) {
      /* The last deleted incarnation is still readable: one write. */
      int64_t now = sl_clock_now_ms(&s.app.clock);
      CHECK_INT(sl_metrics_window_sum(s.app.env.metrics, SL_M_CONSUMED_WRITE, SL_STR("again"), true,
                                      SL_STR_NULL, false, now - 60000, now + 1, NULL),
                1000);
    }
    CHECK_INT(call(&s, "DeleteTable", "{\"TableName\":\"again\"}", NULL), 200);
    sl_buf b;
    sl_buf_init(&b, NULL);
    sl_metrics_write_prometheus(s.app.env.metrics, &b);
    CHECK(memmem(b.p, b.len, "table_name=\"again\"", 19) == NULL);
    sl_buf_free(&b);
    advance(&s, 1000);
  }
  server_close(&s);
}

int main(void) {
  RUN(test_window_sum);
  RUN(test_delete_table_forgets);
  RUN(test_deleted_incarnations);
  RUN(test_put_throttled_by_one_gsi);
  RUN(test_user_errors);
  RUN(test_batch_rule);
  RUN(test_consumed_samplecount);
  RUN(test_ring_rollover);
  RUN(test_request_outcomes);
  RUN(test_topk);
  RUN(test_insights);
  RUN(test_prometheus_text);
  RUN(test_memory_bounds);
  return DONE();
}
