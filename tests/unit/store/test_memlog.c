/* Unit tests of store/memlog.h, memory mode's "records" database: entries
 * in key order, deletes seen at once and undone by an abort, a commit that
 * drops the deleted ends and reuses their chunks, the limit, entries larger
 * than a chunk, chunks kept from reuse while a read may hold slices; and,
 * through the store, a random sequence of writes, aborts and cursor moves on
 * "records" that gives the same answers in memory (the log) and with
 * --data-dir (LMDB); with a pretouch, records in the pretouched memory. */
#include "base/bytes.h"
#include "harness.h"
#include "store_fixture.h"
#include "store/memlog.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static sl_str key_of(uint8_t out[8], uint64_t n) {
  sl_be64(out, n);
  return sl_str_make((char *)out, 8);
}

static uint64_t num_of(sl_str k) { return k.len == 8 ? sl_rd64be((const uint8_t *)k.p) : ~0ull; }

/* Appends keys [from, to) with values "v<key>" padded to 'len' bytes. */
static void fill(sl_memlog *l, uint64_t from, uint64_t to, size_t len) {
  static char val[1 << 16];
  for (uint64_t i = from; i < to; i++) {
    uint8_t k[8];
    snprintf(val, sizeof(val), "v%llu", (unsigned long long)i);
    CHECK_INT(sl_memlog_append(l, key_of(k, i), sl_str_make(val, len)), SL_MEMLOG_OK);
  }
}

static bool has(const sl_memlog *l, uint64_t i) {
  uint8_t k[8];
  sl_str v;
  char want[32];
  snprintf(want, sizeof(want), "v%llu", (unsigned long long)i);
  return sl_memlog_get(l, key_of(k, i), &v) && v.len >= strlen(want) &&
         memcmp(v.p, want, strlen(want)) == 0;
}

/* Order, get, positions and the live entries either way past deleted ones. */
static void test_order_and_reading(void) {
  sl_memlog *l = sl_memlog_new(64u << 20, NULL);
  uint8_t k[8];
  sl_memlog_begin(l);
  fill(l, 10, 20, 100);
  CHECK_INT(sl_memlog_append(l, key_of(k, 19), SL_STR("x")), SL_MEMLOG_ORDER);
  CHECK_INT(sl_memlog_append(l, key_of(k, 5), SL_STR("x")), SL_MEMLOG_ORDER);
  CHECK_INT(sl_memlog_append(l, SL_STR("\x00"), SL_STR("x")), SL_MEMLOG_ORDER);
  sl_memlog_commit(l, false);
  CHECK(has(l, 10) && has(l, 19) && !has(l, 9) && !has(l, 20));
  CHECK_INT(sl_memlog_count(l), 10);
  CHECK_INT(sl_memlog_lower_bound(l, key_of(k, 0)), sl_memlog_first_pos(l));
  CHECK_INT(sl_memlog_lower_bound(l, key_of(k, 15)), sl_memlog_first_pos(l) + 5);
  CHECK_INT(sl_memlog_lower_bound(l, key_of(k, 99)), sl_memlog_end_pos(l));
  /* A 9-byte key after the 8-byte key 15 and before 16 (bytes, then length). */
  uint8_t k9[9];
  sl_be64(k9, 15);
  k9[8] = 0;
  CHECK_INT(sl_memlog_lower_bound(l, sl_str_make((char *)k9, 9)), sl_memlog_first_pos(l) + 6);
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_del(l, key_of(k, 15)), 1);
  CHECK_INT(sl_memlog_del(l, key_of(k, 15)), 0);
  CHECK_INT(sl_memlog_del(l, key_of(k, 16)), 1);
  CHECK(!has(l, 15) && !has(l, 16));
  uint64_t p = sl_memlog_first_pos(l) + 5;
  sl_str kk, vv;
  CHECK(sl_memlog_at(l, &p, 1, &kk, &vv) && num_of(kk) == 17);
  p = sl_memlog_first_pos(l) + 6;
  CHECK(sl_memlog_at(l, &p, -1, &kk, &vv) && num_of(kk) == 14);
  p = sl_memlog_end_pos(l);
  CHECK(!sl_memlog_at(l, &p, 1, &kk, &vv) && p == sl_memlog_end_pos(l));
  p = sl_memlog_first_pos(l) - 1;
  CHECK(!sl_memlog_at(l, &p, -1, &kk, &vv));
  sl_memlog_commit(l, false);
  CHECK_INT(sl_memlog_count(l), 8);
  sl_memlog_free(l);
}

/* An abort drops what the write appended and brings back what it deleted,
 * across chunks; a commit then drops the deleted entries at both ends. */
