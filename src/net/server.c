/*
 * server.c — the HTTP/1.1 server on libuv; see server.h.
 *
 * A connection moves through these states:
 *
 *   OPEN      reading, answering requests
 *   DRAINING  answering is over (close requested, error, EOF, stop); waits
 *             for the queued responses to be written
 *   SHUTTING  uv_shutdown (FIN) issued
 *   LINGER    reads and discards until the client closes, or 2 s
 *   CLOSING   uv_close issued on its three handles; freed in the last close callback
 *
 * Memory per connection: the read buffer (grown as needed, released when
 * empty and larger than BUF_KEEP) and two output buffers used in turn: 'out'
 * collects the responses of a read batch while 'wbuf' is being written. In
 * steady state a request allocates nothing.
 *
 * Held responses (group commit, server.h sl_server_barrier) wait in 'out'
 * for a sync, which runs on a libuv pool thread (up to two at once): the
 * one work item the server queues; everything else stays on the loop
 * thread. A connection whose answer is held is not idle (its timer waits).
 *
 * Timeouts use one timer per connection and a deadline: moving the deadline
 * later (the common case, after every request) costs no timer operation; the
 * timer re-arms itself when it fires early.
 */
#include "net/server.h"

#include "base/crc32.h"
#include "base/err.h"
#include "base/log.h"
#include "net/compress.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <uv.h>

enum {
  READ_INITIAL = 16 * 1024, /* first read buffer */
  READ_MIN_FREE = 4 * 1024, /* grow the read buffer when less is free */
  BUF_KEEP = 1 << 20,       /* larger buffers are released when empty */
  WRITE_HIGH = 1 << 20,     /* backpressure threshold, bytes queued */
  HEAD_HINT = 2048,         /* below this, re-parse an incomplete head on every read */
  LINGER_MS = 2000,
  STOP_GRACE_MS = 5000,
};

enum { OPEN, DRAINING, SHUTTING, LINGER, CLOSING };

/* One sync of the group commit, on a libuv pool thread (server.h). */
enum { SYNCS_MAX = 2 };
typedef struct {
  uv_work_t work;
  struct sl_server *srv;
  uint64_t gen; /* the sync's number */
  int rc;       /* what barrier.run returned */
  bool busy;
} sync_job;

typedef struct conn conn;
struct conn {
  uv_tcp_t tcp;
  uv_timer_t timer;
  uv_timer_t delay; /* a response's delay_ms (sl_http_response) */
  uv_write_t wreq;
  uv_shutdown_t sreq;
  sl_server *srv;
  conn *prev, *next;
  char *rbuf;
  size_t rpos, rlen, rcap; /* unprocessed bytes are rbuf[rpos..rlen) */
  size_t rwant;            /* bytes the current request needs, when known */
  size_t head_seen;        /* bytes seen by the last incomplete head parse */
  sl_http_dechunk_state chunk;
  sl_buf out, wbuf;
  uint64_t deadline, timer_due;
  int handles;
  int state;
  bool reading, writing, paused, busy, eof, in_request, continue_sent;
  bool held;          /* queued responses wait for the barrier (sl_server_set_barrier) */
  uint64_t held_gen;  /* the sync they wait for; 0: one not begun yet */
  bool refused;       /* over max_connections: answered 503, not counted */
  bool delayed;       /* the queued responses wait for the delay timer */
  uint64_t delay_due; /* uv_hrtime() at which they may leave */
};

typedef struct every every;
struct every {
  uv_timer_t timer;
  sl_server *srv;
  void (*fn)(void *ctx);
  void *ctx;
  every *next;
};

struct sl_server {
  uv_loop_t *loop;
  uv_tcp_t listener;
  uv_signal_t sigint, sigterm;
  sl_server_config cfg;
  sl_http_handler handler;
  void *ctx;
  int port;
  int handles;            /* listener, signals, timers not yet closed */
  size_t n_conns;         /* every connection not yet freed */
  size_t n_refused;       /* of which refused (over max_connections) */
  uint64_t accept_warned; /* loop time of the last accept warning */
  conn *conns;
  every *timers;
  sl_server_barrier barrier; /* group commit, see server.h */
  bool has_barrier;
  uv_check_t check; /* begins a sync after each loop iteration's I/O */
  sync_job jobs[SYNCS_MAX];
  unsigned syncing;   /* jobs queued or running */
  bool want_sync;     /* sl_server_sync_soon: a sync though nothing is held */
  uint64_t gen_begun; /* syncs begun, numbered from 1 */
  uint64_t gen_done;  /* the latest sync ended: every one before it is covered */
  uv_prepare_t turn;  /* before each poll: a new turn's accept budget */
  uv_idle_t resume;   /* a deferred accept, on the next turn */
  unsigned accepted;  /* connections accepted in this loop turn */
  bool deferred;      /* a connection waits in libuv for uv_accept */
  size_t n_held;      /* connections with held responses */
  bool stopping, done;
  sl_http_request req;
  sl_http_response resp;
  time_t date_sec;
  char date[48];
  sl_buf inbody; /* the decoded body of the request being answered */
  sl_buf zbuf;   /* its reply, compressed */
  sl_buf extra;  /* the CORS header lines of the reply being serialised */
  char crc[16];  /* x-amz-crc32 of a compressed reply */
  char rid[56];  /* x-amzn-RequestId of the server's own error reply */
  uint64_t rng;  /* request ids of the server's own error replies */
};

static void conn_process(conn *c);
static void conn_flush(conn *c);
static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);

void sl_server_config_default(sl_server_config *c) {
  c->bind = "127.0.0.1";
  c->port = 8000;
  c->max_head_bytes = 16 * 1024;
  c->max_body_bytes = 16 * 1024 * 1024 + 1024;
  c->idle_timeout_ms = 60 * 1000;
  c->request_timeout_ms = 30 * 1000;
  c->max_connections = 16384;
  c->handle_signals = false;
  c->cors_origins = NULL;
}

/* ---- server-level handles ---------------------------------------------- */

static void server_maybe_done(sl_server *s) {
  if (s->stopping && !s->done && s->handles == 0 && s->n_conns == 0) {
    s->done = true;
    uv_stop(s->loop);
  }
}

