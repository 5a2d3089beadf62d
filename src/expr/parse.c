/*
 * The lexer and the recursive-descent parsers of the four expression
 * grammars (pass 1; see expr.h and expr_int.h).
 *
 * Tokens (the service's, observed on DynamoDB Local):
 *   names      [A-Za-z][A-Za-z0-9_]*; AND OR NOT BETWEEN IN SET REMOVE ADD
 *              DELETE are keywords in every grammar, in any case ("a.set" and
 *              "and = :v" are syntax errors)
 *   #name      '#' [A-Za-z0-9_]+          :value  ':' [A-Za-z0-9_]+
 *   numbers    0 | [1-9][0-9]*  ("a[01]" fails on the token "1")
 *   symbols    ( ) [ ] , . = <> < <= > >= + -
 *   spaces     ' ' \t \n \r between tokens
 *   anything else is a one-character token that no rule accepts ("$", "!",
 *   "é", a no-break space), so it surfaces as a syntax error.
 *
 * A syntax error reads: Syntax error; token: "<t>", near: "<text>", where t is
 * the offending token ("<EOF>" at the end) and text runs from the start of
 * the token before it (or the start of the expression) to the end of the
 * token after it (or the end of the expression): "a = = b" -> token "=",
 * near "= = b"; "a = :v AND" -> token "<EOF>", near "AND".
 *
 * Precedence, lowest first: OR, AND, NOT, then comparisons, BETWEEN, IN and
 * functions; parentheses group. A parenthesised operand is allowed
 * ("(a) = :v") but two pairs of parentheses around the same thing are the
 * error "The expression has redundant parentheses;", raised as soon as the
 * second pair closes (before any later syntax error, as the service does).
 */
#include "expr/expr_int.h"

#include <stdio.h>

typedef enum {
  T_EOF = 0,
  T_BAD,
  T_NAME,
  T_NAMEREF,
  T_VALREF,
  T_NUMBER,
  T_LPAREN,
  T_RPAREN,
  T_LBRACK,
  T_RBRACK,
  T_COMMA,
  T_DOT,
  T_EQ,
  T_NE,
  T_LT,
  T_LE,
  T_GT,
  T_GE,
  T_PLUS,
  T_MINUS,
  T_AND,
  T_OR,
  T_NOT,
  T_BETWEEN,
  T_IN,
  T_SET,
  T_REMOVE,
  T_ADD,
  T_DELETE,
} tok_kind;

typedef struct {
  uint8_t kind;
  uint32_t pos, len;
} tok;

typedef struct {
  sl_expr_ctx *cx;
  const char *s;
  uint32_t len;
  tok cur;
  tok prev;
  bool has_prev;
  tok next; /* the token after cur, once peeked */
  bool has_next;
  uint32_t n_ops;
  uint32_t depth; /* open parentheses */
  sl_str reserved;
} parser;

/* Parentheses nest at most this deep. Legal expressions cannot get near it
 * (each level beyond two needs an operator, and there are at most 300); it
 * bounds the recursion on inputs like "((((((((". */
#define MAX_NESTING 1000

/* Character classes: 1 letter, 2 digit, 4 '_', 8 space. */
enum { C_ALPHA = 1, C_DIGIT = 2, C_UNDER = 4, C_SPACE = 8 };
static const uint8_t cclass[256] = {
    ['\t'] = C_SPACE, ['\n'] = C_SPACE,        ['\r'] = C_SPACE,        [' '] = C_SPACE,
    ['_'] = C_UNDER,  ['0' ... '9'] = C_DIGIT, ['A' ... 'Z'] = C_ALPHA, ['a' ... 'z'] = C_ALPHA,
};

static bool is_alpha(char c) { return cclass[(unsigned char)c] & C_ALPHA; }
static bool is_digit(char c) { return cclass[(unsigned char)c] & C_DIGIT; }
static bool is_word(char c) { return cclass[(unsigned char)c] & (C_ALPHA | C_DIGIT | C_UNDER); }
static bool is_space(char c) { return cclass[(unsigned char)c] & C_SPACE; }

static bool word_is(const char *p, uint32_t len, const char *kw) {
  size_t n = strlen(kw);
  if (n != len)
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c >= 'a' && c <= 'z')
      c = (char)(c - 'a' + 'A');
    if (c != kw[i])
      return false;
  }
  return true;
}

