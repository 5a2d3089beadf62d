/* Unit tests of net/http: a table of valid and invalid heads, every-prefix
 * truncation tests with the input placed against a PROT_NONE page (so that
 * any read past the end faults, as in picohttpparser's test.c), the header
 * count and Content-Length limits, and chunked decoding. */
#include "harness.h"
#include "base/log.h"
#include "net/http.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- guard pages -------------------------------------------------------- */

typedef struct {
  char *map;
  size_t map_len;
  char *p; /* the copy; p + len is the first byte of the PROT_NONE page */
} guarded;

static guarded guard_copy(const char *s, size_t len) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t data_pages = (len + page - 1) / page + 1;
  guarded g;
  g.map_len = (data_pages + 1) * page;
  g.map = mmap(NULL, g.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (g.map == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  char *fence = g.map + data_pages * page;
  if (mprotect(fence, page, PROT_NONE) != 0) {
    perror("mprotect");
    exit(2);
  }
  g.p = fence - len;
  memcpy(g.p, s, len);
  return g;
}

static void guard_free(guarded *g) { munmap(g->map, g->map_len); }

/* Parses a guarded copy; only the status may be looked at afterwards. */
static sl_http_status parse_guarded(const char *s, size_t len, sl_http_request *r,
                                    size_t *head_len) {
  guarded g = guard_copy(s, len);
  sl_http_status st = sl_http_parse_head(g.p, len, r, head_len);
  guard_free(&g);
  return st;
}

/* ---- the table of valid heads ------------------------------------------- */

typedef struct {
  const char *raw;
  const char *method, *target, *path, *query;
  int minor;
  size_t n_headers;
  const char *h0_name, *h0_value; /* first header, if any */
  bool chunked;
  uint64_t content_length;
  bool keep_alive, expect_continue;
  size_t trailing; /* bytes after the head in 'raw' */
} valid_case;

static const valid_case valid[] = {
    {"GET / HTTP/1.1\r\n\r\n", "GET", "/", "/", "", 1, 0, NULL, NULL, false, 0, true, false, 0},
    {"GET / HTTP/1.0\n\n", "GET", "/", "/", "", 0, 0, NULL, NULL, false, 0, false, false, 0},
    {"POST /a/b?x=1&y=2 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello", "POST",
     "/a/b?x=1&y=2", "/a/b", "x=1&y=2", 1, 2, "Host", "h", false, 5, true, false, 5},
    /* Optional whitespace around values is trimmed, HTAB included; empty values are fine. */
    {"GET /q? HTTP/1.1\r\nX-A:  \t v a l \t\r\nX-B:\r\nX-C:   \r\n\r\n", "GET", "/q?", "/q", "", 1,
     3, "X-A", "v a l", false, 0, true, false, 0},
    /* Bare LF and CRLF may be mixed. */
    {"PUT /x HTTP/1.1\nA: 1\r\nB: 2\n\r\n", "PUT", "/x", "/x", "", 1, 2, "A", "1", false, 0, true,
     false, 0},
    /* Empty lines before the request line are skipped (RFC 9112 §2.2). */
    {"\r\n\nGET / HTTP/1.1\r\n\r\n", "GET", "/", "/", "", 1, 0, NULL, NULL, false, 0, true, false,
     0},
    {"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", "GET", "/", "/", "", 1, 1, "Connection",
     "close", false, 0, false, false, 0},
    {"GET / HTTP/1.1\r\nConnection: Upgrade, CLOSE\r\n\r\n", "GET", "/", "/", "", 1, 1,
     "Connection", "Upgrade, CLOSE", false, 0, false, false, 0},
    {"GET / HTTP/1.1\r\nConnection: upgrade\r\n\r\n", "GET", "/", "/", "", 1, 1, "Connection",
     "upgrade", false, 0, true, false, 0},
    {"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", "GET", "/", "/", "", 0, 1, "Connection",
     "Keep-Alive", false, 0, true, false, 0},
    {"GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", "GET", "/", "/", "", 0, 1,
     "Connection", "keep-alive, close", false, 0, false, false, 0},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n", "POST", "/", "/", "", 1, 1,
     "Transfer-Encoding", "Chunked", true, 0, true, false, 5},
    /* Empty list elements are allowed around the one coding. */
    {"POST / HTTP/1.1\r\nTransfer-Encoding: , chunked ,\r\n\r\n", "POST", "/", "/", "", 1, 1,
     "Transfer-Encoding", ", chunked ,", true, 0, true, false, 0},
    /* A chunked HTTP/1.0 request is accepted but never kept alive (RFC 9112 §6.1). */
    {"POST / HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n", "POST", "/",
     "/", "", 0, 2, "Connection", "keep-alive", true, 0, false, false, 0},
    {"POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n", "POST", "/", "/", "",
     1, 2, "Expect", "100-Continue", false, 3, true, true, 0},
    /* Expect is ignored on HTTP/1.0 (RFC 9110 §10.1.1). */
    {"POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", "POST", "/", "/", "",
     0, 2, "Expect", "100-continue", false, 3, false, false, 0},
    /* Repeated Content-Length fields that agree, with leading zeros. */
    {"POST / HTTP/1.1\r\nContent-Length: 7\r\ncontent-length: 007\r\n\r\n", "POST", "/", "/", "", 1,
     2, "Content-Length", "7", false, 7, true, false, 0},
    {"GET / HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n\r\n", "GET", "/", "/", "", 1, 1,
     "Content-Length", "18446744073709551615", false, UINT64_MAX, true, false, 0},
    /* obs-text in values and targets; token punctuation in methods and names. */
    {"M-!#$%&'*+.^_`|~ /\xc3\xa9 HTTP/1.1\r\nX_!~: caf\xc3\xa9\r\n\r\n", "M-!#$%&'*+.^_`|~",
     "/\xc3\xa9", "/\xc3\xa9", "", 1, 1, "X_!~", "caf\xc3\xa9", false, 0, true, false, 0},
    {"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\nGET", "OPTIONS", "*", "*", "", 1, 1, "Host", "a", false,
     0, true, false, 3},
};