static void on_server_handle_closed(uv_handle_t *h) {
  sl_server *s = h->data;
  s->handles--;
  server_maybe_done(s);
}

static void on_every_closed(uv_handle_t *h) {
  every *e = h->data;
  sl_server *s = e->srv;
  free(e);
  s->handles--;
  server_maybe_done(s);
}

/* ---- response serialisation -------------------------------------------- */

static sl_str status_line(int status, char *tmp, size_t cap) {
  switch (status) {
#define S(code, text)                                                                              \
  case code:                                                                                       \
    return SL_STR("HTTP/1.1 " #code " " text "\r\n");
    S(100, "Continue")
    S(200, "OK")
    S(201, "Created")
    S(204, "No Content")
    S(301, "Moved Permanently")
    S(302, "Found")
    S(304, "Not Modified")
    S(400, "Bad Request")
    S(401, "Unauthorized")
    S(403, "Forbidden")
    S(404, "Not Found")
    S(405, "Method Not Allowed")
    S(408, "Request Timeout")
    S(409, "Conflict")
    S(411, "Length Required")
    S(413, "Content Too Large")
    S(415, "Unsupported Media Type")
    S(429, "Too Many Requests")
    S(431, "Request Header Fields Too Large")
    S(500, "Internal Server Error")
    S(501, "Not Implemented")
    S(503, "Service Unavailable")
#undef S
  default: {
    int n = snprintf(tmp, cap, "HTTP/1.1 %03d Status\r\n", status % 1000);
    return sl_str_make(tmp, (size_t)n);
  }
  }
}

/* The Date header, formatted once per second (RFC 9110 §6.6.1, IMF-fixdate). */
static sl_str date_header(sl_server *s) {
  time_t now = time(NULL);
  if (now != s->date_sec || s->date[0] == 0) {
    static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    struct tm tm;
    gmtime_r(&now, &tm);
    snprintf(s->date, sizeof(s->date), "Date: %s, %02d %s %04d %02d:%02d:%02d GMT\r\n",
             days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900,
             tm.tm_hour, tm.tm_min, tm.tm_sec);
    s->date_sec = now;
  }
  return sl_str_c(s->date);
}

static char *put(char *w, sl_str s) {
  memcpy(w, s.p, s.len);
  return w + s.len;
}

static char *put_u64(char *w, uint64_t v) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *w++ = tmp[--n];
  return w;
}

/* Appends one response to 'b'. 'keep10' adds "Connection: keep-alive" for a
 * kept HTTP/1.0 client; 'head' (a HEAD request) omits the body. */
static void put_response(sl_server *s, sl_buf *b, const sl_http_response *r, sl_str extra,
                         bool close, bool keep10, bool head) {
  char tmp[40];
  sl_str line = status_line(r->status, tmp, sizeof(tmp));
  sl_str date = date_header(s);
  bool bodiless = r->status < 200 || r->status == 204 || r->status == 304;
  size_t body_len = bodiless || head ? 0 : r->body.len;
  size_t need = line.len + date.len + 96 + r->content_type.len + 32 + extra.len + body_len;
  for (size_t i = 0; i < r->n_headers; i++)
    need += r->headers[i].name.len + r->headers[i].value.len + 4;
  sl_buf_reserve(b, need);
  char *w = b->p + b->len;
  w = put(w, line);
  w = put(w, date);
  /* The service names itself "Server" (tests/conformance/test_wire_http.py). */
  w = put(w, SL_STR("Server: Server\r\n"));
  w = put(w, extra);
  if (r->content_type.len) {
    w = put(w, SL_STR("Content-Type: "));
    w = put(w, r->content_type);
    w = put(w, SL_STR("\r\n"));
  }
  if (!bodiless) {
    w = put(w, SL_STR("Content-Length: "));
    w = put_u64(w, r->body.len);
    w = put(w, SL_STR("\r\n"));
  }
  for (size_t i = 0; i < r->n_headers; i++) {
    w = put(w, r->headers[i].name);
    w = put(w, SL_STR(": "));
    w = put(w, r->headers[i].value);
    w = put(w, SL_STR("\r\n"));
  }
  if (close)
    w = put(w, SL_STR("Connection: close\r\n"));
  else if (keep10)
    w = put(w, SL_STR("Connection: keep-alive\r\n"));
  w = put(w, SL_STR("\r\n"));
  if (body_len)
    w = put(w, sl_str_make(r->body.p, body_len));
  b->len = (size_t)(w - b->p);
}

/* ---- the service's headers: CORS, errors, compression ------------------ */

#define EQ_LIT(s, lit) sl_str_eq_nocase((s), SL_STR(lit))

/* The response headers a page's script may read (the SDKs read the request
 * id and check the CRC). */
#define EXPOSE_HEADERS "x-amzn-RequestId, x-amzn-ErrorType, x-amz-crc32, x-amz-id-2, Date"
/* Answered to a preflight that does not list the headers it wants. */
#define ALLOW_HEADERS                                                                              \
  "Content-Type, Content-Encoding, Authorization, X-Amz-Date, X-Amz-Target, "                      \
  "X-Amz-Security-Token, X-Amz-User-Agent, amz-sdk-invocation-id, amz-sdk-request"

/* Whether 'origin' is one of the comma-separated 'list' (case-insensitive,
 * as scheme and host are). */
static bool origin_listed(const char *list, sl_str origin) {
  const char *p = list;
  while (*p) {
    const char *e = strchr(p, ',');
    if (!e)
      e = p + strlen(p);
    const char *a = p, *b = e;
    while (a < b && (*a == ' ' || *a == '\t'))
      a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
      b--;
    if (origin.len && sl_str_eq_nocase(sl_str_make(a, (size_t)(b - a)), origin))
      return true;
    p = *e ? e + 1 : e;
  }
  return false;
}

/* The CORS header lines of a reply to 'req' (NULL: a request that could not
 * be parsed), collected in s->extra. */
