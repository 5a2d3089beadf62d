/* Capacity charges from key values; see charge.h. */
#include "cap/charge.h"
#include "base/base64.h"
#include "store/key.h"

sl_cap_charge sl_cap_charge_key(sl_arena *a, sl_cap_res *res, sl_cap_dir dir, const sl_av *pk,
                                const sl_av *sk, bool index, int64_t cost_mu) {
  sl_cap_charge c = {.res = res, .dir = (uint8_t)dir, .cost_mu = cost_mu, .pk = pk, .sk = sk};
  if (pk)
    c.hash = sl_key_hash(pk);
  if (sk) {
    sl_buf b;
    sl_buf_init(&b, a);
    sl_key_put_component(&b, sk, index ? SL_KEY_INDEX_SK_MAX : SL_KEY_SK_MAX);
    c.sort = sl_buf_str(&b);
  }
  return c;
}

/* One S value printing a tuple's values (charge.h). */
static const sl_av *tuple_text(sl_arena *a, const sl_key_tuple *t) {
  if (t->n == 1)
    return t->v[0];
  sl_buf b;
  sl_buf_init(&b, a);
  sl_buf_putc(&b, '[');
  for (uint32_t i = 0; i < t->n; i++) {
    if (i)
      sl_buf_puts(&b, SL_STR(", "));
    sl_buf_puts(&b, sl_cap_key_text(a, t->v[i]));
  }
  sl_buf_putc(&b, ']');
  sl_av *v = SL_NEW(a, sl_av);
  v->type = SL_AV_S;
  v->s = sl_buf_str(&b);
  return v;
}

sl_cap_charge sl_cap_charge_index(sl_arena *a, sl_cap_res *res, sl_cap_dir dir,
                                  const sl_keyvals *ik, int64_t cost_mu) {
  if (!ik || !ik->hash)
    return sl_cap_charge_key(a, res, dir, NULL, NULL, true, cost_mu);
  sl_key_tuple h, r;
  sl_keyvals_tuples(ik, &h, &r);
  if (h.n == 1 && r.n <= 1)
    return sl_cap_charge_key(a, res, dir, ik->hash, ik->range, true, cost_mu);
  sl_cap_charge c = {.res = res, .dir = (uint8_t)dir, .cost_mu = cost_mu};
  c.hash = sl_key_tuple_hash(&h);
  c.pk = tuple_text(a, &h);
  if (r.n) {
    sl_buf b;
    sl_buf_init(&b, a);
    sl_key_put_tuple(&b, &r, SL_KEY_INDEX_SK_MAX);
    c.sort = sl_buf_str(&b);
    c.sk = tuple_text(a, &r);
  }
  return c;
}

sl_str sl_cap_key_text(sl_arena *a, const sl_av *v) {
  if (v->type != SL_AV_B)
    return v->s;
  char *out = sl_arena_alloc(a, sl_base64_encoded_len(v->s.len) + 1);
  size_t n = sl_base64_encode(v->s.p, v->s.len, out);
  return sl_str_make(out, n);
}
