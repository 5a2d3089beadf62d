/* Readable PartiQL plans; see partiql.h. */
#include "partiql/pql_int.h"

#include <stdio.h>

const char *sl_pql_op_name(sl_pql_op op) {
  static const char *const names[] = {"GetItem",    "Query",      "Scan",           "PutItem",
                                      "UpdateItem", "DeleteItem", "ConditionCheck", "Multi"};
  return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

static void print_item(sl_buf *b, const sl_item *it) {
  sl_buf tmp;
  sl_buf_init(&tmp, NULL);
  sl_jw w;
  sl_jw_init(&w, &tmp);
  sl_item_write_json(&w, it);
  sl_buf_puts(b, sl_buf_str(&tmp));
  sl_buf_free(&tmp);
}

void sl_pql_print_plan(sl_buf *b, const sl_pql_plan *p) {
  if (p->op == SL_PQL_OP_MULTI) {
    for (uint32_t i = 0; i < p->n_subs; i++) {
      if (i)
        sl_buf_puts(b, SL_STR("; "));
      sl_pql_print_plan(b, &p->subs[i]);
    }
    return;
  }
  sl_buf_puts(b, sl_str_c(sl_pql_op_name(p->op)));
  sl_buf_putc(b, ' ');
  sl_buf_puts(b, p->t->name);
  if (p->x) {
    sl_buf_putc(b, '.');
    sl_buf_puts(b, p->x->name);
  }
  switch (p->op) {
  case SL_PQL_OP_GET:
  case SL_PQL_OP_UPDATE:
  case SL_PQL_OP_DELETE:
  case SL_PQL_OP_CHECK:
    sl_buf_puts(b, SL_STR(" Key "));
    print_item(b, &p->key);
    break;
  case SL_PQL_OP_PUT:
    sl_buf_puts(b, SL_STR(" Item "));
    print_item(b, &p->key);
    break;
  case SL_PQL_OP_QUERY:
    sl_buf_puts(b, SL_STR(" KeyCondition "));
    sl_expr_print_keycond(b, &p->kc, p->x ? &p->x->key : &p->t->key);
    if (!p->forward)
      sl_buf_puts(b, SL_STR(" Descending"));
    break;
  case SL_PQL_OP_SCAN:
  case SL_PQL_OP_MULTI:
    break;
  }
  const sl_expr_node *filter = p->op == SL_PQL_OP_GET ? p->residual : p->rx.filter;
  if (filter) {
    sl_buf_puts(b, SL_STR(" Filter "));
    sl_expr_print(b, filter);
  }
  if (p->rx.projection) {
    sl_buf_puts(b, SL_STR(" Projection "));
    sl_expr_print_proj(b, p->rx.projection);
  }
  if (p->wx.update) {
    sl_buf_puts(b, SL_STR(" Update "));
    sl_expr_print_update(b, p->wx.update);
  }
  if (p->wx.cond) {
    sl_buf_puts(b, SL_STR(" Condition "));
    sl_expr_print(b, p->wx.cond);
  }
}

static void print_node(sl_buf *b, const sl_pql_node *n);

static void print_args(sl_buf *b, const char *op, const sl_pql_node *n) {
  sl_buf_putc(b, '(');
  sl_buf_puts(b, sl_str_c(op));
  for (uint16_t i = 0; i < n->n; i++) {
    sl_buf_putc(b, ' ');
    print_node(b, n->args[i]);
  }
  sl_buf_putc(b, ')');
}

static void print_node(sl_buf *b, const sl_pql_node *n) {
  static const char *const ops[] = {[SL_PQL_N_EQ] = "=",
                                    [SL_PQL_N_NE] = "<>",
                                    [SL_PQL_N_LT] = "<",
                                    [SL_PQL_N_LE] = "<=",
                                    [SL_PQL_N_GT] = ">",
                                    [SL_PQL_N_GE] = ">=",
                                    [SL_PQL_N_BETWEEN] = "BETWEEN",
                                    [SL_PQL_N_IN] = "IN",
                                    [SL_PQL_N_AND] = "AND",
                                    [SL_PQL_N_OR] = "OR",
                                    [SL_PQL_N_NOT] = "NOT",
                                    [SL_PQL_N_MISSING] = "MISSING",
                                    [SL_PQL_N_NOT_MISSING] = "NOT_MISSING",
                                    [SL_PQL_N_PLUS] = "+",
                                    [SL_PQL_N_MINUS] = "-",
                                    [SL_PQL_N_LIST] = "LIST",
                                    [SL_PQL_N_BAG] = "BAG"};
  switch ((sl_pql_node_kind)n->kind) {
  case SL_PQL_N_PATH:
    sl_expr_print_path(b, &n->path);
    return;
  case SL_PQL_N_LIT: {
    sl_buf tmp;
    sl_buf_init(&tmp, NULL);
    sl_jw w;
    sl_jw_init(&w, &tmp);
    sl_av_write_json(&w, &n->value);
    sl_buf_puts(b, sl_buf_str(&tmp));
    sl_buf_free(&tmp);
    return;
  }
  case SL_PQL_N_PARAM:
    sl_buf_printf(b, "?%u", (unsigned)n->param + 1);
    return;
  case SL_PQL_N_MAP:
    sl_buf_puts(b, SL_STR("(MAP"));
    for (uint16_t i = 0; i < n->n; i++) {
      sl_buf_printf(b, " %.*s:", SL_STR_FMT(n->keys[i]));
      print_node(b, n->args[i]);
    }
    sl_buf_putc(b, ')');
    return;
  case SL_PQL_N_FUNC: {
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n->name.len < 63 ? n->name.len : 63), n->name.p);
    print_args(b, name, n);
    return;
  }
  default:
    print_args(b, ops[n->kind], n);
    return;
  }
}

