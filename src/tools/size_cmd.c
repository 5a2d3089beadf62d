/*
 * The `sluice size` command: flags, input, output; the sizing itself is
 * size.c's (see size.h). With --endpoint URL --table-name T it asks the
 * endpoint for the table's description (DescribeTable over HTTP, signed
 * with SigV4 from the AWS configuration sluice bench reads,
 * tools/bench_plan.h), so this file speaks HTTP (net/client.h) and is left
 * out of the offline tools' unit-test link (Makefile TOOLS_ONLINE).
 * tests/conformance/test_size_tool.py runs it.
 */
#include "tools/size.h"
#include "tools/bench_plan.h"
#include "tools/tools.h"
#include "net/client.h"
#include "net/sigv4.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char size_usage[] =
    "usage: sluice size [flags] [ITEM | FILE | -]\n"
    "\n"
    "The size of a DynamoDB item in bytes (per attribute), and the read and write\n"
    "units it costs. ITEM is the item's JSON on the command line, FILE a file\n"
    "holding it, '-' (or nothing) reads standard input.\n"
    "\n"
    "  --plain           the item is plain JSON (strings, numbers, booleans, null,\n"
    "                    arrays, objects) instead of DynamoDB JSON\n"
    "  --table FILE      the table's description (DescribeTable output or a\n"
    "                    CreateTable request): key checks, each index's entry and\n"
    "                    write cost\n"
    "  --endpoint URL --table-name T\n"
    "                    the description from DescribeTable of table T at URL\n"
    "                    (http:// or https://; signed with SigV4 from the AWS_*\n"
    "                    environment or ~/.aws, as sluice bench signs)\n"
    "  --old FILE        the item this one replaces (an update): the table part is\n"
    "                    the larger of the two, index writes follow the change\n"
    "  --lines           the input holds one item per line; one report per line\n"
    "                    (with --json: one JSON object per line)\n"
    "  --json            JSON output\n";

static bool read_all(const char *path, sl_buf *out) {
  FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!fp)
    return false;
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
    sl_buf_append(out, chunk, n);
  if (fp != stdin)
    fclose(fp);
  return true;
}

/* The argument as JSON text: itself when it looks like JSON, else a file. */
static bool load_input(const char *arg, sl_buf *out, char *err, size_t err_len) {
  const char *p = arg;
  while (*p == ' ' || *p == '\t' || *p == '\n')
    p++;
  if (*p == '{') {
    sl_buf_append(out, arg, strlen(arg));
    return true;
  }
  if (!read_all(arg, out)) {
    snprintf(err, err_len, "cannot read '%s': %s", arg, strerror(errno));
    return false;
  }
  return true;
}

static bool parse_json(sl_arena *a, sl_str text, const char *what, sl_json **out) {
  sl_json_error je;
  if (sl_json_parse(a, text.p, text.len, out, &je) != 0) {
    fprintf(stderr, "sluice size: %s: invalid JSON at byte %zu: %s\n", what, je.offset, je.msg);
    return false;
  }
  return true;
}

static bool item_of(sl_arena *a, sl_str text, bool plain, const char *what, sl_item *out) {
  sl_json *j;
  if (!parse_json(a, text, what, &j))
    return false;
  sl_failure f;
  sl_failure_init(&f, a);
  sl_err err = plain ? sl_size_plain_item(&f, a, j, out) : sl_size_item(&f, a, j, out);
  if (err != SL_OK) {
    fprintf(stderr, "sluice size: %s: %s: %.*s\n", what, sl_err_name(err), SL_STR_FMT(f.message));
    return false;
  }
  return true;
}

static bool report_one(sl_arena *a, sl_str text, bool plain, bool json, const sl_item *old,
                       const sl_table *t, const char *what, sl_buf *out) {
  sl_item it;
  if (!item_of(a, text, plain, what, &it))
    return false;
  sl_size_report r;
  sl_size_analyse(a, &it, old, t, &r);
  if (json) {
    sl_jw w;
    sl_jw_init(&w, out);
    sl_size_write_json(&w, &r);
    sl_buf_putc(out, '\n');
  } else {
    sl_size_write_text(out, &r);
  }
  return true;
}

static const char *env_get(const char *name) { return getenv(name); }

