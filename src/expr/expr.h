/*
 * expr.h — DynamoDB's expression language: condition and filter expressions,
 * key conditions, update expressions and projections, with their
 * ExpressionAttributeNames / ExpressionAttributeValues, and the legacy
 * parameters (Expected, AttributeUpdates, KeyConditions, QueryFilter,
 * ScanFilter, AttributesToGet) translated into the same trees.
 *
 * Design
 * ------
 * Three passes, as in Alternator's expressions.cc / conditions.cc (STYLE.md):
 *
 *   1. parse    — a hand-written lexer and recursive-descent parser turn the
 *                 text into an arena tree (sl_expr_node). Syntax errors name
 *                 the offending token and its neighbourhood the way the
 *                 service does. Checks the service makes while parsing
 *                 (redundant parentheses, "SET" twice, list index range,
 *                 path depth, operator and IN counts, expression size) are
 *                 made here.
 *   2. resolve  — reserved words used as names, then "#name" and ":value"
 *                 references are replaced by the request's names and decoded
 *                 values (marking them used), then the checks that need
 *                 resolved operands: function names and arity, document-path
 *                 operands, operand types of constants, BETWEEN bounds,
 *                 overlapping / conflicting paths.
 *   3. evaluate — pure functions over an item: sl_expr_eval (conditions and
 *                 filters), sl_expr_update_apply, sl_expr_project, and the
 *                 structured sl_expr_keycond for Query.
 *
 * sl_expr_parse_* runs passes 1 and 2 for one expression. One sl_expr_ctx
 * holds the names and values of a whole request, so that "unused" checks
 * span all of its expressions.
 *
 * Call sequence (the order of checks is the service's; each call returns
 * sl_err and records the message on the request's sl_failure):
 *
 *   sl_expr_check_params(f, body, SL_EXPR_OP_UPDATE_ITEM)   mixing legacy and
 *                                      expression parameters, names/values
 *                                      given without any expression
 *   sl_expr_ctx_init(&cx, arena, f, EAN json, EAV json)     values decoded and
 *                                      validated, names validated
 *   UpdateItem:   sl_expr_parse_update(&cx, text, &u)
 *                 sl_expr_parse_condition(&cx, SL_EXPR_CONDITION, text, &c)
 *   PutItem / DeleteItem / TransactWrite items: sl_expr_parse_condition
 *   GetItem / BatchGetItem / TransactGet: sl_expr_parse_projection
 *   Query:        sl_expr_parse_condition(&cx, SL_EXPR_FILTER, ...),
 *                 sl_expr_parse_projection, sl_expr_parse_key_condition
 *                 (that order is DynamoDB Local's), then
 *                 sl_expr_filter_check_keys(filter, key schema)
 *   Scan:         sl_expr_parse_condition(SL_EXPR_FILTER), sl_expr_parse_projection
 *   sl_expr_ctx_finish(&cx)                                 unused names/values
 *   UpdateItem:   sl_expr_update_check_keys(&cx, u, key schema) ("Cannot update
 *                                      attribute pk..." comes after "unused")
 *   ... read the old item ...
 *   sl_expr_eval(c, old)                         -> false: ConditionalCheckFailed
 *   sl_expr_update_apply(&cx, u, old, &new)      -> the new item, or the
 *                                      service's error (type, path, number)
 *   ReturnValues UPDATED_OLD / UPDATED_NEW: sl_expr_project(a, &u->paths, old/new)
 *                                      — the service returns exactly the
 *                                      updated paths, nested (Alternator's
 *                                      test_update_item_returnvalues_nested)
 *   Query/Scan/Get: sl_expr_project(a, proj, item) per returned item;
 *                   sl_expr_eval(filter, item) per item read.
 *
 * Legacy parameters (sl_expr_legacy_*) build the same trees and are then used
 * through the same calls; an absent parameter gives a NULL tree, and
 * sl_expr_eval(NULL, item) is true, sl_expr_project(a, NULL, item) is the item.
 * Two differences of the legacy forms are kept in the trees: a legacy
 * filter's key check says "QueryFilter can only contain ..." (the context
 * remembers the parameter), and an AttributeUpdates entry's own errors
 * ("Only DELETE action is allowed ...") surface from sl_expr_update_apply in
 * entry order, interleaved with "Type mismatch for attribute to update", as
 * the service reports them. sl_expr_legacy_key_conditions with no
 * KeyConditions reports "Either the KeyConditions or KeyConditionExpression
 * parameter must be specified in the request.".
 *
 * Evaluation semantics (pinned by tests/unit/expr/test_expr.c, observed on
 * DynamoDB Local and Alternator's tests):
 *  - a path that does not resolve (missing attribute, index past the end,
 *    wrong container type) is "undefined"; every comparison and function with
 *    an undefined operand is false, except <>, which is true;
 *  - < <= > >= BETWEEN compare only S, N and B of the same type; other
 *    stored types make them false, a constant of another type is an error;
 *  - size() counts UTF-16 code units of an S (DynamoDB Local: "héllo" is 5),
 *    bytes of a B, members of sets, lists and maps; other types: undefined.
 *
 * Known differences from the service (DynamoDB Local) that remain, all in
 * error texts of requests with several errors at once:
 *  - overlapping paths: with more than two paths in an expression, the
 *    service's "path two" is often a third, unrelated path (e.g. "SET a = :v,
 *    a = :v, b.c = :v" -> "path one: [a], path two: [b, c]"), and which
 *    overlapping pair it names first is not request order; sluice names the
 *    first overlapping pair in request order. Two-path cases match.
 *  - the order among several runtime update errors is matched by a rule
 *    (update.c) that fits every observation but is not understood.
 *
 * Memory: everything (trees, decoded values, new items) lives in the arena
 * given to sl_expr_ctx_init; nothing is freed alone and nothing calls
 * malloc. Trees point into the request's JSON and expression text, which must
 * outlive them.
 * Threads: none; a context belongs to one request.
 */
