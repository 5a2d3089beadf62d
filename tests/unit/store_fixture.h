/*
 * store_fixture.h — a fresh in-memory store and a table keyed by one string
 * attribute, for the unit tests of store/ and of the layers above it
 * (tests/unit/store/test_store.c, tests/unit/streams/test_streams.c).
 */
#ifndef SL_TESTS_STORE_FIXTURE_H
#define SL_TESTS_STORE_FIXTURE_H

#include "harness.h"
#include "store/item.h"
#include "store/schema.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>

/* A 16 MB in-memory store (store/store.h), NULL when it cannot be opened. */
static inline sl_store *fixture_store(sl_failure *f) {
  sl_store_config cfg = {.map_size = 16u << 20};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, f, &st), SL_OK);
  return st;
}

/* A 64 MB store with --data-dir in a fresh directory made from 'dir' (a
 * mkdtemp template, "...XXXXXX", which becomes its name); NULL when it
 * cannot be opened. fixture_dir_remove deletes the directory. */
static inline sl_store *fixture_dir_store(char *dir, sl_failure *f) {
  CHECK(mkdtemp(dir) != NULL);
  sl_store_config cfg = {.data_dir = dir, .map_size = 64u << 20};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, f, &st), SL_OK);
  return st;
}

static inline void fixture_dir_remove(const char *dir) {
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  CHECK_INT(system(cmd), 0);
}

/* Table "t", storage id 7, partition key "pk" (S); the caller frees it or
 * hands it to a catalog. */
static inline sl_table *fixture_table(void) {
  sl_table *t = sl_table_new();
  t->id = 7;
  t->name = SL_STR("t");
  t->key.hash = SL_STR("pk");
  t->key.hash_type = SL_AV_S;
  return t;
}

#endif
