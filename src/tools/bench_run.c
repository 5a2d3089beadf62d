/*
 * bench_run.c — one executor of `sluice bench`: plays its share of the
 * schedule open loop over non-blocking keep-alive connections and writes
 * what it counted to its results file. The design is in tools/bench.h.
 */
#include "tools/bench.h"

#include "base/base64.h"

#include "base/arena.h"
#include "base/json.h"
#include "net/http.h"
#include "net/sigv4.h"
#include "net/tls.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

volatile int sl_bench_interrupted;

const char *const sl_bench_kind_names[SL_BENCH_N_KINDS] = {
    "put",  "get",         "get-strong", "update",         "query",
    "scan", "batch-write", "batch-get",  "transact-write", "query-index",
};

static const char *const targets[SL_BENCH_N_KINDS] = {
    "PutItem", "GetItem",        "GetItem",      "UpdateItem",         "Query",
    "Scan",    "BatchWriteItem", "BatchGetItem", "TransactWriteItems", "Query",
};

static bool kind_reads(int kind) {
  return kind == SL_BENCH_GET || kind == SL_BENCH_GET_STRONG || kind == SL_BENCH_QUERY ||
         kind == SL_BENCH_SCAN || kind == SL_BENCH_BATCH_GET || kind == SL_BENCH_QUERY_INDEX;
}

#define MAX_NAMES 64

typedef struct {
  uint64_t op, key;
  int64_t due_ns, sent_ns;
  uint32_t sec;
  uint16_t win;
  uint8_t kind, page;
  sl_buf last_key; /* the page's ExclusiveStartKey (Query/Scan pages after the first) */
} op_t;

enum { C_CLOSED, C_CONNECTING, C_HANDSHAKE, C_IDLE, C_WRITING, C_READING };

typedef struct {
  int fd, state;
  short want;  /* poll events TLS asked for (0: the state's own) */
  uint32_t ev; /* the epoll events registered for fd (0: none) */
  sl_tls *tls;
  op_t op;
  sl_buf out, in;
  size_t out_off;
  int64_t deadline_ns;
} conn_t;

typedef struct {
  uint64_t offered, sent, ok, throttled, errors, unprocessed;
  double read_units, write_units;
  sl_bench_hist *hist;
  uint32_t *cnt; /* MAX_NAMES */
} sec_t;

