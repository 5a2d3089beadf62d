/* Unit tests of streams/streams.h's codecs: iterators round-trip and refuse
 * anything sluice did not write (a changed byte, a truncation), sequence
 * numbers are written with 21 digits and parsed back, view type names; and
 * the oldest record layout (a record as its index entry's value, format 1)
 * is rewritten at open (the entries as a run, the records into "records"),
 * read beside records of today's and trimmed past the retention. */
#include "harness.h"
#include "store_fixture.h"
#include "base/crc32.h"
#include "store/catalog.h"
#include "store/items.h"
#include "streams/streams.h"

#include <stdlib.h>
#include <unistd.h>

static sl_arena A;

static void test_iterator_roundtrip(void) {
  sl_stream_iter it = {.stream_id = 7,
                       .shard = 3,
                       .pos = 123456789012ULL,
                       .issued_ms = 1796170000000,
                       .reader = 9,
                       .chained = true};
  sl_str s = sl_streams_iter_format(&A, &it);
  sl_stream_iter back;
  CHECK(sl_streams_iter_parse(s, &back));
  CHECK_INT(back.stream_id, 7);
  CHECK_INT(back.shard, 3);
  CHECK_INT(back.pos, 123456789012LL);
  CHECK_INT(back.issued_ms, 1796170000000LL);
  CHECK_INT(back.reader, 9);
  CHECK(back.chained);
}

static void test_iterator_refused(void) {
  sl_stream_iter it = {.stream_id = 1, .shard = 0, .pos = 1, .issued_ms = 5};
  sl_str s = sl_streams_iter_format(&A, &it);
  sl_stream_iter back;
  /* Every truncation, and every single changed byte, is refused. */
  for (size_t n = 0; n < s.len; n++)
    CHECK(!sl_streams_iter_parse(sl_str_make(s.p, n), &back));
  for (size_t i = 0; i < s.len; i++) {
    char *c = (char *)sl_arena_strdup(&A, s).p;
    c[i] = c[i] == '9' ? '8' : '9';
    CHECK(!sl_streams_iter_parse(sl_str_make(c, s.len), &back));
  }
  CHECK(!sl_streams_iter_parse(SL_STR("garbage"), &back));
  /* A leading zero is another text of the same iterator: refused even with its CRC. */
  char body[64], text[80];
  snprintf(body, sizeof(body), "v2|01|0|1|5|1");
  snprintf(text, sizeof(text), "%s|%08x", body, sl_crc32(0, body, strlen(body)));
  CHECK(!sl_streams_iter_parse(sl_str_c(text), &back));
}

static void test_sequence_numbers(void) {
  char out[32];
  sl_streams_seq_format(42, out);
  CHECK(strcmp(out, "000000000000000000042") == 0);
  uint64_t v;
  CHECK(sl_streams_seq_parse(sl_str_c(out), &v));
  CHECK_INT(v, 42);
  CHECK(!sl_streams_seq_parse(SL_STR("12a"), &v));
  CHECK(!sl_streams_seq_parse(SL_STR(""), &v));
  CHECK(!sl_streams_seq_parse(SL_STR("99999999999999999999999"), &v)); /* past 64 bits */
}

static void test_view_names(void) {
  CHECK_INT(sl_stream_view_parse(SL_STR("KEYS_ONLY")), SL_STREAM_KEYS_ONLY);
  CHECK_INT(sl_stream_view_parse(SL_STR("NEW_AND_OLD_IMAGES")), SL_STREAM_NEW_AND_OLD_IMAGES);
  CHECK_INT(sl_stream_view_parse(SL_STR("nope")), -1);
  CHECK(strcmp(sl_stream_view_name(SL_STREAM_OLD_IMAGE), "OLD_IMAGE") == 0);
}

/* ---- the oldest layout ---- */

enum { OLD_N = 10 };
static const int64_t T0_MS = 1796169600000; /* 2026-12-01T00:00:00Z */

