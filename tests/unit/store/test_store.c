/* Unit tests of store/store.h: the format version of a --data-dir (a
 * directory written by another format is refused with a message naming both,
 * never misread; one of format 1 is upgraded in place), and of the write
 * funnel's change-capture hook (store/items.h: every item change, in its
 * transaction). */
#include "harness.h"
#include "store/items.h"
#include "store/key.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static sl_store *open_dir(const char *dir, sl_failure *f) {
  sl_store_config cfg = {.data_dir = dir, .map_size = 16u << 20};
  sl_store *st = NULL;
  return sl_store_open(&cfg, f, &st) == SL_OK ? st : NULL;
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
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  CHECK_INT(system(cmd), 0);
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

int main(void) {
  RUN(test_format_version);
  RUN(test_capture_hook);
  return DONE();
}
