/* Readable PartiQL plans; see partiql.h. */
#include "partiql/pql_int.h"

const char *sl_pql_op_name(sl_pql_op op) {
  static const char *const names[] = {"GetItem",    "Query",      "Scan",          "PutItem",
                                      "UpdateItem", "DeleteItem", "ConditionCheck"};
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
