/* libFuzzer target for net/sigv4: arbitrary bytes as a request (head and
 * body), checked under --auth any and --auth sigv4 with fixed keys and a
 * fixed clock; the same bytes as an Authorization header value, a credential
 * scope and a credentials file. Beyond memory safety (exact-size heap
 * copies, so ASan sees any over-read) it checks: every slice the parsers
 * return lies inside their input; a check ends in SL_OK or one of the
 * front-end exceptions, always with a message; and a request signed by
 * sl_sigv4_sign with the input as its body and as a header value passes the
 * check, while the same request with one body byte changed does not.
 * Seeds: tests/fuzz/corpus/sigv4/. */
#include "net/sigv4.h"

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(e)                                                                             \
  do {                                                                                             \
    if (!(e)) {                                                                                    \
      fprintf(stderr, "fuzz_sigv4: %s:%d: %s\n", __FILE__, __LINE__, #e);                          \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

#define NOW 1764590400 /* 2025-12-01T12:00:00Z */

static void inside(sl_str s, const char *lo, size_t len) {
  FUZZ_ASSERT(s.len == 0 || (s.p >= lo && s.p + s.len <= lo + len));
}

static sl_sigv4_config cfg_any, cfg_v4;
static sl_arena arena;

static void setup(void) {
  static bool done;
  if (done)
    return;
  done = true;
  sl_arena_init(&arena);
  sl_sigv4_config_init(&cfg_any);
  sl_sigv4_config_init(&cfg_v4);
  cfg_v4.mode = SL_AUTH_SIGV4;
  char err[128];
  const char keys[] = "AKIDFUZZ secret\nASIAFUZZ secret2 token\n";
  if (sl_sigv4_parse_credentials(&cfg_v4, keys, sizeof(keys) - 1, err, sizeof(err)) != 0)
    abort();
}

static void check_result(sl_err rc, const sl_failure *f) {
  FUZZ_ASSERT(rc == f->code);
  FUZZ_ASSERT(rc == SL_OK || rc == SL_E_MISSING_AUTHENTICATION_TOKEN ||
              rc == SL_E_INCOMPLETE_SIGNATURE || rc == SL_E_INVALID_SIGNATURE ||
              rc == SL_E_UNRECOGNIZED_CLIENT);
  FUZZ_ASSERT(rc == SL_OK || f->message.len > 0);
}

static sl_err run_check(sl_sigv4_config *c, const sl_http_request *r) {
  sl_failure f;
  sl_failure_init(&f, &arena);
  sl_err rc = sl_sigv4_check(c, r, SL_STR("DynamoDB_20120810.GetItem"), NOW, &f);
  check_result(rc, &f);
  return rc;
}

/* Signs POST / with 'body' and a header whose value is printable bytes of
 * the input, parses it back and checks it. */
static void round_trip(const uint8_t *data, size_t size) {
  char value[64];
  size_t n = 0;
  for (size_t i = 0; i < size && n < sizeof(value); i++)
    if (data[i] >= 0x21 && data[i] < 0x7f)
      value[n++] = (char)data[i];
  if (n == 0)
    value[n++] = 'x';
  sl_http_header h[] = {
      {SL_STR("Host"), SL_STR("localhost:8000")},
      {SL_STR("X-Fuzz"), sl_str_make(value, n)},
  };
  sl_sigv4_request s = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 2,
      .body = sl_str_make((const char *)data, size),
      .access_key_id = SL_STR("AKIDFUZZ"),
      .secret = SL_STR("secret"),
      .region = SL_STR("us-east-1"),
      .service = SL_STR("dynamodb"),
      .now_s = NOW,
  };
  char date[17];
  sl_buf auth, raw;
  sl_buf_init(&auth, NULL);
  sl_buf_init(&raw, NULL);
  sl_sigv4_sign(&s, date, &auth);
  sl_buf_printf(&raw,
                "POST / HTTP/1.1\r\nHost: localhost:8000\r\nX-Fuzz: %.*s\r\nX-Amz-Date: %s\r\n"
                "Authorization: %.*s\r\n\r\n",
                (int)n, value, date, (int)auth.len, auth.p);
  size_t head_len = 0;
  sl_http_request r;
  FUZZ_ASSERT(sl_http_parse_head(raw.p, raw.len, &r, &head_len) == SL_HTTP_OK);
  char *body = malloc(size ? size : 1);
  memcpy(body, data, size);
  r.raw_body = r.body = sl_str_make(body, size);
  FUZZ_ASSERT(run_check(&cfg_v4, &r) == SL_OK);
  FUZZ_ASSERT(run_check(&cfg_any, &r) == SL_OK);
  if (size) {
    body[size / 2] ^= 1;
    FUZZ_ASSERT(run_check(&cfg_v4, &r) == SL_E_INVALID_SIGNATURE);
  }
  free(body);
  sl_buf_free(&auth);
  sl_buf_free(&raw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  setup();
  char *buf = malloc(size ? size : 1);
  memcpy(buf, data, size);

  /* The input as an Authorization header value and as a scope. */
  sl_sigv4_auth a;
  sl_str in = sl_str_make(buf, size);
  sl_sigv4_parse_authorization(in, &a);
  inside(a.algorithm, buf, size);
  inside(a.credential, buf, size);
  inside(a.signed_headers, buf, size);
  inside(a.signature, buf, size);
  inside(a.bad_pair, buf, size);
  sl_sigv4_scope sc;
  if (sl_sigv4_parse_scope(in, &sc)) {
    inside(sc.key_id, buf, size);
    inside(sc.terminator, buf, size);
  }

  /* The input as a request. */
  sl_http_request r;
  size_t head_len = 0;
  if (sl_http_parse_head(buf, size, &r, &head_len) == SL_HTTP_OK) {
    r.raw_body = r.body = sl_str_make(buf + head_len, size - head_len);
    run_check(&cfg_any, &r);
    run_check(&cfg_v4, &r);
  }

  /* The input as a credentials file. */
  sl_sigv4_config c;
  sl_sigv4_config_init(&c);
  char err[128];
  if (sl_sigv4_parse_credentials(&c, buf, size, err, sizeof(err)) == 0)
    for (size_t i = 0; i < c.n_keys; i++)
      FUZZ_ASSERT(c.keys[i].access_key_id[0] && c.keys[i].secret[0]);
  sl_sigv4_config_free(&c);

  round_trip(data, size < 4096 ? size : 4096);
  sl_arena_reset(&arena);
  free(buf);
  return 0;
}
