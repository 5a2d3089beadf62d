/* Unit tests of net/client against net/server: a server runs in-process on
 * an ephemeral port, its loop in a second thread, while the client calls it:
 * GET and POST, keep-alive over one connection, a reply that closes the
 * connection and the next request reconnecting, a server that closed an idle
 * kept connection, gzip replies decoded (and their raw bytes kept), HEAD and
 * 204 without bodies, and a request signed by net/sigv4 verified by the
 * server's handler. Also the URL parser. */
#include "harness.h"
#include "base/log.h"
#include "net/client.h"
#include "net/sigv4.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <uv.h>

static sl_server *srv;
static int port;
static int accepted_requests;
static sl_sigv4_config auth;
static sl_arena arena;

/* "/echo" echoes method, target and body; "/big?N" answers N bytes; "/close"
 * closes after the reply; "/204"; "/signed" checks the signature; "/stop". */
static void handler(void *ctx, sl_http_request *req, sl_http_response *resp) {
  accepted_requests++;
  resp->content_type = SL_STR("text/plain");
  if (sl_str_eq_c(req->path, "/stop")) {
    sl_server_stop(srv);
  } else if (sl_str_eq_c(req->path, "/big")) {
    size_t n = (size_t)strtoul(req->query.p, NULL, 10);
    sl_buf_reserve(&resp->body, n);
    for (size_t i = 0; i < n; i++)
      resp->body.p[i] = (char)('a' + i % 26);
    resp->body.len = n;
  } else if (sl_str_eq_c(req->path, "/close")) {
    resp->close = true;
    sl_buf_puts(&resp->body, SL_STR("bye"));
  } else if (sl_str_eq_c(req->path, "/204")) {
    resp->status = 204;
  } else if (sl_str_eq_c(req->path, "/signed")) {
    sl_failure f;
    sl_failure_init(&f, &arena);
    sl_err rc = sl_sigv4_check(&auth, req, sl_http_header_get(req, "x-amz-target"), 0, &f);
    resp->status = rc == SL_OK ? 200 : 403;
    sl_buf_puts(&resp->body, rc == SL_OK ? SL_STR("ok") : f.message);
    sl_arena_reset(&arena);
  } else {
    sl_buf_puts(&resp->body, req->method);
    sl_buf_putc(&resp->body, ' ');
    sl_buf_puts(&resp->body, req->target);
    sl_buf_putc(&resp->body, '\n');
    sl_buf_puts(&resp->body, req->body);
  }
}

static uv_loop_t loop;
static pthread_t thread;

static void *run_thread(void *arg) {
  sl_server_run(srv);
  return NULL;
}

static void start(void) {
  uv_loop_init(&loop);
  sl_server_config cfg;
  sl_server_config_default(&cfg);
  cfg.port = 0;
  cfg.idle_timeout_ms = 300;
  srv = sl_server_create(&loop, &cfg, handler, NULL);
  SL_ASSERT(srv != NULL);
  port = sl_server_port(srv);
  pthread_create(&thread, NULL, run_thread, NULL);
}

static sl_client cl;
static sl_client_response resp;

static int get(const char *target, bool decode, const sl_http_header *h, size_t n) {
  return sl_client_request(&cl, SL_STR("GET"), sl_str_c(target), h, n, SL_STR_NULL, decode, &resp);
}

static void test_parse_url(void) {
  char host[64];
  int p;
  CHECK_INT(sl_client_parse_url("http://127.0.0.1:8000", host, sizeof(host), &p), 0);
  CHECK(strcmp(host, "127.0.0.1") == 0 && p == 8000);
  CHECK_INT(sl_client_parse_url("http://localhost/", host, sizeof(host), &p), 0);
  CHECK(strcmp(host, "localhost") == 0 && p == 80);
  CHECK_INT(sl_client_parse_url("http://[::1]:9/x", host, sizeof(host), &p), 0);
  CHECK(strcmp(host, "::1") == 0 && p == 9);
  CHECK_INT(sl_client_parse_url("https://example.com", host, sizeof(host), &p), -1);
  CHECK_INT(sl_client_parse_url("http://h:0", host, sizeof(host), &p), -1);
  CHECK_INT(sl_client_parse_url("http://:80", host, sizeof(host), &p), -1);
}

static void test_get_post_keep_alive(void) {
  CHECK_INT(get("/echo?x=1", false, NULL, 0), 0);
  CHECK_INT(resp.status, 200);
  CHECK_STR(sl_buf_str(&resp.body), "GET /echo?x=1\n");
  CHECK_STR(sl_client_header(&resp, "server"), "Server");
  CHECK(resp.keep_alive);
  int fd = cl.fd;
  CHECK_INT(sl_client_request(&cl, SL_STR("POST"), SL_STR("/echo"), NULL, 0, SL_STR("{\"a\":1}"),
                              false, &resp),
            0);
  CHECK_STR(sl_buf_str(&resp.body), "POST /echo\n{\"a\":1}");
  CHECK_INT(cl.fd, fd); /* the same connection */
}

