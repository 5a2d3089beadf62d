/*
 * http.c — the HTTP/1.1 request parser and chunked-body decoder; see http.h.
 *
 * The head parser walks the buffer once with a cursor and returns
 * SL_HTTP_INCOMPLETE wherever it runs out of bytes, so it needs no state
 * between calls. Syntax is checked as the bytes go by; the framing headers
 * (Content-Length, Transfer-Encoding, Connection, Expect) are interpreted in a
 * second pass over the parsed fields once the whole head is present.
 */
#include "net/http.h"

#include "base/log.h"

/* Byte classes. T: tchar (RFC 9110 §5.6.2), the bytes of a method or a field
 * name. V: field-value bytes (VCHAR, SP, HTAB, obs-text). R: request-target
 * bytes (VCHAR, obs-text). Each entry ORs the classes its byte belongs to. */
enum { T = 1, V = 2, R = 4 };
/* clang-format off */
static const unsigned char cls[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,  /* 0x00 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  /* 0x10 */
    2, 7, 6, 7, 7, 7, 7, 7, 6, 6, 7, 7, 6, 7, 7, 6,  /* 0x20 */
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 6,  /* 0x30 */
    6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  /* 0x40 */
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 6, 7, 7,  /* 0x50 */
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,  /* 0x60 */
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 7, 6, 7, 0,  /* 0x70 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0x80 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0x90 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0xa0 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0xb0 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0xc0 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0xd0 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0xe0 */
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  /* 0xf0 */
};
/* clang-format on */

#define IS(c, k) (cls[(unsigned char)(c)] & (k))

/* Skips the bytes of class 'k' (V or R) from p; returns the first other byte
 * or 'end'. Eight bytes at a time while no byte is below 'lo' (0x20 for V,
 * 0x21 for R) or DEL, which is the common case; HTAB and the terminator go
 * through the byte table. A word is loaded only when 8 bytes remain. */
static const char *skip_class(const char *p, const char *end, unsigned char k, uint64_t lo) {
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  for (;;) {
    while (end - p >= 8) {
      uint64_t x, y;
      memcpy(&x, p, 8);
      y = x ^ (0x7f * ones);
      /* Nonzero iff some byte is < lo (bytes >= 0x80 never count), or is DEL. */
      if ((((x - lo * ones) & ~x) | ((y - ones) & ~y)) & highs)
        break;
      p += 8;
    }
    const char *stop = end - p > 8 ? p + 8 : end;
    while (p < stop && IS(*p, k))
      p++;
    if (p < stop || p == end)
      return p;
  }
}

/* Consumes one line end (CRLF or bare LF) at *pp. */
static int eat_eol(const char **pp, const char *end) {
  const char *p = *pp;
  if (p == end)
    return SL_HTTP_INCOMPLETE;
  if (*p == '\n') {
    *pp = p + 1;
    return SL_HTTP_OK;
  }
  if (*p != '\r')
    return SL_HTTP_BAD;
  if (p + 1 == end)
    return SL_HTTP_INCOMPLETE;
  if (p[1] != '\n')
    return SL_HTTP_BAD;
  *pp = p + 2;
  return SL_HTTP_OK;
}

/* Parses one field line "name: value EOL" (a header or a trailer) at *pp;
 * the caller has checked that it does not start with a line end. */
static int parse_field(const char **pp, const char *end, sl_http_header *out) {
  const char *p = *pp, *start = p;
  while (p < end && IS(*p, T))
    p++;
  if (p == end)
    return SL_HTTP_INCOMPLETE;
  /* Empty name (including a leading SP/HTAB: obs-fold) or junk before ':'. */
  if (p == start || *p != ':')
    return SL_HTTP_BAD;
  out->name = sl_str_make(start, (size_t)(p - start));
  p++;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  start = p;
  p = skip_class(p, end, V, 0x20);
  const char *vend = p;
  while (vend > start && (vend[-1] == ' ' || vend[-1] == '\t'))
    vend--;
  out->value = sl_str_make(start, (size_t)(vend - start));
  int rc = eat_eol(&p, end);
  if (rc == SL_HTTP_OK)
    *pp = p;
  return rc;
}

#define EQ_LIT(s, lit) sl_str_eq_nocase((s), SL_STR(lit))

/* Splits the next element off a comma-separated list (RFC 9110 §5.6.1),
 * trimming whitespace. Returns false at the end of the list. Empty elements
 * are returned as empty slices. */
