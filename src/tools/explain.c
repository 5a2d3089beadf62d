/* `sluice explain`; see explain.h. */
#include "tools/explain.h"
#include "base/json.h"
#include "net/client.h"
#include "net/sigv4.h"
#include "partiql/partiql.h"
#include "tools/bench_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
    "usage: sluice explain [flags] 'SELECT ...'\n"
    "\n"
    "  --endpoint URL       the endpoint (default http://127.0.0.1:8000): a sluice server\n"
    "                       answers exactly; any other (AWS, DynamoDB Local) is asked\n"
    "                       DescribeTable, signed (SigV4), for an estimate\n"
    "  --ca-file FILE       trusted certificates for https (default: the system's)\n"
    "  --consistent         price strongly consistent reads (ConsistentRead)\n"
    "  --limit N            the statement's Limit: pages of N items read\n"
    "  --parameters JSON    the statement's Parameters, e.g. '[{\"S\":\"c7\"}]'\n"
    "  --admin-token TOKEN  the server's --admin-token\n"
    "  --json               print the reply of POST /_sluice/explain as it is\n"
    "  --from-describe      estimate from DescribeTable even when the endpoint is sluice\n";

static const sl_json *member(const sl_json *o, const char *k) { return sl_json_get(o, k); }

static bool known(const sl_json *o, const char *k) {
  const sl_json *v = member(o, k);
  return v && v->type == SL_JSON_NUMBER;
}

static double num(const sl_json *o, const char *k) {
  const sl_json *v = member(o, k);
  if (!v || v->type != SL_JSON_NUMBER)
    return 0;
  char tmp[64];
  size_t n = v->str.len < sizeof tmp - 1 ? v->str.len : sizeof tmp - 1;
  memcpy(tmp, v->str.p, n);
  tmp[n] = 0;
  return strtod(tmp, NULL);
}

static sl_str str(const sl_json *o, const char *k) {
  const sl_json *v = member(o, k);
  return v && v->type == SL_JSON_STRING ? v->str : SL_STR("");
}

/* The readable summary of a reply. */
static void print_summary(const sl_json *r) {
  const sl_json *plan = member(r, "Plan"), *e = member(r, "Estimate");
  const sl_json *exact = member(e, "Exact");
  bool estimate = exact && exact->type == SL_JSON_FALSE;
  printf("plan:     %.*s\n", SL_STR_FMT(str(plan, "Text")));
  if (known(e, "WriteUnits")) {
    const sl_json *cp = member(e, "ConditionPasses");
    printf("writes:   1 item, %.0f bytes -> %.1f write units; condition holds now: %s\n",
           num(e, "Bytes"), num(e, "WriteUnits"), cp && cp->type == SL_JSON_TRUE ? "yes" : "no");
  } else if (!known(e, "ReadUnits")) {
    printf("reads:    not estimated (%s)\n",
           estimate ? "DescribeTable does not size a key range" : "unknown");
  } else {
    printf("reads:    %s%.0f items, %.0f bytes, %.0f page(s) -> %.1f read units",
           estimate ? "~" : "", num(e, "Items"), num(e, "Bytes"), num(e, "Pages"),
           num(e, "ReadUnits"));
    if (known(e, "FirstPageReadUnits"))
      printf(" (first page %.1f)", num(e, "FirstPageReadUnits"));
    printf("\n");
  }
  if (known(e, "ReturnedItems"))
    printf("returns:  %.0f items\n", num(e, "ReturnedItems"));
  const sl_json *wt = member(e, "WillThrottle");
  bool w = known(e, "WriteUnits");
  if (known(e, "SecondsAtCurrentLimit"))
    printf("time:     %.3f s at the current limit of %.0f %s units/s; throttled now: %s\n",
           num(e, "SecondsAtCurrentLimit"),
           num(e, w ? "WriteLimitPerSecond" : "ReadLimitPerSecond"), w ? "write" : "read",
           !wt || wt->type == SL_JSON_NULL ? "unknown"
           : wt->type == SL_JSON_TRUE      ? "yes"
                                           : "no");
  if (estimate)
    printf("exact:    no (estimated from DescribeTable)\n");
  const sl_json *ws = member(r, "Warnings");
  for (size_t i = 0; ws && ws->type == SL_JSON_ARRAY && i < ws->arr.n; i++)
    printf("warning:  %.*s\n", SL_STR_FMT(ws->arr.items[i]->str));
  const sl_json *as = member(r, "Alternatives");
  for (size_t i = 0; as && as->type == SL_JSON_ARRAY && i < as->arr.n; i++) {
    const sl_json *a = as->arr.items[i];
    if (known(a, "ReadUnits"))
      printf("instead:  Query index %.*s (%.*s): %.0f items, %.1f read units\n",
             SL_STR_FMT(str(a, "IndexName")), SL_STR_FMT(str(a, "KeyCondition")), num(a, "Items"),
             num(a, "ReadUnits"));
    else
      printf("instead:  Query index %.*s (%.*s)\n", SL_STR_FMT(str(a, "IndexName")),
             SL_STR_FMT(str(a, "KeyCondition")));
  }
}