static void put_n(sl_store *st, sl_table *t, int n, sl_arena *a, sl_failure *f) {
  char pk[16];
  snprintf(pk, sizeof(pk), "k%d", n);
  char num[16];
  snprintf(num, sizeof(num), "%d", n);
  /* Attributes in name order (store/item.h). */
  sl_attr attrs[2] = {{SL_STR("n"), {.type = SL_AV_N, .s = sl_arena_strdup(a, sl_str_c(num))}},
                      {SL_STR("pk"), {.type = SL_AV_S, .s = sl_arena_strdup(a, sl_str_c(pk))}}};
  sl_item item = {attrs, 2};
  sl_keyvals kv = {.hash = &attrs[1].v};
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
  sl_store_change c = {.t = t, .key = &kv, .item = &item};
  CHECK_INT(sl_store_apply(txn, &c, a, f), SL_OK);
  CHECK_INT(sl_store_commit(txn, f), SL_OK);
}

/* Rewrites every record in "records" as a directory written before
 * "records" existed held it: format 1 (no stream and shard fields), as the
 * value of its shard's index entry; and drops the index mark. */
static void to_oldest_layout(sl_store *st, sl_arena *a, sl_failure *f) {
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_RECORDS);
  sl_str k, v;
  sl_str keys[OLD_N], vals[OLD_N];
  size_t n = 0;
  for (bool ok = sl_cursor_first(c, &k, &v); ok && n < OLD_N; ok = sl_cursor_next(c, &k, &v)) {
    keys[n] = sl_arena_strdup(a, k);
    vals[n++] = sl_arena_strdup(a, v);
  }
  sl_cursor_close(c);
  CHECK_INT(n, OLD_N);
  for (size_t i = 0; i < n; i++) {
    const uint8_t *p = (const uint8_t *)vals[i].p;
    CHECK(vals[i].len > 24 && p[0] == 2);
    uint8_t *old = sl_arena_alloc(a, vals[i].len - 8);
    memcpy(old, p, 16);
    old[0] = 1;
    memcpy(old + 16, p + 24, vals[i].len - 24);
    /* 'R', the stream id and the shard (little-endian in the record,
     * big-endian in the key), the record's number. */
    uint8_t rk[17] = {'R'};
    for (int j = 0; j < 4; j++) {
      rk[1 + j] = p[19 - j];
      rk[5 + j] = p[23 - j];
    }
    memcpy(rk + 9, keys[i].p, 8);
    CHECK_INT(sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)rk, 17),
                           sl_str_make((char *)old, vals[i].len - 8), f),
              SL_OK);
    CHECK_INT(sl_store_del(txn, SL_DB_RECORDS, keys[i], f), SL_OK);
  }
  CHECK_INT(sl_store_del(txn, SL_DB_STREAMS, SL_STR("I"), f), SL_OK);
  CHECK_INT(sl_store_commit(txn, f), SL_OK);
}

static size_t count_db(sl_store *st, sl_db db, char first, sl_failure *f) {
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, f, &txn), SL_OK);
  sl_cursor *c = sl_store_cursor(txn, db);
  sl_str k, v;
  size_t n = 0;
  for (bool ok = sl_cursor_first(c, &k, &v); ok; ok = sl_cursor_next(c, &k, &v))
    n += !first || (k.len && k.p[0] == first);
  sl_cursor_close(c);
  sl_store_abort(txn);
  return n;
}

/* The record numbers the shards' index holds: the lengths of its runs
 * ('N' entries, u32 offsets; streams/streams.h). */
static size_t count_indexed(sl_store *st, sl_failure *f) {
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, f, &txn), SL_OK);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_STREAMS);
  sl_str k, v;
  size_t n = 0;
  for (bool ok = sl_cursor_seek(c, SL_STR("N"), &k, &v); ok && k.len && k.p[0] == 'N';
       ok = sl_cursor_next(c, &k, &v))
    n += v.len / 4;
  sl_cursor_close(c);
  sl_store_abort(txn);
  return n;
}

/* The records of the table's shards, oldest shard first: their "n"
 * attributes. */