static bool list_next(sl_str *list, sl_str *elem) {
  if (list->p == NULL)
    return false;
  const char *p = list->p, *end = p + list->len;
  const char *comma = memchr(p, ',', list->len);
  const char *e = comma ? comma : end;
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  const char *q = e;
  while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
    q--;
  *elem = sl_str_make(p, (size_t)(q - p));
  *list = comma ? sl_str_make(comma + 1, (size_t)(end - comma - 1)) : SL_STR_NULL;
  return true;
}

/* Reads a Content-Length value: one or more digits, at most UINT64_MAX. */
static bool parse_length(sl_str v, uint64_t *out) {
  if (v.len == 0)
    return false;
  uint64_t n = 0;
  for (size_t i = 0; i < v.len; i++) {
    unsigned d = (unsigned char)v.p[i] - '0';
    if (d > 9 || n > (UINT64_MAX - d) / 10)
      return false;
    n = n * 10 + d;
  }
  *out = n;
  return true;
}

/* Interprets the framing and connection headers of a complete head. */
static int parse_semantics(sl_http_request *r) {
  bool has_length = false, has_te = false, close = false, keep = false;
  for (size_t i = 0; i < r->n_headers; i++) {
    sl_str name = r->headers[i].name, v = r->headers[i].value, e;
    if (EQ_LIT(name, "content-length")) {
      uint64_t n;
      if (!parse_length(v, &n) || (has_length && n != r->content_length))
        return SL_HTTP_BAD;
      r->content_length = n;
      has_length = true;
    } else if (EQ_LIT(name, "transfer-encoding")) {
      /* Only a single "chunked" coding is supported; a second one (even a
       * repeated "chunked") or any other coding cannot be framed. */
      while (list_next(&v, &e)) {
        if (e.len == 0)
          continue;
        if (has_te || !EQ_LIT(e, "chunked"))
          return SL_HTTP_BAD;
        has_te = true;
      }
      if (!has_te)
        return SL_HTTP_BAD;
    } else if (EQ_LIT(name, "connection")) {
      while (list_next(&v, &e)) {
        if (EQ_LIT(e, "close"))
          close = true;
        else if (EQ_LIT(e, "keep-alive"))
          keep = true;
      }
    } else if (EQ_LIT(name, "expect")) {
      if (EQ_LIT(v, "100-continue") && r->minor_version >= 1)
        r->expect_continue = true;
    }
  }
  if (has_te && has_length)
    return SL_HTTP_BAD;
  r->chunked = has_te;
  if (r->minor_version >= 1)
    r->keep_alive = !close;
  else
    r->keep_alive = keep && !close && !has_te;
  return SL_HTTP_OK;
}

sl_http_status sl_http_parse_head(const char *buf, size_t len, sl_http_request *out,
                                  size_t *head_len) {
  const char *p = buf, *end = buf + len, *start;
  int rc;
  out->n_headers = 0;
  out->chunked = false;
  out->content_length = 0;
  out->keep_alive = false;
  out->expect_continue = false;
  out->body = SL_STR_NULL;
  out->raw_body = SL_STR_NULL;

  /* Empty lines before the request line are ignored (RFC 9112 §2.2). */
  while (p < end && (*p == '\r' || *p == '\n'))
    if ((rc = eat_eol(&p, end)) != SL_HTTP_OK)
      return (sl_http_status)rc;

  start = p;
  while (p < end && IS(*p, T))
    p++;
  if (p == end)
    return SL_HTTP_INCOMPLETE;
  if (p == start || *p != ' ')
    return SL_HTTP_BAD;
  out->method = sl_str_make(start, (size_t)(p - start));
  p++;

  start = p;
  p = skip_class(p, end, R, 0x21);
  if (p == end)
    return SL_HTTP_INCOMPLETE;
  if (p == start || *p != ' ')
    return SL_HTTP_BAD;
  out->target = sl_str_make(start, (size_t)(p - start));
  const char *q = memchr(start, '?', out->target.len);
  if (q) {
    out->path = sl_str_make(start, (size_t)(q - start));
    out->query = sl_str_make(q + 1, (size_t)(p - q - 1));
  } else {
    out->path = out->target;
    out->query = sl_str_make(p, 0);
  }
  p++;

  static const char version[] = "HTTP/1.";
  size_t have = (size_t)(end - p);
  if (memcmp(p, version, have < 7 ? have : 7) != 0)
    return SL_HTTP_BAD;
  if (have < 8)
    return SL_HTTP_INCOMPLETE;
  if (p[7] != '0' && p[7] != '1')
    return SL_HTTP_BAD;
  out->minor_version = p[7] - '0';
  p += 8;
  if ((rc = eat_eol(&p, end)) != SL_HTTP_OK)
    return (sl_http_status)rc;

  for (;;) {
    if (p == end)
      return SL_HTTP_INCOMPLETE;
    if (*p == '\r' || *p == '\n') {
      if ((rc = eat_eol(&p, end)) != SL_HTTP_OK)
        return (sl_http_status)rc;
      break;
    }
    if (out->n_headers == SL_HTTP_MAX_HEADERS)
      return SL_HTTP_TOO_MANY_HEADERS;
    if ((rc = parse_field(&p, end, &out->headers[out->n_headers])) != SL_HTTP_OK)
      return (sl_http_status)rc;
    out->n_headers++;
  }
  if ((rc = parse_semantics(out)) != SL_HTTP_OK)
    return (sl_http_status)rc;
  *head_len = (size_t)(p - buf);
  return SL_HTTP_OK;
}