typedef struct {
  const sl_bench_config *cfg;
  unsigned index;
  sl_bench_keys keys;
  sl_bench_rng rng;
  unsigned mix_total;
  struct sockaddr_storage addr;
  socklen_t addr_len;
  conn_t *conns;
  unsigned n_conns;
  op_t *backlog; /* a ring */
  size_t bl_head, bl_len, bl_cap;
  sec_t *secs;
  size_t n_secs;
  double first[SL_BENCH_MAX_WINDOWS];
  char names[MAX_NAMES][96];
  unsigned n_names;
  uint64_t sent_total;
  sl_arena arena;
  sl_buf body, auth;
  sl_tls_ctx *tls_ctx;
  int epfd; /* one epoll set of the connections (closing an fd leaves it) */
} ex_t;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static unsigned name_id(ex_t *e, const char *prefix, sl_str name) {
  char buf[96];
  snprintf(buf, sizeof(buf), "%s:%.*s", prefix, (int)(name.len > 80 ? 80 : name.len), name.p);
  for (size_t i = 0; buf[i]; i++)
    if (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r')
      buf[i] = '_';
  for (unsigned i = 0; i < e->n_names; i++)
    if (strcmp(e->names[i], buf) == 0)
      return i;
  if (e->n_names == MAX_NAMES)
    return MAX_NAMES - 1; /* the last slot collects the rest */
  if (e->n_names == MAX_NAMES - 1)
    snprintf(buf, sizeof(buf), "other:more-names");
  snprintf(e->names[e->n_names], sizeof(e->names[0]), "%s", buf);
  return e->n_names++;
}

/* Bumps a live counter of this executor (tools/bench.h, Progress). */
#define PROGRESS(e, field)                                                                         \
  do {                                                                                             \
    if ((e)->cfg->progress)                                                                        \
      __atomic_fetch_add(&(e)->cfg->progress[(e)->index].field, 1, __ATOMIC_RELAXED);              \
  } while (0)

static sec_t *sec_of(ex_t *e, uint32_t s) { return &e->secs[s < e->n_secs ? s : e->n_secs - 1]; }

static void count(ex_t *e, uint32_t s, const char *prefix, sl_str name) {
  sec_t *sec = sec_of(e, s);
  if (!sec->cnt)
    sec->cnt = calloc(MAX_NAMES, sizeof(uint32_t));
  sec->cnt[name_id(e, prefix, name)]++;
}

/* --- request bodies ------------------------------------------------------ */

/* A key value: N the number; S "k" and ten digits (a partition key) or six
 * digits (a sort key); B the bytes of that string, base64 on the wire. */
static void put_key_value(sl_buf *b, char type, uint64_t v, bool pk) {
  if (type == 'N') {
    sl_buf_printf(b, "{\"N\":\"%llu\"}", (unsigned long long)v);
    return;
  }
  char text[32], b64[48];
  int n = snprintf(text, sizeof(text), pk ? "k%010llu" : "%06llu", (unsigned long long)v);
  if (type == 'B') {
    size_t m = sl_base64_encode(text, (size_t)n, b64);
    sl_buf_printf(b, "{\"B\":\"%.*s\"}", (int)m, b64);
  } else {
    sl_buf_printf(b, "{\"S\":\"%s\"}", text);
  }
}

static void put_name(sl_buf *b, const char *name) {
  sl_buf_putc(b, '"');
  sl_json_escape(b, sl_str_c(name));
  sl_buf_putc(b, '"');
}

/* The key {pk, sk} of key index 'key' and sort value 'sort'. */
static void put_key(const sl_bench_config *c, sl_buf *b, uint64_t key, uint64_t sort) {
  sl_buf_putc(b, '{');
  put_name(b, c->pk);
  sl_buf_putc(b, ':');
  put_key_value(b, c->pk_type, key, true);
  if (c->sk[0]) {
    sl_buf_putc(b, ',');
    put_name(b, c->sk);
    sl_buf_putc(b, ':');
    put_key_value(b, c->sk_type, sort, false);
  }
  sl_buf_putc(b, '}');
}

/* An item of about cfg->item_size bytes as DynamoDB sizes it: attribute
 * names plus values, the padding in a string attribute "data". */
void sl_bench_item_json(const sl_bench_config *c, uint64_t key, uint64_t sort, sl_buf *b) {
  put_key(c, b, key, sort);
  b->len--; /* reopen the object */
  /* The key's size: names plus values. */
  size_t key_size = strlen(c->pk) + (c->pk_type == 'N' ? 6 : 11) +
                    (c->sk[0] ? strlen(c->sk) + (c->sk_type == 'N' ? 3 : 6) : 0);
  for (unsigned i = 0; i < c->n_gattrs; i++) {
    sl_buf_putc(b, ',');
    put_name(b, c->gattr[i]);
    sl_buf_putc(b, ':');
    put_key_value(b, c->gattr_type[i], key % c->gsi_keys, true);
    key_size += strlen(c->gattr[i]) + (c->gattr_type[i] == 'N' ? 6 : 11);
  }
  size_t pad = c->item_size > key_size + 4 ? c->item_size - key_size - 4 : 1;
  sl_buf_puts(b, SL_STR(",\"data\":{\"S\":\""));
  sl_buf_reserve(b, pad);
  memset(b->p + b->len, 'x', pad);
  b->len += pad;
  sl_buf_puts(b, SL_STR("\"}}"));
}

static uint64_t sort_of(ex_t *e) {
  return e->cfg->collection > 1 ? sl_bench_rng_next(&e->rng) % e->cfg->collection : 0;
}

/* Picks up to n distinct (key, sort) pairs for a batch. */
static unsigned pick_distinct(ex_t *e, const op_t *op, unsigned n, uint64_t *keys,
                              uint64_t *sorts) {
  unsigned got = 0;
  for (unsigned i = 0; i < n; i++) {
    for (int tries = 0; tries < 20; tries++) {
      uint64_t k = e->keys.kind == SL_BENCH_KEYS_SEQUENTIAL
                       ? sl_bench_keys_pick(&e->keys, &e->rng, op->op * n + i)
                       : sl_bench_keys_pick(&e->keys, &e->rng, op->op);
      uint64_t s = sort_of(e);
      bool dup = false;
      for (unsigned j = 0; j < got && !dup; j++)
        dup = keys[j] == k && sorts[j] == s;
      if (!dup) {
        keys[got] = k;
        sorts[got++] = s;
        break;
      }
    }
  }
  return got;
}

static void build_body(ex_t *e, op_t *op, sl_buf *b) {
  const sl_bench_config *c = e->cfg;
  b->len = 0;
  sl_buf_printf(b, "{\"ReturnConsumedCapacity\":\"TOTAL\"");
  uint64_t sort = op->page == 0 ? sort_of(e) : 0;
  switch (op->kind) {
  case SL_BENCH_PUT:
    sl_buf_printf(b, ",\"TableName\":\"%s\",\"Item\":", c->table);
    sl_bench_item_json(c, op->key, sort, b);
    break;
  case SL_BENCH_GET:
  case SL_BENCH_GET_STRONG:
    sl_buf_printf(b, ",\"TableName\":\"%s\",\"ConsistentRead\":%s,\"Key\":", c->table,
                  op->kind == SL_BENCH_GET_STRONG ? "true" : "false");
    put_key(c, b, op->key, sort);
    break;
  case SL_BENCH_UPDATE:
    sl_buf_printf(b,
                  ",\"TableName\":\"%s\",\"UpdateExpression\":\"SET #v = :v\","
                  "\"ExpressionAttributeNames\":{\"#v\":\"v\"},"
                  "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"%llu\"}},\"Key\":",
                  c->table, (unsigned long long)op->op);
    put_key(c, b, op->key, sort);
    break;
  case SL_BENCH_QUERY:
    sl_buf_printf(b,
                  ",\"TableName\":\"%s\",\"Limit\":%u,\"KeyConditionExpression\":\"#p = :p\","
                  "\"ExpressionAttributeNames\":{\"#p\":",
                  c->table, c->page_size);
    put_name(b, c->pk);
    sl_buf_puts(b, SL_STR("},\"ExpressionAttributeValues\":{\":p\":"));
    put_key_value(b, c->pk_type, op->key, true);
    sl_buf_putc(b, '}');
    break;
  case SL_BENCH_QUERY_INDEX:
    sl_buf_printf(b, ",\"TableName\":\"%s\",\"IndexName\":", c->table);
    put_name(b, c->index);
    sl_buf_printf(b, ",\"Limit\":%u,\"KeyConditionExpression\":\"", c->page_size);
    for (unsigned i = 0; i < c->n_index_hash; i++)
      sl_buf_printf(b, "%s#p%u = :p%u", i ? " AND " : "", i, i);
    sl_buf_puts(b, SL_STR("\",\"ExpressionAttributeNames\":{"));
    for (unsigned i = 0; i < c->n_index_hash; i++) {
      sl_buf_printf(b, "%s\"#p%u\":", i ? "," : "", i);
      put_name(b, c->gattr[c->index_hash[i]]);
    }
    sl_buf_puts(b, SL_STR("},\"ExpressionAttributeValues\":{"));
    for (unsigned i = 0; i < c->n_index_hash; i++) {
      sl_buf_printf(b, "%s\":p%u\":", i ? "," : "", i);
      put_key_value(b, c->gattr_type[c->index_hash[i]], op->key % c->gsi_keys, true);
    }
    sl_buf_putc(b, '}');
    break;
  case SL_BENCH_SCAN:
    sl_buf_printf(b, ",\"TableName\":\"%s\",\"Limit\":%u", c->table, c->page_size);
    if (c->segments > 1) /* a parallel scan: operation n reads segment n mod N */
      sl_buf_printf(b, ",\"Segment\":%llu,\"TotalSegments\":%u",
                    (unsigned long long)(op->op % c->segments), c->segments);
    break;
  case SL_BENCH_BATCH_WRITE:
  case SL_BENCH_BATCH_GET:
  case SL_BENCH_TRANSACT_WRITE: {
    uint64_t keys[100], sorts[100];
    unsigned n = pick_distinct(e, op, c->batch, keys, sorts);
    if (op->kind == SL_BENCH_BATCH_WRITE)
      sl_buf_printf(b, ",\"RequestItems\":{\"%s\":[", c->table);
    else if (op->kind == SL_BENCH_BATCH_GET)
      sl_buf_printf(b, ",\"RequestItems\":{\"%s\":{\"Keys\":[", c->table);
    else
      sl_buf_puts(b, SL_STR(",\"TransactItems\":["));
    for (unsigned i = 0; i < n; i++) {
      if (i)
        sl_buf_putc(b, ',');
      if (op->kind == SL_BENCH_BATCH_WRITE) {
        sl_buf_puts(b, SL_STR("{\"PutRequest\":{\"Item\":"));
        sl_bench_item_json(c, keys[i], sorts[i], b);
        sl_buf_puts(b, SL_STR("}}"));
      } else if (op->kind == SL_BENCH_BATCH_GET) {
        put_key(c, b, keys[i], sorts[i]);
      } else {
        sl_buf_printf(b, "{\"Put\":{\"TableName\":\"%s\",\"Item\":", c->table);
        sl_bench_item_json(c, keys[i], sorts[i], b);
        sl_buf_puts(b, SL_STR("}}"));
      }
    }
    sl_buf_puts(b, op->kind == SL_BENCH_BATCH_WRITE ? SL_STR("]}")
                   : op->kind == SL_BENCH_BATCH_GET ? SL_STR("]}}")
                                                    : SL_STR("]"));
    break;
  }
  }
  if (op->page > 0 && op->last_key.len) {
    sl_buf_puts(b, SL_STR(",\"ExclusiveStartKey\":"));
    sl_buf_puts(b, sl_buf_str(&op->last_key));
  }
  sl_buf_putc(b, '}');
}

/* --- connections --------------------------------------------------------- */

static void conn_close(conn_t *c) {
  sl_tls_free(c->tls);
  c->tls = NULL;
  c->want = 0;
  if (c->fd >= 0)
    close(c->fd);
  c->fd = -1;
  c->ev = 0;
  c->state = C_CLOSED;
  c->in.len = 0;
  c->out.len = 0;
  c->out_off = 0;
}

static int conn_open(ex_t *e, conn_t *c) {
  int fd = socket(e->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -errno;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  int rc = connect(fd, (struct sockaddr *)&e->addr, e->addr_len);
  if (rc < 0 && errno != EINPROGRESS) {
    int err = errno;
    close(fd);
    return -err;
  }
  c->fd = fd;
  c->ev = 0;
  c->state = rc == 0 ? C_IDLE : C_CONNECTING;
  return 0;
}

/* Registers the events the connection waits for now, when they changed
 * (the loop asks for every busy or idle connection on each turn; only the
 * changes reach the kernel). */
static void watch(ex_t *e, conn_t *c, unsigned index) {
  uint32_t want = c->want ? (c->want == POLLIN ? EPOLLIN : EPOLLOUT)
                  : c->state == C_READING || c->state == C_IDLE ? EPOLLIN
                                                                : EPOLLOUT;
  if (c->fd < 0 || want == c->ev)
    return;
  struct epoll_event ev = {.events = want, .data.u32 = index};
  if (epoll_ctl(e->epfd, c->ev ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev) == 0)
    c->ev = want;
}

/* Signs and frames the request of c->op into c->out. */
static void frame(ex_t *e, conn_t *c) {
  const sl_bench_config *cfg = e->cfg;
  build_body(e, &c->op, &e->body);
  char target[64];
  snprintf(target, sizeof(target), "DynamoDB_20120810.%s", targets[c->op.kind]);
  sl_http_header h[] = {
      {SL_STR("Host"), sl_str_c(cfg->host_header)},
      {SL_STR("Content-Type"), SL_STR("application/x-amz-json-1.0")},
      {SL_STR("X-Amz-Target"), sl_str_c(target)},
  };
  sl_sigv4_request r = {
      .method = SL_STR("POST"),
      .path = SL_STR("/"),
      .headers = h,
      .n_headers = 3,
      .body = sl_buf_str(&e->body),
      .access_key_id = sl_str_c(cfg->aws.access_key_id),
      .secret = sl_str_c(cfg->aws.secret),
      .session_token = sl_str_c(cfg->aws.session_token),
      .region = sl_str_c(cfg->aws.region),
      .service = SL_STR("dynamodb"),
      .now_s = (int64_t)time(NULL),
  };
  char date[17];
  sl_sigv4_sign(&r, date, &e->auth);
  c->out.len = 0;
  c->out_off = 0;
  sl_buf_printf(&c->out,
                "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
                "X-Amz-Target: %s\r\nX-Amz-Date: %s\r\n",
                cfg->host_header, target, date);
  if (cfg->aws.session_token[0])
    sl_buf_printf(&c->out, "X-Amz-Security-Token: %s\r\n", cfg->aws.session_token);
  sl_buf_printf(&c->out, "Authorization: %.*s\r\nContent-Length: %zu\r\n\r\n", (int)e->auth.len,
                e->auth.p, e->body.len);
  sl_buf_puts(&c->out, sl_buf_str(&e->body));
}

static void record_sent(ex_t *e, conn_t *c, int64_t now) {
  int64_t t = (now - e->cfg->t0_ns) / 1000000000;
  sec_of(e, t < 0 ? 0 : (uint32_t)t)->sent++;
  e->sent_total++;
  PROGRESS(e, sent);
  c->op.sent_ns = now;
  c->deadline_ns = now + (int64_t)e->cfg->timeout_ms * 1000000;
}

static void try_write(ex_t *e, conn_t *c);
static void fail_op(ex_t *e, conn_t *c, const char *err);

/* The TCP connection is up: start TLS, or write. */
static void connected(ex_t *e, conn_t *c) {
  if (e->tls_ctx && !c->tls) {
    c->tls = sl_tls_new(e->tls_ctx, c->fd, e->cfg->host);
    if (!c->tls) {
      fail_op(e, c, "TLSError");
      return;
    }
    c->state = C_HANDSHAKE;
  }
  if (c->state == C_HANDSHAKE) {
    int rc = sl_tls_handshake(c->tls);
    if (rc == SL_TLS_WANT_READ || rc == SL_TLS_WANT_WRITE) {
      c->want = rc == SL_TLS_WANT_READ ? POLLIN : POLLOUT;
      return;
    }
    if (rc != 0) {
      fprintf(stderr, "sluice bench: %s\n", sl_tls_last_error());
      fail_op(e, c, "TLSError");
      return;
    }
    c->want = 0;
  }
  c->state = C_WRITING;
  try_write(e, c);
}

/* Puts op on connection c (idle or closed), sending it when it can. */
static void start(ex_t *e, conn_t *c, const op_t *op, int64_t now) {
  c->op = *op;
  frame(e, c);
  record_sent(e, c, now);
  if (c->state == C_CLOSED) {
    int rc = conn_open(e, c);
    if (rc < 0) {
      sec_t *s = sec_of(e, c->op.sec);
      s->errors++;
      PROGRESS(e, errors);
      count(e, c->op.sec, "err", SL_STR("ConnectionError"));
      sl_buf_free(&c->op.last_key);
      conn_close(c);
      return;
    }
    if (c->state == C_CONNECTING)
      return;
    connected(e, c);
    return;
  }
  c->state = C_WRITING;
  try_write(e, c);
}

static void fail_op(ex_t *e, conn_t *c, const char *err) {
  sec_t *s = sec_of(e, c->op.sec);
  s->errors++;
  PROGRESS(e, errors);
  count(e, c->op.sec, "err", sl_str_c(err));
  sl_buf_free(&c->op.last_key);
  conn_close(c);
}

static void try_write(ex_t *e, conn_t *c) {
  c->want = 0;
  while (c->out_off < c->out.len) {
    ssize_t n = c->tls ? sl_tls_write(c->tls, c->out.p + c->out_off, c->out.len - c->out_off)
                       : send(c->fd, c->out.p + c->out_off, c->out.len - c->out_off, MSG_NOSIGNAL);
    if (c->tls && n < 0) {
      if (n == SL_TLS_WANT_READ || n == SL_TLS_WANT_WRITE) {
        c->want = n == SL_TLS_WANT_READ ? POLLIN : POLLOUT;
        return;
      }
      fail_op(e, c, "ConnectionError");
      return;
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        return;
      if (errno == EINTR)
        continue;
      fail_op(e, c, "ConnectionError");
      return;
    }
    c->out_off += (size_t)n;
  }
  c->state = C_READING;
}

/* Counts a complete reply to c->op. Returns true when the operation goes on
 * with its next page (op->page and op->last_key are set for it). */
static bool on_reply(ex_t *e, conn_t *c, int status, sl_str body, int64_t now) {
  op_t *op = &c->op;
  sec_t *s = sec_of(e, op->sec);
  sl_arena_reset(&e->arena);
  sl_bench_reply r;
  sl_bench_reply_classify(&e->arena, status, body, e->cfg->table,
                          op->kind == SL_BENCH_BATCH_WRITE ? SL_BENCH_UNPROCESSED_ITEMS
                          : op->kind == SL_BENCH_BATCH_GET ? SL_BENCH_UNPROCESSED_KEYS
                                                           : SL_BENCH_UNPROCESSED_NONE,
                          &r);
  bool more = false;
  if (r.outcome == SL_BENCH_REPLY_OK) {
    s->ok++;
    PROGRESS(e, ok);
    if (kind_reads(op->kind))
      s->read_units += r.units;
    else
      s->write_units += r.units;
    s->unprocessed += r.unprocessed;
    if (r.last_key &&
        (op->kind == SL_BENCH_QUERY || op->kind == SL_BENCH_SCAN ||
         op->kind == SL_BENCH_QUERY_INDEX) &&
        op->page + 1u < e->cfg->pages) {
      op->last_key.len = 0;
      sl_jw w;
      sl_jw_init(&w, &op->last_key);
      sl_jw_value(&w, r.last_key);
      op->page++;
      more = true;
    }
  } else {
    bool throttled = r.outcome == SL_BENCH_REPLY_THROTTLED;
    if (r.type.len == 0) {
      char buf[32];
      snprintf(buf, sizeof(buf), "HTTP%d", status);
      count(e, op->sec, "err", sl_str_c(buf));
      s->errors++;
      PROGRESS(e, errors);
    } else {
      count(e, op->sec, "exc", r.type);
      if (throttled) {
        s->throttled++;
        PROGRESS(e, throttled);
      } else {
        s->errors++;
        PROGRESS(e, errors);
      }
    }
    if (throttled) {
      const sl_bench_window *w = &e->cfg->sched.w[op->win];
      double at = (double)(op->due_ns - e->cfg->t0_ns) / 1e9 - w->start_s;
      if (at < e->first[op->win])
        e->first[op->win] = at;
    }
    for (size_t i = 0; i < r.n_reasons; i++)
      count(e, op->sec, "reason", r.reasons[i]);
  }
  if (more)
    return true;
  if (!s->hist)
    s->hist = calloc(1, sizeof(sl_bench_hist));
  int64_t lat = now - op->due_ns;
  sl_bench_hist_add(s->hist, lat > 0 ? (uint64_t)lat / 1000 : 0);
  sl_buf_free(&op->last_key);
  return false;
}

/* Parses what c->in holds; 1 when a whole reply was handled, -1 for a
 * reply that is not HTTP (net/http.h sl_http_parse_reply_head). */
static int try_parse(ex_t *e, conn_t *c, int64_t now) {
  char *p = c->in.p;
  size_t len = c->in.len, head = 0;
  sl_http_reply_head h;
  sl_http_status st = sl_http_parse_reply_head(p, len, &h, &head);
  if (st == SL_HTTP_INCOMPLETE)
    return 0;
  if (st != SL_HTTP_OK)
    return -1;
  bool keep = h.keep_alive, chunked = h.chunked;
  long long clen = h.content_length;
  size_t body_len, consumed;
  if (chunked) {
    int rc = sl_http_dechunk(p + head, len - head, 64u << 20, &body_len, &consumed);
    if (rc == SL_HTTP_INCOMPLETE)
      return 0;
    if (rc != SL_HTTP_OK)
      return -1;
  } else if (clen >= 0) {
    if (len - head < (size_t)clen)
      return 0;
    body_len = consumed = (size_t)clen;
  } else {
    return -1; /* replies without framing are not expected from DynamoDB */
  }
  bool more = on_reply(e, c, h.status, sl_str_make(p + head, body_len), now);
  size_t used = head + consumed;
  memmove(c->in.p, c->in.p + used, c->in.len - used);
  c->in.len -= used;
  if (keep)
    c->state = C_IDLE;
  else
    conn_close(c);
  if (more) {
    op_t next = c->op;
    start(e, c, &next, now);
  }
  return 1;
}

static void try_read(ex_t *e, conn_t *c, int64_t now) {
  for (;;) {
    sl_buf_reserve(&c->in, 65536);
    c->want = 0;
    ssize_t n = c->tls ? sl_tls_read(c->tls, c->in.p + c->in.len, 65536)
                       : recv(c->fd, c->in.p + c->in.len, 65536, 0);
    if (c->tls && (n == SL_TLS_WANT_READ || n == SL_TLS_WANT_WRITE)) {
      c->want = n == SL_TLS_WANT_READ ? POLLIN : POLLOUT;
      return;
    }
    if (c->tls && n < 0)
      n = -1, errno = ECONNRESET;
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    if (n <= 0) {
      fail_op(e, c, "ConnectionError");
      return;
    }
    c->in.len += (size_t)n;
    int rc = try_parse(e, c, now);
    if (rc < 0) {
      fail_op(e, c, "BadReply");
      return;
    }
    if (rc > 0 || (size_t)n < 65536)
      return;
  }
}

/* --- the loop ------------------------------------------------------------ */

static void backlog_push(ex_t *e, const op_t *op) {
  if (e->bl_len == e->bl_cap) {
    size_t cap = e->bl_cap ? e->bl_cap * 2 : 1024;
    op_t *nb = malloc(cap * sizeof(op_t));
    if (!nb)
      abort();
    for (size_t i = 0; i < e->bl_len; i++)
      nb[i] = e->backlog[(e->bl_head + i) % e->bl_cap];
    free(e->backlog);
    e->backlog = nb;
    e->bl_head = 0;
    e->bl_cap = cap;
  }
  e->backlog[(e->bl_head + e->bl_len++) % e->bl_cap] = *op;
}

static op_t *backlog_front(ex_t *e) { return &e->backlog[e->bl_head]; }

static void backlog_pop(ex_t *e) {
  e->bl_head = (e->bl_head + 1) % e->bl_cap;
  e->bl_len--;
}

static int pick_kind(ex_t *e) {
  unsigned r = (unsigned)(sl_bench_rng_next(&e->rng) % e->mix_total);
  for (int k = 0; k < SL_BENCH_N_KINDS; k++) {
    if (r < e->cfg->mix[k])
      return k;
    r -= e->cfg->mix[k];
  }
  return 0;
}

static const char *state_name(int s) {
  return s == C_CONNECTING  ? "connecting"
         : s == C_HANDSHAKE ? "tls-handshake"
         : s == C_WRITING   ? "writing"
                            : "waiting-for-reply";
}

static void write_results(ex_t *e, FILE *f, const char *status, int64_t now) {
  const sl_bench_config *cfg = e->cfg;
  fprintf(f, "executor %u %u\nstatus %s\ntotals %llu\n", e->index, cfg->executors, status,
          (unsigned long long)e->sent_total);
  for (unsigned i = 0; i < e->n_names; i++)
    fprintf(f, "name %u %s\n", i, e->names[i]);
  for (size_t s = 0; s < e->n_secs; s++) {
    sec_t *x = &e->secs[s];
    if (!x->offered && !x->sent && !x->ok && !x->throttled && !x->errors)
      continue;
    fprintf(f, "sec %zu %llu %llu %llu %llu %llu %llu %.1f %.1f\n", s,
            (unsigned long long)x->offered, (unsigned long long)x->sent, (unsigned long long)x->ok,
            (unsigned long long)x->throttled, (unsigned long long)x->errors,
            (unsigned long long)x->unprocessed, x->read_units, x->write_units);
    for (unsigned i = 0; x->cnt && i < MAX_NAMES; i++)
      if (x->cnt[i])
        fprintf(f, "cnt %zu %u %u\n", s, i, x->cnt[i]);
    if (x->hist) {
      for (size_t i = 0; i < SL_BENCH_HIST_N; i++)
        if (x->hist->count[i])
          fprintf(f, "hist %zu %zu %llu\n", s, i, (unsigned long long)x->hist->count[i]);
      fprintf(f, "hmax %zu %llu\n", s, (unsigned long long)x->hist->max_us);
    }
  }
  for (size_t w = 0; w < cfg->sched.n; w++)
    if (e->first[w] < 1e300)
      fprintf(f, "first %zu %.6f\n", w, e->first[w]);
  unsigned shown = 0;
  for (unsigned i = 0; i < e->n_conns && shown < 1000; i++) {
    conn_t *c = &e->conns[i];
    if (c->state == C_CONNECTING || c->state == C_HANDSHAKE || c->state == C_WRITING ||
        c->state == C_READING) {
      fprintf(f, "inflight %llu %s %llu %.1f %s\n", (unsigned long long)c->op.op,
              sl_bench_kind_names[c->op.kind], (unsigned long long)c->op.key,
              (double)(now - c->op.due_ns) / 1e6, state_name(c->state));
      shown++;
    }
  }
  for (size_t i = 0; i < e->bl_len && shown < 1000; i++, shown++) {
    op_t *op = &e->backlog[(e->bl_head + i) % e->bl_cap];
    fprintf(f, "inflight %llu %s %llu %.1f queued\n", (unsigned long long)op->op,
            sl_bench_kind_names[op->kind], (unsigned long long)op->key,
            (double)(now - op->due_ns) / 1e6);
  }
  fprintf(f, "end\n");
}

static int resolve(ex_t *e, char *err, size_t cap) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
  char port[16];
  snprintf(port, sizeof(port), "%d", e->cfg->port);
  int rc = getaddrinfo(e->cfg->host, port, &hints, &res);
  if (rc != 0 || !res) {
    snprintf(err, cap, "cannot resolve %s: %s", e->cfg->host, gai_strerror(rc));
    return -1;
  }
  memcpy(&e->addr, res->ai_addr, res->ai_addrlen);
  e->addr_len = res->ai_addrlen;
  freeaddrinfo(res);
  return 0;
}

int sl_bench_executor_run(const sl_bench_config *cfg, unsigned index, const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    fprintf(stderr, "sluice bench: executor %u: %s: %s%s\n", index, path, strerror(errno),
            errno == EEXIST ? " (the executor ran twice, or the results directory is reused)" : "");
    return 1;
  }
  FILE *f = fdopen(fd, "w");
  ex_t e = {.cfg = cfg, .index = index};
  char err[512];
  for (size_t w = 0; w < SL_BENCH_MAX_WINDOWS; w++)
    e.first[w] = 1e308;
  int64_t now = now_ns();
  double late_s = (double)(now - cfg->t0_ns) / 1e9;
  if (late_s > cfg->late_tolerance_s) {
    fprintf(f, "executor %u %u\nstatus late\nlate_ms %.0f\nend\n", index, cfg->executors,
            late_s * 1000);
    fclose(f);
    return 1;
  }
  if (sl_bench_keys_init(&e.keys, cfg->keys_spec, cfg->n_keys, err, sizeof(err)) != 0 ||
      resolve(&e, err, sizeof(err)) != 0) {
    fprintf(f, "executor %u %u\nstatus error %s\nend\n", index, cfg->executors, err);
    fclose(f);
    return 1;
  }
  if (cfg->https && !(e.tls_ctx = sl_tls_ctx_new(cfg->ca_file, err, sizeof(err)))) {
    fprintf(f, "executor %u %u\nstatus error %s\nend\n", index, cfg->executors, err);
    fclose(f);
    return 1;
  }
  sl_bench_rng_seed(&e.rng, cfg->seed * 1000003u + index);
  for (int k = 0; k < SL_BENCH_N_KINDS; k++)
    e.mix_total += cfg->mix[k];
  e.n_conns = cfg->connections;
  e.conns = calloc(e.n_conns, sizeof(conn_t));
  for (unsigned i = 0; i < e.n_conns; i++) {
    e.conns[i].fd = -1;
    sl_buf_init(&e.conns[i].out, NULL);
    sl_buf_init(&e.conns[i].in, NULL);
  }
  e.n_secs = (size_t)ceil(cfg->sched.seconds + cfg->timeout_ms / 1000.0) + 2;
  e.secs = calloc(e.n_secs, sizeof(sec_t));
  sl_arena_init(&e.arena);
  sl_buf_init(&e.body, NULL);
  sl_buf_init(&e.auth, NULL);
  e.epfd = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event *evs = calloc(e.n_conns, sizeof(struct epoll_event));

  const int64_t watchdog_ns = cfg->t0_ns + (int64_t)(cfg->watchdog_s * 1e9);
  const int64_t timeout_ns = (int64_t)cfg->timeout_ms * 1000000;
  uint64_t next = index, mine = 0;
  const char *status = "complete";
  /* Wait for T0. */
  while ((now = now_ns()) < cfg->t0_ns && !sl_bench_interrupted) {
    int64_t d = cfg->t0_ns - now;
    struct timespec ts = {d / 1000000000, d % 1000000000};
    nanosleep(&ts, NULL);
  }
  for (;;) {
    now = now_ns();
    if (sl_bench_interrupted) {
      status = "interrupted";
      break;
    }
    if (now >= watchdog_ns) {
      status = "watchdog";
      break;
    }
    /* Every operation now due joins the queue. */
    int64_t next_due = INT64_MAX;
    while (next < cfg->sched.n_ops) {
      if (mine >= cfg->max_ops) {
        status = "capped";
        break;
      }
      double at = sl_bench_schedule_time(&cfg->sched, next);
      int64_t due = cfg->t0_ns + (int64_t)(at * 1e9);
      if (due > now) {
        next_due = due;
        break;
      }
      op_t op = {.op = next, .due_ns = due};
      op.win = (uint16_t)sl_bench_schedule_window(&cfg->sched, next);
      op.sec = (uint32_t)(at >= 0 ? at : 0);
      op.kind = (uint8_t)pick_kind(&e);
      op.key = sl_bench_keys_pick(&e.keys, &e.rng, next);
      sl_buf_init(&op.last_key, NULL);
      sec_of(&e, op.sec)->offered++;
      backlog_push(&e, &op);
      next += cfg->executors;
      mine++;
    }
    /* Queued operations past their timeout fail without being sent. */
    while (e.bl_len && now - backlog_front(&e)->due_ns > timeout_ns) {
      op_t *op = backlog_front(&e);
      sec_of(&e, op->sec)->errors++;
      PROGRESS(&e, errors);
      count(&e, op->sec, "err", SL_STR("Timeout"));
      backlog_pop(&e);
    }
    /* Queued operations go to idle connections, then to new ones. */
    for (unsigned i = 0; i < e.n_conns && e.bl_len; i++) {
      conn_t *c = &e.conns[i];
      if (c->state == C_IDLE || c->state == C_CLOSED) {
        op_t op = *backlog_front(&e);
        backlog_pop(&e);
        start(&e, c, &op, now);
      }
    }
    /* Requests past their timeout: the connection is closed. */
    int64_t next_deadline = INT64_MAX;
    unsigned busy = 0;
    for (unsigned i = 0; i < e.n_conns; i++) {
      conn_t *c = &e.conns[i];
      if (c->state == C_CONNECTING || c->state == C_HANDSHAKE || c->state == C_WRITING ||
          c->state == C_READING) {
        if (now >= c->deadline_ns) {
          fail_op(&e, c, "Timeout");
          continue;
        }
        busy++;
        if (c->deadline_ns < next_deadline)
          next_deadline = c->deadline_ns;
        watch(&e, c, i);
      } else if (c->state == C_IDLE) {
        watch(&e, c, i); /* readable: the server closed it */
      }
    }
    bool schedule_done = next >= cfg->sched.n_ops || mine >= cfg->max_ops;
    if (schedule_done && e.bl_len == 0 && busy == 0)
      break;
    int64_t wake = next_due < next_deadline ? next_due : next_deadline;
    if (wake > watchdog_ns)
      wake = watchdog_ns;
    if (e.bl_len && e.backlog[e.bl_head].due_ns + timeout_ns < wake)
      wake = e.backlog[e.bl_head].due_ns + timeout_ns;
    int64_t wait = wake - now;
    if (wait > 50000000)
      wait = 50000000;
    if (wait < 0)
      wait = 0;
    struct timespec ts = {wait / 1000000000, wait % 1000000000};
    int n = epoll_pwait2(e.epfd, evs, (int)e.n_conns, &ts, NULL);
    if (n <= 0)
      continue;
    now = now_ns();
    for (int i = 0; i < n; i++) {
      if (evs[i].data.u32 >= e.n_conns)
        continue;
      conn_t *c = &e.conns[evs[i].data.u32];
      if (c->fd < 0)
        continue; /* closed by an earlier event of this turn */
      if (c->state == C_IDLE) {
        /* A kept connection became readable: the server closed it (TLS may
         * also have sent a session ticket, which is read and kept). */
        char byte;
        if (!c->tls || sl_tls_read(c->tls, &byte, 1) != SL_TLS_WANT_READ)
          conn_close(c);
      } else if (c->state == C_CONNECTING) {
        int soerr = 0;
        socklen_t sl = sizeof(soerr);
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
        if (soerr)
          fail_op(&e, c, "ConnectionError");
        else
          connected(&e, c);
      } else if (c->state == C_HANDSHAKE) {
        connected(&e, c);
      } else if (c->state == C_WRITING) {
        try_write(&e, c);
      } else if (c->state == C_READING) {
        try_read(&e, c, now);
      }
    }
  }
  now = now_ns();
  write_results(&e, f, status, now);
  fclose(f);
  for (unsigned i = 0; i < e.n_conns; i++) {
    sl_buf_free(&e.conns[i].op.last_key);
    conn_close(&e.conns[i]);
    sl_buf_free(&e.conns[i].out);
    sl_buf_free(&e.conns[i].in);
  }
  for (size_t s = 0; s < e.n_secs; s++) {
    free(e.secs[s].hist);
    free(e.secs[s].cnt);
  }
  for (size_t i = 0; i < e.bl_len; i++)
    sl_buf_free(&e.backlog[(e.bl_head + i) % e.bl_cap].last_key);
  free(e.backlog);
  free(e.secs);
  free(e.conns);
  free(evs);
  close(e.epfd);
  sl_buf_free(&e.body);
  sl_buf_free(&e.auth);
  sl_arena_destroy(&e.arena);
  sl_bench_keys_free(&e.keys);
  if (e.tls_ctx)
    sl_tls_ctx_free(e.tls_ctx);
  return 0;
}