/* ---- other endpoints: an estimate from DescribeTable ---- */

typedef struct {
  sl_client *c;
  const char *host_header;
  sl_bench_aws aws;
} remote;

/* One signed DynamoDB call (SigV4, service "dynamodb"). Returns the HTTP
 * status, 0 when there was no reply (errno-style code in *err). */
static int remote_call(remote *r, const char *op, sl_str body, sl_client_response *resp, int *err) {
  char target[96];
  snprintf(target, sizeof target, "DynamoDB_20120810.%s", op);
  sl_http_header h[3] = {
      {SL_STR("Host"), sl_str_c(r->host_header)},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), sl_str_c(target)},
  };
  sl_sigv4_request sr = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 3,
      .body = body,
      .access_key_id = sl_str_c(r->aws.access_key_id),
      .secret = sl_str_c(r->aws.secret),
      .session_token = sl_str_c(r->aws.session_token),
      .region = sl_str_c(r->aws.region),
      .service = SL_STR("dynamodb"),
      .now_s = (int64_t)time(NULL),
  };
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, NULL);
  sl_sigv4_sign(&sr, date, &auth);
  sl_http_header sent[5] = {h[1], h[2]};
  size_t n = 2; /* Host is added by the client */
  sent[n++] = (sl_http_header){SL_STR("X-Amz-Date"), sl_str_make(date, 16)};
  if (r->aws.session_token[0])
    sent[n++] = (sl_http_header){SL_STR("X-Amz-Security-Token"), sl_str_c(r->aws.session_token)};
  sent[n++] = (sl_http_header){SL_STR("Authorization"), sl_buf_str(&auth)};
  *err = sl_client_request(r->c, SL_STR("POST"), SL_STR("/"), sent, n, body, true, resp);
  sl_buf_free(&auth);
  return *err ? 0 : resp->status;
}

static bool is_path(const sl_pql_node *n, sl_str name) {
  return n && n->kind == SL_PQL_N_PATH && n->path.n == 1 &&
         n->path.e[0].kind == SL_EXPR_ELEM_NAME && sl_str_eq(n->path.e[0].name, name);
}

static bool is_value(const sl_pql_node *n) {
  return n && (n->kind == SL_PQL_N_LIT || n->kind == SL_PQL_N_PARAM);
}

/* Does 'n' fix attribute 'name' to values the planner reads by key: an
 * equality, an IN list, an AND with such a conjunct, an OR whose every
 * disjunct fixes it (partiql.h: GetItem, Query or one read per value)? */
static bool fixes(const sl_pql_node *n, sl_str name, bool or_ok) {
  if (!n || !name.len)
    return false;
  switch (n->kind) {
  case SL_PQL_N_EQ:
    return (is_path(n->args[0], name) && is_value(n->args[1])) ||
           (is_path(n->args[1], name) && is_value(n->args[0]));
  case SL_PQL_N_IN:
    return or_ok && is_path(n->args[0], name);
  case SL_PQL_N_AND:
    for (uint16_t i = 0; i < n->n; i++)
      if (fixes(n->args[i], name, or_ok))
        return true;
    return false;
  case SL_PQL_N_OR:
    if (!or_ok)
      return false;
    for (uint16_t i = 0; i < n->n; i++)
      if (!fixes(n->args[i], name, or_ok))
        return false;
    return n->n > 0;
  default:
    return false;
  }
}

/* A key schema of DescribeTable's: the HASH and RANGE attribute names. */
static void key_names(const sl_json *schema, sl_str *hash, sl_str *range) {
  *hash = *range = SL_STR("");
  for (size_t i = 0; schema && schema->type == SL_JSON_ARRAY && i < schema->arr.n; i++) {
    const sl_json *k = schema->arr.items[i];
    if (sl_str_eq_c(str(k, "KeyType"), "HASH") && !hash->len)
      *hash = str(k, "AttributeName");
    else if (sl_str_eq_c(str(k, "KeyType"), "RANGE") && !range->len)
      *range = str(k, "AttributeName");
  }
}

