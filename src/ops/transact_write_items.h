/*
 * transact_write_items.h — TransactWriteItems' core, typed (the JSON side,
 * with the request checks in the service's order, is
 * actions/transact_write_items.c; the shared transaction rules are
 * ops/txn.h).
 *
 * In one LMDB write transaction: the ClientRequestToken (a replay of a
 * recorded request is answered without executing it again: the items are
 * read and charged again, nothing is written; a different request with a
 * recorded token is IdempotentParameterMismatchException); every item is
 * read, every condition evaluated, every new item computed (an update that
 * cannot apply to the stored item is the action's ValidationError: the live
 * service's cancellation codes, facts §1.4); all charges priced and admitted
 * together; then either the transaction is cancelled with its
 * CancellationReasons, or every write is applied through the store's write
 * funnel and committed.
 *
 * Capacity (facts §2.2, ops/write.h):
 *  - success: each action costs a transactional write, twice the single
 *    write of its item (a ConditionCheck too: 2 units per KB of the checked
 *    item, billed as write, as the live service does), with its index writes;
 *  - cancelled for a condition or a ValidationError: each action that reached
 *    its item costs one write as a failed conditional write does — the
 *    prepare phase of the two ("one to prepare the transaction and one to
 *    commit", DG transaction-apis). This choice is sluice's: AWS publishes no
 *    figure for cancelled transactions;
 *  - all charges are admitted together (ops/txn.h); a throttle wins over a
 *    failed condition, as in PutItem, and cancels the transaction with
 *    ThrottlingError / ProvisionedThroughputExceeded for the throttled
 *    actions and None for the others, nothing written, nothing charged;
 *  - a replayed ClientRequestToken reads the items again: a transactional
 *    read of each (2 units per 4 KB), reported as ReadCapacityUnits (DG
 *    transaction-apis "Idempotency"; live observation of 4 write units, then
 *    2 read units, for a 1.5 KB item).
 *
 * Threads: the loop thread.
 */
#ifndef SL_OPS_TRANSACT_WRITE_ITEMS_H
#define SL_OPS_TRANSACT_WRITE_ITEMS_H

#include "ops/conds.h"
#include "ops/txn.h"
#include "ops/write.h"

typedef enum { SL_TW_CHECK = 0, SL_TW_PUT, SL_TW_DELETE, SL_TW_UPDATE } sl_tw_kind;

/* One action: what the request checks fill in, then what the core does. */
typedef struct {
  sl_tw_kind kind;
  const sl_json *obj; /* the action's members (the action's parse step) */
  sl_item item;       /* a Put's Item; the Key of the others */
  sl_write_exprs ex;
  sl_table *t;
  uint32_t slot; /* ConsumedCapacity entry */
  sl_keyvals kv;
  sl_str storage_key;
  sl_str invalid; /* the action's ValidationError, if any */
  /* The reason of a failed condition when it is not ConditionalCheckFailed:
   * a PartiQL INSERT's existing key is ValidationError "Duplicate primary key
   * exists in table" (DynamoDB Local). NULL: ConditionalCheckFailed. */
  const char *cond_code;
  sl_str cond_message;
  /* the core */
  bool read; /* the item was read */
  bool found;
  sl_item old;
  sl_item next;         /* an Update's new item */
  bool removes_nothing; /* an Update that only removes from an absent item: no write */
  bool cond_failed;
  sl_write_plan plan;
  sl_cap_charge read_charge; /* a replay's read */
} sl_tw_action;

typedef struct {
  sl_tw_action *acts;
  size_t n;
  sl_transact_tables *tt; /* ConsumedCapacity, filled by the core */
  bool has_token;         /* ClientRequestToken */
  sl_str token;
  uint8_t fingerprint[16]; /* of TransactItems (ops/txn.h) */
} sl_tw_in;

/* *replayed: the token's earlier request was answered again (nothing
 * written); the reply is then ConsumedCapacity alone. */
sl_err sl_transact_write_items(sl_req *req, sl_tw_in *in, bool *replayed);

#endif
