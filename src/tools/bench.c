/*
 * bench.c — the driver of `sluice bench`: flags, the table's lifecycle, the
 * executors' processes, the sum of their results files and the reports. The
 * design is in tools/bench.h; one executor is tools/bench_run.c.
 */
#include "tools/bench.h"

#include "base/arena.h"
#include "base/json.h"
#include "net/client.h"
#include "net/sigv4.h"
#include "tools/report_html.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "usage: sluice bench --endpoint URL [flags]\n"
    "\n"
    "An open-loop load generator: operations are sent on a schedule of offered\n"
    "rate, whatever the replies; latency runs from each operation's scheduled\n"
    "time. Retries are off; every request has a timeout.\n"
    "\n"
    "  --endpoint URL        http://HOST[:PORT] or https://HOST[:PORT] (required)\n"
    "  --ca-file FILE        trusted certificates for https (default: the system's)\n"
    "  --workload MIX        put | get | get-strong | update | query | scan |\n"
    "                        batch-write | batch-get | transact-write | query-index,\n"
    "                        or a mix\n"
    "                        with weights: put:50,get:50 (default put)\n"
    "  --schedule WINDOWS    RATE@SECONDS or FROM-TO@SECONDS (a ramp), comma-\n"
    "                        separated: 1000@10,8000@10 (default 100@5)\n"
    "  --rate N --duration S shorthand for --schedule N@S\n"
    "  --item-size BYTES     item size as DynamoDB counts it (default 1000)\n"
    "  --keys N              distinct partition keys (default 100000)\n"
    "  --key-dist D          uniform (default) | zipf[:S] | hot:SHARE | sequential\n"
    "  --collection N        sort-key values per partition key (default 1)\n"
    "  --batch N             items per batch or transaction (default 25 writes,\n"
    "                        100 gets, 4 transaction items)\n"
    "  --page-size N         Query/Scan Limit (default 100)\n"
    "  --pages N             Query/Scan pages followed per operation (default 1)\n"
    "  --segments N          a parallel Scan: operation n reads segment n mod N of N\n"
    "                        (default 1: a plain Scan)\n"
    "  --gsis N              a created table gets N GSIs gsi0..: items carry their\n"
    "                        keys g0.., so writes write them (default 0)\n"
    "  --gsi-keys N          distinct values of each GSI key (default: --keys)\n"
    "  --index NAME          the index query-index queries (default the first GSI)\n"
    "  --table NAME          use an existing table (never deleted); without it a\n"
    "                        table is created and deleted at the end\n"
    "  --billing MODE        on-demand (default) | provisioned, for a created table\n"
    "  --rcu N --wcu N       provisioned throughput of a created table (default 5)\n"
    "  --prefill N           write partition keys 0..N-1 (every sort value) before\n"
    "                        the run, unmeasured\n"
    "  --executors N         processes, each 1/N of the rate (default 1)\n"
    "  --connections N       connections per executor (default 64)\n"
    "  --timeout MS          per-request timeout (default 8000)\n"
    "  --max-ops N           operation cap per executor (default 1000000)\n"
    "  --watchdog S          stop executors S seconds after T0 with partial counts\n"
    "                        (default: the schedule + the timeout + 5 s)\n"
    "  --late-tolerance S    an executor starting later than this after T0 refuses\n"
    "                        to run (default 1)\n"
    "  --seed N              key and mix generator seed (default 1)\n"
    "  --start-in MS         T0 is this long after the executors are started\n"
    "                        (default 500)\n"
    "  --results-dir DIR     the executors' results files (default: a new\n"
    "                        temporary directory, removed at the end)\n"
    "  --json FILE           the results as JSON ('-': stdout)\n"
    "  --csv FILE            the per-second rows as CSV\n"
    "  --html FILE           a report with charts (one self-contained page)\n"
    "  --table-class C       standard (default) | standard-ia: the price table's class\n"
    "  --time-scale S        the server runs --time-scale S: the schedule is in its\n"
    "                        time and is played S times faster (reports: windows in\n"
    "                        its time, per-second rows in real seconds)\n"
    "  --max-cost DOLLARS    refuse a run estimated above this unless --yes (default 1)\n"
    "  --yes                 run whatever the estimate\n"
    "  --quiet               no per-second table, only the summary\n"
    "  --progress            the live progress line on stderr also when it is not a\n"
    "                        terminal\n";

/* --- results ------------------------------------------------------------- */

#define MAX_NAMES 128

typedef struct {
  uint64_t offered, sent, ok, throttled, errors, unprocessed;
  double read_units, write_units;
  sl_bench_hist hist;
} sec_sum;

typedef struct {
  sec_sum *secs;
  size_t n_secs;
  char names[MAX_NAMES][128];
  uint64_t name_total[MAX_NAMES];
  uint64_t *name_sec; /* n_secs * MAX_NAMES */
  size_t n_names;
  double first[SL_BENCH_MAX_WINDOWS];
  unsigned complete, missing;
  char problems[4096];
  char inflight[8192];
  size_t n_inflight;
} sums;

static size_t sum_name(sums *s, const char *name) {
  for (size_t i = 0; i < s->n_names; i++)
    if (strcmp(s->names[i], name) == 0)
      return i;
  if (s->n_names == MAX_NAMES)
    return MAX_NAMES - 1;
  snprintf(s->names[s->n_names], sizeof(s->names[0]), "%s", name);
  return s->n_names++;
}

static void problem(sums *s, const char *fmt, ...) {
  size_t len = strlen(s->problems);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->problems + len, sizeof(s->problems) - len, fmt, ap);
  va_end(ap);
}

/* Adds one executor's results file. */
static void read_results(sums *s, const char *path, unsigned index) {
  FILE *f = fopen(path, "r");
  if (!f) {
    problem(s, "executor %u wrote no results (%s): its counts are missing\n", index, path);
    s->missing++;
    return;
  }
  char line[1024], status[1100] = "";
  size_t local_ids[64];
  for (size_t i = 0; i < 64; i++)
    local_ids[i] = MAX_NAMES - 1;
  bool ended = false;
  while (fgets(line, sizeof(line), f)) {
    unsigned long long a, b, c, d, e2, f2, g;
    double ru, wu;
    size_t sec, id;
    char text[128];
    if (strncmp(line, "status ", 7) == 0) {
      snprintf(status, sizeof(status), "%s", line + 7);
      status[strcspn(status, "\n")] = 0;
    } else if (sscanf(line, "late_ms %llu", &a) == 1) {
      problem(s, "executor %u started %llu ms after T0 and did not run\n", index, a);
    } else if (sscanf(line, "sec %zu %llu %llu %llu %llu %llu %llu %lf %lf", &sec, &a, &b, &c, &d,
                      &e2, &f2, &ru, &wu) == 9) {
      if (sec < s->n_secs) {
        sec_sum *x = &s->secs[sec];
        x->offered += a, x->sent += b, x->ok += c, x->throttled += d, x->errors += e2;
        x->unprocessed += f2, x->read_units += ru, x->write_units += wu;
      }
    } else if (sscanf(line, "name %zu %127s", &id, text) == 2) {
      if (id < 64)
        local_ids[id] = sum_name(s, text);
    } else if (sscanf(line, "cnt %zu %zu %llu", &sec, &id, &a) == 3) {
      if (sec < s->n_secs && id < 64) {
        s->name_sec[sec * MAX_NAMES + local_ids[id]] += a;
        s->name_total[local_ids[id]] += a;
      }
    } else if (sscanf(line, "hist %zu %zu %llu", &sec, &id, &a) == 3) {
      if (sec < s->n_secs && id < SL_BENCH_HIST_N) {
        s->secs[sec].hist.count[id] += a;
        s->secs[sec].hist.n += a;
      }
    } else if (sscanf(line, "hmax %zu %llu", &sec, &a) == 2) {
      if (sec < s->n_secs && a > s->secs[sec].hist.max_us)
        s->secs[sec].hist.max_us = a;
    } else if (sscanf(line, "first %zu %lf", &id, &ru) == 2) {
      if (id < SL_BENCH_MAX_WINDOWS && ru < s->first[id])
        s->first[id] = ru;
    } else if (strncmp(line, "inflight ", 9) == 0) {
      size_t len = strlen(s->inflight);
      if (len + strlen(line) + 16 < sizeof(s->inflight))
        snprintf(s->inflight + len, sizeof(s->inflight) - len, "  executor %u: %s", index,
                 line + 9);
      s->n_inflight++;
    } else if (strcmp(line, "end\n") == 0) {
      ended = true;
    }
    (void)g;
  }
  fclose(f);
  if (!ended) {
    problem(s, "executor %u: its results file is incomplete: its counts are missing\n", index);
    s->missing++;
  } else if (strcmp(status, "complete") == 0) {
    s->complete++;
  } else if (strncmp(status, "late", 4) == 0) {
    s->missing++;
  } else {
    if (strcmp(status, "watchdog") == 0)
      problem(s, "executor %u stopped by its watchdog: partial counts\n", index);
    else if (strcmp(status, "capped") == 0)
      problem(s, "executor %u reached its operation cap (--max-ops)\n", index);
    else if (strcmp(status, "interrupted") == 0)
      problem(s, "executor %u interrupted: partial counts\n", index);
    else {
      problem(s, "executor %u: %s\n", index, status);
      s->missing++;
    }
  }
}

