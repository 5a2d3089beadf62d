/* Unit tests of store/prefault.h: the prefaulter finds a shared mapping by its
 * file, makes the reserve past the used bytes present (allocated in the file,
 * resident in the map) without changing a byte of it, follows the used bytes
 * as they grow, never passes the map's end, and stops; does the same for
 * anonymous memory; and an in-memory store, its map moved to anonymous
 * memory, keeps it ahead of LMDB's last page as items are written; a
 * pretouch makes the map's first bytes present before the start returns. Waits are on a
 * condition, bounded (5 s), never a sleep of a guessed length. */
#include "harness.h"
#include "store/prefault.h"
#include "store/store.h"

#include <fcntl.h>
#include <stdlib.h>
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
  sl_prefault *p = sl_prefault_start(fd, map, size, 3 * PAGE, 0);
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
  sl_prefault *p = sl_prefault_start(-1, map, size, 2 * PAGE, 0);
  CHECK(p != NULL);
  CHECK(wait_ready(p, 2 * PAGE + SL_PREFAULT_RESERVE));
  CHECK_INT(resident(map, 2 * PAGE, SL_PREFAULT_RESERVE), SL_PREFAULT_RESERVE / PAGE);
  CHECK_INT(map[2 * PAGE - 1], 0x33);
  CHECK_INT(map[2 * PAGE + 5], 0);
  sl_prefault_stop(p);
  munmap(map, size);
}

static void test_store_keeps_ahead(void) {
  sl_store_config cfg = {.map_size = 64u << 20};
  sl_failure f = {0};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
  CHECK(sl__store_prefault(st) != NULL);
  /* The map moved to anonymous memory (store.h, "Memory mode"): LMDB's meta
   * pages came along, so the store writes and reads as before. */
  CHECK(sl__store_map_anonymous(st));
  /* ~4 MB of values: LMDB's last page moves past the first reserve. */
  char val[1000];
  memset(val, 'v', sizeof(val));
  for (int batch = 0; batch < 40; batch++) {
    sl_txn *txn;
    CHECK_INT(sl_store_begin(st, true, &f, &txn), SL_OK);
    for (int i = 0; i < 100; i++) {
      char key[32];
      snprintf(key, sizeof(key), "k%08d", batch * 100 + i);
      CHECK_INT(sl_store_put(txn, SL_DB_META, sl_str_c(key), sl_str_make(val, sizeof(val)), &f),
                SL_OK);
    }
    CHECK_INT(sl_store_commit(txn, &f), SL_OK);
  }
  uint64_t used = sl__store_map_used(st);
  CHECK(used > SL_PREFAULT_RESERVE);
  sl_txn *rd;
  CHECK_INT(sl_store_begin(st, false, &f, &rd), SL_OK);
  sl_str got;
  CHECK(sl_store_get(rd, SL_DB_META, sl_str_c("k00003999"), &got));
  CHECK(got.len == sizeof(val) && memcmp(got.p, val, sizeof(val)) == 0);
  sl_store_abort(rd);
  CHECK(wait_ready(sl__store_prefault(st), used + SL_PREFAULT_RESERVE / 2));
  sl_store_close(st);

  /* A durable store writes through its file: no prefaulter. */
  char dir[] = "/tmp/sl-prefault-dir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  sl_store_config dcfg = {.data_dir = dir, .map_size = 16u << 20};
  CHECK_INT(sl_store_open(&dcfg, &f, &st), SL_OK);
  CHECK(sl__store_prefault(st) == NULL);
  CHECK(!sl__store_map_anonymous(st));
  sl_store_close(st);
  char path[128];
  snprintf(path, sizeof(path), "%s/data.mdb", dir);
  unlink(path);
  snprintf(path, sizeof(path), "%s/lock.mdb", dir);
  unlink(path);
  rmdir(dir);
}

/* A pretouch: the map's first bytes (rounded up to a page) are present when
 * sl_prefault_start returns, with no wait, bytes unchanged, and nothing far
 * past them; one larger than the map stops at its end. A store opened with
 * one has it done by the time the open returns. */
static void test_pretouch(void) {
  uint64_t size = 16u << 20, want = (8u << 20) + 100, rounded = (8u << 20) + PAGE;
  char *map =
      mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHECK(map != MAP_FAILED);
  memset(map, 0x33, 2 * PAGE);
  sl_prefault *p = sl_prefault_start(-1, map, size, 2 * PAGE, want);
  CHECK(p != NULL);
  CHECK_INT(sl_prefault_ready(p), rounded);
  CHECK_INT(resident(map, 0, rounded), rounded / PAGE);
  CHECK_INT(map[2 * PAGE - 1], 0x33);
  CHECK_INT(map[2 * PAGE], 0);
  /* Past the pretouch (and the 2 MB page it ends in): nothing yet. */
  CHECK_INT(resident(map, 12u << 20, PAGE * 16), 0);
  /* The reserve follows LMDB past the pretouch as before. */
  sl_prefault_need(p, rounded);
  CHECK(wait_ready(p, rounded + SL_PREFAULT_RESERVE));
  sl_prefault_stop(p);
  munmap(map, size);

  uint64_t small = 4u << 20;
  map =
      mmap(NULL, small, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  CHECK(map != MAP_FAILED);
  p = sl_prefault_start(-1, map, small, 0, 1u << 30);
  CHECK(p != NULL);
  CHECK_INT(sl_prefault_ready(p), small);
  CHECK_INT(resident(map, 0, small), small / PAGE);
  sl_prefault_stop(p);
  munmap(map, small);

  sl_store_config cfg = {.map_size = 64u << 20, .pretouch = 24u << 20};
  sl_failure f = {0};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
  CHECK(sl__store_prefault(st) != NULL);
  CHECK(sl_prefault_ready(sl__store_prefault(st)) >= 24u << 20);
  sl_store_close(st);
}

/* A map size that is not whole pages (--map-size 33554433) is cut to whole
 * 32 KB pages, so the map is still found, moved to anonymous memory and
 * prefaulted. */
static void test_odd_map_size(void) {
  sl_store_config cfg = {.map_size = (32u << 20) + 1};
  sl_failure f = {0};
  sl_store *st = NULL;
  CHECK_INT(sl_store_open(&cfg, &f, &st), SL_OK);
  CHECK(sl__store_map_anonymous(st));
  CHECK(sl__store_prefault(st) != NULL);
  sl_store_close(st);
}

int main(void) {
  RUN(test_module);
  RUN(test_anonymous);
  RUN(test_store_keeps_ahead);
  RUN(test_pretouch);
  RUN(test_odd_map_size);
  return DONE();
}
