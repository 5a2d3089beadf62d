/* Unit tests of store/store.h: the format version of a --data-dir (a
 * directory written by another format is refused with a message naming both,
 * never misread; one of format 1 is upgraded in place), of its page size (a
 * new environment gets SL_STORE_PAGE_SIZE pages from meta pages written as
 * LMDB writes them; an existing one keeps its own), of group commit (each
 * write a nested child of the open group: an abort drops only its own
 * changes, a read and a sync see the group), of the write funnel's
 * change-capture hook (store/items.h: every item change, in its
 * transaction), of sl_store_del_range and sl_store_empty, and of durable
 * mode's redo log (store/redo.h): every acknowledged group replayed onto an
 * LMDB file that lost what was not checkpointed, across both log files, a
 * torn last record ignored, a group missing refused. */
#include "harness.h"
#include "store_fixture.h"
#include "store/items.h"
#include "store/key.h"

#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static sl_store *open_dir(const char *dir, sl_failure *f) {
  sl_store_config cfg = {.data_dir = dir, .map_size = 16u << 20};
  sl_store *st = NULL;
  return sl_store_open(&cfg, f, &st) == SL_OK ? st : NULL;
}

static void remove_dir(const char *dir) {
  char cmd[400];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  CHECK_INT(system(cmd), 0);
}

static void put_meta(sl_store *st, const char *key, const void *val, size_t len, sl_failure *f) {
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_META, sl_str_c(key), sl_str_make(val, len), f), SL_OK);
  CHECK_INT(sl_store_commit(txn, f), SL_OK);
}

static void test_format_version(void) {
  char dir[] = "/tmp/sluice-test-store-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  /* A new directory gets the current format and opens again. */
  sl_store *st = open_dir(dir, &f);
  CHECK(st != NULL);
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, &f, &txn), SL_OK);
  sl_str v;
  CHECK(sl_store_get(txn, SL_DB_META, SL_STR("format"), &v));
  uint32_t format = 0;
  CHECK_INT(v.len, 4);
  memcpy(&format, v.p, 4);
  CHECK_INT(format, SL_STORE_FORMAT);
  sl_store_abort(txn);
  /* Format 1 (before multi-attribute GSI keys), format 2 (before stream
   * records carried their shard), format 3 (before the redo log) and format
   * 4 (before the stream index in runs, which streams/streams.c rewrites)
   * are subsets of format 5: each opens and is upgraded in place. */
  for (uint32_t old = 1; old <= 4; old++) {
    put_meta(st, "format", &old, 4, &f);
    sl_store_close(st);
    sl_failure_init(&f, &a);
    st = open_dir(dir, &f);
    CHECK(st != NULL);
    CHECK_INT(sl_store_begin(st, false, &f, &txn), SL_OK);
    CHECK(sl_store_get(txn, SL_DB_META, SL_STR("format"), &v));
    format = 0;
    memcpy(&format, v.p, v.len == 4 ? 4 : 0);
    CHECK_INT(format, 5);
    sl_store_abort(txn);
  }
  /* Written by a format that does not exist yet: refused. */
  uint32_t future = SL_STORE_FORMAT + 1;
  put_meta(st, "format", &future, 4, &f);
  sl_store_close(st);
  sl_failure_init(&f, &a);
  CHECK(open_dir(dir, &f) == NULL);
  CHECK_INT(f.code, SL_E_INTERNAL_SERVER_ERROR);
  char want[256];
  snprintf(want, sizeof(want), "holds storage format %u; this sluice reads format %u",
           (unsigned)SL_STORE_FORMAT + 1, (unsigned)SL_STORE_FORMAT);
  CHECK(memmem(f.message.p, f.message.len, want, strlen(want)) != NULL);
  remove_dir(dir);
  sl_arena_destroy(&a);
}

/* The hook sees every change with both images, inside the transaction, and
 * an error it returns fails the change. */
typedef struct {
  int calls;
  bool saw_old, saw_new;
  bool fail;
} capture;

static sl_err on_change(void *ctx, sl_txn *txn, const sl_store_change *c, sl_arena *a,
                        sl_failure *f) {
  capture *cp = ctx;
  (void)a;
  cp->calls++;
  cp->saw_old = c->old != NULL;
  cp->saw_new = c->item != NULL;
  CHECK(sl_store_txn_writable(txn));
  if (cp->fail)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "capture refused");
  return SL_OK;
}

