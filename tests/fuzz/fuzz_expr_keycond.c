/* libFuzzer target for key condition expressions (src/expr).
 *
 * The input is a KeyConditionExpression, parsed, resolved and extracted for
 * a hash+range key schema and for a hash-only one (fuzz_expr_common.h). On
 * success the result must be well formed: a partition value of the schema's
 * type, and a sort-key condition with one value (two for BETWEEN) of the
 * sort key's type. Failures must carry a message.
 */
#include "fuzz_expr_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const sl_key_schema schemas[2] = {
      {.hash = {"pk", 2}, .hash_type = SL_AV_S, .range = {"sk", 2}, .range_type = SL_AV_N},
      {.hash = {"pk", 2}, .hash_type = SL_AV_S},
  };
  for (int i = 0; i < 2; i++) {
    fz_state st;
    fz_begin(&st);
    sl_expr_keycond k;
    const sl_key_schema *ks = &schemas[i];
    if (sl_expr_parse_key_condition(&st.cx, sl_str_make((const char *)data, size), ks, &k) ==
        SL_OK) {
      REQUIRE(k.hash && k.hash->type == ks->hash_type);
      if (k.has_range) {
        REQUIRE(ks->range.len > 0 && k.range_op <= SL_EXPR_KEY_BEGINS_WITH);
        REQUIRE(k.range[0] && k.range[0]->type == ks->range_type);
        REQUIRE((k.range_op == SL_EXPR_KEY_BETWEEN) == (k.range[1] != NULL));
      }
      sl_buf b;
      sl_buf_init(&b, &st.a);
      sl_expr_print_keycond(&b, &k, ks);
    } else {
      fz_failed(&st);
    }
    fz_end(&st);
  }
  return 0;
}
