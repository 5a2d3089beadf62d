/* libFuzzer target for update expressions (src/expr).
 *
 * The input is an UpdateExpression, parsed and resolved against the shared
 * context (fuzz_expr_common.h). On success it is printed, the key check
 * runs, and it is applied to a rich item and to a missing item; every item
 * it builds, and the UPDATED_OLD / UPDATED_NEW projections of its paths,
 * must be canonical and survive the binary encoding. Failures must carry a
 * message.
 */
#include "fuzz_expr_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_state st;
  fz_begin(&st);
  sl_expr_update *u;
  if (sl_expr_parse_update(&st.cx, sl_str_make((const char *)data, size), &u) == SL_OK) {
    sl_buf b;
    sl_buf_init(&b, &st.a);
    sl_expr_print_update(&b, u);
    REQUIRE(b.len > 0 && u->n > 0 && u->paths.n == u->n);
    sl_key_schema ks = {.hash = SL_STR("pk"), .hash_type = SL_AV_S};
    sl_failure_init(&st.f, &st.a);
    if (sl_expr_update_check_keys(&st.cx, u, &ks) != SL_OK)
      fz_failed(&st);
    const sl_item *olds[2] = {&st.item, NULL};
    for (int i = 0; i < 2; i++) {
      sl_item out;
      sl_failure_init(&st.f, &st.a);
      if (sl_expr_update_apply(&st.cx, u, olds[i], &out) != SL_OK) {
        fz_failed(&st);
        continue;
      }
      fz_check_item(&st.a, &out);
      sl_item newp = sl_expr_project(&st.a, &u->paths, &out);
      fz_check_item(&st.a, &newp);
      if (olds[i]) {
        sl_item oldp = sl_expr_project(&st.a, &u->paths, olds[i]);
        fz_check_item(&st.a, &oldp);
      }
    }
  } else {
    fz_failed(&st);
  }
  fz_end(&st);
  return 0;
}