void sl_pql_print_stmt(sl_buf *b, const sl_pql_stmt *st) {
  static const char *const kinds[] = {"SELECT", "INSERT", "UPDATE", "DELETE", "EXISTS"};
  sl_buf_puts(b, sl_str_c(kinds[st->kind]));
  if (st->kind == SL_PQL_SELECT || st->kind == SL_PQL_EXISTS) {
    sl_buf_putc(b, ' ');
    if (!st->proj)
      sl_buf_putc(b, '*');
    for (uint32_t i = 0; i < st->n_proj; i++) {
      if (i)
        sl_buf_puts(b, SL_STR(", "));
      sl_expr_print_path(b, &st->proj[i]);
    }
  }
  sl_buf_printf(b, " %.*s", SL_STR_FMT(st->table));
  if (st->index.len)
    sl_buf_printf(b, ".%.*s", SL_STR_FMT(st->index));
  if (st->value) {
    sl_buf_puts(b, SL_STR(" VALUE "));
    print_node(b, st->value);
  }
  for (uint32_t i = 0; i < st->n_assigns; i++) {
    const sl_pql_assign *as = &st->assigns[i];
    sl_buf_puts(b, as->kind == SL_PQL_SET ? SL_STR(" SET ") : SL_STR(" REMOVE "));
    sl_expr_print_path(b, &as->path);
    if (as->value) {
      sl_buf_puts(b, SL_STR(" = "));
      print_node(b, as->value);
    }
  }
  if (st->where) {
    sl_buf_puts(b, SL_STR(" WHERE "));
    print_node(b, st->where);
  }
  for (uint32_t i = 0; i < st->n_order; i++) {
    sl_buf_puts(b, i ? SL_STR(", ") : SL_STR(" ORDER BY "));
    sl_expr_print_path(b, &st->order[i]);
    if (st->desc[i])
      sl_buf_puts(b, SL_STR(" DESC"));
  }
  static const char *const rv[] = {"", "ALL OLD", "MODIFIED OLD", "ALL NEW", "MODIFIED NEW"};
  if (st->returning != SL_RV_NONE)
    sl_buf_printf(b, " RETURNING %s *", rv[st->returning]);
}