static sl_str cors_lines(sl_server *s, const sl_http_request *req, bool preflight) {
  sl_buf *b = &s->extra;
  b->len = 0;
  const char *list = s->cfg.cors_origins;
  bool any = !list || strcmp(list, "*") == 0;
  sl_str origin = req ? sl_http_header_get(req, "origin") : SL_STR_NULL;
  if (any) {
    sl_buf_puts(b, SL_STR("Access-Control-Allow-Origin: *\r\n"));
  } else {
    /* The reply depends on the Origin: caches must know. */
    sl_buf_puts(b, SL_STR("Vary: Origin\r\n"));
    if (!origin_listed(list, origin))
      return sl_buf_str(b);
    sl_buf_puts(b, SL_STR("Access-Control-Allow-Origin: "));
    sl_buf_puts(b, origin);
    sl_buf_puts(b, SL_STR("\r\n"));
  }
  sl_buf_puts(b, SL_STR("Access-Control-Expose-Headers: " EXPOSE_HEADERS "\r\n"));
  if (preflight) {
    sl_str want = sl_http_header_get(req, "access-control-request-headers");
    sl_buf_puts(b, SL_STR("Access-Control-Allow-Methods: GET, POST, OPTIONS\r\n"
                          "Access-Control-Allow-Headers: "));
    sl_buf_puts(b, want.len ? want : SL_STR(ALLOW_HEADERS));
    sl_buf_puts(b, SL_STR("\r\nAccess-Control-Max-Age: 172800\r\n"));
  }
  return sl_buf_str(b);
}

/* 52 characters of [A-Z2-7] in s->rid, like the service's request ids. */
static sl_str request_id(sl_server *s) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  uint64_t r = 0;
  for (int i = 0; i < 52; i++) {
    if (i % 12 == 0) {
      s->rng ^= s->rng << 13;
      s->rng ^= s->rng >> 7;
      s->rng ^= s->rng << 17;
      r = s->rng;
    }
    s->rid[i] = alphabet[r & 31];
    r >>= 5;
  }
  return sl_str_make(s->rid, 52);
}

/* Fills 'r' with an error in the service's JSON shape. 'message' must not
 * need JSON escaping (it is one of this file's texts). */
static void error_reply(sl_server *s, const sl_http_request *req, sl_http_response *r, int status,
                        sl_err code, const char *message) {
  r->status = status;
  r->content_type = req ? sl_http_json_content_type(req) : SL_STR("application/x-amz-json-1.0");
  r->body.len = 0;
  sl_buf_printf(&r->body, "{\"__type\":\"%s\",\"%s\":\"%s\"}", sl_err_type(code),
                sl_err_message_key(code), message);
  r->n_headers = 0;
  r->headers[r->n_headers++] = (sl_http_header){SL_STR("x-amzn-RequestId"), request_id(s)};
}

/* Decodes req->body by its Content-Encoding into s->inbody. Returns false
 * after filling 'r' with the error reply when it cannot. */
static bool decode_body(sl_server *s, sl_http_request *req, sl_http_response *r) {
  req->raw_body = req->body;
  sl_str ce = sl_http_header_get(req, "content-encoding");
  if (ce.len == 0)
    return true;
  sl_coding cd = sl_compress_coding(ce);
  if (cd == SL_CODING_IDENTITY)
    return true;
  /* What the service answers to a body it cannot decode is not documented;
   * it answers a body it cannot read with SerializationException, so these
   * do too, with a message that says what went wrong
   * (tests/conformance/test_compression.py). */
  if (cd == SL_CODING_UNKNOWN) {
    error_reply(s, req, r, 400, SL_E_SERIALIZATION,
                "Unsupported Content-Encoding: only gzip, deflate and identity are accepted");
    return false;
  }
  sl_inflate_status st =
      sl_compress_inflate(cd, req->body.p, req->body.len, s->cfg.max_body_bytes, &s->inbody);
  if (st == SL_INFLATE_OK) {
    req->body = sl_buf_str(&s->inbody);
    return true;
  }
  if (st == SL_INFLATE_TOO_LARGE) {
    /* The decoded body is over the limit: the same 413 as an encoded one. */
    r->status = 413;
    r->content_type = SL_STR("text/plain");
    r->body.len = 0;
    sl_buf_puts(&r->body, SL_STR("Content Too Large\n"));
    return false;
  }
  error_reply(s, req, r, 400, SL_E_SERIALIZATION,
              st == SL_INFLATE_TRUNCATED
                  ? (cd == SL_CODING_GZIP ? "The gzip request body is truncated"
                                          : "The deflate request body is truncated")
                  : (cd == SL_CODING_GZIP ? "The request body is not valid gzip data"
                                          : "The request body is not valid deflate data"));
  return false;
}

/* Compresses the reply when the client takes a coding and it is worth it. */
static void maybe_compress(sl_server *s, const sl_http_request *req, sl_http_response *r) {
  if (r->body.len < SL_COMPRESS_MIN_BYTES || r->status < 200 || r->status == 204 ||
      r->status == 304 || r->n_headers >= SL_HTTP_MAX_RESP_HEADERS)
    return;
  sl_str ae = sl_http_header_get(req, "accept-encoding");
  if (ae.len == 0)
    return;
  sl_coding cd = sl_compress_accept(ae);
  if (cd == SL_CODING_IDENTITY)
    return;
  for (size_t i = 0; i < r->n_headers; i++)
    if (EQ_LIT(r->headers[i].name, "content-encoding"))
      return; /* the handler encoded it already */
  sl_compress_deflate(cd, r->body.p, r->body.len, &s->zbuf);
  sl_buf t = r->body;
  r->body = s->zbuf;
  s->zbuf = t;
  r->headers[r->n_headers++] =
      (sl_http_header){SL_STR("Content-Encoding"), sl_compress_coding_name(cd)};
  for (size_t i = 0; i < r->n_headers; i++) {
    if (EQ_LIT(r->headers[i].name, "x-amz-crc32")) {
      int n = snprintf(s->crc, sizeof(s->crc), "%u", sl_crc32(0, r->body.p, r->body.len));
      r->headers[i].value = sl_str_make(s->crc, (size_t)n);
    }
  }
}

/* ---- connection helpers ------------------------------------------------- */

static void read_start(conn *c);

