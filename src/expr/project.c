/*
 * Applying a projection to an item (see expr.h). The paths of one projection
 * never overlap or conflict (the resolver checked), so one walk down the
 * paths, grouped by their next element, builds the result: maps keep the
 * selected keys, lists the selected elements in index order ("l[3], l[1]"
 * gives [l1, l3]), and a container from which nothing is selected disappears
 * ("l[9]" on a 4-element list gives no attribute l at all).
 */
#include "expr/expr_int.h"

static bool project_value(sl_arena *a, const sl_av *v, const sl_expr_path **ps, uint32_t n,
                          uint32_t depth, sl_av *out);

/* Selects from an attribute array (an item's or a map's) the names at
 * 'depth' of the paths 'ps'; returns the number of attributes written. */
static uint32_t project_names(sl_arena *a, const sl_item *src, const sl_expr_path **ps, uint32_t n,
                              uint32_t depth, sl_attr *out) {
  bool small_done[16];
  bool *done = n <= 16 ? small_done : SL_NEW_ARRAY(a, bool, n);
  memset(done, 0, n * sizeof(bool));
  const sl_expr_path *small_group[16];
  const sl_expr_path **group = n <= 16 ? small_group : SL_NEW_ARRAY(a, const sl_expr_path *, n);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (done[i])
      continue;
    sl_str name = ps[i]->e[depth].name;
    uint32_t g = 0;
    for (uint32_t j = i; j < n; j++) {
      if (!done[j] && sl_str_eq(ps[j]->e[depth].name, name)) {
        done[j] = true;
        group[g++] = ps[j];
      }
    }
    const sl_av *v = sl_item_get(src, name);
    if (!v)
      continue;
    if (g == 1 && group[0]->n == depth + 1) {
      out[k].name = name;
      out[k++].v = *v;
      continue;
    }
    sl_av nv;
    if (project_value(a, v, group, g, depth + 1, &nv)) {
      out[k].name = name;
      out[k++].v = nv;
    }
  }
  return k;
}

static bool project_value(sl_arena *a, const sl_av *v, const sl_expr_path **ps, uint32_t n,
                          uint32_t depth, sl_av *out) {
  if (ps[0]->e[depth].kind == SL_EXPR_ELEM_NAME) {
    if (v->type != SL_AV_M)
      return false;
    sl_attr *attrs = SL_NEW_ARRAY(a, sl_attr, n);
    sl_item m = {.attrs = v->map, .n = v->n};
    uint32_t k = project_names(a, &m, ps, n, depth, attrs);
    if (k == 0)
      return false;
    k = sl__attrs_canonicalize(attrs, k);
    *out = (sl_av){.type = SL_AV_M, .n = k};
    out->map = attrs;
    return true;
  }
  if (v->type != SL_AV_L)
    return false;
  /* Distinct indexes in ascending order, each with its group of paths. */
  sl_av *elems = SL_NEW_ARRAY(a, sl_av, n);
  const sl_expr_path **group = SL_NEW_ARRAY(a, const sl_expr_path *, n);
  uint32_t k = 0;
  int64_t last = -1;
  for (;;) {
    int64_t idx = INT64_MAX;
    for (uint32_t i = 0; i < n; i++)
      if ((int64_t)ps[i]->e[depth].index > last && (int64_t)ps[i]->e[depth].index < idx)
        idx = ps[i]->e[depth].index;
    if (idx == INT64_MAX || idx >= v->n)
      break;
    last = idx;
    uint32_t g = 0;
    for (uint32_t i = 0; i < n; i++)
      if ((int64_t)ps[i]->e[depth].index == idx)
        group[g++] = ps[i];
    if (g == 1 && group[0]->n == depth + 1)
      elems[k++] = v->list[idx];
    else if (project_value(a, &v->list[idx], group, g, depth + 1, &elems[k]))
      k++;
  }
  if (k == 0)
    return false;
  *out = (sl_av){.type = SL_AV_L, .n = k};
  out->list = elems;
  return true;
}

sl_item sl_expr_project(sl_arena *a, const sl_expr_proj *proj, const sl_item *item) {
  if (!proj)
    return *item;
  sl_item out = {0};
  if (!item || proj->n == 0)
    return out;
  const sl_expr_path *small[16];
  const sl_expr_path **ps = proj->n <= 16 ? small : SL_NEW_ARRAY(a, const sl_expr_path *, proj->n);
  for (uint32_t i = 0; i < proj->n; i++)
    ps[i] = &proj->paths[i];
  out.attrs = SL_NEW_ARRAY(a, sl_attr, proj->n);
  out.n = project_names(a, item, ps, proj->n, 0, out.attrs);
  sl_item_canonicalize(&out);
  return out;
}
