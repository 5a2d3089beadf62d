/* Per-request arena and growable buffers; see arena.h for the design. */
#include "base/arena.h"
#include "base/log.h"

#include <stdio.h>
#include <stdlib.h>

#define SL_ARENA_CHUNK (64 * 1024)
#define SL_ALIGN 16

struct sl_arena_chunk {
  sl_arena_chunk *next;
  size_t size; /* usable bytes after the header */
  _Alignas(SL_ALIGN) char data[];
};

static sl_arena_chunk *chunk_new(size_t size) {
  sl_arena_chunk *c = malloc(sizeof(*c) + size);
  if (!c)
    sl_panic("out of memory (%zu bytes)", size);
  c->next = NULL;
  c->size = size;
  return c;
}

void sl_arena_init(sl_arena *a) {
  a->head = NULL;
  a->cur = a->end = NULL;
  a->total = 0;
}

void sl_arena_reset(sl_arena *a) {
  sl_arena_chunk *keep = NULL;
  sl_arena_chunk *c = a->head;
  while (c) {
    sl_arena_chunk *next = c->next;
    if (!keep && c->size == SL_ARENA_CHUNK && next == NULL)
      keep = c; /* the oldest chunk is a standard one: keep it */
    else
      free(c);
    c = next;
  }
  a->head = keep;
  a->cur = keep ? keep->data : NULL;
  a->end = keep ? keep->data + keep->size : NULL;
  a->total = 0;
}

void sl_arena_destroy(sl_arena *a) {
  sl_arena_chunk *c = a->head;
  while (c) {
    sl_arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  sl_arena_init(a);
}

void *sl_arena_alloc(sl_arena *a, size_t len) {
  size_t need = (len + SL_ALIGN - 1) & ~(size_t)(SL_ALIGN - 1);
  if (need == 0)
    need = SL_ALIGN;
  a->total += need;
  if (a->cur && (size_t)(a->end - a->cur) >= need) {
    void *p = a->cur;
    a->cur += need;
    return p;
  }
  if (need > SL_ARENA_CHUNK / 4) {
    /* A large block gets its own chunk, linked behind the head so the head's
     * free space stays usable. */
    sl_arena_chunk *c = chunk_new(need);
    if (a->head) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      a->head = c;
      a->cur = a->end = c->data + need;
    }
    return c->data;
  }
  sl_arena_chunk *c = chunk_new(SL_ARENA_CHUNK);
  c->next = a->head;
  a->head = c;
  a->cur = c->data + need;
  a->end = c->data + c->size;
  return c->data;
}

void *sl_arena_calloc(sl_arena *a, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size)
    sl_panic("arena allocation overflow");
  void *p = sl_arena_alloc(a, n * size);
  memset(p, 0, n * size);
  return p;
}

void *sl_arena_realloc(sl_arena *a, void *p, size_t old_len, size_t new_len) {
  if (p == NULL)
    return sl_arena_alloc(a, new_len);
  if (new_len <= old_len)
    return p;
  size_t old_need = (old_len + SL_ALIGN - 1) & ~(size_t)(SL_ALIGN - 1);
  size_t new_need = (new_len + SL_ALIGN - 1) & ~(size_t)(SL_ALIGN - 1);
  /* In place when 'p' is the last allocation of the head chunk. */
  if ((char *)p + old_need == a->cur && (size_t)(a->end - (char *)p) >= new_need) {
    a->cur = (char *)p + new_need;
    a->total += new_need - old_need;
    return p;
  }
  void *q = sl_arena_alloc(a, new_len);
  memcpy(q, p, old_len);
  return q;
}

sl_str sl_arena_strdup(sl_arena *a, sl_str s) {
  char *p = sl_arena_alloc(a, s.len + 1);
  if (s.len)
    memcpy(p, s.p, s.len);
  p[s.len] = '\0';
  return (sl_str){p, s.len};
}

sl_str sl_arena_vprintf(sl_arena *a, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char small[256];
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  if (n < 0)
    sl_panic("vsnprintf failed");
  char *p = sl_arena_alloc(a, (size_t)n + 1);
  if ((size_t)n < sizeof(small))
    memcpy(p, small, (size_t)n + 1);
  else
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return (sl_str){p, (size_t)n};
}

sl_str sl_arena_printf(sl_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_str s = sl_arena_vprintf(a, fmt, ap);
  va_end(ap);
  return s;
}

void sl_buf_init(sl_buf *b, sl_arena *arena) {
  b->p = NULL;
  b->len = b->cap = 0;
  b->arena = arena;
}

void sl_buf_free(sl_buf *b) {
  if (!b->arena)
    free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

void sl_buf_reserve(sl_buf *b, size_t extra) {
  if (b->cap - b->len >= extra)
    return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < extra) {
    if (cap > SIZE_MAX / 2)
      sl_panic("buffer overflow");
    cap *= 2;
  }
  if (b->arena) {
    b->p = sl_arena_realloc(b->arena, b->p, b->cap, cap);
  } else {
    char *p = realloc(b->p, cap);
    if (!p)
      sl_panic("out of memory (%zu bytes)", cap);
    b->p = p;
  }
  b->cap = cap;
}

void sl_buf_append(sl_buf *b, const void *p, size_t len) {
  if (len == 0)
    return;
  sl_buf_reserve(b, len);
  memcpy(b->p + b->len, p, len);
  b->len += len;
}

void sl_buf_printf(sl_buf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  char small[256];
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (n < 0)
    sl_panic("vsnprintf failed");
  if ((size_t)n < sizeof(small)) {
    sl_buf_append(b, small, (size_t)n);
  } else {
    sl_buf_reserve(b, (size_t)n + 1);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
}
