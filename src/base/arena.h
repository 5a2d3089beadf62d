/*
 * arena.h — the per-request memory arena, and a growable byte buffer.
 *
 * Design: every request gets one arena (as in h2o's memory pool). The JSON
 * tree, decoded items, expression trees, messages and the reply body are all
 * carved from it and released together by sl_arena_reset() when the reply has
 * been written. Nothing request-scoped is freed on its own. Allocation is a
 * pointer bump inside 64 KiB chunks; a request larger than a chunk gets a
 * dedicated chunk. After a reset the first chunk is kept, so a steady-state
 * request allocates nothing from malloc.
 *
 * Out of memory aborts the process (STYLE.md: OOM is not a client error).
 *
 * sl_buf is a growable byte buffer for output (JSON writer, HTTP replies,
 * encoded items). It is either heap-owned (arena == NULL; freed by
 * sl_buf_free) or arena-owned (grows by copying into the arena; never freed).
 *
 * Ownership: the owner of an arena calls sl_arena_destroy exactly once.
 * Threads: an arena belongs to one thread.
 */
#ifndef SL_BASE_ARENA_H
#define SL_BASE_ARENA_H

#include "base/str.h"
#include <stdarg.h>

typedef struct sl_arena_chunk sl_arena_chunk;

typedef struct {
  sl_arena_chunk *head; /* current chunk; older chunks follow its 'next' */
  char *cur;            /* next free byte in head */
  char *end;            /* end of head's usable space */
  size_t total;         /* bytes handed out since the last reset (for limits and stats) */
} sl_arena;

void sl_arena_init(sl_arena *a);
void sl_arena_reset(sl_arena *a);
void sl_arena_destroy(sl_arena *a);

/* Uninitialised memory, aligned to 16 bytes. Never returns NULL. */
void *sl_arena_alloc(sl_arena *a, size_t len);
/* Zeroed memory. */
void *sl_arena_calloc(sl_arena *a, size_t n, size_t size);
/* Grows the most recent allocation 'p' (of 'old_len' bytes) to 'new_len', in
 * place when possible, otherwise by copying. */
void *sl_arena_realloc(sl_arena *a, void *p, size_t old_len, size_t new_len);

/* A copy of 's' in the arena, NUL-terminated (the NUL is not counted in len). */
sl_str sl_arena_strdup(sl_arena *a, sl_str s);
/* printf into the arena; the result is NUL-terminated. */
sl_str sl_arena_printf(sl_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
sl_str sl_arena_vprintf(sl_arena *a, const char *fmt, va_list ap);

#define SL_NEW(a, type) ((type *)sl_arena_calloc((a), 1, sizeof(type)))
#define SL_NEW_ARRAY(a, type, n) ((type *)sl_arena_calloc((a), (n), sizeof(type)))

typedef struct {
  char *p;
  size_t len;
  size_t cap;
  sl_arena *arena; /* NULL: heap-owned */
} sl_buf;

void sl_buf_init(sl_buf *b, sl_arena *arena);
void sl_buf_free(sl_buf *b);
void sl_buf_reserve(sl_buf *b, size_t extra);
void sl_buf_append(sl_buf *b, const void *p, size_t len);
void sl_buf_printf(sl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void sl_buf_putc(sl_buf *b, char c) {
  if (b->len == b->cap)
    sl_buf_reserve(b, 1);
  b->p[b->len++] = c;
}

static inline void sl_buf_puts(sl_buf *b, sl_str s) { sl_buf_append(b, s.p, s.len); }

static inline sl_str sl_buf_str(const sl_buf *b) { return (sl_str){b->p, b->len}; }

#endif