/* --- control plane (blocking, signed) ------------------------------------ */

typedef struct {
  sl_bench_config *cfg;
  sl_client client;
  sl_client_response resp;
  sl_arena arena;
  char err[512];
} ctl;

/* Calls operation 'op' with 'body'. Returns the HTTP status (0: no reply,
 * the reason in c->err); the reply body in c->resp.body. */
static int call(ctl *c, const char *op, sl_str body) {
  char target[96];
  snprintf(target, sizeof(target), "DynamoDB_20120810.%s", op);
  sl_http_header h[5] = {
      {SL_STR("Host"), sl_str_c(c->cfg->host_header)},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), sl_str_c(target)},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 3,
      .body = body,
      .access_key_id = sl_str_c(c->cfg->aws.access_key_id),
      .secret = sl_str_c(c->cfg->aws.secret),
      .session_token = sl_str_c(c->cfg->aws.session_token),
      .region = sl_str_c(c->cfg->aws.region),
      .service = SL_STR("dynamodb"),
      .now_s = (int64_t)time(NULL),
  };
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, NULL);
  sl_sigv4_sign(&r, date, &auth);
  size_t n = 1; /* Host is added by the client */
  sl_http_header sent[6];
  sent[0] = h[1];
  sent[n++] = h[2];
  sent[n++] = (sl_http_header){SL_STR("X-Amz-Date"), sl_str_make(date, 16)};
  if (c->cfg->aws.session_token[0])
    sent[n++] =
        (sl_http_header){SL_STR("X-Amz-Security-Token"), sl_str_c(c->cfg->aws.session_token)};
  sent[n++] = (sl_http_header){SL_STR("Authorization"), sl_buf_str(&auth)};
  int rc =
      sl_client_request(&c->client, SL_STR("POST"), SL_STR("/"), sent, n, body, true, &c->resp);
  sl_buf_free(&auth);
  if (rc != 0) {
    snprintf(c->err, sizeof(c->err), "%s: %s%s%s", op, strerror(-rc),
             c->cfg->https && *sl_tls_last_error() ? ": " : "",
             c->cfg->https ? sl_tls_last_error() : "");
    return 0;
  }
  return c->resp.status;
}

static sl_json *reply_json(ctl *c) {
  sl_arena_reset(&c->arena);
  sl_json *root = NULL;
  sl_json_error jerr;
  if (sl_json_parse(&c->arena, c->resp.body.p, c->resp.body.len, &root, &jerr) != 0)
    return NULL;
  return root;
}

static const char *reply_error(ctl *c) {
  sl_json *root = reply_json(c);
  const sl_json *t = root ? sl_json_get(root, "__type") : NULL;
  const sl_json *m = root ? sl_json_get(root, "message") : NULL;
  if (!m && root)
    m = sl_json_get(root, "Message");
  snprintf(c->err, sizeof(c->err), "HTTP %d %.*s: %.*s", c->resp.status,
           t && t->type == SL_JSON_STRING ? (int)t->str.len : 0, t ? t->str.p : "",
           m && m->type == SL_JSON_STRING ? (int)m->str.len : 0, m ? m->str.p : "");
  return c->err;
}

static const char *table_status(ctl *c) {
  char body[400];
  snprintf(body, sizeof(body), "{\"TableName\":\"%s\"}", c->cfg->table);
  int st = call(c, "DescribeTable", sl_str_c(body));
  if (st != 200)
    return NULL;
  sl_json *root = reply_json(c);
  const sl_json *t = root ? sl_json_get(root, "Table") : NULL;
  const sl_json *s = t ? sl_json_get(t, "TableStatus") : NULL;
  static char out[32];
  snprintf(out, sizeof(out), "%.*s", s && s->type == SL_JSON_STRING ? (int)s->str.len : 0,
           s ? s->str.p : "");
  return out;
}

static volatile sig_atomic_t stop_requested;
static void on_signal(int sig) {
  (void)sig;
  stop_requested = 1;
  sl_bench_interrupted = 1;
}

static int wait_status(ctl *c, const char *want, double seconds) {
  for (int i = 0; i < (int)(seconds * 10) && !stop_requested; i++) {
    const char *s = table_status(c);
    if (!s)
      return -1;
    if (strcmp(s, want) == 0)
      return 0;
    usleep(100000);
  }
  return -1;
}

/* Creates the run's table: key pk (S) and sk (S), and --gsis indexes gsiI
 * on gI (S, projection ALL; provisioned like the table). */
static int create_table(ctl *c, const char *billing, unsigned rcu, unsigned wcu) {
  sl_bench_config *cfg = c->cfg;
  bool prov = strcmp(billing, "provisioned") == 0;
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_buf_printf(&b,
                "{\"TableName\":\"%s\",\"AttributeDefinitions\":[{\"AttributeName\":\"%s\","
                "\"AttributeType\":\"S\"},{\"AttributeName\":\"%s\",\"AttributeType\":\"S\"}",
                cfg->table, cfg->pk, cfg->sk);
  for (unsigned i = 0; i < cfg->n_gattrs; i++)
    sl_buf_printf(&b, ",{\"AttributeName\":\"%s\",\"AttributeType\":\"S\"}", cfg->gattr[i]);
  sl_buf_printf(&b,
                "],\"KeySchema\":[{\"AttributeName\":\"%s\",\"KeyType\":\"HASH\"},"
                "{\"AttributeName\":\"%s\",\"KeyType\":\"RANGE\"}],",
                cfg->pk, cfg->sk);
  if (cfg->n_gattrs) {
    sl_buf_puts(&b, SL_STR("\"GlobalSecondaryIndexes\":["));
    for (unsigned i = 0; i < cfg->n_gattrs; i++) {
      sl_buf_printf(&b,
                    "%s{\"IndexName\":\"gsi%u\",\"KeySchema\":[{\"AttributeName\":\"%s\","
                    "\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}",
                    i ? "," : "", i, cfg->gattr[i]);
      if (prov)
        sl_buf_printf(&b,
                      ",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":%u,"
                      "\"WriteCapacityUnits\":%u}",
                      rcu, wcu);
      sl_buf_putc(&b, '}');
    }
    sl_buf_puts(&b, SL_STR("],"));
  }
  if (prov)
    sl_buf_printf(&b,
                  "\"BillingMode\":\"PROVISIONED\",\"ProvisionedThroughput\":"
                  "{\"ReadCapacityUnits\":%u,\"WriteCapacityUnits\":%u}}",
                  rcu, wcu);
  else
    sl_buf_printf(&b, "\"BillingMode\":\"PAY_PER_REQUEST\"}");
  int st = call(c, "CreateTable", sl_buf_str(&b));
  sl_buf_free(&b);
  if (st != 200) {
    if (st)
      reply_error(c);
    return -1;
  }
  if (wait_status(c, "ACTIVE", 120) != 0) {
    snprintf(c->err, sizeof(c->err), "table %s did not become ACTIVE", cfg->table);
    return -1;
  }
  return 0;
}

static char attr_type(const sl_json *ad, sl_str name) {
  for (size_t j = 0; ad && ad->type == SL_JSON_ARRAY && j < ad->arr.n; j++) {
    const sl_json *an = sl_json_get(ad->arr.items[j], "AttributeName");
    const sl_json *at = sl_json_get(ad->arr.items[j], "AttributeType");
    if (an && at && an->type == SL_JSON_STRING && at->type == SL_JSON_STRING && at->str.len &&
        sl_str_eq(an->str, name))
      return at->str.p[0];
  }
  return 'S';
}

/* An existing table's GSIs: every key attribute that is not the table's
 * becomes one the items carry; the queried index (--index, default the
 * first) gets its partition-key attributes. */