static void test_abort_and_commit(void) {
  sl_memlog *l = sl_memlog_new(256u << 20, NULL);
  sl_memlog_begin(l);
  fill(l, 0, 3000, 1000); /* two chunks */
  sl_memlog_commit(l, false);
  uint64_t bytes = sl_memlog_bytes(l);
  CHECK_INT(bytes, 2 * SL_MEMLOG_CHUNK);
  sl_memlog_begin(l);
  uint8_t lo[8], hi[8];
  CHECK_INT(sl_memlog_del_range(l, key_of(lo, 0), key_of(hi, 2500)), 2500);
  fill(l, 3000, 9000, 1000); /* three more chunks */
  CHECK(!has(l, 100) && has(l, 8999));
  sl_memlog_abort(l);
  CHECK_INT(sl_memlog_count(l), 3000);
  CHECK(has(l, 0) && has(l, 2999) && !has(l, 3000));
  CHECK_INT(sl_memlog_end_pos(l) - sl_memlog_first_pos(l), 3000);
  /* The aborted write's chunks went to the pool: mapped, not in use. */
  CHECK(sl_memlog_bytes(l) > bytes);
  /* The log goes on from where it was. */
  sl_memlog_begin(l);
  fill(l, 3000, 3001, 10);
  sl_memlog_commit(l, false);
  CHECK(has(l, 3000));
  /* Deleted ends go at the commit: the head's chunk is released. */
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_del_range(l, key_of(lo, 0), key_of(hi, 2500)), 2500);
  CHECK_INT(sl_memlog_del_range(l, key_of(lo, 2990), key_of(hi, 99999)), 11);
  sl_memlog_commit(l, false);
  CHECK_INT(sl_memlog_end_pos(l) - sl_memlog_first_pos(l), 490);
  CHECK(has(l, 2500) && has(l, 2989) && !has(l, 2990) && !has(l, 2499));
  /* Emptied, aborted, then emptied and committed. */
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_empty(l), 490);
  sl_memlog_abort(l);
  CHECK_INT(sl_memlog_count(l), 490);
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_empty(l), 490);
  sl_memlog_commit(l, false);
  CHECK_INT(sl_memlog_count(l), 0);
  CHECK_INT(sl_memlog_end_pos(l), sl_memlog_first_pos(l));
  /* An empty log takes keys lower than those it held. */
  sl_memlog_begin(l);
  fill(l, 1, 2, 10);
  sl_memlog_commit(l, false);
  CHECK(has(l, 1));
  sl_memlog_free(l);
}

/* A queue written and trimmed for a long time reuses its chunks: the bytes
 * mapped stay at what it holds plus the pool. */
static void test_reuse(void) {
  sl_memlog *l = sl_memlog_new(1ull << 30, NULL);
  uint64_t next = 0, most = 0;
  uint8_t lo[8], hi[8];
  for (int round = 0; round < 200; round++) {
    sl_memlog_begin(l);
    fill(l, next, next + 2000, 1100); /* ~1 chunk a round */
    next += 2000;
    if (next > 8000) /* keep the last 8,000 */
      sl_memlog_del_range(l, key_of(lo, 0), key_of(hi, next - 8000));
    sl_memlog_commit(l, false);
    if (sl_memlog_bytes(l) > most)
      most = sl_memlog_bytes(l);
  }
  CHECK_INT(sl_memlog_count(l), 8000);
  /* Before a round's trim, 10,000 entries of ~1.1 KB: 6 chunks in use, 7
   * with the tail's rest; and a chunk or so in the pool. */
  CHECK(most <= 8ull * SL_MEMLOG_CHUNK);
  CHECK(has(l, next - 8000) && has(l, next - 1) && !has(l, next - 8001));
  sl_memlog_free(l);
}

/* The limit refuses an append that needs a chunk past it; a trim makes room
 * again. An entry larger than a chunk takes one of its own. */
