/*
 * http.h — the HTTP/1.1 request parser.
 *
 * Written in-house (no maintained C parser is packaged in Debian). It is
 * incremental and zero-copy: the caller keeps the bytes received so far in one
 * contiguous buffer and calls sl_http_parse_head() each time more arrive; the
 * parser never stores state between calls (like picohttpparser), so a request
 * split at any byte parses identically. Every slice in sl_http_request points
 * into the caller's buffer.
 *
 * What it accepts: request line "METHOD SP target SP HTTP/1.x CRLF" (bare LF
 * line ends are accepted too), header fields "name: value" with optional
 * whitespace trimmed; obsolete line folding, control characters and
 * non-token header names are errors. The body is framed by Content-Length or
 * by "Transfer-Encoding: chunked" (both present, or any other transfer coding,
 * is an error, as RFC 9112 §6.3 asks). Chunked bodies are decoded by
 * sl_http_dechunk(), in place.
 *
 * Limits are the caller's: SL_HTTP_MAX_HEADERS header fields; the head size
 * and body size limits are enforced by the server (net/server.h) from its
 * configuration, so that a clear 431/413 can be sent.
 */
#ifndef SL_NET_HTTP_H
#define SL_NET_HTTP_H

#include "base/str.h"

#define SL_HTTP_MAX_HEADERS 64

typedef struct {
  sl_str name;
  sl_str value;
} sl_http_header;

typedef struct {
  sl_str method;
  sl_str target; /* request-target as sent, e.g. "/" or "/_sluice/clock?x=1" */
  sl_str path;   /* target up to '?' */
  sl_str query;  /* after '?', without it; empty if none */
  int minor_version; /* 0 or 1 */
  sl_http_header headers[SL_HTTP_MAX_HEADERS];
  size_t n_headers;
  /* Body framing, filled by sl_http_parse_head. */
  bool chunked;
  uint64_t content_length; /* valid when !chunked */
  bool keep_alive;         /* HTTP/1.1 default on, "Connection: close" off; 1.0 the reverse */
  bool expect_continue;    /* "Expect: 100-continue" */
  /* Set by the server once the body is complete (decoded if chunked). */
  sl_str body;
} sl_http_request;

typedef enum {
  SL_HTTP_OK = 0,          /* a complete head was parsed */
  SL_HTTP_INCOMPLETE = -1, /* need more bytes */
  SL_HTTP_BAD = -2,        /* malformed: reply 400 and close */
  SL_HTTP_TOO_MANY_HEADERS = -3,
} sl_http_status;

/* Parses the request head in buf[0..len). On SL_HTTP_OK, *head_len is the
 * number of bytes of the head (the body starts there). */
sl_http_status sl_http_parse_head(const char *buf, size_t len, sl_http_request *out, size_t *head_len);

/* Decodes a chunked body in place. 'p'/'len' start right after the head.
 * Returns SL_HTTP_OK with *body_len (decoded length) and *consumed (encoded
 * bytes including the trailer), SL_HTTP_INCOMPLETE, or SL_HTTP_BAD. On
 * SL_HTTP_INCOMPLETE nothing is modified, so it can be retried on more data.
 * 'max_body' bounds the decoded size (exceeding it is reported as
 * SL_HTTP_TOO_LARGE). */
#define SL_HTTP_TOO_LARGE (-4)
int sl_http_dechunk(char *p, size_t len, uint64_t max_body, size_t *body_len, size_t *consumed);

/* The value of the first header named 'name' (case-insensitive), or NULL slice. */
sl_str sl_http_header_get(const sl_http_request *r, const char *name);

#endif