static void test_capture_hook(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_store *st = fixture_store(&f);
  capture cp = {0};
  sl_store_set_capture(st, on_change, &cp);
  sl_table *t = fixture_table();
  sl_attr attr = {SL_STR("pk"), {.type = SL_AV_S, .s = SL_STR("k")}};
  sl_item item = {&attr, 1};
  sl_keyvals kv = {.hash = &attr.v};
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  sl_store_change put = {.t = t, .key = &kv, .old = NULL, .item = &item};
  CHECK_INT(sl_store_apply(txn, &put, &a, &f), SL_OK);
  CHECK_INT(cp.calls, 1);
  CHECK(!cp.saw_old && cp.saw_new);
  sl_store_change del = {.t = t, .key = &kv, .old = &item, .item = NULL};
  cp.fail = true;
  CHECK_INT(sl_store_apply(txn, &del, &a, &f), SL_E_INTERNAL_SERVER_ERROR);
  CHECK(cp.saw_old && !cp.saw_new);
  sl_store_abort(txn);
  sl_table_free(t);
  sl_store_close(st);
  sl_arena_destroy(&a);
}

static size_t read_file(const char *path, unsigned char *buf, size_t cap) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return 0;
  size_t n = fread(buf, 1, cap, fp);
  fclose(fp);
  return n;
}

static void test_page_size(void) {
  char dir[] = "/tmp/sluice-test-pages-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char lm[320], ours[320], sub[320];
  snprintf(lm, sizeof(lm), "%s/lmdb.mdb", dir);
  snprintf(ours, sizeof(ours), "%s/ours.mdb", dir);
  /* The meta pages equal those LMDB writes for a new environment of its
   * own page size (4 KB here), flags and map size included. */
  unsigned flags = MDB_NOSUBDIR | MDB_NOLOCK | MDB_NOSYNC;
  MDB_env *env;
  CHECK_INT(mdb_env_create(&env), 0);
  mdb_env_set_mapsize(env, 1u << 30);
  CHECK_INT(mdb_env_open(env, lm, flags, 0644), 0);
  MDB_stat ms;
  mdb_env_stat(env, &ms);
  unsigned os_page = ms.ms_psize;
  mdb_env_close(env);
  CHECK_INT(sl__store_preformat(ours, os_page, 1u << 30, flags), 0);
  static unsigned char a[65536], b[65536];
  size_t na = read_file(lm, a, sizeof(a)), nb = read_file(ours, b, sizeof(b));
  CHECK_INT(na, 2 * os_page);
  CHECK_INT(nb, 2 * os_page);
  CHECK(na == nb && memcmp(a, b, na) == 0);
  CHECK_INT(sl__store_preformat(ours, os_page, 1u << 30, flags), EEXIST);
  /* A 32 KB one is what LMDB opens with 32 KB pages. */
  unlink(ours);
  CHECK_INT(sl__store_preformat(ours, 32768, 1u << 30, flags), 0);
  CHECK_INT(mdb_env_create(&env), 0);
  CHECK_INT(mdb_env_open(env, ours, flags, 0644), 0);
  mdb_env_stat(env, &ms);
  CHECK_INT(ms.ms_psize, 32768);
  mdb_env_close(env);
  unlink(lm);
  unlink(ours);
  /* sluice's stores: in memory and a new --data-dir get 32 KB pages; the
   * directory keeps them when reopened, and one written with LMDB's own
   * page size keeps that. */
  sl_arena ar;
  sl_arena_init(&ar);
  sl_failure f;
  sl_failure_init(&f, &ar);
  sl_store_config mem = {.map_size = 16u << 20};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&mem, &f, &st), SL_OK);
  CHECK_INT(sl_store_page_size(st), SL_STORE_PAGE_SIZE);
  sl_store_close(st);
  snprintf(sub, sizeof(sub), "%s/new", dir);
  st = open_dir(sub, &f);
  CHECK(st != NULL);
  CHECK_INT(sl_store_page_size(st), SL_STORE_PAGE_SIZE);
  put_meta(st, "k", "v", 1, &f);
  sl_store_close(st);
  st = open_dir(sub, &f);
  CHECK(st != NULL);
  CHECK_INT(sl_store_page_size(st), SL_STORE_PAGE_SIZE);
  sl_store_close(st);
  snprintf(sub, sizeof(sub), "%s/old", dir);
  CHECK_INT(mkdir(sub, 0755), 0);
  CHECK_INT(mdb_env_create(&env), 0);
  mdb_env_set_maxdbs(env, 4);
  CHECK_INT(mdb_env_open(env, sub, 0, 0644), 0);
  mdb_env_close(env);
  st = open_dir(sub, &f);
  CHECK(st != NULL);
  CHECK_INT(sl_store_page_size(st), os_page);
  sl_store_close(st);
  sl_arena_destroy(&ar);
  remove_dir(dir);
}