static int use_indexes(ctl *c, const sl_json *t, const sl_json *ad) {
  sl_bench_config *cfg = c->cfg;
  const sl_json *gs = t ? sl_json_get(t, "GlobalSecondaryIndexes") : NULL;
  bool want = cfg->mix[SL_BENCH_QUERY_INDEX] != 0, found = false;
  for (size_t i = 0; gs && gs->type == SL_JSON_ARRAY && i < gs->arr.n; i++) {
    const sl_json *g = gs->arr.items[i];
    const sl_json *name = sl_json_get(g, "IndexName"), *ks = sl_json_get(g, "KeySchema");
    if (!name || name->type != SL_JSON_STRING || !ks || ks->type != SL_JSON_ARRAY)
      continue;
    bool chosen = want && !found && (cfg->index[0] ? sl_str_eq_c(name->str, cfg->index) : true);
    if (chosen) {
      found = true;
      snprintf(cfg->index, sizeof(cfg->index), "%.*s", (int)name->str.len, name->str.p);
    }
    for (size_t k = 0; k < ks->arr.n; k++) {
      const sl_json *n = sl_json_get(ks->arr.items[k], "AttributeName");
      const sl_json *kt = sl_json_get(ks->arr.items[k], "KeyType");
      if (!n || n->type != SL_JSON_STRING || !kt || kt->type != SL_JSON_STRING)
        continue;
      bool hash = sl_str_eq_c(kt->str, "HASH");
      if (sl_str_eq_c(n->str, cfg->pk) || (cfg->sk[0] && sl_str_eq_c(n->str, cfg->sk))) {
        if (chosen && hash) {
          snprintf(c->err, sizeof(c->err),
                   "index %s is keyed on the table's own key %.*s: query-index needs a GSI "
                   "on other attributes",
                   cfg->index, (int)n->str.len, n->str.p);
          return -1;
        }
        continue;
      }
      unsigned a = 0;
      while (a < cfg->n_gattrs && !sl_str_eq_c(n->str, cfg->gattr[a]))
        a++;
      if (a == cfg->n_gattrs) {
        if (a == SL_BENCH_MAX_GATTRS || n->str.len >= sizeof(cfg->gattr[0])) {
          snprintf(c->err, sizeof(c->err), "more GSI key attributes than %d, or a long name",
                   SL_BENCH_MAX_GATTRS);
          return -1;
        }
        snprintf(cfg->gattr[a], sizeof(cfg->gattr[a]), "%.*s", (int)n->str.len, n->str.p);
        cfg->gattr_type[a] = attr_type(ad, n->str);
        cfg->n_gattrs++;
      }
      if (chosen && hash && cfg->n_index_hash < SL_BENCH_MAX_GATTRS)
        cfg->index_hash[cfg->n_index_hash++] = a;
    }
  }
  if (want && !found) {
    if (cfg->index[0])
      snprintf(c->err, sizeof(c->err), "the table has no global secondary index %s", cfg->index);
    else
      snprintf(c->err, sizeof(c->err),
               "query-index needs a global secondary index: the table "
               "has none");
    return -1;
  }
  return 0;
}

/* Reads an existing table's key schema into cfg. */
static int use_table(ctl *c) {
  sl_bench_config *cfg = c->cfg;
  char body[400];
  snprintf(body, sizeof(body), "{\"TableName\":\"%s\"}", cfg->table);
  int st = call(c, "DescribeTable", sl_str_c(body));
  if (st != 200) {
    if (st)
      reply_error(c);
    return -1;
  }
  sl_json *root = reply_json(c);
  const sl_json *t = root ? sl_json_get(root, "Table") : NULL;
  const sl_json *ks = t ? sl_json_get(t, "KeySchema") : NULL;
  const sl_json *ad = t ? sl_json_get(t, "AttributeDefinitions") : NULL;
  cfg->sk[0] = 0;
  for (size_t i = 0; ks && ks->type == SL_JSON_ARRAY && i < ks->arr.n; i++) {
    const sl_json *n = sl_json_get(ks->arr.items[i], "AttributeName");
    const sl_json *k = sl_json_get(ks->arr.items[i], "KeyType");
    if (!n || !k || n->type != SL_JSON_STRING || k->type != SL_JSON_STRING)
      continue;
    bool hash = sl_str_eq_c(k->str, "HASH");
    char *dst = hash ? cfg->pk : cfg->sk;
    snprintf(dst, 64, "%.*s", (int)n->str.len, n->str.p);
    char type = 'S';
    for (size_t j = 0; ad && ad->type == SL_JSON_ARRAY && j < ad->arr.n; j++) {
      const sl_json *an = sl_json_get(ad->arr.items[j], "AttributeName");
      const sl_json *at = sl_json_get(ad->arr.items[j], "AttributeType");
      if (an && at && an->type == SL_JSON_STRING && at->type == SL_JSON_STRING &&
          sl_str_eq(an->str, n->str))
        type = at->str.len ? at->str.p[0] : 'S';
    }
    if (hash)
      cfg->pk_type = type;
    else
      cfg->sk_type = type;
  }
  return use_indexes(c, t, ad);
}

static int delete_table(ctl *c) {
  char body[400];
  snprintf(body, sizeof(body), "{\"TableName\":\"%s\"}", c->cfg->table);
  int st = call(c, "DeleteTable", sl_str_c(body));
  if (st != 200) {
    if (st)
      reply_error(c);
    return -1;
  }
  return 0;
}

/* Writes every (key, sort) of keys [0, n): setup, not measured; unprocessed
 * items are sent again (this is not the measurement). */
static int prefill(ctl *c, uint64_t n) {
  sl_bench_config *cfg = c->cfg;
  uint64_t total = n * cfg->collection, done = 0;
  sl_buf b;
  sl_buf_init(&b, NULL);
  int rc = 0;
  while (done < total && !stop_requested) {
    b.len = 0;
    sl_buf_printf(&b, "{\"RequestItems\":{\"%s\":[", cfg->table);
    unsigned k = 0;
    for (; k < 25 && done + k < total; k++) {
      uint64_t i = done + k;
      if (k)
        sl_buf_putc(&b, ',');
      sl_buf_puts(&b, SL_STR("{\"PutRequest\":{\"Item\":"));
      sl_bench_item_json(cfg, i / cfg->collection, i % cfg->collection, &b);
      sl_buf_puts(&b, SL_STR("}}"));
    }
    sl_buf_puts(&b, SL_STR("]}}"));
    int st = call(c, "BatchWriteItem", sl_buf_str(&b));
    if (st == 200) {
      sl_json *root = reply_json(c);
      const sl_json *u = root ? sl_json_get(root, "UnprocessedItems") : NULL;
      if (u && u->type == SL_JSON_OBJECT && u->obj.n) {
        usleep(100000);
        continue; /* send the batch again: the writes are idempotent */
      }
      done += k;
    } else if (st && (c->resp.status == 400) && strstr(reply_error(c), "Throughput")) {
      usleep(200000);
    } else {
      if (st)
        reply_error(c);
      rc = -1;
      break;
    }
  }
  sl_buf_free(&b);
  return rc;
}

/* --- estimates ------------------------------------------------------------ */

static double units_per_op(const sl_bench_config *cfg, int kind, bool *read) {
  double wu = ceil((double)cfg->item_size / 1024), ru = ceil((double)cfg->item_size / 4096);
  *read = true;
  switch (kind) {
  case SL_BENCH_GET:
    return ru / 2;
  case SL_BENCH_GET_STRONG:
    return ru;
  case SL_BENCH_QUERY:
  case SL_BENCH_QUERY_INDEX:
  case SL_BENCH_SCAN:
    return ceil((double)cfg->item_size * cfg->page_size / 4096) / 2 * cfg->pages;
  case SL_BENCH_BATCH_GET:
    return ru / 2 * cfg->batch;
  case SL_BENCH_BATCH_WRITE:
    *read = false;
    return wu * (1 + cfg->n_gattrs) * cfg->batch;
  case SL_BENCH_TRANSACT_WRITE:
    *read = false;
    return 2 * wu * (1 + cfg->n_gattrs) * cfg->batch;
  default:
    *read = false;
    return wu * (1 + cfg->n_gattrs); /* and each GSI the item's keys reach (--gsis) */
  }
}

/* The on-demand price of 'rru' and 'wru' (cap/price.h: the region's row). */
static double dollars(const sl_bench_config *cfg, double rru, double wru) {
  return sl_price_on_demand(cfg->price, rru, wru);
}

/* "us-east-1 STANDARD prices of 2024-11-01", and the fallback if any. */
static void price_label(const sl_bench_config *cfg, char *out, size_t cap) {
  const sl_price *p = cfg->price;
  snprintf(out, cap, "%.*s %s prices of %.*s%s%s", SL_STR_FMT(p->region),
           sl_price_class_name(p->table_class), SL_STR_FMT(p->date),
           cfg->price_fallback ? ", no price table for " : "",
           cfg->price_fallback ? cfg->aws.region : "");
}

/* A window in the server's time (--time-scale): rates divided by the scale,
 * lengths and first-throttle times multiplied. */
static double srv_rate(const sl_bench_config *cfg, double real) { return real / cfg->time_scale; }
static double srv_time(const sl_bench_config *cfg, double real) { return real * cfg->time_scale; }

/* --- output --------------------------------------------------------------- */

static double ms(uint64_t us) { return (double)us / 1000; }

