/* What the two transaction operations share; see txn.h. */
#include "ops/txn.h"
#include "base/bytes.h"
#include "base/log.h"

sl_str sl_transact_take_failure(sl_req *req, const sl_failure *saved) {
  sl_str message = req->fail.message;
  req->fail = *saved;
  return message;
}

sl_err sl_transact_check_key(sl_req *req, const sl_table *t, const sl_item *key, sl_keyvals *kv,
                             sl_str *soft) {
  *soft = SL_STR_NULL;
  uint32_t want = sl_key_has_range(&t->key) ? 2 : 1;
  if (key->n == want && sl_item_keyvals(key, &t->key, kv))
    return sl_req_check_key(req, t, key, kv);
  /* Live service: a Key of the wrong shape or types cancels the transaction
   * with this action's ValidationError (test_transact_write_items.py). */
  sl_failure saved = req->fail;
  sl_failure_init(&req->fail, req->arena);
  sl_req_check_key(req, t, key, kv);
  *soft = sl_transact_take_failure(req, &saved);
  return SL_OK;
}

sl_err sl_transact_check_item(sl_req *req, const sl_table *t, const sl_item *item, sl_keyvals *kv,
                              sl_str *soft) {
  *soft = SL_STR_NULL;
  if (sl_item_keyvals(item, &t->key, kv))
    return sl_req_check_item(req, t, item, kv);
  sl_failure saved = req->fail;
  sl_failure_init(&req->fail, req->arena);
  sl_req_check_item_keys(req, t, item, kv);
  *soft = sl_transact_take_failure(req, &saved);
  return SL_OK;
}

/* ---- cancellation ---- */

static const char *reason_code(const sl_transact_reason *r) { return r->code ? r->code : "None"; }

sl_err sl_transact_cancel(sl_req *req, const sl_transact_reason *r, size_t n) {
  sl_buf msg;
  sl_buf_init(&msg, req->arena);
  sl_buf_puts(&msg, SL_STR("Transaction cancelled, please refer cancellation reasons for specific "
                           "reasons ["));
  for (size_t i = 0; i < n; i++) {
    if (i)
      sl_buf_puts(&msg, SL_STR(", "));
    sl_buf_puts(&msg, sl_str_c(reason_code(&r[i])));
  }
  sl_buf_putc(&msg, ']');

  /* Copies: the items point into a transaction aborted before the error is
   * written. */
  sl_transact_reason *rs = SL_NEW_ARRAY(req->arena, sl_transact_reason, n + 1);
  for (size_t i = 0; i < n; i++) {
    rs[i] = r[i];
    if (r[i].item) {
      sl_item *copy = SL_NEW(req->arena, sl_item);
      *copy = sl_item_copy(req->arena, r[i].item);
      rs[i].item = copy;
    }
  }
  sl_transact_cancel_detail *d = SL_NEW(req->arena, sl_transact_cancel_detail);
  d->r = rs;
  d->n = n;
  sl_failure_init(&req->fail, req->arena);
  sl_fail(req, SL_E_TRANSACTION_CANCELED, "%.*s", SL_STR_FMT(sl_buf_str(&msg)));
  req->fail.detail_kind = SL_DETAIL_CANCEL;
  req->fail.detail = d;
  return SL_E_TRANSACTION_CANCELED;
}

/* ---- admission ---- */

bool sl_transact_admit(sl_req *req, const sl_transact_charges *a, size_t n, sl_transact_reason *r) {
  sl_cap *cap = req->env->cap;
  bool *throttled = SL_NEW_ARRAY(req->arena, bool, n ? n : 1);
  bool all = true;
  sl_cap_verdict v;
  /* A check only compares bucket levels with zero, so checking each action
   * on its own gives the same verdict as checking all charges together, and
   * tells which actions were throttled (the verdict's failed_mask only covers
   * 64 charges). */
  for (size_t i = 0; i < n; i++) {
    if (a[i].n && !sl_cap_check(cap, a[i].charges, a[i].n, &v)) {
      throttled[i] = true;
      all = false;
      sl_err code;
      const char *message;
      sl_throttle_exception(sl_cap_params_of(cap), &v, &code, &message);
      /* Provisioned throttles are ProvisionedThroughputExceeded; on-demand
       * ones (maximum, account quota, key range) ThrottlingError, each with
       * the message of its exception (facts §1.4). */
      r[i].code = code == SL_E_PROVISIONED_THROUGHPUT_EXCEEDED ? "ProvisionedThroughputExceeded"
                                                               : "ThrottlingError";
      r[i].message = sl_str_c(message);
      r[i].item = NULL;
    }
  }
  if (all) {
    /* One debit for the whole transaction: it is one request to every
     * bucket it touches (the spike rule of cap.c sees its total there). */
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
      total += a[i].n;
    sl_cap_charge *all_charges = SL_NEW_ARRAY(req->arena, sl_cap_charge, total ? total : 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < a[i].n; j++)
        all_charges[k++] = a[i].charges[j];
    sl_req_debit(req, all_charges, total);
    return true;
  }
  /* Record each throttled action as a throttle (heat, partition counters,
   * throttle events): sl_req_check does that and fails the request with the
   * plain throttle exception, which the cancellation replaces. The request
   * counts as throttled (ThrottledRequests: a request any of whose events was
   * throttled, facts §7). */
  req->metrics.throttled = true;
  for (size_t i = 0; i < n; i++) {
    if (!throttled[i])
      continue;
    sl_failure saved = req->fail;
    sl_failure_init(&req->fail, req->arena);
    sl_req_check(req, a[i].charges, a[i].n);
    req->fail = saved;
  }
  return false;
}