/* Parses a chunk-size line "1*HEXDIG [BWS] [; extensions] EOL" at *pp.
 * 'room' is how many more decoded bytes max_body allows. */
static int parse_chunk_line(const char **pp, const char *end, uint64_t room, uint64_t *size) {
  const char *p = *pp, *start = p;
  uint64_t n = 0;
  for (; p < end; p++) {
    unsigned char c = (unsigned char)*p;
    unsigned d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if ((c | 32) >= 'a' && (c | 32) <= 'f')
      d = (c | 32) - 'a' + 10;
    else
      break;
    if (n > (UINT64_MAX >> 4) || (n << 4 | d) > room)
      return SL_HTTP_TOO_LARGE;
    n = n << 4 | d;
  }
  if (p == end)
    return SL_HTTP_INCOMPLETE;
  if (p == start)
    return SL_HTTP_BAD;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p < end && *p == ';') /* chunk extensions: validated as field-value bytes, ignored */
    while (p < end && IS(*p, V))
      p++;
  int rc = eat_eol(&p, end);
  if (rc == SL_HTTP_OK) {
    *pp = p;
    *size = n;
  }
  return rc;
}

/* Validates chunks from st->scanned on. On SL_HTTP_OK, *end_out is the end of
 * the trailer section and st->body_len the decoded size. */
static int scan_chunks(const char *buf, size_t len, uint64_t max_body, sl_http_dechunk_state *st,
                       size_t *end_out) {
  const char *p = buf + st->scanned, *end = buf + len;
  for (;;) {
    uint64_t size;
    int rc = parse_chunk_line(&p, end, max_body - st->body_len, &size);
    if (rc != SL_HTTP_OK)
      return rc;
    if (size == 0)
      break;
    if ((uint64_t)(end - p) < size)
      return SL_HTTP_INCOMPLETE;
    p += size;
    if ((rc = eat_eol(&p, end)) != SL_HTTP_OK)
      return rc;
    st->scanned = (size_t)(p - buf);
    st->body_len += size;
  }
  /* The last chunk: the trailer section is validated and skipped. */
  for (;;) {
    if (p == end)
      return SL_HTTP_INCOMPLETE;
    if (*p == '\r' || *p == '\n') {
      int rc = eat_eol(&p, end);
      if (rc != SL_HTTP_OK)
        return rc;
      break;
    }
    sl_http_header trailer;
    int rc = parse_field(&p, end, &trailer);
    if (rc != SL_HTTP_OK)
      return rc;
  }
  *end_out = (size_t)(p - buf);
  return SL_HTTP_OK;
}

int sl_http_dechunk_resume(char *p, size_t len, uint64_t max_body, sl_http_dechunk_state *st,
                           size_t *body_len, size_t *consumed) {
  sl_http_dechunk_state scan = *st;
  size_t total;
  int rc = scan_chunks(p, len, max_body, &scan, &total);
  if (rc != SL_HTTP_OK) {
    if (rc == SL_HTTP_INCOMPLETE)
      *st = scan;
    return rc;
  }
  /* Everything is present and valid: move the chunk data together. */
  const char *r = p;
  char *w = p;
  for (;;) {
    uint64_t size = 0;
    rc = parse_chunk_line(&r, p + len, UINT64_MAX, &size);
    SL_ASSERT(rc == SL_HTTP_OK);
    if (size == 0)
      break;
    memmove(w, r, (size_t)size);
    w += size;
    r += size;
    (void)eat_eol(&r, p + len);
  }
  *body_len = (size_t)(w - p);
  *consumed = total;
  *st = scan;
  return SL_HTTP_OK;
}

int sl_http_dechunk(char *p, size_t len, uint64_t max_body, size_t *body_len, size_t *consumed) {
  sl_http_dechunk_state st = {0, 0};
  return sl_http_dechunk_resume(p, len, max_body, &st, body_len, consumed);
}

