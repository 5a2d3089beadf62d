/*
 * pql_int.h — what the files of src/partiql/ share (sl__pql_ names); see
 * partiql.h for the design.
 *
 * The files, each calling only those listed below it:
 *
 * explain.c  the cost preview (uses plan.c and exec.c)
 * exec.c   running a plan through the cores of ops/
 * plan.c   binding values, choosing the core, building expr/ trees
 * print.c  readable plans
 * parse.c  recursive descent into the AST
 * lex.c    tokens
 *
 * Threads: none of their own.
 */
#ifndef SL_PARTIQL_PQL_INT_H
#define SL_PARTIQL_PQL_INT_H

#include "partiql/partiql.h"

typedef enum {
  SL_PQL_T_EOF = 0,
  SL_PQL_T_IDENT,  /* a word: keyword or name (text as written) */
  SL_PQL_T_QIDENT, /* "name": text unescaped */
  SL_PQL_T_STRING, /* 'text': text unescaped */
  SL_PQL_T_NUMBER, /* text as written */
  SL_PQL_T_PARAM,  /* ? */
  SL_PQL_T_PUNCT,  /* text is one of ( ) [ ] { } << >> , . : * = <> != < <= > >= + - ; */
  SL_PQL_T_ERROR,  /* an unterminated quote or a character the language has not */
} sl_pql_tok_kind;

typedef struct {
  uint8_t kind; /* sl_pql_tok_kind */
  sl_str text;
} sl_pql_tok;

typedef struct {
  sl_arena *a;
  sl_str src;
  size_t pos;
} sl_pql_lexer;

void sl__pql_lex_init(sl_pql_lexer *lx, sl_arena *a, sl_str src);
/* The next token (quoted texts unescaped into the arena when they hold an
 * escaped quote). */
sl_pql_tok sl__pql_lex_next(sl_pql_lexer *lx);
/* A word equal to 'kw' in any case. */
bool sl__pql_tok_is_kw(const sl_pql_tok *t, const char *kw);
/* Punctuation 'p'. */
bool sl__pql_tok_is(const sl_pql_tok *t, const char *p);

/* (plan.c) The attribute name a SELECT path's value is returned under: its
 * last name and the list indexes after it, so m.q[0] is "q[0]", m.z is "z"
 * and l[0] is "l[0]" (the service returns SELECT mymap.nested as "nested",
 * nubo-db/dynamodb-conformance tier2 executeStatement, pinned against AWS;
 * DynamoDB Local gives k[1] for m.k[1]). */
sl_str sl__pql_select_name(sl_arena *a, const sl_expr_path *p);

#endif
