/* micro_records — what a stream record adds to a write transaction of the
 * store, without HTTP, JSON or the capacity engine (issue #13's cost).
 *
 *   micro_records [TXNS] [ROUNDS]
 *
 * Each variant runs TXNS write transactions (default 50,000) on a fresh
 * in-memory store (store/store.h: /dev/shm, 32 KB pages, MDB_WRITEMAP, the
 * prefaulter), one PutItem's worth of store work each, and prints the process
 * CPU time per transaction (the prefaulter's thread included), the writing
 * thread's own, and the page faults per transaction. The variants alternate
 * in each of ROUNDS rounds (default 3), so a change of the machine's load
 * hits all alike:
 *   item               a 1,016-byte value under a random 24-byte key in
 *                      "items" (a plain PutItem's store work);
 *   + record           and a 1,100-byte record appended to "records"
 *                      (sl_store_append), as streams/streams.h writes one
 *                      of a ~1 KB item with NEW_AND_OLD_IMAGES;
 *   + record + index   and the shard index entry (17-byte key, empty value,
 *                      one of 4 shards' ranges of "streams"), in the same
 *                      transaction (how streams.c wrote it before the index
 *                      was written in batches);
 *   + 16-byte record   a record of 16 bytes, no index: the records tree's
 *                      own work without the record's bytes;
 *   + rec, batch index  + record + index, but the index entries written
 *                      64 at a time in every 64th transaction (streams.c
 *                      now writes them in batches of up to 1,024 and at
 *                      every read of shards: streams/streams.h, "the
 *                      index");
 *   + record, reused   + record, after TXNS records were appended and
 *                      deleted (untimed), so the records reuse freed pages
 *                      as they do once retention trims as fast as a stream
 *                      is written: the record's bytes without fresh memory.
 * In memory mode the store keeps "records" in an append-only log, not in
 * LMDB (store/memlog.h): the record variants measure the log's append (and
 * "reused", its pooled chunks); the index entries are LMDB's ("streams").
 * Numbers from before the log are LMDB's B-tree (bench/README.md).
 * A measurement, never a timed test. */
#include "base/err.h"
#include "micro.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { ITEM = 1016, RECORD = 1100, N_VARIANTS = 6, BATCH = 64 };

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void check(sl_err err, sl_failure *f) { micro_check("micro_records", err, f); }

static uint8_t item[ITEM], rec[RECORD];

/* Appends records first..first+n-1 and deletes them, 1,000 a transaction. */
static void fill_and_free(sl_store *st, uint64_t first, long n, sl_failure *f) {
  for (int del = 0; del < 2; del++)
    for (long done = 0; done < n; done += 1000) {
      sl_txn *txn;
      check(sl_store_begin(st, true, f, &txn), f);
      for (long i = done; i < n && i < done + 1000; i++) {
        uint8_t rk[8];
        micro_be64(rk, first + (uint64_t)i);
        sl_str key = sl_str_make((char *)rk, 8);
        check(del ? sl_store_del(txn, SL_DB_RECORDS, key, f)
                  : sl_store_append(txn, SL_DB_RECORDS, key, sl_str_make((char *)rec, RECORD), f),
              f);
      }
      check(sl_store_commit(txn, f), f);
    }
}

static void run(int variant, long txns, double *proc_us, double *thread_us, double *per_txn) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_store *st = micro_store("micro_records", &f);
  uint64_t seq = 1;
  if (variant == 4) {
    fill_and_free(st, seq, txns, &f);
    seq += (uint64_t)txns;
  }
  size_t rec_len = variant == 3 ? 16 : RECORD;
  long fl0 = micro_faults();
  double p0 = micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID), t0 = micro_cpu_us(CLOCK_THREAD_CPUTIME_ID);
  for (long i = 0; i < txns; i++, seq++) {
    sl_txn *txn;
    uint8_t key[24], rk[8], ik[17];
    micro_be64(key, next_rand());
    micro_be64(key + 8, next_rand());
    micro_be64(key + 16, (uint64_t)i);
    check(sl_store_begin(st, true, &f, &txn), &f);
    check(sl_store_put(txn, SL_DB_ITEMS, sl_str_make((char *)key, 24),
                       sl_str_make((char *)item, ITEM), &f),
          &f);
    micro_be64(rk, seq);
    if (variant >= 1)
      check(sl_store_append(txn, SL_DB_RECORDS, sl_str_make((char *)rk, 8),
                            sl_str_make((char *)rec, rec_len), &f),
            &f);
    if (variant == 2 || (variant == 5 && i % BATCH == BATCH - 1)) {
      for (uint64_t b = variant == 5 ? BATCH : 1; b > 0; b--) {
        ik[0] = 'R';
        micro_be64(ik + 1, (1ull << 32) | (next_rand() & 3));
        micro_be64(ik + 9, seq + 1 - b);
        check(sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)ik, 17), (sl_str){"", 0}, &f),
              &f);
      }
    }
    check(sl_store_commit(txn, &f), &f);
  }
  *proc_us = (micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID) - p0) / (double)txns;
  *thread_us = (micro_cpu_us(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)txns;
  *per_txn = (double)(micro_faults() - fl0) / (double)txns;
  sl_store_close(st);
  sl_arena_destroy(&a);
}

int main(int argc, char **argv) {
  long txns = argc > 1 ? atol(argv[1]) : 50000;
  int rounds = argc > 2 ? atoi(argv[2]) : 3;
  if (txns < 1 || rounds < 1) {
    fprintf(stderr, "usage: micro_records [TXNS] [ROUNDS]\n");
    return 2;
  }
  memset(item, 'x', sizeof(item));
  memset(rec, 'y', sizeof(rec));
  static const char *const names[N_VARIANTS] = {"item",
                                                "+ record",
                                                "+ record + index",
                                                "+ 16-byte record",
                                                "+ record, reused",
                                                "+ rec, batch index"};
  printf("micro_records: %ld write transactions a variant, %d rounds; CPU µs a transaction "
         "(process, writing thread), page faults a transaction\n",
         txns, rounds);
  for (int r = 0; r < rounds; r++)
    for (int v = 0; v < N_VARIANTS; v++) {
      double p, t, fl;
      run(v, txns, &p, &t, &fl);
      printf("round %d  %-18s %6.2f  %6.2f  %.2f faults\n", r, names[v], p, t, fl);
      fflush(stdout);
    }
  return 0;
}
