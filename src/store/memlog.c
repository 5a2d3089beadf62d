/* Memory mode's "records" database, an append-only log; see memlog.h. */
#include "store/memlog.h"
#include "base/bytes.h"
#include "base/log.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#ifndef PR_SET_VMA /* Linux 5.17's names of anonymous mappings */
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

typedef struct {
  uint32_t klen, vlen;
  uint8_t dead;
  uint8_t pad[7];
} ent; /* then the key and the value */

typedef struct chunk {
  struct chunk *next; /* the next in use, or in the pool / retired list */
  char *base;
  size_t size, used;
} chunk;

struct sl_memlog {
  uint64_t limit, bytes;
  const char *name;
  /* The directory: ring of entry pointers, dir[(head + i) & (cap - 1)] is
   * the entry at position base + i. */
  ent **dir;
  size_t cap, head, n;
  uint64_t base;
  /* Chunks in use, oldest first; the tail takes appends. */
  chunk *first, *last;
  chunk *pool; /* released, present, reusable */
  size_t n_pool;
  chunk *retired; /* released while a read may hold slices into them */
  /* The write under way (sl_memlog_begin): where the log ended, and the
   * positions it marked deleted. */
  uint64_t mark_end;
  chunk *mark_last;
  size_t mark_used;
  uint64_t *undo;
  size_t n_undo, cap_undo;
};

static size_t ent_size(size_t klen, size_t vlen) {
  return (sizeof(ent) + klen + vlen + 7) & ~(size_t)7;
}
static sl_str ent_key(const ent *e) { return sl_str_make((const char *)(e + 1), e->klen); }
static sl_str ent_val(const ent *e) {
  return sl_str_make((const char *)(e + 1) + e->klen, e->vlen);
}
static ent *at(const sl_memlog *l, uint64_t pos) {
  return l->dir[(l->head + (size_t)(pos - l->base)) & (l->cap - 1)];
}

sl_memlog *sl_memlog_new(uint64_t limit, const char *name) {
  sl_memlog *l = calloc(1, sizeof(*l));
  if (!l)
    sl_panic("out of memory");
  l->limit = limit;
  l->name = name;
  l->cap = 1024;
  l->dir = malloc(l->cap * sizeof(*l->dir));
  if (!l->dir)
    sl_panic("out of memory");
  return l;
}

static void unmap(sl_memlog *l, chunk *c) {
  munmap(c->base, c->size);
  l->bytes -= c->size;
  free(c);
}

static void unmap_list(sl_memlog *l, chunk *c) {
  while (c) {
    chunk *next = c->next;
    unmap(l, c);
    c = next;
  }
}

void sl_memlog_free(sl_memlog *l) {
  if (!l)
    return;
  unmap_list(l, l->first);
  unmap_list(l, l->pool);
  unmap_list(l, l->retired);
  free(l->dir);
  free(l->undo);
  free(l);
}

void sl_memlog_set_limit(sl_memlog *l, uint64_t limit) { l->limit = limit; }
uint64_t sl_memlog_bytes(const sl_memlog *l) { return l->bytes; }

uint64_t sl_memlog_count(const sl_memlog *l) {
  uint64_t n = 0;
  for (size_t i = 0; i < l->n; i++)
    n += !at(l, l->base + i)->dead;
  return n;
}

/* Names a chunk's memory in /proc/PID/maps (a chunk filled by
 * sl_memlog_stock takes the name of the memory moved onto it). */
static void name_chunk(const sl_memlog *l, void *base, size_t size) {
  if (l->name) /* refused without CONFIG_ANON_VMA_NAME */
    (void)prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)base, (unsigned long)size,
                (unsigned long)l->name);
}

/* A fresh chunk of 'size' bytes (a multiple of SL_MEMLOG_CHUNK), aligned to
 * SL_MEMLOG_CHUNK (so that a huge page of the map moved onto it by
 * sl_memlog_stock stays one), in 4 KB pages (memlog.h); NULL past the limit. */
static chunk *map_chunk(sl_memlog *l, size_t size) {
  if (l->bytes + size > l->limit)
    return NULL;
  size_t over = size + SL_MEMLOG_CHUNK;
  char *m = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  uintptr_t start = ((uintptr_t)m + SL_MEMLOG_CHUNK - 1) & ~(uintptr_t)(SL_MEMLOG_CHUNK - 1);
  size_t lead = start - (uintptr_t)m;
  if (lead)
    munmap(m, lead);
  munmap((char *)start + size, over - lead - size);
  (void)madvise((void *)start, size, MADV_NOHUGEPAGE); /* memlog.h, "Chunks" */
  name_chunk(l, (void *)start, size);
  chunk *c = calloc(1, sizeof(*c));
  if (!c)
    sl_panic("out of memory");
  c->base = (char *)start;
  c->size = size;
  l->bytes += size;
  return c;
}