static const sl_json *find_index(const sl_json *t, sl_str name, bool *global) {
  const char *lists[2] = {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"};
  for (int l = 0; l < 2; l++) {
    const sl_json *xs = member(t, lists[l]);
    for (size_t i = 0; xs && xs->type == SL_JSON_ARRAY && i < xs->arr.n; i++)
      if (sl_str_eq(str(xs->arr.items[i], "IndexName"), name)) {
        *global = l == 0;
        return xs->arr.items[i];
      }
  }
  return NULL;
}

/* The read limit of a table or GSI description: provisioned RCU, an
 * on-demand maximum, else 0 (unknown). */
static double read_limit_of(const sl_json *d) {
  const sl_json *pt = member(d, "ProvisionedThroughput");
  const sl_json *bm = member(member(d, "BillingModeSummary"), "BillingMode");
  bool on_demand = bm && bm->type == SL_JSON_STRING && sl_str_eq_c(bm->str, "PAY_PER_REQUEST");
  if (!on_demand && num(pt, "ReadCapacityUnits") > 0)
    return num(pt, "ReadCapacityUnits");
  double max = num(member(d, "OnDemandThroughput"), "MaxReadRequestUnits");
  return max > 0 ? max : 0;
}

/* The estimate of a SELECT from DescribeTable (see explain.h), written as
 * POST /_sluice/explain's reply with "Exact": false. */
static void describe_estimate(sl_jw *w, sl_arena *a, const sl_pql_stmt *st, const sl_json *t,
                              const sl_json *x, bool global, bool consistent, long long limit) {
  sl_str th, tr, h, r;
  key_names(member(t, "KeySchema"), &th, &tr);
  if (x)
    key_names(member(x, "KeySchema"), &h, &r);
  else
    h = th, r = tr;
  const char *op = "Scan";
  if (!x && fixes(st->where, th, false) && (!tr.len || fixes(st->where, tr, false)))
    op = "GetItem";
  else if (fixes(st->where, h, true))
    op = "Query";
  const sl_json *d = x ? x : t; /* the resource read */
  double items = num(d, "ItemCount");
  double bytes = num(d, x ? "IndexSizeBytes" : "TableSizeBytes");
  double factor = consistent ? 1.0 : 0.5;
  double limit_ups = read_limit_of(x && global ? x : t);
  double ru = -1, pages = 1, n = 0, b = 0;
  if (op[0] == 'G') {
    /* One item of the table's average size. */
    b = items > 0 ? bytes / items : 0;
    n = 1;
    ru = fmax(1.0, ceil(b / 4096.0)) * factor;
  } else if (op[0] == 'S') {
    /* Every item: pages of at most 1 MB (or Limit items), each rounded up to 4 KB. */
    n = items;
    b = bytes;
    pages = fmax(1.0, ceil(bytes / (1024.0 * 1024.0)));
    if (limit > 0)
      pages = fmax(pages, ceil(items / (double)limit));
    ru = fmax(pages, ceil(bytes / 4096.0)) * factor;
  }
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Plan");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "Operation");
  sl_jw_str_c(w, op);
  sl_jw_key_c(w, "TableName");
  sl_jw_str(w, st->table);
  if (x) {
    sl_jw_key_c(w, "IndexName");
    sl_jw_str(w, st->index);
  }
  sl_str kc = op[0] == 'G'
                  ? sl_arena_printf(a, "%.*s = ...%s%.*s%s", SL_STR_FMT(th), tr.len ? " AND " : "",
                                    SL_STR_FMT(tr), tr.len ? " = ..." : "")
              : op[0] == 'Q' ? sl_arena_printf(a, "%.*s = ...", SL_STR_FMT(h))
                             : SL_STR("");
  if (kc.len) {
    sl_jw_key_c(w, "KeyCondition");
    sl_jw_str(w, kc);
  }
  sl_jw_key_c(w, "Text");
  sl_jw_str(w,
            sl_arena_printf(a, "%s %.*s%s%.*s%s%.*s", op, SL_STR_FMT(st->table), x ? "." : "",
                            SL_STR_FMT(st->index), kc.len ? " KeyCondition " : "", SL_STR_FMT(kc)));
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "Estimate");
  sl_jw_obj_begin(w);
  const char *keys[4] = {"Items", "Bytes", "Pages", "ReadUnits"};
  double vals[4] = {n, b, pages, ru};
  for (int i = 0; i < 4; i++) {
    sl_jw_key_c(w, keys[i]);
    if (ru < 0 && i != 2)
      sl_jw_null(w);
    else if (i == 3)
      sl_jw_double(w, vals[i]);
    else
      sl_jw_int(w, (int64_t)floor(vals[i] + 0.5));
  }
  sl_jw_key_c(w, "ReadLimitPerSecond");
  if (limit_ups > 0)
    sl_jw_double(w, limit_ups);
  else
    sl_jw_null(w);
  sl_jw_key_c(w, "SecondsAtCurrentLimit");
  if (limit_ups > 0 && ru >= 0)
    sl_jw_double(w, ru / limit_ups);
  else
    sl_jw_null(w);
  sl_jw_key_c(w, "WillThrottle");
  sl_jw_null(w); /* the endpoint's buckets are not visible from outside */
  sl_jw_key_c(w, "Exact");
  sl_jw_bool(w, false);
  sl_jw_key_c(w, "Source");
  sl_jw_str_c(w, "DescribeTable");
  sl_jw_obj_end(w);
  sl_jw_key_c(w, "Warnings");
  sl_jw_arr_begin(w);
  sl_jw_str_c(w, "Estimated from DescribeTable's ItemCount and TableSizeBytes (which DynamoDB "
                 "refreshes about every six hours), not from the data: not exact.");
  if (op[0] == 'S')
    sl_jw_str(w, sl_arena_printf(a,
                                 "No equality on the partition key %.*s: this SELECT is a Scan. It "
                                 "reads, and pays for, every item (~%.0f items, ~%.0f bytes, ~%.1f "
                                 "read units), whatever its WHERE keeps. A filter does not reduce "
                                 "cost: use a key condition or an index.",
                                 SL_STR_FMT(h), n, b, ru));
  else if (op[0] == 'Q')
    sl_jw_str_c(w, "A Query reads one key range: DescribeTable does not say how large it is, so "
                   "its read units are not estimated (a sluice endpoint answers exactly).");
  sl_jw_arr_end(w);
  sl_jw_key_c(w, "Alternatives");
  sl_jw_arr_begin(w);
  const sl_json *gsis = op[0] == 'S' && !x ? member(t, "GlobalSecondaryIndexes") : NULL;
  for (size_t i = 0; gsis && gsis->type == SL_JSON_ARRAY && i < gsis->arr.n; i++) {
    const sl_json *g = gsis->arr.items[i];
    sl_str gh, gr;
    key_names(member(g, "KeySchema"), &gh, &gr);
    if (!fixes(st->where, gh, true))
      continue;
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "IndexName");
    sl_jw_str(w, str(g, "IndexName"));
    sl_jw_key_c(w, "Operation");
    sl_jw_str_c(w, "Query");
    sl_jw_key_c(w, "KeyCondition");
    sl_jw_str(w, sl_arena_printf(a, "%.*s = ...", SL_STR_FMT(gh)));
    sl_jw_key_c(w, "Items");
    sl_jw_null(w);
    sl_jw_key_c(w, "ReadUnits");
    sl_jw_null(w);
    sl_jw_obj_end(w);
  }
  sl_jw_arr_end(w);
  sl_jw_obj_end(w);
}

