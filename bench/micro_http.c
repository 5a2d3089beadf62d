/* micro_http — how fast net/http parses and net/server answers.
 *
 *   micro_http                 times sl_http_parse_head on a small GET and on a
 *                              DynamoDB PutItem head, and sl_http_dechunk
 *   micro_http serve [PORT]    a canned "Hello, World!" server (net/server.h)
 *                              on 127.0.0.1:PORT (default 8080) for wrk:
 *                              wrk -t1 -c32 -d10s http://127.0.0.1:8080/
 *                              Ctrl-C stops it.
 *
 * Prints its own numbers; never a timed test. */
#include "base/log.h"
#include "net/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine may be shared */
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void time_parse(const char *name, const char *raw) {
  size_t len = strlen(raw), head_len = 0;
  static sl_http_request r;
  int iters = 2000000;
  size_t sink = 0;
  double t0 = now_s();
  for (int i = 0; i < iters; i++) {
    if (sl_http_parse_head(raw, len, &r, &head_len) != SL_HTTP_OK)
      sl_panic("parse failed");
    sink += r.n_headers;
  }
  double dt = now_s() - t0;
  printf("parse_head %-10s %4zu bytes  %7.1f ns/head  %6.0f MB/s  (%zu)\n", name, len,
         dt / iters * 1e9, (double)len * iters / dt / 1e6, sink / (size_t)iters);
}

static void time_dechunk(void) {
  /* 64 KiB body in 4 KiB chunks. */
  char enc[80000];
  size_t len = 0;
  for (int i = 0; i < 16; i++) {
    len += (size_t)snprintf(enc + len, sizeof(enc) - len, "1000\r\n");
    memset(enc + len, 'x', 4096);
    len += 4096;
    len += (size_t)snprintf(enc + len, sizeof(enc) - len, "\r\n");
  }
  len += (size_t)snprintf(enc + len, sizeof(enc) - len, "0\r\n\r\n");
  static char work[80000];
  int iters = 20000;
  double t0 = now_s();
  for (int i = 0; i < iters; i++) {
    memcpy(work, enc, len);
    size_t body_len, used;
    if (sl_http_dechunk(work, len, 1 << 20, &body_len, &used) != SL_HTTP_OK || body_len != 65536)
      sl_panic("dechunk failed");
  }
  double dt = now_s() - t0;
  printf("dechunk    64KiB/16    %6zu bytes  %7.1f us/body  %6.0f MB/s (incl. copy-in)\n", len,
         dt / iters * 1e6, (double)len * iters / dt / 1e6);
}

static void hello(void *ctx, sl_http_request *req, sl_http_response *resp) {
  resp->content_type = SL_STR("text/plain");
  sl_buf_append(&resp->body, "Hello, World!", 13);
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "serve") == 0) {
    sl_server_config cfg;
    sl_server_config_default(&cfg);
    cfg.port = argc >= 3 ? atoi(argv[2]) : 8080;
    cfg.handle_signals = true;
    sl_server *s = sl_server_create(NULL, &cfg, hello, NULL);
    if (!s)
      return 1;
    printf("micro_http: serving on 127.0.0.1:%d\n", sl_server_port(s));
    fflush(stdout);
    int rc = sl_server_run(s);
    sl_server_destroy(s);
    return rc;
  }
  time_parse("get", "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
  time_parse("putitem",
             "POST / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept-Encoding: identity\r\n"
             "X-Amz-Target: DynamoDB_20120810.PutItem\r\n"
             "Content-Type: application/x-amz-json-1.0\r\n"
             "User-Agent: Boto3/1.26.27 Python/3.11.2 Linux/6.1.0-13-amd64 Botocore/1.29.27\r\n"
             "X-Amz-Date: 20240101T000000Z\r\n"
             "Authorization: AWS4-HMAC-SHA256 "
             "Credential=AKIDEXAMPLE/20240101/us-east-1/dynamodb/aws4_request, "
             "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
             "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7\r\n"
             "Content-Length: 1300\r\n\r\n");
  time_dechunk();
  return 0;
}