static void on_conn_closed(uv_handle_t *h) {
  conn *c = h->data;
  if (--c->handles > 0)
    return;
  sl_server *s = c->srv;
  free(c->rbuf);
  sl_buf_free(&c->out);
  sl_buf_free(&c->wbuf);
  if (c->refused)
    s->n_refused--;
  free(c);
  s->n_conns--;
  server_maybe_done(s);
}

/* Closes the connection; with 'reset', with a TCP reset and nothing more
 * sent (sl_http_response.reset). */
static void conn_close_as(conn *c, bool reset) {
  if (c->state == CLOSING)
    return;
  c->state = CLOSING;
  sl_server *s = c->srv;
  if (c->held) {
    c->held = false;
    s->n_held--;
  }
  if (c->prev)
    c->prev->next = c->next;
  else
    s->conns = c->next;
  if (c->next)
    c->next->prev = c->prev;
  if (!reset || uv_tcp_close_reset(&c->tcp, on_conn_closed) != 0)
    uv_close((uv_handle_t *)&c->tcp, on_conn_closed);
  uv_close((uv_handle_t *)&c->timer, on_conn_closed);
  uv_close((uv_handle_t *)&c->delay, on_conn_closed);
}

static void conn_close(conn *c) { conn_close_as(c, false); }

static void read_stop(conn *c) {
  if (c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = false;
  }
}

static size_t conn_queued(const conn *c) {
  return c->out.len + (c->writing ? c->tcp.write_queue_size : 0);
}

static void on_timer(uv_timer_t *t);

/* Sets the connection's deadline to 'ms' from now. */
static void conn_deadline(conn *c, uint64_t ms) {
  uint64_t now = uv_now(c->srv->loop);
  c->deadline = now + ms;
  if (!uv_is_active((uv_handle_t *)&c->timer) || c->timer_due > c->deadline) {
    uv_timer_start(&c->timer, on_timer, ms, 0);
    c->timer_due = c->deadline;
  }
}

/* Ends answering on the connection: it closes once its queued responses are
 * written. */
static void conn_finish(conn *c, uint64_t grace_ms) {
  if (c->state != OPEN)
    return;
  c->state = DRAINING;
  c->paused = false;
  read_stop(c);
  conn_deadline(c, grace_ms);
  if (!c->busy)
    conn_flush(c);
}

/* Queues an error reply of the server's own and closes after it: with a
 * 'message', in the service's JSON error shape (as a SerializationException),
 * otherwise as plain text, the reason phrase. */
static void conn_fail_as(conn *c, int status, sl_err code, const char *message) {
  sl_server *s = c->srv;
  sl_http_response *r = &s->resp;
  error_reply(s, NULL, r, status, code, message);
  put_response(s, &c->out, r, cors_lines(s, NULL, false), true, false, false);
  r->n_headers = 0;
  conn_finish(c, s->cfg.idle_timeout_ms);
}

static void conn_fail(conn *c, int status, const char *message) {
  sl_server *s = c->srv;
  if (message) {
    conn_fail_as(c, status, SL_E_SERIALIZATION, message);
    return;
  }
  char tmp[40];
  sl_str line = status_line(status, tmp, sizeof(tmp));
  sl_http_response r = {.status = status, .content_type = SL_STR("text/plain")};
  /* The body is the reason phrase: the status line minus "HTTP/1.1 NNN ". */
  char text[64];
  size_t n = line.len - 13 - 2;
  memcpy(text, line.p + 13, n);
  text[n++] = '\n';
  r.body = (sl_buf){text, n, n, NULL};
  put_response(s, &c->out, &r, cors_lines(s, NULL, false), true, false, false);
  conn_finish(c, s->cfg.idle_timeout_ms);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  conn *c = req->handle->data;
  if (c->state != SHUTTING)
    return;
  if (status < 0 || c->eof || c->srv->stopping) {
    conn_close(c);
    return;
  }
  c->state = LINGER;
  c->rpos = c->rlen = 0;
  read_start(c);
  conn_deadline(c, LINGER_MS);
}

/* Everything queued has been written. */
static void conn_drained(conn *c) {
  if (c->state == DRAINING) {
    c->state = SHUTTING;
    if (uv_shutdown(&c->sreq, (uv_stream_t *)&c->tcp, on_shutdown) != 0)
      conn_close(c);
  } else if (c->state == OPEN && c->paused && !c->busy) {
    c->paused = false;
    read_start(c);
    conn_process(c);
  }
}

static void on_write(uv_write_t *req, int status) {
  conn *c = req->handle->data;
  c->writing = false;
  c->wbuf.len = 0;
  if (c->wbuf.cap > BUF_KEEP)
    sl_buf_free(&c->wbuf);
  if (c->state == CLOSING)
    return;
  if (status < 0) {
    conn_close(c);
    return;
  }
  conn_flush(c);
}

/* Writes what is queued: directly when the socket takes it all, otherwise
 * hands 'out' to uv_write and collects new responses in the other buffer. */
static void conn_flush(conn *c) {
  if (c->writing || c->state == CLOSING || c->delayed)
    return;
  if (c->held)
    return; /* sent when its sync has ended (sync_ended), closing or not */
  if (c->out.len > 0) {
    uv_buf_t b = uv_buf_init(c->out.p, (unsigned)c->out.len);
    int n = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
    if (n < 0 && n != UV_EAGAIN) {
      conn_close(c);
      return;
    }
    size_t done = n > 0 ? (size_t)n : 0;
    if (done < c->out.len) {
      sl_buf t = c->wbuf;
      c->wbuf = c->out;
      c->out = t;
      b = uv_buf_init(c->wbuf.p + done, (unsigned)(c->wbuf.len - done));
      if (uv_write(&c->wreq, (uv_stream_t *)&c->tcp, &b, 1, on_write) != 0) {
        conn_close(c);
        return;
      }
      c->writing = true;
      return;
    }
    c->out.len = 0;
    if (c->out.cap > BUF_KEEP)
      sl_buf_free(&c->out);
  }
  conn_drained(c);
}