static bool has_meta(sl_store *st, const char *key, sl_failure *f) {
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, f, &txn), SL_OK);
  sl_str v;
  bool found = sl_store_get(txn, SL_DB_META, sl_str_c(key), &v);
  sl_store_abort(txn);
  return found;
}

static void test_group_commit(void) {
  char dir[] = "/tmp/sluice-test-store-XXXXXX";
  sl_arena a;
  sl_failure f;
  sl_arena_init(&a);
  sl_failure_init(&f, &a);
  sl_store *st = mkdtemp(dir) ? open_dir(dir, &f) : NULL;
  CHECK(st != NULL);
  CHECK(!sl_store_dirty(st));
  /* Two writes of one group, and an aborted one between them. */
  put_meta(st, "a", "1", 1, &f);
  CHECK(sl_store_dirty(st));
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_META, SL_STR("b"), SL_STR("2"), &f), SL_OK);
  sl_str v;
  CHECK(sl_store_get(txn, SL_DB_META, SL_STR("a"), &v)); /* a write sees the group */
  sl_store_abort(txn);
  put_meta(st, "c", "3", 1, &f);
  /* A read sees the group's commits, not the aborted write. */
  CHECK(has_meta(st, "a", &f));
  CHECK(!has_meta(st, "b", &f));
  CHECK(has_meta(st, "c", &f));
  /* A write after the read joins the same group (the read was inside it). */
  put_meta(st, "d", "4", 1, &f);
  /* An aborted write that changed what the file holds and what the group
   * holds: both stay. */
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_del(txn, SL_DB_META, SL_STR("a"), &f), SL_OK);
  CHECK_INT(sl_store_del(txn, SL_DB_META, SL_STR("d"), &f), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_META, SL_STR("x"), SL_STR("9"), &f), SL_OK);
  sl_store_abort(txn);
  CHECK(sl_store_dirty(st));
  CHECK(has_meta(st, "a", &f));
  CHECK(has_meta(st, "d", &f));
  CHECK(!has_meta(st, "x", &f));
  /* The same before any read: the group holds "e" only, and keeps it. */
  put_meta(st, "e", "5", 1, &f);
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_del(txn, SL_DB_META, SL_STR("e"), &f), SL_OK);
  sl_store_abort(txn);
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK(sl_store_get(txn, SL_DB_META, SL_STR("e"), &v)); /* the next write sees it */
  sl_store_abort(txn);
  CHECK(has_meta(st, "e", &f));
  CHECK(sl_store_sync_begin(st));
  CHECK_INT(sl_store_sync_run(st), 0);
  CHECK_INT(sl_store_sync_end(st, 0, &f), SL_OK);
  CHECK(!sl_store_dirty(st));
  CHECK(!sl_store_sync_begin(st)); /* nothing since */
  /* A group of aborted writes only: nothing to sync, nothing kept. */
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_META, SL_STR("z"), SL_STR("5"), &f), SL_OK);
  sl_store_abort(txn);
  CHECK(!sl_store_dirty(st));
  CHECK(!sl_store_sync_begin(st));
  sl_store_close(st);
  st = open_dir(dir, &f);
  CHECK(st != NULL);
  CHECK(has_meta(st, "a", &f));
  CHECK(!has_meta(st, "b", &f));
  CHECK(has_meta(st, "c", &f));
  CHECK(has_meta(st, "d", &f));
  CHECK(has_meta(st, "e", &f));
  CHECK(!has_meta(st, "x", &f));
  CHECK(!has_meta(st, "z", &f));
  sl_store_close(st);
  sl_arena_destroy(&a);
  remove_dir(dir);
}

/* sl_store_del_range deletes exactly [lo, hi) (in LMDB it goes from the
 * highest key down; in memory, "records" is store/memlog.h's log): ranges at
 * the start, the middle and the end of a database of many pages, a range
 * holding no key, and the whole database, each checked key by key against
 * what was put; in memory and with a directory. */
