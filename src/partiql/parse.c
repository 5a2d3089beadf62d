/*
 * The PartiQL parser: recursive descent from tokens (lex.c) into the AST of
 * partiql.h. Literals become attribute values here (numbers canonical, bags
 * sorted) unless they hold a '?' parameter, which plan.c binds.
 */
#include "partiql/pql_int.h"

#include <stdlib.h>

#include "base/num.h"

typedef struct {
  sl_arena *a;
  sl_failure *f;
  sl_str text;
  sl_pql_lexer lx;
  sl_pql_tok tok;  /* current */
  sl_pql_tok next; /* one token of lookahead */
  bool has_next;
  uint32_t n_params;
  int depth;
  sl_err err; /* the first failure (SL_OK: none) */
} parser;

static void advance(parser *p) {
  if (p->has_next) {
    p->tok = p->next;
    p->has_next = false;
  } else {
    p->tok = sl__pql_lex_next(&p->lx);
  }
}

static const sl_pql_tok *peek(parser *p) {
  if (!p->has_next) {
    p->next = sl__pql_lex_next(&p->lx);
    p->has_next = true;
  }
  return &p->next;
}

/* The one text of a statement the service cannot parse (DynamoDB Local). */
static sl_err malformed(parser *p) {
  if (p->err == SL_OK)
    p->err =
        sl_failf(p->f, SL_E_VALIDATION, "Statement wasn't well formed, can't be processed: %.*s",
                 SL_STR_FMT(p->text));
  return p->err;
}

static sl_err fail_text(parser *p, const char *fmt, sl_str arg) {
  if (p->err == SL_OK)
    p->err = sl_failf(p->f, SL_E_VALIDATION, fmt, SL_STR_FMT(arg));
  return p->err;
}

static bool kw(parser *p, const char *k) { return sl__pql_tok_is_kw(&p->tok, k); }
static bool punct(parser *p, const char *s) { return sl__pql_tok_is(&p->tok, s); }

static sl_err expect_kw(parser *p, const char *k) {
  if (!kw(p, k))
    return malformed(p);
  advance(p);
  return SL_OK;
}

static sl_err expect(parser *p, const char *s) {
  if (!punct(p, s))
    return malformed(p);
  advance(p);
  return SL_OK;
}

static sl_pql_node *node(parser *p, sl_pql_node_kind k, uint16_t n) {
  sl_pql_node *x = SL_NEW(p->a, sl_pql_node);
  x->kind = (uint8_t)k;
  x->n = n;
  if (n)
    x->args = SL_NEW_ARRAY(p->a, sl_pql_node *, n);
  return x;
}