static size_t read_ns(sl_streams *s, sl_store *st, sl_arena *a, int *ns, size_t max,
                      sl_failure *f) {
  CHECK_INT(sl_streams_index(s, f), SL_OK);
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, f, &txn), SL_OK);
  sl_stream *v;
  size_t n;
  sl_streams_list(txn, a, SL_STR("t"), &v, &n);
  CHECK_INT(n, 1);
  sl_stream_shard *sh;
  size_t nsh, got = 0;
  sl_streams_shards(txn, a, &v[0], &sh, &nsh);
  for (size_t k = 0; k < nsh; k++) {
    sl_stream_record *r;
    size_t nr;
    uint64_t next;
    sl_streams_read(txn, a, &v[0], NULL, &sh[k], 0, 1000, 1u << 20, &r, &nr, &next);
    for (size_t i = 0; i < nr && got < max; i++) {
      ns[got] = -1;
      CHECK(r[i].has_new && r[i].event == 1);
      for (uint32_t j = 0; j < r[i].new_image.n; j++)
        if (sl_str_eq(r[i].new_image.attrs[j].name, SL_STR("n")))
          ns[got] = atoi(sl_arena_strdup(a, r[i].new_image.attrs[j].v.s).p);
      got++;
    }
  }
  sl_store_abort(txn);
  return got;
}

/* Streams over 'st' on a manual clock at T0_MS, with the fixture table
 * (store_fixture.h) given a stream of view 'view' in catalog *cat and its
 * shard opened. */
static sl_streams *stream_fixture_view(sl_store *st, const char *view, sl_clock *clock,
                                       sl_streams_params *p, sl_catalog **cat, sl_table **table,
                                       sl_failure *f) {
  sl_clock_init(clock, SL_CLOCK_MANUAL, 1, T0_MS);
  sl_streams_params_default(p);
  sl_streams *s = NULL;
  CHECK_INT(sl_streams_open(st, clock, p, f, &s), SL_OK);
  *cat = sl_catalog_new();
  sl_table *t = *table = fixture_table();
  t->stream_enabled = true;
  t->stream_view_type = sl_str_c(view);
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
  CHECK_INT(sl_streams_sync(s, txn, NULL, t, T0_MS, f), SL_OK);
  CHECK_INT(sl_store_commit(txn, f), SL_OK);
  sl_catalog_install(*cat, t);
  sl_streams_tick(s, *cat, T0_MS, f); /* opens the shard */
  return s;
}

static sl_streams *stream_fixture(sl_store *st, sl_clock *clock, sl_streams_params *p,
                                  sl_catalog **cat, sl_table **table, sl_failure *f) {
  return stream_fixture_view(st, "NEW_IMAGE", clock, p, cat, table, f);
}

static void test_oldest_layout(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  /* A directory's layout (memory mode writes format 3 records). */
  char dir[] = "/tmp/sluice-streams-XXXXXX";
  sl_store *st = fixture_dir_store(dir, &f);
  sl_clock clock;
  sl_streams_params p;
  sl_catalog *cat;
  sl_table *t;
  sl_streams *s = stream_fixture(st, &clock, &p, &cat, &t, &f);
  for (int i = 0; i < OLD_N; i++)
    put_n(st, t, i, &a, &f);
  sl_streams_close(s);
  to_oldest_layout(st, &a, &f);
  CHECK_INT(count_db(st, SL_DB_RECORDS, 0, &f), 0);
  CHECK_INT(count_db(st, SL_DB_STREAMS, 'R', &f), OLD_N);

  /* Reopened: the old entries become a run and their records move to
   * "records"; they read as they are, and the writes after them follow in
   * today's layout, indexed in a batch. */
  CHECK_INT(sl_streams_open(st, &clock, &p, &f, &s), SL_OK);
  sl_clock_advance(&clock, 1000);
  for (int i = OLD_N; i < 2 * OLD_N; i++)
    put_n(st, t, i, &a, &f);
  int ns[4 * OLD_N];
  CHECK_INT(read_ns(s, st, &a, ns, 4 * OLD_N, &f), 2 * OLD_N);
  for (int i = 0; i < 2 * OLD_N; i++)
    CHECK_INT(ns[i], i);
  CHECK_INT(count_db(st, SL_DB_RECORDS, 0, &f), 2 * OLD_N);
  CHECK_INT(count_db(st, SL_DB_STREAMS, 'R', &f), 0);
  CHECK_INT(count_indexed(st, &f), 2 * OLD_N);

  /* Past the retention of the old ones only: they go, the new ones stay. */
  sl_clock_set(&clock, T0_MS + p.retention_ms + 500);
  sl_streams_tick(s, cat, sl_clock_now_ms(&clock), &f);
  CHECK_INT(read_ns(s, st, &a, ns, 4 * OLD_N, &f), OLD_N);
  CHECK_INT(ns[0], OLD_N);
  CHECK_INT(count_db(st, SL_DB_RECORDS, 0, &f), OLD_N);
  CHECK_INT(count_indexed(st, &f), OLD_N);
  /* And past theirs, nothing is left. */
  sl_clock_set(&clock, T0_MS + p.retention_ms + 2000);
  sl_streams_tick(s, cat, sl_clock_now_ms(&clock), &f);
  CHECK_INT(count_indexed(st, &f), 0);
  CHECK_INT(count_db(st, SL_DB_RECORDS, 0, &f), 0);

  sl_streams_close(s);
  sl_catalog_free(cat);
  sl_store_close(st);
  fixture_dir_remove(dir);
  sl_arena_destroy(&a);
}

