/*
 * partiql.h — DynamoDB's PartiQL: statements parsed into an AST, planned
 * onto the typed operation cores of ops/ (GetItem, Query, Scan, PutItem,
 * UpdateItem, DeleteItem, and the transaction actions), run, and printed.
 *
 * Design
 * ------
 * Four passes, each its own file, calling downwards only:
 *
 *   lex.c    the tokens of a statement: identifiers (case kept; keywords
 *            compared case-insensitively), "quoted identifiers" and 'strings'
 *            (a doubled quote escapes one), numbers, '?' parameters and
 *            punctuation, among them << and >> of bag (set) literals.
 *   parse.c  recursive descent into sl_pql_stmt: SELECT (projection paths or
 *            *, FROM "table" or "table"."index", WHERE, ORDER BY), INSERT INTO
 *            ... VALUE {...}, UPDATE ... SET/REMOVE ... WHERE, DELETE FROM ...
 *            WHERE, RETURNING, and EXISTS(SELECT ...) (transactions). Any
 *            syntax error is the service's one text, "Statement wasn't well
 *            formed, can't be processed: <statement>" (DynamoDB Local); a few
 *            errors the service names precisely keep their own text
 *            ("Unrecognized function: f", the RETURNING messages).
 *   plan.c   binds '?' parameters and literals to attribute values, looks the
 *            table (and index) up and chooses the core as the service does:
 *              - every key attribute of the table equal to a value, in the
 *                top-level ANDs of WHERE: GetItem (other conjuncts are
 *                evaluated on the item read: the cost is GetItem's);
 *              - the partition key of the table or the named index equal to a
 *                value: Query, with at most one sort-key condition (= < <= >
 *                >= BETWEEN begins_with) as the key condition, and every other
 *                conjunct as its filter;
 *              - "pk IN [a, b]" among the conjuncts, or a conjunct that is an OR
 *                whose every disjunct fixes the partition key: MULTI, one
 *                GetItem or Query per value or disjunct (each with the other
 *                conjuncts), run in order and paged together (DG
 *                ql-reference.select: neither is a full table scan);
 *              - anything else: Scan, with the whole WHERE as its filter —
 *                which reads, and pays for, the whole table.
 *            UPDATE and DELETE need an equality on every key attribute ("Where
 *            clause does not contain a mandatory equality on all key
 *            attributes"); the other conjuncts become the write's condition.
 *            UPDATE adds attribute_exists(<partition key>) (updating a missing
 *            item is ConditionalCheckFailedException), INSERT
 *            attribute_not_exists (an existing key is DuplicateItemException).
 *            WHERE and SET become expr/ trees (sl_expr_node), never JSON, so
 *            evaluation, projection and update application are expr/'s.
 *   exec.c   runs a plan through its core and gathers the items and consumed
 *            capacity: a plan is charged exactly what its core charges.
 *   explain.c  the cost preview: the same cores in preview mode (priced, not
 *            admitted), page after page, so the estimate is what running the
 *            statement costs, exactly; and the indexes that would make a
 *            Scan a Query.
 *   print.c  a readable plan: "Query t KeyCondition pk = {...} Filter (...)",
 *            and the AST in a normal form, for tests and the fuzz target.
 *
 * Memory: everything in the arena given (the request's); trees point into
 * the statement text and parameters, which must outlive them.
 * Threads: the loop thread (planning and running touch the catalog and the
 * capacity engine through the request); parsing alone is pure.
 */
#ifndef SL_PARTIQL_PARTIQL_H
#define SL_PARTIQL_PARTIQL_H

#include "cap/cap.h"
#include "expr/expr.h"
#include "ops/conds.h"
#include "ops/reads.h"
#include "ops/update_item.h"

/* Statements longer than the model's PartiQLStatement maximum never reach the
 * parser; nesting deeper than this is a malformed statement (bounds the
 * recursion on untrusted input). */
#define SL_PQL_MAX_DEPTH 64

typedef enum {
  SL_PQL_SELECT = 0,
  SL_PQL_INSERT,
  SL_PQL_UPDATE,
  SL_PQL_DELETE,
  SL_PQL_EXISTS, /* EXISTS(SELECT ...): a transaction's condition check */
} sl_pql_kind;

typedef enum {
  /* values */
  SL_PQL_N_PATH = 0,
  SL_PQL_N_LIT,   /* a scalar literal: value */
  SL_PQL_N_PARAM, /* '?': param is its index */
  SL_PQL_N_LIST,  /* [a, b]: args */
  SL_PQL_N_MAP,   /* {'k': v}: keys[i] -> args[i] */
  SL_PQL_N_BAG,   /* <<a, b>>: a set */
  /* conditions */
  SL_PQL_N_EQ,
  SL_PQL_N_NE,
  SL_PQL_N_LT,
  SL_PQL_N_LE,
  SL_PQL_N_GT,
  SL_PQL_N_GE,
  SL_PQL_N_BETWEEN, /* args[0] BETWEEN args[1] AND args[2] */
  SL_PQL_N_IN,      /* args[0] IN (args[1..]) */
  SL_PQL_N_AND,
  SL_PQL_N_OR,
  SL_PQL_N_NOT,
  SL_PQL_N_MISSING,     /* args[0] IS MISSING */
  SL_PQL_N_NOT_MISSING, /* args[0] IS NOT MISSING */
  SL_PQL_N_FUNC,        /* name(args) */
  /* update values */
  SL_PQL_N_PLUS,
  SL_PQL_N_MINUS,
} sl_pql_node_kind;

