/* libFuzzer target for net/http: parses arbitrary bytes as a request head
 * and, when it frames a chunked body, decodes that body; it also decodes the
 * whole input as a chunked body on its own. Beyond memory safety (the input
 * sits in an exact-size heap copy, so ASan sees any over-read) it checks:
 * every slice lies inside the head; a result other than INCOMPLETE does not
 * change when more bytes follow; the head is INCOMPLETE one byte short;
 * dechunk leaves the buffer untouched unless it succeeds, and resuming from
 * a saved state gives what a single call gives. Seeds: tests/fuzz/corpus/http/. */
#include "net/http.h"

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_ASSERT(e)                                                                             \
  do {                                                                                             \
    if (!(e)) {                                                                                    \
      fprintf(stderr, "fuzz_http: %s:%d: %s\n", __FILE__, __LINE__, #e);                           \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

static void check_slice(sl_str s, const char *lo, const char *hi) {
  FUZZ_ASSERT(s.len == 0 || (s.p >= lo && s.p + s.len <= hi));
}

/* Decodes body[0..len) three ways (at once, resumed over three pieces, and
 * cut one byte short) and checks that they agree. */
static void fuzz_dechunk(const uint8_t *body, size_t len, uint64_t max_body) {
  char *a = malloc(len ? len : 1);
  memcpy(a, body, len);
  size_t body_len = 0, consumed = 0;
  int st = sl_http_dechunk(a, len, max_body, &body_len, &consumed);
  FUZZ_ASSERT(st == SL_HTTP_OK || st == SL_HTTP_INCOMPLETE || st == SL_HTTP_BAD ||
              st == SL_HTTP_TOO_LARGE);
  if (st != SL_HTTP_OK)
    FUZZ_ASSERT(memcmp(a, body, len) == 0);

  /* The same bytes arriving in three pieces, with the state carried over. */
  char *b = malloc(len ? len : 1);
  memcpy(b, body, len);
  sl_http_dechunk_state state = {0, 0};
  size_t cuts[3] = {len / 3, 2 * len / 3, len};
  size_t b_body = 0, b_used = 0;
  int bst = SL_HTTP_INCOMPLETE;
  for (int i = 0; i < 3 && bst == SL_HTTP_INCOMPLETE; i++) {
    bst = sl_http_dechunk_resume(b, cuts[i], max_body, &state, &b_body, &b_used);
    if (bst == SL_HTTP_INCOMPLETE) {
      FUZZ_ASSERT(state.scanned <= cuts[i]);
      FUZZ_ASSERT(state.body_len <= max_body);
      FUZZ_ASSERT(memcmp(b, body, len) == 0);
    }
  }
  FUZZ_ASSERT(bst == st);

  if (st == SL_HTTP_OK) {
    FUZZ_ASSERT(body_len <= consumed && consumed <= len && body_len <= max_body);
    FUZZ_ASSERT(b_body == body_len && b_used == consumed);
    FUZZ_ASSERT(memcmp(a, b, body_len) == 0);
    /* One byte short of the end of the trailer section, it is incomplete. */
    memcpy(b, body, len);
    size_t x, y;
    FUZZ_ASSERT(sl_http_dechunk(b, consumed - 1, max_body, &x, &y) == SL_HTTP_INCOMPLETE);
  }
  free(a);
  free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size ? size : 1);
  memcpy(buf, data, size);
  static sl_http_request r, r2;
  size_t head_len = 0;
  int st = sl_http_parse_head(buf, size, &r, &head_len);
  FUZZ_ASSERT(st == SL_HTTP_OK || st == SL_HTTP_INCOMPLETE || st == SL_HTTP_BAD ||
              st == SL_HTTP_TOO_MANY_HEADERS);

  /* A decided prefix stays decided: the result at half the input, if not
   * INCOMPLETE, is the result for the whole. */
  size_t half = size / 2, hl2 = 0;
  int st2 = sl_http_parse_head(buf, half, &r2, &hl2);
  if (st2 != SL_HTTP_INCOMPLETE) {
    FUZZ_ASSERT(st2 == st);
    if (st == SL_HTTP_OK)
      FUZZ_ASSERT(hl2 == head_len);
  }

  if (st == SL_HTTP_OK) {
    const char *end = buf + head_len;
    FUZZ_ASSERT(head_len > 0 && head_len <= size);
    FUZZ_ASSERT(r.n_headers <= SL_HTTP_MAX_HEADERS);
    FUZZ_ASSERT(r.minor_version == 0 || r.minor_version == 1);
    FUZZ_ASSERT(r.method.len > 0 && r.target.len > 0);
    check_slice(r.method, buf, end);
    check_slice(r.target, buf, end);
    check_slice(r.path, buf, end);
    check_slice(r.query, buf, end);
    FUZZ_ASSERT(r.path.p == r.target.p && r.path.len <= r.target.len);
    FUZZ_ASSERT(r.query.len == 0 || r.path.len + 1 + r.query.len == r.target.len);
    for (size_t i = 0; i < r.n_headers; i++) {
      FUZZ_ASSERT(r.headers[i].name.len > 0);
      check_slice(r.headers[i].name, buf, end);
      check_slice(r.headers[i].value, buf, end);
    }
    sl_str host = sl_http_header_get(&r, "host");
    FUZZ_ASSERT(host.p == NULL || (host.p >= buf && host.p + host.len <= end));
    FUZZ_ASSERT(!(r.chunked && r.content_length));
    FUZZ_ASSERT(!r.expect_continue || r.minor_version == 1);
    /* The head alone parses the same; one byte less is incomplete. */
    FUZZ_ASSERT(sl_http_parse_head(buf, head_len, &r2, &hl2) == SL_HTTP_OK && hl2 == head_len);
    FUZZ_ASSERT(r2.n_headers == r.n_headers && r2.keep_alive == r.keep_alive &&
                r2.chunked == r.chunked && r2.content_length == r.content_length);
    FUZZ_ASSERT(sl_http_parse_head(buf, head_len - 1, &r2, &hl2) == SL_HTTP_INCOMPLETE);
    if (r.chunked)
      fuzz_dechunk(data + head_len, size - head_len, 1 << 16);
  }
  /* The whole input as a chunked body, with a small limit so TOO_LARGE shows. */
  fuzz_dechunk(data, size, 4096);
  free(buf);
  return 0;
}
