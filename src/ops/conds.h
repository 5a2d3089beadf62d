/*
 * conds.h — the compiled expressions of a single-item write (PutItem,
 * DeleteItem, UpdateItem; TransactWriteItems reuses them per action; read
 * from the request by actions/exprs.h): the condition, the update, and what
 * happens
 * when the condition fails: ConditionalCheckFailedException, with the old
 * item when ReturnValuesOnConditionCheckFailure is ALL_OLD (facts §1.4). A
 * failed condition still costs capacity (facts §2.2, ops/write.h).
 */
#ifndef SL_OPS_CONDS_H
#define SL_OPS_CONDS_H

#include "ops/req.h"
#include "expr/expr.h"

typedef struct sl_write_exprs {
  sl_expr_ctx cx;
  sl_expr *cond;          /* NULL: no condition */
  sl_expr_update *update; /* UpdateItem only; NULL: no update */
  bool all_old_on_fail;   /* ReturnValuesOnConditionCheckFailure ALL_OLD */
} sl_write_exprs;

/* Fails the request with ConditionalCheckFailedException ("The conditional
 * request failed"), carrying 'old' as "Item" when asked. */
sl_err sl_conds_failed(sl_req *req, const sl_write_exprs *w, const sl_item *old);

/* The key-only item an absent item starts from (UpdateItem's upsert). */
sl_item sl_conds_key_item(sl_req *req, const sl_table *t, const sl_keyvals *kv);
/* UpdateItem's apply: old (NULL: absent) -> *out, or the service's error
 * (type, path, number, 400 KB). *nothing: the update only removes from an
 * absent item, so nothing is written. */
sl_err sl_conds_apply_update(sl_req *req, sl_write_exprs *ex, const sl_table *t,
                             const sl_keyvals *kv, const sl_item *old, sl_item *out, bool *nothing);

#endif
