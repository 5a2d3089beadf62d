/*
 * server.h — the HTTP/1.1 server on libuv.
 *
 * One libuv loop thread owns all state (DESIGN.md). The server accepts TCP
 * connections (TCP_NODELAY), reads into a per-connection heap buffer, parses
 * requests with net/http.h, and for each complete request calls the handler
 * synchronously; the handler fills an sl_http_response; the server serialises
 * it at once (status line, Date, Content-Type, Content-Length, the handler's
 * extra headers, "Connection: close" when it will close, "Connection:
 * keep-alive" for a kept HTTP/1.0 client). Every complete request buffered by
 * one read is answered in order (pipelining) and the responses of one read go
 * out with one write. HEAD, 1xx, 204 and 304 responses carry no body. A
 * handler may delay its response (delay_ms: a per-connection timer; the
 * connection's later requests are answered after it, in order) or cut the
 * connection instead (reset: uv_tcp_close_reset, nothing sent).
 * Keep-alive per HTTP/1.1. "HTTP/1.1 100 Continue" is sent once when a request
 * expects it and its body has not fully arrived.
 *
 * Every response carries "Server: Server" (the service's value) and the
 * CORS headers: Access-Control-Allow-Origin ("*", or the request's Origin
 * when it is one of cors_origins) with Access-Control-Expose-Headers naming
 * the service's response headers. A request with method OPTIONS is a CORS
 * preflight and is answered here, never passed to the handler: 200, no body,
 * Access-Control-Allow-Methods, Access-Control-Allow-Headers (echoing
 * Access-Control-Request-Headers) and Access-Control-Max-Age.
 *
 * Content codings (net/compress.h): a body sent with Content-Encoding gzip
 * or deflate reaches the handler decoded (req->body; req->raw_body keeps the
 * bytes as received, which a signature covers); max_body_bytes bounds the
 * decoded size as well. A corrupt or truncated body, or one in a coding
 * other than gzip, deflate or identity, is answered 400 here in the
 * service's JSON error shape (SerializationException) and the connection
 * stays usable. A reply of at least SL_COMPRESS_MIN_BYTES to a request whose
 * Accept-Encoding takes gzip or deflate is compressed, Content-Encoding is
 * set, and an x-amz-crc32 header set by the handler is recomputed over the
 * bytes sent (as the service does: botocore checks the CRC of the raw,
 * undecoded bytes).
 *
 * Limits (sl_server_config; a zero field takes its default): a head larger
 * than max_head_bytes or with more than SL_HTTP_MAX_HEADERS fields gets 400
 * in the service's JSON error shape;
 * a Content-Length or decoded chunked body larger than max_body_bytes gets 413
 * as soon as the length is known, without buffering the body (the encoded
 * chunked body may also be at most 2 x max_body_bytes + 64 KiB); a malformed
 * request gets 400; a request whose first byte arrived more than
 * request_timeout_ms ago and is still incomplete gets 408. Each closes the
 * connection after the reply: the server half-closes, then reads and
 * discards for up to 2 s (lingering close) so that the client sees the reply
 * instead of a reset. A connection idle for idle_timeout_ms is closed without
 * a reply. The server never crashes or hangs on bad input.
 *
 * Connection limit: at most max_connections are served at once. One more is
 * accepted, answered at once (without reading its request) with 503 in the
 * service's JSON error shape (ServiceUnavailableException, which the SDKs
 * retry) and closed after a lingering close; it never counts against the
 * limit. sl_server_create() raises the soft RLIMIT_NOFILE towards the hard
 * limit, as far as max_connections needs (plus SL_SERVER_FD_RESERVE for the
 * store, the refused connections and the process), and warns when even the
 * hard limit is lower. When descriptors run out anyway (EMFILE), libuv
 * accepts and closes the connection at once (the client sees a reset) and
 * the server warns at most once a second.
 *
 * Accept storms: at most SL_SERVER_ACCEPT_BATCH connections are accepted in
 * one loop turn; the rest wait in the kernel's queue (backlog 4,096) for the
 * next turns, so the requests of open connections are read between batches
 * instead of after the whole storm (bench/storm.py).
 *
 * Backpressure: while more than 1 MiB of responses is queued on a connection
 * (its client is not reading) the server stops reading from it and stops
 * answering its pipelined requests; it resumes once the queue has drained.
 *
 * Shutdown: sl_server_stop() (also called on SIGINT/SIGTERM when
 * 'handle_signals' is set) closes the listener, the signal handles and the
 * sl_server_every timers, closes idle connections at once, lets in-flight
 * writes finish (for at most 5 s), closes every connection and makes
 * sl_server_run() return 0. It may be called from the handler.
 *
 * Ownership: the caller owns the loop, the config strings and the handler
 * context; the server copies the config. sl_server_destroy() frees the server
 * (stopping it first and running the loop until its handles are closed, if
 * needed). The request passed to the handler, including the body, points into
 * the connection buffer and is valid only until the handler returns.
 * sl_server_create() ignores SIGPIPE process-wide (a write to a reset socket
 * must fail with EPIPE, not kill the process).
 * Threads: everything runs on the loop thread; nothing here is thread-safe.
 */