static uint8_t keyword(const char *p, uint32_t len) {
  switch (len) {
  case 2:
    if (word_is(p, len, "OR"))
      return T_OR;
    if (word_is(p, len, "IN"))
      return T_IN;
    break;
  case 3:
    if (word_is(p, len, "AND"))
      return T_AND;
    if (word_is(p, len, "NOT"))
      return T_NOT;
    if (word_is(p, len, "SET"))
      return T_SET;
    if (word_is(p, len, "ADD"))
      return T_ADD;
    break;
  case 6:
    if (word_is(p, len, "REMOVE"))
      return T_REMOVE;
    if (word_is(p, len, "DELETE"))
      return T_DELETE;
    break;
  case 7:
    if (word_is(p, len, "BETWEEN"))
      return T_BETWEEN;
    break;
  }
  return T_NAME;
}

/* The token starting at or after 'pos', into '*t'. Locals, written once at
 * the end: returning the struct by value, or counting in '*t', cost a
 * store-forwarding stall or a store per character. */
static void lex_into(const char *s, uint32_t len, uint32_t pos, tok *t) {
  while (pos < len && is_space(s[pos]))
    pos++;
  uint8_t kind = T_EOF;
  uint32_t n = 0;
  if (pos < len) {
    const char *p = s + pos;
    uint32_t rest = len - pos;
    char c = p[0];
    n = 1;
    if (is_alpha(c)) {
      while (n < rest && is_word(p[n]))
        n++;
      kind = keyword(p, n);
    } else if (c == '#' || c == ':') {
      while (n < rest && is_word(p[n]))
        n++;
      kind = n > 1 ? (c == '#' ? T_NAMEREF : T_VALREF) : T_BAD;
    } else if (is_digit(c)) {
      if (c != '0')
        while (n < rest && is_digit(p[n]))
          n++;
      kind = T_NUMBER;
    } else {
      switch (c) {
      case '(':
        kind = T_LPAREN;
        break;
      case ')':
        kind = T_RPAREN;
        break;
      case '[':
        kind = T_LBRACK;
        break;
      case ']':
        kind = T_RBRACK;
        break;
      case ',':
        kind = T_COMMA;
        break;
      case '.':
        kind = T_DOT;
        break;
      case '=':
        kind = T_EQ;
        break;
      case '+':
        kind = T_PLUS;
        break;
      case '-':
        kind = T_MINUS;
        break;
      case '<':
        kind = rest > 1 && p[1] == '>' ? T_NE : rest > 1 && p[1] == '=' ? T_LE : T_LT;
        n = kind == T_LT ? 1 : 2;
        break;
      case '>':
        kind = rest > 1 && p[1] == '=' ? T_GE : T_GT;
        n = kind == T_GT ? 1 : 2;
        break;
      default: {
        /* One character, however many UTF-8 bytes it takes. */
        unsigned char u = (unsigned char)c;
        uint32_t w = u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC0 ? 2 : 1;
        n = w < rest ? w : rest;
        kind = T_BAD;
        break;
      }
      }
    }
  }
  t->kind = kind;
  t->pos = pos;
  t->len = n;
}

static tok lex_at(const char *s, uint32_t len, uint32_t pos) {
  tok t;
  lex_into(s, len, pos, &t);
  return t;
}

static void advance(parser *ps) {
  ps->prev = ps->cur;
  ps->has_prev = true;
  if (ps->has_next)
    ps->cur = ps->next;
  else
    lex_into(ps->s, ps->len, ps->cur.pos + ps->cur.len, &ps->cur);
  ps->has_next = false;
}

static uint8_t peek(parser *ps) {
  if (!ps->has_next) {
    lex_into(ps->s, ps->len, ps->cur.pos + ps->cur.len, &ps->next);
    ps->has_next = true;
  }
  return ps->next.kind;
}

static void parser_init(parser *ps, sl_expr_ctx *cx, sl_str text) {
  memset(ps, 0, sizeof(*ps));
  ps->cx = cx;
  ps->s = text.p;
  ps->len = (uint32_t)text.len;
  lex_into(ps->s, ps->len, 0, &ps->cur);
}

