/* micro_sigv4 — what verifying a SigV4 signature costs per request.
 *
 *   micro_sigv4    signs a GetItem request once (net/sigv4.h), then times
 *                  sl_sigv4_check on it: under --auth sigv4 with the cached
 *                  signing key (the steady state: one key, one day), with the
 *                  key derived every time (a new day or region), and under
 *                  --auth any (the format check only).
 *
 * The budget: a GetItem costs about 17 us of server CPU, so the check should
 * stay a few percent of that. CPU time of this thread is measured (the
 * machine may be shared). Prints its own numbers; never a timed test. */
#include "base/log.h"
#include "net/sigv4.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static const char body[] = "{\"TableName\":\"Orders\",\"Key\":{\"pk\":{\"S\":\"order#12345\"},"
                           "\"sk\":{\"S\":\"2026-11-30\"}},"
                           "\"ConsistentRead\":false}";

static char raw[4096];
static sl_http_request req;

/* A GetItem request as botocore sends it, signed at 'now'. */
static void build(int64_t now) {
  sl_http_header h[] = {
      {SL_STR("Host"), SL_STR("127.0.0.1:8000")},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), SL_STR("DynamoDB_20120810.GetItem")},
      {SL_STR("User-Agent"), SL_STR("Boto3/1.26.27 Python/3.11.2 Linux/6.1 Botocore/1.29.27")},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 4,
      .body = SL_STR(body),
      .access_key_id = SL_STR("AKIAIOSFODNN7EXAMPLE"),
      .secret = SL_STR("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
      .region = SL_STR("us-east-1"),
      .service = SL_STR("dynamodb"),
      .now_s = now,
  };
  char date[17];
  sl_buf auth;
  sl_buf_init(&auth, NULL);
  sl_sigv4_sign(&r, date, &auth);
  size_t n = (size_t)snprintf(
      raw, sizeof(raw),
      "POST / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept-Encoding: identity\r\n"
      "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.GetItem\r\n"
      "User-Agent: Boto3/1.26.27 Python/3.11.2 Linux/6.1 Botocore/1.29.27\r\n"
      "X-Amz-Date: %s\r\nAuthorization: %.*s\r\nContent-Length: %zu\r\n\r\n%s",
      date, (int)auth.len, auth.p, strlen(body), body);
  sl_buf_free(&auth);
  size_t head_len = 0;
  if (sl_http_parse_head(raw, n, &req, &head_len) != SL_HTTP_OK)
    sl_panic("parse failed");
  req.raw_body = req.body = sl_str_make(raw + head_len, n - head_len);
}

static void run(const char *name, sl_sigv4_config *c, int64_t now, bool derive) {
  sl_arena a;
  sl_arena_init(&a);
  enum { ITERS = 200000 };
  double best = 1e30;
  for (int round = 0; round < 5; round++) {
    double t0 = now_ns();
    for (int i = 0; i < ITERS; i++) {
      if (derive && c->n_keys)
        c->keys[0].scope[0] = 0; /* forget the cached signing key */
      sl_failure f;
      sl_failure_init(&f, &a);
      if (sl_sigv4_check(c, &req, SL_STR("DynamoDB_20120810.GetItem"), now, &f) != SL_OK)
        sl_panic("check failed: %.*s", SL_STR_FMT(f.message));
      sl_arena_reset(&a);
    }
    double dt = (now_ns() - t0) / ITERS;
    if (dt < best)
      best = dt;
  }
  printf("%-34s %7.0f ns/request  (%.1f%% of a 17 us GetItem)\n", name, best, best / 170.0);
  sl_arena_destroy(&a);
}

int main(void) {
  int64_t now = (int64_t)time(NULL);
  build(now);
  sl_sigv4_config c;
  sl_sigv4_config_init(&c);
  char err[128];
  const char keys[] = "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n";
  if (sl_sigv4_parse_credentials(&c, keys, sizeof(keys) - 1, err, sizeof(err)) != 0)
    sl_panic("%s", err);
  printf("GetItem, %zu-byte body, %zu headers\n", strlen(body), req.n_headers);
  run("check --auth any (format only)", &c, now, false);
  c.mode = SL_AUTH_SIGV4;
  run("check --auth sigv4 (cached key)", &c, now, false);
  run("check --auth sigv4 (key derived)", &c, now, true);
  sl_sigv4_config_free(&c);
  return 0;
}
