/* micro_pages — what the first write to a page of the in-memory map costs, and
 * what store/prefault.h's prefaulter leaves of it (issue #12's PutItem tail).
 *
 *   micro_pages    prints, for a sparse file on /dev/shm mapped shared as
 *                  LMDB maps it in memory mode: the first write to each 4 KB
 *                  page; a second write to the same pages; and 32 KB "LMDB
 *                  pages" written one after the other (p50, p99, max of each)
 *                  without and with a prefaulter keeping its reserve ahead,
 *                  told the used bytes after every page as store.c does after
 *                  every commit.
 *
 * On a machine whose memory is backed lazily by a hypervisor the first write
 * costs tens of µs a page; on bare metal about a µs. Wall time of the writing
 * thread; a measurement, never a timed test. */
#include "store/prefault.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { PAGE = 4096, LMDB_PAGE = 32768, REGION = 16 << 20, N_LMDB = REGION / LMDB_PAGE };

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void per_page(const char *what, char *m) {
  double t = now_us();
  for (size_t i = 0; i < REGION / PAGE; i++)
    m[i * PAGE] = 1;
  printf("%-44s %8.2f us a 4 KB page\n", what, (now_us() - t) / (REGION / PAGE));
}

/* Writes N_LMDB 32 KB pages from 'm' on, telling 'p' (if any) the used bytes. */
static void lmdb_pages(const char *what, char *map, uint64_t from, sl_prefault *p) {
  static double lat[N_LMDB];
  for (int i = 0; i < N_LMDB; i++) {
    double t = now_us();
    memset(map + from + (uint64_t)i * LMDB_PAGE, 0x11, LMDB_PAGE);
    lat[i] = now_us() - t;
    if (p)
      sl_prefault_need(p, from + (uint64_t)(i + 1) * LMDB_PAGE);
    /* Other work between new pages, as a loop serving PutItems of ~1 KB
     * has (a new 32 KB page every ~20 of them, ~40 µs each); the
     * prefaulter runs meanwhile. */
    for (double end = now_us() + 400; now_us() < end;) {
    }
    nanosleep(&(struct timespec){0, 400000}, NULL); /* and waiting for requests */
  }
  qsort(lat, N_LMDB, sizeof(double), cmp);
  printf("%-44s p50 %7.1f  p99 %7.1f  max %7.1f us a 32 KB page\n", what, lat[N_LMDB / 2],
         lat[N_LMDB * 99 / 100], lat[N_LMDB - 1]);
}

int main(void) {
  char name[] = "/dev/shm/sl-micro-pages-XXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) {
    perror("mkstemp");
    return 1;
  }
  unlink(name);
  const uint64_t size = (uint64_t)8 * REGION;
  if (ftruncate(fd, (off_t)size) != 0) {
    perror("ftruncate");
    return 1;
  }
  char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  per_page("first write to a fresh page", map);
  per_page("second write to the same page", map);
  lmdb_pages("fresh 32 KB pages, no prefaulter", map, REGION, NULL);
  sl_prefault *p = sl_prefault_start(fd, map, size, 2 * REGION, 0);
  lmdb_pages("fresh 32 KB pages, prefaulter ahead", map, 2 * REGION, p);
  sl_prefault_stop(p);
  lmdb_pages("32 KB pages written before (reused)", map, REGION, NULL);
  munmap(map, size);
  close(fd);
  return 0;
}
