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
 *             (what sl_streams_tick does now);
 *   bucket    each second's records go to a database of their own (two
 *             take turns: the store's empty "items" and "catalog"), emptied
 *             whole by sl_store_empty (mdb_drop) a second later, the index
 *             entries range-deleted as in "range";
 *   bucket+ix the same with the index entries in the bucket too (the
 *             records' keys then start with 0xFF, after the index's 'R',
 *             so that they are still appended), so that trimming is one
 *             sl_store_empty and nothing else (a design for time-bucketed
 *             records, not built in streams.c);
 *   lazy ix   as "range", but each shard's index entries are deleted only
 *             once LAZY_IX numbers (about 8 of its 32 KB pages) wait below
 *             the cut: a trimmed prefix of a page is its oldest nodes, at the
 *             page's end, and deleting one moves every newer node of the
 *             page, so index entries deleted a quarter page at a time cost a
 *             memmove each, where whole pages deleted from the top move
 *             nothing;
 *   none      no trimming: every record is written on fresh pages, as on a
 *             server's first day (the baseline of the writes' cost).
 * RECORDS (default 100,000) are written after a first untimed second. It
 * prints the process CPU time per record written, split into the appends
 * and the deletes, and the page faults per record; the variants alternate
 * in each of ROUNDS rounds (default 3). In memory mode the store keeps
 * "records" in an append-only log (store/memlog.h), so "forward" and
 * "range" now delete records from the log (a deleted mark, then the head
 * moved at the commit) and only the index entries from LMDB; the buckets
 * are still LMDB databases. Numbers from before the log are LMDB's
 * (bench/README.md). A measurement, never a timed test. */
#include "base/err.h"
#include "micro.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { RECORD = 1100, PER_SECOND = 20000, PER_CALL = 1024, SHARDS = 4, LAZY_IX = 32768 };

static void check(sl_err err, sl_failure *f) { micro_check("micro_trim", err, f); }

static uint8_t rec[RECORD];

/* Shard 'shard' of stream 1: record 'seq' is in shard seq % SHARDS. */
static void shard_key(uint8_t out[17], uint64_t shard, uint64_t seq) {
  out[0] = 'R';
  micro_be64(out + 1, (1ull << 32) | shard);
  micro_be64(out + 9, seq);
}

static void index_key(uint8_t out[17], uint64_t seq) { shard_key(out, seq % SHARDS, seq); }

/* Appends records [from, to) to 'rdb' with their index entries in 'idb',
 * one transaction each; the records' keys are 0xFF + the number when the two
 * share a database. */
static void write_second(sl_store *st, sl_db rdb, sl_db idb, uint64_t from, uint64_t to,
                         sl_failure *f) {
  size_t tag = rdb == idb;
  for (uint64_t seq = from; seq < to; seq++) {
    sl_txn *txn;
    uint8_t rk[9] = {0xFF}, ik[17];
    micro_be64(rk + tag, seq);
    index_key(ik, seq);
    check(sl_store_begin(st, true, f, &txn), f);
    check(sl_store_append(txn, rdb, sl_str_make((char *)rk, 8 + tag),
                          sl_str_make((char *)rec, RECORD), f),
          f);
    check(sl_store_put(txn, idb, sl_str_make((char *)ik, 17), (sl_str){"", 0}, f), f);
    check(sl_store_commit(txn, f), f);
  }
}

static const sl_db buckets[2] = {SL_DB_ITEMS, SL_DB_CATALOG};

/* Deletes each shard's index entries numbered [lo, hi). */
static void trim_index(sl_txn *txn, uint64_t lo, uint64_t hi, sl_failure *f) {
  for (uint32_t s = 0; s < SHARDS; s++) {
    uint8_t a[17], b[17];
    shard_key(a, s, lo);
    shard_key(b, s, hi);
    check(sl_store_del_range(txn, SL_DB_STREAMS, sl_str_make((char *)a, 17),
                             sl_str_make((char *)b, 17), NULL, f),
          f);
  }
}

static uint64_t ix_lo; /* lazy ix: the lowest index entry not deleted */

/* Deletes records [from, to) of second 'sec' and their index entries,
 * PER_CALL a transaction (a bucket: one transaction). */
static void trim(sl_store *st, int variant, long sec, uint64_t from, uint64_t to, sl_failure *f) {
  if (variant == 5)
    return;
  if (variant == 2 || variant == 3) {
    sl_txn *txn;
    check(sl_store_begin(st, true, f, &txn), f);
    check(sl_store_empty(txn, buckets[sec & 1], f), f);
    if (variant == 2)
      trim_index(txn, from, to, f);
    check(sl_store_commit(txn, f), f);
    return;
  }
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
      if (variant == 1)
        trim_index(txn, lo, hi, f);
      else if (hi - ix_lo >= LAZY_IX) {
        trim_index(txn, ix_lo, hi, f);
        ix_lo = hi;
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
  long sec = 0;
  ix_lo = 1;
  /* Second 'sec' goes to these databases. */
#define RDB (variant == 2 || variant == 3 ? buckets[sec & 1] : SL_DB_RECORDS)
#define IDB (variant == 3 ? buckets[sec & 1] : SL_DB_STREAMS)
  write_second(st, RDB, IDB, seq, seq + PER_SECOND, &f); /* the first day's second, untimed */
  seq += PER_SECOND;
  double w = 0, t = 0;
  long fl0 = micro_faults();
  for (long done = 0; done < n; done += PER_SECOND) {
    double c0 = micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID);
    trim(st, variant, sec, seq - PER_SECOND, seq, &f);
    double c1 = micro_cpu_us(CLOCK_PROCESS_CPUTIME_ID);
    sec++;
    write_second(st, RDB, IDB, seq, seq + PER_SECOND, &f);
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
    sl_cursor *c = sl_store_cursor(txn, db ? IDB : RDB);
    sl_str k, v;
    long left = 0;
    for (bool ok = sl_cursor_first(c, &k, &v); ok; ok = sl_cursor_next(c, &k, &v))
      left += db == 0 ? k.len == 8 + (size_t)(variant == 3)
                      : k.len == 17 && k.p[0] == 'R' &&
                            (variant != 4 ||
                             micro_rd64be((const uint8_t *)k.p + 9) >= seq - PER_SECOND);
    sl_cursor_close(c);
    long want = variant == 5 ? (long)(seq - 1) : PER_SECOND;
    if (left != want) {
      fprintf(stderr, "micro_trim: %ld %s left, not %ld\n", left, db ? "index entries" : "records",
              want);
      exit(1);
    }
  }
#undef RDB
#undef IDB
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
  static const char *const names[6] = {"forward",   "range",   "bucket",
                                       "bucket+ix", "lazy ix", "none"};
  printf("micro_trim: %ld records a variant, one trimmed per one written, %d rounds; CPU µs a "
         "record: writing, trimming; page faults a record\n",
         n, rounds);
  for (int r = 0; r < rounds; r++)
    for (int v = 0; v < 6; v++) {
      double w, t, fl;
      run(v, n, &w, &t, &fl);
      printf("round %d  %-8s %6.2f  %6.2f  %.2f faults\n", r, names[v], w, t, fl);
      fflush(stdout);
    }
  return 0;
}