static const char *env_get(const char *name) { return getenv(name); }

/* `sluice explain` against an endpoint that is not sluice: DescribeTable,
 * signed, then the estimate. Returns the exit status. */
static int explain_from_describe(sl_arena *a, sl_client *c, const char *endpoint,
                                 const char *host_header, bool loopback, const char *stmt,
                                 bool consistent, long long limit, bool raw) {
  sl_failure f;
  sl_failure_init(&f, a);
  sl_pql_stmt *st;
  if (sl_pql_parse(a, &f, sl_str_c(stmt), &st) != SL_OK) {
    fprintf(stderr, "sluice explain: %s: %.*s\n", sl_err_name(f.code), SL_STR_FMT(f.message));
    return 1;
  }
  if (st->kind != SL_PQL_SELECT) {
    fprintf(stderr,
            "sluice explain: %s is not sluice: from DescribeTable only SELECT statements "
            "are estimated (the preview of a write needs a sluice endpoint)\n",
            endpoint);
    return 1;
  }
  remote r = {.c = c, .host_header = host_header};
  char err[512];
  if (sl_bench_aws_load(&r.aws, env_get, getenv("HOME"), err, sizeof err) != 0) {
    if (!loopback) {
      fprintf(stderr, "sluice explain: %s\n", err);
      return 1;
    }
    /* A local endpoint (DynamoDB Local) takes any key. */
    snprintf(r.aws.access_key_id, sizeof r.aws.access_key_id, "sluiceexplain");
    snprintf(r.aws.secret, sizeof r.aws.secret, "sluiceexplain");
  }
  sl_buf body;
  sl_buf_init(&body, a);
  sl_jw w;
  sl_jw_init(&w, &body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "TableName");
  sl_jw_str(&w, st->table);
  sl_jw_obj_end(&w);
  sl_client_response resp;
  sl_client_response_init(&resp);
  int e = 0, rc = 1;
  int status = remote_call(&r, "DescribeTable", sl_buf_str(&body), &resp, &e);
  sl_json *j = NULL;
  sl_json_error je;
  if (status == 0) {
    fprintf(stderr, "sluice explain: cannot reach %s: %s\n", endpoint, strerror(-e));
  } else if (sl_json_parse(a, resp.body.p, resp.body.len, &j, &je) != 0 ||
             j->type != SL_JSON_OBJECT) {
    fprintf(stderr, "sluice explain: %s answered DescribeTable with HTTP %d and no JSON\n",
            endpoint, status);
  } else if (status != 200) {
    sl_str type = str(j, "__type");
    const char *hash = memchr(type.p, '#', type.len);
    if (hash)
      type = sl_str_make(hash + 1, type.len - (size_t)(hash + 1 - type.p));
    sl_str msg = str(j, "message");
    fprintf(stderr, "sluice explain: %.*s: %.*s\n", SL_STR_FMT(type),
            SL_STR_FMT(msg.len ? msg : str(j, "Message")));
  } else {
    const sl_json *t = member(j, "Table");
    bool global = false;
    const sl_json *x = st->index.len ? find_index(t, st->index, &global) : NULL;
    if (st->index.len && !x) {
      fprintf(stderr,
              "sluice explain: ValidationException: The table does not have the "
              "specified index: %.*s\n",
              SL_STR_FMT(st->index));
    } else if (consistent && x && global) {
      fprintf(stderr, "sluice explain: ValidationException: Consistent reads are not supported "
                      "on global secondary indexes\n");
    } else {
      sl_buf out;
      sl_buf_init(&out, a);
      sl_jw ow;
      sl_jw_init(&ow, &out);
      describe_estimate(&ow, a, st, t, x, global, consistent, limit);
      if (raw) {
        printf("%.*s\n", (int)out.len, out.p);
      } else {
        sl_json *o;
        if (sl_json_parse(a, out.p, out.len, &o, &je) == 0)
          print_summary(o);
      }
      rc = 0;
    }
  }
  sl_client_response_free(&resp);
  return rc;
}

