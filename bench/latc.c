/* latc — a one-connection latency client for bench/tail.py.
 *
 *   latc PORT get|put SECONDS [RATE [NKEYS [CONNS]]]
 *
 * Sends DynamoDB GetItem (keys g0..g(NKEYS-1), default 10,000) or PutItem
 * (fresh keys, ~1 KB items) requests to 127.0.0.1:PORT over one keep-alive
 * connection with TCP_NODELAY, each timed with CLOCK_MONOTONIC from its
 * intended start to the last byte of its response. RATE 0 (the default) is
 * closed-loop (the next request leaves when the answer is in); RATE N > 0 is
 * open-loop at N requests a second: request i is due at start + i/N, and its
 * latency counts from then, so a stall also counts against the requests it
 * delayed (no coordinated omission). CONNS > 1 (default 1) runs that many
 * connections from one thread on epoll (issue 12's open-loop run at 32
 * connections): open loop, request i is due at start + i/RATE and leaves on
 * the first connection without a request in flight (it waits, its latency
 * counting, while all are busy); closed loop, each connection sends its next
 * request when its answer is in. One process, so the client does not queue
 * on the scheduler itself (a process per connection did: 32 processes on one
 * CPU measured the client, see bench/README.md). Prints one line:
 *
 *   RESULT requests=N p50=US p99=US p999=US max=US errors=N sum_s=S over1ms=N over10ms=N
 *
 * sum_s is the sum of the latencies: at one connection, closed-loop, it
 * cannot exceed the run's length (a check on the clock; wrk's latency table
 * on this machine failed it, see bench/README.md).
 *
 * Environment: LATC_TABLE, the table (default "bench"); LATC_CLOCK_EVERY=K:
 * after every K requests, one POST /_sluice/clock {"advance_ms":1000} in
 * the next slot (of the rate, open loop), for a server on
 * --clock manual (bench/stream_cost.py --rate --steady: K writes a second of
 * its clock); those requests are in the counts, one in K + 1.
 *
 * Built by bench/tail.py (cc -O2); a measurement tool, never a timed test. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char AUTH[] = "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                           "aws4_request, SignedHeaders=host, Signature=0";

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_until(int64_t t) {
  struct timespec ts = {(time_t)(t / 1000000000), (long)(t % 1000000000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

static int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
    perror("connect");
    exit(1);
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

/* Reads one response; returns its status, or -1 when the connection failed. */
static int read_response(int fd, char *buf, size_t cap) {
  size_t have = 0;
  for (;;) {
    ssize_t n = read(fd, buf + have, cap - have - 1);
    if (n <= 0)
      return -1;
    have += (size_t)n;
    buf[have] = 0;
    char *end = strstr(buf, "\r\n\r\n");
    if (!end)
      continue;
    size_t head = (size_t)(end + 4 - buf);
    const char *cl = strcasestr(buf, "\r\ncontent-length:");
    size_t body = cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0;
    while (have < head + body) {
      n = read(fd, buf + have, cap - have - 1);
      if (n <= 0)
        return -1;
      have += (size_t)n;
    }
    return atoi(buf + 9);
  }
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* One connection's run: requests due from 'start' every 1/rate s (closed
 * loop when rate is 0) until 'end'; latencies (ns) into lat[0..cap). */
typedef struct {
  size_t n;
  int errors;
  int failed; /* the connection broke */
  int64_t sum;
} conn_result;