/* A chunk for an entry of 'need' bytes: the pool's first when it fits. */
static chunk *take_chunk(sl_memlog *l, size_t need) {
  if (need <= SL_MEMLOG_CHUNK && l->pool) {
    chunk *c = l->pool;
    l->pool = c->next;
    l->n_pool--;
    c->next = NULL;
    c->used = 0;
    return c;
  }
  size_t size = (need + SL_MEMLOG_CHUNK - 1) / SL_MEMLOG_CHUNK * SL_MEMLOG_CHUNK;
  return map_chunk(l, size);
}

/* Gives back a chunk no read can hold slices into. */
static void pool_chunk(sl_memlog *l, chunk *c) {
  if (c->size != SL_MEMLOG_CHUNK || l->n_pool >= SL_MEMLOG_POOL) {
    unmap(l, c);
    return;
  }
  c->next = l->pool;
  l->pool = c;
  l->n_pool++;
}

static void release_chunk(sl_memlog *l, chunk *c, bool reader_live) {
  if (reader_live) {
    c->next = l->retired;
    l->retired = c;
  } else {
    pool_chunk(l, c);
  }
}

bool sl_memlog_wants(const sl_memlog *l) { return l->first && !l->pool; }

bool sl_memlog_stock(sl_memlog *l, bool (*fill)(void *ctx, void *chunk), void *ctx) {
  chunk *c = map_chunk(l, SL_MEMLOG_CHUNK);
  if (!c)
    return false;
  if (!fill(ctx, c->base)) {
    unmap(l, c);
    return false;
  }
  name_chunk(l, c->base, c->size);
  pool_chunk(l, c);
  return true;
}

void sl_memlog_quiesce(sl_memlog *l) {
  while (l->retired) {
    chunk *c = l->retired;
    l->retired = c->next;
    pool_chunk(l, c);
  }
}

/* ---- transactions ---- */

void sl_memlog_begin(sl_memlog *l) {
  l->mark_end = l->base + l->n;
  l->mark_last = l->last;
  l->mark_used = l->last ? l->last->used : 0;
  l->n_undo = 0;
}

static bool chunk_holds(const chunk *c, const void *p) {
  return (const char *)p >= c->base && (const char *)p < c->base + c->size;
}

void sl_memlog_commit(sl_memlog *l, bool reader_live) {
  l->n_undo = 0;
  while (l->n && at(l, l->base)->dead) {
    l->head = (l->head + 1) & (l->cap - 1);
    l->base++;
    l->n--;
  }
  while (l->n && at(l, l->base + l->n - 1)->dead)
    l->n--;
  /* Chunks before the first live entry's; every chunk when none is left. */
  const ent *keep = l->n ? at(l, l->base) : NULL;
  while (l->first && !(keep && chunk_holds(l->first, keep))) {
    chunk *c = l->first;
    l->first = c->next;
    if (!l->first)
      l->last = NULL;
    release_chunk(l, c, reader_live);
  }
}

void sl_memlog_abort(sl_memlog *l) {
  /* The entries appended go; their chunks were never seen by a read. */
  l->n = (size_t)(l->mark_end - l->base);
  if (l->mark_last) {
    chunk *c = l->mark_last->next;
    while (c) {
      chunk *next = c->next;
      pool_chunk(l, c);
      c = next;
    }
    l->mark_last->next = NULL;
    l->mark_last->used = l->mark_used;
    l->last = l->mark_last;
  } else {
    chunk *c = l->first;
    while (c) { /* every chunk in use was taken by this write */
      chunk *next = c->next;
      pool_chunk(l, c);
      c = next;
    }
    l->first = l->last = NULL;
  }
  for (size_t i = 0; i < l->n_undo; i++)
    if (l->undo[i] < l->mark_end)
      at(l, l->undo[i])->dead = 0;
  l->n_undo = 0;
}

/* ---- writing ---- */

int sl_memlog_append(sl_memlog *l, sl_str key, sl_str val) {
  if (key.len > UINT32_MAX || val.len > UINT32_MAX)
    return SL_MEMLOG_FULL;
  if (l->n && sl_str_cmp(key, ent_key(at(l, l->base + l->n - 1))) <= 0)
    return SL_MEMLOG_ORDER;
  size_t need = ent_size(key.len, val.len);
  if (!l->last || l->last->size - l->last->used < need) {
    chunk *c = take_chunk(l, need);
    if (!c)
      return SL_MEMLOG_FULL;
    if (l->last)
      l->last->next = c;
    else
      l->first = c;
    l->last = c;
  }
  if (l->n == l->cap) {
    size_t cap = l->cap * 2;
    ent **dir = malloc(cap * sizeof(*dir));
    if (!dir)
      sl_panic("out of memory");
    for (size_t i = 0; i < l->n; i++)
      dir[i] = at(l, l->base + i);
    free(l->dir);
    l->dir = dir;
    l->cap = cap;
    l->head = 0;
  }
  ent *e = (ent *)(l->last->base + l->last->used);
  l->last->used += need;
  e->klen = (uint32_t)key.len;
  e->vlen = (uint32_t)val.len;
  e->dead = 0;
  memcpy(e + 1, key.p, key.len);
  if (val.len)
    memcpy((char *)(e + 1) + key.len, val.p, val.len);
  l->dir[(l->head + l->n) & (l->cap - 1)] = e;
  l->n++;
  return SL_MEMLOG_OK;
}

