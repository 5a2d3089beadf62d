/* The tokens of a PartiQL statement; see partiql.h and pql_int.h. */
#include "partiql/pql_int.h"

void sl__pql_lex_init(sl_pql_lexer *lx, sl_arena *a, sl_str src) {
  lx->a = a;
  lx->src = src;
  lx->pos = 0;
}

static bool is_word_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A quoted text from lx->pos (at the opening quote); a doubled quote stands
 * for one. */
static sl_pql_tok quoted(sl_pql_lexer *lx, char q, uint8_t kind) {
  const char *p = lx->src.p;
  size_t i = lx->pos + 1, n = lx->src.len;
  bool escaped = false;
  for (;;) {
    if (i >= n)
      return (sl_pql_tok){SL_PQL_T_ERROR, {p + lx->pos, n - lx->pos}};
    if (p[i] == q) {
      if (i + 1 < n && p[i + 1] == q) {
        escaped = true;
        i += 2;
        continue;
      }
      break;
    }
    i++;
  }
  sl_str body = {p + lx->pos + 1, i - lx->pos - 1};
  lx->pos = i + 1;
  if (escaped) {
    char *out = sl_arena_alloc(lx->a, body.len ? body.len : 1);
    size_t k = 0;
    for (size_t j = 0; j < body.len; j++) {
      out[k++] = body.p[j];
      if (body.p[j] == q)
        j++;
    }
    body = (sl_str){out, k};
  }
  return (sl_pql_tok){kind, body};
}

sl_pql_tok sl__pql_lex_next(sl_pql_lexer *lx) {
  const char *p = lx->src.p;
  size_t n = lx->src.len;
  for (;;) {
    while (lx->pos < n && (p[lx->pos] == ' ' || p[lx->pos] == '\t' || p[lx->pos] == '\n' ||
                           p[lx->pos] == '\r' || p[lx->pos] == '\f'))
      lx->pos++;
    /* -- line comments and block comments */
    if (lx->pos + 1 < n && p[lx->pos] == '-' && p[lx->pos + 1] == '-') {
      while (lx->pos < n && p[lx->pos] != '\n')
        lx->pos++;
      continue;
    }
    if (lx->pos + 1 < n && p[lx->pos] == '/' && p[lx->pos + 1] == '*') {
      size_t i = lx->pos + 2;
      while (i + 1 < n && !(p[i] == '*' && p[i + 1] == '/'))
        i++;
      if (i + 1 >= n)
        return (sl_pql_tok){SL_PQL_T_ERROR, {p + lx->pos, n - lx->pos}};
      lx->pos = i + 2;
      continue;
    }
    break;
  }
  if (lx->pos >= n)
    return (sl_pql_tok){SL_PQL_T_EOF, {p + n, 0}};
  size_t s = lx->pos;
  char c = p[s];
  if (is_word_start(c)) {
    size_t i = s + 1;
    while (i < n && (is_word_start(p[i]) || is_digit(p[i])))
      i++;
    lx->pos = i;
    return (sl_pql_tok){SL_PQL_T_IDENT, {p + s, i - s}};
  }
  if (is_digit(c) || (c == '.' && s + 1 < n && is_digit(p[s + 1]))) {
    size_t i = s;
    while (i < n && is_digit(p[i]))
      i++;
    if (i < n && p[i] == '.') {
      i++;
      while (i < n && is_digit(p[i]))
        i++;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
      size_t j = i + 1;
      if (j < n && (p[j] == '+' || p[j] == '-'))
        j++;
      if (j < n && is_digit(p[j])) {
        while (j < n && is_digit(p[j]))
          j++;
        i = j;
      }
    }
    lx->pos = i;
    return (sl_pql_tok){SL_PQL_T_NUMBER, {p + s, i - s}};
  }
  if (c == '\'')
    return quoted(lx, '\'', SL_PQL_T_STRING);
  if (c == '"')
    return quoted(lx, '"', SL_PQL_T_QIDENT);
  if (c == '?') {
    lx->pos++;
    return (sl_pql_tok){SL_PQL_T_PARAM, {p + s, 1}};
  }
  static const char *const two[] = {"<<", ">>", "<>", "!=", "<=", ">="};
  for (size_t k = 0; k < sizeof two / sizeof two[0]; k++)
    if (s + 1 < n && p[s] == two[k][0] && p[s + 1] == two[k][1]) {
      lx->pos += 2;
      return (sl_pql_tok){SL_PQL_T_PUNCT, {p + s, 2}};
    }
  if (strchr("()[]{},.:*=<>+-;", c) && c != '\0') {
    lx->pos++;
    return (sl_pql_tok){SL_PQL_T_PUNCT, {p + s, 1}};
  }
  lx->pos = n;
  return (sl_pql_tok){SL_PQL_T_ERROR, {p + s, 1}};
}

bool sl__pql_tok_is_kw(const sl_pql_tok *t, const char *kw) {
  return t->kind == SL_PQL_T_IDENT && sl_str_eq_nocase(t->text, sl_str_c(kw));
}

bool sl__pql_tok_is(const sl_pql_tok *t, const char *punct) {
  return t->kind == SL_PQL_T_PUNCT && sl_str_eq_c(t->text, punct);
}
