/* Legacy parameters translated into expression trees; see expr.h. */
#include "expr/expr_int.h"

sl_err sl_expr_check_params(sl_failure *f, const sl_json *body, sl_expr_request op) {
  (void)f;
  (void)body;
  (void)op;
  return SL_OK;
}

sl_err sl_expr_legacy_expected(sl_expr_ctx *cx, const sl_json *expected, sl_str conditional_op,
                               sl_expr **out) {
  (void)cx;
  (void)expected;
  (void)conditional_op;
  *out = NULL;
  return SL_OK;
}

sl_err sl_expr_legacy_filter(sl_expr_ctx *cx, const sl_json *filter, sl_str conditional_op,
                             const char *param_name, sl_expr **out) {
  (void)cx;
  (void)filter;
  (void)conditional_op;
  (void)param_name;
  *out = NULL;
  return SL_OK;
}

sl_err sl_expr_legacy_attributes_to_get(sl_expr_ctx *cx, const sl_json *names, sl_expr_proj **out) {
  (void)cx;
  (void)names;
  *out = NULL;
  return SL_OK;
}

sl_err sl_expr_legacy_attribute_updates(sl_expr_ctx *cx, const sl_json *updates,
                                        sl_expr_update **out) {
  (void)cx;
  (void)updates;
  *out = NULL;
  return SL_OK;
}

sl_err sl_expr_legacy_key_conditions(sl_expr_ctx *cx, const sl_json *conds, const sl_key_schema *ks,
                                     sl_expr_keycond *out) {
  (void)cx;
  (void)conds;
  (void)ks;
  memset(out, 0, sizeof(*out));
  return sl_failf(cx->f, SL_E_VALIDATION, "KeyConditions is not supported yet");
}