#ifndef SL_NET_SERVER_H
#define SL_NET_SERVER_H

#include "base/arena.h"
#include "net/http.h"

#define SL_HTTP_MAX_RESP_HEADERS 16
/* Descriptors wanted beyond max_connections (see "Connection limit"). */
#define SL_SERVER_FD_RESERVE 1024
#define SL_SERVER_ACCEPT_BATCH 64u

typedef struct {
  int status; /* 200, 400, ... */
  sl_str content_type;
  sl_http_header headers[SL_HTTP_MAX_RESP_HEADERS]; /* extra headers */
  size_t n_headers;
  sl_buf body; /* heap buffer owned by the server, reused; the handler appends */
  bool close;  /* close the connection after this response */
  bool hold;   /* send it only after the barrier has run (sl_server_set_barrier) */
  /* Send it delay_ms after the handler returned (fault injection's latency,
   * --latency aws); the connection's later requests wait behind it. */
  uint32_t delay_ms;
  /* Send nothing: close the connection with a TCP reset (a cut connection;
   * responses queued before it on the connection are dropped too). */
  bool reset;
} sl_http_response;

/* Called once per complete request. 'req->body' is complete. The response
 * arrives reset: status 200, no content type, no headers, empty body. Anything
 * the handler points at from 'resp->headers' must stay valid until it returns
 * to the server, which serialises the response immediately. */
typedef void (*sl_http_handler)(void *ctx, sl_http_request *req, sl_http_response *resp);

typedef struct {
  const char *bind;            /* "127.0.0.1"; an address with ':' is IPv6 */
  int port;                    /* 0: pick a free port */
  size_t max_head_bytes;       /* default 16 KiB */
  uint64_t max_body_bytes;     /* default 16 MiB + 1 KiB */
  uint64_t idle_timeout_ms;    /* keep-alive idle, default 60 s */
  uint64_t request_timeout_ms; /* a started request must complete within, default 30 s */
  size_t max_connections;      /* served at once, default 16,384; more get 503 */
  bool handle_signals;         /* stop on SIGINT/SIGTERM */
  /* Origins allowed by CORS, separated by commas; NULL or "*": any. */
  const char *cors_origins;
} sl_server_config;

typedef struct sl_server sl_server;

/* 127.0.0.1:8000 and the defaults above. */
void sl_server_config_default(sl_server_config *c);

/* Creates the listener on 'uv_loop' (a uv_loop_t *; NULL: uv_default_loop()).
 * Returns NULL and logs on failure (port in use). */
sl_server *sl_server_create(void *uv_loop, const sl_server_config *cfg, sl_http_handler h,
                            void *ctx);
/* The port actually bound (useful with port 0). */
int sl_server_port(const sl_server *s);
/* Connections the server holds (open, closing, or refused and lingering). */
size_t sl_server_connections(const sl_server *s);
/* Group commit: a response with 'hold' set, and every response queued
 * behind it on its connection, waits for a sync that begins after it was
 * queued. After each loop iteration in which a response is held that no
 * sync under way covers, the server begins one, if fewer than two are
 * under way: 'begin' on the loop thread (false: nothing committed since
 * the last begin; the held responses wait for the syncs under way, or go
 * at once if there are none), then 'run' on a libuv pool thread (the
 * fsync) while the loop serves the next requests, then 'end' on the loop
 * thread with run's result, after which the responses held before this
 * begin or an earlier one are written, in order, also on a connection that
 * closes after them. A sync must therefore cover everything committed
 * before its begin, whatever the order in which the runs finish. With a
 * single connection open, 'run' is called on the loop thread (nothing to
 * serve meanwhile), and so it is at sl_server_stop for the responses held
 * for a sync not begun yet (tests/conformance/test_durability.py,
 * test_sigterm_with_answers_held_stops_and_keeps_them). With no barrier,
 * 'hold' is ignored. */
typedef struct {
  bool (*begin)(void *ctx);
  int (*run)(void *ctx);
  void (*end)(void *ctx, int rc);
  void *ctx;
} sl_server_barrier;
void sl_server_set_barrier(sl_server *s, const sl_server_barrier *b);
/* A sync after this loop iteration even if no response is held (commits of
 * background work that no answer waits for). */
void sl_server_sync_soon(sl_server *s);
/* Begins graceful shutdown; sl_server_run returns once every handle is closed. */
void sl_server_stop(sl_server *s);
/* Runs the loop until stopped. Returns 0 after a graceful stop. */
int sl_server_run(sl_server *s);
void sl_server_destroy(sl_server *s);

/* Registers a function the server calls on the loop thread every 'period_ms'
 * (for background work: TTL expiry, table state transitions, metric ticks).
 * The timers end with sl_server_stop(). */
void sl_server_every(sl_server *s, uint64_t period_ms, void (*fn)(void *ctx), void *ctx);

#endif
