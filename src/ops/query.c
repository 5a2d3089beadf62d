/* Query's core; see query.h. Pinned by tests/conformance/test_query.py,
 * test_key_condition_expression.py and test_query_scan_capacity.py. */
#include "ops/query.h"
#include "store/key.h"

/* Appends a sort-key bound: the value's component, or for begins_with the
 * escaped prefix without its terminator. */
static void put_bound(sl_buf *b, const sl_av *v, size_t budget, bool prefix) {
  size_t start = b->len;
  sl_key_put_component(b, v, budget);
  if (prefix && v->type != SL_AV_N && b->len - start >= 2 && b->len - start < budget)
    b->len -= 2; /* drop the 0x00 0x01 terminator */
}

/* The attribute and value of the key condition's sort-key comparison. */
static sl_str range_attr(const sl_expr_keycond *kc, const sl_key_schema *ks) {
  return kc->n_hash ? sl_key_part(ks, sl_key_n_hash(ks) + kc->n_sort_eq).name : ks->range;
}

/* Multi-attribute keys: every equality of the condition holds for 'it'. */
static bool tuple_eqs_match(const sl_expr_keycond *kc, const sl_key_schema *ks, const sl_item *it) {
  for (uint32_t i = 0; i < (uint32_t)kc->n_hash + kc->n_sort_eq; i++) {
    const sl_av *want = i < kc->n_hash ? kc->hashes[i] : kc->sort_eq[i - kc->n_hash];
    const sl_av *v = sl_item_get(it, sl_key_part(ks, i).name);
    if (!v || !sl_av_eq(v, want))
      return false;
  }
  return true;
}

static bool key_matches(const sl_expr_keycond *kc, const sl_key_schema *ks, const sl_item *it) {
  if (kc->n_hash && !tuple_eqs_match(kc, ks, it))
    return false;
  if (!kc->has_range)
    return true;
  const sl_av *v = sl_item_get(it, range_attr(kc, ks));
  if (!v)
    return false;
  int c = sl_av_cmp_scalar(v, kc->range[0]);
  switch ((sl_expr_key_op)kc->range_op) {
  case SL_EXPR_KEY_EQ:
    return c == 0;
  case SL_EXPR_KEY_LT:
    return c < 0;
  case SL_EXPR_KEY_LE:
    return c <= 0;
  case SL_EXPR_KEY_GT:
    return c > 0;
  case SL_EXPR_KEY_GE:
    return c >= 0;
  case SL_EXPR_KEY_BETWEEN:
    return c >= 0 && sl_av_cmp_scalar(v, kc->range[1]) <= 0;
  case SL_EXPR_KEY_BEGINS_WITH:
    return sl_str_starts_with(v->s, kc->range[0]->s);
  }
  return false;
}

typedef struct {
  const sl_expr_keycond *kc;
  const sl_key_schema *ks;
  const sl_expr *filter;
  bool check_key;
} query_filter;

static sl_err filter_item(sl_req *req, void *ctx, const sl_item *it, bool *keep) {
  const query_filter *q = ctx;
  (void)req;
  *keep = (!q->check_key || key_matches(q->kc, q->ks, it)) && sl_expr_eval(q->filter, it);
  return SL_OK;
}

/* Ends the sort-key part of a bound (the bytes from 'start'): a part longer
 * than what a cut sort key keeps exactly (budget - digest, store/key.h) is
 * cut back to that prefix, and a high bound becomes the prefix's successor,
 * so the range covers every item the bound could be among (the items read
 * are re-checked against the condition, and runs of cut keys are put in
 * order by ops/pages.h). Returns whether it cut. */
static bool bound_end(sl_buf *b, size_t start, size_t budget, bool high) {
  size_t exact = budget - SL_KEY_DIGEST;
  if (b->len - start <= exact)
    return false;
  b->len = start + exact;
  if (high)
    sl_key_successor(b);
  return true;
}

/* Appends the sort-key condition's bounds to 'lo' and 'hi' (both holding the
 * partition prefix, plus for a multi-attribute key the equalities' components,
 * from 'start' on) and ends them: [lo, hi). */
static void put_range(const sl_expr_keycond *kc, sl_buf *lo, sl_buf *hi, size_t start,
                      size_t budget) {
  bool bump_hi = true; /* hi is the successor of its bound, except for < */
  if (kc->has_range) {
    const sl_av *v = kc->range[0];
    switch ((sl_expr_key_op)kc->range_op) {
    case SL_EXPR_KEY_EQ:
      put_bound(lo, v, SIZE_MAX, false);
      put_bound(hi, v, SIZE_MAX, false);
      break;
    case SL_EXPR_KEY_LT:
      put_bound(hi, v, SIZE_MAX, false);
      bump_hi = false; /* [prefix, v) */
      break;
    case SL_EXPR_KEY_LE:
      put_bound(hi, v, SIZE_MAX, false);
      break;
    case SL_EXPR_KEY_GT:
      put_bound(lo, v, SIZE_MAX, false);
      sl_key_successor(lo);
      break;
    case SL_EXPR_KEY_GE:
      put_bound(lo, v, SIZE_MAX, false);
      break;
    case SL_EXPR_KEY_BETWEEN:
      put_bound(lo, v, SIZE_MAX, false);
      put_bound(hi, kc->range[1], SIZE_MAX, false);
      break;
    case SL_EXPR_KEY_BEGINS_WITH:
      put_bound(lo, v, SIZE_MAX, true);
      put_bound(hi, v, SIZE_MAX, true);
      break;
    }
  }
  bound_end(lo, start, budget, false);
  if (!bound_end(hi, start, budget, true) && bump_hi)
    sl_key_successor(hi);
}

