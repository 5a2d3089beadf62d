/*
 * expr_int.h — what the files of src/expr/ share (sl__expr_ names); see
 * expr.h for the design.
 *
 * The files, each calling only those listed below it (no two call each
 * other, directly or around a circle):
 *
 * compile.c  the public parse drivers: pass 1, then pass 2, then (for a key
 *            condition) extraction
 * legacy.c   legacy parameters -> trees, checked like the expressions
 * keycond.c  key-condition extraction from a resolved tree
 * resolve.c  the semantic checks of pass 2 over a parsed tree
 * parse.c    lexer and recursive-descent parsers (pass 1)
 * update.c   applying an update to an item (pass 3)
 * project.c  applying a projection to an item (pass 3)
 * print.c    readable forms of the trees
 * eval.c     path lookup, comparisons, condition evaluation (pass 3)
 * ctx.c      the request context (names and values), the "Invalid <param>"
 *            failure, placeholder replacement, node constructors
 * reserved.gen.c  DynamoDB's reserved words (scripts/gen_reserved_words.py)
 *
 * Threads: none.
 */
#ifndef SL_EXPR_EXPR_INT_H
#define SL_EXPR_EXPR_INT_H

#include "base/log.h"
#include "base/num.h"
#include "expr/expr.h"

/* What a parse produced, before resolution. */
typedef struct {
  sl_str reserved; /* the first reserved word used as a name, or empty */
} sl__expr_parsed;

/* Pass 1 (parse.c). Each records a syntax (or parse-time) error on cx->f, with the
 * "Invalid <param>: " prefix, and returns SL_E_VALIDATION. */
sl_err sl__expr_parse_condition(sl_expr_ctx *cx, sl_str text, sl_expr **out, sl__expr_parsed *pr);
sl_err sl__expr_parse_update(sl_expr_ctx *cx, sl_str text, sl_expr_update **out,
                             sl__expr_parsed *pr);
sl_err sl__expr_parse_projection(sl_expr_ctx *cx, sl_str text, sl_expr_proj **out,
                                 sl__expr_parsed *pr);

/* Fails with "Invalid <param>: " + the formatted text (ctx.c). */
sl_err sl__expr_fail(sl_expr_ctx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* DynamoDB's reserved words (reserved.gen.c): upper case, sorted; the words
 * sl__reserved_words[sl__reserved_first[c]] .. [sl__reserved_first[c + 1] - 1]
 * start with the letter 'A' + c. */
typedef struct {
  uint8_t len;
  char s[15];
} sl__reserved_word;
extern const sl__reserved_word sl__reserved_words[];
extern const uint16_t sl__reserved_first[27];

/* Placeholders (ctx.c): "#name" elements of a path and a ":value" node
 * replaced by the request's names and values, which are marked used. */
sl_err sl__expr_resolve_path(sl_expr_ctx *cx, sl_expr_path *p);
sl_err sl__expr_resolve_value(sl_expr_ctx *cx, sl_expr_node *n);
/* The operator or function of 'n' as the service names it in messages
 * ("=", "BETWEEN", "begins_with"; ctx.c). */
const char *sl__expr_op_text(const sl_expr_node *n);

/* Pass 2 (resolve.c) of what pass 1 produced: reserved words first, then
 * placeholders and the semantic checks of the grammar, in the service's
 * order; errors as in pass 1. */
sl_err sl__expr_resolve_condition(sl_expr_ctx *cx, const sl__expr_parsed *pr, sl_expr *c);
sl_err sl__expr_resolve_update(sl_expr_ctx *cx, const sl__expr_parsed *pr, sl_expr_update *u);
sl_err sl__expr_resolve_projection(sl_expr_ctx *cx, const sl__expr_parsed *pr, sl_expr_proj *p);
/* New nodes (arena; ctx.c). */
sl_expr_node *sl__expr_node(sl_arena *a, sl_expr_op op, uint16_t n);
sl_expr_node *sl__expr_value_node(sl_arena *a, const sl_av *v);
sl_expr_node *sl__expr_path_node(sl_arena *a, const sl_expr_path *p);

/* Key-condition extraction from a resolved tree (keycond.c; the legacy
 * KeyConditions uses it too). */
sl_err sl__expr_key_extract(sl_expr_ctx *cx, const sl_expr_node *c, const sl_key_schema *ks,
                            sl_expr_keycond *out);

/* Evaluation helpers (eval.c) shared with update.c, resolve.c and legacy.c. */
/* Numeric / bytewise order of two S, N or B values of the same type. */
int sl__expr_cmp_scalar(const sl_av *a, const sl_av *b);
/* A canonical N value in the arena. */
sl_av sl__expr_num_av(sl_arena *a, const sl_num *n);

#endif