static void print_text(const sl_bench_config *cfg, sums *s, size_t n_rows, bool quiet, double rru,
                       double wru, bool provisioned, unsigned rcu, unsigned wcu) {
  sl_bench_hist all = {0};
  sec_sum t = {0};
  if (!quiet)
    printf("%5s %9s %9s %9s %9s %7s %9s %9s %9s %9s %9s\n", "sec", "offered", "sent", "ok",
           "throttled", "errors", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms");
  for (size_t i = 0; i < n_rows; i++) {
    sec_sum *x = &s->secs[i];
    sl_bench_hist_merge(&all, &x->hist);
    t.offered += x->offered, t.sent += x->sent, t.ok += x->ok, t.throttled += x->throttled;
    t.errors += x->errors, t.unprocessed += x->unprocessed;
    if (!quiet)
      printf("%5zu %9llu %9llu %9llu %9llu %7llu %9.2f %9.2f %9.2f %9.2f %9.2f\n", i,
             (unsigned long long)x->offered, (unsigned long long)x->sent, (unsigned long long)x->ok,
             (unsigned long long)x->throttled, (unsigned long long)x->errors,
             ms(sl_bench_hist_quantile(&x->hist, 0.5)), ms(sl_bench_hist_quantile(&x->hist, 0.9)),
             ms(sl_bench_hist_quantile(&x->hist, 0.99)),
             ms(sl_bench_hist_quantile(&x->hist, 0.999)), ms(x->hist.max_us));
  }
  printf("\ntotal: offered %llu, sent %llu, ok %llu, throttled %llu, errors %llu",
         (unsigned long long)t.offered, (unsigned long long)t.sent, (unsigned long long)t.ok,
         (unsigned long long)t.throttled, (unsigned long long)t.errors);
  if (t.unprocessed)
    printf(", unprocessed items %llu", (unsigned long long)t.unprocessed);
  printf("\nlatency from the scheduled time: p50 %.2f ms, p90 %.2f, p99 %.2f, p99.9 %.2f, max "
         "%.2f\n",
         ms(sl_bench_hist_quantile(&all, 0.5)), ms(sl_bench_hist_quantile(&all, 0.9)),
         ms(sl_bench_hist_quantile(&all, 0.99)), ms(sl_bench_hist_quantile(&all, 0.999)),
         ms(all.max_us));
  for (size_t i = 0; i < s->n_names; i++)
    printf("  %-60s %llu\n", s->names[i], (unsigned long long)s->name_total[i]);
  if (cfg->time_scale != 1)
    printf("\nwindows in the server's time (--time-scale %g; the rows above are real seconds):",
           cfg->time_scale);
  printf("\n%-3s %-14s %9s %9s %11s %11s %11s %13s\n", "win", "rate/s", "seconds", "offered",
         "accepted/s", "throttled", "first thr s", "ceiling/s");
  for (size_t w = 0; w < cfg->sched.n; w++) {
    const sl_bench_window *win = &cfg->sched.w[w];
    uint64_t off = 0, ok = 0, thr = 0, ok_after = 0;
    size_t n_after = 0;
    size_t a = (size_t)floor(win->start_s), b = (size_t)ceil(win->start_s + win->seconds);
    for (size_t i = a; i < b && i < s->n_secs; i++) {
      off += s->secs[i].offered, ok += s->secs[i].ok, thr += s->secs[i].throttled;
      if (s->first[w] < 1e300 && (double)i >= win->start_s + ceil(s->first[w])) {
        ok_after += s->secs[i].ok;
        n_after++;
      }
    }
    char rate[32], first[32] = "-", ceiling[32] = "-";
    if (win->from == win->to)
      snprintf(rate, sizeof(rate), "%.0f", srv_rate(cfg, win->from));
    else
      snprintf(rate, sizeof(rate), "%.0f-%.0f", srv_rate(cfg, win->from), srv_rate(cfg, win->to));
    if (s->first[w] < 1e300)
      snprintf(first, sizeof(first), "%.3f", srv_time(cfg, s->first[w]));
    if (n_after)
      snprintf(ceiling, sizeof(ceiling), "%.0f", srv_rate(cfg, (double)ok_after / (double)n_after));
    printf("%-3zu %-14s %9.1f %9llu %11.0f %11llu %11s %13s\n", w, rate,
           srv_time(cfg, win->seconds), (unsigned long long)off,
           srv_rate(cfg, (double)ok / win->seconds), (unsigned long long)thr, first, ceiling);
  }
  char label[200];
  price_label(cfg, label, sizeof(label));
  if (provisioned)
    printf("\nconsumed: %.1f read units, %.1f write units (provisioned %u RCU / %u WCU: billed "
           "by the hour, $%.5f per hour; %s)\n",
           rru, wru, rcu, wcu, sl_price_provisioned(cfg->price, rcu, wcu), label);
  else
    printf("\nconsumed: %.1f read units, %.1f write units = $%.6f on demand (%s)\n", rru, wru,
           dollars(cfg, rru, wru), label);
  if (s->problems[0])
    printf("\nINCOMPLETE:\n%s", s->problems);
  if (s->n_inflight)
    printf("in flight when stopped (%zu; op kind key age_ms state):\n%s", s->n_inflight,
           s->inflight);
}

static void write_json(FILE *f, const sl_bench_config *cfg, sums *s, size_t n_rows, double rru,
                       double wru) {
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "table");
  sl_jw_str_c(&w, cfg->table);
  sl_jw_key_c(&w, "executors");
  sl_jw_uint(&w, cfg->executors);
  sl_jw_key_c(&w, "complete");
  sl_jw_bool(&w, s->problems[0] == 0);
  sl_jw_key_c(&w, "problems");
  sl_jw_str_c(&w, s->problems);
  sl_jw_key_c(&w, "seconds");
  sl_jw_arr_begin(&w);
  sec_sum t = {0};
  sl_bench_hist all = {0};
  for (size_t i = 0; i < n_rows; i++) {
    sec_sum *x = &s->secs[i];
    t.offered += x->offered, t.sent += x->sent, t.ok += x->ok, t.throttled += x->throttled;
    t.errors += x->errors, t.unprocessed += x->unprocessed;
    sl_bench_hist_merge(&all, &x->hist);
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "second");
    sl_jw_uint(&w, i);
    const char *keys[] = {"offered", "sent", "ok", "throttled", "errors", "unprocessed"};
    uint64_t vals[] = {x->offered, x->sent, x->ok, x->throttled, x->errors, x->unprocessed};
    for (int k = 0; k < 6; k++) {
      sl_jw_key_c(&w, keys[k]);
      sl_jw_uint(&w, vals[k]);
    }
    sl_jw_key_c(&w, "read_units");
    sl_jw_double(&w, x->read_units);
    sl_jw_key_c(&w, "write_units");
    sl_jw_double(&w, x->write_units);
    sl_jw_key_c(&w, "counts");
    sl_jw_obj_begin(&w);
    for (size_t n = 0; n < s->n_names; n++)
      if (s->name_sec[i * MAX_NAMES + n]) {
        sl_jw_key_c(&w, s->names[n]);
        sl_jw_uint(&w, s->name_sec[i * MAX_NAMES + n]);
      }
    sl_jw_obj_end(&w);
    const char *pk[] = {"p50_ms", "p90_ms", "p99_ms", "p999_ms"};
    double q[] = {0.5, 0.9, 0.99, 0.999};
    for (int k = 0; k < 4; k++) {
      sl_jw_key_c(&w, pk[k]);
      sl_jw_double(&w, ms(sl_bench_hist_quantile(&x->hist, q[k])));
    }
    sl_jw_key_c(&w, "max_ms");
    sl_jw_double(&w, ms(x->hist.max_us));
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "windows");
  sl_jw_arr_begin(&w);
  for (size_t i = 0; i < cfg->sched.n; i++) {
    const sl_bench_window *win = &cfg->sched.w[i];
    sl_jw_obj_begin(&w);
    sl_jw_key_c(&w, "from_rate");
    sl_jw_double(&w, srv_rate(cfg, win->from));
    sl_jw_key_c(&w, "to_rate");
    sl_jw_double(&w, srv_rate(cfg, win->to));
    sl_jw_key_c(&w, "start_s");
    sl_jw_double(&w, srv_time(cfg, win->start_s));
    sl_jw_key_c(&w, "seconds");
    sl_jw_double(&w, srv_time(cfg, win->seconds));
    sl_jw_key_c(&w, "scheduled");
    sl_jw_uint(&w, win->n_ops);
    sl_jw_key_c(&w, "first_throttle_s");
    if (s->first[i] < 1e300)
      sl_jw_double(&w, srv_time(cfg, s->first[i]));
    else
      sl_jw_null(&w);
    /* The accepted rate after the first throttle, per second of the server. */
    uint64_t ok_after = 0;
    size_t n_after = 0;
    size_t a = (size_t)floor(win->start_s), z = (size_t)ceil(win->start_s + win->seconds);
    for (size_t k = a; k < z && k < s->n_secs && s->first[i] < 1e300; k++)
      if ((double)k >= win->start_s + ceil(s->first[i])) {
        ok_after += s->secs[k].ok;
        n_after++;
      }
    sl_jw_key_c(&w, "ceiling_per_s");
    if (n_after)
      sl_jw_double(&w, srv_rate(cfg, (double)ok_after / (double)n_after));
    else
      sl_jw_null(&w);
    sl_jw_obj_end(&w);
  }
  sl_jw_arr_end(&w);
  sl_jw_key_c(&w, "totals");
  sl_jw_obj_begin(&w);
  const char *keys[] = {"offered", "sent", "ok", "throttled", "errors", "unprocessed"};
  uint64_t vals[] = {t.offered, t.sent, t.ok, t.throttled, t.errors, t.unprocessed};
  for (int k = 0; k < 6; k++) {
    sl_jw_key_c(&w, keys[k]);
    sl_jw_uint(&w, vals[k]);
  }
  sl_jw_key_c(&w, "counts");
  sl_jw_obj_begin(&w);
  for (size_t n = 0; n < s->n_names; n++) {
    sl_jw_key_c(&w, s->names[n]);
    sl_jw_uint(&w, s->name_total[n]);
  }
  sl_jw_obj_end(&w);
  sl_jw_key_c(&w, "read_units");
  sl_jw_double(&w, rru);
  sl_jw_key_c(&w, "write_units");
  sl_jw_double(&w, wru);
  sl_jw_key_c(&w, "on_demand_dollars");
  sl_jw_double(&w, dollars(cfg, rru, wru));
  const char *pk[] = {"p50_ms", "p90_ms", "p99_ms", "p999_ms"};
  double q[] = {0.5, 0.9, 0.99, 0.999};
  for (int k = 0; k < 4; k++) {
    sl_jw_key_c(&w, pk[k]);
    sl_jw_double(&w, ms(sl_bench_hist_quantile(&all, q[k])));
  }
  sl_jw_key_c(&w, "max_ms");
  sl_jw_double(&w, ms(all.max_us));
  sl_jw_obj_end(&w);
  sl_jw_key_c(&w, "in_flight_when_stopped");
  sl_jw_str_c(&w, s->inflight);
  sl_jw_key_c(&w, "time_scale");
  sl_jw_double(&w, cfg->time_scale);
  const sl_price *p = cfg->price;
  sl_jw_key_c(&w, "prices");
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "region");
  sl_jw_str(&w, p->region);
  sl_jw_key_c(&w, "table_class");
  sl_jw_str_c(&w, sl_price_class_name(p->table_class));
  sl_jw_key_c(&w, "date");
  sl_jw_str(&w, p->date);
  sl_jw_key_c(&w, "source");
  sl_jw_str(&w, p->source);
  sl_jw_key_c(&w, "fallback_for");
  if (cfg->price_fallback)
    sl_jw_str_c(&w, cfg->aws.region);
  else
    sl_jw_null(&w);
  sl_jw_key_c(&w, "write_request_per_million");
  sl_jw_double(&w, p->write_per_million);
  sl_jw_key_c(&w, "read_request_per_million");
  sl_jw_double(&w, p->read_per_million);
  sl_jw_key_c(&w, "wcu_hour");
  sl_jw_double(&w, p->wcu_hour);
  sl_jw_key_c(&w, "rcu_hour");
  sl_jw_double(&w, p->rcu_hour);
  sl_jw_obj_end(&w);
  sl_jw_obj_end(&w);
  fwrite(b.p, 1, b.len, f);
  fputc('\n', f);
  sl_buf_free(&b);
}

