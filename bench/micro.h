/* micro.h — what the store micro-benchmarks (bench/micro_records.c,
 * bench/micro_trim.c) share: a fresh in-memory store, a check that ends the
 * run on a storage error, CPU time of a clock, page faults of the process,
 * and big-endian keys (sorted as numbers). Header only: each micro is one
 * file built against the server's objects (Makefile). */
#ifndef SL_BENCH_MICRO_H
#define SL_BENCH_MICRO_H

#include "base/err.h"
#include "store/store.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

/* A storage error ends the run, named after the program 'who'. */
static inline void micro_check(const char *who, sl_err err, sl_failure *f) {
  if (err != SL_OK) {
    fprintf(stderr, "%s: %.*s\n", who, SL_STR_FMT(f->message));
    exit(1);
  }
}

/* A fresh in-memory store (8 GB map at most), as the server opens one. */
static inline sl_store *micro_store(const char *who, sl_failure *f) {
  sl_store_config cfg = {.data_dir = NULL, .map_size = 8ull << 30};
  sl_store *st = NULL;
  micro_check(who, sl_store_open(&cfg, f, &st), f);
  return st;
}

/* µs of CPU time of 'id' (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID). */
static inline double micro_cpu_us(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* The process's page faults so far, minor and major. */
static inline long micro_faults(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt + u.ru_majflt;
}

static inline void micro_be64(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; i--, v >>= 8)
    p[i] = (uint8_t)v;
}

static inline uint64_t micro_rd64be(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v = v << 8 | p[i];
  return v;
}

#endif