int sl_tool_explain(int argc, char **argv) {
  const char *endpoint = "http://127.0.0.1:8000", *params = NULL, *token = NULL, *stmt = NULL;
  const char *limit = NULL, *ca_file = NULL;
  bool consistent = false, raw = false, from_describe = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    } else if (strcmp(a, "--consistent") == 0) {
      consistent = true;
    } else if (strcmp(a, "--json") == 0) {
      raw = true;
    } else if (strcmp(a, "--from-describe") == 0) {
      from_describe = true;
    } else if (strcmp(a, "--ca-file") == 0 && v) {
      ca_file = v;
      i++;
    } else if ((strcmp(a, "--endpoint") == 0 || strcmp(a, "--parameters") == 0 ||
                strcmp(a, "--admin-token") == 0 || strcmp(a, "--limit") == 0) &&
               v) {
      if (a[2] == 'e')
        endpoint = v;
      else if (a[2] == 'p')
        params = v;
      else if (a[2] == 'a')
        token = v;
      else
        limit = v;
      i++;
    } else if (a[0] == '-' && a[1] == '-') {
      fprintf(stderr, "sluice explain: unknown or incomplete flag %s\n\n%s", a, usage);
      return 2;
    } else if (!stmt) {
      stmt = a;
    } else {
      fprintf(stderr, "sluice explain: one statement, quoted\n\n%s", usage);
      return 2;
    }
  }
  if (!stmt) {
    fprintf(stderr, "sluice explain: a statement is required\n\n%s", usage);
    return 2;
  }
  if (limit && (atoll(limit) <= 0 || strspn(limit, "0123456789") != strlen(limit))) {
    fprintf(stderr, "sluice explain: --limit must be a positive integer\n");
    return 2;
  }
  sl_arena a;
  sl_arena_init(&a);
  sl_json *pj = NULL;
  sl_json_error je;
  if (params &&
      (sl_json_parse(&a, params, strlen(params), &pj, &je) != 0 || pj->type != SL_JSON_ARRAY)) {
    fprintf(stderr, "sluice explain: --parameters must be a JSON array of attribute values\n");
    sl_arena_destroy(&a);
    return 2;
  }
  char host[256];
  int port;
  bool https = false;
  if (sl_client_parse_endpoint(endpoint, host, sizeof host, &port, &https) != 0) {
    fprintf(stderr, "sluice explain: --endpoint must be http[s]://HOST[:PORT]\n");
    sl_arena_destroy(&a);
    return 2;
  }
  sl_tls_ctx *tls = NULL;
  char terr[512];
  if (https && !(tls = sl_tls_ctx_new(ca_file, terr, sizeof terr))) {
    fprintf(stderr, "sluice explain: %s\n", terr);
    sl_arena_destroy(&a);
    return 1;
  }
  char host_header[300];
  if (port == (https ? 443 : 80))
    snprintf(host_header, sizeof host_header, "%s", host);
  else
    snprintf(host_header, sizeof host_header, "%s:%d", host, port);
  bool loopback =
      strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0;
  sl_buf body;
  sl_buf_init(&body, &a);
  sl_jw w;
  sl_jw_init(&w, &body);
  sl_jw_obj_begin(&w);
  sl_jw_key_c(&w, "Statement");
  sl_jw_str_c(&w, stmt);
  if (pj) {
    sl_jw_key_c(&w, "Parameters");
    sl_jw_value(&w, pj);
  }
  sl_jw_key_c(&w, "ConsistentRead");
  sl_jw_bool(&w, consistent);
  if (limit) {
    sl_jw_key_c(&w, "Limit");
    sl_jw_int(&w, atoll(limit));
  }
  sl_jw_obj_end(&w);
  sl_http_header h[2] = {{SL_STR("Content-Type"), SL_STR("application/json")}};
  size_t nh = 1;
  if (token)
    h[nh++] = (sl_http_header){SL_STR("Authorization"), sl_arena_printf(&a, "Bearer %s", token)};
  sl_client c;
  sl_client_init(&c, host, port, 30000);
  if (tls)
    sl_client_use_tls(&c, tls);
  sl_client_response resp;
  sl_client_response_init(&resp);
  int rc = 1;
  int err = from_describe ? 0
                          : sl_client_request(&c, SL_STR("POST"), SL_STR("/_sluice/explain"), h, nh,
                                              sl_buf_str(&body), true, &resp);
  sl_json *r = NULL;
  if (from_describe) {
    rc = explain_from_describe(&a, &c, endpoint, host_header, loopback, stmt, consistent,
                               limit ? atoll(limit) : 0, raw);
  } else if (err != 0) {
    fprintf(stderr, "sluice explain: cannot reach %s: %s\n", endpoint, strerror(-err));
  } else if (sl_json_parse(&a, resp.body.p, resp.body.len, &r, &je) != 0 ||
             r->type != SL_JSON_OBJECT || (resp.status != 200 && !member(r, "type")) ||
             (resp.status == 200 && !member(r, "Plan"))) {
    /* Not sluice (no /_sluice/explain): estimate from DescribeTable. */
    rc = explain_from_describe(&a, &c, endpoint, host_header, loopback, stmt, consistent,
                               limit ? atoll(limit) : 0, raw);
  } else if (resp.status != 200) {
    fprintf(stderr, "sluice explain: %.*s: %.*s\n", SL_STR_FMT(str(r, "type")),
            SL_STR_FMT(str(r, "error")));
  } else {
    if (raw)
      printf("%.*s\n", (int)resp.body.len, resp.body.p);
    else
      print_summary(r);
    rc = 0;
  }
  sl_client_response_free(&resp);
  sl_client_close(&c);
  if (tls)
    sl_tls_ctx_free(tls);
  sl_arena_destroy(&a);
  return rc;
}