static void test_limit_and_large(void) {
  sl_memlog *l = sl_memlog_new(3ull * SL_MEMLOG_CHUNK, NULL);
  static char big[5u << 20];
  memset(big, 'b', sizeof(big));
  uint8_t k[8], hi[8];
  sl_memlog_begin(l);
  uint64_t n = 0;
  int rc;
  while ((rc = sl_memlog_append(l, key_of(k, n), sl_str_make(big, 4000))) == SL_MEMLOG_OK)
    n++;
  CHECK_INT(rc, SL_MEMLOG_FULL);
  CHECK(n > 1500 && n < 1600); /* 3 chunks of 4 KB entries */
  sl_memlog_commit(l, false);
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_del_range(l, SL_STR(""), key_of(hi, n / 2)), n / 2);
  sl_memlog_commit(l, false);
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_append(l, key_of(k, n), sl_str_make(big, 4000)), SL_MEMLOG_OK);
  sl_memlog_commit(l, false);
  sl_memlog_free(l);

  l = sl_memlog_new(64u << 20, NULL);
  sl_memlog_begin(l);
  fill(l, 0, 3, 100);
  CHECK_INT(sl_memlog_append(l, key_of(k, 3), sl_str_make(big, sizeof(big))), SL_MEMLOG_OK);
  fill(l, 4, 6, 100);
  sl_memlog_commit(l, false);
  sl_str v;
  CHECK(sl_memlog_get(l, key_of(k, 3), &v) && v.len == sizeof(big) && v.p[0] == 'b' &&
        v.p[v.len - 1] == 'b');
  /* A chunk, and one of 6 MB that has room for the two after the large one. */
  CHECK_INT(sl_memlog_bytes(l), SL_MEMLOG_CHUNK + (6u << 20));
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_del_range(l, SL_STR(""), key_of(hi, 4)), 4);
  sl_memlog_commit(l, false);
  CHECK(has(l, 4) && has(l, 5));
  CHECK_INT(sl_memlog_bytes(l), SL_MEMLOG_CHUNK + (6u << 20)); /* the first pooled */
  sl_memlog_begin(l);
  CHECK_INT(sl_memlog_empty(l), 2);
  sl_memlog_commit(l, false);
  CHECK_INT(sl_memlog_bytes(l), SL_MEMLOG_CHUNK); /* the large one unmapped */
  sl_memlog_free(l);
}

/* A chunk released while a read may hold slices into it is not reused until
 * the read ends. */
static void test_reader_keeps_chunks(void) {
  sl_memlog *l = sl_memlog_new(64u << 20, NULL);
  uint8_t k[8], hi[8];
  sl_memlog_begin(l);
  fill(l, 0, 2100, 1000); /* the first chunk (2,048 entries), and some of the second */
  sl_memlog_commit(l, false);
  sl_str held;
  CHECK(sl_memlog_get(l, key_of(k, 0), &held));
  sl_memlog_begin(l);
  sl_memlog_del_range(l, SL_STR(""), key_of(hi, 2099));
  sl_memlog_commit(l, true); /* a read is live */
  sl_memlog_begin(l);
  fill(l, 2100, 6000, 1000); /* new chunks, not the first */
  sl_memlog_commit(l, true);
  CHECK(held.len == 1000 && memcmp(held.p, "v0", 3) == 0);
  sl_memlog_quiesce(l);
  uint64_t bytes = sl_memlog_bytes(l);
  sl_memlog_begin(l);
  fill(l, 6000, 8100, 1000); /* takes the first chunk from the pool */
  sl_memlog_commit(l, false);
  CHECK_INT(sl_memlog_bytes(l), bytes);
  sl_memlog_free(l);
}

/* ---- through the store: the log against LMDB ---- */

static uint64_t rng = 0x1234567;
static uint64_t rnd(uint64_t n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng % n;
}

/* One cursor move on both stores, compared; whether it landed. */
static bool same_cursor(sl_cursor *a, sl_cursor *b, int op, sl_str key) {
  sl_str ka = {0}, va = {0}, kb = {0}, vb = {0};
  bool ra = false, rb = false;
  switch (op) {
  case 0:
    ra = sl_cursor_seek(a, key, &ka, &va), rb = sl_cursor_seek(b, key, &kb, &vb);
    break;
  case 1:
    ra = sl_cursor_seek_last_before(a, key, &ka, &va);
    rb = sl_cursor_seek_last_before(b, key, &kb, &vb);
    break;
  case 2:
    ra = sl_cursor_first(a, &ka, &va), rb = sl_cursor_first(b, &kb, &vb);
    break;
  case 3:
    ra = sl_cursor_next(a, &ka, &va), rb = sl_cursor_next(b, &kb, &vb);
    break;
  default:
    ra = sl_cursor_prev(a, &ka, &va), rb = sl_cursor_prev(b, &kb, &vb);
    break;
  }
  CHECK(ra == rb);
  if (ra && rb) {
    CHECK(sl_str_cmp(ka, kb) == 0);
    CHECK(sl_str_cmp(va, vb) == 0);
  }
  return ra && rb;
}

