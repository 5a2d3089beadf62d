/*
 * req.h — one DynamoDB API request on its way through sluice: the context
 * the operation cores (ops/<operation>.h) run in, and the services they share
 * (table lookup, key and item checks, consumed capacity, admission).
 *
 * Design (DESIGN.md "A request's way through"): server/dispatch.c reads the
 * HTTP request, parses the JSON body into the request arena, validates it
 * against the service model (server/validate.h), and calls the operation's
 * sl_action_<op>(req) (actions/actions.def). The action reads the body into
 * the core's typed request (actions/members.h), calls the core — read, pure
 * apply, price, admit, commit — and writes the reply from the typed result
 * through req->w. 'body' and 'w' are the actions' alone: no core reads JSON
 * or writes it. On failure a core returns the code set with sl_fail() (with
 * a typed detail, sl_fail_detail, when the exception carries more than a
 * message); dispatch discards any partial output and writes the error (the
 * one function that writes every error). The request reaches the server's
 * state only through req->env (jobs/env.h).
 *
 * Memory: everything request-scoped lives in req->arena, reset after the
 * reply is written.
 * Threads: the loop thread.
 */
#ifndef SL_OPS_REQ_H
#define SL_OPS_REQ_H

#include "jobs/env.h"
#include "base/json.h"
#include "cap/cap.h"
#include "store/item.h"
#include "store/items.h"

/* What an operation is (actions/actions.def gives each its flags). */
enum { SL_OPF_CONTROL = 1, SL_OPF_READ = 2, SL_OPF_WRITE = 4 };

/* What a request leaves for metrics (ops/admit.c): units consumed per
 * resource and direction, summed over the request and recorded once at its
 * end (ConsumedCapacityUnits' SampleCount counts requests). */
#define SL_REQ_MAX_USED 8
typedef struct {
  int64_t start_us;       /* CLOCK_MONOTONIC at arrival (SuccessfulRequestLatency) */
  int64_t returned_items; /* ReturnedItemCount; < 0: not a reading operation */
  bool throttled;         /* a throttle ended the request in another exception
                             (TransactionCanceledException): ThrottledRequests */
  uint32_t n_used;
  struct {
    sl_cap_res *res;
    uint8_t dir; /* sl_cap_dir */
    int64_t mu;
  } used[SL_REQ_MAX_USED];
} sl_req_metrics;

typedef struct sl_req sl_req;
struct sl_req {
  sl_env *env;
  sl_arena *arena;
  sl_failure fail;
  const char *op_name; /* "PutItem": the Operation dimension of metrics (static) */
  const char *op_verb; /* PartiQL: the Verb ("PartiQLSelect") or OperationType ("Read") (static) */
  unsigned op_flags;   /* SL_OPF_* */
  const sl_json *body; /* the validated request object */
  sl_jw w;             /* the success body (written into the HTTP response) */
  int64_t now_ms;
  char request_id[56];
  sl_table *table;  /* the table the request is about, once resolved (metrics) */
  sl_txn *snapshot; /* the request's read transaction (sl_req_snapshot), or NULL */
  sl_str host;      /* the Host header as sent (DescribeEndpoints), may be empty */
  sl_req_metrics metrics;
};

/* What an exception carries beyond its message (sl_failure's detail; written
 * by actions/reply.h sl_reply_error_detail). */
typedef enum {
  SL_DETAIL_NONE = 0,
  SL_DETAIL_THROTTLE, /* const sl_cap_verdict *: ThrottlingReasons */
  SL_DETAIL_ITEM,     /* const sl_item *: the old Item (ReturnValuesOnConditionCheckFailure) */
  SL_DETAIL_CANCEL,   /* const sl_transact_cancel_detail *: CancellationReasons (ops/txn.h) */
} sl_fail_detail;

/* Records a failure on the request and returns its code (STYLE.md). */
#define sl_fail(req, code, ...) sl_failf(&(req)->fail, (code), __VA_ARGS__)

/* The request's read snapshot: one read transaction opened on first use and
 * ended by sl_req_end after the reply is written, so that items a core reads
 * (pointing into the map, store/store.h) stay valid while the action writes
 * them out. */
sl_err sl_req_snapshot(sl_req *req, sl_txn **out);
void sl_req_end(sl_req *req);

/* ---- tables ---- */

typedef enum {
  SL_LOOKUP_DATA,    /* data plane: "Requested resource not found" */
  SL_LOOKUP_CONTROL, /* control plane: "...: Table: X not found" */
} sl_lookup;

/* Resolves a table name or table ARN as given to an existing table (and
 * records it as the request's table). Data-plane lookups also fail for
 * tables that are not usable yet (CREATING) or any more (DELETING), as the
 * service does. */
sl_err sl_req_lookup(sl_req *req, sl_str given, sl_lookup how, sl_table **out);
/* Table name checks (length 3..255, [a-zA-Z0-9_.-]+) with the model's
 * messages; 'path' is the member path used in messages ("tableName"). */