static void del_range_on(const sl_store_config *cfg) {
  sl_arena ar;
  sl_arena_init(&ar);
  sl_failure f;
  sl_failure_init(&f, &ar);
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(cfg, &f, &st), SL_OK);
  enum { N = 20000 };
  static bool kept[N];
  char val[300];
  memset(val, 'v', sizeof(val));
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  for (uint32_t i = 0; i < N; i++) {
    uint8_t k[8];
    sl_be64(k, (uint64_t)i * 2 + 10); /* keys 10, 12, ... */
    /* appended (records) and put (an index) alike: values of varied sizes */
    sl_str kv = sl_str_make((char *)k, 8), v = sl_str_make(val, 1 + i % 300);
    CHECK_INT(i % 2 ? sl_store_append(txn, SL_DB_RECORDS, kv, v, &f)
                    : sl_store_put(txn, SL_DB_RECORDS, kv, v, &f),
              SL_OK);
    kept[i] = true;
  }
  CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  /* [lo, hi) in key numbers; 0 for lo means "", UINT64_MAX for hi means 9 bytes of 0xff */
  static const uint64_t ranges[][2] = {{0, 500},       {501, 2001},    {7777, 7777},
                                       {7777, 7778},   {20000, 30001}, {39000, UINT64_MAX},
                                       {0, UINT64_MAX}};
  for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
    uint8_t lo[8], hi[9];
    sl_be64(lo, ranges[r][0]);
    sl_be64(hi, ranges[r][1]);
    sl_str los = ranges[r][0] ? sl_str_make((char *)lo, 8) : (sl_str){"", 0};
    sl_str his = sl_str_make((char *)hi, 8);
    if (ranges[r][1] == UINT64_MAX) {
      memset(hi, 0xff, 9);
      his = sl_str_make((char *)hi, 9);
    }
    uint64_t want = 0, got = 0;
    for (uint32_t i = 0; i < N; i++) {
      uint64_t key = (uint64_t)i * 2 + 10;
      if (kept[i] && key >= ranges[r][0] && key < ranges[r][1]) {
        kept[i] = false;
        want++;
      }
    }
    CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
    CHECK_INT(sl_store_del_range(txn, SL_DB_RECORDS, los, his, &got, &f), SL_OK);
    CHECK_INT(got, want);
    CHECK_INT(sl_store_commit(txn, &f), SL_OK);
    CHECK_INT(sl_store_begin(st, false, &f, &txn), SL_OK);
    sl_cursor *c = sl_store_cursor(txn, SL_DB_RECORDS);
    sl_str k, v;
    uint32_t i = 0;
    for (bool ok = sl_cursor_first(c, &k, &v); ok; ok = sl_cursor_next(c, &k, &v)) {
      while (i < N && !kept[i])
        i++;
      CHECK(i < N);
      if (i >= N)
        break;
      uint8_t want_k[8];
      sl_be64(want_k, (uint64_t)i * 2 + 10);
      CHECK(k.len == 8 && memcmp(k.p, want_k, 8) == 0);
      CHECK_INT(v.len, 1 + i % 300);
      i++;
    }
    while (i < N && !kept[i])
      i++;
    CHECK_INT(i, N); /* nothing kept is missing */
    sl_cursor_close(c);
    sl_store_abort(txn);
  }
  sl_store_close(st);
  sl_arena_destroy(&ar);
}

static void test_del_range(void) {
  sl_store_config mem = {.map_size = 64u << 20};
  del_range_on(&mem);
  char dir[] = "/tmp/sluice-del-range-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  sl_store_config dur = {.data_dir = dir, .map_size = 64u << 20};
  del_range_on(&dur);
  remove_dir(dir);
}

/* Counts the keys of 'db'. */
static uint32_t count_keys(sl_store *st, sl_db db) {
  sl_failure f;
  sl_arena ar;
  sl_arena_init(&ar);
  sl_failure_init(&f, &ar);
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, false, &f, &txn), SL_OK);
  sl_cursor *c = sl_store_cursor(txn, db);
  sl_str k, v;
  uint32_t n = 0;
  for (bool ok = sl_cursor_first(c, &k, &v); ok; ok = sl_cursor_next(c, &k, &v))
    n++;
  sl_cursor_close(c);
  sl_store_abort(txn);
  sl_arena_destroy(&ar);
  return n;
}