static bool loopback_host(const char *h) {
  return strcmp(h, "localhost") == 0 || strncmp(h, "127.", 4) == 0 || strcmp(h, "::1") == 0;
}

/* DescribeTable of 'table' at 'endpoint' into 'out' (the reply's JSON). */
static bool describe_table(const char *endpoint, const char *table, sl_buf *out, char *err,
                           size_t err_len) {
  char host[256], host_header[300];
  int port;
  bool https;
  if (sl_client_parse_endpoint(endpoint, host, sizeof(host), &port, &https) != 0) {
    snprintf(err, err_len, "invalid endpoint '%s' (http://HOST[:PORT] or https://HOST[:PORT])",
             endpoint);
    return false;
  }
  if (port == (https ? 443 : 80))
    snprintf(host_header, sizeof(host_header), "%s", host);
  else
    snprintf(host_header, sizeof(host_header), "%s:%d", host, port);
  static sl_bench_aws aws;
  if (sl_bench_aws_load(&aws, env_get, getenv("HOME"), err, err_len) != 0) {
    if (!loopback_host(host))
      return false;
    /* A local endpoint under --auth any takes any key. */
    snprintf(aws.access_key_id, sizeof(aws.access_key_id), "sluicesize");
    snprintf(aws.secret, sizeof(aws.secret), "sluicesize");
  }
  sl_buf body, auth;
  sl_buf_init(&body, NULL);
  sl_buf_init(&auth, NULL);
  sl_buf_puts(&body, SL_STR("{\"TableName\":"));
  sl_jw w;
  sl_jw_init(&w, &body);
  sl_jw_str_c(&w, table);
  sl_buf_putc(&body, '}');
  sl_http_header h[3] = {
      {SL_STR("Host"), sl_str_c(host_header)},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), SL_STR("DynamoDB_20120810.DescribeTable")},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 3,
      .body = sl_buf_str(&body),
      .access_key_id = sl_str_c(aws.access_key_id),
      .secret = sl_str_c(aws.secret),
      .session_token = sl_str_c(aws.session_token),
      .region = sl_str_c(aws.region),
      .service = SL_STR("dynamodb"),
      .now_s = (int64_t)time(NULL),
  };
  char date[17];
  sl_sigv4_sign(&r, date, &auth);
  sl_http_header sent[5];
  size_t n = 0;
  sent[n++] = h[1];
  sent[n++] = h[2];
  sent[n++] = (sl_http_header){SL_STR("X-Amz-Date"), sl_str_make(date, 16)};
  if (aws.session_token[0])
    sent[n++] = (sl_http_header){SL_STR("X-Amz-Security-Token"), sl_str_c(aws.session_token)};
  sent[n++] = (sl_http_header){SL_STR("Authorization"), sl_buf_str(&auth)};
  sl_tls_ctx *tls = NULL;
  sl_client c;
  sl_client_init(&c, host, port, 30000);
  sl_client_response resp;
  sl_client_response_init(&resp);
  bool ok = false;
  if (https && !(tls = sl_tls_ctx_new(NULL, err, err_len)))
    goto out;
  if (tls)
    sl_client_use_tls(&c, tls);
  int rc =
      sl_client_request(&c, SL_STR("POST"), SL_STR("/"), sent, n, sl_buf_str(&body), true, &resp);
  if (rc != 0) {
    snprintf(err, err_len, "%s: DescribeTable: %s%s%s", endpoint, strerror(-rc),
             https && *sl_tls_last_error() ? ": " : "", https ? sl_tls_last_error() : "");
    goto out;
  }
  if (resp.status != 200) {
    snprintf(err, err_len, "%s: DescribeTable of '%s': HTTP %d: %.*s", endpoint, table, resp.status,
             (int)(resp.body.len > 400 ? 400 : resp.body.len), resp.body.p);
    goto out;
  }
  sl_buf_append(out, resp.body.p, resp.body.len);
  ok = true;
out:
  sl_client_response_free(&resp);
  sl_client_close(&c);
  if (tls)
    sl_tls_ctx_free(tls);
  sl_buf_free(&body);
  sl_buf_free(&auth);
  return ok;
}