sl_err sl_req_check_table_name(sl_req *req, sl_str name, const char *path);
/* "arn:aws:dynamodb:<region>:<account>:table/<name>" of this server. */
sl_str sl_req_table_arn(sl_req *req, sl_str name);
/* The table name inside an ARN of this server, or an empty slice. */
sl_str sl_req_arn_table_name(sl_req *req, sl_str arn);

/* ---- items and keys ---- */

/* Item and key members are read in two steps, as the service does: their
 * values are checked first (sl_item_from_json, before the table is even
 * looked up), then against the table's key schema. */
/* The "Key" map of a Get/Delete/Update: exactly the table's key attributes,
 * right types, non-empty, within size limits. */
sl_err sl_req_check_key(sl_req *req, const sl_table *t, const sl_item *key, sl_keyvals *kv);
/* A full item ("Item" of PutItem): key attributes present with the right
 * types and sizes, item size <= 400 KB. */
sl_err sl_req_check_item(sl_req *req, const sl_table *t, const sl_item *item, sl_keyvals *kv);
/* Index key attributes present in an item must have the index's types. */
sl_err sl_req_check_index_keys(sl_req *req, const sl_table *t, const sl_item *it);
/* The types only (an update's result: its empty values are
 * sl_req_check_updated_index_keys's). */
sl_err sl_req_check_index_key_types(sl_req *req, const sl_table *t, const sl_item *it);
/* An update may not set an index key attribute to an empty S or B value
 * (the service's update-expression text; a value the update did not change
 * is not checked). A ValidationException of the whole request, also in a
 * transaction. */
sl_err sl_req_check_updated_index_keys(sl_req *req, const sl_table *t, const sl_item *old,
                                       const sl_item *it);
/* Checks the key attributes of an item built by an update (same rules). */
sl_err sl_req_check_item_keys(sl_req *req, const sl_table *t, const sl_item *it, sl_keyvals *kv);

/* ---- consumed capacity ---- */

#define SL_MAX_CONSUMED_INDEXES 25

/* Units consumed by one request on one table, in milli-units. */
typedef struct {
  sl_str table_name; /* as the request named it (a name or an ARN) */
  int64_t table_read_mu, table_write_mu;
  struct {
    sl_str name;
    bool global;
    int64_t read_mu, write_mu;
  } idx[SL_MAX_CONSUMED_INDEXES];
  uint32_t n_idx;
} sl_consumed;

typedef enum { SL_RCC_NONE = 0, SL_RCC_TOTAL, SL_RCC_INDEXES } sl_rcc;

/* Adds units to an index's entry (created on first use). */
void sl_consumed_add_index(sl_consumed *c, sl_str name, bool global, int64_t read_mu,
                           int64_t write_mu);

/* ---- admission (ops/admit.c) ---- */

/* Admits the charges, or fails the request with the exception, message and
 * ThrottlingReasons the service sends (facts §1.2–1.4). */
sl_err sl_req_admit(sl_req *req, const sl_cap_charge *charges, size_t n);
/* Batch items: admits like sl_req_admit, but a throttle only records its
 * events in metrics and returns false with the verdict in 'out' (the item
 * comes back unprocessed). When every item was throttled, fail the request
 * with sl_req_fail_throttled, which records nothing more (the batch rule of
 * facts §7: N events, and one throttled request only if all were). */
bool sl_req_admit_item(sl_req *req, const sl_cap_charge *charges, size_t n, sl_cap_verdict *out);
sl_err sl_req_fail_throttled(sl_req *req, const sl_cap_verdict *v);
/* Query/Scan pages: checks the charges before reading (a throttle is
 * recorded in the engine and in metrics and fails the request, as
 * sl_req_admit does), and debits the page's actual cost after (consumed
 * units recorded). */
sl_err sl_req_check(sl_req *req, const sl_cap_charge *charges, size_t n);
void sl_req_debit(sl_req *req, const sl_cap_charge *charges, size_t n);

/* ---- metrics (ops/admit.c) ---- */

/* Dispatch calls begin on arrival and end once the outcome is known: end
 * records the consumed units, the outcome (ThrottledRequests, UserErrors,
 * SystemErrors, ConditionalCheckFailedRequests, TransactionConflict) and
 * the latency of a successful data-plane request. */
void sl_req_metrics_begin(sl_req *req);
void sl_req_metrics_end(sl_req *req);
/* ReturnedItemCount of a Query, Scan or batch read (items in the reply). */
void sl_req_record_returned(sl_req *req, int64_t n);
/* The exception and message of a throttled verdict (the first failing check
 * chooses them, spec §3). An AccountLimit throttle is RequestLimitExceeded, or
 * ThrottlingException with the account_limit_exception parameter (cap/params.def). */
void sl_throttle_exception(const sl_cap_params *p, const sl_cap_verdict *v, sl_err *code,
                           const char **message);

#endif