/* Words that end an operand: never the start of an unquoted path. */
static bool reserved_word(const sl_pql_tok *t) {
  static const char *const words[] = {
      "AND",    "OR",     "NOT",   "BETWEEN", "IN",        "IS",    "FROM",   "WHERE",
      "SET",    "REMOVE", "ORDER", "BY",      "RETURNING", "VALUE", "SELECT", "INSERT",
      "UPDATE", "DELETE", "INTO",  "EXISTS",  "ASC",       "DESC",  "MISSING"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (sl__pql_tok_is_kw(t, words[i]))
      return true;
  return false;
}

static bool is_name(const sl_pql_tok *t) {
  return t->kind == SL_PQL_T_QIDENT || (t->kind == SL_PQL_T_IDENT && !reserved_word(t));
}

/* A document path: name { . name | [ index ] | [ 'key' ] }. */
static sl_err parse_path(parser *p, sl_expr_path *out) {
  sl_expr_elem tmp[SL_EXPR_MAX_DEPTH + 1];
  uint32_t n = 0;
  if (!is_name(&p->tok) || p->tok.text.len == 0)
    return malformed(p);
  tmp[n++] = (sl_expr_elem){.kind = SL_EXPR_ELEM_NAME, .name = p->tok.text};
  advance(p);
  for (;;) {
    sl_expr_elem e = {0};
    if (punct(p, ".")) {
      advance(p);
      if (!is_name(&p->tok) || p->tok.text.len == 0)
        return malformed(p);
      e = (sl_expr_elem){.kind = SL_EXPR_ELEM_NAME, .name = p->tok.text};
      advance(p);
    } else if (punct(p, "[")) {
      advance(p);
      if (p->tok.kind == SL_PQL_T_NUMBER) {
        uint64_t v = 0;
        for (size_t i = 0; i < p->tok.text.len; i++) {
          char c = p->tok.text.p[i];
          if (c < '0' || c > '9' || v > 0xFFFFFFF)
            return malformed(p);
          v = v * 10 + (uint64_t)(c - '0');
        }
        e = (sl_expr_elem){.kind = SL_EXPR_ELEM_INDEX, .index = (uint32_t)v};
      } else if (p->tok.kind == SL_PQL_T_STRING && p->tok.text.len) {
        e = (sl_expr_elem){.kind = SL_EXPR_ELEM_NAME, .name = p->tok.text};
      } else {
        return malformed(p);
      }
      advance(p);
      if (expect(p, "]") != SL_OK)
        return p->err;
    } else {
      break;
    }
    if (n >= SL_EXPR_MAX_DEPTH)
      return malformed(p);
    tmp[n++] = e;
  }
  out->n = n;
  out->e = SL_NEW_ARRAY(p->a, sl_expr_elem, n);
  memcpy(out->e, tmp, n * sizeof tmp[0]);
  return SL_OK;
}

static sl_err parse_value(parser *p, sl_pql_node **out);

/* A number literal (with an optional leading minus already consumed). */
static sl_err number_lit(parser *p, bool neg, sl_pql_node **out) {
  sl_str t = p->tok.text;
  if (neg) {
    char *s = sl_arena_alloc(p->a, t.len + 1);
    s[0] = '-';
    memcpy(s + 1, t.p, t.len);
    t = (sl_str){s, t.len + 1};
  }
  sl_num num;
  sl_num_status st = sl_num_parse(t, &num);
  if (st != SL_NUM_OK) {
    if (st == SL_NUM_SYNTAX)
      return malformed(p);
    if (p->err == SL_OK)
      p->err = sl_failf(p->f, SL_E_VALIDATION, "%s", sl_num_status_message(st));
    return p->err;
  }
  char *buf = sl_arena_alloc(p->a, SL_NUM_MAX_TEXT);
  size_t len = sl_num_format(&num, buf);
  sl_pql_node *x = node(p, SL_PQL_N_LIT, 0);
  x->value.type = SL_AV_N;
  x->value.s = (sl_str){buf, len};
  advance(p);
  *out = x;
  return SL_OK;
}

/* Elements up to 'close' into a LIST or BAG node. */
/* "line:column:length" of a token, 1-based, as the service's parser names a
 * position. */
static void position(const parser *p, const sl_pql_tok *t, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (const char *c = p->text.p; c < t->text.p; c++) {
    if (*c == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}

static sl_err value_list(parser *p, sl_pql_node_kind k, const char *close, sl_pql_node **out) {
  sl_pql_node *items[64];
  size_t n = 0, cap = 64;
  sl_pql_node **v = items;
  if (++p->depth > SL_PQL_MAX_DEPTH)
    return malformed(p);
  if (!punct(p, close)) {
    for (;;) {
      sl_pql_node *e;
      if (parse_value(p, &e) != SL_OK)
        return p->err;
      if (n == cap) {
        sl_pql_node **nv = SL_NEW_ARRAY(p->a, sl_pql_node *, cap * 2);
        memcpy(nv, v, n * sizeof *v);
        v = nv;
        cap *= 2;
      }
      v[n++] = e;
      if (!punct(p, ","))
        break;
      advance(p);
    }
  }
  if (expect(p, close) != SL_OK)
    return p->err;
  if (n > UINT16_MAX)
    return malformed(p);
  sl_pql_node *x = node(p, k, (uint16_t)n);
  if (n)
    memcpy(x->args, v, n * sizeof *v);
  p->depth--;
  *out = x;
  return SL_OK;
}

static sl_err value_map(parser *p, sl_pql_node **out) {
  size_t cap = 16, n = 0;
  sl_str *keys = SL_NEW_ARRAY(p->a, sl_str, cap);
  sl_pql_node **vals = SL_NEW_ARRAY(p->a, sl_pql_node *, cap);
  if (++p->depth > SL_PQL_MAX_DEPTH)
    return malformed(p);
  if (!punct(p, "}")) {
    for (;;) {
      if (p->tok.kind != SL_PQL_T_STRING)
        return malformed(p);
      sl_str k = p->tok.text;
      advance(p);
      if (expect(p, ":") != SL_OK)
        return p->err;
      sl_pql_node *e;
      if (parse_value(p, &e) != SL_OK)
        return p->err;
      if (n == cap) {
        sl_str *nk = SL_NEW_ARRAY(p->a, sl_str, cap * 2);
        sl_pql_node **nv = SL_NEW_ARRAY(p->a, sl_pql_node *, cap * 2);
        memcpy(nk, keys, n * sizeof *keys);
        memcpy(nv, vals, n * sizeof *vals);
        keys = nk;
        vals = nv;
        cap *= 2;
      }
      keys[n] = k;
      vals[n++] = e;
      if (!punct(p, ","))
        break;
      advance(p);
    }
  }
  if (expect(p, "}") != SL_OK)
    return p->err;
  if (n > UINT16_MAX)
    return malformed(p);
  sl_pql_node *x = node(p, SL_PQL_N_MAP, (uint16_t)n);
  if (n)
    memcpy(x->args, vals, n * sizeof *vals);
  x->keys = keys;
  p->depth--;
  *out = x;
  return SL_OK;
}

/* A value: a literal, a parameter, or a list, map or bag of values. */
static sl_err parse_value(parser *p, sl_pql_node **out) {
  sl_pql_tok t = p->tok;
  if (t.kind == SL_PQL_T_STRING) {
    sl_pql_node *x = node(p, SL_PQL_N_LIT, 0);
    x->value.type = SL_AV_S;
    x->value.s = t.text;
    advance(p);
    *out = x;
    return SL_OK;
  }
  if (t.kind == SL_PQL_T_NUMBER)
    return number_lit(p, false, out);
  if (sl__pql_tok_is(&t, "-") && peek(p)->kind == SL_PQL_T_NUMBER) {
    advance(p);
    return number_lit(p, true, out);
  }
  if (t.kind == SL_PQL_T_PARAM) {
    sl_pql_node *x = node(p, SL_PQL_N_PARAM, 0);
    x->param = p->n_params++;
    advance(p);
    *out = x;
    return SL_OK;
  }
  if (sl__pql_tok_is_kw(&t, "TRUE") || sl__pql_tok_is_kw(&t, "FALSE")) {
    sl_pql_node *x = node(p, SL_PQL_N_LIT, 0);
    x->value.type = SL_AV_BOOL;
    x->value.b = sl__pql_tok_is_kw(&t, "TRUE");
    advance(p);
    *out = x;
    return SL_OK;
  }
  if (sl__pql_tok_is_kw(&t, "NULL")) {
    sl_pql_node *x = node(p, SL_PQL_N_LIT, 0);
    x->value.type = SL_AV_NULL;
    x->value.b = true;
    advance(p);
    *out = x;
    return SL_OK;
  }
  if (sl__pql_tok_is(&t, "[")) {
    advance(p);
    return value_list(p, SL_PQL_N_LIST, "]", out);
  }
  if (sl__pql_tok_is(&t, "<<")) {
    advance(p);
    if (punct(p, ">>")) {
      /* DynamoDB Local's text, naming the bag's position. */
      int line, col;
      position(p, &t, &line, &col);
      if (p->err == SL_OK)
        p->err =
            sl_failf(p->f, SL_E_VALIDATION, "Empty bags are not supported at %d:%d:2", line, col);
      return p->err;
    }
    return value_list(p, SL_PQL_N_BAG, ">>", out);
  }
  if (sl__pql_tok_is(&t, "{")) {
    advance(p);
    return value_map(p, out);
  }
  return malformed(p);
}

static bool starts_value(parser *p) {
  const sl_pql_tok *t = &p->tok;
  return t->kind == SL_PQL_T_STRING || t->kind == SL_PQL_T_NUMBER || t->kind == SL_PQL_T_PARAM ||
         sl__pql_tok_is_kw(t, "TRUE") || sl__pql_tok_is_kw(t, "FALSE") ||
         sl__pql_tok_is_kw(t, "NULL") || sl__pql_tok_is(t, "[") || sl__pql_tok_is(t, "<<") ||
         sl__pql_tok_is(t, "{") || (sl__pql_tok_is(t, "-") && peek(p)->kind == SL_PQL_T_NUMBER);
}

/* The functions of DynamoDB's PartiQL (DG ql-functions): in conditions, and
 * in SET values. */
static const char *const functions[] = {"begins_with", "contains",     "attribute_type", "size",
                                        "exists",      "missing",      "list_append",    "set_add",
                                        "set_delete",  "if_not_exists"};

static sl_err parse_operand(parser *p, sl_pql_node **out);

/* name(args): the current token is the name, the next '('. */
static sl_err parse_call(parser *p, sl_pql_node **out) {
  sl_str name = p->tok.text;
  bool known = false;
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++)
    if (sl_str_eq_nocase(name, sl_str_c(functions[i])))
      known = true;
  if (!known)
    return fail_text(p, "Unrecognized function: %.*s", name);
  advance(p);
  advance(p); /* ( */
  if (++p->depth > SL_PQL_MAX_DEPTH)
    return malformed(p);
  sl_pql_node *args[8];
  uint16_t n = 0;
  if (!punct(p, ")")) {
    for (;;) {
      if (n == 8)
        return malformed(p);
      if (parse_operand(p, &args[n]) != SL_OK)
        return p->err;
      n++;
      if (!punct(p, ","))
        break;
      advance(p);
    }
  }
  if (expect(p, ")") != SL_OK)
    return p->err;
  p->depth--;
  sl_pql_node *x = node(p, SL_PQL_N_FUNC, n);
  if (n)
    if (n)
      memcpy(x->args, args, n * sizeof args[0]);
  x->name = name;
  *out = x;
  return SL_OK;
}

/* A path, a value or a function call. */
static sl_err parse_operand(parser *p, sl_pql_node **out) {
  if (p->tok.kind == SL_PQL_T_IDENT && sl__pql_tok_is(peek(p), "("))
    return parse_call(p, out);
  if (starts_value(p))
    return parse_value(p, out);
  sl_pql_node *x = node(p, SL_PQL_N_PATH, 0);
  if (parse_path(p, &x->path) != SL_OK)
    return p->err;
  *out = x;
  return SL_OK;
}

/* A SET value: term { (+|-) term }. */
static sl_err parse_set_value(parser *p, sl_pql_node **out) {
  sl_pql_node *l;
  if (parse_operand(p, &l) != SL_OK)
    return p->err;
  while (punct(p, "+") || punct(p, "-")) {
    sl_pql_node *x = node(p, punct(p, "+") ? SL_PQL_N_PLUS : SL_PQL_N_MINUS, 2);
    advance(p);
    x->args[0] = l;
    if (parse_operand(p, &x->args[1]) != SL_OK)
      return p->err;
    l = x;
  }
  *out = l;
  return SL_OK;
}

static sl_err parse_or(parser *p, sl_pql_node **out);

static const struct {
  const char *text;
  sl_pql_node_kind kind;
} cmp_ops[] = {{"=", SL_PQL_N_EQ},  {"<>", SL_PQL_N_NE}, {"!=", SL_PQL_N_NE}, {"<", SL_PQL_N_LT},
               {"<=", SL_PQL_N_LE}, {">", SL_PQL_N_GT},  {">=", SL_PQL_N_GE}};

static sl_pql_node *negate(parser *p, sl_pql_node *x) {
  sl_pql_node *n = node(p, SL_PQL_N_NOT, 1);
  n->args[0] = x;
  return n;
}

/* A predicate: NOT, a parenthesized condition, a comparison, BETWEEN, IN,
 * IS [NOT] MISSING, or a function call that is a condition. */
static sl_err parse_pred(parser *p, sl_pql_node **out) {
  if (++p->depth > SL_PQL_MAX_DEPTH)
    return malformed(p);
  if (kw(p, "NOT")) {
    advance(p);
    sl_pql_node *x = node(p, SL_PQL_N_NOT, 1);
    if (parse_pred(p, &x->args[0]) != SL_OK)
      return p->err;
    p->depth--;
    *out = x;
    return SL_OK;
  }
  if (punct(p, "(")) {
    advance(p);
    if (parse_or(p, out) != SL_OK || expect(p, ")") != SL_OK)
      return p->err;
    p->depth--;
    return SL_OK;
  }
  sl_pql_node *l;
  if (parse_operand(p, &l) != SL_OK)
    return p->err;
  for (size_t i = 0; i < sizeof cmp_ops / sizeof cmp_ops[0]; i++) {
    if (punct(p, cmp_ops[i].text)) {
      advance(p);
      sl_pql_node *x = node(p, cmp_ops[i].kind, 2);
      x->args[0] = l;
      if (parse_operand(p, &x->args[1]) != SL_OK)
        return p->err;
      p->depth--;
      *out = x;
      return SL_OK;
    }
  }
  bool neg = false;
  if (kw(p, "NOT") && (sl__pql_tok_is_kw(peek(p), "BETWEEN") || sl__pql_tok_is_kw(peek(p), "IN"))) {
    neg = true;
    advance(p);
  }
  if (kw(p, "BETWEEN")) {
    advance(p);
    sl_pql_node *x = node(p, SL_PQL_N_BETWEEN, 3);
    x->args[0] = l;
    if (parse_operand(p, &x->args[1]) != SL_OK || expect_kw(p, "AND") != SL_OK ||
        parse_operand(p, &x->args[2]) != SL_OK)
      return p->err;
    p->depth--;
    *out = neg ? negate(p, x) : x;
    return SL_OK;
  }
  if (kw(p, "IN")) {
    advance(p);
    const char *close = punct(p, "[") ? "]" : punct(p, "(") ? ")" : NULL;
    if (!close)
      return malformed(p);
    advance(p);
    sl_pql_node *list;
    if (value_list(p, SL_PQL_N_LIST, close, &list) != SL_OK)
      return p->err;
    if (list->n == 0)
      return malformed(p);
    sl_pql_node *x = node(p, SL_PQL_N_IN, (uint16_t)(list->n + 1));
    x->args[0] = l;
    memcpy(x->args + 1, list->args, list->n * sizeof list->args[0]);
    p->depth--;
    *out = neg ? negate(p, x) : x;
    return SL_OK;
  }
  if (kw(p, "IS")) {
    advance(p);
    bool is_not = false;
    if (kw(p, "NOT")) {
      is_not = true;
      advance(p);
    }
    if (!kw(p, "MISSING"))
      return malformed(p);
    advance(p);
    sl_pql_node *x = node(p, is_not ? SL_PQL_N_NOT_MISSING : SL_PQL_N_MISSING, 1);
    x->args[0] = l;
    p->depth--;
    *out = x;
    return SL_OK;
  }
  if (l->kind == SL_PQL_N_FUNC) {
    p->depth--;
    *out = l;
    return SL_OK;
  }
  return malformed(p);
}

static sl_err parse_and(parser *p, sl_pql_node **out) {
  sl_pql_node *l;
  if (parse_pred(p, &l) != SL_OK)
    return p->err;
  while (kw(p, "AND")) {
    advance(p);
    sl_pql_node *x = node(p, SL_PQL_N_AND, 2);
    x->args[0] = l;
    if (parse_pred(p, &x->args[1]) != SL_OK)
      return p->err;
    l = x;
  }
  *out = l;
  return SL_OK;
}

static sl_err parse_or(parser *p, sl_pql_node **out) {
  sl_pql_node *l;
  if (parse_and(p, &l) != SL_OK)
    return p->err;
  while (kw(p, "OR")) {
    advance(p);
    sl_pql_node *x = node(p, SL_PQL_N_OR, 2);
    x->args[0] = l;
    if (parse_and(p, &x->args[1]) != SL_OK)
      return p->err;
    l = x;
  }
  *out = l;
  return SL_OK;
}

/* "table" or "table"."index" (names quoted or not). An empty name and a
 * third component have texts of their own (the service's and DynamoDB
 * Local's: nubo-db/dynamodb-conformance tier3 partiql.test.ts, pinned
 * against AWS). */
static sl_err parse_target(parser *p, sl_pql_stmt *st) {
  for (int i = 0;; i++) {
    if (!is_name(&p->tok))
      return malformed(p);
    if (p->tok.text.len == 0)
      return fail_text(p, "Path component cannot be an empty string%.*s", SL_STR(""));
    if (i == 2)
      return fail_text(p, "A path may contain at most 2 components in the FROM clause%.*s",
                       SL_STR(""));
    if (i == 0)
      st->table = p->tok.text;
    else
      st->index = p->tok.text;
    advance(p);
    if (!punct(p, "."))
      return SL_OK;
    advance(p);
  }
}

static sl_err parse_where(parser *p, sl_pql_stmt *st) {
  if (!kw(p, "WHERE"))
    return SL_OK;
  advance(p);
  return parse_or(p, &st->where);
}

/* RETURNING ( ALL | MODIFIED ) ( OLD | NEW ) * */
static sl_err parse_returning(parser *p, sl_pql_stmt *st) {
  if (!kw(p, "RETURNING"))
    return SL_OK;
  const char *start = p->tok.text.p;
  advance(p);
  bool all = kw(p, "ALL"), modified = kw(p, "MODIFIED");
  if (!all && !modified)
    return malformed(p);
  advance(p);
  bool old = kw(p, "OLD"), new_ = kw(p, "NEW");
  if (!old && !new_)
    return malformed(p);
  advance(p);
  if (!punct(p, "*"))
    return fail_text(p,
                     "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause%.*s",
                     SL_STR(""));
  const char *end = p->tok.text.p + 1;
  advance(p);
  st->returning =
      all ? (old ? SL_RV_ALL_OLD : SL_RV_ALL_NEW) : (old ? SL_RV_UPDATED_OLD : SL_RV_UPDATED_NEW);
  if (st->kind == SL_PQL_INSERT)
    return fail_text(p, "RETURNING is not supported in INSERT%.*s", SL_STR(""));
  if (st->kind == SL_PQL_DELETE && st->returning != SL_RV_ALL_OLD)
    return fail_text(p,
                     "Invalid returning clause: %.*s. Only RETURNING ALL OLD * is allowed in "
                     "DELETE statements.",
                     (sl_str){start, (size_t)(end - start)});
  return SL_OK;
}

static sl_err parse_select(parser *p, sl_pql_stmt *st) {
  advance(p); /* SELECT */
  if (punct(p, "*")) {
    advance(p);
  } else {
    sl_expr_path tmp[64];
    sl_expr_path *v = tmp;
    uint32_t n = 0, cap = 64;
    for (;;) {
      if (n == cap) {
        sl_expr_path *nv = SL_NEW_ARRAY(p->a, sl_expr_path, cap * 2);
        memcpy(nv, v, n * sizeof *v);
        v = nv;
        cap *= 2;
      }
      if (parse_path(p, &v[n]) != SL_OK)
        return p->err;
      n++;
      if (!punct(p, ","))
        break;
      advance(p);
    }
    st->proj = SL_NEW_ARRAY(p->a, sl_expr_path, n);
    memcpy(st->proj, v, n * sizeof *v);
    st->n_proj = n;
  }
  if (expect_kw(p, "FROM") != SL_OK || parse_target(p, st) != SL_OK || parse_where(p, st) != SL_OK)
    return p->err;
  if (kw(p, "ORDER")) {
    advance(p);
    if (expect_kw(p, "BY") != SL_OK)
      return p->err;
    sl_expr_path paths[4];
    bool desc[4];
    uint32_t n = 0;
    for (;;) {
      if (n == 4)
        return malformed(p);
      if (parse_path(p, &paths[n]) != SL_OK)
        return p->err;
      desc[n] = false;
      if (kw(p, "ASC") || kw(p, "DESC")) {
        desc[n] = kw(p, "DESC");
        advance(p);
      }
      n++;
      if (!punct(p, ","))
        break;
      advance(p);
    }
    st->order = SL_NEW_ARRAY(p->a, sl_expr_path, n);
    st->desc = SL_NEW_ARRAY(p->a, bool, n);
    memcpy(st->order, paths, n * sizeof paths[0]);
    memcpy(st->desc, desc, n * sizeof desc[0]);
    st->n_order = n;
  }
  return SL_OK;
}

static sl_err parse_update(parser *p, sl_pql_stmt *st) {
  advance(p); /* UPDATE */
  if (parse_target(p, st) != SL_OK)
    return p->err;
  size_t cap = 8, n = 0;
  sl_pql_assign *v = SL_NEW_ARRAY(p->a, sl_pql_assign, cap);
  while (kw(p, "SET") || kw(p, "REMOVE")) {
    bool set = kw(p, "SET");
    advance(p);
    for (;;) {
      if (n == cap) {
        sl_pql_assign *nv = SL_NEW_ARRAY(p->a, sl_pql_assign, cap * 2);
        memcpy(nv, v, n * sizeof *v);
        v = nv;
        cap *= 2;
      }
      sl_pql_assign *as = &v[n];
      as->kind = set ? SL_PQL_SET : SL_PQL_REMOVE;
      if (parse_path(p, &as->path) != SL_OK)
        return p->err;
      if (set && (expect(p, "=") != SL_OK || parse_set_value(p, &as->value) != SL_OK))
        return p->err;
      n++;
      if (!punct(p, ","))
        break;
      advance(p);
    }
  }
  if (n == 0)
    return malformed(p);
  st->assigns = v;
  st->n_assigns = (uint32_t)n;
  if (parse_where(p, st) != SL_OK || parse_returning(p, st) != SL_OK)
    return p->err;
  return SL_OK;
}

static sl_err parse_stmt(parser *p, sl_pql_stmt *st) {
  if (kw(p, "SELECT")) {
    st->kind = SL_PQL_SELECT;
    return parse_select(p, st);
  }
  if (kw(p, "INSERT")) {
    st->kind = SL_PQL_INSERT;
    advance(p);
    if (expect_kw(p, "INTO") != SL_OK || parse_target(p, st) != SL_OK ||
        expect_kw(p, "VALUE") != SL_OK)
      return p->err;
    if (!punct(p, "{") && p->tok.kind != SL_PQL_T_PARAM)
      return malformed(p);
    if (parse_value(p, &st->value) != SL_OK || parse_returning(p, st) != SL_OK)
      return p->err;
    return SL_OK;
  }
  if (kw(p, "UPDATE")) {
    st->kind = SL_PQL_UPDATE;
    return parse_update(p, st);
  }
  if (kw(p, "DELETE")) {
    st->kind = SL_PQL_DELETE;
    advance(p);
    if (expect_kw(p, "FROM") != SL_OK || parse_target(p, st) != SL_OK ||
        parse_where(p, st) != SL_OK || parse_returning(p, st) != SL_OK)
      return p->err;
    return SL_OK;
  }
  if (kw(p, "EXISTS")) {
    st->kind = SL_PQL_EXISTS;
    advance(p);
    if (expect(p, "(") != SL_OK)
      return p->err;
    if (!kw(p, "SELECT"))
      return malformed(p);
    if (parse_select(p, st) != SL_OK || expect(p, ")") != SL_OK)
      return p->err;
    st->kind = SL_PQL_EXISTS;
    return SL_OK;
  }
  return malformed(p);
}

sl_err sl_pql_parse(sl_arena *a, sl_failure *f, sl_str text, sl_pql_stmt **out) {
  parser p = {.a = a, .f = f, .text = text};
  sl__pql_lex_init(&p.lx, a, text);
  advance(&p);
  sl_pql_stmt *st = SL_NEW(a, sl_pql_stmt);
  st->text = text;
  if (parse_stmt(&p, st) != SL_OK)
    return p.err;
  if (sl__pql_tok_is(&p.tok, ";")) /* one terminating semicolon (DynamoDB Local) */
    advance(&p);
  if (p.tok.kind != SL_PQL_T_EOF)
    return malformed(&p);
  st->n_params = p.n_params;
  *out = st;
  return SL_OK;
}