/* Request i of a run into req; its length. */
static int build_request(char *req, size_t cap, bool put, uint64_t i, long nkeys, unsigned run) {
  static char pad[961];
  static const char *table;
  static long clock_every = -1;
  char body[2048];
  if (!pad[0]) {
    memset(pad, 'x', 960);
    table = getenv("LATC_TABLE") ? getenv("LATC_TABLE") : "bench";
    clock_every = getenv("LATC_CLOCK_EVERY") ? atol(getenv("LATC_CLOCK_EVERY")) : 0;
  }
  if (clock_every > 0 && i % (uint64_t)(clock_every + 1) == (uint64_t)clock_every)
    return snprintf(req, cap,
                    "POST /_sluice/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    "application/json\r\nContent-Length: 19\r\n\r\n{\"advance_ms\":1000}");
  int blen;
  if (put)
    blen = snprintf(body, sizeof(body),
                    "{\"TableName\":\"%s\",\"Item\":{\"pk\":{\"S\":\"latc%u-%llu\"},"
                    "\"pad\":{\"S\":\"%s\"}}}",
                    table, run, (unsigned long long)i, pad);
  else
    blen = snprintf(body, sizeof(body), "{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"g%ld\"}}}",
                    table, (long)((i * 7919 + run) % (uint64_t)nkeys));
  return snprintf(req, cap,
                  "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                  "application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.%s\r\n"
                  "Authorization: %s\r\nX-Amz-Date: 20261130T000000Z\r\n"
                  "Content-Length: %d\r\n\r\n%s",
                  put ? "PutItem" : "GetItem", AUTH, blen, body);
}

static conn_result run_conn(int port, bool put, double rate, long nkeys, int64_t start, int64_t end,
                            int64_t *lat, size_t cap, unsigned run) {
  static char req[4096], resp[1 << 16];
  conn_result r = {0};
  int fd = connect_to(port);
  for (uint64_t i = 0;; i++) {
    int64_t due = rate > 0 ? start + (int64_t)((double)i * 1e9 / rate) : now_ns();
    if (due >= end || r.n == cap)
      break;
    if (rate > 0)
      sleep_until(due);
    int rlen = build_request(req, sizeof(req), put, i, nkeys, run);
    if (write(fd, req, (size_t)rlen) != rlen) {
      r.failed = 1;
      break;
    }
    int status = read_response(fd, resp, sizeof(resp));
    if (status < 0) {
      r.failed = 1;
      break;
    }
    if (status != 200)
      r.errors++;
    int64_t l = now_ns() - due;
    lat[r.n++] = l;
    r.sum += l;
  }
  close(fd);
  return r;
}

/* One connection of run_many. */
typedef struct {
  int fd;
  bool busy;
  int64_t due; /* of the request in flight */
  size_t have;
  char buf[1 << 14];
} mconn;

/* The bytes of one whole response at the start of c->buf, or 0 when it is
 * not all in yet; its status in *status. */
static size_t whole_response(mconn *c, int *status) {
  c->buf[c->have] = 0;
  char *end = strstr(c->buf, "\r\n\r\n");
  if (!end)
    return 0;
  size_t head = (size_t)(end + 4 - c->buf);
  const char *cl = strcasestr(c->buf, "\r\ncontent-length:");
  size_t body = cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0;
  if (c->have < head + body)
    return 0;
  *status = atoi(c->buf + 9);
  return head + body;
}

/* CONNS connections on one epoll loop (see the top of the file): requests
 * due every 1/rate from 'start' (rate 0: closed loop) until 'end', each on a
 * free connection; latencies (ns) into lat[0..cap). Requests still in flight
 * 2 s after 'end' count as failed. */
static conn_result run_many(int port, bool put, double rate, long nkeys, int conns, int64_t start,
                            int64_t end, int64_t *lat, size_t cap, unsigned run) {
  static char req[4096];
  conn_result r = {0};
  mconn *cs = calloc((size_t)conns, sizeof(mconn));
  int ep = epoll_create1(0);
  for (int c = 0; c < conns; c++) {
    cs[c].fd = connect_to(port);
    fcntl(cs[c].fd, F_SETFL, O_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)c};
    epoll_ctl(ep, EPOLL_CTL_ADD, cs[c].fd, &ev);
  }
  uint64_t sent = 0;
  int in_flight = 0;
  for (;;) {
    int64_t now = now_ns();
    /* Requests due by now (open loop), or one per free connection. */
    uint64_t due_n = sent + (uint64_t)conns;
    if (rate > 0)
      due_n = now < start ? 0 : (uint64_t)((double)(now - start) * rate / 1e9) + 1;
    for (int c = 0; c < conns && sent < due_n; c++) {
      int64_t due = rate > 0 ? start + (int64_t)((double)sent * 1e9 / rate) : now;
      if (cs[c].busy || due >= end || r.n + (size_t)in_flight >= cap)
        continue;
      int rlen = build_request(req, sizeof(req), put, sent, nkeys, run);
      if (write(cs[c].fd, req, (size_t)rlen) != rlen) {
        fprintf(stderr, "latc: connection %d: a request did not go out whole\n", c);
        r.failed++;
        goto out;
      }
      cs[c].busy = true;
      cs[c].due = due;
      cs[c].have = 0;
      in_flight++;
      sent++;
    }
    bool more = (rate > 0 ? start + (int64_t)((double)sent * 1e9 / rate) : now) < end &&
                r.n + (size_t)in_flight < cap;
    if (!more && in_flight == 0)
      break;
    if (!more && now > end + 2000000000LL) {
      r.failed += in_flight;
      break;
    }
    /* Wake for the next due request or an answer, whichever is first. */
    int64_t wait_ns = 10000000;
    if (rate > 0 && more && in_flight < conns) {
      int64_t next = start + (int64_t)((double)sent * 1e9 / rate);
      wait_ns = next > now ? next - now : 0;
    }
    struct timespec ts = {(time_t)(wait_ns / 1000000000), (long)(wait_ns % 1000000000)};
    struct epoll_event evs[64];
    int n = epoll_pwait2(ep, evs, 64, &ts, NULL);
    for (int e = 0; e < n; e++) {
      mconn *c = &cs[evs[e].data.u32];
      ssize_t got = read(c->fd, c->buf + c->have, sizeof(c->buf) - c->have - 1);
      if (got <= 0) {
        if (got < 0 && errno == EAGAIN)
          continue;
        fprintf(stderr, "latc: connection %u: %s\n", evs[e].data.u32,
                got < 0 ? strerror(errno) : "closed by the server");
        r.failed++;
        goto out;
      }
      c->have += (size_t)got;
      int status;
      if (!c->busy || !whole_response(c, &status))
        continue;
      int64_t l = now_ns() - c->due;
      lat[r.n++] = l;
      r.sum += l;
      r.errors += status != 200;
      c->busy = false;
      in_flight--;
    }
  }
out:
  for (int c = 0; c < conns; c++)
    close(cs[c].fd);
  close(ep);
  free(cs);
  return r;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: latc PORT get|put SECONDS [RATE [NKEYS [CONNS]]]\n");
    return 2;
  }
  int port = atoi(argv[1]);
  const char *op = argv[2];
  double seconds = atof(argv[3]);
  double rate = argc > 4 ? atof(argv[4]) : 0;
  long nkeys = argc > 5 ? atol(argv[5]) : 10000;
  int conns = argc > 6 ? atoi(argv[6]) : 1;
  if (conns < 1 || conns > 1024 || nkeys < 1) {
    fprintf(stderr, "latc: CONNS 1..1024, NKEYS >= 1\n");
    return 2;
  }
  bool put = strcmp(op, "put") == 0; /* "get" and "canned" send GetItem */
  /* Room for every request of the run: at most rate × seconds open loop;
   * closed loop, at most one per 2 µs. */
  double all = rate > 0 ? rate * seconds + 16 : seconds * 500000 + 16;
  size_t cap = (size_t)all;
  size_t bytes = cap * sizeof(int64_t) + sizeof(conn_result);
  void *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  conn_result *res = shared;
  int64_t *lats = (int64_t *)(res + 1);
  unsigned run = (unsigned)(now_ns() ^ getpid());
  int64_t start = now_ns() + (conns > 1 ? 50000000 : 0), end = start + (int64_t)(seconds * 1e9);
  if (conns == 1)
    res[0] = run_conn(port, put, rate, nkeys, start, end, lats, cap, run);
  else
    res[0] = run_many(port, put, rate, nkeys, conns, start, end, lats, cap, run);
  conns = 1; /* one result */
  size_t n = 0;
  int errors = 0, failed = 0;
  int64_t sum = 0;
  for (int c = 0; c < conns; c++) {
    memmove(lats + n, lats + (size_t)c * cap, res[c].n * sizeof(int64_t));
    n += res[c].n;
    errors += res[c].errors;
    failed += res[c].failed;
    sum += res[c].sum;
  }
  if (failed) {
    fprintf(stderr, "latc: %d connection(s) lost\n", failed);
    return 1;
  }
  if (n == 0)
    return 1;
  int64_t *lat = lats;
  qsort(lat, n, sizeof(*lat), cmp_i64);
  size_t over1 = 0, over10 = 0;
  for (size_t i = 0; i < n; i++) {
    over1 += lat[i] > 1000000;
    over10 += lat[i] > 10000000;
  }
#define PCT(p) (lat[(size_t)((double)(n - 1) * (p))] / 1000)
  printf("RESULT requests=%zu p50=%lld p99=%lld p999=%lld max=%lld errors=%d sum_s=%.2f "
         "over1ms=%zu over10ms=%zu\n",
         n, (long long)PCT(0.50), (long long)PCT(0.99), (long long)PCT(0.999),
         (long long)(lat[n - 1] / 1000), errors, (double)sum / 1e9, over1, over10);
  return 0;
}