/* sl_store_empty: every key of one database goes, its pages freed whole;
 * the others keep theirs, the emptied one takes new keys, and an abort
 * keeps what it held. */
static void test_empty(void) {
  sl_arena ar;
  sl_arena_init(&ar);
  sl_failure f;
  sl_failure_init(&f, &ar);
  sl_store *st = fixture_store(&f);
  char val[1100];
  memset(val, 'r', sizeof(val));
  sl_txn *txn;
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  for (uint32_t i = 0; i < 5000; i++) {
    uint8_t k[8];
    sl_be64(k, i);
    CHECK_INT(sl_store_append(txn, SL_DB_RECORDS, sl_str_make((char *)k, 8),
                              sl_str_make(val, sizeof(val)), &f),
              SL_OK);
    if (i < 10)
      CHECK_INT(sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)k, 8), (sl_str){"", 0}, &f),
                SL_OK);
  }
  CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  CHECK_INT(count_keys(st, SL_DB_RECORDS), 5000);
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_empty(txn, SL_DB_RECORDS, &f), SL_OK);
  sl_store_abort(txn);
  CHECK_INT(count_keys(st, SL_DB_RECORDS), 5000);
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_empty(txn, SL_DB_RECORDS, &f), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_RECORDS, sl_str_make("k", 1), sl_str_make("v", 1), &f), SL_OK);
  CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  CHECK_INT(count_keys(st, SL_DB_RECORDS), 1);
  CHECK_INT(count_keys(st, SL_DB_STREAMS), 10);
  sl_store_close(st);
  sl_arena_destroy(&ar);
}

static void sync_all(sl_store *st, sl_failure *f) {
  if (sl_store_sync_begin(st)) {
    int rc = sl_store_sync_run(st);
    CHECK_INT(sl_store_sync_end(st, rc, f), SL_OK);
  }
}

static void copy_file(const char *from, const char *to) {
  char cmd[700];
  snprintf(cmd, sizeof(cmd), "cp %s %s", from, to);
  CHECK_INT(system(cmd), 0);
}

/* The writes of the crashed child of test_redo_replay, each group synced
 * (acknowledged) on its own: 120 puts of 1 KB values (over 64 KB of log,
 * so the log switches files once, at its 64 KB limit), a delete, a range
 * delete, a database emptied and refilled, and an aborted write. */
static void crash_after_writes(const char *dir) {
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_store_config cfg = {.data_dir = dir, .map_size = 16u << 20, .redo_limit = 64u << 10};
  sl_store *st = NULL;
  if (sl_store_open(&cfg, &f, &st) != SL_OK)
    _exit(3);
  char val[1000];
  memset(val, 'v', sizeof(val));
  sl_txn *txn;
  for (int i = 0; i < 120; i++) {
    char k[16];
    snprintf(k, sizeof(k), "k%03d", i);
    put_meta(st, k, val, sizeof(val), &f);
    if (i == 7) { /* an aborted write in a group of one committed one */
      CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
      CHECK_INT(sl_store_put(txn, SL_DB_META, SL_STR("x"), SL_STR("1"), &f), SL_OK);
      sl_store_abort(txn);
    }
    sync_all(st, &f);
  }
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_del(txn, SL_DB_META, SL_STR("k005"), &f), SL_OK);
  CHECK_INT(sl_store_del_range(txn, SL_DB_META, SL_STR("k010"), SL_STR("k020"), NULL, &f), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_RECORDS, SL_STR("r1"), SL_STR("1"), &f), SL_OK);
  CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  sync_all(st, &f);
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_empty(txn, SL_DB_RECORDS, &f), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_RECORDS, SL_STR("r2"), SL_STR("2"), &f), SL_OK);
  CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  sync_all(st, &f);
  _exit(sl_t_failures ? 1 : 0); /* no close: the process dies */
}

static void check_replayed(sl_store *st, sl_failure *f) {
  int present = 0;
  for (int i = 0; i < 120; i++) {
    char k[16];
    snprintf(k, sizeof(k), "k%03d", i);
    bool want = i != 5 && (i < 10 || i >= 20);
    CHECK(has_meta(st, k, f) == want);
    present += has_meta(st, k, f);
  }
  CHECK_INT(present, 109);
  CHECK(has_meta(st, "before", f));
  CHECK(!has_meta(st, "x", f));
  CHECK_INT(count_keys(st, SL_DB_RECORDS), 1);
  sl_txn *txn;
  sl_str v;
  CHECK_INT(sl_store_begin(st, false, f, &txn), SL_OK);
  CHECK(sl_store_get(txn, SL_DB_RECORDS, SL_STR("r2"), &v) && sl_str_eq_c(v, "2"));
  sl_store_abort(txn);
}

