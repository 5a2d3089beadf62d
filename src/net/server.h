/*
 * server.h — the HTTP/1.1 server on libuv.
 *
 * One libuv loop thread owns all state (DESIGN.md). The server accepts TCP
 * connections, reads into a per-connection buffer, parses requests with
 * net/http.h, and for each complete request calls the handler synchronously;
 * the handler fills an sl_http_response; the server writes it. Pipelined
 * requests are answered in order; responses of one read are written with one
 * uv_write. Keep-alive per HTTP/1.1.
 *
 * Limits (sl_server_config): head size (431 and close), body size (413 and
 * close), idle keep-alive timeout and a slow-client timeout for a request that
 * has started but not completed (408 and close). A malformed request gets 400
 * and close. The server never crashes or hangs on bad input.
 *
 * Shutdown: sl_server_stop() (also called on SIGINT/SIGTERM when
 * 'handle_signals' is set) stops accepting, lets in-flight writes finish,
 * closes every connection and returns from sl_server_run().
 *
 * Ownership: the caller owns the config strings and the handler context.
 * Threads: everything runs on the loop thread.
 */
#ifndef SL_NET_SERVER_H
#define SL_NET_SERVER_H

#include "base/arena.h"
#include "net/http.h"

#define SL_HTTP_MAX_RESP_HEADERS 16

typedef struct {
  int status; /* 200, 400, ... */
  sl_str content_type;
  sl_http_header headers[SL_HTTP_MAX_RESP_HEADERS]; /* extra headers */
  size_t n_headers;
  sl_buf body; /* heap buffer owned by the server, reused; the handler appends */
  bool close;  /* close the connection after this response */
} sl_http_response;

/* Called once per complete request. 'req->body' is complete. Anything the
 * handler points at from 'resp->headers' must stay valid until it returns
 * to the server, which serialises the response immediately. */
typedef void (*sl_http_handler)(void *ctx, sl_http_request *req, sl_http_response *resp);

typedef struct {
  const char *bind;          /* "127.0.0.1" */
  int port;                  /* 0: pick a free port */
  size_t max_head_bytes;     /* default 16 KiB */
  uint64_t max_body_bytes;   /* default 16 MiB + 1 KiB */
  uint64_t idle_timeout_ms;  /* keep-alive idle, default 60 s */
  uint64_t request_timeout_ms; /* a started request must complete within, default 30 s */
  bool handle_signals;       /* stop on SIGINT/SIGTERM */
} sl_server_config;

typedef struct sl_server sl_server;

void sl_server_config_default(sl_server_config *c);

/* Creates the listener on 'loop'. Returns NULL and logs on failure (port in use). */
sl_server *sl_server_create(void *uv_loop, const sl_server_config *cfg, sl_http_handler h, void *ctx);
/* The port actually bound (useful with port 0). */
int sl_server_port(const sl_server *s);
/* Begins graceful shutdown; sl_server_run returns once every handle is closed. */
void sl_server_stop(sl_server *s);
/* Runs the loop until stopped. */
int sl_server_run(sl_server *s);
void sl_server_destroy(sl_server *s);

/* Registers a function the server calls on the loop thread every 'period_ms'
 * (for background work: TTL expiry, table state transitions, metric ticks). */
void sl_server_every(sl_server *s, uint64_t period_ms, void (*fn)(void *ctx), void *ctx);

#endif
