/*
 * Readable forms of expression trees, for unit tests and logs (see expr.h):
 * prefix notation for operators, a.b[1].c for paths, DynamoDB JSON for
 * values.
 */
#include "expr/expr_int.h"

static bool plain_name(sl_str s) {
  if (s.len == 0)
    return false;
  for (size_t i = 0; i < s.len; i++) {
    char c = s.p[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
              (i > 0 && c >= '0' && c <= '9');
    if (!ok)
      return false;
  }
  return true;
}

void sl_expr_print_path(sl_buf *b, const sl_expr_path *p) {
  for (uint32_t i = 0; i < p->n; i++) {
    const sl_expr_elem *e = &p->e[i];
    if (e->kind == SL_EXPR_ELEM_INDEX) {
      sl_buf_printf(b, "[%u]", e->index);
      continue;
    }
    if (i)
      sl_buf_putc(b, '.');
    if (e->kind == SL_EXPR_ELEM_NAME && !plain_name(e->name)) {
      sl_buf_putc(b, '`');
      sl_buf_puts(b, e->name);
      sl_buf_putc(b, '`');
    } else {
      sl_buf_puts(b, e->name);
    }
  }
}

static void print_value(sl_buf *b, const sl_av *v) {
  sl_jw w;
  sl_jw_init(&w, b);
  sl_av_write_json(&w, v);
}

static const char *op_name(uint8_t op) {
  static const char *const names[] = {
      [SL_EXPR_OP_EQ] = "=",
      [SL_EXPR_OP_NE] = "<>",
      [SL_EXPR_OP_LT] = "<",
      [SL_EXPR_OP_LE] = "<=",
      [SL_EXPR_OP_GT] = ">",
      [SL_EXPR_OP_GE] = ">=",
      [SL_EXPR_OP_BETWEEN] = "BETWEEN",
      [SL_EXPR_OP_IN] = "IN",
      [SL_EXPR_OP_AND] = "AND",
      [SL_EXPR_OP_OR] = "OR",
      [SL_EXPR_OP_NOT] = "NOT",
      [SL_EXPR_OP_ATTRIBUTE_EXISTS] = "attribute_exists",
      [SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS] = "attribute_not_exists",
      [SL_EXPR_OP_ATTRIBUTE_TYPE] = "attribute_type",
      [SL_EXPR_OP_BEGINS_WITH] = "begins_with",
      [SL_EXPR_OP_CONTAINS] = "contains",
      [SL_EXPR_OP_SIZE] = "size",
      [SL_EXPR_OP_IF_NOT_EXISTS] = "if_not_exists",
      [SL_EXPR_OP_LIST_APPEND] = "list_append",
      [SL_EXPR_OP_UNKNOWN_FUNCTION] = "?",
      [SL_EXPR_OP_PLUS] = "+",
      [SL_EXPR_OP_MINUS] = "-",
  };
  return op < SL_ARRAY_LEN(names) && names[op] ? names[op] : "?";
}

void sl_expr_print(sl_buf *b, const sl_expr_node *n) {
  if (!n) {
    sl_buf_puts(b, SL_STR("(true)"));
    return;
  }
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_PATH:
    sl_expr_print_path(b, &n->path);
    return;
  case SL_EXPR_OP_VALUE:
    if (n->value)
      print_value(b, n->value);
    else
      sl_buf_puts(b, n->text);
    return;
  default:
    break;
  }
  sl_buf_putc(b, '(');
  if (n->op == SL_EXPR_OP_UNKNOWN_FUNCTION)
    sl_buf_puts(b, n->text);
  else
    sl_buf_printf(b, "%s", op_name(n->op));
  for (uint16_t i = 0; i < n->n; i++) {
    sl_buf_putc(b, ' ');
    sl_expr_print(b, n->args[i]);
  }
  sl_buf_putc(b, ')');
}

void sl_expr_print_update(sl_buf *b, const sl_expr_update *u) {
  static const char *const kw[] = {"SET", "REMOVE", "ADD", "DELETE"};
  int last = -1;
  for (uint32_t i = 0; i < u->n; i++) {
    const sl_expr_action *a = &u->acts[i];
    if (a->kind != last) {
      if (last >= 0)
        sl_buf_putc(b, ' ');
      sl_buf_printf(b, "%s ", kw[a->kind]);
      last = a->kind;
    } else {
      sl_buf_puts(b, SL_STR(", "));
    }
    sl_expr_print_path(b, &a->path);
    if (a->kind == SL_EXPR_SET)
      sl_buf_puts(b, SL_STR(" = "));
    else if (a->value)
      sl_buf_putc(b, ' ');
    if (a->value)
      sl_expr_print(b, a->value);
  }
}

void sl_expr_print_proj(sl_buf *b, const sl_expr_proj *p) {
  for (uint32_t i = 0; i < p->n; i++) {
    if (i)
      sl_buf_puts(b, SL_STR(", "));
    sl_expr_print_path(b, &p->paths[i]);
  }
}

void sl_expr_print_keycond(sl_buf *b, const sl_expr_keycond *k, const sl_key_schema *ks) {
  static const char *const ops[] = {"=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"};
  sl_str range = ks->range;
  if (k->n_hash) {
    /* A multi-attribute key: every equality, then the last condition. */
    uint32_t nh = sl_key_n_hash(ks);
    for (uint32_t i = 0; i < (uint32_t)k->n_hash + k->n_sort_eq; i++) {
      if (i)
        sl_buf_puts(b, SL_STR(" AND "));
      sl_buf_puts(b, sl_key_part(ks, i).name);
      sl_buf_puts(b, SL_STR(" = "));
      print_value(b, i < k->n_hash ? k->hashes[i] : k->sort_eq[i - k->n_hash]);
    }
    range = sl_key_part(ks, nh + k->n_sort_eq).name;
  } else {
    sl_buf_puts(b, ks->hash);
    sl_buf_puts(b, SL_STR(" = "));
    print_value(b, k->hash);
  }
  if (!k->has_range)
    return;
  sl_buf_puts(b, SL_STR(" AND "));
  if (k->range_op == SL_EXPR_KEY_BEGINS_WITH) {
    sl_buf_puts(b, SL_STR("begins_with("));
    sl_buf_puts(b, range);
    sl_buf_puts(b, SL_STR(", "));
    print_value(b, k->range[0]);
    sl_buf_putc(b, ')');
    return;
  }
  sl_buf_puts(b, range);
  sl_buf_printf(b, " %s ", ops[k->range_op]);
  print_value(b, k->range[0]);
  if (k->range_op == SL_EXPR_KEY_BETWEEN) {
    sl_buf_puts(b, SL_STR(" AND "));
    print_value(b, k->range[1]);
  }
}