#ifndef SL_EXPR_EXPR_H
#define SL_EXPR_EXPR_H

#include "base/err.h"
#include "base/json.h"
#include "store/item.h"
#include "store/schema.h"

/* Limits the service enforces (all observed: DynamoDB Local's messages). */
#define SL_EXPR_MAX_LEN 4096      /* bytes of one expression */
#define SL_EXPR_MAX_OPERATORS 300 /* operators and functions in one expression */
#define SL_EXPR_MAX_IN 100        /* operands after IN */
#define SL_EXPR_MAX_DEPTH 32      /* elements of one document path */

/* Which request parameter an expression came from; names it in messages. */
typedef enum {
  SL_EXPR_CONDITION = 0, /* ConditionExpression */
  SL_EXPR_FILTER,        /* FilterExpression */
  SL_EXPR_KEY_CONDITION, /* KeyConditionExpression */
  SL_EXPR_UPDATE,        /* UpdateExpression */
  SL_EXPR_PROJECTION,    /* ProjectionExpression */
} sl_expr_param;

/* "ConditionExpression", ... */
const char *sl_expr_param_name(sl_expr_param p);

/* ---- trees ---- */

typedef enum {
  SL_EXPR_ELEM_NAME = 0, /* map key or top-level attribute */
  SL_EXPR_ELEM_REF,      /* "#name" before resolution (never after) */
  SL_EXPR_ELEM_INDEX,    /* list index */
} sl_expr_elem_kind;

typedef struct {
  uint8_t kind;   /* sl_expr_elem_kind */
  uint32_t index; /* INDEX */
  sl_str name;    /* NAME: the attribute name; REF: "#name" */
} sl_expr_elem;

/* A document path: a.b[2].c is 4 elements. */
typedef struct {
  sl_expr_elem *e;
  uint32_t n;
} sl_expr_path;