/* ---- reading and request processing ------------------------------------ */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void)suggested;
  conn *c = h->data;
  if (c->rcap - c->rlen < READ_MIN_FREE) {
    /* Grow by doubling, so memory follows the bytes actually received (a
     * head announcing a large body costs nothing until the body comes), but
     * not past what the current request needs, when that is known. */
    size_t need = c->rlen + READ_MIN_FREE;
    size_t cap = c->rcap ? c->rcap * 2 : READ_INITIAL;
    if (c->rwant > c->rlen && cap > c->rwant)
      cap = c->rwant;
    if (cap < need)
      cap = need;
    char *p = realloc(c->rbuf, cap);
    if (!p)
      sl_panic("out of memory (%zu bytes)", cap);
    c->rbuf = p;
    c->rcap = cap;
  }
  *buf = uv_buf_init(c->rbuf + c->rlen, (unsigned)(c->rcap - c->rlen));
}

static void read_start(conn *c) {
  if (!c->reading && uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0)
    c->reading = true;
}

/* A delayed response's time has come: it goes out, then the requests
 * that arrived behind it are answered. */
static void on_delay(uv_timer_t *t) {
  conn *c = t->data;
  if (c->state == CLOSING) {
    c->delayed = false;
    return;
  }
  /* libuv's timers count whole ms from the loop's cached time, so one may
   * fire up to a ms early: the delay is a lower bound, wait out the rest. */
  uint64_t now = uv_hrtime();
  if (now < c->delay_due) {
    uv_timer_start(&c->delay, on_delay, (c->delay_due - now + 999999) / 1000000, 0);
    return;
  }
  c->delayed = false;
  if (c->state == OPEN && !c->busy)
    conn_process(c); /* flushes at its end */
  else
    conn_flush(c);
}

/* Calls the handler for one complete request and queues its response. */
static void conn_respond(conn *c, sl_http_request *req) {
  sl_server *s = c->srv;
  sl_http_response *r = &s->resp;
  r->status = 200;
  r->content_type = SL_STR_NULL;
  r->n_headers = 0;
  r->body.len = 0;
  r->close = false;
  r->hold = false;
  r->delay_ms = 0;
  r->reset = false;
  bool head = sl_str_eq_c(req->method, "HEAD");
  sl_str extra;
  if (sl_str_eq_c(req->method, "OPTIONS")) {
    /* A CORS preflight: answered here for every path. */
    extra = cors_lines(s, req, true);
  } else {
    if (decode_body(s, req, r)) {
      s->handler(s->ctx, req, r);
      if (!head)
        maybe_compress(s, req, r);
    }
    extra = cors_lines(s, req, false);
  }
  if (r->reset) {
    /* Nothing of this answer, nor of the ones queued before it, is sent. */
    c->out.len = 0;
    conn_close_as(c, true);
    return;
  }
  bool close = !req->keep_alive || r->close || s->stopping;
  put_response(s, &c->out, r, extra, close, req->minor_version == 0, head);
  if (r->hold && s->has_barrier) {
    if (!c->held) {
      c->held = true;
      s->n_held++;
    }
    /* Also when the connection's earlier answers wait for a sync under
     * way: this one waits for the next, and they with it (one buffer). */
    c->held_gen = 0;
  }
  if (r->delay_ms > 0) {
    c->delayed = true;
    c->delay_due = uv_hrtime() + (uint64_t)r->delay_ms * 1000000;
    uv_timer_start(&c->delay, on_delay, r->delay_ms, 0);
  }
  if (r->body.cap > BUF_KEEP)
    sl_buf_free(&r->body);
  if (s->zbuf.cap > BUF_KEEP)
    sl_buf_free(&s->zbuf);
  if (s->inbody.cap > BUF_KEEP)
    sl_buf_free(&s->inbody);
  s->inbody.len = 0;
  if (close)
    conn_finish(c, s->stopping ? STOP_GRACE_MS : s->cfg.idle_timeout_ms);
}

/* The body has not fully arrived: tell a client that waits for it to send. */
static void conn_maybe_continue(conn *c, const sl_http_request *req) {
  if (req->expect_continue && !c->continue_sent) {
    sl_buf_append(&c->out, "HTTP/1.1 100 Continue\r\n\r\n", 25);
    c->continue_sent = true;
  }
}

/* The answer to a request line or header section over max_head_bytes (or
 * with more than SL_HTTP_MAX_HEADERS fields). The service's own text for it
 * is not known; its shape (a 400 with a JSON error body) is that of its
 * front end's other refusals. */
#define HEAD_TOO_LARGE "The request line or header fields are too large"

