/* Pages of the in-memory map made present ahead of LMDB; see prefault.h. */
#include "store/prefault.h"
#include "base/log.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

struct sl_prefault {
  int fd;
  char *map;
  uint64_t map_size;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  uint64_t target; /* under lock: make [.., target) present */
  uint64_t from;   /* under lock: nothing below it needs it (LMDB wrote it) */
  uint64_t done;   /* atomic: [.., done) is present */
  bool stop;       /* under lock */
};

enum { OS_PAGE = 4096 };

void *sl_prefault_find_map(int fd, uint64_t len) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return NULL;
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps)
    return NULL;
  char line[512];
  void *found = NULL;
  while (!found && fgets(line, sizeof(line), maps)) {
    unsigned long lo, hi, off, ino;
    unsigned dev_major, dev_minor;
    char perms[8];
    if (sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &lo, &hi, perms, &off, &dev_major, &dev_minor,
               &ino) != 7)
      continue;
    if (ino == (unsigned long)st.st_ino && dev_major == major(st.st_dev) &&
        dev_minor == minor(st.st_dev) && off == 0 && hi - lo == len && perms[3] == 's')
      found = (void *)lo;
  }
  fclose(maps);
  return found;
}

/* Makes [from, to) of the map present: allocated in the file first ('fd' not
 * -1), then written once (prefault.h); false when the file system is full. */
static bool make_present(int fd, char *map, uint64_t from, uint64_t to) {
  if (from >= to)
    return true;
  if (fd >= 0 && fallocate(fd, 0, (off_t)from, (off_t)(to - from)) != 0)
    return false;
  for (uint64_t off = from; off < to; off += OS_PAGE)
    __atomic_fetch_add((uint64_t *)(void *)(map + off), 0, __ATOMIC_RELAXED);
  return true;
}

static void *prefaulter(void *arg) {
  sl_prefault *p = arg;
  /* Only on a CPU nothing else wants: never ahead of the loop thread, even
   * when both are pinned to one CPU at a real-time priority (bench/tail.py
   * --rt; the thread inherits both). A refused change leaves it as it is. */
  struct sched_param idle = {0};
  pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
  pthread_mutex_lock(&p->lock);
  for (;;) {
    uint64_t done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);
    while (!p->stop && done >= p->target)
      pthread_cond_wait(&p->wake, &p->lock);
    if (p->stop)
      break;
    uint64_t from = done > p->from ? done : p->from, to = p->target;
    pthread_mutex_unlock(&p->lock);
    bool ok = make_present(p->fd, p->map, from, to);
    pthread_mutex_lock(&p->lock);
    if (!ok) /* the file system is full: LMDB's map limit still holds */
      break;
    __atomic_store_n(&p->done, to, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

sl_prefault *sl_prefault_start(int fd, void *map, uint64_t map_size, uint64_t used,
                               uint64_t pretouch) {
  sl_prefault *p = calloc(1, sizeof(*p));
  if (!p)
    sl_panic("out of memory");
  p->fd = fd;
  p->map = map;
  p->map_size = map_size & ~(uint64_t)(OS_PAGE - 1);
  p->done = p->from = used & ~(uint64_t)(OS_PAGE - 1);
  /* The pretouch, on this thread: up to a page boundary, within the map. */
  pretouch = (pretouch + OS_PAGE - 1) & ~(uint64_t)(OS_PAGE - 1);
  if (pretouch > p->map_size)
    pretouch = p->map_size;
  if (pretouch > p->done && make_present(fd, p->map, p->done, pretouch))
    p->done = p->from = pretouch;
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->wake, NULL);
  if (pthread_create(&p->thread, NULL, prefaulter, p) != 0) {
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return NULL;
  }
  sl_prefault_need(p, used);
  return p;
}

void sl_prefault_need(sl_prefault *p, uint64_t used) {
  /* Read without the lock: 'target' is written by this thread only. */
  if (used + SL_PREFAULT_RESERVE / 2 <= p->target || p->target >= p->map_size)
    return;
  uint64_t target = used + SL_PREFAULT_RESERVE;
  pthread_mutex_lock(&p->lock);
  p->target = target < p->map_size ? target : p->map_size;
  p->from = used & ~(uint64_t)(OS_PAGE - 1);
  pthread_cond_signal(&p->wake);
  pthread_mutex_unlock(&p->lock);
}

uint64_t sl_prefault_ready(const sl_prefault *p) {
  return __atomic_load_n(&p->done, __ATOMIC_ACQUIRE);
}

void sl_prefault_stop(sl_prefault *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->lock);
  p->stop = true;
  pthread_cond_signal(&p->wake);
  pthread_mutex_unlock(&p->lock);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  free(p);
}
