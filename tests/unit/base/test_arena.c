/* Unit tests of base/arena: allocation, growth, reset reuse, buffers. */
#include "harness.h"
#include "base/arena.h"

static void test_alloc_aligned_and_distinct(void) {
  sl_arena a;
  sl_arena_init(&a);
  char *p = sl_arena_alloc(&a, 3);
  char *q = sl_arena_alloc(&a, 5);
  CHECK(((uintptr_t)p & 15) == 0);
  CHECK(((uintptr_t)q & 15) == 0);
  CHECK(p != q);
  /* A block bigger than a chunk still works. */
  char *big = sl_arena_alloc(&a, 1 << 20);
  memset(big, 1, 1 << 20);
  char *after = sl_arena_alloc(&a, 8);
  CHECK(after != NULL);
  sl_arena_destroy(&a);
}

static void test_reset_keeps_first_chunk(void) {
  sl_arena a;
  sl_arena_init(&a);
  for (int i = 0; i < 1000; i++)
    sl_arena_alloc(&a, 1000);
  sl_arena_reset(&a);
  CHECK_INT(a.total, 0);
  char *p = sl_arena_alloc(&a, 10);
  CHECK(p != NULL);
  sl_arena_destroy(&a);
}

static void test_printf_and_strdup(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_str s = sl_arena_printf(&a, "%s-%d", "x", 42);
  CHECK_STR(s, "x-42");
  char longbuf[600];
  memset(longbuf, 'z', sizeof(longbuf) - 1);
  longbuf[sizeof(longbuf) - 1] = 0;
  sl_str l = sl_arena_printf(&a, "%s", longbuf);
  CHECK_INT(l.len, 599);
  sl_str d = sl_arena_strdup(&a, sl_str_make("a\0b", 3));
  CHECK_INT(d.len, 3);
  CHECK(d.p[1] == 0 && d.p[2] == 'b' && d.p[3] == 0);
  sl_arena_destroy(&a);
}

static void test_buf_arena_and_heap(void) {
  sl_arena a;
  sl_arena_init(&a);
  sl_buf b;
  sl_buf_init(&b, &a);
  for (int i = 0; i < 10000; i++)
    sl_buf_putc(&b, (char)('a' + i % 26));
  CHECK_INT(b.len, 10000);
  CHECK(b.p[27] == 'b');
  sl_buf h;
  sl_buf_init(&h, NULL);
  sl_buf_printf(&h, "%d%s", 7, "up");
  CHECK_MEM(h.p, h.len, "7up");
  sl_buf_free(&h);
  sl_arena_destroy(&a);
}

int main(void) {
  RUN(test_alloc_aligned_and_distinct);
  RUN(test_reset_keeps_first_chunk);
  RUN(test_printf_and_strdup);
  RUN(test_buf_arena_and_heap);
  return DONE();
}