static sl_err syntax_error(parser *ps) {
  tok t = ps->cur;
  uint32_t start = ps->has_prev ? ps->prev.pos : 0;
  uint32_t end = ps->len;
  if (t.kind != T_EOF) {
    tok next = lex_at(ps->s, ps->len, t.pos + t.len);
    if (next.kind != T_EOF)
      end = next.pos + next.len;
  }
  if (t.kind == T_EOF)
    return sl__expr_fail(ps->cx, "Syntax error; token: \"<EOF>\", near: \"%.*s\"",
                         (int)(end - start), ps->s + start);
  return sl__expr_fail(ps->cx, "Syntax error; token: \"%.*s\", near: \"%.*s\"", (int)t.len,
                       ps->s + t.pos, (int)(end - start), ps->s + start);
}

static sl_err expect(parser *ps, uint8_t kind) {
  if (ps->cur.kind != kind)
    return syntax_error(ps);
  advance(ps);
  return SL_OK;
}

static sl_err count_op(parser *ps) {
  if (++ps->n_ops > SL_EXPR_MAX_OPERATORS)
    return sl__expr_fail(ps->cx, "The expression contains too many operators; operator count: %u",
                         ps->n_ops);
  return SL_OK;
}

static sl_str tok_str(const parser *ps, tok t) { return (sl_str){ps->s + t.pos, t.len}; }

/* ---- paths ---- */

/* Is word one of DynamoDB's reserved words (case-insensitive)? A binary search
 * among the words of its first letter. */