/* Answers every complete request buffered, in order. */
static void conn_process(conn *c) {
  sl_server *s = c->srv;
  sl_http_request *req = &s->req;
  const sl_server_config *cfg = &s->cfg;
  c->busy = true;
  while (c->state == OPEN && !c->delayed) {
    if (conn_queued(c) >= WRITE_HIGH) {
      conn_flush(c);
      if (c->state != OPEN)
        break;
      if (conn_queued(c) >= WRITE_HIGH) {
        c->paused = true;
        read_stop(c);
        break;
      }
    }
    char *p = c->rbuf + c->rpos;
    size_t n = c->rlen - c->rpos, head_len = 0;
    if (n == 0)
      break;
    /* A head ends with LF: if the bytes that arrived since the last attempt
     * hold none, it is still incomplete (this keeps a client that sends its
     * head byte by byte from costing quadratic time). */
    int st = SL_HTTP_INCOMPLETE;
    if (c->head_seen < HEAD_HINT || memchr(p + c->head_seen, '\n', n - c->head_seen))
      st = sl_http_parse_head(p, n, req, &head_len);
    if (st == SL_HTTP_INCOMPLETE) {
      if (n > cfg->max_head_bytes)
        conn_fail(c, 400, HEAD_TOO_LARGE);
      c->head_seen = n;
      break;
    }
    c->head_seen = 0;
    if (st == SL_HTTP_TOO_MANY_HEADERS || (st == SL_HTTP_OK && head_len > cfg->max_head_bytes)) {
      conn_fail(c, 400, HEAD_TOO_LARGE);
      break;
    }
    if (st != SL_HTTP_OK) {
      conn_fail(c, 400, NULL);
      break;
    }
    size_t total;
    if (req->chunked) {
      size_t body_len, consumed;
      int rc = sl_http_dechunk_resume(p + head_len, n - head_len, cfg->max_body_bytes, &c->chunk,
                                      &body_len, &consumed);
      uint64_t encoded_cap = cfg->max_body_bytes * 2 + 64 * 1024;
      if (rc == SL_HTTP_TOO_LARGE || (rc == SL_HTTP_INCOMPLETE && n - head_len > encoded_cap)) {
        conn_fail(c, 413, NULL);
        break;
      }
      if (rc == SL_HTTP_BAD) {
        conn_fail(c, 400, NULL);
        break;
      }
      if (rc == SL_HTTP_INCOMPLETE) {
        conn_maybe_continue(c, req);
        break;
      }
      req->body = sl_str_make(p + head_len, body_len);
      total = head_len + consumed;
    } else {
      if (req->content_length > cfg->max_body_bytes) {
        conn_fail(c, 413, NULL);
        break;
      }
      if (n - head_len < req->content_length) {
        c->rwant = head_len + (size_t)req->content_length;
        conn_maybe_continue(c, req);
        break;
      }
      req->body = sl_str_make(p + head_len, (size_t)req->content_length);
      total = head_len + (size_t)req->content_length;
    }
    c->rpos += total;
    c->rwant = 0;
    c->chunk = (sl_http_dechunk_state){0, 0};
    c->in_request = false;
    c->continue_sent = false;
    conn_respond(c, req);
  }

  /* Keep the unprocessed bytes at the start of the buffer. */
  if (c->rpos == c->rlen) {
    c->rpos = c->rlen = 0;
    if (c->rcap > BUF_KEEP) {
      free(c->rbuf);
      c->rbuf = NULL;
      c->rcap = 0;
    }
  } else if (c->rpos > 0) {
    memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
    c->rlen -= c->rpos;
    c->rpos = 0;
  }
  if (c->state == OPEN && s->stopping)
    conn_finish(c, STOP_GRACE_MS);
  if (c->state == OPEN) {
    if (c->paused || c->rlen == 0) {
      c->in_request = false;
      conn_deadline(c, cfg->idle_timeout_ms);
    } else if (!c->in_request) {
      c->in_request = true;
      conn_deadline(c, cfg->request_timeout_ms);
    }
  }
  c->busy = false;
  conn_flush(c);
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
  (void)buf; /* always c->rbuf + c->rlen */
  conn *c = stream->data;
  if (nread > 0) {
    if (c->state == OPEN) {
      c->rlen += (size_t)nread;
      conn_process(c);
    }
    /* LINGER (and any other state): discard. */
  } else if (nread < 0) {
    if (nread == UV_EOF && c->state == OPEN) {
      /* Half-close: answer what is complete (done already), then close. */
      c->eof = true;
      conn_finish(c, c->srv->cfg.idle_timeout_ms);
    } else {
      conn_close(c);
    }
  }
}

static void on_timer(uv_timer_t *t) {
  conn *c = t->data;
  uint64_t now = uv_now(c->srv->loop);
  if (now < c->deadline) {
    uv_timer_start(&c->timer, on_timer, c->deadline - now, 0);
    c->timer_due = c->deadline;
    return;
  }
  if ((c->held || c->delayed) && c->state != CLOSING) {
    /* Its answer waits for a sync under way or for its delay: the server is
     * the one that is late, so neither the idle nor the request timeout of
     * the requests behind it runs out. */
    conn_deadline(c, c->srv->cfg.idle_timeout_ms);
    return;
  }
  if (c->state == OPEN && c->in_request && !c->paused)
    conn_fail(c, 408, NULL);
  else
    conn_close(c);
}

static void accept_one(sl_server *s);

/* Accept storms: libuv's listener calls on_connection for every connection
 * in the kernel's queue before the loop reads anything else, so 10,000
 * arriving at once would hold up every open connection's request for the
 * whole storm. After SL_SERVER_ACCEPT_BATCH in one loop turn, on_connection
 * returns without uv_accept: libuv then stops watching the listener, keeps
 * the connection, and the next turn accepts it (uv_accept restarts the
 * watcher) after the other ready connections were served. */
static void on_turn(uv_prepare_t *h) {
  sl_server *s = h->data;
  s->accepted = 0;
}

static void on_resume(uv_idle_t *h) {
  sl_server *s = h->data;
  uv_idle_stop(h);
  s->accepted = 0;
  if (s->deferred && !s->stopping) {
    s->deferred = false;
    accept_one(s);
  }
}

static void on_connection(uv_stream_t *listener, int status) {
  sl_server *s = listener->data;
  if (status == 0 && ++s->accepted > SL_SERVER_ACCEPT_BATCH) {
    s->deferred = true;
    uv_idle_start(&s->resume, on_resume);
    return;
  }
  if (status < 0) {
    /* EMFILE/ENFILE: libuv has accepted and closed the connection. */
    uint64_t now = uv_now(s->loop);
    if (!s->accept_warned || now - s->accept_warned >= 1000) {
      s->accept_warned = now;
      sl_warn("accept: %s (%zu connections open)", uv_strerror(status), s->n_conns);
    }
    return;
  }
  accept_one(s);
}

static void accept_one(sl_server *s) {
  uv_stream_t *listener = (uv_stream_t *)&s->listener;
  conn *c = calloc(1, sizeof(*c));
  if (!c)
    sl_panic("out of memory");
  c->srv = s;
  uv_tcp_init(s->loop, &c->tcp);
  uv_timer_init(s->loop, &c->timer);
  uv_timer_init(s->loop, &c->delay);
  c->tcp.data = c->timer.data = c->delay.data = c;
  c->handles = 3;
  sl_buf_init(&c->out, NULL);
  sl_buf_init(&c->wbuf, NULL);
  c->next = s->conns;
  if (s->conns)
    s->conns->prev = c;
  s->conns = c;
  s->n_conns++;
  if (uv_accept(listener, (uv_stream_t *)&c->tcp) != 0) {
    conn_close(c);
    return;
  }
  uv_tcp_nodelay(&c->tcp, 1);
  if (s->n_conns - s->n_refused > s->cfg.max_connections) {
    c->refused = true;
    s->n_refused++;
    conn_fail_as(c, 503, SL_E_SERVICE_UNAVAILABLE,
                 "The server is at its connection limit (--max-connections); retry later");
    conn_deadline(c, LINGER_MS);
    return;
  }
  read_start(c);
  conn_deadline(c, s->cfg.idle_timeout_ms);
}