/* The partition prefix of a condition (store/key.h): for a multi-attribute
 * key the partition tuple's field. */
static void put_partition(const sl_table *t, const sl_index *x, const sl_expr_keycond *kc,
                          sl_buf *prefix) {
  if (!kc->n_hash) {
    sl_key_put_prefix(prefix, x ? x->id : t->id, sl_key_hash(kc->hash));
    sl_key_put_component(prefix, kc->hash, x ? SL_KEY_INDEX_PK_MAX : SL_KEY_PK_MAX);
    return;
  }
  sl_key_tuple h = {{0}, kc->n_hash};
  for (uint32_t i = 0; i < kc->n_hash; i++)
    h.v[i] = kc->hashes[i];
  sl_key_put_prefix(prefix, x->id, sl_key_tuple_hash(&h));
  sl_key_put_tuple(prefix, &h, SL_KEY_INDEX_PK_MAX);
}

sl_err sl_query(sl_req *req, const sl_query_in *in, sl_page_result *out) {
  const sl_table *t = in->t;
  const sl_index *x = in->x;
  const sl_expr_keycond *kc = &in->kc;
  const sl_key_schema *ks = x ? &x->key : &t->key;
  sl_err err;

  /* The key range of the condition. */
  size_t sk_budget = x ? SL_KEY_INDEX_SK_MAX : SL_KEY_SK_MAX;
  sl_buf prefix, lo, hi, start;
  sl_buf_init(&prefix, req->arena);
  sl_buf_init(&lo, req->arena);
  sl_buf_init(&hi, req->arena);
  sl_buf_init(&start, req->arena);
  put_partition(t, x, kc, &prefix);
  sl_buf_puts(&lo, sl_buf_str(&prefix));
  sl_buf_puts(&hi, sl_buf_str(&prefix));
  /* A multi-attribute key's equalities on leading sort-key attributes, uncut
   * (bound_end cuts the whole sort part). */
  sl_key_tuple eq = {{0}, kc->n_sort_eq};
  for (uint32_t i = 0; i < kc->n_sort_eq; i++)
    eq.v[i] = kc->sort_eq[i];
  sl_key_put_tuple(&lo, &eq, SIZE_MAX);
  sl_key_put_tuple(&hi, &eq, SIZE_MAX);
  put_range(kc, &lo, &hi, prefix.len, sk_budget);

  if (in->start) {
    if ((err = sl_page_start_key(req, t, x, in->start, &start)) != SL_OK)
      return err;
    /* A multi-attribute key's start key is checked against the whole
     * condition (DynamoDB Local 3.3 answers a start key of another partition
     * with the predicate's text). */
    if (!kc->n_hash && !sl_str_starts_with(sl_buf_str(&start), sl_buf_str(&prefix)))
      return sl_fail(req, SL_E_VALIDATION,
                     "The provided starting key is outside query boundaries based on provided "
                     "conditions");
    if (!key_matches(kc, ks, in->start))
      return sl_fail(req, SL_E_VALIDATION,
                     "The provided starting key does not match the range key predicate");
  }

  query_filter qf = {kc, ks, (const sl_expr *)in->ex->filter, kc->has_range || kc->n_hash};
  sl_page_opts o;
  memset(&o, 0, sizeof(o));
  o.t = in->t;
  o.x = x;
  o.consistent = in->consistent;
  o.forward = in->forward;
  o.limit = in->limit;
  o.lo = sl_buf_str(&lo);
  o.hi = sl_buf_str(&hi);
  o.exclusive_start = sl_buf_str(&start);
  o.is_query = true;
  if (sl_key_n_range(ks)) {
    o.run_at = prefix.len + sk_budget - SL_KEY_DIGEST;
    o.run_ks = ks;
    o.start_item = in->start;
  }
  o.preview = in->preview;
  sl_reads_page_opts((sl_read_exprs *)in->ex, &o);
  o.filter = filter_item;
  o.filter_ctx = &qf;

  sl_txn *txn;
  if ((err = sl_req_snapshot(req, &txn)) != SL_OK)
    return err;
  return sl_page_read(req, txn, &o, out);
}
