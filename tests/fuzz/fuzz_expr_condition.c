/* libFuzzer target for condition and filter expressions (src/expr).
 *
 * The input is a ConditionExpression. It is parsed and resolved against a
 * context holding names and values of every type (fuzz_expr_common.h); on
 * success it is printed and evaluated on a rich item and on a missing item,
 * the filter key check runs, and NOT of it must evaluate to the opposite;
 * on failure a message must be set. The unused-names check runs either way.
 */
#include "fuzz_expr_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_state st;
  fz_begin(&st);
  sl_expr *c;
  sl_str text = sl_str_make((const char *)data, size);
  if (sl_expr_parse_condition(&st.cx, SL_EXPR_FILTER, text, &c) == SL_OK) {
    sl_buf b;
    sl_buf_init(&b, &st.a);
    sl_expr_print(&b, c);
    REQUIRE(b.len > 0);
    bool on_item = sl_expr_eval(c, &st.item);
    bool on_none = sl_expr_eval(c, NULL);
    sl_expr_node *not = SL_NEW(&st.a, sl_expr_node);
    not ->op = SL_EXPR_OP_NOT;
    not ->n = 1;
    not ->args = SL_NEW_ARRAY(&st.a, sl_expr_node *, 1);
    not ->args[0] = c;
    REQUIRE(sl_expr_eval(not, &st.item) == !on_item);
    REQUIRE(sl_expr_eval(not, NULL) == !on_none);
    sl_key_schema ks = {
        .hash = SL_STR("pk"), .hash_type = SL_AV_S, .range = SL_STR("sk"), .range_type = SL_AV_N};
    sl_failure_init(&st.f, &st.a);
    if (sl_expr_filter_check_keys(&st.cx, c, &ks) != SL_OK)
      fz_failed(&st);
    sl_failure_init(&st.f, &st.a);
    if (sl_expr_ctx_finish(&st.cx) != SL_OK)
      fz_failed(&st);
  } else {
    fz_failed(&st);
  }
  fz_end(&st);
  return 0;
}
