/* Unit tests of store/store.h: the format version of a --data-dir (a
 * directory written by another format is refused with a message naming both,
 * never misread; one of format 1 is upgraded in place), of its page size (a
 * new environment gets SL_STORE_PAGE_SIZE pages from meta pages written as
 * LMDB writes them; an existing one keeps its own), of group commit (each
 * write a nested child of the open group: an abort drops only its own
 * changes, a read and a sync see the group), and of the write funnel's
 * change-capture hook (store/items.h: every item change, in its
 * transaction). */
#include "harness.h"
#include "store/items.h"
#include "store/key.h"

#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
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
  /* Format 1 (before multi-attribute GSI keys) is a subset of format 2: it
   * opens and is upgraded in place. */
  uint32_t old = 1;
  put_meta(st, "format", &old, 4, &f);
  sl_store_close(st);
  sl_failure_init(&f, &a);
  st = open_dir(dir, &f);
  CHECK(st != NULL);
  CHECK_INT(sl_store_begin(st, false, &f, &txn), SL_OK);
  CHECK(sl_store_get(txn, SL_DB_META, SL_STR("format"), &v));
  format = 0;
  memcpy(&format, v.p, v.len == 4 ? 4 : 0);
  CHECK_INT(format, 2);
  sl_store_abort(txn);
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
  sl_store_config cfg = {.map_size = 16u << 20};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
  capture cp = {0};
  sl_store_set_capture(st, on_change, &cp);
  sl_table *t = sl_table_new();
  t->id = 7;
  t->key.hash = SL_STR("pk");
  t->key.hash_type = SL_AV_S;
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
  /* A write after the read starts the next group. */
  put_meta(st, "d", "4", 1, &f);
  CHECK(sl_store_sync_begin(st));
  CHECK_INT(sl_store_sync_run(st), 0);
  CHECK_INT(sl_store_sync_end(st, 0, &f), SL_OK);
  CHECK(!sl_store_dirty(st));
  CHECK(!sl_store_sync_begin(st)); /* nothing since */
  /* A group of aborted writes only: nothing to sync, nothing kept. */
  CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
  CHECK_INT(sl_store_put(txn, SL_DB_META, SL_STR("e"), SL_STR("5"), &f), SL_OK);
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
  CHECK(!has_meta(st, "e", &f));
  sl_store_close(st);
  sl_arena_destroy(&a);
  remove_dir(dir);
}

int main(void) {
  RUN(test_format_version);
  RUN(test_page_size);
  RUN(test_group_commit);
  RUN(test_capture_hook);
  return DONE();
}