static void test_same_as_lmdb(void) {
  sl_arena ar;
  sl_arena_init(&ar);
  sl_failure f;
  sl_failure_init(&f, &ar);
  char dir[] = "/tmp/sluice-memlog-XXXXXX";
  sl_store_config mem = {.map_size = 64u << 20};
  sl_store *st[2] = {NULL, fixture_dir_store(dir, &f)};
  CHECK_INT(sl_store_open(&mem, &f, &st[0]), SL_OK);
  uint64_t next = 0;
  char val[600];
  for (int step = 0; step < 3000; step++) {
    /* A write of a few changes, committed or aborted, the same on both. */
    sl_txn *t[2];
    for (int s = 0; s < 2; s++)
      CHECK_INT(sl_store_begin(st[s], true, &f, &t[s]), SL_OK);
    int changes = 1 + (int)rnd(4);
    uint64_t first = next;
    for (int c = 0; c < changes; c++) {
      uint64_t what = rnd(100), a = rnd(next + 10), b = a + rnd(40);
      uint8_t ka[8], kb[8];
      if (what < 70) {
        size_t len = rnd(sizeof(val));
        memset(val, 'a' + (int)(next % 26), len);
        uint64_t n = next++;
        for (int s = 0; s < 2; s++)
          CHECK_INT(sl_store_append(t[s], SL_DB_RECORDS, key_of(ka, n), sl_str_make(val, len), &f),
                    SL_OK);
      } else if (what < 80) {
        for (int s = 0; s < 2; s++)
          CHECK_INT(sl_store_del(t[s], SL_DB_RECORDS, key_of(ka, a), &f), SL_OK);
      } else if (what < 99) {
        uint64_t n[2];
        for (int s = 0; s < 2; s++)
          CHECK_INT(sl_store_del_range(t[s], SL_DB_RECORDS, what < 90 ? SL_STR("") : key_of(ka, a),
                                       key_of(kb, b), &n[s], &f),
                    SL_OK);
        CHECK_INT(n[0], n[1]);
      } else {
        for (int s = 0; s < 2; s++)
          CHECK_INT(sl_store_empty(t[s], SL_DB_RECORDS, &f), SL_OK);
      }
    }
    bool abort = rnd(5) == 0;
    for (int s = 0; s < 2; s++) {
      if (abort)
        sl_store_abort(t[s]);
      else
        CHECK_INT(sl_store_commit(t[s], &f), SL_OK);
    }
    if (abort) /* keys only grow, as the streams' sequence numbers do */
      next = first + 1000;
    /* Reads: a cursor's moves from random places, and gets. */
    for (int s = 0; s < 2; s++)
      CHECK_INT(sl_store_begin(st[s], false, &f, &t[s]), SL_OK);
    sl_cursor *c[2] = {sl_store_cursor(t[0], SL_DB_RECORDS), sl_store_cursor(t[1], SL_DB_RECORDS)};
    bool placed = false;
    for (int m = 0; m < 12; m++) {
      uint8_t k[8];
      sl_str key = key_of(k, rnd(next + 10));
      /* Next and prev from a place only (store.h: after a move that lands
       * on nothing, only a seek or first places a cursor again). */
      placed = same_cursor(c[0], c[1], (int)rnd(placed ? 5 : 3), key);
      sl_str v0, v1;
      bool g0 = sl_store_get(t[0], SL_DB_RECORDS, key, &v0),
           g1 = sl_store_get(t[1], SL_DB_RECORDS, key, &v1);
      CHECK(g0 == g1 && (!g0 || sl_str_cmp(v0, v1) == 0));
    }
    for (int s = 0; s < 2; s++) {
      sl_cursor_close(c[s]);
      sl_store_abort(t[s]);
    }
    if (sl_t_failures)
      break;
  }
  sl_store_close(st[0]);
  sl_store_close(st[1]);
  fixture_dir_remove(dir);
  sl_arena_destroy(&ar);
}

