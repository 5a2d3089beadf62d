/*
 * transact_get_items.h — TransactGetItems' core, typed (the JSON side and the
 * request checks are actions/transact_get_items.c; the shared transaction
 * rules are ops/txn.h).
 *
 * Every item is read in the request's snapshot (one read transaction:
 * serializable with every write). Cost (facts §2.2): a transactional read,
 * twice a strongly consistent read, rounded up to 4 KB per item; a missing
 * item costs the minimum, 2 units. The returned items may total at most 4 MB
 * (ValidationException with DynamoDB Local's text "Payload in response is
 * too large.N"; checked before admission, so it costs nothing). All charges
 * are admitted together; a throttle cancels the transaction with
 * ThrottlingError / ProvisionedThroughputExceeded for the throttled actions
 * and None for the others.
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_TRANSACT_GET_ITEMS_H
#define SL_OPS_TRANSACT_GET_ITEMS_H

#include "ops/reads.h"
#include "ops/txn.h"

typedef struct {
  const sl_json *obj; /* the Get's members (the action's parse step) */
  sl_item key;
  sl_read_exprs ex;
  sl_table *t;
  uint32_t slot; /* ConsumedCapacity entry */
  sl_keyvals kv;
  sl_str storage_key;
  sl_str invalid; /* the action's ValidationError, if any */
  /* the core; items valid until the request ends */
  sl_item item;
  bool found;
  sl_item projected;
  sl_cap_charge charge;
} sl_tg_action;

sl_err sl_transact_get_items(sl_req *req, sl_tg_action *acts, size_t n, sl_transact_tables *tt);

#endif