typedef enum {
  /* operands */
  SL_EXPR_OP_PATH = 0,
  SL_EXPR_OP_VALUE,
  /* comparisons (2 args), BETWEEN (3), IN (1 + n) */
  SL_EXPR_OP_EQ,
  SL_EXPR_OP_NE,
  SL_EXPR_OP_LT,
  SL_EXPR_OP_LE,
  SL_EXPR_OP_GT,
  SL_EXPR_OP_GE,
  SL_EXPR_OP_BETWEEN,
  SL_EXPR_OP_IN,
  /* logic */
  SL_EXPR_OP_AND,
  SL_EXPR_OP_OR,
  SL_EXPR_OP_NOT,
  /* functions */
  SL_EXPR_OP_ATTRIBUTE_EXISTS,
  SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS,
  SL_EXPR_OP_ATTRIBUTE_TYPE,
  SL_EXPR_OP_BEGINS_WITH,
  SL_EXPR_OP_CONTAINS,
  SL_EXPR_OP_SIZE,
  SL_EXPR_OP_IF_NOT_EXISTS,
  SL_EXPR_OP_LIST_APPEND,
  SL_EXPR_OP_UNKNOWN_FUNCTION, /* parse only: an unknown name followed by '(' */
  /* update arithmetic */
  SL_EXPR_OP_PLUS,
  SL_EXPR_OP_MINUS,
} sl_expr_op;

typedef struct sl_expr_node sl_expr_node;
struct sl_expr_node {
  uint8_t op;     /* sl_expr_op */
  uint8_t parens; /* parse: parentheses directly around this node */
  uint16_t n;     /* args */
  sl_str text;    /* VALUE: ":v"; functions: the name as written */
  union {
    sl_expr_path path;   /* PATH */
    const sl_av *value;  /* VALUE, once resolved */
    sl_expr_node **args; /* operators and functions */
  };
};

/* A condition, filter or (before its extraction) key condition. */
typedef sl_expr_node sl_expr;

/* ProjectionExpression / AttributesToGet: paths in request order; no two
 * overlap or conflict. */
typedef struct {
  sl_expr_path *paths;
  uint32_t n;
} sl_expr_proj;

typedef enum {
  SL_EXPR_SET = 0,
  SL_EXPR_REMOVE,
  SL_EXPR_ADD,
  SL_EXPR_DELETE,
} sl_expr_action_kind;

typedef struct {
  uint8_t kind;        /* sl_expr_action_kind */
  sl_expr_path path;   /* the updated path (paths[i] of sl_expr_update) */
  sl_expr_node *value; /* SET: value expression; ADD/DELETE: a VALUE node; REMOVE: NULL */
  sl_str error;        /* AttributeUpdates: a validation message reported when this
                          entry is reached while applying (the service checks each
                          entry in turn, interleaved with applying) */
} sl_expr_action;

typedef struct {
  sl_expr_action *acts; /* in request order */
  uint32_t n;
  sl_expr_proj paths; /* the action paths, for UPDATED_OLD / UPDATED_NEW */
  bool legacy;        /* from AttributeUpdates: legacy type rules and messages */
} sl_expr_update;

/* Query key condition, extracted and checked against a key schema. */
typedef enum {
  SL_EXPR_KEY_EQ = 0,
  SL_EXPR_KEY_LT,
  SL_EXPR_KEY_LE,
  SL_EXPR_KEY_GT,
  SL_EXPR_KEY_GE,
  SL_EXPR_KEY_BETWEEN,
  SL_EXPR_KEY_BEGINS_WITH,
} sl_expr_key_op;

typedef struct {
  const sl_av *hash;     /* the partition key value (its schema type) */
  bool has_range;        /* a sort-key condition is present */
  uint8_t range_op;      /* sl_expr_key_op */
  const sl_av *range[2]; /* range[1] only for BETWEEN */
  /* Multi-attribute keys (a key schema with sl_key_is_tuple; else n_hash 0):
   * every partition-key value in KeySchema order, and the leading sort-key
   * attributes under equality; the condition in range_op/range (when
   * has_range) is on sort-key attribute n_sort_eq, the last one used. */
  uint8_t n_hash;
  const sl_av *hashes[SL_KEY_MAX_PARTS];
  uint8_t n_sort_eq;
  const sl_av *sort_eq[SL_KEY_MAX_PARTS];
} sl_expr_keycond;

/* ---- the request context ---- */

typedef struct {
  sl_str key;  /* "#a" */
  sl_str name; /* its attribute name */
  bool used;
} sl_expr_name;

typedef struct {
  sl_str key; /* ":v" */
  sl_av v;
  sl_str n_text; /* an N value as the request wrote it ("9E125"), for messages */
  bool used;
} sl_expr_value;

