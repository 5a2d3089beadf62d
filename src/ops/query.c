/* Query's core; see query.h. Pinned by tests/conformance/test_query.py,
 * test_key_condition_expression.py and test_query_scan_capacity.py. */
#include "ops/query.h"
#include "store/key.h"

/* The smallest key greater than every key starting with 'p'. */
static void successor(sl_buf *b) {
  while (b->len > 0) {
    uint8_t last = (uint8_t)b->p[b->len - 1];
    if (last != 0xFF) {
      b->p[b->len - 1] = (char)(last + 1);
      return;
    }
    b->len--;
  }
}

/* Appends a sort-key bound: the value's component, or for begins_with the
 * escaped prefix without its terminator. */
static void put_bound(sl_buf *b, const sl_av *v, size_t budget, bool prefix) {
  size_t start = b->len;
  sl_key_put_component(b, v, budget);
  if (prefix && v->type != SL_AV_N && b->len - start >= 2 && b->len - start < budget)
    b->len -= 2; /* drop the 0x00 0x01 terminator */
}

static bool key_matches(const sl_expr_keycond *kc, const sl_key_schema *ks, const sl_item *it) {
  if (!kc->has_range)
    return true;
  const sl_av *v = sl_item_get(it, ks->range);
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

sl_err sl_query(sl_req *req, const sl_query_in *in, sl_page_result *out) {
  const sl_table *t = in->t;
  const sl_index *x = in->x;
  const sl_expr_keycond *kc = &in->kc;
  const sl_key_schema *ks = x ? &x->key : &t->key;
  sl_err err;

  /* The key range of the condition. */
  uint32_t id = x ? x->id : t->id;
  size_t pk_budget = x ? SL_KEY_INDEX_PK_MAX : SL_KEY_PK_MAX;
  size_t sk_budget = x ? SL_KEY_INDEX_SK_MAX : SL_KEY_SK_MAX;
  sl_buf prefix, lo, hi, start;
  sl_buf_init(&prefix, req->arena);
  sl_buf_init(&lo, req->arena);
  sl_buf_init(&hi, req->arena);
  sl_buf_init(&start, req->arena);
  sl_key_put_prefix(&prefix, id, sl_key_hash(kc->hash));
  sl_key_put_component(&prefix, kc->hash, pk_budget);
  sl_buf_puts(&lo, sl_buf_str(&prefix));
  sl_buf_puts(&hi, sl_buf_str(&prefix));
  bool bump_hi = true; /* hi is the successor of its bound, except for < */
  if (kc->has_range) {
    const sl_av *a = kc->range[0];
    switch ((sl_expr_key_op)kc->range_op) {
    case SL_EXPR_KEY_EQ:
      put_bound(&lo, a, sk_budget, false);
      put_bound(&hi, a, sk_budget, false);
      break;
    case SL_EXPR_KEY_LT:
      put_bound(&hi, a, sk_budget, false);
      bump_hi = false; /* [prefix, v) */
      break;
    case SL_EXPR_KEY_LE:
      put_bound(&hi, a, sk_budget, false);
      break;
    case SL_EXPR_KEY_GT:
      put_bound(&lo, a, sk_budget, false);
      successor(&lo);
      break;
    case SL_EXPR_KEY_GE:
      put_bound(&lo, a, sk_budget, false);
      break;
    case SL_EXPR_KEY_BETWEEN:
      put_bound(&lo, a, sk_budget, false);
      put_bound(&hi, kc->range[1], sk_budget, false);
      break;
    case SL_EXPR_KEY_BEGINS_WITH:
      put_bound(&lo, a, sk_budget, true);
      put_bound(&hi, a, sk_budget, true);
      break;
    }
  }
  if (bump_hi)
    successor(&hi);

  if (in->start) {
    if ((err = sl_page_start_key(req, t, x, in->start, &start)) != SL_OK)
      return err;
    if (!sl_str_starts_with(sl_buf_str(&start), sl_buf_str(&prefix)))
      return sl_fail(req, SL_E_VALIDATION,
                     "The provided starting key is outside query boundaries based on provided "
                     "conditions");
    if (!key_matches(kc, ks, in->start))
      return sl_fail(req, SL_E_VALIDATION,
                     "The provided starting key does not match the range key predicate");
  }

  query_filter qf = {kc, ks, (const sl_expr *)in->ex->filter, kc->has_range};
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
  o.preview = in->preview;
  sl_reads_page_opts((sl_read_exprs *)in->ex, &o);
  o.filter = filter_item;
  o.filter_ctx = &qf;

  sl_txn *txn;
  if ((err = sl_req_snapshot(req, &txn)) != SL_OK)
    return err;
  return sl_page_read(req, txn, &o, out);
}
