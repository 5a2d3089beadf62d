/*
 * micro_json — how fast base/json reads and writes a PutItem body.
 *
 * The body is a ~1.3 KB PutItem request as botocore sends it (", " and ": "
 * separators) with ~20 attributes of S, N, M and L types. Each iteration
 * parses it into an arena and resets the arena, which is what a request
 * costs; the write loop renders the parsed tree back with sl_jw_value into a
 * reused buffer. DESIGN.md's target for the parse is about 1 µs.
 *
 *   make BUILD=build-x build-x/bench/micro_json && build-x/bench/micro_json [iterations per round]
 */
#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char body[] =
    "{\"TableName\": \"Orders\", \"Item\": {"
    "\"pk\": {\"S\": \"CUSTOMER#0000012345\"}, "
    "\"sk\": {\"S\": \"ORDER#2024-05-17T10:22:31.123Z#8f14e45f\"}, "
    "\"status\": {\"S\": \"SHIPPED\"}, "
    "\"total\": {\"N\": \"1299.95\"}, "
    "\"currency\": {\"S\": \"EUR\"}, "
    "\"itemCount\": {\"N\": \"3\"}, "
    "\"createdAt\": {\"N\": \"1715941351\"}, "
    "\"updatedAt\": {\"N\": \"1715944951\"}, "
    "\"email\": {\"S\": \"jane.doe@example.com\"}, "
    "\"phone\": {\"S\": \"+49 30 1234567\"}, "
    "\"notes\": {\"S\": \"Leave the parcel with the neighbour at number 12 if nobody answers.\"}, "
    "\"gift\": {\"BOOL\": false}, "
    "\"coupon\": {\"NULL\": true}, "
    "\"shipping\": {\"M\": {\"street\": {\"S\": \"Hauptstrasse 5\"}, \"city\": {\"S\": "
    "\"Berlin\"}, "
    "\"zip\": {\"S\": \"10115\"}, \"country\": {\"S\": \"DE\"}, \"express\": {\"BOOL\": true}}}, "
    "\"billing\": {\"M\": {\"street\": {\"S\": \"Hauptstrasse 5\"}, \"city\": {\"S\": \"Berlin\"}, "
    "\"zip\": {\"S\": \"10115\"}, \"vatId\": {\"S\": \"DE123456789\"}}}, "
    "\"lines\": {\"L\": ["
    "{\"M\": {\"sku\": {\"S\": \"SKU-1001\"}, \"qty\": {\"N\": \"1\"}, \"price\": {\"N\": "
    "\"999.99\"}}}, "
    "{\"M\": {\"sku\": {\"S\": \"SKU-2002\"}, \"qty\": {\"N\": \"2\"}, \"price\": {\"N\": "
    "\"149.98\"}}}, "
    "{\"M\": {\"sku\": {\"S\": \"SKU-3003\"}, \"qty\": {\"N\": \"1\"}, \"price\": {\"N\": "
    "\"0.00\"}}}]}, "
    "\"tags\": {\"SS\": [\"priority\", \"fragile\", \"b2c\"]}, "
    "\"scores\": {\"NS\": [\"1\", \"2.5\", \"-3e2\"]}, "
    "\"history\": {\"L\": [{\"S\": \"CREATED\"}, {\"S\": \"PAID\"}, {\"S\": \"PACKED\"}, "
    "{\"S\": \"SHIPPED\"}]}, "
    "\"version\": {\"N\": \"7\"}, "
    "\"region\": {\"S\": \"eu-central-1\"}"
    "}, \"ConditionExpression\": \"attribute_not_exists(pk)\", "
    "\"ReturnConsumedCapacity\": \"TOTAL\"}";

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The machine is shared: each measurement takes many short rounds (a few
 * milliseconds, under a scheduler time slice) and reports the best, which is
 * the uncontended speed, and the median. */
#define ROUNDS 201

static sl_arena arena;
static sl_json *tree;
static sl_buf out;

static void parse_loop(long n) {
  sl_json_error err;
  for (long i = 0; i < n; i++) {
    sl_arena_reset(&arena);
    if (sl_json_parse(&arena, body, sizeof(body) - 1, &tree, &err) != 0)
      abort();
  }
}

static void write_loop(long n) {
  sl_jw w;
  for (long i = 0; i < n; i++) {
    out.len = 0;
    sl_jw_init(&w, &out);
    sl_jw_value(&w, tree);
  }
}

/* Best and median ns per call of 'fn' over ROUNDS rounds of 'n' calls. */
static void measure(void (*fn)(long), long n, double *best, double *median) {
  static double t[ROUNDS];
  fn(n / 10 + 1); /* warm up */
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = now_ns();
    fn(n);
    t[r] = (now_ns() - t0) / (double)n;
  }
  for (int i = 1; i < ROUNDS; i++) /* insertion sort */
    for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
      double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  *best = t[0];
  *median = t[ROUNDS / 2];
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : 2000; /* per round */
  size_t len = sizeof(body) - 1;
  sl_arena_init(&arena);
  sl_buf_init(&out, NULL);
  sl_json_error err;
  if (sl_json_parse(&arena, body, len, &tree, &err) != 0) {
    fprintf(stderr, "micro_json: body does not parse: %s at %zu\n", err.msg, err.offset);
    return 1;
  }
  size_t tree_bytes = arena.total;

  double pb, pm, wb, wm;
  measure(parse_loop, iters, &pb, &pm);
  measure(write_loop, iters, &wb, &wm);

  printf("body %zu bytes, tree %zu arena bytes, best/median of %d rounds x %ld\n", len, tree_bytes,
         ROUNDS, iters);
  printf("parse: %7.1f ns/parse (median %7.1f)  %7.1f MB/s\n", pb, pm, (double)len / pb * 1e3);
  printf("write: %7.1f ns/write (median %7.1f)  %7.1f MB/s (%zu bytes out, compact)\n", wb, wm,
         (double)out.len / wb * 1e3, out.len);
  sl_buf_free(&out);
  sl_arena_destroy(&arena);
  return 0;
}