/* Rewrites the shards' runs as store format 4 kept its index: an empty 'R'
 * entry per record. */
static void to_format4_layout(sl_store *st, sl_arena *a, sl_failure *f) {
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_STREAMS);
  sl_str k, v, keys[64], vals[64];
  size_t n = 0;
  for (bool ok = sl_cursor_seek(c, SL_STR("N"), &k, &v); ok && k.len && k.p[0] == 'N' && n < 64;
       ok = sl_cursor_next(c, &k, &v)) {
    keys[n] = sl_arena_strdup(a, k);
    vals[n++] = sl_arena_strdup(a, v);
  }
  sl_cursor_close(c);
  CHECK(n > 0);
  for (size_t i = 0; i < n; i++) {
    CHECK_INT(keys[i].len, 17);
    uint64_t first = sl_rd64be((const uint8_t *)keys[i].p + 9);
    for (size_t j = 0; j + 4 <= vals[i].len; j += 4) {
      uint8_t rk[17];
      memcpy(rk, keys[i].p, 9);
      rk[0] = 'R';
      sl_be64(rk + 9, first + sl_rd32((const uint8_t *)vals[i].p + j));
      CHECK_INT(sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)rk, 17), (sl_str){"", 0}, f),
                SL_OK);
    }
    CHECK_INT(sl_store_del(txn, SL_DB_STREAMS, keys[i], f), SL_OK);
  }
  CHECK_INT(sl_store_commit(txn, f), SL_OK);
}

/* A --data-dir of store format 4: an index entry per record, and records
 * written after the index mark that no entry names yet (a kill before the
 * batch). Reopened, its entries become runs, the waiting records are
 * indexed, and every record reads in order, across a restart of the store. */
static void test_format4_layout(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  char dir[] = "/tmp/sluice-streams-XXXXXX";
  sl_store *st = fixture_dir_store(dir, &f);
  sl_store_config cfg = {.data_dir = dir, .map_size = 64u << 20};
  sl_clock clock;
  sl_streams_params p;
  sl_catalog *cat;
  sl_table *t;
  sl_streams *s = stream_fixture(st, &clock, &p, &cat, &t, &f);
  for (int i = 0; i < 2 * OLD_N; i++)
    put_n(st, t, i, &a, &f);
  CHECK_INT(sl_streams_index(s, &f), SL_OK);
  for (int i = 2 * OLD_N; i < 3 * OLD_N; i++) /* after the mark */
    put_n(st, t, i, &a, &f);
  sl_streams_close(s);
  to_format4_layout(st, &a, &f);
  CHECK_INT(count_db(st, SL_DB_STREAMS, 'R', &f), 2 * OLD_N);
  CHECK_INT(count_indexed(st, &f), 0);
  sl_store_close(st);

  st = NULL;
  CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
  CHECK_INT(sl_streams_open(st, &clock, &p, &f, &s), SL_OK);
  CHECK_INT(count_db(st, SL_DB_STREAMS, 'R', &f), 0);
  int ns[4 * OLD_N];
  CHECK_INT(read_ns(s, st, &a, ns, 4 * OLD_N, &f), 3 * OLD_N);
  for (int i = 0; i < 3 * OLD_N; i++)
    CHECK_INT(ns[i], i);
  CHECK_INT(count_indexed(st, &f), 3 * OLD_N);
  /* Once rewritten, a second open finds nothing to do. */
  sl_streams_close(s);
  CHECK_INT(sl_streams_open(st, &clock, &p, &f, &s), SL_OK);
  CHECK_INT(read_ns(s, st, &a, ns, 4 * OLD_N, &f), 3 * OLD_N);
  CHECK_INT(count_indexed(st, &f), 3 * OLD_N);
  sl_streams_close(s);
  sl_catalog_free(cat);
  sl_store_close(st);
  fixture_dir_remove(dir);
  sl_arena_destroy(&a);
}

