/*
 * client.c — the blocking HTTP/1.1 client; see client.h.
 *
 * Bytes are read into the client's buffer; a reply is parsed from its start
 * and consumed from it, so bytes after one reply (which a well-behaved
 * server never sends unasked) stay for the next.
 */
#include "net/client.h"

#include "net/compress.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

enum {
  MAX_HEAD = 64 * 1024,
  MAX_BODY = 64 * 1024 * 1024,
  READ_STEP = 64 * 1024,
};

#define EQ_LIT(s, lit) sl_str_eq_nocase((s), SL_STR(lit))

int sl_client_parse_url(const char *url, char *host, size_t host_cap, int *port) {
  bool https;
  return strncmp(url, "http://", 7) == 0
             ? sl_client_parse_endpoint(url, host, host_cap, port, &https)
             : -1;
}

int sl_client_parse_endpoint(const char *url, char *host, size_t host_cap, int *port, bool *https) {
  const char *p = url;
  if (strncmp(p, "http://", 7) == 0) {
    *https = false;
    p += 7;
  } else if (strncmp(p, "https://", 8) == 0) {
    *https = true;
    p += 8;
  } else {
    return -1;
  }
  const char *end = p + strcspn(p, "/?#");
  const char *colon = NULL;
  if (*p == '[') { /* [IPv6]:port */
    const char *close = memchr(p, ']', (size_t)(end - p));
    if (!close)
      return -1;
    colon = close + 1 < end && close[1] == ':' ? close + 1 : NULL;
    if ((size_t)(close - p - 1) >= host_cap)
      return -1;
    memcpy(host, p + 1, (size_t)(close - p - 1));
    host[close - p - 1] = 0;
  } else {
    colon = memchr(p, ':', (size_t)(end - p));
    const char *hend = colon ? colon : end;
    if (hend == p || (size_t)(hend - p) >= host_cap)
      return -1;
    memcpy(host, p, (size_t)(hend - p));
    host[hend - p] = 0;
  }
  *port = *https ? 443 : 80;
  if (colon) {
    char *e;
    long v = strtol(colon + 1, &e, 10);
    if (e != end || v <= 0 || v > 65535)
      return -1;
    *port = (int)v;
  }
  return 0;
}

void sl_client_init(sl_client *c, const char *host, int port, int timeout_ms) {
  memset(c, 0, sizeof(*c));
  c->fd = -1;
  snprintf(c->host, sizeof(c->host), "%s", host);
  c->port = port;
  c->timeout_ms = timeout_ms > 0 ? timeout_ms : 30000;
  sl_buf_init(&c->in, NULL);
}

void sl_client_use_tls(sl_client *c, sl_tls_ctx *ctx) { c->tls_ctx = ctx; }

static void disconnect(sl_client *c) {
  sl_tls_free(c->tls);
  c->tls = NULL;
  if (c->fd >= 0)
    close(c->fd);
  c->fd = -1;
  c->in.len = 0;
}

void sl_client_close(sl_client *c) {
  disconnect(c);
  sl_buf_free(&c->in);
}

void sl_client_response_init(sl_client_response *r) {
  memset(r, 0, sizeof(*r));
  sl_buf_init(&r->head, NULL);
  sl_buf_init(&r->raw_body, NULL);
  sl_buf_init(&r->body, NULL);
}

void sl_client_response_free(sl_client_response *r) {
  sl_buf_free(&r->head);
  sl_buf_free(&r->raw_body);
  sl_buf_free(&r->body);
}

sl_str sl_client_header(const sl_client_response *r, const char *name) {
  sl_str n = sl_str_c(name);
  for (size_t i = 0; i < r->n_headers; i++)
    if (sl_str_eq_nocase(r->headers[i].name, n))
      return r->headers[i].value;
  return SL_STR_NULL;
}

static int connect_to(sl_client *c) {
  char port[8];
  snprintf(port, sizeof(port), "%d", c->port);
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(c->host, port, &hints, &res) != 0 || !res)
    return -EHOSTUNREACH;
  int err = -ECONNREFUSED;
  struct timeval tv = {c->timeout_ms / 1000, (c->timeout_ms % 1000) * 1000};
  for (struct addrinfo *a = res; a; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (fd < 0) {
      err = -errno;
      continue;
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      c->fd = fd;
      freeaddrinfo(res);
      if (c->tls_ctx) {
        c->tls = sl_tls_new(c->tls_ctx, fd, c->host);
        int rc = c->tls ? sl_tls_handshake(c->tls) : -EPROTO;
        if (rc != 0) {
          disconnect(c);
          return rc == SL_TLS_WANT_READ || rc == SL_TLS_WANT_WRITE ? -ETIMEDOUT : rc;
        }
      }
      return 0;
    }
    err = errno == EINPROGRESS || errno == EAGAIN ? -ETIMEDOUT : -errno;
    close(fd);
  }
  freeaddrinfo(res);
  return err;
}

