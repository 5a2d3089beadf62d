/* Space-saving top-k; see topk.h. */
#include "metrics/topk.h"
#include "base/log.h"

#include <stdlib.h>

static uint32_t key_hash(sl_str k) {
  /* FNV-1a: keys are short and the sketch small; any spread will do. */
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < k.len; i++)
    h = (h ^ (uint8_t)k.p[i]) * 16777619u;
  return h;
}

void sl_topk_init(sl_topk *t, uint32_t cap) {
  memset(t, 0, sizeof(*t));
  t->cap = cap ? cap : 1;
}

void sl_topk_free(sl_topk *t) {
  for (uint32_t i = 0; i < t->n; i++)
    free(t->e[i].key);
  free(t->e);
  memset(t, 0, sizeof(*t));
}

static void set_key(sl_topk_entry *e, sl_str k, uint32_t h) {
  char *p = realloc(e->key, k.len ? k.len : 1);
  SL_ASSERT(p);
  if (k.len)
    memcpy(p, k.p, k.len);
  e->key = p;
  e->len = (uint32_t)k.len;
  e->hash = h;
}

void sl_topk_add(sl_topk *t, sl_str key, int64_t weight) {
  if (key.len > SL_TOPK_KEY_MAX)
    key.len = SL_TOPK_KEY_MAX;
  t->total += weight;
  uint32_t h = key_hash(key);
  for (uint32_t i = 0; i < t->n; i++) {
    sl_topk_entry *e = &t->e[i];
    if (e->hash == h && e->len == key.len && memcmp(e->key, key.p, key.len) == 0) {
      e->count += weight;
      return;
    }
  }
  if (t->n < t->cap) {
    if (!t->e) {
      t->e = calloc(t->cap, sizeof(sl_topk_entry));
      SL_ASSERT(t->e);
    }
    sl_topk_entry *e = &t->e[t->n++];
    memset(e, 0, sizeof(*e));
    set_key(e, key, h);
    e->count = weight;
    return;
  }
  /* Replace the smallest counter: the newcomer inherits its count. */
  uint32_t min = 0;
  for (uint32_t i = 1; i < t->n; i++)
    if (t->e[i].count < t->e[min].count)
      min = i;
  sl_topk_entry *e = &t->e[min];
  set_key(e, key, h);
  e->error = e->count;
  e->count += weight;
}

static int entry_cmp(const void *a, const void *b) {
  const sl_topk_entry *x = a, *y = b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return sl_str_cmp(sl_str_make(x->key, x->len), sl_str_make(y->key, y->len));
}

size_t sl_topk_top(const sl_topk *t, sl_topk_entry *out, size_t n) {
  if (t->n == 0 || n == 0)
    return 0;
  sl_topk_entry *all = malloc(t->n * sizeof(sl_topk_entry));
  SL_ASSERT(all);
  memcpy(all, t->e, t->n * sizeof(sl_topk_entry));
  qsort(all, t->n, sizeof(sl_topk_entry), entry_cmp);
  size_t k = t->n < n ? t->n : n;
  memcpy(out, all, k * sizeof(sl_topk_entry));
  free(all);
  return k;
}
