/* micro_trim — what trimming a stream's oldest records costs the store, in a
 * steady state where one old record is deleted per new one (issue #13).
 *
 *   micro_trim [RECORDS] [ROUNDS]
 *
 * On a fresh in-memory store (store/store.h: /dev/shm, 32 KB pages), each
 * "second" appends 20,000 records of 1,100 bytes to "records" (one write
 * transaction each, with its 17-byte entry in one of 4 shards' index ranges
 * of "streams"; streams/streams.c now writes those entries in batches, which
 * trimming does not see), and from the second
 * second on deletes the previous second's records and index entries, 1,024
 * of each a transaction (streams.c's TRIM_PER_CALL), in one of two orders:
 *   forward   each key by sl_store_del, lowest first (how sl_streams_tick
 *             deleted records before: every delete moves the rest of its
 *             page's nodes);
 *   range     sl_store_del_range, which deletes from the highest key down
 *             (what sl_streams_tick does now).
 * RECORDS (default 100,000) are written after a first untimed second. It
 * prints the process CPU time per record written, split into the appends
 * and the deletes, and the page faults per record; the variants alternate
 * in each of ROUNDS rounds (default 3). A measurement, never a timed test. */
#include "base/err.h"
#include "micro.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { RECORD = 1100, PER_SECOND = 20000, PER_CALL = 1024, SHARDS = 4 };

static void check(sl_err err, sl_failure *f) { micro_check("micro_trim", err, f); }

static uint8_t rec[RECORD];

/* Shard 'shard' of stream 1: record 'seq' is in shard seq % SHARDS. */
static void shard_key(uint8_t out[17], uint64_t shard, uint64_t seq) {
  out[0] = 'R';
  micro_be64(out + 1, (1ull << 32) | shard);
  micro_be64(out + 9, seq);
}

static void index_key(uint8_t out[17], uint64_t seq) { shard_key(out, seq % SHARDS, seq); }

/* Appends records [from, to), one transaction each. */
static void write_second(sl_store *st, uint64_t from, uint64_t to, sl_failure *f) {
  for (uint64_t seq = from; seq < to; seq++) {
    sl_txn *txn;
    uint8_t rk[8], ik[17];
    micro_be64(rk, seq);
    index_key(ik, seq);
    check(sl_store_begin(st, true, f, &txn), f);
    check(sl_store_append(txn, SL_DB_RECORDS, sl_str_make((char *)rk, 8),
                          sl_str_make((char *)rec, RECORD), f),
          f);
    check(sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)ik, 17), (sl_str){"", 0}, f), f);
    check(sl_store_commit(txn, f), f);
  }
}

/* Deletes records [from, to) and their index entries, PER_CALL a transaction. */
static void trim(sl_store *st, int variant, uint64_t from, uint64_t to, sl_failure *f) {
  for (uint64_t lo = from; lo < to; lo += PER_CALL) {
    uint64_t hi = lo + PER_CALL < to ? lo + PER_CALL : to;
    sl_txn *txn;
    check(sl_store_begin(st, true, f, &txn), f);
    if (variant == 0) {
      for (uint32_t s = 0; s < SHARDS; s++)
        for (uint64_t seq = lo; seq < hi; seq++)
          if (seq % SHARDS == s) {
            uint8_t ik[17];
            index_key(ik, seq);
            check(sl_store_del(txn, SL_DB_STREAMS, sl_str_make((char *)ik, 17), f), f);
          }
      for (uint64_t seq = lo; seq < hi; seq++) {
        uint8_t rk[8];
        micro_be64(rk, seq);
        check(sl_store_del(txn, SL_DB_RECORDS, sl_str_make((char *)rk, 8), f), f);
      }
    } else {
      /* Per shard, its entries in [lo, hi) are one key range. */
      for (uint32_t s = 0; s < SHARDS; s++) {
        uint8_t a[17], b[17];
        shard_key(a, s, lo);
        shard_key(b, s, hi);
        check(sl_store_del_range(txn, SL_DB_STREAMS, sl_str_make((char *)a, 17),
                                 sl_str_make((char *)b, 17), NULL, f),
              f);
      }
      uint8_t a[8], b[8];
      micro_be64(a, lo);
      micro_be64(b, hi);
      check(sl_store_del_range(txn, SL_DB_RECORDS, sl_str_make((char *)a, 8),
                               sl_str_make((char *)b, 8), NULL, f),
            f);
    }
    check(sl_store_commit(txn, f), f);
  }
}

static void run(int variant, long n, double *write_us, double *trim_us, double *flt) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_store *st = micro_store("micro_trim", &f);
  uint64_t seq = 1;
  write_second(st, seq, seq + PER_SECOND, &f); /* the first day's second, untimed */
  seq += PER_SECOND;
  double w = 0, t = 0;
  long fl0 = micro_faults();
  for (long done = 0; done < n; done += PER_SECOND) {
    double c0 = micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID);
    trim(st, variant, seq - PER_SECOND, seq, &f);
    double c1 = micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID);
    write_second(st, seq, seq + PER_SECOND, &f);
    seq += PER_SECOND;
    w += micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID) - c1;
    t += c1 - c0;
  }
  long written = (long)(seq - 1 - PER_SECOND);
  *write_us = w / (double)written;
  *trim_us = t / (double)written;
  *flt = (double)(micro_faults() - fl0) / (double)written;
  /* Only the last second's records and index entries are left. */
  sl_txn *txn;
  check(sl_store_begin(st, false, &f, &txn), &f);
  for (int db = 0; db < 2; db++) {
    sl_cursor *c = sl_store_cursor(txn, db ? SL_DB_STREAMS : SL_DB_RECORDS);
    sl_str k, v;
    long left = 0;
    for (bool ok = sl_cursor_first(c, &k, &v); ok; ok = sl_cursor_next(c, &k, &v))
      left += db == 0 || (k.len == 17 && k.p[0] == 'R');
    sl_cursor_close(c);
    if (left != PER_SECOND) {
      fprintf(stderr, "micro_trim: %ld %s left, not %d\n", left, db ? "index entries" : "records",
              PER_SECOND);
      exit(1);
    }
  }
  sl_store_abort(txn);
  sl_store_close(st);
  sl_arena_destroy(&a);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  int rounds = argc > 2 ? atoi(argv[2]) : 3;
  if (n < 1 || rounds < 1) {
    fprintf(stderr, "usage: micro_trim [RECORDS] [ROUNDS]\n");
    return 2;
  }
  memset(rec, 'y', sizeof(rec));
  static const char *const names[2] = {"forward", "range"};
  printf("micro_trim: %ld records a variant, one trimmed per one written, %d rounds; CPU µs a "
         "record: writing, trimming; page faults a record\n",
         n, rounds);
  for (int r = 0; r < rounds; r++)
    for (int v = 0; v < 2; v++) {
      double w, t, fl;
      run(v, n, &w, &t, &fl);
      printf("round %d  %-8s %6.2f  %6.2f  %.2f faults\n", r, names[v], w, t, fl);
      fflush(stdout);
    }
  return 0;
}
