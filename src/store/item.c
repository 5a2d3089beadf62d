/* Items in memory: sizes, lookup, equality and canonical builders; see item.h. */
#include "store/item.h"
#include "base/log.h"
#include "base/num.h"

#include <stdlib.h>

static const char *const type_names[] = {
    [SL_AV_NONE] = "",     [SL_AV_S] = "S",   [SL_AV_N] = "N",       [SL_AV_B] = "B",
    [SL_AV_BOOL] = "BOOL", [5] = "",          [SL_AV_NULL] = "NULL", [SL_AV_SS] = "SS",
    [SL_AV_NS] = "NS",     [SL_AV_BS] = "BS", [SL_AV_L] = "L",       [SL_AV_M] = "M",
};

const char *sl_av_type_name(sl_av_type t) {
  return (unsigned)t < SL_ARRAY_LEN(type_names) ? type_names[t] : "";
}

static size_t num_text_size(sl_str text) {
  sl_num n;
  if (sl_num_parse(text, &n) != SL_NUM_OK)
    return text.len; /* cannot happen for canonical values */
  return sl_num_size(&n);
}

size_t sl_av_size(const sl_av *v) {
  size_t sz = 0;
  switch ((sl_av_type)v->type) {
  case SL_AV_S:
  case SL_AV_B:
    return v->s.len;
  case SL_AV_N:
    return num_text_size(v->s);
  case SL_AV_BOOL:
  case SL_AV_NULL:
    return 1;
  case SL_AV_SS:
  case SL_AV_BS:
    for (uint32_t i = 0; i < v->n; i++)
      sz += v->set[i].len;
    return sz;
  case SL_AV_NS:
    for (uint32_t i = 0; i < v->n; i++)
      sz += num_text_size(v->set[i]);
    return sz;
  case SL_AV_L:
    sz = 3;
    for (uint32_t i = 0; i < v->n; i++)
      sz += sl_av_size(&v->list[i]) + 1;
    return sz;
  case SL_AV_M:
    sz = 3;
    for (uint32_t i = 0; i < v->n; i++)
      sz += v->map[i].name.len + sl_av_size(&v->map[i].v) + 1;
    return sz;
  case SL_AV_NONE:
    break;
  }
  return 0;
}

size_t sl_item_size(const sl_item *it) {
  size_t sz = 0;
  for (uint32_t i = 0; i < it->n; i++)
    sz += it->attrs[i].name.len + sl_av_size(&it->attrs[i].v);
  return sz;
}

