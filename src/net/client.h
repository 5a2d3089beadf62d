/*
 * client.h — a small blocking HTTP/1.1 client, for the tools that call an
 * endpoint (sluice bench, explain: DynamoDB, sluice or AWS itself).
 *
 * One sl_client is one connection to one host and port, kept alive between
 * requests when the server allows it and opened again, once, when a kept
 * connection turns out to be closed before any byte of the reply came. A
 * request is written whole (with Host and Content-Length added), then one
 * reply is read: its head, then a body framed by Content-Length, chunked
 * transfer coding (decoded with net/http.h) or the end of the connection. A
 * body in Content-Encoding gzip or deflate is decoded (net/compress.h) when
 * the caller asks for it; raw_body keeps the bytes as received, which the
 * x-amz-crc32 header covers. HTTPS through net/tls.h when the client is
 * given a TLS context (sl_client_use_tls): the server's certificate is
 * verified for the host. No proxies, no redirects.
 *
 * Limits: a reply head of at most 64 KiB and SL_CLIENT_MAX_HEADERS fields, a
 * body of at most 64 MiB (after decoding). Every socket operation times out
 * after timeout_ms.
 *
 * Ownership: the caller owns the sl_client and each sl_client_response; the
 * response's header slices point into its own head buffer, valid until the
 * next request made with it or sl_client_response_free().
 * Threads: one sl_client per thread; no shared state.
 */
#ifndef SL_NET_CLIENT_H
#define SL_NET_CLIENT_H

#include "base/arena.h"
#include "net/http.h"
#include "net/tls.h"

#define SL_CLIENT_MAX_HEADERS 64

typedef struct {
  int fd; /* -1: not connected */
  char host[256];
  int port;
  int timeout_ms;
  sl_buf in;           /* bytes received after the last reply */
  sl_tls_ctx *tls_ctx; /* NULL: plain HTTP */
  sl_tls *tls;         /* the connection's TLS state while connected */
} sl_client;

typedef struct {
  int status;
  sl_http_header headers[SL_CLIENT_MAX_HEADERS];
  size_t n_headers;
  sl_buf head;     /* the reply head the header slices point into */
  sl_buf raw_body; /* the body as received (dechunked) */
  sl_buf body;     /* decoded per Content-Encoding when asked, else a copy of raw_body */
  bool keep_alive; /* the connection stays open after this reply */
} sl_client_response;

/* Splits "http://HOST[:PORT][/...]" (default port 80). Returns 0, or -1 for
 * anything else (https included). */
int sl_client_parse_url(const char *url, char *host, size_t host_cap, int *port);

/* Splits "http://HOST[:PORT][/...]" (default port 80) or "https://..."
 * (default port 443; *https set). Returns 0, or -1. */
int sl_client_parse_endpoint(const char *url, char *host, size_t host_cap, int *port, bool *https);

/* Prepares a client of host:port; connects on the first request. */
void sl_client_init(sl_client *c, const char *host, int port, int timeout_ms);
void sl_client_close(sl_client *c);
/* Speaks TLS with 'ctx' (owned by the caller, outliving the client) from the
 * next connection on. */
void sl_client_use_tls(sl_client *c, sl_tls_ctx *ctx);

void sl_client_response_init(sl_client_response *r);
void sl_client_response_free(sl_client_response *r);

/* Sends one request and reads its reply into 'out'. 'headers' must not
 * include Host or Content-Length. 'decode': decode a gzip/deflate body.
 * Returns 0, or a negative errno-style code: -ECONNREFUSED and the like
 * from the socket, -ETIMEDOUT, -EPROTO for a reply that is not HTTP/1.x or
 * breaks a limit. */
int sl_client_request(sl_client *c, sl_str method, sl_str target, const sl_http_header *headers,
                      size_t n_headers, sl_str body, bool decode, sl_client_response *out);

/* The value of the first reply header named 'name' (case-insensitive). */
sl_str sl_client_header(const sl_client_response *r, const char *name);

#endif