static int send_all(sl_client *c, const char *p, size_t len) {
  while (len > 0) {
    ssize_t n = c->tls ? sl_tls_write(c->tls, p, len) : send(c->fd, p, len, MSG_NOSIGNAL);
    if (c->tls && n < 0) {
      if (n == SL_TLS_WANT_READ || n == SL_TLS_WANT_WRITE)
        return -ETIMEDOUT;
      return (int)n;
    }
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

/* Reads more bytes into c->in: 1 on data, 0 at the end of the stream. */
static int read_more(sl_client *c) {
  sl_buf_reserve(&c->in, READ_STEP);
  for (;;) {
    ssize_t n = c->tls ? sl_tls_read(c->tls, c->in.p + c->in.len, c->in.cap - c->in.len)
                       : recv(c->fd, c->in.p + c->in.len, c->in.cap - c->in.len, 0);
    if (c->tls && n < 0)
      return n == SL_TLS_WANT_READ || n == SL_TLS_WANT_WRITE ? -ETIMEDOUT : (int)n;
    if (n > 0) {
      c->in.len += (size_t)n;
      return 1;
    }
    if (n == 0)
      return 0;
    if (errno == EINTR)
      continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
  }
}

/* The end of the head in c->in (just past the empty line), or 0. */
static size_t head_end(const sl_client *c) {
  for (size_t i = 0; i + 1 < c->in.len; i++) {
    if (c->in.p[i] != '\n')
      continue;
    if (c->in.p[i + 1] == '\n')
      return i + 2;
    if (i + 2 < c->in.len && c->in.p[i + 1] == '\r' && c->in.p[i + 2] == '\n')
      return i + 3;
  }
  return 0;
}

static sl_str trim(const char *p, const char *e) {
  while (p < e && (*p == ' ' || *p == '\t'))
    p++;
  while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
    e--;
  return sl_str_make(p, (size_t)(e - p));
}

/* Parses the head in out->head: status line and fields. */
static int parse_head(sl_client_response *out, int *minor) {
  const char *p = out->head.p, *end = p + out->head.len;
  if (out->head.len < 12 || memcmp(p, "HTTP/1.", 7) != 0 || (p[7] != '0' && p[7] != '1') ||
      p[8] != ' ')
    return -EPROTO;
  *minor = p[7] - '0';
  int status = 0;
  for (int i = 9; i < 12; i++) {
    if (p[i] < '0' || p[i] > '9')
      return -EPROTO;
    status = status * 10 + (p[i] - '0');
  }
  out->status = status;
  out->n_headers = 0;
  p = memchr(p, '\n', (size_t)(end - p)) + 1;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      break;
    sl_str line = trim(p, nl);
    p = nl + 1;
    if (line.len == 0)
      break;
    const char *colon = memchr(line.p, ':', line.len);
    if (!colon || out->n_headers == SL_CLIENT_MAX_HEADERS)
      return -EPROTO;
    out->headers[out->n_headers++] =
        (sl_http_header){trim(line.p, colon), trim(colon + 1, line.p + line.len)};
  }
  return 0;
}

static void consume(sl_client *c, size_t n) {
  memmove(c->in.p, c->in.p + n, c->in.len - n);
  c->in.len -= n;
}

/* Reads one reply. Returns 1 if the connection ended before any byte of it
 * (a kept connection the server had closed: worth one retry). */
static int read_reply(sl_client *c, bool head_request, bool decode, sl_client_response *out) {
  size_t hl;
  int minor = 1;
  for (;;) {
    while ((hl = head_end(c)) == 0) {
      if (c->in.len > MAX_HEAD)
        return -EPROTO;
      size_t had = c->in.len;
      int rc = read_more(c);
      if (rc < 0)
        return had == 0 && (rc == -ECONNRESET || rc == -EPIPE) ? 1 : rc;
      if (rc == 0)
        return had == 0 ? 1 : -EPROTO;
    }
    out->head.len = 0;
    sl_buf_append(&out->head, c->in.p, hl);
    int rc = parse_head(out, &minor);
    if (rc < 0)
      return rc;
    consume(c, hl);
    if (out->status >= 200 || out->status == 101)
      break; /* 1xx replies (100 Continue) come before the real one */
  }

  bool close_tok = false, keep_tok = false, chunked = false, has_length = false;
  uint64_t length = 0;
  for (size_t i = 0; i < out->n_headers; i++) {
    sl_str n = out->headers[i].name, v = out->headers[i].value;
    if (EQ_LIT(n, "connection")) {
      for (size_t j = 0; j + 5 <= v.len; j++)
        if (sl_str_eq_nocase(sl_str_make(v.p + j, 5), SL_STR("close")))
          close_tok = true;
      for (size_t j = 0; j + 10 <= v.len; j++)
        if (sl_str_eq_nocase(sl_str_make(v.p + j, 10), SL_STR("keep-alive")))
          keep_tok = true;
    } else if (EQ_LIT(n, "transfer-encoding")) {
      chunked = v.len >= 7 && sl_str_eq_nocase(sl_str_make(v.p + v.len - 7, 7), SL_STR("chunked"));
    } else if (EQ_LIT(n, "content-length")) {
      char *e;
      char tmp[24];
      if (v.len == 0 || v.len >= sizeof(tmp))
        return -EPROTO;
      memcpy(tmp, v.p, v.len);
      tmp[v.len] = 0;
      length = strtoull(tmp, &e, 10);
      if (*e || length > MAX_BODY)
        return -EPROTO;
      has_length = true;
    }
  }
  out->keep_alive = minor >= 1 ? !close_tok : keep_tok && !close_tok;
  out->raw_body.len = 0;
  bool bodiless = head_request || out->status == 204 || out->status == 304 || out->status < 200;
  if (bodiless) {
    /* nothing */
  } else if (chunked) {
    for (;;) {
      size_t body_len = 0, used = 0;
      int st = sl_http_dechunk(c->in.p, c->in.len, MAX_BODY, &body_len, &used);
      if (st == SL_HTTP_OK) {
        sl_buf_append(&out->raw_body, c->in.p, body_len);
        consume(c, used);
        break;
      }
      if (st != SL_HTTP_INCOMPLETE)
        return -EPROTO;
      int rc = read_more(c);
      if (rc <= 0)
        return rc < 0 ? rc : -EPROTO;
    }
  } else if (has_length) {
    while (c->in.len < length) {
      int rc = read_more(c);
      if (rc <= 0)
        return rc < 0 ? rc : -EPROTO;
    }
    sl_buf_append(&out->raw_body, c->in.p, (size_t)length);
    consume(c, (size_t)length);
  } else {
    /* Framed by the end of the connection. */
    for (;;) {
      if (c->in.len > MAX_BODY)
        return -EPROTO;
      int rc = read_more(c);
      if (rc < 0)
        return rc;
      if (rc == 0)
        break;
    }
    sl_buf_append(&out->raw_body, c->in.p, c->in.len);
    consume(c, c->in.len);
    out->keep_alive = false;
  }

  out->body.len = 0;
  sl_coding cd = sl_compress_coding(sl_client_header(out, "content-encoding"));
  if (decode && (cd == SL_CODING_GZIP || cd == SL_CODING_DEFLATE)) {
    if (sl_compress_inflate(cd, out->raw_body.p, out->raw_body.len, MAX_BODY, &out->body) !=
        SL_INFLATE_OK)
      return -EPROTO;
  } else {
    sl_buf_append(&out->body, out->raw_body.p, out->raw_body.len);
  }
  return 0;
}

int sl_client_request(sl_client *c, sl_str method, sl_str target, const sl_http_header *headers,
                      size_t n_headers, sl_str body, bool decode, sl_client_response *out) {
  sl_buf req;
  sl_buf_init(&req, NULL);
  sl_buf_puts(&req, method);
  sl_buf_putc(&req, ' ');
  sl_buf_puts(&req, target.len ? target : SL_STR("/"));
  sl_buf_puts(&req, SL_STR(" HTTP/1.1\r\nHost: "));
  bool v6 = strchr(c->host, ':') != NULL;
  sl_buf_printf(&req, v6 ? "[%s]" : "%s", c->host);
  if (c->port != (c->tls_ctx ? 443 : 80))
    sl_buf_printf(&req, ":%d", c->port);
  sl_buf_puts(&req, SL_STR("\r\n"));
  for (size_t i = 0; i < n_headers; i++) {
    sl_buf_puts(&req, headers[i].name);
    sl_buf_puts(&req, SL_STR(": "));
    sl_buf_puts(&req, headers[i].value);
    sl_buf_puts(&req, SL_STR("\r\n"));
  }
  if (body.len || sl_str_eq_c(method, "POST") || sl_str_eq_c(method, "PUT"))
    sl_buf_printf(&req, "Content-Length: %zu\r\n", body.len);
  sl_buf_puts(&req, SL_STR("\r\n"));
  sl_buf_puts(&req, body);

  bool head = sl_str_eq_c(method, "HEAD");
  int rc = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    bool fresh = c->fd < 0;
    if (fresh && (rc = connect_to(c)) != 0)
      break;
    rc = send_all(c, req.p, req.len);
    if (rc == 0)
      rc = read_reply(c, head, decode, out);
    if (rc == 0)
      break;
    disconnect(c);
    if (rc != 1 && !(rc == -EPIPE || rc == -ECONNRESET))
      break;
    if (fresh) {
      rc = rc == 1 ? -ECONNRESET : rc;
      break;
    }
    /* A kept connection the server had closed: once more on a new one. */
  }
  if (rc == 1)
    rc = -ECONNRESET;
  if (rc == 0 && !out->keep_alive)
    disconnect(c);
  sl_buf_free(&req);
  return rc;
}
