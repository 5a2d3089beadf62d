/*
 * The public parse drivers of src/expr/ (see expr.h): each runs pass 1
 * (parse.c) and pass 2 (resolve.c) for one expression, naming the parameter
 * its messages carry; a key condition is then extracted against the key
 * schema (keycond.c). The top of the module: nothing in src/expr/ calls it.
 */
#include "expr/expr_int.h"

sl_err sl_expr_parse_condition(sl_expr_ctx *cx, sl_expr_param param, sl_str text, sl_expr **out) {
  sl__expr_parsed pr = {0};
  sl_expr *c;
  cx->param = param;
  sl_err err = sl__expr_parse_condition(cx, text, &c, &pr);
  if (err == SL_OK)
    err = sl__expr_resolve_condition(cx, &pr, c);
  if (err == SL_OK)
    *out = c;
  return err;
}

sl_err sl_expr_parse_update(sl_expr_ctx *cx, sl_str text, sl_expr_update **out) {
  sl__expr_parsed pr = {0};
  sl_expr_update *u;
  cx->param = SL_EXPR_UPDATE;
  sl_err err = sl__expr_parse_update(cx, text, &u, &pr);
  if (err == SL_OK)
    err = sl__expr_resolve_update(cx, &pr, u);
  if (err == SL_OK)
    *out = u;
  return err;
}

sl_err sl_expr_parse_projection(sl_expr_ctx *cx, sl_str text, sl_expr_proj **out) {
  sl__expr_parsed pr = {0};
  sl_expr_proj *p;
  cx->param = SL_EXPR_PROJECTION;
  sl_err err = sl__expr_parse_projection(cx, text, &p, &pr);
  if (err == SL_OK)
    err = sl__expr_resolve_projection(cx, &pr, p);
  if (err == SL_OK)
    *out = p;
  return err;
}

sl_err sl_expr_parse_key_condition(sl_expr_ctx *cx, sl_str text, const sl_key_schema *ks,
                                   sl_expr_keycond *out) {
  sl_expr *c;
  sl_err err = sl_expr_parse_condition(cx, SL_EXPR_KEY_CONDITION, text, &c);
  if (err == SL_OK)
    err = sl__expr_key_extract(cx, c, ks, out);
  return err;
}