/* Where the records of a redo log file end (redo.h, "Record": each 24-byte
 * header holds "SLRD" and the payload's length); zeros follow them. */
static size_t records_end(const char *path) {
  static unsigned char buf[1 << 20];
  size_t n = read_file(path, buf, sizeof(buf)), at = 0;
  while (at + 24 <= n && memcmp(buf + at, "SLRD", 4) == 0) {
    uint32_t len;
    memcpy(&len, buf + at + 4, 4);
    at += 24 + len;
  }
  CHECK(at > 0 && at < n);
  return at;
}

/* Power loss, simulated: the LMDB file goes back to its last checkpoint
 * (the copy taken after a clean close), the log keeps what its fsyncs
 * made durable, and the open replays the log onto the file. */
static void test_redo_replay(void) {
  char dir[] = "/tmp/sluice-test-store-XXXXXX", data[200], saved[200], log0[200];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(data, sizeof(data), "%s/data.mdb", dir);
  snprintf(saved, sizeof(saved), "%s/saved.mdb", dir);
  snprintf(log0, sizeof(log0), "%s/redo.0", dir);
  sl_arena a;
  sl_arena_init(&a);
  sl_failure f;
  sl_failure_init(&f, &a);
  sl_store *st = open_dir(dir, &f);
  CHECK(st != NULL);
  put_meta(st, "before", "1", 1, &f);
  sync_all(st, &f);
  sl_store_close(st);
  copy_file(data, saved);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0)
    crash_after_writes(dir);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  struct stat sb;
  char log1[200];
  snprintf(log1, sizeof(log1), "%s/redo.1", dir);
  CHECK(stat(log1, &sb) == 0 && sb.st_size > 0); /* the log switched files */
  /* Keep the log as the crash left it, for the second case below. */
  char keep0[200], keep1[200];
  snprintf(keep0, sizeof(keep0), "%s/keep.0", dir);
  snprintf(keep1, sizeof(keep1), "%s/keep.1", dir);
  copy_file(log0, keep0);
  copy_file(log1, keep1);

  /* 1. The file as of the checkpoint, a torn write after the log's last
   * record (where the zeros written ahead of it begin). */
  copy_file(saved, data);
  FILE *lf = fopen(log1, "r+b");
  CHECK(lf != NULL);
  CHECK(fseek(lf, (long)records_end(log1), SEEK_SET) == 0);
  static const unsigned char torn[] = {'S', 'L', 'R', 'D', 0xff, 0xff, 0, 0, 9};
  fwrite(torn, 1, sizeof(torn), lf);
  fclose(lf);
  st = open_dir(dir, &f);
  CHECK(st != NULL);
  if (st) {
    check_replayed(st, &f);
    sl_store_close(st);
  }
  /* The close checkpointed: the next open has nothing to replay and the
   * same contents. */
  st = open_dir(dir, &f);
  CHECK(st != NULL);
  if (st) {
    check_replayed(st, &f);
    sl_store_close(st);
  }

  /* 2. The same crash, with a record of the first file damaged: the groups
   * after it (in the second file) cannot be replayed without it. */
  copy_file(saved, data);
  copy_file(keep0, log0);
  copy_file(keep1, log1);
  FILE *df = fopen(log0, "r+b");
  CHECK(df != NULL);
  CHECK(fseek(df, 40, SEEK_SET) == 0); /* in the first record's payload */
  fputc('#', df);
  fclose(df);
  sl_failure_init(&f, &a);
  CHECK(open_dir(dir, &f) == NULL);
  CHECK(memmem(f.message.p, f.message.len, "cannot replay the redo log", 26) != NULL);
  sl_arena_destroy(&a);
  remove_dir(dir);
}

int main(void) {
  RUN(test_format_version);
  RUN(test_page_size);
  RUN(test_group_commit);
  RUN(test_capture_hook);
  RUN(test_del_range);
  RUN(test_empty);
  RUN(test_redo_replay);
  return DONE();
}