static void mark_dead(sl_memlog *l, uint64_t pos) {
  if (l->n_undo == l->cap_undo) {
    size_t cap = l->cap_undo ? l->cap_undo * 2 : 256;
    uint64_t *u = realloc(l->undo, cap * sizeof(*u));
    if (!u)
      sl_panic("out of memory");
    l->undo = u;
    l->cap_undo = cap;
  }
  l->undo[l->n_undo++] = pos;
  at(l, pos)->dead = 1;
}

static uint64_t del_positions(sl_memlog *l, uint64_t from, uint64_t to) {
  uint64_t n = 0;
  for (uint64_t p = from; p < to; p++)
    if (!at(l, p)->dead) {
      mark_dead(l, p);
      n++;
    }
  return n;
}

uint64_t sl_memlog_del(sl_memlog *l, sl_str key) {
  uint64_t p = sl_memlog_lower_bound(l, key);
  if (p == sl_memlog_end_pos(l) || sl_str_cmp(ent_key(at(l, p)), key) != 0)
    return 0;
  return del_positions(l, p, p + 1);
}

uint64_t sl_memlog_del_range(sl_memlog *l, sl_str lo, sl_str hi) {
  uint64_t from = sl_memlog_lower_bound(l, lo), to = sl_memlog_lower_bound(l, hi);
  return from < to ? del_positions(l, from, to) : 0;
}

uint64_t sl_memlog_empty(sl_memlog *l) { return del_positions(l, l->base, l->base + l->n); }

/* ---- reading ---- */

uint64_t sl_memlog_first_pos(const sl_memlog *l) { return l->base; }
uint64_t sl_memlog_end_pos(const sl_memlog *l) { return l->base + l->n; }

/* An 8-byte key as a number (big-endian, as the records' sequence numbers
 * are written). */
static bool key_u64(sl_str k, uint64_t *out) {
  if (k.len != 8)
    return false;
  *out = sl_rd64be((const uint8_t *)k.p);
  return true;
}

uint64_t sl_memlog_lower_bound(const sl_memlog *l, sl_str key) {
  size_t lo = 0, hi = l->n;
  uint64_t k, first, last;
  if (l->n > 2 && key_u64(key, &k) && key_u64(ent_key(at(l, l->base)), &first) &&
      key_u64(ent_key(at(l, l->base + l->n - 1)), &last) && first < k && k <= last) {
    /* Numbers nearly dense (gaps are aborted writes): start where the
     * number says and widen the bracket by doubling steps, so a lookup
     * costs a few probes instead of a binary search's ~20 cache misses
     * over a large log. The bracket search below is exact either way. */
    size_t guess = (size_t)((unsigned __int128)(k - first) * (l->n - 1) / (last - first));
    size_t step = 1;
    if (sl_str_cmp(ent_key(at(l, l->base + guess)), key) < 0) {
      lo = guess + 1;
      while (lo + step < l->n && sl_str_cmp(ent_key(at(l, l->base + lo + step)), key) < 0) {
        lo += step + 1;
        step *= 2;
      }
      if (lo + step < hi)
        hi = lo + step;
    } else {
      hi = guess;
      while (hi > step && sl_str_cmp(ent_key(at(l, l->base + hi - step)), key) >= 0) {
        hi -= step;
        step *= 2;
      }
      lo = hi > step ? hi - step : 0;
    }
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sl_str_cmp(ent_key(at(l, l->base + mid)), key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return l->base + lo;
}

bool sl_memlog_get(const sl_memlog *l, sl_str key, sl_str *val) {
  uint64_t p = sl_memlog_lower_bound(l, key);
  if (p == sl_memlog_end_pos(l))
    return false;
  const ent *e = at(l, p);
  if (e->dead || sl_str_cmp(ent_key(e), key) != 0)
    return false;
  *val = ent_val(e);
  return true;
}

bool sl_memlog_at(const sl_memlog *l, uint64_t *pos, int dir, sl_str *key, sl_str *val) {
  uint64_t end = l->base + l->n;
  for (uint64_t p = *pos; p >= l->base && p < end; p += (uint64_t)(int64_t)dir) {
    const ent *e = at(l, p);
    if (e->dead)
      continue;
    *pos = p;
    if (key)
      *key = ent_key(e);
    if (val)
      *val = ent_val(e);
    return true;
  }
  return false;
}