/* Raises the soft descriptor limit as far as 'want' (at most to the hard
 * limit); warns when the hard limit is lower. */
static void raise_fd_limit(rlim_t want) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= want)
    return;
  rlim_t to = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ? rl.rlim_max : want;
  if (to > rl.rlim_cur) {
    struct rlimit nl = {to, rl.rlim_max};
    if (setrlimit(RLIMIT_NOFILE, &nl) == 0)
      rl.rlim_cur = to;
  }
  if (rl.rlim_cur < want)
    sl_warn("descriptor limit %llu (hard %llu) is below the %llu that --max-connections "
            "needs: connections beyond it are reset",
            (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max,
            (unsigned long long)want);
}

/* ---- the server --------------------------------------------------------- */

static void on_signal(uv_signal_t *h, int signum) {
  sl_info("signal %d: stopping", signum);
  sl_server_stop(h->data);
}

static void on_failed_close(uv_handle_t *h) { free(h->data); }

/* Group commit, in generations: a sync begins (barrier.begin, loop thread)
 * for the responses held so far, runs on a libuv pool thread (barrier.run:
 * the fsync) while the loop serves the next requests, and ends on the loop
 * (barrier.end); then the responses it covers go out. A sync covers every
 * commit before its begin, so the end of sync N releases every response
 * held for N or earlier, even if an earlier sync is still running. Up to
 * SYNCS_MAX run at once: responses held while one runs get the next at the
 * end of the same loop iteration instead of waiting for it to end (which
 * made each write wait for up to two fsyncs). With a single connection open
 * the sync runs on the loop (on_check). */
static void sync_run(uv_work_t *w) {
  sync_job *j = (sync_job *)w;
  j->rc = j->srv->barrier.run(j->srv->barrier.ctx);
}

/* The held responses of syncs up to 'gen' go out. */
static void release_held(sl_server *s, uint64_t gen) {
  for (conn *c = s->conns, *next; c; c = next) {
    next = c->next;
    if (!c->held || !c->held_gen || c->held_gen > gen)
      continue;
    c->held = false;
    c->held_gen = 0;
    s->n_held--;
    if (!c->busy)
      conn_flush(c);
  }
}

static void sync_ended(uv_work_t *w, int status) {
  (void)status; /* never cancelled: the work is not */
  sync_job *j = (sync_job *)w;
  sl_server *s = j->srv;
  j->busy = false;
  s->syncing--;
  s->barrier.end(s->barrier.ctx, j->rc);
  if (j->gen > s->gen_done)
    s->gen_done = j->gen;
  release_held(s, s->gen_done);
}

/* A sync for every response held that no sync under way covers: begun on
 * the loop, run on a pool thread, or, when 'here', on the loop thread now
 * (a single connection open, nothing to serve meanwhile; or the server
 * stopping). */
static void begin_sync(sl_server *s, bool here) {
  /* The responses no sync under way covers get the one about to begin. */
  uint64_t gen = s->gen_begun + 1;
  size_t fresh = 0;
  for (conn *c = s->conns; c; c = c->next)
    if (c->held && !c->held_gen) {
      c->held_gen = gen;
      fresh++;
    }
  if (!fresh && !s->want_sync)
    return; /* every held response waits for a sync under way */
  s->want_sync = false;
  if (!s->barrier.begin(s->barrier.ctx)) {
    /* Nothing committed since the last sync began: what is held waits for
     * the syncs under way, or for none. */
    if (!s->syncing) {
      release_held(s, UINT64_MAX);
      return;
    }
    for (conn *c = s->conns; c; c = c->next)
      if (c->held && c->held_gen == gen)
        c->held_gen = s->gen_begun;
    return;
  }
  s->gen_begun = gen;
  sync_job here_job = {0}, *j = &here_job;
  if (!here) {
    j = &s->jobs[0];
    while (j->busy)
      j++;
  }
  j->busy = true;
  j->srv = s;
  j->gen = gen;
  s->syncing++;
  if (here || uv_queue_work(s->loop, &j->work, sync_run, sync_ended) != 0) {
    sync_run(&j->work);
    sync_ended(&j->work, 0);
  }
}

/* After the loop's I/O: a sync for every response held in this iteration
 * (and before) that no sync under way covers, if fewer than SYNCS_MAX run.
 * With one connection open (or none) there is nothing to serve while the
 * sync runs, and the hand-off to a pool thread and back would only add its
 * wake-ups to every answer: the sync runs here, as it does when there is no
 * pool. */
static void on_check(uv_check_t *h) {
  sl_server *s = h->data;
  if ((!s->n_held && !s->want_sync) || s->syncing >= SYNCS_MAX)
    return;
  begin_sync(s, s->n_conns <= 1);
}

void sl_server_set_barrier(sl_server *s, const sl_server_barrier *b) {
  s->has_barrier = b != NULL;
  if (b)
    s->barrier = *b;
  if (b && !uv_is_active((uv_handle_t *)&s->check)) {
    uv_check_start(&s->check, on_check);
    uv_unref((uv_handle_t *)&s->check); /* it never keeps the loop alive */
  }
}

void sl_server_sync_soon(sl_server *s) {
  if (s->has_barrier)
    s->want_sync = true;
}