typedef struct {
  sl_arena *arena;
  sl_failure *f;
  sl_expr_name *names;
  uint32_t n_names;
  sl_expr_value *values;
  uint32_t n_values;
  uint32_t *name_slots, *value_slots; /* hash indexes of large maps (else NULL) */
  uint32_t name_mask, value_mask;
  sl_expr_param param;     /* the expression being parsed (messages) */
  const char *filter_name; /* "QueryFilter" once a legacy filter was read (messages) */
  sl_str index_name;       /* Query's IndexName, empty for a table (messages) */
} sl_expr_ctx;

/* Validates and decodes ExpressionAttributeNames / ExpressionAttributeValues
 * (either JSON may be NULL when absent), in the service's order:
 *   1. each value as an attribute value ("ExpressionAttributeValues contains
 *      invalid value: <the value's message> for key :v");
 *   2. "ExpressionAttributeNames must not be empty", then values;
 *   3. name keys ("ExpressionAttributeNames contains invalid key: Syntax
 *      error; key: \"a\""), then value keys;
 *   4. empty names ("ExpressionAttributeNames contains invalid value: Empty
 *      attribute name for key #a"). */
sl_err sl_expr_ctx_init(sl_expr_ctx *cx, sl_arena *a, sl_failure *f, const sl_json *names,
                        const sl_json *values);

/* "Value provided in ExpressionAttributeNames unused in expressions: keys:
 * {#a, #b}", then the same for values. Keys are listed in the order Java's
 * HashSet iterates them (the service's order, observed). */
sl_err sl_expr_ctx_finish(sl_expr_ctx *cx);

/* ---- parse + resolve ---- */

/* ConditionExpression or FilterExpression ('param' names it). */
sl_err sl_expr_parse_condition(sl_expr_ctx *cx, sl_expr_param param, sl_str text, sl_expr **out);
sl_err sl_expr_parse_update(sl_expr_ctx *cx, sl_str text, sl_expr_update **out);
sl_err sl_expr_parse_projection(sl_expr_ctx *cx, sl_str text, sl_expr_proj **out);
/* Parses KeyConditionExpression and extracts the key condition for 'ks' (a
 * table's or an index's key schema), with the service's messages ("Query key
 * condition not supported", "Query condition missed key schema element: pk",
 * "Condition parameter type does not match schema type", ...). */
sl_err sl_expr_parse_key_condition(sl_expr_ctx *cx, sl_str text, const sl_key_schema *ks,
                                   sl_expr_keycond *out);

/* Query only: "Filter Expression can only contain non-primary key attributes:
 * Primary key attribute: pk" ("QueryFilter can only contain ..." for a legacy
 * QueryFilter). */
sl_err sl_expr_filter_check_keys(sl_expr_ctx *cx, const sl_expr *filter, const sl_key_schema *ks);
/* UpdateItem: "One or more parameter values were invalid: Cannot update
 * attribute pk. This attribute is part of the key" for a path starting at a
 * key attribute of the table. */
sl_err sl_expr_update_check_keys(sl_expr_ctx *cx, const sl_expr_update *u, const sl_key_schema *ks);

/* ---- evaluate ---- */

/* The value at 'path' in 'item' (NULL item: absent), or NULL. */
const sl_av *sl_expr_path_get(const sl_item *item, const sl_expr_path *path);

/* Evaluates a condition or filter on 'item' (NULL: the item does not exist).
 * A NULL condition is true. */
bool sl_expr_eval(const sl_expr *c, const sl_item *item);

/* Applies an update to 'old' (NULL: no item yet) and writes the new item to
 * 'out' (arena-allocated; 'old' is untouched). Fails (ValidationException)
 * with "The provided expression refers to an attribute that does not exist in
 * the item", "An operand in the update expression has an incorrect data
 * type" ("Type mismatch for attribute to update" for AttributeUpdates), "The
 * document path provided in the update expression is invalid for update", or
 * a number's overflow/underflow text (base/num.h: an inexact sum is reported
 * with the overflow text, as the service does). Every operand reads the old
 * item ("SET a = b, b = a" swaps); if_not_exists evaluates its fallback even
 * when unused. When several actions would fail, the one reported follows the
 * service's observed order (update.c).
 *
 * The caller adds the key attributes to a new item and checks its size. When
 * 'old' is NULL and 'out' has no attributes (e.g. "REMOVE a" on a missing
 * item), DynamoDB does not create the item — except for AttributeUpdates with
 * no entries or no update at all, which do (Alternator's
 * test_update_item_returnvalues_* and test_update_item_no_update_method).
 * AttributeUpdates entries without an Action are PUTs, as the API reference
 * says (DynamoDB Local ignores them, and the entries after them). */
