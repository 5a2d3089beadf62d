/* latc — a one-connection latency client for bench/tail.py.
 *
 *   latc PORT get|put SECONDS [RATE [NKEYS]]
 *
 * Sends DynamoDB GetItem (keys g0..g(NKEYS-1), default 10,000) or PutItem
 * (fresh keys, ~1 KB items) requests to 127.0.0.1:PORT over one keep-alive
 * connection with TCP_NODELAY, each timed with CLOCK_MONOTONIC from its
 * intended start to the last byte of its response. RATE 0 (the default) is
 * closed-loop (the next request leaves when the answer is in); RATE N > 0 is
 * open-loop at N requests a second: request i is due at start + i/N, and its
 * latency counts from then, so a stall also counts against the requests it
 * delayed (no coordinated omission). Prints one line:
 *
 *   RESULT requests=N p50=US p99=US p999=US max=US errors=N sum_s=S over1ms=N over10ms=N
 *
 * sum_s is the sum of the latencies: at one connection, closed-loop, it
 * cannot exceed the run's length (a check on the clock; wrk's latency table
 * on this machine failed it, see bench/README.md).
 *
 * Built by bench/tail.py (cc -O2); a measurement tool, never a timed test. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: latc PORT get|put SECONDS [RATE [NKEYS]]\n");
    return 2;
  }
  int port = atoi(argv[1]);
  const char *op = argv[2];
  double seconds = atof(argv[3]);
  double rate = argc > 4 ? atof(argv[4]) : 0;
  long nkeys = argc > 5 ? atol(argv[5]) : 10000;
  bool put = strcmp(op, "put") == 0; /* "get" and "canned" send GetItem */
  char pad[961];
  memset(pad, 'x', 960);
  pad[960] = 0;
  size_t cap = 1 << 20, n = 0;
  int64_t *lat = malloc(cap * sizeof(*lat));
  static char req[4096], body[2048], resp[1 << 16];
  unsigned run = (unsigned)(now_ns() ^ getpid());
  int fd = connect_to(port), errors = 0;
  int64_t start = now_ns(), end = start + (int64_t)(seconds * 1e9), sum = 0;
  for (uint64_t i = 0;; i++) {
    int64_t due = rate > 0 ? start + (int64_t)((double)i * 1e9 / rate) : now_ns();
    if (due >= end)
      break;
    if (rate > 0)
      sleep_until(due);
    int blen;
    if (put)
      blen = snprintf(body, sizeof(body),
                      "{\"TableName\":\"bench\",\"Item\":{\"pk\":{\"S\":\"latc%u-%llu\"},"
                      "\"pad\":{\"S\":\"%s\"}}}",
                      run, (unsigned long long)i, pad);
    else
      blen = snprintf(body, sizeof(body),
                      "{\"TableName\":\"bench\",\"Key\":{\"pk\":{\"S\":\"g%ld\"}}}",
                      (long)(i % (uint64_t)nkeys));
    int rlen = snprintf(req, sizeof(req),
                        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                        "application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.%s\r\n"
                        "Authorization: %s\r\nX-Amz-Date: 20261130T000000Z\r\n"
                        "Content-Length: %d\r\n\r\n%s",
                        put ? "PutItem" : "GetItem", AUTH, blen, body);
    if (write(fd, req, (size_t)rlen) != rlen) {
      perror("write");
      return 1;
    }
    int status = read_response(fd, resp, sizeof(resp));
    if (status < 0) {
      fprintf(stderr, "connection lost\n");
      return 1;
    }
    if (status != 200)
      errors++;
    int64_t l = now_ns() - due;
    if (n == cap)
      lat = realloc(lat, (cap *= 2) * sizeof(*lat));
    lat[n++] = l;
    sum += l;
  }
  close(fd);
  if (n == 0)
    return 1;
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