static void test_close_and_reconnect(void) {
  CHECK_INT(get("/close", false, NULL, 0), 0);
  CHECK_STR(sl_buf_str(&resp.body), "bye");
  CHECK(!resp.keep_alive);
  CHECK_INT(cl.fd, -1);
  CHECK_INT(get("/echo", false, NULL, 0), 0);
  CHECK_INT(resp.status, 200);
  /* The server closes an idle connection (300 ms here); the next request
   * notices and goes out once more on a new connection. */
  struct timespec ts = {0, 500 * 1000 * 1000};
  nanosleep(&ts, NULL);
  CHECK_INT(get("/echo?again", false, NULL, 0), 0);
  CHECK_STR(sl_buf_str(&resp.body), "GET /echo?again\n");
}

static void test_gzip_reply(void) {
  sl_http_header h[] = {{SL_STR("Accept-Encoding"), SL_STR("gzip")}};
  CHECK_INT(get("/big?50000", true, h, 1), 0);
  CHECK_STR(sl_client_header(&resp, "content-encoding"), "gzip");
  CHECK_INT(resp.body.len, 50000);
  CHECK(resp.raw_body.len < 5000);
  CHECK(resp.body.p[49999] == (char)('a' + 49999 % 26));
  /* Not decoded when not asked: the raw bytes twice. */
  CHECK_INT(get("/big?50000", false, h, 1), 0);
  CHECK_INT(resp.body.len, resp.raw_body.len);
  CHECK(resp.body.len < 5000);
}

static void test_bodiless(void) {
  CHECK_INT(sl_client_request(&cl, SL_STR("HEAD"), SL_STR("/big?100"), NULL, 0, SL_STR_NULL, false,
                              &resp),
            0);
  CHECK_INT(resp.status, 200);
  CHECK_INT(resp.body.len, 0);
  CHECK_STR(sl_client_header(&resp, "content-length"), "100");
  CHECK_INT(get("/204", false, NULL, 0), 0);
  CHECK_INT(resp.status, 204);
  /* The connection is still in step. */
  CHECK_INT(get("/echo", false, NULL, 0), 0);
  CHECK_STR(sl_buf_str(&resp.body), "GET /echo\n");
}

/* The signer and the verifier agree over a real connection. */
static void test_signed_request(void) {
  char hostport[32];
  snprintf(hostport, sizeof(hostport), "127.0.0.1:%d", port);
  sl_http_header h[4] = {
      {SL_STR("Host"), sl_str_c(hostport)},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), SL_STR("DynamoDB_20120810.ListTables")},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/signed"),
      .headers = h,
      .n_headers = 3,
      .body = SL_STR("{}"),
      .access_key_id = SL_STR("AKID"),
      .secret = SL_STR("secret"),
      .region = SL_STR("us-east-1"),
      .service = SL_STR("dynamodb"),
      .now_s = (int64_t)time(NULL),
  };
  char date[17];
  sl_buf a;
  sl_buf_init(&a, NULL);
  sl_sigv4_sign(&r, date, &a);
  /* Host is added by the client; the signed list names it. */
  sl_http_header send[4] = {h[1],
                            h[2],
                            {SL_STR("X-Amz-Date"), sl_str_make(date, 16)},
                            {SL_STR("Authorization"), sl_buf_str(&a)}};
  CHECK_INT(sl_client_request(&cl, SL_STR("POST"), SL_STR("/signed"), send, 4, SL_STR("{}"), false,
                              &resp),
            0);
  CHECK_INT(resp.status, 200);
  CHECK_STR(sl_buf_str(&resp.body), "ok");
  /* Another body under the same signature. */
  CHECK_INT(sl_client_request(&cl, SL_STR("POST"), SL_STR("/signed"), send, 4, SL_STR("{ }"), false,
                              &resp),
            0);
  CHECK_INT(resp.status, 403);
  sl_buf_free(&a);
}

static void test_refused(void) {
  sl_client c;
  sl_client_init(&c, "127.0.0.1", 1, 1000);
  sl_client_response r;
  sl_client_response_init(&r);
  CHECK_INT(sl_client_request(&c, SL_STR("GET"), SL_STR("/"), NULL, 0, SL_STR_NULL, false, &r),
            -ECONNREFUSED);
  sl_client_response_free(&r);
  sl_client_close(&c);
}

int main(void) {
  sl_log_level = SL_LOG_WARN;
  sl_arena_init(&arena);
  sl_sigv4_config_init(&auth);
  auth.mode = SL_AUTH_SIGV4;
  char err[64];
  SL_ASSERT(sl_sigv4_parse_credentials(&auth, "AKID secret\n", 12, err, sizeof(err)) == 0);
  start();
  sl_client_init(&cl, "127.0.0.1", port, 5000);
  sl_client_response_init(&resp);
  RUN(test_parse_url);
  RUN(test_get_post_keep_alive);
  RUN(test_close_and_reconnect);
  RUN(test_gzip_reply);
  RUN(test_bodiless);
  RUN(test_signed_request);
  RUN(test_refused);
  get("/stop", false, NULL, 0);
  pthread_join(thread, NULL);
  sl_server_destroy(srv);
  uv_loop_close(&loop);
  sl_client_response_free(&resp);
  sl_client_close(&cl);
  sl_sigv4_config_free(&auth);
  sl_arena_destroy(&arena);
  return DONE();
}