sl_server *sl_server_create(void *uv_loop, const sl_server_config *cfg, sl_http_handler h,
                            void *ctx) {
  sl_server_config def;
  sl_server_config_default(&def);
  sl_server *s = calloc(1, sizeof(*s));
  if (!s)
    sl_panic("out of memory");
  s->loop = uv_loop ? uv_loop : uv_default_loop();
  s->cfg = *cfg;
  if (!s->cfg.bind)
    s->cfg.bind = def.bind;
  if (!s->cfg.max_head_bytes)
    s->cfg.max_head_bytes = def.max_head_bytes;
  if (!s->cfg.max_body_bytes)
    s->cfg.max_body_bytes = def.max_body_bytes;
  if (!s->cfg.idle_timeout_ms)
    s->cfg.idle_timeout_ms = def.idle_timeout_ms;
  if (!s->cfg.request_timeout_ms)
    s->cfg.request_timeout_ms = def.request_timeout_ms;
  if (!s->cfg.max_connections)
    s->cfg.max_connections = def.max_connections;
  raise_fd_limit((rlim_t)s->cfg.max_connections + SL_SERVER_FD_RESERVE);
  s->handler = h;
  s->ctx = ctx;
  sl_buf_init(&s->resp.body, NULL);
  sl_buf_init(&s->inbody, NULL);
  sl_buf_init(&s->zbuf, NULL);
  sl_buf_init(&s->extra, NULL);
  s->rng = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)s;
  if (!s->rng)
    s->rng = 1;
  signal(SIGPIPE, SIG_IGN);

  union {
    struct sockaddr sa;
    struct sockaddr_in in4;
    struct sockaddr_in6 in6;
  } addr;
  int rc = strchr(s->cfg.bind, ':') ? uv_ip6_addr(s->cfg.bind, s->cfg.port, &addr.in6)
                                    : uv_ip4_addr(s->cfg.bind, s->cfg.port, &addr.in4);
  if (rc != 0) {
    sl_error("bad bind address '%s': %s", s->cfg.bind, uv_strerror(rc));
    free(s);
    return NULL;
  }
  uv_tcp_init(s->loop, &s->listener);
  s->listener.data = s;
  rc = uv_tcp_bind(&s->listener, &addr.sa, 0);
  if (rc == 0)
    rc = uv_listen((uv_stream_t *)&s->listener, 4096, on_connection);
  int len = sizeof(addr);
  if (rc == 0)
    rc = uv_tcp_getsockname(&s->listener, &addr.sa, &len);
  if (rc != 0) {
    sl_error("cannot listen on %s:%d: %s", s->cfg.bind, s->cfg.port, uv_strerror(rc));
    uv_close((uv_handle_t *)&s->listener, on_failed_close);
    uv_run(s->loop, UV_RUN_NOWAIT); /* runs the close callback, which frees 's' */
    return NULL;
  }
  s->port = ntohs(addr.sa.sa_family == AF_INET6 ? addr.in6.sin6_port : addr.in4.sin_port);
  s->handles = 4; /* the listener, the check, the turn and the resume handles */
  uv_check_init(s->loop, &s->check);
  s->check.data = s;
  uv_prepare_init(s->loop, &s->turn);
  uv_idle_init(s->loop, &s->resume);
  s->turn.data = s->resume.data = s;
  uv_prepare_start(&s->turn, on_turn);
  uv_unref((uv_handle_t *)&s->turn); /* it never keeps the loop alive */

  if (s->cfg.handle_signals) {
    uv_signal_init(s->loop, &s->sigint);
    uv_signal_init(s->loop, &s->sigterm);
    s->sigint.data = s->sigterm.data = s;
    uv_signal_start(&s->sigint, on_signal, SIGINT);
    uv_signal_start(&s->sigterm, on_signal, SIGTERM);
    s->handles += 2;
  }
  return s;
}

int sl_server_port(const sl_server *s) { return s->port; }

size_t sl_server_connections(const sl_server *s) { return s->n_conns; }

void sl_server_stop(sl_server *s) {
  if (s->stopping)
    return;
  s->stopping = true;
  /* The check handle that begins syncs closes now: the responses held for a
   * sync not begun yet get one last sync here, on the loop thread (held
   * ones re-armed their deadlines while waiting, so the server never
   * stopped). Those of a sync under way go out when it ends, as before. */
  if (s->has_barrier && s->n_held)
    begin_sync(s, true);
  uv_close((uv_handle_t *)&s->listener, on_server_handle_closed);
  uv_close((uv_handle_t *)&s->check, on_server_handle_closed);
  uv_close((uv_handle_t *)&s->turn, on_server_handle_closed);
  uv_close((uv_handle_t *)&s->resume, on_server_handle_closed);
  if (s->cfg.handle_signals) {
    uv_close((uv_handle_t *)&s->sigint, on_server_handle_closed);
    uv_close((uv_handle_t *)&s->sigterm, on_server_handle_closed);
  }
  for (every *e = s->timers, *next; e; e = next) {
    next = e->next;
    uv_close((uv_handle_t *)&e->timer, on_every_closed);
  }
  s->timers = NULL;
  for (conn *c = s->conns, *next; c; c = next) {
    next = c->next;
    if (c->busy) /* the handler stopped the server: conn_process finishes it */
      continue;
    if (c->state == OPEN && !c->writing && c->out.len == 0)
      conn_close(c);
    else if (c->state == OPEN)
      conn_finish(c, STOP_GRACE_MS);
    else if (c->state == DRAINING)
      conn_deadline(c, STOP_GRACE_MS);
    else if (c->state == LINGER)
      conn_close(c);
  }
  server_maybe_done(s);
}

int sl_server_run(sl_server *s) {
  while (!s->done && uv_run(s->loop, UV_RUN_DEFAULT) != 0)
    ;
  return s->done ? 0 : -1;
}

void sl_server_destroy(sl_server *s) {
  if (!s)
    return;
  sl_server_stop(s);
  while (!s->done)
    uv_run(s->loop, UV_RUN_ONCE);
  sl_buf_free(&s->resp.body);
  sl_buf_free(&s->inbody);
  sl_buf_free(&s->zbuf);
  sl_buf_free(&s->extra);
  free(s);
}

static void on_every(uv_timer_t *t) {
  every *e = t->data;
  e->fn(e->ctx);
}

void sl_server_every(sl_server *s, uint64_t period_ms, void (*fn)(void *ctx), void *ctx) {
  if (s->stopping)
    return;
  every *e = calloc(1, sizeof(*e));
  if (!e)
    sl_panic("out of memory");
  e->srv = s;
  e->fn = fn;
  e->ctx = ctx;
  uv_timer_init(s->loop, &e->timer);
  e->timer.data = e;
  uv_timer_start(&e->timer, on_every, period_ms, period_ms);
  e->next = s->timers;
  s->timers = e;
  s->handles++;
}