sl_str sl_http_header_get(const sl_http_request *r, const char *name) {
  sl_str n = sl_str_c(name);
  for (size_t i = 0; i < r->n_headers; i++)
    if (sl_str_eq_nocase(r->headers[i].name, n))
      return r->headers[i].value;
  return SL_STR_NULL;
}

sl_str sl_http_json_content_type(const sl_http_request *r) {
  sl_str v = sl_http_header_get(r, "content-type");
  const char *semi = v.len ? memchr(v.p, ';', v.len) : NULL;
  if (semi)
    v.len = (size_t)(semi - v.p);
  while (v.len && (v.p[v.len - 1] == ' ' || v.p[v.len - 1] == '\t'))
    v.len--;
  if (EQ_LIT(v, "application/json"))
    return SL_STR("application/json");
  if (EQ_LIT(v, "application/x-amz-json-1.1"))
    return SL_STR("application/x-amz-json-1.1");
  return SL_STR("application/x-amz-json-1.0");
}

/* ---- reply heads ----------------------------------------------------------- */

static sl_str reply_trim(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  return sl_str_make(p, (size_t)(e - p));
}

sl_http_status sl_http_parse_reply_head(const char *buf, size_t len, sl_http_reply_head *out,
                                        size_t *head_len) {
  /* The end of the head: an empty line. */
  size_t end = 0;
  for (size_t i = 0; i < len; i++) {
    if (buf[i] != '\n')
      continue;
    if (i + 1 < len && buf[i + 1] == '\n') {
      end = i + 2;
      break;
    }
    if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
      end = i + 3;
      break;
    }
  }
  /* The status line can be judged before the head is complete. */
  static const char proto[] = "HTTP/1.";
  for (size_t i = 0; i < len && i < 7; i++)
    if (buf[i] != proto[i])
      return SL_HTTP_BAD;
  if (len >= 8 && buf[7] != '0' && buf[7] != '1')
    return SL_HTTP_BAD;
  if (len >= 9 && buf[8] != ' ')
    return SL_HTTP_BAD;
  for (size_t i = 9; i < len && i < 12; i++)
    if (buf[i] < '0' || buf[i] > '9')
      return SL_HTTP_BAD;
  if (len >= 13 && buf[12] != ' ' && buf[12] != '\r' && buf[12] != '\n')
    return SL_HTTP_BAD;
  if (!end)
    return len > (1u << 20) ? SL_HTTP_BAD : SL_HTTP_INCOMPLETE;
  if (end < 14 || buf[9] == '0')
    return SL_HTTP_BAD;
  memset(out, 0, sizeof(*out));
  out->minor_version = buf[7] - '0';
  out->status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
  out->content_length = -1;
  out->keep_alive = out->minor_version == 1;
  const char *p = memchr(buf, '\n', end) + 1, *stop = buf + end;
  while (p < stop) {
    const char *nl = memchr(p, '\n', (size_t)(stop - p));
    sl_str line = reply_trim(p, nl);
    p = nl + 1;
    if (line.len == 0)
      break;
    const char *colon = memchr(line.p, ':', line.len);
    if (!colon || colon == line.p)
      return SL_HTTP_BAD;
    sl_str name = sl_str_make(line.p, (size_t)(colon - line.p));
    sl_str value = reply_trim(colon + 1, line.p + line.len);
    for (size_t i = 0; i < name.len; i++)
      if (name.p[i] == ' ' || name.p[i] == '\t' || (unsigned char)name.p[i] < 0x21)
        return SL_HTTP_BAD;
    if (sl_str_eq_nocase(name, SL_STR("content-length"))) {
      if (value.len == 0 || value.len > 18)
        return SL_HTTP_BAD;
      int64_t v = 0;
      for (size_t i = 0; i < value.len; i++) {
        if (value.p[i] < '0' || value.p[i] > '9')
          return SL_HTTP_BAD;
        v = v * 10 + (value.p[i] - '0');
      }
      if (out->content_length >= 0 && out->content_length != v)
        return SL_HTTP_BAD;
      out->content_length = v;
    } else if (sl_str_eq_nocase(name, SL_STR("transfer-encoding"))) {
      if (!sl_str_eq_nocase(value, SL_STR("chunked")))
        return SL_HTTP_BAD;
      out->chunked = true;
    } else if (sl_str_eq_nocase(name, SL_STR("connection"))) {
      if (sl_str_eq_nocase(value, SL_STR("close")))
        out->keep_alive = false;
      else if (sl_str_eq_nocase(value, SL_STR("keep-alive")))
        out->keep_alive = true;
    }
  }
  if (out->chunked && out->content_length >= 0)
    return SL_HTTP_BAD;
  *head_len = end;
  return SL_HTTP_OK;
}
