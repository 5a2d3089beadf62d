/* libFuzzer target for key condition expressions (src/expr).
 *
 * The input is a KeyConditionExpression, parsed, resolved and extracted for
 * a hash+range key schema, for a hash-only one and for a multi-attribute
 * one (a S, b N | x S, y N; fuzz_expr_common.h). On success the result must
 * be well formed: partition values of the schema's types, and a sort-key
 * condition with one value (two for BETWEEN) of its attribute's type, after
 * equalities of the leading sort attributes' types. Failures must carry a
 * message.
 */
#include "fuzz_expr_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static sl_key_schema schemas[3] = {
      {.hash = {"pk", 2}, .hash_type = SL_AV_S, .range = {"sk", 2}, .range_type = SL_AV_N},
      {.hash = {"pk", 2}, .hash_type = SL_AV_S},
  };
  if (!schemas[2].n_hash) {
    sl_key_schema_add(&schemas[2], true, SL_STR("a"), SL_AV_S);
    sl_key_schema_add(&schemas[2], true, SL_STR("b"), SL_AV_N);
    sl_key_schema_add(&schemas[2], false, SL_STR("x"), SL_AV_S);
    sl_key_schema_add(&schemas[2], false, SL_STR("y"), SL_AV_N);
  }
  for (int i = 0; i < 3; i++) {
    fz_state st;
    fz_begin(&st);
    sl_expr_keycond k;
    const sl_key_schema *ks = &schemas[i];
    if (sl_expr_parse_key_condition(&st.cx, sl_str_make((const char *)data, size), ks, &k) ==
        SL_OK) {
      REQUIRE(k.hash && k.hash->type == ks->hash_type);
      uint32_t nh = sl_key_n_hash(ks);
      REQUIRE(k.n_hash == (sl_key_is_tuple(ks) ? nh : 0));
      for (uint32_t j = 0; j < k.n_hash; j++)
        REQUIRE(k.hashes[j] && k.hashes[j]->type == sl_key_part(ks, j).type);
      for (uint32_t j = 0; j < k.n_sort_eq; j++)
        REQUIRE(k.sort_eq[j] && k.sort_eq[j]->type == sl_key_part(ks, nh + j).type);
      if (k.has_range) {
        REQUIRE(ks->range.len > 0 && k.range_op <= SL_EXPR_KEY_BEGINS_WITH);
        REQUIRE(nh + k.n_sort_eq < nh + sl_key_n_range(ks));
        REQUIRE(k.range[0] && k.range[0]->type == sl_key_part(ks, nh + k.n_sort_eq).type);
        REQUIRE((k.range_op == SL_EXPR_KEY_BETWEEN) == (k.range[1] != NULL));
      } else {
        REQUIRE(k.n_sort_eq == 0);
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