/* ---- memory mode's after images by link ---- */

/* Item 'pk' becomes {pk, n} (n < 0: deleted), committed or aborted. */
static void change(sl_store *st, sl_table *t, const char *pk, int n, bool commit, sl_arena *a,
                   sl_failure *f) {
  char num[16];
  snprintf(num, sizeof(num), "%d", n);
  sl_attr attrs[2] = {{SL_STR("n"), {.type = SL_AV_N, .s = sl_arena_strdup(a, sl_str_c(num))}},
                      {SL_STR("pk"), {.type = SL_AV_S, .s = sl_arena_strdup(a, sl_str_c(pk))}}};
  sl_item item = {attrs, 2}, old;
  sl_keyvals kv = {.hash = &attrs[1].v};
  bool found = false;
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
  CHECK_INT(sl_store_item_get(txn, t, &kv, a, &old, &found, NULL), SL_OK);
  sl_store_change c = {
      .t = t, .key = &kv, .old = found ? &old : NULL, .item = n >= 0 ? &item : NULL};
  CHECK_INT(sl_store_apply(txn, &c, a, f), SL_OK);
  if (commit)
    CHECK_INT(sl_store_commit(txn, f), SL_OK);
  else
    sl_store_abort(txn);
}

/* An image's "n", -1 without one. */
static int image_n(const sl_item *it, bool has, sl_arena *a) {
  const sl_av *v = has ? sl_item_get(it, SL_STR("n")) : NULL;
  return v ? atoi(sl_arena_strdup(a, v->s).p) : -1;
}

/* Every record of table t's stream(s), as "pk:event:new n:old n" lines. */
static sl_str records_text(sl_streams *s, sl_store *st, const sl_table *t, sl_arena *a,
                           sl_failure *f) {
  CHECK_INT(sl_streams_index(s, f), SL_OK);
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, f, &txn), SL_OK);
  sl_buf out;
  sl_buf_init(&out, a);
  sl_stream *v;
  size_t n;
  sl_streams_list(txn, a, SL_STR("t"), &v, &n);
  for (size_t i = 0; i < n; i++) {
    sl_stream_shard *sh;
    size_t nsh;
    sl_streams_shards(txn, a, &v[i], &sh, &nsh);
    for (size_t k = 0; k < nsh; k++) {
      sl_stream_record *r;
      size_t nr;
      uint64_t next;
      sl_streams_read(txn, a, &v[i], v[i].enabled ? t : NULL, &sh[k], 0, 1000, 1u << 20, &r, &nr,
                      &next);
      for (size_t j = 0; j < nr; j++) {
        char line[96];
        const sl_av *pk = sl_item_get(&r[j].keys, SL_STR("pk"));
        snprintf(line, sizeof(line), "%.*s:%d:%d:%d\n", (int)pk->s.len, pk->s.p, r[j].event,
                 image_n(&r[j].new_image, r[j].has_new, a),
                 image_n(&r[j].old_image, r[j].has_old, a));
        sl_buf_puts(&out, sl_str_c(line));
      }
    }
  }
  sl_store_abort(txn);
  return sl_buf_str(&out);
}