static const sl_attr *attrs_find(const sl_attr *attrs, uint32_t n, sl_str name) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = sl_str_cmp(attrs[mid].name, name);
    if (c == 0)
      return &attrs[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

const sl_av *sl_item_get(const sl_item *it, sl_str name) {
  const sl_attr *a = attrs_find(it->attrs, it->n, name);
  return a ? &a->v : NULL;
}

const sl_av *sl_av_map_get(const sl_av *m, sl_str name) {
  if (m->type != SL_AV_M)
    return NULL;
  const sl_attr *a = attrs_find(m->map, m->n, name);
  return a ? &a->v : NULL;
}

int sl_av_cmp_scalar(const sl_av *a, const sl_av *b) {
  if (a->type == SL_AV_N && b->type == SL_AV_N) {
    sl_num x, y;
    if (sl_num_parse(a->s, &x) == SL_NUM_OK && sl_num_parse(b->s, &y) == SL_NUM_OK)
      return sl_num_cmp(&x, &y);
  }
  return sl_str_cmp(a->s, b->s);
}

bool sl_av_eq(const sl_av *a, const sl_av *b) {
  if (a->type != b->type)
    return false;
  switch ((sl_av_type)a->type) {
  case SL_AV_S:
  case SL_AV_N:
  case SL_AV_B:
    return sl_str_eq(a->s, b->s);
  case SL_AV_BOOL:
    return a->b == b->b;
  case SL_AV_NULL:
  case SL_AV_NONE:
    return true;
  case SL_AV_SS:
  case SL_AV_NS:
  case SL_AV_BS:
    if (a->n != b->n)
      return false;
    for (uint32_t i = 0; i < a->n; i++)
      if (!sl_str_eq(a->set[i], b->set[i]))
        return false;
    return true;
  case SL_AV_L:
    if (a->n != b->n)
      return false;
    for (uint32_t i = 0; i < a->n; i++)
      if (!sl_av_eq(&a->list[i], &b->list[i]))
        return false;
    return true;
  case SL_AV_M:
    if (a->n != b->n)
      return false;
    for (uint32_t i = 0; i < a->n; i++)
      if (!sl_str_eq(a->map[i].name, b->map[i].name) || !sl_av_eq(&a->map[i].v, &b->map[i].v))
        return false;
    return true;
  }
  return false;
}

sl_item sl_item_set(sl_arena *a, const sl_item *it, sl_str name, const sl_av *v) {
  sl_item out;
  out.attrs = SL_NEW_ARRAY(a, sl_attr, it->n + 1);
  uint32_t j = 0;
  bool placed = false;
  for (uint32_t i = 0; i < it->n; i++) {
    int c = sl_str_cmp(it->attrs[i].name, name);
    if (!placed && c >= 0) {
      out.attrs[j].name = name;
      out.attrs[j].v = *v;
      j++;
      placed = true;
      if (c == 0)
        continue;
    }
    out.attrs[j++] = it->attrs[i];
  }
  if (!placed) {
    out.attrs[j].name = name;
    out.attrs[j].v = *v;
    j++;
  }
  out.n = j;
  return out;
}

sl_item sl_item_remove(sl_arena *a, const sl_item *it, sl_str name) {
  sl_item out;
  out.attrs = SL_NEW_ARRAY(a, sl_attr, it->n ? it->n : 1);
  uint32_t j = 0;
  for (uint32_t i = 0; i < it->n; i++)
    if (!sl_str_eq(it->attrs[i].name, name))
      out.attrs[j++] = it->attrs[i];
  out.n = j;
  return out;
}

static sl_av av_copy(sl_arena *a, const sl_av *v) {
  sl_av c = *v;
  switch ((sl_av_type)v->type) {
  case SL_AV_S:
  case SL_AV_N:
  case SL_AV_B:
    c.s = sl_arena_strdup(a, v->s);
    break;
  case SL_AV_SS:
  case SL_AV_NS:
  case SL_AV_BS:
    c.set = SL_NEW_ARRAY(a, sl_str, v->n ? v->n : 1);
    for (uint32_t i = 0; i < v->n; i++)
      c.set[i] = sl_arena_strdup(a, v->set[i]);
    break;
  case SL_AV_L:
    c.list = SL_NEW_ARRAY(a, sl_av, v->n ? v->n : 1);
    for (uint32_t i = 0; i < v->n; i++)
      c.list[i] = av_copy(a, &v->list[i]);
    break;
  case SL_AV_M:
    c.map = SL_NEW_ARRAY(a, sl_attr, v->n ? v->n : 1);
    for (uint32_t i = 0; i < v->n; i++) {
      c.map[i].name = sl_arena_strdup(a, v->map[i].name);
      c.map[i].v = av_copy(a, &v->map[i].v);
    }
    break;
  default:
    break;
  }
  return c;
}

sl_item sl_item_copy(sl_arena *a, const sl_item *it) {
  sl_item c;
  c.n = it->n;
  c.attrs = SL_NEW_ARRAY(a, sl_attr, it->n ? it->n : 1);
  for (uint32_t i = 0; i < it->n; i++) {
    c.attrs[i].name = sl_arena_strdup(a, it->attrs[i].name);
    c.attrs[i].v = av_copy(a, &it->attrs[i].v);
  }
  return c;
}

/* Stable merge sort by name keeps document order among duplicates, so "last
 * wins" is simply "keep the last of each run". Insertion sort for small n. */
static void attrs_sort(sl_attr *v, uint32_t n, sl_attr *tmp) {
  if (n < 2)
    return;
  if (n <= 16) {
    for (uint32_t i = 1; i < n; i++) {
      sl_attr x = v[i];
      uint32_t j = i;
      while (j > 0 && sl_str_cmp(v[j - 1].name, x.name) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
    return;
  }
  uint32_t h = n / 2;
  attrs_sort(v, h, tmp);
  attrs_sort(v + h, n - h, tmp);
  uint32_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = sl_str_cmp(v[j].name, v[i].name) < 0 ? v[j++] : v[i++];
  while (i < h)
    tmp[k++] = v[i++];
  while (j < n)
    tmp[k++] = v[j++];
  memcpy(v, tmp, n * sizeof(*v));
}

static uint32_t attrs_canonicalize(sl_attr *v, uint32_t n) {
  if (n < 2)
    return n;
  sl_attr small[32];
  sl_attr *tmp = n <= 32 ? small : malloc(n * sizeof(*tmp));
  if (!tmp)
    sl_panic("out of memory");
  attrs_sort(v, n, tmp);
  if (tmp != small)
    free(tmp);
  uint32_t out = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (out > 0 && sl_str_eq(v[out - 1].name, v[i].name))
      v[out - 1] = v[i]; /* the later duplicate wins */
    else
      v[out++] = v[i];
  }
  return out;
}

void sl_item_canonicalize(sl_item *it) { it->n = attrs_canonicalize(it->attrs, it->n); }

uint32_t sl__attrs_canonicalize(sl_attr *v, uint32_t n) { return attrs_canonicalize(v, n); }
