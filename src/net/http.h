/*
 * http.h — the HTTP/1.1 request parser.
 *
 * Written in-house (no maintained C parser is packaged in Debian). It is
 * incremental and zero-copy: the caller keeps the bytes received so far in one
 * contiguous buffer and calls sl_http_parse_head() each time more arrive; the
 * parser never stores state between calls (like picohttpparser), so a request
 * split at any byte parses identically. Every slice in sl_http_request points
 * into the caller's buffer, which must outlive the slices and not move.
 *
 * What it accepts: request line "METHOD SP target SP HTTP/1.x CRLF" with x 0
 * or 1 (bare LF line ends are accepted too; empty lines before the request
 * line are skipped, RFC 9112 §2.2), header fields "name: value" with optional
 * whitespace trimmed. Errors (SL_HTTP_BAD): a method or header name that is not
 * a token, whitespace before the colon, obsolete line folding, control
 * characters (other than HTAB in values), a CR not followed by LF. A prefix of
 * a valid request is always SL_HTTP_INCOMPLETE, never BAD.
 *
 * Body framing (RFC 9112 §6): "Transfer-Encoding: chunked" or Content-Length
 * (decimal digits only, overflow-checked; repeated fields must agree). Both
 * present, any transfer coding other than a single "chunked", or a malformed
 * length is SL_HTTP_BAD. A chunked HTTP/1.0 request is accepted but never kept
 * alive (§6.1). keep_alive comes from the version and the Connection token
 * list; expect_continue is set only for HTTP/1.1 (RFC 9110 §10.1.1).
 *
 * Chunked bodies are decoded by sl_http_dechunk(), in place, and only once
 * the whole body (through the trailer section, which is validated and
 * skipped) is present: until then the buffer is not touched, so the call can
 * be repeated as more bytes arrive. sl_http_dechunk_resume() does the same
 * but remembers, in a caller-held state, how far the chunks were validated,
 * so that a body arriving in many reads is scanned once rather than from the
 * start every time.
 *
 * Limits are the caller's: SL_HTTP_MAX_HEADERS header fields; the head size
 * and body size limits are enforced by the server (net/server.h) from its
 * configuration, so that a clear 400/413 can be sent.
 *
 * Threads: no shared state; every function is reentrant.
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
  sl_str target;     /* request-target as sent, e.g. "/" or "/_sluice/clock?x=1" */
  sl_str path;       /* target up to '?' */
  sl_str query;      /* after '?', without it; empty if none */
  int minor_version; /* 0 or 1 */
  sl_http_header headers[SL_HTTP_MAX_HEADERS];
  size_t n_headers;
  /* Body framing, filled by sl_http_parse_head. */
  bool chunked;
  uint64_t content_length; /* valid when !chunked; 0 when absent */
  bool keep_alive;         /* HTTP/1.1 default on, "Connection: close" off; 1.0 the reverse */
  bool expect_continue;    /* "Expect: 100-continue" on an HTTP/1.1 request */
  /* Set by the server once the body is complete: 'raw_body' as received
   * (dechunked if chunked), 'body' the same after its Content-Encoding is
   * decoded (net/compress.h; the same slice when the body is not encoded).
   * A signature covers raw_body. */
  sl_str body;
  sl_str raw_body;
} sl_http_request;

typedef enum {
  SL_HTTP_OK = 0,          /* a complete head was parsed */
  SL_HTTP_INCOMPLETE = -1, /* need more bytes */
  SL_HTTP_BAD = -2,        /* malformed: reply 400 and close */
  SL_HTTP_TOO_MANY_HEADERS = -3,
} sl_http_status;

/* Parses the request head in buf[0..len). On SL_HTTP_OK, *head_len is the
 * number of bytes of the head (the body starts there). 'out' is overwritten
 * on every call; its contents are meaningful only on SL_HTTP_OK. */
sl_http_status sl_http_parse_head(const char *buf, size_t len, sl_http_request *out,
                                  size_t *head_len);

/* Decodes a chunked body in place. 'p'/'len' start right after the head.
 * Returns SL_HTTP_OK with *body_len (decoded length; the decoded bytes start
 * at p) and *consumed (encoded bytes including the trailer section),
 * SL_HTTP_INCOMPLETE, or SL_HTTP_BAD. On SL_HTTP_INCOMPLETE nothing is
 * modified, so it can be retried on more data. 'max_body' bounds the decoded
 * size: a chunk size that would exceed it is reported as SL_HTTP_TOO_LARGE as
 * soon as its size line is read, before its data arrives. */
#define SL_HTTP_TOO_LARGE (-4)
int sl_http_dechunk(char *p, size_t len, uint64_t max_body, size_t *body_len, size_t *consumed);

/* Progress of an incomplete chunked body. Zero it before the first call for
 * a body; it stays valid while the same body grows by appending (the buffer
 * may move: offsets are relative to 'p'). */
typedef struct {
  size_t scanned;    /* encoded bytes of whole chunks already validated */
  uint64_t body_len; /* their decoded size */
} sl_http_dechunk_state;

/* sl_http_dechunk() that resumes from 'st' (updated on SL_HTTP_INCOMPLETE). */
int sl_http_dechunk_resume(char *p, size_t len, uint64_t max_body, sl_http_dechunk_state *st,
                           size_t *body_len, size_t *consumed);

/* A reply head, as the tools' non-blocking clients read it (sluice bench). */
typedef struct {
  int status;             /* 100..999 */
  int minor_version;      /* 0 or 1 */
  bool chunked;           /* Transfer-Encoding: chunked */
  int64_t content_length; /* -1: absent */
  bool keep_alive;        /* the version's default, or the Connection field's */
} sl_http_reply_head;

/* Parses a reply head in buf[0..len): "HTTP/1.x NNN [reason]" and fields,
 * ended by an empty line (CRLF or bare LF). SL_HTTP_OK with *head_len;
 * SL_HTTP_INCOMPLETE (a prefix of a valid head is never BAD); SL_HTTP_BAD for
 * a malformed status line or field, a Content-Length that is not digits (or
 * overflows, or repeats with another value), both framings at once, or more
 * than 1 MiB without the empty line. */
sl_http_status sl_http_parse_reply_head(const char *buf, size_t len, sl_http_reply_head *out,
                                        size_t *head_len);

/* The value of the first header named 'name' (case-insensitive), or NULL slice. */
sl_str sl_http_header_get(const sl_http_request *r, const char *name);

/* The Content-Type a JSON protocol reply echoes: the request's media type
 * when it is application/x-amz-json-1.0, application/x-amz-json-1.1 or
 * application/json (case-insensitive, parameters such as "; charset=utf-8"
 * dropped), application/x-amz-json-1.0 otherwise. The slice is static. */
sl_str sl_http_json_content_type(const sl_http_request *r);

#endif