static void esc_c(sl_buf *b, const char *s) { sl_report_html_esc(b, sl_str_c(s)); }

/* A self-contained HTML report in the style of `sluice simulate --html`
 * (tools/report_html.h: the same style sheet and charts), no script. */
static void write_html(FILE *f, const sl_bench_config *cfg, const char *endpoint, sums *s,
                       size_t n_rows, double rru, double wru) {
  sl_buf b;
  sl_buf_init(&b, NULL);
  sl_buf_puts(&b, SL_STR("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                         "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                         "'none'; style-src 'unsafe-inline'\"><title>sluice bench: "));
  esc_c(&b, cfg->table);
  sl_buf_printf(&b, "</title><style>%s</style></head><body><main>\n<h1>sluice bench</h1>",
                sl_report_html_style());
  sl_buf_puts(&b, SL_STR("<p class=\"meta\">"));
  esc_c(&b, endpoint);
  sl_buf_puts(&b, SL_STR(", table <code>"));
  esc_c(&b, cfg->table);
  sl_buf_printf(&b,
                "</code>, %u executor(s), %u connection(s) each, timeout %d ms, retries off; "
                "latency from each operation's scheduled time.",
                cfg->executors, cfg->connections, cfg->timeout_ms);
  if (cfg->time_scale != 1)
    sl_buf_printf(&b,
                  " The server's clock runs at --time-scale %g: windows are in its time, "
                  "the per-second rows in real seconds.",
                  cfg->time_scale);
  sl_buf_puts(&b, SL_STR("</p>\n"));
  bool incomplete = s->problems[0] != 0;
  sl_buf_printf(&b, "<section class=\"diagnosis%s\"><h2>%s</h2>", incomplete ? "" : " ok",
                incomplete ? "Incomplete counts" : "Complete counts");
  if (incomplete) {
    sl_buf_puts(&b, SL_STR("<pre>"));
    esc_c(&b, s->problems);
    sl_buf_puts(&b, SL_STR("</pre>"));
  } else {
    sl_buf_puts(&b, SL_STR("<p>Every executor finished and wrote its counts.</p>"));
  }
  sl_buf_puts(&b, SL_STR("</section>\n"));
  size_t n = n_rows ? n_rows : 1;
  double *cols[8];
  for (int k = 0; k < 8; k++)
    cols[k] = calloc(n, sizeof(double));
  for (size_t i = 0; i < n_rows; i++) {
    sec_sum *x = &s->secs[i];
    cols[0][i] = (double)x->offered, cols[1][i] = (double)x->ok;
    cols[2][i] = (double)x->throttled, cols[3][i] = (double)x->errors;
    cols[4][i] = ms(sl_bench_hist_quantile(&x->hist, 0.5));
    cols[5][i] = ms(sl_bench_hist_quantile(&x->hist, 0.99));
    cols[6][i] = ms(sl_bench_hist_quantile(&x->hist, 0.999));
    cols[7][i] = ms(x->hist.max_us);
  }
  sl_report_line rates[] = {{"offered", "#7f7f7f", true, cols[0]},
                            {"accepted", "#2ca02c", false, cols[1]},
                            {"throttled", "#d62728", false, cols[2]},
                            {"errors", "#9467bd", false, cols[3]}};
  sl_report_line lat[] = {{"p50", "#1f77b4", false, cols[4]},
                          {"p99", "#ff7f0e", false, cols[5]},
                          {"p99.9", "#d62728", false, cols[6]},
                          {"max", "#7f7f7f", true, cols[7]}};
  sl_buf_puts(&b, SL_STR("<section><h2>Operations and latency</h2>"));
  sl_report_html_chart(&b, "rates", "Operations per second (by scheduled second)", "per second",
                       (double)n_rows, n_rows, rates, 4);
  sl_report_html_chart(&b, "latency", "Latency from the scheduled time", "ms", (double)n_rows,
                       n_rows, lat, 4);
  sl_buf_puts(&b, SL_STR("</section>\n<section><h2>Windows</h2><table><tr><th>window</th>"
                         "<th class=\"n\">rate/s</th><th class=\"n\">seconds</th>"
                         "<th class=\"n\">scheduled</th><th class=\"n\">first throttle (s into "
                         "the window)</th></tr>\n"));
  for (size_t w = 0; w < cfg->sched.n; w++) {
    const sl_bench_window *win = &cfg->sched.w[w];
    sl_buf_printf(&b, "<tr><td>%zu</td><td class=\"n\">%.0f", w, srv_rate(cfg, win->from));
    if (win->from != win->to)
      sl_buf_printf(&b, "&ndash;%.0f", srv_rate(cfg, win->to));
    sl_buf_printf(&b, "</td><td class=\"n\">%.1f</td><td class=\"n\">%llu</td><td class=\"n\">",
                  srv_time(cfg, win->seconds), (unsigned long long)win->n_ops);
    if (s->first[w] < 1e300)
      sl_buf_printf(&b, "%.3f", srv_time(cfg, s->first[w]));
    else
      sl_buf_puts(&b, SL_STR("&ndash;"));
    sl_buf_puts(&b, SL_STR("</td></tr>\n"));
  }
  sl_buf_puts(&b, SL_STR("</table></section>\n<section><h2>Outcomes by exception, "
                         "ThrottlingReason and error</h2><table><tr><th>name</th>"
                         "<th class=\"n\">count</th></tr>\n"));
  for (size_t i = 0; i < s->n_names; i++) {
    sl_buf_puts(&b, SL_STR("<tr><td class=\"reason\">"));
    esc_c(&b, s->names[i]);
    sl_buf_printf(&b, "</td><td class=\"n\">%llu</td></tr>\n",
                  (unsigned long long)s->name_total[i]);
  }
  char label[200];
  price_label(cfg, label, sizeof(label));
  sl_buf_printf(&b,
                "</table></section>\n<section><h2>Cost</h2><p>Consumed: %.1f read units, %.1f "
                "write units: $%.6f at on-demand prices ($%g per million WRU, $%g per million "
                "RRU; ",
                rru, wru, dollars(cfg, rru, wru), cfg->price->write_per_million,
                cfg->price->read_per_million);
  esc_c(&b, label);
  sl_buf_puts(&b, SL_STR(").</p></section>\n<section><h2>Per second</h2><div class=\"scroll\">"
                         "<table><tr><th>s</th><th class=\"n\">offered</th><th class=\"n\">sent"
                         "</th><th class=\"n\">ok</th><th class=\"n\">throttled</th>"
                         "<th class=\"n\">errors</th><th class=\"n\">p50 ms</th><th class=\"n\">"
                         "p99 ms</th><th class=\"n\">p99.9 ms</th><th class=\"n\">max ms</th>"
                         "</tr>\n"));
  for (size_t i = 0; i < n_rows; i++) {
    sec_sum *x = &s->secs[i];
    sl_buf_printf(&b,
                  "<tr><td>%zu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>"
                  "<td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td>"
                  "<td class=\"n\">%.2f</td><td class=\"n\">%.2f</td><td class=\"n\">%.2f</td>"
                  "<td class=\"n\">%.2f</td></tr>\n",
                  i, (unsigned long long)x->offered, (unsigned long long)x->sent,
                  (unsigned long long)x->ok, (unsigned long long)x->throttled,
                  (unsigned long long)x->errors, cols[4][i], cols[5][i], cols[6][i], cols[7][i]);
  }
  sl_buf_puts(&b, SL_STR("</table></div></section>\n<footer><p>Produced by <code>sluice bench "
                         "--html</code>; <code>--json</code> and <code>--csv</code> have every "
                         "row.</p></footer></main></body></html>\n"));
  fwrite(b.p, 1, b.len, f);
  sl_buf_free(&b);
  for (int k = 0; k < 8; k++)
    free(cols[k]);
}

