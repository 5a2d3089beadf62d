/* libFuzzer target for projection expressions (src/expr).
 *
 * The input is a ProjectionExpression, parsed and resolved against the
 * shared context (fuzz_expr_common.h). On success it is printed and applied
 * to a rich item: the result must be canonical and no larger than the item,
 * and, for paths without list indexes, projecting the result again must give
 * the same result. Failures must carry a message.
 */
#include "fuzz_expr_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_state st;
  fz_begin(&st);
  sl_expr_proj *p;
  if (sl_expr_parse_projection(&st.cx, sl_str_make((const char *)data, size), &p) == SL_OK) {
    sl_buf b;
    sl_buf_init(&b, &st.a);
    sl_expr_print_proj(&b, p);
    REQUIRE(b.len > 0 && p->n > 0);
    sl_item r = sl_expr_project(&st.a, p, &st.item);
    fz_check_item(&st.a, &r);
    REQUIRE(sl_item_size(&r) <= sl_item_size(&st.item));
    /* Without list indexes (which renumber), projecting twice changes nothing. */
    bool indexes = false;
    for (uint32_t i = 0; i < p->n; i++)
      for (uint32_t j = 0; j < p->paths[i].n; j++)
        indexes = indexes || p->paths[i].e[j].kind == SL_EXPR_ELEM_INDEX;
    sl_item again = sl_expr_project(&st.a, p, &r);
    REQUIRE(indexes || again.n == r.n);
    for (uint32_t i = 0; !indexes && i < r.n; i++)
      REQUIRE(sl_str_eq(again.attrs[i].name, r.attrs[i].name) &&
              sl_av_eq(&again.attrs[i].v, &r.attrs[i].v));
  } else {
    fz_failed(&st);
  }
  fz_end(&st);
  return 0;
}