/* Resident bytes of this process (/proc/self/statm). */
static uint64_t resident_bytes(void) {
  FILE *fp = fopen("/proc/self/statm", "r");
  unsigned long long size = 0, res = 0;
  CHECK(fp && fscanf(fp, "%llu %llu", &size, &res) == 2);
  if (fp)
    fclose(fp);
  return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* With a pretouch, the records take the pretouched map's unused memory
 * instead of fresh memory (store.c, donate): 40 MB of records written in
 * small transactions add little to the resident bytes; and LMDB then grows
 * through the map's range they took, its items intact. */
static void test_pretouch_feeds_records(void) {
  sl_arena ar;
  sl_arena_init(&ar);
  sl_failure f;
  sl_failure_init(&f, &ar);
  sl_store_config cfg = {.map_size = 256u << 20, .pretouch = 128u << 20};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
  static char val[1024];
  memset(val, 'r', sizeof(val));
  sl_txn *txn;
  uint8_t k[8];
  uint64_t n = 0, before = 0;
  for (int t = 0; t < 400; t++) { /* 100 records of 1 KB a transaction */
    if (t == 1)                   /* after the first, which took a fresh chunk */
      before = resident_bytes();
    CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
    for (int i = 0; i < 100; i++, n++)
      CHECK_INT(
          sl_store_append(txn, SL_DB_RECORDS, key_of(k, n), sl_str_make(val, sizeof(val)), &f),
          SL_OK);
    CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  }
  uint64_t grew = resident_bytes() - before;
  CHECK(grew < (8u << 20));
  if (grew >= (8u << 20))
    fprintf(stderr, "resident bytes grew %llu MB for 40 MB of records\n",
            (unsigned long long)(grew >> 20));
  /* Items of 150 MB: LMDB passes the pretouch, through what the log took. */
  char item[4000];
  for (uint64_t i = 0; i < 150 * 256; i++) {
    if (i % 1000 == 0)
      CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
    memset(item, 'a' + (int)(i % 26), sizeof(item));
    CHECK_INT(sl_store_put(txn, SL_DB_ITEMS, key_of(k, i), sl_str_make(item, sizeof(item)), &f),
              SL_OK);
    if (i % 1000 == 999 || i == 150 * 256 - 1)
      CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  }
  CHECK_INT(sl_store_begin(st, false, &f, &txn), SL_OK);
  sl_str v;
  uint64_t good = 0;
  for (uint64_t i = 0; i < 150 * 256; i++)
    good += sl_store_get(txn, SL_DB_ITEMS, key_of(k, i), &v) && v.len == sizeof(item) &&
            v.p[0] == 'a' + (int)(i % 26) && v.p[v.len - 1] == 'a' + (int)(i % 26);
  CHECK_INT(good, 150 * 256);
  good = 0;
  for (uint64_t i = 0; i < n; i++)
    good += sl_store_get(txn, SL_DB_RECORDS, key_of(k, i), &v) && v.len == sizeof(val) &&
            v.p[0] == 'r' && v.p[v.len - 1] == 'r';
  CHECK_INT(good, n);
  sl_store_abort(txn);
  sl_store_close(st);
  sl_arena_destroy(&ar);
}

/* Lookups start where an 8-byte key's number says (memlog.c): with the
 * numbers dense, sparse, in clumps, or after the head moved, every lookup
 * answers what a scan of the log does. */
static void test_lookup_by_number(void) {
  static const int gaps[][3] = {{1, 1, 0}, {1, 7, 0}, {1, 1, 1000}, {3, 1, 50}};
  for (size_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
    sl_memlog *l = sl_memlog_new(64u << 20, NULL);
    uint64_t keys[3000], k = 10;
    size_t n = 0;
    for (; n < 3000; n++) {
      keys[n] = k;
      /* a step of gaps[g][0], every gaps[g][1]-th one longer by gaps[g][2] */
      k += (uint64_t)gaps[g][0] + (n % (size_t)gaps[g][1] == 0 ? (uint64_t)gaps[g][2] : 0);
      uint8_t kb[8];
      CHECK_INT(sl_memlog_append(l, key_of(kb, keys[n]), SL_STR("v")), SL_MEMLOG_OK);
    }
    for (int round = 0; round < 2; round++) {
      uint64_t base = sl_memlog_first_pos(l);
      size_t skip = round ? 700 : 0; /* the first 700 deleted, the head past them */
      size_t want = skip;            /* the first kept key at or after q */
      for (uint64_t q = 0; q <= k + 2; q++) {
        while (want < n && keys[want] < q)
          want++;
        uint8_t kb[8];
        CHECK_INT(sl_memlog_lower_bound(l, key_of(kb, q)) - base, want - skip);
        sl_str v;
        bool hit = want < n && keys[want] == q;
        CHECK(sl_memlog_get(l, key_of(kb, q), &v) == hit);
      }
      if (!round) {
        sl_memlog_begin(l);
        uint8_t kb[8];
        sl_memlog_del_range(l, SL_STR(""), key_of(kb, keys[700]));
        sl_memlog_commit(l, false);
      }
    }
    sl_memlog_free(l);
  }
}

int main(void) {
  RUN(test_order_and_reading);
  RUN(test_abort_and_commit);
  RUN(test_reuse);
  RUN(test_limit_and_large);
  RUN(test_reader_keeps_chunks);
  RUN(test_same_as_lmdb);
  RUN(test_lookup_by_number);
  RUN(test_pretouch_feeds_records);
  return DONE();
}
