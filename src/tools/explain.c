/* `sluice explain`; see explain.h. */
#include "tools/explain.h"
#include "base/json.h"
#include "net/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: sluice explain [flags] 'SELECT ...'\n"
    "\n"
    "  --endpoint URL       the sluice server (default http://127.0.0.1:8000)\n"
    "  --consistent         price strongly consistent reads (ConsistentRead)\n"
    "  --limit N            the statement's Limit: pages of N items read\n"
    "  --parameters JSON    the statement's Parameters, e.g. '[{\"S\":\"c7\"}]'\n"
    "  --admin-token TOKEN  the server's --admin-token\n"
    "  --json               print the reply of POST /_sluice/explain as it is\n";

static const sl_json *member(const sl_json *o, const char *k) { return sl_json_get(o, k); }

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
  printf("plan:     %.*s\n", SL_STR_FMT(str(plan, "Text")));
  printf("reads:    %.0f items, %.0f bytes, %.0f page(s) -> %.1f read units (first page %.1f)\n",
         num(e, "Items"), num(e, "Bytes"), num(e, "Pages"), num(e, "ReadUnits"),
         num(e, "FirstPageReadUnits"));
  printf("returns:  %.0f items\n", num(e, "ReturnedItems"));
  const sl_json *wt = member(e, "WillThrottle");
  printf("time:     %.3f s at the current limit of %.0f read units/s; throttled now: %s\n",
         num(e, "SecondsAtCurrentLimit"), num(e, "ReadLimitPerSecond"),
         wt && wt->type == SL_JSON_TRUE ? "yes" : "no");
  const sl_json *ws = member(r, "Warnings");
  for (size_t i = 0; ws && ws->type == SL_JSON_ARRAY && i < ws->arr.n; i++)
    printf("warning:  %.*s\n", SL_STR_FMT(ws->arr.items[i]->str));
  const sl_json *as = member(r, "Alternatives");
  for (size_t i = 0; as && as->type == SL_JSON_ARRAY && i < as->arr.n; i++) {
    const sl_json *a = as->arr.items[i];
    printf("instead:  Query index %.*s (%.*s): %.0f items, %.1f read units\n",
           SL_STR_FMT(str(a, "IndexName")), SL_STR_FMT(str(a, "KeyCondition")), num(a, "Items"),
           num(a, "ReadUnits"));
  }
}

int sl_tool_explain(int argc, char **argv) {
  const char *endpoint = "http://127.0.0.1:8000", *params = NULL, *token = NULL, *stmt = NULL;
  const char *limit = NULL;
  bool consistent = false, raw = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return 0;
    } else if (strcmp(a, "--consistent") == 0) {
      consistent = true;
    } else if (strcmp(a, "--json") == 0) {
      raw = true;
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
  if (sl_client_parse_url(endpoint, host, sizeof host, &port) != 0) {
    fprintf(stderr, "sluice explain: --endpoint must be http://HOST[:PORT]\n");
    sl_arena_destroy(&a);
    return 2;
  }
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
  sl_client_response resp;
  sl_client_response_init(&resp);
  int rc = 1;
  int err = sl_client_request(&c, SL_STR("POST"), SL_STR("/_sluice/explain"), h, nh,
                              sl_buf_str(&body), true, &resp);
  sl_json *r = NULL;
  if (err != 0) {
    fprintf(stderr, "sluice explain: cannot reach %s: %s\n", endpoint, strerror(-err));
  } else if (sl_json_parse(&a, resp.body.p, resp.body.len, &r, &je) != 0 ||
             r->type != SL_JSON_OBJECT || (resp.status != 200 && !member(r, "type"))) {
    fprintf(stderr,
            "sluice explain: %s is not a sluice server (no /_sluice/explain: HTTP %d). "
            "Estimating from DescribeTable for other endpoints is not implemented.\n",
            endpoint, resp.status);
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
  sl_arena_destroy(&a);
  return rc;
}