/* In memory, a record of a stream with new images keeps no copy of its
 * after image: it reads it from the item's next record, or from the table
 * (streams.h, "After images"). Every record reads as if it held its images,
 * across aborted writes, deletions, the stream's disabling (the table's
 * later changes do not show) and the retention. */
static void test_after_images_by_link(void) {
  static const char *views[] = {"NEW_IMAGE", "NEW_AND_OLD_IMAGES"};
  for (size_t vi = 0; vi < 2; vi++) {
    bool both = vi == 1;
    sl_arena a;
    sl_arena_init(&a);
    sl_failure f;
    sl_failure_init(&f, &a);
    sl_store *st = fixture_store(&f);
    sl_clock clock;
    sl_streams_params p;
    sl_catalog *cat;
    sl_table *t;
    sl_streams *s = stream_fixture_view(st, views[vi], &clock, &p, &cat, &t, &f);
    change(st, t, "a", 1, true, &a, &f);
    change(st, t, "a", 2, true, &a, &f);
    change(st, t, "b", 10, true, &a, &f);
    change(st, t, "a", 99, false, &a, &f); /* aborted after its record */
    change(st, t, "a", 3, true, &a, &f);
    change(st, t, "c", 98, false, &a, &f); /* a first write, aborted */
    change(st, t, "c", 20, true, &a, &f);
    change(st, t, "b", -1, true, &a, &f);
    change(st, t, "c", 97, false, &a, &f);
    change(st, t, "c", 96, false, &a, &f); /* two aborts in a row */
    change(st, t, "c", 21, true, &a, &f);
    change(st, t, "d", 30, true, &a, &f);
    const char *want_both = "a:1:1:-1\na:2:2:1\nb:1:10:-1\na:2:3:2\nc:1:20:-1\nb:3:-1:10\n"
                            "c:2:21:20\nd:1:30:-1\n";
    const char *want_new = "a:1:1:-1\na:2:2:-1\nb:1:10:-1\na:2:3:-1\nc:1:20:-1\nb:3:-1:-1\n"
                           "c:2:21:-1\nd:1:30:-1\n";
    const char *want = both ? want_both : want_new;
    sl_str got = records_text(s, st, t, &a, &f);
    CHECK(sl_str_eq(got, sl_str_c(want)));
    if (!sl_str_eq(got, sl_str_c(want)))
      fprintf(stderr, "got:\n%.*s", (int)got.len, got.p);

    /* Disabled: the table changes without records, which the records'
     * images do not show. */
    sl_table *off = fixture_table();
    sl_txn *txn;
    sl_clock_advance(&clock, 1000);
    CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
    CHECK_INT(sl_streams_sync(s, txn, t, off, sl_clock_now_ms(&clock), &f), SL_OK);
    CHECK_INT(sl_store_commit(txn, &f), SL_OK);
    t->stream_enabled = false;
    sl_table_free(off);
    change(st, t, "a", 4, true, &a, &f);
    change(st, t, "c", -1, true, &a, &f);
    change(st, t, "d", 31, true, &a, &f);
    got = records_text(s, st, t, &a, &f);
    CHECK(sl_str_eq(got, sl_str_c(want)));
    if (!sl_str_eq(got, sl_str_c(want)))
      fprintf(stderr, "got after disabling:\n%.*s", (int)got.len, got.p);

    /* Past the retention, the records and the copies made at the disabling
     * go. */
    sl_clock_set(&clock, T0_MS + p.retention_ms + 5000);
    for (int i = 0; i < 3; i++)
      sl_streams_tick(s, cat, sl_clock_now_ms(&clock), &f);
    CHECK_INT(count_db(st, SL_DB_RECORDS, 0, &f), 0);

    sl_streams_close(s);
    sl_catalog_free(cat);
    sl_store_close(st);
    sl_arena_destroy(&a);
  }
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_iterator_roundtrip);
  RUN(test_iterator_refused);
  RUN(test_sequence_numbers);
  RUN(test_view_names);
  RUN(test_oldest_layout);
  RUN(test_format4_layout);
  RUN(test_after_images_by_link);
  sl_arena_destroy(&A);
  return DONE();
}
