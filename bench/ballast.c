/* ballast.so — the control experiment of bench/README.md: makes any server hold
 * BALLAST_MB (default 1500) MiB of touched memory it never uses, shared memory
 * (memfd, like sluice's in-memory map) or, with BALLAST_ANON=1, anonymous.
 *
 *   cc -O2 -shared -fPIC -o build/bench/ballast.so bench/ballast.c
 *   LD_PRELOAD=build/bench/ballast.so build/bench/micro_http serve 8192
 *
 * A measurement aid, never part of a test. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((constructor)) static void ballast(void) {
  const char *mb = getenv("BALLAST_MB");
  size_t size = (size_t)atol(mb ? mb : "1500") << 20;
  bool anon = getenv("BALLAST_ANON") && atoi(getenv("BALLAST_ANON"));
  int fd = -1;
  if (!anon && ((fd = memfd_create("ballast", 0)) < 0 || ftruncate(fd, (off_t)size) != 0))
    return;
  char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 anon ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    return;
  for (size_t off = 0; off < size; off += 4096)
    p[off] = 1;
}
