/*
 * json_tree.h — what the JSON unit tests and the JSON fuzz target share:
 * structural equality of two parsed trees, and the compact rendering of a
 * tree with the streaming writer (the round-trip both check).
 */
#ifndef SL_TEST_JSON_TREE_H
#define SL_TEST_JSON_TREE_H

#include "base/json.h"
#include "base/log.h"

static bool json_tree_eq(const sl_json *a, const sl_json *b) {
  if (a->type != b->type)
    return false;
  switch (a->type) {
  case SL_JSON_NULL:
  case SL_JSON_FALSE:
  case SL_JSON_TRUE:
    return true;
  case SL_JSON_NUMBER:
  case SL_JSON_STRING:
    return sl_str_eq(a->str, b->str);
  case SL_JSON_ARRAY:
    if (a->arr.n != b->arr.n)
      return false;
    for (size_t i = 0; i < a->arr.n; i++)
      if (!json_tree_eq(a->arr.items[i], b->arr.items[i]))
        return false;
    return true;
  case SL_JSON_OBJECT:
    if (a->obj.n != b->obj.n)
      return false;
    for (size_t i = 0; i < a->obj.n; i++)
      if (!sl_str_eq(a->obj.members[i].key, b->obj.members[i].key) ||
          !json_tree_eq(a->obj.members[i].value, b->obj.members[i].value))
        return false;
    return true;
  }
  return false;
}

/* The compact rendering of a tree, in arena a; the writer ends balanced. */
static sl_str json_tree_write(sl_arena *a, const sl_json *v) {
  sl_buf b;
  sl_buf_init(&b, a);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_value(&w, v);
  SL_ASSERT(w.depth == 0 && !w.after_key);
  return sl_buf_str(&b);
}

#endif