sl_err sl_expr_update_apply(sl_expr_ctx *cx, const sl_expr_update *u, const sl_item *old,
                            sl_item *out);

/* The part of 'item' that 'proj' selects (a new item in 'a'; attributes and
 * map entries share memory with 'item'). Nested maps keep only the selected
 * keys; lists keep the selected elements in index order; paths that do not
 * resolve select nothing (so an attribute can vanish entirely). A NULL
 * projection returns the whole item. */
sl_item sl_expr_project(sl_arena *a, const sl_expr_proj *proj, const sl_item *item);

/* ---- legacy parameters ---- */

/* Which operation a request is (the parameters it may carry). */
typedef enum {
  SL_EXPR_OP_PUT_ITEM = 0, /* also DeleteItem */
  SL_EXPR_OP_UPDATE_ITEM,
  SL_EXPR_OP_GET_ITEM, /* also a BatchGetItem table entry */
  SL_EXPR_OP_QUERY,
  SL_EXPR_OP_SCAN,
} sl_expr_request;

/* "Can not use both expression and non-expression parameters in the same
 * request: Non-expression parameters: {Expected} Expression parameters:
 * {ConditionExpression}", "ExpressionAttributeNames can only be specified
 * when using expressions", "ExpressionAttributeValues can only be specified
 * when using expressions: ConditionExpression is null". */
sl_err sl_expr_check_params(sl_failure *f, const sl_json *body, sl_expr_request op);

/* Expected (+ ConditionalOperator) -> a condition; NULL when absent. */
sl_err sl_expr_legacy_expected(sl_expr_ctx *cx, const sl_json *expected, sl_str conditional_op,
                               sl_expr **out);
/* QueryFilter / ScanFilter (+ ConditionalOperator) -> a filter; 'param_name'
 * is "QueryFilter" or "ScanFilter" (messages). */
sl_err sl_expr_legacy_filter(sl_expr_ctx *cx, const sl_json *filter, sl_str conditional_op,
                             const char *param_name, sl_expr **out);
/* AttributesToGet -> a projection. */
sl_err sl_expr_legacy_attributes_to_get(sl_expr_ctx *cx, const sl_json *names, sl_expr_proj **out);
/* AttributeUpdates -> an update (PUT = SET, DELETE without value = REMOVE,
 * ADD, DELETE with a set value). */
sl_err sl_expr_legacy_attribute_updates(sl_expr_ctx *cx, const sl_json *updates,
                                        sl_expr_update **out);
/* KeyConditions -> a key condition for 'ks'. */
sl_err sl_expr_legacy_key_conditions(sl_expr_ctx *cx, const sl_json *conds, const sl_key_schema *ks,
                                     sl_expr_keycond *out);

/* ---- printing (tests, logs) ---- */

/* Appends a readable form: "(OR (attribute_not_exists pk) (< v {\"N\":\"5\"}))",
 * paths as a.b[1].c (names that are not plain identifiers are quoted with
 * backquotes), values as DynamoDB JSON. */
void sl_expr_print(sl_buf *b, const sl_expr_node *n);
void sl_expr_print_path(sl_buf *b, const sl_expr_path *p);
/* "SET a = (+ a {\"N\":\"1\"}), b = ... REMOVE c ADD d {...} DELETE e {...}" */
void sl_expr_print_update(sl_buf *b, const sl_expr_update *u);
/* "a.b, c[1]" */
void sl_expr_print_proj(sl_buf *b, const sl_expr_proj *p);
/* "pk = {...} AND sk BETWEEN {...} AND {...}" */
void sl_expr_print_keycond(sl_buf *b, const sl_expr_keycond *k, const sl_key_schema *ks);

#endif
