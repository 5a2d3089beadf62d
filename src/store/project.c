/* Index entries of items, pure; see project.h. */
#include "store/project.h"
#include "store/key.h"

#include <string.h>

bool sl_item_keyvals(const sl_item *it, const sl_key_schema *k, sl_keyvals *out) {
  memset(out, 0, sizeof(*out));
  uint32_t nh = sl_key_n_hash(k), nr = sl_key_n_range(k);
  for (uint32_t i = 0; i < nh + nr; i++) {
    sl_key_attr a = sl_key_part(k, i);
    const sl_av *v = sl_item_get(it, a.name);
    if (i == 0)
      out->hash = v;
    else if (i == nh)
      out->range = v;
    if (!v || v->type != a.type)
      return false;
    sl_key_tuple *t = i < nh ? &out->hashes : &out->ranges;
    t->v[t->n++] = v;
  }
  return true;
}

void sl_keyvals_tuples(const sl_keyvals *kv, sl_key_tuple *hashes, sl_key_tuple *ranges) {
  if (kv->hashes.n) {
    *hashes = kv->hashes;
    *ranges = kv->ranges;
    return;
  }
  *hashes = sl_key_tuple_of(kv->hash);
  *ranges = sl_key_tuple_of(kv->range);
  ranges->n = kv->range ? 1 : 0;
}

bool sl_keyvals_eq(const sl_keyvals *a, const sl_keyvals *b) {
  sl_key_tuple ah, ar, bh, br;
  sl_keyvals_tuples(a, &ah, &ar);
  sl_keyvals_tuples(b, &bh, &br);
  if (ah.n != bh.n || ar.n != br.n)
    return false;
  for (uint32_t i = 0; i < ah.n; i++)
    if (!sl_av_eq(ah.v[i], bh.v[i]))
      return false;
  for (uint32_t i = 0; i < ar.n; i++)
    if (!sl_av_eq(ar.v[i], br.v[i]))
      return false;
  return true;
}

bool sl_index_project(sl_arena *a, const sl_table *t, const sl_index *x, const sl_item *it,
                      sl_item *out) {
  sl_keyvals ik;
  if (!sl_item_keyvals(it, &x->key, &ik))
    return false;
  if (x->projection == SL_PROJ_ALL) {
    *out = *it;
    return true;
  }
  /* Keys of the table and of the index, plus INCLUDE attributes. */
  sl_str names[2 + 2 * SL_KEY_MAX_PARTS];
  uint32_t n = 0;
  names[n++] = t->key.hash;
  if (sl_key_has_range(&t->key))
    names[n++] = t->key.range;
  for (uint32_t i = 0; i < sl_key_n_hash(&x->key) + sl_key_n_range(&x->key); i++)
    names[n++] = sl_key_part(&x->key, i).name;
  sl_attr *attrs = SL_NEW_ARRAY(a, sl_attr, n + x->n_non_key);
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    const sl_av *v = sl_item_get(it, names[i]);
    if (v)
      attrs[k++] = (sl_attr){names[i], *v};
  }
  if (x->projection == SL_PROJ_INCLUDE) {
    for (uint32_t i = 0; i < x->n_non_key; i++) {
      const sl_av *v = sl_item_get(it, x->non_key[i]);
      if (v)
        attrs[k++] = (sl_attr){x->non_key[i], *v};
    }
  }
  out->attrs = attrs;
  out->n = sl__attrs_canonicalize(attrs, k);
  return true;
}

void sl_store_index_changes(sl_arena *a, const sl_table *t, const sl_item *old, const sl_item *item,
                            sl_index_change *out) {
  for (uint32_t i = 0; i < t->n_indexes; i++) {
    const sl_index *x = &t->indexes[i];
    sl_index_change *c = &out[i];
    memset(c, 0, sizeof(*c));
    sl_item oe, ne;
    c->had = old && sl_index_project(a, t, x, old, &oe);
    c->has = item && sl_index_project(a, t, x, item, &ne);
    if (c->had) {
      c->old_size = sl_item_size(&oe);
      sl_item_keyvals(old, &x->key, &c->old_key);
    }
    if (c->has) {
      c->new_size = sl_item_size(&ne);
      sl_item_keyvals(item, &x->key, &c->new_key);
    }
    if (c->had && c->has) {
      c->key_changed = !sl_keyvals_eq(&c->old_key, &c->new_key);
      if (!c->key_changed) {
        sl_av ov = {.type = SL_AV_M, .n = oe.n, .map = oe.attrs};
        sl_av nv = {.type = SL_AV_M, .n = ne.n, .map = ne.attrs};
        c->changed = !sl_av_eq(&ov, &nv);
      }
    }
  }
}
