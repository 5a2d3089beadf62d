/* Unit tests of store/prefault.h: the prefaulter finds a shared mapping by its
 * file, makes the reserve past the used bytes present (allocated in the file,
 * resident in the map) without changing a byte of it, follows the used bytes
 * as they grow, never passes the map's end, and stops; does the same for
 * anonymous memory; and a store of either mode, its map moved to anonymous
 * memory, keeps it ahead of LMDB's last page as items are written (a durable
 * one reopened reads them back from its snapshot). Waits are on a
 * condition, bounded (5 s), never a sleep of a guessed length. */
#include "harness.h"
#include "store/prefault.h"
#include "store/store.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { PAGE = 4096 };

/* Waits until the prefaulter has made [.., want) present; false after 5 s. */
static bool wait_ready(const sl_prefault *p, uint64_t want) {
  for (int i = 0; i < 5000; i++) {
    if (sl_prefault_ready(p) >= want)
      return true;
    nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  return false;
}

/* Pages of [off, off + len) resident in the map. */
static size_t resident(char *map, uint64_t off, uint64_t len) {
  size_t n = len / PAGE, in = 0;
  unsigned char *vec = calloc(n, 1);
  CHECK_INT(mincore(map + off, len, vec), 0);
  for (size_t i = 0; i < n; i++)
    in += vec[i] & 1;
  free(vec);
  return in;
}

static uint64_t allocated(int fd) {
  struct stat st;
  fstat(fd, &st);
  return (uint64_t)st.st_blocks * 512;
}

static void test_module(void) {
  char name[] = "/dev/shm/sl-prefault-XXXXXX";
  int fd = mkstemp(name);
  CHECK(fd >= 0);
  unlink(name);
  const uint64_t size = 16u << 20;
  CHECK_INT(ftruncate(fd, (off_t)size), 0);
  char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(map != MAP_FAILED);
  CHECK(sl_prefault_find_map(fd, size) == map);
  CHECK(sl_prefault_find_map(fd, size / 2) == NULL); /* the length must match */

  /* "Used" data, and a byte inside the reserve the thread must keep. */
  memset(map, 0x5a, 3 * PAGE);
  map[3 * PAGE + 100] = 7;
  sl_prefault *p = sl_prefault_start(fd, map, size, 3 * PAGE);
  CHECK(p != NULL);
  CHECK(wait_ready(p, 3 * PAGE + SL_PREFAULT_RESERVE));
  CHECK_INT(resident(map, 3 * PAGE, SL_PREFAULT_RESERVE), SL_PREFAULT_RESERVE / PAGE);
  CHECK(allocated(fd) >= 3 * PAGE + SL_PREFAULT_RESERVE);
  CHECK_INT(map[3 * PAGE + 100], 7);
  CHECK_INT(map[2 * PAGE + 1], 0x5a);
  /* Nothing past the reserve yet. */
  CHECK_INT(resident(map, 3 * PAGE + SL_PREFAULT_RESERVE, PAGE * 16), 0);

  /* Less than half the reserve used: no refill; more: refilled past it. */
  sl_prefault_need(p, 3 * PAGE + SL_PREFAULT_RESERVE / 4);
  CHECK_INT(sl_prefault_ready(p), 3 * PAGE + SL_PREFAULT_RESERVE);
  uint64_t used = 3 * PAGE + SL_PREFAULT_RESERVE * 3 / 4;
  sl_prefault_need(p, used);
  CHECK(wait_ready(p, used + SL_PREFAULT_RESERVE));
  CHECK_INT(resident(map, used, SL_PREFAULT_RESERVE), SL_PREFAULT_RESERVE / PAGE);

  /* Near the end of the map: up to its end, never past it. */
  sl_prefault_need(p, size - PAGE * 8);
  CHECK(wait_ready(p, size));
  CHECK_INT(sl_prefault_ready(p), size);
  CHECK_INT(resident(map, size - PAGE * 8, PAGE * 8), 8);
  sl_prefault_stop(p);
  sl_prefault_stop(NULL);
  munmap(map, size);
  close(fd);
}

/* Anonymous memory ('fd' -1, the in-memory store's map): the reserve is made
 * present, bytes unchanged, with nothing to allocate in a file. */
static void test_anonymous(void) {
  uint64_t size = 16u << 20;
  char *map =
      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHECK(map != MAP_FAILED);
  memset(map, 0x33, 2 * PAGE);
  sl_prefault *p = sl_prefault_start(-1, map, size, 2 * PAGE);
  CHECK(p != NULL);
  CHECK(wait_ready(p, 2 * PAGE + SL_PREFAULT_RESERVE));
  CHECK_INT(resident(map, 2 * PAGE, SL_PREFAULT_RESERVE), SL_PREFAULT_RESERVE / PAGE);
  CHECK_INT(map[2 * PAGE - 1], 0x33);
  CHECK_INT(map[2 * PAGE + 5], 0);
  sl_prefault_stop(p);
  munmap(map, size);
}

static void put_values(sl_store *st, int batches, sl_failure *f) {
  char val[1000];
  memset(val, 'v', sizeof(val));
  for (int batch = 0; batch < batches; batch++) {
    sl_txn *txn;
    CHECK_INT(sl_store_begin(st, true, f, &txn), SL_OK);
    for (int i = 0; i < 100; i++) {
      char key[32];
      snprintf(key, sizeof(key), "k%08d", batch * 100 + i);
      CHECK_INT(sl_store_put(txn, SL_DB_META, sl_str_c(key), sl_str_make(val, sizeof(val)), f),
                SL_OK);
    }
    CHECK_INT(sl_store_commit(txn, f), SL_OK);
  }
}

static bool has_value(sl_store *st, const char *key, sl_failure *f) {
  char val[1000];
  memset(val, 'v', sizeof(val));
  sl_txn *rd;
  CHECK_INT(sl_store_begin(st, false, f, &rd), SL_OK);
  sl_str got;
  bool ok = sl_store_get(rd, SL_DB_META, sl_str_c(key), &got) && got.len == sizeof(val) &&
            memcmp(got.p, val, sizeof(val)) == 0;
  sl_store_abort(rd);
  return ok;
}

/* Both modes keep their map in anonymous memory (store.h, "Modes"), with a
 * prefaulter ahead of LMDB's last page; a durable store reopened reads its
 * snapshot's megabytes back into the map. */
static void test_store_keeps_ahead(void) {
  char dir[] = "/tmp/sl-prefault-dir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  for (int durable = 0; durable < 2; durable++) {
    sl_store_config cfg = {.map_size = 64u << 20, .data_dir = durable ? dir : NULL};
    sl_failure f = {0};
    sl_store *st = NULL;
    CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
    CHECK(sl__store_prefault(st) != NULL);
    /* The map moved to anonymous memory: LMDB's meta pages came along, so
     * the store writes and reads as before. */
    CHECK(sl__store_map_anonymous(st));
    /* ~4 MB of values: LMDB's last page moves past the first reserve. */
    put_values(st, 40, &f);
    uint64_t used = sl__store_map_used(st);
    CHECK(used > SL_PREFAULT_RESERVE);
    CHECK(has_value(st, "k00003999", &f));
    CHECK(wait_ready(sl__store_prefault(st), used + SL_PREFAULT_RESERVE / 2));
    sl_store_close(st);
    if (!durable)
      continue;
    st = NULL;
    CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
    if (!st)
      continue;
    CHECK(sl__store_map_anonymous(st));
    /* The snapshot is compacted (store.h, "Checkpoints"): no more pages. */
    uint64_t reopened = sl__store_map_used(st);
    CHECK(reopened > SL_PREFAULT_RESERVE && reopened <= used);
    CHECK(has_value(st, "k00000000", &f));
    CHECK(has_value(st, "k00003999", &f));
    CHECK(wait_ready(sl__store_prefault(st), reopened + SL_PREFAULT_RESERVE / 2));
    sl_store_close(st);
  }
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
  CHECK_INT(system(cmd), 0);
}

int main(void) {
  RUN(test_module);
  RUN(test_anonymous);
  RUN(test_store_keeps_ahead);
  return DONE();
}