static void check_valid(const valid_case *v, const sl_http_request *r) {
  CHECK_STR(r->method, v->method);
  CHECK_STR(r->target, v->target);
  CHECK_STR(r->path, v->path);
  CHECK_STR(r->query, v->query);
  CHECK_INT(r->minor_version, v->minor);
  CHECK_INT(r->n_headers, v->n_headers);
  if (v->h0_name && r->n_headers > 0) {
    CHECK_STR(r->headers[0].name, v->h0_name);
    CHECK_STR(r->headers[0].value, v->h0_value);
  }
  CHECK_INT(r->chunked, v->chunked);
  CHECK(r->content_length == v->content_length);
  CHECK_INT(r->keep_alive, v->keep_alive);
  CHECK_INT(r->expect_continue, v->expect_continue);
}

/* Every valid head parses as the table says, and each of its proper prefixes
 * is INCOMPLETE, with the bytes against a guard page. */
static void test_valid_table_and_prefixes(void) {
  for (size_t i = 0; i < SL_ARRAY_LEN(valid); i++) {
    const valid_case *v = &valid[i];
    size_t len = strlen(v->raw), head_len = 0;
    sl_http_request r;
    guarded g = guard_copy(v->raw, len);
    int st = sl_http_parse_head(g.p, len, &r, &head_len);
    CHECK_INT(st, SL_HTTP_OK);
    if (st == SL_HTTP_OK) {
      CHECK_INT(head_len, len - v->trailing);
      check_valid(v, &r);
    } else {
      fprintf(stderr, "  case %zu: %s\n", i, v->raw);
    }
    guard_free(&g);
    for (size_t k = 0; k < len - v->trailing; k++) {
      size_t hl = 0;
      int pst = parse_guarded(v->raw, k, &r, &hl);
      if (pst != SL_HTTP_INCOMPLETE)
        fprintf(stderr, "  case %zu prefix %zu: %d\n", i, k, pst);
      CHECK_INT(pst, SL_HTTP_INCOMPLETE);
    }
  }
}

/* ---- invalid heads ------------------------------------------------------ */

typedef struct {
  const char *raw;
  int status;
} invalid_case;