static bool is_reserved(sl_str word) {
  char up[16];
  if (word.len == 0 || word.len > sizeof(up))
    return false;
  for (size_t i = 0; i < word.len; i++) {
    char c = word.p[i];
    up[i] = (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  }
  if (up[0] < 'A' || up[0] > 'Z')
    return false;
  size_t lo = sl__reserved_first[up[0] - 'A'], hi = sl__reserved_first[up[0] - 'A' + 1];
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const sl__reserved_word *w = &sl__reserved_words[mid];
    size_t n = w->len < word.len ? w->len : word.len;
    int c = memcmp(w->s, up, n);
    if (c == 0)
      c = (w->len > word.len) - (w->len < word.len);
    if (c == 0)
      return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

static sl_err parse_path(parser *ps, sl_expr_path *out) {
  sl_expr_elem small[SL_EXPR_MAX_DEPTH];
  uint32_t n = 0, cap = SL_EXPR_MAX_DEPTH;
  sl_expr_elem *e = small;
  sl_err err;
  for (;;) {
    sl_expr_elem el = {0};
    if (ps->cur.kind == T_NAME) {
      el.kind = SL_EXPR_ELEM_NAME;
      el.name = tok_str(ps, ps->cur);
      if (!ps->reserved.len && is_reserved(el.name))
        ps->reserved = el.name;
    } else if (ps->cur.kind == T_NAMEREF) {
      el.kind = SL_EXPR_ELEM_REF;
      el.name = tok_str(ps, ps->cur);
    } else {
      return syntax_error(ps);
    }
    advance(ps);
    for (;;) {
      if (n == cap) {
        sl_expr_elem *bigger = SL_NEW_ARRAY(ps->cx->arena, sl_expr_elem, cap * 2);
        memcpy(bigger, e, n * sizeof(*e));
        e = bigger;
        cap *= 2;
      }
      e[n++] = el;
      if (ps->cur.kind != T_LBRACK)
        break;
      advance(ps);
      if (ps->cur.kind != T_NUMBER)
        return syntax_error(ps);
      tok num = ps->cur;
      uint64_t v = 0;
      bool big = num.len > 10;
      for (uint32_t i = 0; i < num.len && !big; i++)
        v = v * 10 + (uint64_t)(ps->s[num.pos + i] - '0');
      if (big || v > INT32_MAX)
        return sl__expr_fail(ps->cx, "List index is not within the allowable range; index: [%.*s]",
                             (int)num.len, ps->s + num.pos);
      advance(ps);
      if ((err = expect(ps, T_RBRACK)) != SL_OK)
        return err;
      el = (sl_expr_elem){.kind = SL_EXPR_ELEM_INDEX, .index = (uint32_t)v};
    }
    if (ps->cur.kind != T_DOT)
      break;
    advance(ps);
  }
  if (n > SL_EXPR_MAX_DEPTH)
    return sl__expr_fail(ps->cx,
                         "The document path has too many nesting levels; nesting levels: %u", n);
  out->n = n;
  out->e = SL_NEW_ARRAY(ps->cx->arena, sl_expr_elem, n);
  memcpy(out->e, e, n * sizeof(*e));
  return SL_OK;
}

/* ---- operands ---- */

static const struct {
  const char *name;
  sl_expr_op op;
} functions[] = {
    {"attribute_exists", SL_EXPR_OP_ATTRIBUTE_EXISTS},
    {"attribute_not_exists", SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS},
    {"attribute_type", SL_EXPR_OP_ATTRIBUTE_TYPE},
    {"begins_with", SL_EXPR_OP_BEGINS_WITH},
    {"contains", SL_EXPR_OP_CONTAINS},
    {"size", SL_EXPR_OP_SIZE},
    {"if_not_exists", SL_EXPR_OP_IF_NOT_EXISTS},
    {"list_append", SL_EXPR_OP_LIST_APPEND},
};

static sl_expr_op function_op(sl_str name) {
  for (size_t i = 0; i < SL_ARRAY_LEN(functions); i++)
    if (sl_str_eq_c(name, functions[i].name))
      return functions[i].op;
  return SL_EXPR_OP_UNKNOWN_FUNCTION;
}

static sl_err open_paren(parser *ps) {
  if (ps->depth >= MAX_NESTING)
    return syntax_error(ps);
  ps->depth++;
  advance(ps);
  return SL_OK;
}

static sl_err close_paren(parser *ps, sl_expr_node *inner) {
  sl_err err = expect(ps, T_RPAREN);
  if (err != SL_OK)
    return err;
  ps->depth--;
  if (++inner->parens >= 2)
    return sl__expr_fail(ps->cx, "The expression has redundant parentheses;");
  return SL_OK;
}

typedef sl_err (*operand_fn)(parser *ps, sl_expr_node **out);

/* name '(' arg {',' arg} ')' with the current token on the name. */
static sl_err parse_call(parser *ps, operand_fn arg, sl_expr_node **out) {
  sl_str name = tok_str(ps, ps->cur);
  sl_err err;
  advance(ps);
  advance(ps); /* '(' */
  sl_expr_node *small[8];
  sl_expr_node **args = small;
  uint32_t n = 0, cap = 8;
  for (;;) {
    if (n == cap) {
      sl_expr_node **bigger = SL_NEW_ARRAY(ps->cx->arena, sl_expr_node *, cap * 2);
      memcpy(bigger, args, n * sizeof(*args));
      args = bigger;
      cap *= 2;
    }
    if ((err = arg(ps, &args[n++])) != SL_OK)
      return err;
    if (ps->cur.kind != T_COMMA)
      break;
    advance(ps);
  }
  if ((err = expect(ps, T_RPAREN)) != SL_OK)
    return err;
  if ((err = count_op(ps)) != SL_OK)
    return err;
  sl_expr_node *node = sl__expr_node(ps->cx->arena, function_op(name), (uint16_t)n);
  node->text = name;
  memcpy(node->args, args, n * sizeof(*args));
  *out = node;
  return SL_OK;
}

/* path | :value | function(...) | '(' operand ')' — an operand of a
 * comparison, BETWEEN, IN or a function argument. */
static sl_err parse_operand(parser *ps, sl_expr_node **out) {
  sl_err err;
  switch (ps->cur.kind) {
  case T_VALREF: {
    sl_expr_node *node = SL_NEW(ps->cx->arena, sl_expr_node);
    node->op = SL_EXPR_OP_VALUE;
    node->text = tok_str(ps, ps->cur);
    advance(ps);
    *out = node;
    return SL_OK;
  }
  case T_NAME:
    if (peek(ps) == T_LPAREN)
      return parse_call(ps, parse_operand, out);
    /* fall through */
  case T_NAMEREF: {
    sl_expr_path p;
    if ((err = parse_path(ps, &p)) != SL_OK)
      return err;
    *out = sl__expr_path_node(ps->cx->arena, &p);
    return SL_OK;
  }
  case T_LPAREN:
    if ((err = open_paren(ps)) != SL_OK)
      return err;
    if ((err = parse_operand(ps, out)) != SL_OK)
      return err;
    return close_paren(ps, *out);
  default:
    return syntax_error(ps);
  }
}

/* ---- conditions ---- */

static bool is_bool(const sl_expr_node *n) {
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_PATH:
  case SL_EXPR_OP_VALUE:
  case SL_EXPR_OP_PLUS:
  case SL_EXPR_OP_MINUS:
    return false;
  default:
    return true; /* functions are sorted out by the resolver */
  }
}

static sl_err parse_or(parser *ps, sl_expr_node **out);

/* A non-boolean operand where a condition is required: the service's
 * grammar fails on the token after it. */
static sl_err need_bool(parser *ps, const sl_expr_node *n) {
  return is_bool(n) ? SL_OK : syntax_error(ps);
}

static sl_expr_op comparator(uint8_t kind) {
  switch (kind) {
  case T_EQ:
    return SL_EXPR_OP_EQ;
  case T_NE:
    return SL_EXPR_OP_NE;
  case T_LT:
    return SL_EXPR_OP_LT;
  case T_LE:
    return SL_EXPR_OP_LE;
  case T_GT:
    return SL_EXPR_OP_GT;
  case T_GE:
    return SL_EXPR_OP_GE;
  default:
    return SL_EXPR_OP_PATH; /* not a comparator */
  }
}

static sl_err parse_predicate(parser *ps, sl_expr_node **out) {
  sl_expr_node *left;
  sl_err err;
  if (ps->cur.kind == T_LPAREN) {
    if ((err = open_paren(ps)) != SL_OK)
      return err;
    if ((err = parse_or(ps, &left)) != SL_OK)
      return err;
    if ((err = close_paren(ps, left)) != SL_OK)
      return err;
    if (is_bool(left) && left->op != SL_EXPR_OP_SIZE && left->op != SL_EXPR_OP_UNKNOWN_FUNCTION) {
      *out = left;
      if (comparator(ps->cur.kind) != SL_EXPR_OP_PATH || ps->cur.kind == T_BETWEEN ||
          ps->cur.kind == T_IN)
        return syntax_error(ps);
      return SL_OK;
    }
  } else if ((err = parse_operand(ps, &left)) != SL_OK) {
    return err;
  }
  sl_expr_op op = comparator(ps->cur.kind);
  sl_expr_node *node;
  if (op != SL_EXPR_OP_PATH) {
    advance(ps);
    if ((err = count_op(ps)) != SL_OK)
      return err;
    node = sl__expr_node(ps->cx->arena, op, 2);
    node->args[0] = left;
    if ((err = parse_operand(ps, &node->args[1])) != SL_OK)
      return err;
  } else if (ps->cur.kind == T_BETWEEN) {
    advance(ps);
    if ((err = count_op(ps)) != SL_OK)
      return err;
    node = sl__expr_node(ps->cx->arena, SL_EXPR_OP_BETWEEN, 3);
    node->args[0] = left;
    if ((err = parse_operand(ps, &node->args[1])) != SL_OK)
      return err;
    if ((err = expect(ps, T_AND)) != SL_OK)
      return err;
    if ((err = parse_operand(ps, &node->args[2])) != SL_OK)
      return err;
  } else if (ps->cur.kind == T_IN) {
    advance(ps);
    if ((err = count_op(ps)) != SL_OK)
      return err;
    if ((err = expect(ps, T_LPAREN)) != SL_OK)
      return err;
    sl_expr_node *small[SL_EXPR_MAX_IN + 1];
    sl_expr_node **args = small;
    uint32_t n = 1, cap = SL_ARRAY_LEN(small);
    args[0] = left;
    for (;;) {
      if (n == cap) {
        sl_expr_node **bigger = SL_NEW_ARRAY(ps->cx->arena, sl_expr_node *, cap * 2);
        memcpy(bigger, args, n * sizeof(*args));
        args = bigger;
        cap *= 2;
      }
      if ((err = parse_operand(ps, &args[n++])) != SL_OK)
        return err;
      if (ps->cur.kind != T_COMMA)
        break;
      advance(ps);
    }
    if ((err = expect(ps, T_RPAREN)) != SL_OK)
      return err;
    if (n - 1 > SL_EXPR_MAX_IN)
      return sl__expr_fail(
          ps->cx, "The IN operator is provided with too many operands; number of operands: %u",
          n - 1);
    node = sl__expr_node(ps->cx->arena, SL_EXPR_OP_IN, (uint16_t)n);
    memcpy(node->args, args, n * sizeof(*args));
  } else {
    node = left; /* a lone operand: a function, or an error for the caller */
  }
  *out = node;
  return SL_OK;
}

static sl_err parse_not(parser *ps, sl_expr_node **out) {
  sl_err err;
  if (ps->cur.kind != T_NOT)
    return parse_predicate(ps, out);
  advance(ps);
  if ((err = count_op(ps)) != SL_OK)
    return err;
  sl_expr_node *node = sl__expr_node(ps->cx->arena, SL_EXPR_OP_NOT, 1);
  if ((err = parse_not(ps, &node->args[0])) != SL_OK)
    return err;
  if ((err = need_bool(ps, node->args[0])) != SL_OK)
    return err;
  *out = node;
  return SL_OK;
}

static sl_err parse_binary(parser *ps, uint8_t tkind, sl_expr_op op,
                           sl_err (*sub)(parser *, sl_expr_node **), sl_expr_node **out) {
  sl_expr_node *left;
  sl_err err = sub(ps, &left);
  if (err != SL_OK)
    return err;
  while (ps->cur.kind == tkind) {
    if ((err = need_bool(ps, left)) != SL_OK)
      return err;
    advance(ps);
    if ((err = count_op(ps)) != SL_OK)
      return err;
    sl_expr_node *node = sl__expr_node(ps->cx->arena, op, 2);
    node->args[0] = left;
    if ((err = sub(ps, &node->args[1])) != SL_OK)
      return err;
    if ((err = need_bool(ps, node->args[1])) != SL_OK)
      return err;
    left = node;
  }
  *out = left;
  return SL_OK;
}

static sl_err parse_and(parser *ps, sl_expr_node **out) {
  return parse_binary(ps, T_AND, SL_EXPR_OP_AND, parse_not, out);
}

static sl_err parse_or(parser *ps, sl_expr_node **out) {
  return parse_binary(ps, T_OR, SL_EXPR_OP_OR, parse_and, out);
}

static sl_err check_text(sl_expr_ctx *cx, sl_str text) {
  if (text.len == 0)
    return sl__expr_fail(cx, "The expression can not be empty;");
  if (text.len > SL_EXPR_MAX_LEN) {
    /* Only the conditions give the size (observed). */
    if (cx->param == SL_EXPR_UPDATE || cx->param == SL_EXPR_PROJECTION)
      return sl__expr_fail(cx, "Expression size has exceeded the maximum allowed size;");
    return sl__expr_fail(
        cx, "Expression size has exceeded the maximum allowed size; expression size: %zu",
        text.len);
  }
  return SL_OK;
}

sl_err sl__expr_parse_condition(sl_expr_ctx *cx, sl_str text, sl_expr **out, sl__expr_parsed *pr) {
  parser ps;
  sl_err err = check_text(cx, text);
  if (err != SL_OK)
    return err;
  parser_init(&ps, cx, text);
  sl_expr_node *root;
  if ((err = parse_or(&ps, &root)) != SL_OK)
    return err;
  if ((err = need_bool(&ps, root)) != SL_OK)
    return err;
  if (ps.cur.kind != T_EOF)
    return syntax_error(&ps);
  pr->reserved = ps.reserved;
  *out = root;
  return SL_OK;
}

/* ---- update expressions ---- */

static sl_err parse_set_operand(parser *ps, sl_expr_node **out);

/* operand [('+' | '-') operand] */
static sl_err parse_set_value(parser *ps, sl_expr_node **out) {
  sl_expr_node *left;
  sl_err err = parse_set_operand(ps, &left);
  if (err != SL_OK)
    return err;
  if (ps->cur.kind == T_PLUS || ps->cur.kind == T_MINUS) {
    sl_expr_op op = ps->cur.kind == T_PLUS ? SL_EXPR_OP_PLUS : SL_EXPR_OP_MINUS;
    advance(ps);
    if ((err = count_op(ps)) != SL_OK)
      return err;
    sl_expr_node *node = sl__expr_node(ps->cx->arena, op, 2);
    node->args[0] = left;
    if ((err = parse_set_operand(ps, &node->args[1])) != SL_OK)
      return err;
    left = node;
  }
  *out = left;
  return SL_OK;
}

static sl_err parse_set_operand(parser *ps, sl_expr_node **out) {
  sl_err err;
  switch (ps->cur.kind) {
  case T_NAME:
    if (peek(ps) == T_LPAREN)
      return parse_call(ps, parse_set_operand, out);
    /* fall through */
  case T_NAMEREF:
  case T_VALREF:
    return parse_operand(ps, out);
  case T_LPAREN:
    if ((err = open_paren(ps)) != SL_OK)
      return err;
    if ((err = parse_set_value(ps, out)) != SL_OK)
      return err;
    return close_paren(ps, *out);
  default:
    return syntax_error(ps);
  }
}

static const char *const section_names[] = {"SET", "REMOVE", "ADD", "DELETE"};

sl_err sl__expr_parse_update(sl_expr_ctx *cx, sl_str text, sl_expr_update **out,
                             sl__expr_parsed *pr) {
  parser ps;
  sl_err err = check_text(cx, text);
  if (err != SL_OK)
    return err;
  parser_init(&ps, cx, text);
  bool seen[4] = {false, false, false, false};
  sl_expr_action small[16];
  sl_expr_action *acts = small;
  uint32_t n = 0, cap = SL_ARRAY_LEN(small);
  do {
    sl_expr_action_kind kind;
    switch (ps.cur.kind) {
    case T_SET:
      kind = SL_EXPR_SET;
      break;
    case T_REMOVE:
      kind = SL_EXPR_REMOVE;
      break;
    case T_ADD:
      kind = SL_EXPR_ADD;
      break;
    case T_DELETE:
      kind = SL_EXPR_DELETE;
      break;
    default:
      return syntax_error(&ps);
    }
    if (seen[kind])
      return sl__expr_fail(cx, "The \"%s\" section can only be used once in an update expression;",
                           section_names[kind]);
    seen[kind] = true;
    advance(&ps);
    for (;;) {
      if (n == cap) {
        sl_expr_action *bigger = SL_NEW_ARRAY(cx->arena, sl_expr_action, cap * 2);
        memcpy(bigger, acts, n * sizeof(*acts));
        acts = bigger;
        cap *= 2;
      }
      sl_expr_action *a = &acts[n++];
      memset(a, 0, sizeof(*a));
      a->kind = (uint8_t)kind;
      if ((err = parse_path(&ps, &a->path)) != SL_OK)
        return err;
      if (kind == SL_EXPR_SET) {
        if ((err = expect(&ps, T_EQ)) != SL_OK)
          return err;
        if ((err = parse_set_value(&ps, &a->value)) != SL_OK)
          return err;
      } else if (kind == SL_EXPR_ADD || kind == SL_EXPR_DELETE) {
        if (ps.cur.kind != T_VALREF)
          return syntax_error(&ps);
        if ((err = parse_operand(&ps, &a->value)) != SL_OK)
          return err;
      }
      if (ps.cur.kind != T_COMMA)
        break;
      advance(&ps);
    }
  } while (ps.cur.kind != T_EOF);
  sl_expr_update *u = SL_NEW(cx->arena, sl_expr_update);
  u->n = n;
  u->acts = SL_NEW_ARRAY(cx->arena, sl_expr_action, n);
  memcpy(u->acts, acts, n * sizeof(*acts));
  pr->reserved = ps.reserved;
  *out = u;
  return SL_OK;
}

/* ---- projections ---- */

sl_err sl__expr_parse_projection(sl_expr_ctx *cx, sl_str text, sl_expr_proj **out,
                                 sl__expr_parsed *pr) {
  parser ps;
  sl_err err = check_text(cx, text);
  if (err != SL_OK)
    return err;
  parser_init(&ps, cx, text);
  sl_expr_path small[16];
  sl_expr_path *paths = small;
  uint32_t n = 0, cap = SL_ARRAY_LEN(small);
  for (;;) {
    if (n == cap) {
      sl_expr_path *bigger = SL_NEW_ARRAY(cx->arena, sl_expr_path, cap * 2);
      memcpy(bigger, paths, n * sizeof(*paths));
      paths = bigger;
      cap *= 2;
    }
    if ((err = parse_path(&ps, &paths[n++])) != SL_OK)
      return err;
    if (ps.cur.kind != T_COMMA)
      break;
    advance(&ps);
  }
  if (ps.cur.kind != T_EOF)
    return syntax_error(&ps);
  sl_expr_proj *p = SL_NEW(cx->arena, sl_expr_proj);
  p->n = n;
  p->paths = SL_NEW_ARRAY(cx->arena, sl_expr_path, n);
  memcpy(p->paths, paths, n * sizeof(*paths));
  pr->reserved = ps.reserved;
  *out = p;
  return SL_OK;
}