static void write_csv(FILE *f, sums *s, size_t n_rows) {
  fprintf(f, "second,offered,sent,ok,throttled,errors,unprocessed,read_units,write_units,p50_ms,"
             "p90_ms,p99_ms,p999_ms,max_ms\n");
  for (size_t i = 0; i < n_rows; i++) {
    sec_sum *x = &s->secs[i];
    fprintf(f, "%zu,%llu,%llu,%llu,%llu,%llu,%llu,%.1f,%.1f,%.3f,%.3f,%.3f,%.3f,%.3f\n", i,
            (unsigned long long)x->offered, (unsigned long long)x->sent, (unsigned long long)x->ok,
            (unsigned long long)x->throttled, (unsigned long long)x->errors,
            (unsigned long long)x->unprocessed, x->read_units, x->write_units,
            ms(sl_bench_hist_quantile(&x->hist, 0.5)), ms(sl_bench_hist_quantile(&x->hist, 0.9)),
            ms(sl_bench_hist_quantile(&x->hist, 0.99)), ms(sl_bench_hist_quantile(&x->hist, 0.999)),
            ms(x->hist.max_us));
  }
}

/* --- the command ---------------------------------------------------------- */

static int bad(const char *fmt, const char *arg) {
  fprintf(stderr, "sluice bench: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n\n%s", usage);
  return 2;
}

static bool parse_u64(const char *v, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 10);
  if (!*v || *end || errno || *v == '-')
    return false;
  *out = x;
  return true;
}

static bool in_range(uint64_t v, uint64_t lo, uint64_t hi) { return v >= lo && v <= hi; }

static int parse_mix(const char *spec, unsigned *mix) {
  memset(mix, 0, sizeof(unsigned) * SL_BENCH_N_KINDS);
  char buf[512];
  snprintf(buf, sizeof(buf), "%s", spec);
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *colon = strchr(tok, ':');
    unsigned weight = 1;
    if (colon) {
      *colon = 0;
      uint64_t w;
      if (!parse_u64(colon + 1, &w) || w == 0 || w > 1000000)
        return -1;
      weight = (unsigned)w;
    }
    int k = 0;
    while (k < SL_BENCH_N_KINDS && strcmp(sl_bench_kind_names[k], tok) != 0)
      k++;
    if (k == SL_BENCH_N_KINDS)
      return -1;
    mix[k] += weight;
  }
  unsigned total = 0;
  for (int k = 0; k < SL_BENCH_N_KINDS; k++)
    total += mix[k];
  return total ? 0 : -1;
}

static const char *env_get(const char *name) { return getenv(name); }

static bool is_loopback_host(const char *h) {
  return strcmp(h, "localhost") == 0 || strncmp(h, "127.", 4) == 0 || strcmp(h, "::1") == 0;
}

int sl_tool_bench(int argc, char **argv) {
  static sl_bench_config cfg;
  memset(&cfg, 0, sizeof(cfg));
  const char *endpoint = NULL, *workload = "put", *schedule = NULL, *rate = NULL, *duration = NULL,
             *billing = "on-demand", *json_path = NULL, *csv_path = NULL, *html_path = NULL,
             *results_dir = NULL;
  uint64_t gsis = 0, start_in_ms = 500, rcu = 5, wcu = 5, prefill_n = 0, batch = 0, v64;
  double max_cost = 1.0;
  sl_price_class table_class = SL_PRICE_STANDARD;
  bool yes = false, quiet = false, watchdog_set = false, show_progress = isatty(2);
  snprintf(cfg.keys_spec, sizeof(cfg.keys_spec), "uniform");
  snprintf(cfg.pk, sizeof(cfg.pk), "pk");
  snprintf(cfg.sk, sizeof(cfg.sk), "sk");
  cfg.pk_type = cfg.sk_type = 'S';
  cfg.n_keys = 100000;
  cfg.item_size = 1000;
  cfg.page_size = 100;
  cfg.pages = 1;
  cfg.segments = 1;
  cfg.collection = 1;
  cfg.timeout_ms = 8000;
  cfg.connections = 64;
  cfg.max_ops = 1000000;
  cfg.late_tolerance_s = 1;
  cfg.executors = 1;
  cfg.seed = 1;
  cfg.time_scale = 1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    }
    if (strcmp(a, "--yes") == 0) {
      yes = true;
      continue;
    }
    if (strcmp(a, "--quiet") == 0) {
      quiet = true;
      continue;
    }
    if (strcmp(a, "--progress") == 0) {
      show_progress = true;
      continue;
    }
    if (strncmp(a, "--", 2) != 0)
      return bad("unexpected argument '%s'", a);
    if (!v)
      return bad("flag %s needs a value", a);
    i++;
