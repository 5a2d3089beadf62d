/*
 * txn.h — what TransactWriteItems and TransactGetItems share: reading an
 * action of TransactItems, per-action ("soft") validation errors, the
 * all-or-nothing admission of every action's charges, the
 * TransactionCanceledException with its CancellationReasons, the transactional
 * ConsumedCapacity list, and the ClientRequestToken record.
 *
 * Functions are named sl_transact_* because sl_txn is the storage layer's
 * transaction type (store/store.h).
 *
 * Design
 * ------
 * A transaction fails in one of two ways (facts §1.4, DynamoDB Local and live
 * observations recorded in the conformance tests):
 *  - ValidationException (or ResourceNotFoundException) for the request as a
 *    whole: shapes, values, expressions, tables, empty key values, an item
 *    over 400 KB, two actions on one item, the 4 MB aggregate;
 *  - TransactionCanceledException, whose CancellationReasons carry one entry
 *    per action in request order: "None" (no Message), ConditionalCheckFailed
 *    (with the old item when asked), ValidationError (a key that does not
 *    match the table's schema, or an update that cannot apply to the stored
 *    item), ThrottlingError (on-demand) or ProvisionedThroughputExceeded
 *    (provisioned), with the message of that throttle's exception.
 *
 * Admission is all or nothing (capacity-model.md §3): every action's charges
 * are checked (a check only looks at bucket levels, so each action can be
 * checked on its own and the transaction passes exactly when all do); if any
 * fails, the throttled actions are recorded as throttles and the transaction
 * is cancelled; otherwise every charge is debited at once.
 *
 * Idempotency records (ClientRequestToken) live in the store's "meta"
 * database, written in the same LMDB transaction as the items, so a committed
 * transaction and its token can never disagree and a durable server keeps
 * them across restarts. Byte layout (never renumber):
 *
 *   key "txn/token/<token>"                     value: expiry_ms   8 bytes LE
 *                                                      fingerprint 16 bytes
 *   key "txn/expiry/<expiry_ms 8 bytes BE><token>"  value: empty (expiry order)
 *
 * The fingerprint is XXH3-128 of the TransactItems member as sent (re-written
 * compactly from the parsed tree). Only successful transactions are
 * recorded: the service executes a retry of a failed one again.
 *
 * Memory: everything in the request arena. Threads: the loop thread.
 */
#ifndef SL_OPS_TXN_H
#define SL_OPS_TXN_H

#include "ops/req.h"

#define SL_TRANSACT_MAX_ACTIONS 100
#define SL_TRANSACT_MAX_BYTES (4 * 1024 * 1024)
/* How long a ClientRequestToken is remembered, on the capacity clock. */
#define SL_TRANSACT_TOKEN_MS (10 * 60 * 1000)

/* One entry of CancellationReasons. An empty code is "None". */
typedef struct {
  const char *code;    /* "ConditionalCheckFailed", ...; NULL: "None" */
  sl_str message;      /* ignored for "None" */
  const sl_item *item; /* ConditionalCheckFailed with ALL_OLD; NULL otherwise */
} sl_transact_reason;

/* The detail of a TransactionCanceledException (sl_failure's detail,
 * SL_DETAIL_CANCEL): one reason per action, in request order. */
typedef struct {
  const sl_transact_reason *r;
  size_t n;
} sl_transact_cancel_detail;

/* A call that failed on req->fail with a ValidationException meant for one
 * action: returns its message and puts back the failure 'saved' (taken before
 * the call). */
sl_str sl_transact_take_failure(sl_req *req, const sl_failure *saved);

/* The Key of an action against its table. A key whose attributes do not
 * match the schema is the action's ValidationError: *soft gets "The provided
 * key element does not match the schema" and SL_OK is returned; an empty or
 * oversized key value fails the request (a ValidationException). */
sl_err sl_transact_check_key(sl_req *req, const sl_table *t, const sl_item *key, sl_keyvals *kv,
                             sl_str *soft);
/* The same for a Put's Item (PutItem's messages: "Missing the key pk in the
 * item", "Type mismatch for key pk expected: S actual: N"). */
sl_err sl_transact_check_item(sl_req *req, const sl_table *t, const sl_item *item, sl_keyvals *kv,
                              sl_str *soft);

/* Fails the request with TransactionCanceledException: "Transaction
 * cancelled, please refer cancellation reasons for specific reasons [None,
 * ConditionalCheckFailed]" and the CancellationReasons. */
sl_err sl_transact_cancel(sl_req *req, const sl_transact_reason *r, size_t n);

/* One action's charges for all-or-nothing admission. */
typedef struct {
  const sl_cap_charge *charges;
  size_t n;
} sl_transact_charges;

/* Checks every action's charges. All pass: debits them all (consumed units
 * recorded) and returns true. Otherwise debits nothing, records the throttled
 * actions' throttles (engine and metrics), sets the throttled actions'
 * reasons in 'r' (ThrottlingError or ProvisionedThroughputExceeded; the
 * others are left as they are) and returns false. */
bool sl_transact_admit(sl_req *req, const sl_transact_charges *a, size_t n, sl_transact_reason *r);

/* ConsumedCapacity of a transaction, one entry per table in order of first
 * use. Transactional operations report the read/write split as well
 * (ReadCapacityUnits for reads, WriteCapacityUnits for writes, at the top and
 * in each INDEXES detail), unlike the single-item operations (AWS CLI
 * examples; live observations in test_transact_write_items.py). */
typedef struct {
  sl_consumed *c; /* arena array */
  sl_table **t;
  uint32_t n, cap;
} sl_transact_tables;

void sl_transact_tables_init(sl_req *req, sl_transact_tables *tt, uint32_t cap);
/* The slot of table 't' (created on first use, named 'given'). */
uint32_t sl_transact_tables_slot(sl_transact_tables *tt, sl_table *t, sl_str given);

/* ---- ClientRequestToken ---- */

typedef enum {
  SL_TOKEN_NEW = 0, /* not seen (or expired): execute and record */
  SL_TOKEN_REPLAY,  /* same request within the window: do not execute again */
} sl_transact_token_state;

/* Looks 'token' up in 'txn' (a write transaction), first dropping records
 * whose window has passed. A record with another fingerprint fails the
 * request with IdempotentParameterMismatchException. */
sl_err sl_transact_token_lookup(sl_req *req, sl_txn *txn, sl_str token, const uint8_t fp[16],
                                sl_transact_token_state *out);
/* Records 'token' for SL_TRANSACT_TOKEN_MS from now, in 'txn'. */
sl_err sl_transact_token_record(sl_req *req, sl_txn *txn, sl_str token, const uint8_t fp[16]);

#endif