typedef struct sl_pql_node sl_pql_node;
struct sl_pql_node {
  uint8_t kind; /* sl_pql_node_kind */
  uint16_t n;   /* args */
  uint32_t param;
  sl_str name;       /* FUNC: as written */
  sl_expr_path path; /* PATH */
  sl_av value;       /* LIT */
  sl_pql_node **args;
  sl_str *keys; /* MAP */
};

typedef enum { SL_PQL_SET = 0, SL_PQL_REMOVE } sl_pql_assign_kind;

typedef struct {
  uint8_t kind; /* sl_pql_assign_kind */
  sl_expr_path path;
  sl_pql_node *value; /* SET only */
} sl_pql_assign;

typedef struct {
  sl_pql_kind kind;
  sl_str text;         /* the statement as sent */
  sl_str table, index; /* index empty: the table */
  /* SELECT */
  sl_expr_path *proj; /* NULL: '*' */
  uint32_t n_proj;
  sl_expr_path *order; /* ORDER BY paths; desc[i] */
  bool *desc;
  uint32_t n_order;
  /* INSERT */
  sl_pql_node *value;
  /* UPDATE */
  sl_pql_assign *assigns;
  uint32_t n_assigns;
  /* SELECT, UPDATE, DELETE */
  sl_pql_node *where; /* NULL: none */
  /* UPDATE, DELETE: RETURNING (ops/update_item.h's values; NONE: absent) */
  sl_return_values returning;
  uint32_t n_params; /* '?' in the statement */
} sl_pql_stmt;

/* Parses 'text'. Fails (ValidationException, recorded on 'f') with the
 * service's texts. */
sl_err sl_pql_parse(sl_arena *a, sl_failure *f, sl_str text, sl_pql_stmt **out);

/* ---- plans ---- */

typedef enum {
  SL_PQL_OP_GET = 0,
  SL_PQL_OP_QUERY,
  SL_PQL_OP_SCAN,
  SL_PQL_OP_PUT,
  SL_PQL_OP_UPDATE,
  SL_PQL_OP_DELETE,
  SL_PQL_OP_CHECK, /* EXISTS */
  SL_PQL_OP_MULTI, /* several GetItem / Query reads, one per partition key value */
} sl_pql_op;

/* Where a statement runs: ExecuteStatement, a BatchExecuteStatement entry
 * (single-item statements only) or an ExecuteTransaction entry. */
typedef enum { SL_PQL_IN_STATEMENT = 0, SL_PQL_IN_BATCH, SL_PQL_IN_TRANSACTION } sl_pql_where;

typedef struct sl_pql_plan_s {
  const sl_pql_stmt *st;
  sl_pql_op op;
  sl_table *t;
  const sl_index *x; /* NULL: the table */
  /* reads */
  sl_read_exprs rx;   /* projection, filter (Query/Scan) */
  sl_expr *residual;  /* GetItem: conjuncts evaluated on the item read */
  sl_expr_keycond kc; /* Query */
  bool forward;       /* Query: ORDER BY ... ASC (default) or DESC */
  /* single items */
  sl_item key; /* Get, Update, Delete, Check: the key; Put: the item */
  sl_keyvals kv;
  sl_write_exprs wx; /* condition (and update) of a write */
  sl_return_values rv;
  /* MULTI: "pk IN [a, b]" or "pk = a OR pk = b": one read per value, in
   * order (DG ql-reference.select: neither is a full table scan). */
  struct sl_pql_plan_s *subs;
  uint32_t n_subs;
} sl_pql_plan;

/* Binds 'params' (may be NULL when n is 0), resolves the table and plans the
 * statement. Errors in the service's order: the parameter count, the
 * values, the table (ResourceNotFoundException), the index, the key
 * equalities, the statement's own rules where it runs. */
sl_err sl_pql_plan_make(sl_req *req, const sl_pql_stmt *st, const sl_av *params, uint32_t n,
                        sl_pql_where where, sl_pql_plan *out);

/* ---- running ---- */

typedef struct {
  bool consistent;      /* ConsistentRead */
  int64_t limit;        /* Limit; 0: none */
  const sl_item *start; /* the page to continue after (NextToken), or NULL */
  bool all_old_on_fail; /* ReturnValuesOnConditionCheckFailure ALL_OLD */
  uint32_t start_sub;   /* MULTI: the read to continue at (NextToken) */
  bool preview;         /* priced, not admitted, nothing written (the cost preview) */
  uint32_t segment;     /* Scan: one segment of a parallel scan (the cost preview of */
  uint32_t total;       /* a Scan request); total 0: the whole table */
} sl_pql_opts;