#define U64(flag, lo, hi, dst)                                                                     \
  else if (strcmp(a, flag) == 0) {                                                                 \
    if (!parse_u64(v, &v64) || !in_range(v64, lo, hi))                                             \
      return bad("invalid " flag " '%s'", v);                                                      \
    dst = v64;                                                                                     \
  }
    if (strcmp(a, "--endpoint") == 0)
      endpoint = v;
    else if (strcmp(a, "--workload") == 0)
      workload = v;
    else if (strcmp(a, "--schedule") == 0)
      schedule = v;
    else if (strcmp(a, "--rate") == 0)
      rate = v;
    else if (strcmp(a, "--duration") == 0)
      duration = v;
    else if (strcmp(a, "--key-dist") == 0)
      snprintf(cfg.keys_spec, sizeof(cfg.keys_spec), "%s", v);
    else if (strcmp(a, "--table") == 0)
      snprintf(cfg.table, sizeof(cfg.table), "%s", v);
    else if (strcmp(a, "--index") == 0)
      snprintf(cfg.index, sizeof(cfg.index), "%s", v);
    else if (strcmp(a, "--billing") == 0) {
      if (strcmp(v, "on-demand") != 0 && strcmp(v, "provisioned") != 0)
        return bad("unknown billing mode '%s' (on-demand or provisioned)", v);
      billing = v;
    } else if (strcmp(a, "--json") == 0)
      json_path = v;
    else if (strcmp(a, "--csv") == 0)
      csv_path = v;
    else if (strcmp(a, "--html") == 0)
      html_path = v;
    else if (strcmp(a, "--ca-file") == 0)
      cfg.ca_file = v;
    else if (strcmp(a, "--results-dir") == 0)
      results_dir = v;
    else if (strcmp(a, "--table-class") == 0) {
      if (!sl_price_class_parse(sl_str_c(v), &table_class))
        return bad("unknown --table-class '%s' (standard or standard-ia)", v);
    } else if (strcmp(a, "--time-scale") == 0) {
      char *end;
      cfg.time_scale = strtod(v, &end);
      if (*end || !(cfg.time_scale > 0) || cfg.time_scale > 1e6)
        return bad("invalid --time-scale '%s'", v);
    } else if (strcmp(a, "--max-cost") == 0) {
      char *end;
      max_cost = strtod(v, &end);
      if (*end || !(max_cost >= 0))
        return bad("invalid --max-cost '%s'", v);
    } else if (strcmp(a, "--watchdog") == 0) {
      char *end;
      cfg.watchdog_s = strtod(v, &end);
      if (*end || !(cfg.watchdog_s > 0))
        return bad("invalid --watchdog '%s'", v);
      watchdog_set = true;
    } else if (strcmp(a, "--late-tolerance") == 0) {
      char *end;
      cfg.late_tolerance_s = strtod(v, &end);
      if (*end || !(cfg.late_tolerance_s >= 0))
        return bad("invalid --late-tolerance '%s'", v);
    }
    U64("--item-size", 1, 400000, cfg.item_size)
    U64("--keys", 1, 1000000000000ull, cfg.n_keys)
    U64("--collection", 1, 1000000, cfg.collection)
    U64("--batch", 1, 100, batch)
    U64("--page-size", 1, 10000, cfg.page_size)
    U64("--pages", 1, 1000000, cfg.pages)
    U64("--segments", 1, 1000000, cfg.segments)
    U64("--gsis", 0, 20, gsis)
    U64("--gsi-keys", 1, 1000000000000ull, cfg.gsi_keys)
    U64("--rcu", 1, 1000000, rcu)
    U64("--wcu", 1, 1000000, wcu)
    U64("--prefill", 0, 100000000, prefill_n)
    U64("--executors", 1, 256, cfg.executors)
    U64("--connections", 1, 4096, cfg.connections)
    U64("--timeout", 1, 600000, cfg.timeout_ms)
    U64("--max-ops", 1, 1000000000000ull, cfg.max_ops)
    U64("--seed", 0, UINT64_MAX, cfg.seed)
    U64("--start-in", 0, 60000, start_in_ms)
    else return bad("unknown flag '%s'", a);