int sl_tool_size(int argc, char **argv) {
  bool plain = false, json = false, lines = false;
  const char *table_path = NULL, *old_path = NULL, *input = NULL, *endpoint = NULL,
             *table_name = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(size_usage, stdout);
      return 0;
    } else if (strcmp(a, "--plain") == 0) {
      plain = true;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--lines") == 0) {
      lines = true;
    } else if (strcmp(a, "--table") == 0 || strcmp(a, "--old") == 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "sluice size: %s needs a file\n\n%s", a, size_usage);
        return 2;
      }
      *(strcmp(a, "--table") == 0 ? &table_path : &old_path) = argv[++i];
    } else if (strcmp(a, "--endpoint") == 0 || strcmp(a, "--table-name") == 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "sluice size: %s needs a value\n\n%s", a, size_usage);
        return 2;
      }
      *(strcmp(a, "--endpoint") == 0 ? &endpoint : &table_name) = argv[++i];
    } else if (strncmp(a, "--", 2) == 0) {
      fprintf(stderr, "sluice size: unknown flag '%s'\n\n%s", a, size_usage);
      return 2;
    } else if (input) {
      fprintf(stderr, "sluice size: one item at a time (got '%s' after '%s')\n\n%s", a, input,
              size_usage);
      return 2;
    } else {
      input = a;
    }
  }
  if (!endpoint != !table_name) {
    fprintf(stderr, "sluice size: --endpoint and --table-name go together\n\n%s", size_usage);
    return 2;
  }
  if (endpoint && table_path) {
    fprintf(stderr, "sluice size: give --table FILE or --endpoint/--table-name, not both\n\n%s",
            size_usage);
    return 2;
  }
  if (!input)
    input = "-";
  int rc = 1;
  sl_arena a;
  sl_arena_init(&a);
  sl_buf in, tab, oldb, out;
  sl_buf_init(&in, &a);
  sl_buf_init(&tab, &a);
  sl_buf_init(&oldb, &a);
  sl_buf_init(&out, NULL);
  char err[512];
  sl_table table, *t = NULL;
  sl_item old, *oldp = NULL;
  if (endpoint) {
    if (!describe_table(endpoint, table_name, &tab, err, sizeof(err))) {
      fprintf(stderr, "sluice size: %s\n", err);
      goto out;
    }
    table_path = endpoint;
  }
  if (table_path) {
    sl_json *j;
    if (!endpoint && !read_all(table_path, &tab)) {
      fprintf(stderr, "sluice size: cannot read '%s': %s\n", table_path, strerror(errno));
      goto out;
    }
    if (!parse_json(&a, sl_buf_str(&tab), table_path, &j))
      goto out;
    sl_failure f;
    sl_failure_init(&f, &a);
    if (sl_size_table(&f, &a, j, &table) != SL_OK) {
      fprintf(stderr, "sluice size: %s: %.*s\n", table_path, SL_STR_FMT(f.message));
      goto out;
    }
    t = &table;
  }
  if (old_path) {
    if (!load_input(old_path, &oldb, err, sizeof(err))) {
      fprintf(stderr, "sluice size: %s\n", err);
      goto out;
    }
    if (!item_of(&a, sl_buf_str(&oldb), plain, old_path, &old))
      goto out;
    oldp = &old;
  }
  if (!load_input(input, &in, err, sizeof(err))) {
    fprintf(stderr, "sluice size: %s\n", err);
    goto out;
  }
  if (!lines) {
    if (!report_one(&a, sl_buf_str(&in), plain, json, oldp, t, "item", &out))
      goto out;
  } else {
    size_t n = 0;
    for (size_t p = 0; p < in.len;) {
      const char *nl = memchr(in.p + p, '\n', in.len - p);
      size_t end = nl ? (size_t)(nl - in.p) : in.len;
      sl_str line = sl_str_make(in.p + p, end - p);
      p = end + 1;
      bool blank = true;
      for (size_t k = 0; k < line.len && blank; k++)
        blank = line.p[k] == ' ' || line.p[k] == '\t' || line.p[k] == '\r';
      if (blank)
        continue;
      n++;
      char what[48];
      snprintf(what, sizeof(what), "line %zu", n);
      if (!json && n > 1)
        sl_buf_puts(&out, SL_STR("\n"));
      if (!report_one(&a, line, plain, json, oldp, t, what, &out))
        goto out;
    }
  }
  fwrite(out.p, 1, out.len, stdout);
  rc = 0;
out:
  sl_buf_free(&out);
  sl_arena_destroy(&a);
  return rc;
}