typedef struct {
  sl_item *items; /* SELECT: the page; RETURNING: one item or none */
  size_t n;
  bool more;                     /* a Query or Scan page stopped early */
  sl_item last_key;              /* then: the table's and the index's keys of its last item
                                    (MULTI: none when the next read starts afresh) */
  uint32_t next_sub;             /* MULTI, when 'more': the read to continue at */
  int64_t scanned;               /* items read (evaluated) */
  uint64_t bytes;                /* their sizes, summed */
  sl_consumed consumed;          /* the units the core charged (table_name left empty) */
  bool cond_failed;              /* preview of a write: its condition would fail now */
  bool would_throttle;           /* preview of a write: it would be throttled now */
  uint64_t old_bytes, new_bytes; /* preview of a write: the item now and after */
} sl_pql_result;

/* Runs a plan of ExecuteStatement or a batch (not CHECK). Failures are the
 * core's (ConditionalCheckFailedException, throttles, ...); an INSERT of an
 * existing key is DuplicateItemException. */
sl_err sl_pql_execute(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_result *out);

/* ---- the cost preview ---- */

/* What running a SELECT plan to its end costs, found by reading exactly what
 * its core would read (ops/pages.h preview: priced, never admitted), page
 * after page: the sum of the ConsumedCapacity of every page a client would
 * fetch with these options. */
typedef struct {
  int64_t items;         /* items read (examined): ScannedCount summed */
  int64_t returned;      /* items the WHERE keeps: Count summed */
  uint64_t bytes;        /* the items read, their sizes summed */
  int64_t pages;         /* requests a client makes (1 for GetItem) */
  int64_t read_mu;       /* read units over all pages (milli), table and indexes */
  int64_t first_page_mu; /* the first request's */
  sl_cap_res *res;       /* the resource whose read capacity pays */
  int64_t limit_ups;     /* its read limit now: provisioned RCU, or on-demand what it serves */
  bool will_throttle;    /* the first request would be refused now */
} sl_pql_estimate;

/* Estimates a SELECT plan (GetItem, Query or Scan; not a write). */
sl_err sl_pql_explain(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o, sl_pql_estimate *out);

/* What an INSERT, UPDATE or DELETE costs if run now, found by running its
 * core in preview mode (ops/write.h): the item read, the condition
 * evaluated on it, the update applied, the write priced (the larger of the
 * old and new sizes, each index whose entry changes; a failed condition
 * still costs) and checked against the capacity engine; nothing is debited
 * or written. The condition is evaluated on the item the write reads, so it
 * consumes no read units; a PartiQL write is always one item. */
typedef struct {
  int64_t write_mu;       /* units charged (milli): the table's and every index's */
  int64_t table_write_mu; /* the table's part (LSIs included) */
  uint64_t old_bytes;     /* the item now (0: none) */
  uint64_t new_bytes;     /* the item after (0: deleted, or the write would fail) */
  bool cond_failed;       /* it would fail: ConditionalCheckFailedException, for an
                             INSERT DuplicateItemException (and still be charged) */
  sl_cap_res *res;        /* the table's resource (its write capacity pays) */
  int64_t limit_ups;      /* its write limit now */
  bool will_throttle;     /* the write would be refused now */
} sl_pql_write_estimate;

sl_err sl_pql_explain_write(sl_req *req, sl_pql_plan *p, const sl_pql_opts *o,
                            sl_pql_write_estimate *out);

/* A cheaper way to ask the same: the statement on an index whose partition
 * key the WHERE clause fixes, planned (a Query) and estimated. */
typedef struct {
  const sl_index *x;
  sl_pql_plan plan;
  sl_pql_estimate est;
} sl_pql_alternative;

/* For a statement planned as a Scan of its table: the indexes that turn it
 * into a Query, each estimated (eventually consistent on a GSI), cheapest
 * first. Returns how many were written to 'out' (at most 'cap'). Failures
 * of the attempts are not the request's. */
size_t sl_pql_alternatives(sl_req *req, const sl_pql_stmt *st, const sl_av *params, uint32_t n,
                           const sl_pql_opts *o, sl_pql_alternative *out, size_t cap);

/* ---- printing ---- */

/* "GetItem t Key {...}", "Query t.i KeyCondition ... Filter ...", "Scan t
 * Filter ...", "PutItem t Item {...} Condition ...", ... */
void sl_pql_print_plan(sl_buf *b, const sl_pql_plan *p);
/* The AST in a normal form (tests/unit/partiql/test_partiql.c, the fuzz
 * target): "SELECT a, b.c t WHERE (AND (= pk {\"S\":\"x\"}) (> n ?1))". */
void sl_pql_print_stmt(sl_buf *b, const sl_pql_stmt *st);
/* "GetItem", "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheck",
 * "Multi". A MULTI plan prints as its reads, separated by "; ". */
const char *sl_pql_op_name(sl_pql_op op);

#endif