#undef U64
  }
  if (!endpoint)
    return bad("--endpoint URL is required%s", "");
  if (sl_client_parse_endpoint(endpoint, cfg.host, sizeof(cfg.host), &cfg.port, &cfg.https) != 0)
    return bad("invalid endpoint '%s' (http://HOST[:PORT] or https://HOST[:PORT])", endpoint);
  if (cfg.port == (cfg.https ? 443 : 80))
    snprintf(cfg.host_header, sizeof(cfg.host_header), "%s", cfg.host);
  else
    snprintf(cfg.host_header, sizeof(cfg.host_header), "%s:%d", cfg.host, cfg.port);
  if (parse_mix(workload, cfg.mix) != 0)
    return bad("invalid --workload '%s' (e.g. put, or put:50,get:50)", workload);
  char sched_text[256], err[512];
  if (rate || duration) {
    if (schedule)
      return bad("--schedule and --rate/--duration are exclusive%s", "");
    snprintf(sched_text, sizeof(sched_text), "%s@%s", rate ? rate : "100",
             duration ? duration : "5");
    schedule = sched_text;
  }
  if (sl_bench_schedule_parse(schedule ? schedule : "100@5", &cfg.sched, err, sizeof(err)) != 0)
    return bad("--schedule: %s", err);
  if (cfg.time_scale != 1)
    sl_bench_schedule_scale(&cfg.sched, cfg.time_scale);
  sl_bench_keys probe;
  if (sl_bench_keys_init(&probe, cfg.keys_spec, cfg.n_keys, err, sizeof(err)) != 0)
    return bad("--key-dist: %s", err);
  sl_bench_keys_free(&probe);
  unsigned default_batch = cfg.mix[SL_BENCH_BATCH_GET] ? 100 : 25;
  if (cfg.mix[SL_BENCH_TRANSACT_WRITE] && !cfg.mix[SL_BENCH_BATCH_GET] &&
      !cfg.mix[SL_BENCH_BATCH_WRITE])
    default_batch = 4;
  cfg.batch = batch ? (unsigned)batch : default_batch;
  if (cfg.mix[SL_BENCH_BATCH_WRITE] && cfg.batch > 25)
    return bad("--batch: BatchWriteItem takes at most 25 items%s", "");
  if (!cfg.gsi_keys)
    cfg.gsi_keys = cfg.n_keys;
  if (gsis && cfg.table[0])
    return bad("--gsis creates indexes on a created table: an existing table (--table) is "
               "used with its own%s",
               "");
  if (!cfg.table[0]) {
    cfg.n_gattrs = (unsigned)gsis;
    for (unsigned g = 0; g < cfg.n_gattrs; g++) {
      snprintf(cfg.gattr[g], sizeof(cfg.gattr[g]), "g%u", g);
      cfg.gattr_type[g] = 'S';
    }
    if (cfg.mix[SL_BENCH_QUERY_INDEX]) {
      if (!gsis)
        return bad("the query-index workload needs --gsis N (or an existing table with a "
                   "GSI)%s",
                   "");
      unsigned g = 0;
      if (cfg.index[0] && (sscanf(cfg.index, "gsi%u", &g) != 1 || g >= gsis))
        return bad("--index %s: the created table's indexes are gsi0.. (one per --gsis)",
                   cfg.index);
      snprintf(cfg.index, sizeof(cfg.index), "gsi%u", g);
      cfg.index_hash[0] = g;
      cfg.n_index_hash = 1;
    }
  }
  if (!watchdog_set)
    cfg.watchdog_s = cfg.sched.seconds + cfg.timeout_ms / 1000.0 + 5;

  if (sl_bench_aws_load(&cfg.aws, env_get, getenv("HOME"), err, sizeof(err)) != 0) {
    if (!is_loopback_host(cfg.host)) {
      fprintf(stderr, "sluice bench: %s\n", err);
      return 1;
    }
    /* A local endpoint under --auth any takes any key. */
    snprintf(cfg.aws.access_key_id, sizeof(cfg.aws.access_key_id), "sluicebench");
    snprintf(cfg.aws.secret, sizeof(cfg.aws.secret), "sluicebench");
    snprintf(cfg.aws.source, sizeof(cfg.aws.source), "none found: a placeholder key");
  }

  cfg.price = sl_price_find_or_default(sl_str_c(cfg.aws.region), table_class, SL_STR_NULL,
                                       &cfg.price_fallback);
  if (cfg.price_fallback)
    fprintf(stderr, "sluice bench: no price table for region %s: us-east-1's prices are used\n",
            cfg.aws.region);

  /* The estimate, before anything is created. */
  uint64_t n_ops = cfg.sched.n_ops;
  if (n_ops > cfg.max_ops * cfg.executors)
    n_ops = cfg.max_ops * cfg.executors;
  unsigned mix_total = 0;
  for (int k = 0; k < SL_BENCH_N_KINDS; k++)
    mix_total += cfg.mix[k];
  double est_r = 0, est_w = 0;
  for (int k = 0; k < SL_BENCH_N_KINDS; k++) {
    bool read;
    double u = units_per_op(&cfg, k, &read) * (double)n_ops * cfg.mix[k] / mix_total;
    if (read)
      est_r += u;
    else
      est_w += u;
  }
  est_w += (double)prefill_n * cfg.collection * ceil((double)cfg.item_size / 1024);
  bool provisioned = strcmp(billing, "provisioned") == 0 && !cfg.table[0];
  double est = provisioned ? sl_price_provisioned(cfg.price, (double)rcu, (double)wcu) *
                                 ceil(cfg.sched.seconds / 3600)
                           : dollars(&cfg, est_r, est_w);
  fprintf(stderr,
          "sluice bench: %llu operations over %.1f s against %s (region %s, credentials: %s); "
          "estimated %.0f read and %.0f write units, $%.4f%s\n",
          (unsigned long long)n_ops, cfg.sched.seconds, endpoint, cfg.aws.region, cfg.aws.source,
          est_r, est_w, est, provisioned ? " (provisioned hours)" : " on demand");
  if (est > max_cost && !yes) {
    fprintf(stderr,
            "sluice bench: the estimate is above --max-cost $%.2f: add --yes to run it anyway\n",
            max_cost);
    return 2;
  }

  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  ctl c = {.cfg = &cfg};
  sl_client_init(&c.client, cfg.host, cfg.port, cfg.timeout_ms);
  sl_tls_ctx *tls_ctx = NULL;
  if (cfg.https) {
    if (!(tls_ctx = sl_tls_ctx_new(cfg.ca_file, err, sizeof(err)))) {
      fprintf(stderr, "sluice bench: %s\n", err);
      return 1;
    }
    sl_client_use_tls(&c.client, tls_ctx);
  }
  sl_client_response_init(&c.resp);
  sl_arena_init(&c.arena);
  int rc = 0;
  bool created = false, tmp_dir = false;
  char dir[512] = "";
  pid_t *pids = calloc(cfg.executors, sizeof(pid_t));
  int *wstatus = calloc(cfg.executors, sizeof(int));
  sums s = {0};

  if (!cfg.table[0]) {
    snprintf(cfg.table, sizeof(cfg.table), "sluice-bench-%ld-%d", (long)time(NULL), (int)getpid());
    if (create_table(&c, billing, (unsigned)rcu, (unsigned)wcu) != 0) {
      fprintf(stderr, "sluice bench: creating table %s: %s\n", cfg.table, c.err);
      rc = 1;
      created = true; /* it may exist half-made: try to delete it */
      goto out;
    }
    created = true;
    fprintf(stderr, "sluice bench: created table %s (%s)\n", cfg.table, billing);
  } else if (use_table(&c) != 0) {
    fprintf(stderr, "sluice bench: table %s: %s\n", cfg.table, c.err);
    rc = 1;
    goto out;
  }
  if (prefill_n && prefill(&c, prefill_n) != 0) {
    fprintf(stderr, "sluice bench: prefill: %s\n", c.err);
    rc = 1;
    goto out;
  }
  if (stop_requested)
    goto out;

  if (results_dir) {
    snprintf(dir, sizeof(dir), "%s", results_dir);
    mkdir(dir, 0755);
  } else {
    snprintf(dir, sizeof(dir), "%s/sluice-bench-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
      fprintf(stderr, "sluice bench: %s: %s\n", dir, strerror(errno));
      rc = 1;
      goto out;
    }
    tmp_dir = true;
  }
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  cfg.t0_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + (int64_t)start_in_ms * 1000000;
  cfg.progress = mmap(NULL, cfg.executors * sizeof(sl_bench_progress), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (cfg.progress == MAP_FAILED)
    cfg.progress = NULL;
  fflush(NULL);
  for (unsigned i = 0; i < cfg.executors; i++) {
    char path[700];
    snprintf(path, sizeof(path), "%s/executor-%u.txt", dir, i);
    pid_t pid = fork();
    if (pid == 0) {
      sl_client_close(&c.client);
      sigaction(SIGINT, &sa, NULL);
      _exit(sl_bench_executor_run(&cfg, i, path));
    }
    pids[i] = pid;
  }
  /* Wait for every executor; forward a stop; kill one past its watchdog. */
  {
    unsigned running = cfg.executors;
    bool forwarded = false;
    int64_t kill_at = cfg.t0_ns + (int64_t)((cfg.watchdog_s + 5) * 1e9), next_progress = 0;
    while (running) {
      for (unsigned i = 0; i < cfg.executors; i++) {
        if (pids[i] <= 0)
          continue;
        int st;
        pid_t r = waitpid(pids[i], &st, WNOHANG);
        if (r == pids[i]) {
          wstatus[i] = st;
          pids[i] = -pids[i];
          running--;
        }
      }
      if (!running)
        break;
      if (stop_requested && !forwarded) {
        for (unsigned i = 0; i < cfg.executors; i++)
          if (pids[i] > 0)
            kill(pids[i], SIGINT);
        forwarded = true;
      }
      clock_gettime(CLOCK_MONOTONIC, &ts);
      if ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec > kill_at) {
        for (unsigned i = 0; i < cfg.executors; i++)
          if (pids[i] > 0) {
            kill(pids[i], SIGKILL);
            problem(&s, "executor %u outlived its watchdog and was killed\n", i);
          }
      }
      if (show_progress && cfg.progress) {
        int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        if (now >= next_progress) {
          sl_bench_progress p = {0};
          for (unsigned i = 0; i < cfg.executors; i++) {
            p.sent += __atomic_load_n(&cfg.progress[i].sent, __ATOMIC_RELAXED);
            p.ok += __atomic_load_n(&cfg.progress[i].ok, __ATOMIC_RELAXED);
            p.throttled += __atomic_load_n(&cfg.progress[i].throttled, __ATOMIC_RELAXED);
            p.errors += __atomic_load_n(&cfg.progress[i].errors, __ATOMIC_RELAXED);
          }
          double t = (double)(now - cfg.t0_ns) / 1e9;
          fprintf(stderr, "\r[%5.1f / %.1f s] sent %llu  ok %llu  throttled %llu  errors %llu   ",
                  t < 0 ? 0 : t, cfg.sched.seconds, (unsigned long long)p.sent,
                  (unsigned long long)p.ok, (unsigned long long)p.throttled,
                  (unsigned long long)p.errors);
          next_progress = now + 1000000000;
        }
      }
      usleep(20000);
    }
    if (show_progress)
      fputc('\n', stderr);
  }
  /* Sum the results. */
  s.n_secs = (size_t)ceil(cfg.sched.seconds + cfg.timeout_ms / 1000.0) + 2;
  s.secs = calloc(s.n_secs, sizeof(sec_sum));
  s.name_sec = calloc(s.n_secs * MAX_NAMES, sizeof(uint64_t));
  for (size_t w = 0; w < SL_BENCH_MAX_WINDOWS; w++)
    s.first[w] = 1e308;
  for (unsigned i = 0; i < cfg.executors; i++) {
    int st = wstatus[i];
    if (WIFSIGNALED(st))
      problem(&s, "executor %u (pid %d) was killed by signal %d\n", i, (int)-pids[i], WTERMSIG(st));
    char path[700];
    snprintf(path, sizeof(path), "%s/executor-%u.txt", dir, i);
    read_results(&s, path, i);
    if (tmp_dir)
      unlink(path);
  }
  {
    size_t n_rows = 0;
    double rru = 0, wru = 0;
    for (size_t i = 0; i < s.n_secs; i++) {
      sec_sum *x = &s.secs[i];
      if (x->offered || x->sent || x->ok || x->throttled || x->errors)
        n_rows = i + 1;
      rru += x->read_units, wru += x->write_units;
    }
    if (n_rows < (size_t)ceil(cfg.sched.seconds))
      n_rows = (size_t)ceil(cfg.sched.seconds);
    if (n_rows > s.n_secs)
      n_rows = s.n_secs;
    print_text(&cfg, &s, n_rows, quiet, rru, wru, provisioned, (unsigned)rcu, (unsigned)wcu);
    if (json_path) {
      FILE *f = strcmp(json_path, "-") == 0 ? stdout : fopen(json_path, "w");
      if (f) {
        write_json(f, &cfg, &s, n_rows, rru, wru);
        if (f != stdout)
          fclose(f);
      } else {
        fprintf(stderr, "sluice bench: %s: %s\n", json_path, strerror(errno));
        rc = 1;
      }
    }
    if (html_path) {
      FILE *f = fopen(html_path, "w");
      if (f) {
        write_html(f, &cfg, endpoint, &s, n_rows, rru, wru);
        fclose(f);
      } else {
        fprintf(stderr, "sluice bench: %s: %s\n", html_path, strerror(errno));
        rc = 1;
      }
    }
    if (csv_path) {
      FILE *f = fopen(csv_path, "w");
      if (f) {
        write_csv(f, &s, n_rows);
        fclose(f);
      } else {
        fprintf(stderr, "sluice bench: %s: %s\n", csv_path, strerror(errno));
        rc = 1;
      }
    }
    if (s.problems[0])
      rc = rc ? rc : 3;
  }
out:
  /* The finally: a table this run created is deleted, whatever happened. */
  if (created) {
    sl_client_close(&c.client);
    if (delete_table(&c) == 0)
      fprintf(stderr, "sluice bench: deleted table %s\n", cfg.table);
    else
      fprintf(stderr, "sluice bench: could not delete table %s: %s (delete it yourself)\n",
              cfg.table, c.err);
  }
  if (tmp_dir)
    rmdir(dir);
  if (stop_requested && (rc == 0 || rc == 3))
    rc = 130;
  if (cfg.progress)
    munmap(cfg.progress, cfg.executors * sizeof(sl_bench_progress));
  free(pids);
  free(wstatus);
  free(s.secs);
  free(s.name_sec);
  sl_client_close(&c.client);
  sl_client_response_free(&c.resp);
  sl_arena_destroy(&c.arena);
  if (tls_ctx)
    sl_tls_ctx_free(tls_ctx);
  return rc;
}