/* ---- consumed capacity ---- */

void sl_transact_tables_init(sl_req *req, sl_transact_tables *tt, uint32_t cap) {
  tt->c = SL_NEW_ARRAY(req->arena, sl_consumed, cap ? cap : 1);
  tt->t = SL_NEW_ARRAY(req->arena, sl_table *, cap ? cap : 1);
  tt->n = 0;
  tt->cap = cap;
}

uint32_t sl_transact_tables_slot(sl_transact_tables *tt, sl_table *t, sl_str given) {
  for (uint32_t i = 0; i < tt->n; i++)
    if (tt->t[i] == t)
      return i;
  SL_ASSERT(tt->n < tt->cap);
  tt->t[tt->n] = t;
  tt->c[tt->n].table_name = given;
  return tt->n++;
}

/* ---- ClientRequestToken ---- */

static const char token_prefix[] = "txn/token/";
static const char expiry_prefix[] = "txn/expiry/";

static sl_str token_key(sl_req *req, sl_str token) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  sl_buf_puts(&b, SL_STR(token_prefix));
  sl_buf_puts(&b, token);
  return sl_buf_str(&b);
}

static sl_str expiry_key(sl_req *req, uint64_t expiry_ms, sl_str token) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  uint8_t be[8];
  sl_be64(be, expiry_ms);
  sl_buf_puts(&b, SL_STR(expiry_prefix));
  sl_buf_append(&b, be, 8);
  sl_buf_puts(&b, token);
  return sl_buf_str(&b);
}

/* Drops up to 64 records whose window has passed, oldest first. */
static sl_err purge_expired(sl_req *req, sl_txn *txn) {
  enum { MAX_PURGE = 64 };
  sl_str keys[MAX_PURGE];
  size_t n = 0;
  sl_str prefix = SL_STR(expiry_prefix), k, v;
  sl_cursor *c = sl_store_cursor(txn, SL_DB_META);
  for (bool ok = sl_cursor_seek(c, prefix, &k, &v); ok && n < MAX_PURGE;
       ok = sl_cursor_next(c, &k, &v)) {
    if (!sl_str_starts_with(k, prefix) || k.len < prefix.len + 8)
      break;
    if ((int64_t)sl_rd64be((const uint8_t *)k.p + prefix.len) > req->now_ms)
      break;
    char *copy = sl_arena_alloc(req->arena, k.len);
    memcpy(copy, k.p, k.len);
    keys[n++] = sl_str_make(copy, k.len);
  }
  sl_cursor_close(c);
  for (size_t i = 0; i < n; i++) {
    sl_str token = sl_str_make(keys[i].p + prefix.len + 8, keys[i].len - prefix.len - 8);
    sl_err err = sl_store_del(txn, SL_DB_META, token_key(req, token), &req->fail);
    if (err == SL_OK)
      err = sl_store_del(txn, SL_DB_META, keys[i], &req->fail);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_transact_token_lookup(sl_req *req, sl_txn *txn, sl_str token, const uint8_t fp[16],
                                sl_transact_token_state *out) {
  *out = SL_TOKEN_NEW;
  sl_err err = purge_expired(req, txn);
  if (err != SL_OK)
    return err;
  sl_str val;
  if (!sl_store_get(txn, SL_DB_META, token_key(req, token), &val) || val.len != 24)
    return SL_OK;
  if ((int64_t)sl_rd64((const uint8_t *)val.p) <= req->now_ms)
    return SL_OK;
  if (memcmp(val.p + 8, fp, 16) != 0)
    /* DynamoDB Local sends an empty message; the live text is not on
     * record (test_transact_write_items.py). */
    return sl_fail(req, SL_E_IDEMPOTENT_PARAMETER_MISMATCH, "%s", "");
  *out = SL_TOKEN_REPLAY;
  return SL_OK;
}

sl_err sl_transact_token_record(sl_req *req, sl_txn *txn, sl_str token, const uint8_t fp[16]) {
  sl_str tk = token_key(req, token);
  sl_str val;
  sl_err err;
  if (sl_store_get(txn, SL_DB_META, tk, &val) && val.len == 24) {
    /* An expired record not purged yet: drop its place in expiry order. */
    uint64_t old = sl_rd64((const uint8_t *)val.p);
    if ((err = sl_store_del(txn, SL_DB_META, expiry_key(req, old, token), &req->fail)) != SL_OK)
      return err;
  }
  uint64_t expiry = (uint64_t)(req->now_ms + SL_TRANSACT_TOKEN_MS);
  uint8_t *rec = sl_arena_alloc(req->arena, 24);
  sl_le64(rec, expiry);
  memcpy(rec + 8, fp, 16);
  if ((err = sl_store_put(txn, SL_DB_META, tk, sl_str_make((const char *)rec, 24), &req->fail)) !=
      SL_OK)
    return err;
  return sl_store_put(txn, SL_DB_META, expiry_key(req, expiry, token), SL_STR(""), &req->fail);
}