static const invalid_case invalid[] = {
    {"GET  / HTTP/1.1\r\n\r\n", SL_HTTP_BAD},               /* two spaces */
    {" GET / HTTP/1.1\r\n\r\n", SL_HTTP_BAD},               /* leading space */
    {"G(T / HTTP/1.1\r\n\r\n", SL_HTTP_BAD},                /* '(' is not a tchar */
    {"GET / HTTP/1.2\r\n\r\n", SL_HTTP_BAD},                /* unknown minor version */
    {"GET / HTTP/2.0\r\n\r\n", SL_HTTP_BAD},                /* not HTTP/1 */
    {"GET / http/1.1\r\n\r\n", SL_HTTP_BAD},                /* the version is case-sensitive */
    {"GET / HTTP/1.1 \r\n\r\n", SL_HTTP_BAD},               /* trailing space */
    {"GET /\x01 HTTP/1.1\r\n\r\n", SL_HTTP_BAD},            /* control in target */
    {"GET /\x7f HTTP/1.1\r\n\r\n", SL_HTTP_BAD},            /* DEL in target */
    {"GET / HTTP/1.1\rX\n\r\n", SL_HTTP_BAD},               /* bare CR */
    {"GET\r\n\r\n", SL_HTTP_BAD},                           /* HTTP/0.9 */
    {"GET / HTTP/1.1\r\nHost : x\r\n\r\n", SL_HTTP_BAD},    /* space before colon */
    {"GET / HTTP/1.1\r\n: x\r\n\r\n", SL_HTTP_BAD},         /* empty name */
    {"GET / HTTP/1.1\r\nNoColon\r\n\r\n", SL_HTTP_BAD},     /* no colon */
    {"GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n", SL_HTTP_BAD},  /* obs-fold */
    {"GET / HTTP/1.1\r\nA: b\r\n\tc\r\n\r\n", SL_HTTP_BAD}, /* obs-fold with HTAB */
    {"GET / HTTP/1.1\r\nA: b\x01\r\n\r\n", SL_HTTP_BAD},    /* control in value */
    {"GET / HTTP/1.1\r\nA: b\x7f\r\n\r\n", SL_HTTP_BAD},    /* DEL in value */
    {"GET / HTTP/1.1\r\nA: b\rc\r\n\r\n", SL_HTTP_BAD},     /* bare CR in value */
    {"GET / HTTP/1.1\r\nA\x01: b\r\n\r\n", SL_HTTP_BAD},    /* control in name */
    {"GET / HTTP/1.1\r\nA: b\r\n\rX", SL_HTTP_BAD},         /* bad final line end */
    {"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: +5\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: 0x5\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: 5 5\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length:\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n", SL_HTTP_BAD},
    {"GET / HTTP/1.1\r\nContent-Length: 99999999999999999999999999\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
     SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked;q=1\r\n\r\n", SL_HTTP_BAD},
    {"POST / HTTP/1.1\r\nTransfer-Encoding:\r\n\r\n", SL_HTTP_BAD},
    {"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", SL_HTTP_BAD}, /* a TLS ClientHello */
};

/* Malformed heads are rejected, and each is also rejected (or incomplete)
 * when cut short: never accepted. */
static void test_invalid_table(void) {
  for (size_t i = 0; i < SL_ARRAY_LEN(invalid); i++) {
    size_t len = strlen(invalid[i].raw), hl = 0;
    sl_http_request r;
    int st = parse_guarded(invalid[i].raw, len, &r, &hl);
    if (st != invalid[i].status)
      fprintf(stderr, "  invalid case %zu: %d\n", i, st);
    CHECK_INT(st, invalid[i].status);
    for (size_t k = 0; k < len; k++) {
      st = parse_guarded(invalid[i].raw, k, &r, &hl);
      CHECK(st != SL_HTTP_OK);
    }
  }
  /* A NUL byte in a value (strlen cannot carry it). */
  static const char nul[] = "GET / HTTP/1.1\r\nA: b\0c\r\n\r\n";
  sl_http_request r;
  size_t hl;
  CHECK_INT(parse_guarded(nul, sizeof(nul) - 1, &r, &hl), SL_HTTP_BAD);
}

/* Garbage is rejected at once, before a line end arrives, so that the server
 * can answer 400 rather than wait for the head limit. */
static void test_bad_detected_early(void) {
  sl_http_request r;
  size_t hl;
  CHECK_INT(parse_guarded("\x01", 1, &r, &hl), SL_HTTP_BAD);
  CHECK_INT(parse_guarded("GET /x HTTX", 11, &r, &hl), SL_HTTP_BAD);
  CHECK_INT(parse_guarded("GET / HTTP/1.1\r\nA b", 19, &r, &hl), SL_HTTP_BAD);
}

/* 64 header fields are accepted, the 65th is refused with its own status. */
static void test_header_count_limit(void) {
  char buf[8192];
  for (int n = SL_HTTP_MAX_HEADERS; n <= SL_HTTP_MAX_HEADERS + 1; n++) {
    size_t len = (size_t)snprintf(buf, sizeof(buf), "GET / HTTP/1.1\r\n");
    for (int i = 0; i < n; i++)
      len += (size_t)snprintf(buf + len, sizeof(buf) - len, "H%d: v%d\r\n", i, i);
    len += (size_t)snprintf(buf + len, sizeof(buf) - len, "\r\n");
    sl_http_request r;
    size_t hl = 0;
    guarded g = guard_copy(buf, len);
    int st = sl_http_parse_head(g.p, len, &r, &hl);
    if (n == SL_HTTP_MAX_HEADERS) {
      CHECK_INT(st, SL_HTTP_OK);
      CHECK_INT(r.n_headers, SL_HTTP_MAX_HEADERS);
      CHECK_STR(r.headers[63].name, "H63");
      CHECK_STR(r.headers[63].value, "v63");
      CHECK_STR(sl_http_header_get(&r, "h17"), "v17");
    } else {
      CHECK_INT(st, SL_HTTP_TOO_MANY_HEADERS);
    }
    guard_free(&g);
  }
}

static void test_header_get(void) {
  static const char raw[] = "GET / HTTP/1.1\r\nX-Amz-Target: A\r\nx-amz-target: B\r\n\r\n";
  sl_http_request r;
  size_t hl;
  CHECK_INT(sl_http_parse_head(raw, sizeof(raw) - 1, &r, &hl), SL_HTTP_OK);
  CHECK_STR(sl_http_header_get(&r, "X-AMZ-TARGET"), "A");
  CHECK(sl_http_header_get(&r, "Host").p == NULL);
}

/* The JSON media type a reply echoes: the three the SDKs send, parameters
 * dropped, case ignored; anything else (or nothing) is JSON 1.0. */
static void test_json_content_type(void) {
  static const struct {
    const char *sent, *echoed;
  } cases[] = {
      {"application/x-amz-json-1.0", "application/x-amz-json-1.0"},
      {"application/x-amz-json-1.1", "application/x-amz-json-1.1"},
      {"application/json", "application/json"},
      {"application/json; charset=utf-8", "application/json"},
      {"Application/X-Amz-Json-1.1 ;charset=UTF-8", "application/x-amz-json-1.1"},
      {"text/plain", "application/x-amz-json-1.0"},
      {"", "application/x-amz-json-1.0"},
  };
  for (size_t i = 0; i < SL_ARRAY_LEN(cases); i++) {
    char raw[256];
    int n =
        snprintf(raw, sizeof(raw), "POST / HTTP/1.1\r\nContent-Type: %s\r\n\r\n", cases[i].sent);
    sl_http_request r;
    size_t hl;
    CHECK_INT(sl_http_parse_head(raw, (size_t)n, &r, &hl), SL_HTTP_OK);
    CHECK_STR(sl_http_json_content_type(&r), cases[i].echoed);
  }
  sl_http_request r;
  size_t hl;
  CHECK_INT(sl_http_parse_head("GET / HTTP/1.1\r\n\r\n", 18, &r, &hl), SL_HTTP_OK);
  CHECK_STR(sl_http_json_content_type(&r), "application/x-amz-json-1.0");
}

/* ---- whole requests: head + body, fed at every length ------------------- */

/* What the server does with a buffer: parse the head, then find the body.
 * Returns OK with the request's total encoded length and its body. The
 * buffer is modified only by a successful dechunk. */
static int parse_request(char *buf, size_t len, sl_http_request *r, size_t *total) {
  size_t head_len;
  int st = sl_http_parse_head(buf, len, r, &head_len);
  if (st != SL_HTTP_OK)
    return st;
  if (r->chunked) {
    size_t body_len, consumed;
    st = sl_http_dechunk(buf + head_len, len - head_len, 1 << 20, &body_len, &consumed);
    if (st != SL_HTTP_OK)
      return st;
    r->body = sl_str_make(buf + head_len, body_len);
    *total = head_len + consumed;
  } else {
    if (len - head_len < r->content_length)
      return SL_HTTP_INCOMPLETE;
    r->body = sl_str_make(buf + head_len, (size_t)r->content_length);
    *total = head_len + (size_t)r->content_length;
  }
  return SL_HTTP_OK;
}

typedef struct {
  const char *raw;
  const char *body;
} whole_case;

static const whole_case wholes[] = {
    {"POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world", "hello world"},
    {"POST /up HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
     "5;name=value;flag\r\nhello\r\n"
     "1\r\n \r\n"
     "A ; x = \"q\"\r\n0123456789\r\n"
     "0;last\r\nTrailer-A: 1\r\nTrailer-B: two\r\n\r\n",
     "hello 0123456789"},
    {"POST / HTTP/1.1\ntransfer-encoding: chunked\n\n3\nabc\n0\n\n", "abc"},
    {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", ""},
};

/* A complete request (head and body) parses the same at every split: every
 * proper prefix is INCOMPLETE and leaves the bytes untouched. */
static void test_whole_requests_every_prefix(void) {
  for (size_t i = 0; i < SL_ARRAY_LEN(wholes); i++) {
    const char *raw = wholes[i].raw;
    size_t len = strlen(raw);
    for (size_t k = 0; k <= len; k++) {
      guarded g = guard_copy(raw, k);
      sl_http_request r;
      size_t total = 0;
      int st = parse_request(g.p, k, &r, &total);
      if (k < len) {
        CHECK_INT(st, SL_HTTP_INCOMPLETE);
        CHECK(memcmp(g.p, raw, k) == 0);
      } else {
        CHECK_INT(st, SL_HTTP_OK);
        CHECK_INT(total, len);
        CHECK_STR(r.body, wholes[i].body);
      }
      guard_free(&g);
    }
  }
}

/* Two pipelined requests in one buffer: the first is answered as soon as it
 * is complete, the second only when it is complete too. */
static void test_pipelined_pair_every_prefix(void) {
  static const char raw[] = "POST /1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "3\r\nabc\r\n0\r\n\r\n"
                            "POST /2 HTTP/1.1\r\nContent-Length: 2\r\n\r\nxy";
  size_t len = sizeof(raw) - 1;
  size_t first_len = strlen("POST /1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                            "3\r\nabc\r\n0\r\n\r\n");
  for (size_t k = 0; k <= len; k++) {
    guarded g = guard_copy(raw, k);
    sl_http_request r;
    size_t total = 0;
    int st = parse_request(g.p, k, &r, &total);
    if (k < first_len) {
      CHECK_INT(st, SL_HTTP_INCOMPLETE);
    } else {
      CHECK_INT(st, SL_HTTP_OK);
      CHECK_INT(total, first_len);
      CHECK_STR(r.path, "/1");
      CHECK_STR(r.body, "abc");
      int st2 = parse_request(g.p + total, k - total, &r, &total);
      if (k < len) {
        CHECK_INT(st2, SL_HTTP_INCOMPLETE);
      } else {
        CHECK_INT(st2, SL_HTTP_OK);
        CHECK_STR(r.path, "/2");
        CHECK_STR(r.body, "xy");
        CHECK(r.keep_alive);
      }
    }
    guard_free(&g);
  }
}

/* ---- dechunk ------------------------------------------------------------ */

static int dechunk_str(const char *enc, uint64_t max, char *out, size_t *body_len,
                       size_t *consumed) {
  size_t len = strlen(enc);
  guarded g = guard_copy(enc, len);
  int st = sl_http_dechunk(g.p, len, max, body_len, consumed);
  if (st == SL_HTTP_OK) {
    memcpy(out, g.p, *body_len);
    out[*body_len] = 0;
  } else if (st == SL_HTTP_INCOMPLETE) {
    CHECK(memcmp(g.p, enc, len) == 0);
  }
  guard_free(&g);
  return st;
}

static void test_dechunk_edges(void) {
  char out[256];
  size_t bl = 0, used = 0;
  CHECK_INT(dechunk_str("0\r\n\r\n", 10, out, &bl, &used), SL_HTTP_OK);
  CHECK_INT(bl, 0);
  CHECK_INT(used, 5);
  /* Hex digits in either case, leading zeros, whitespace before CRLF. */
  CHECK_INT(dechunk_str("0000a \r\n0123456789\r\nB\r\nabcdefghijk\r\n0\r\n\r\nNEXT", 100, out, &bl,
                        &used),
            SL_HTTP_OK);
  CHECK_MEM(out, bl, "0123456789abcdefghijk");
  CHECK_INT(used, strlen("0000a \r\n0123456789\r\nB\r\nabcdefghijk\r\n0\r\n\r\n"));
  /* The decoded size may equal max_body, not exceed it; the excess is found
   * from the size line alone, before the data. */
  CHECK_INT(dechunk_str("5\r\nhello\r\n0\r\n\r\n", 5, out, &bl, &used), SL_HTTP_OK);
  CHECK_INT(dechunk_str("5\r\nhello\r\n0\r\n\r\n", 4, out, &bl, &used), SL_HTTP_TOO_LARGE);
  CHECK_INT(dechunk_str("3\r\nabc\r\n3\r\n", 5, out, &bl, &used), SL_HTTP_TOO_LARGE);
  CHECK_INT(dechunk_str("ffffffff", 1000, out, &bl, &used), SL_HTTP_TOO_LARGE);
  /* Chunk sizes that overflow 64 bits are refused even with no limit. */
  CHECK_INT(dechunk_str("10000000000000000\r\n", UINT64_MAX, out, &bl, &used), SL_HTTP_TOO_LARGE);
  CHECK_INT(dechunk_str("ffffffffffffffff\r\n", UINT64_MAX, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("1\r\na\r\nffffffffffffffff\r\n", UINT64_MAX, out, &bl, &used),
            SL_HTTP_TOO_LARGE);
  /* Malformed. */
  CHECK_INT(dechunk_str("\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("g\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("-1\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("5\r\nhelloX\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("5\rhello\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("5 x\r\nhello\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("5;a\x01\r\nhello\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("0\r\nbad trailer\r\n\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("0\r\nT: v\r\n t\r\n\r\n", 100, out, &bl, &used), SL_HTTP_BAD);
  CHECK_INT(dechunk_str("0\r\n\rX", 100, out, &bl, &used), SL_HTTP_BAD);
  /* Incomplete at each stage, buffer untouched (checked in dechunk_str). */
  CHECK_INT(dechunk_str("", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("5", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("5;ext", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("5\r\nhel", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("5\r\nhello\r", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("5\r\nhello\r\n0\r\n", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
  CHECK_INT(dechunk_str("5\r\nhello\r\n0\r\nT: v\r\n", 100, out, &bl, &used), SL_HTTP_INCOMPLETE);
}

/* Resuming with a saved state gives the same result as decoding at once,
 * whatever the split points. */
static void test_dechunk_resume(void) {
  static const char enc[] = "4\r\nWiki\r\n5;x=1\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n"
                            "0\r\nExpires: never\r\n\r\n";
  size_t len = sizeof(enc) - 1;
  for (size_t step = 1; step <= 7; step++) {
    char *buf = malloc(len);
    memcpy(buf, enc, len);
    sl_http_dechunk_state st = {0, 0};
    size_t have = 0, bl = 0, used = 0;
    int rc = SL_HTTP_INCOMPLETE;
    while (rc == SL_HTTP_INCOMPLETE && have < len) {
      have = have + step < len ? have + step : len;
      rc = sl_http_dechunk_resume(buf, have, 100, &st, &bl, &used);
      CHECK(st.scanned <= have);
    }
    CHECK_INT(rc, SL_HTTP_OK);
    CHECK_INT(used, len);
    CHECK_MEM(buf, bl, "Wikipedia in\r\n\r\nchunks.");
    free(buf);
  }
}

int main(void) {
  RUN(test_valid_table_and_prefixes);
  RUN(test_invalid_table);
  RUN(test_bad_detected_early);
  RUN(test_header_count_limit);
  RUN(test_header_get);
  RUN(test_json_content_type);
  RUN(test_whole_requests_every_prefix);
  RUN(test_pipelined_pair_every_prefix);
  RUN(test_dechunk_edges);
  RUN(test_dechunk_resume);
  return DONE();
}
