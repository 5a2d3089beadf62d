/* Checks of a table definition as the request states it; see schema.h.
 * Pinned by tests/conformance/test_create_table.py and
 * test_gsi_lifecycle.py. */
#include "ops/schema.h"

uint8_t sl_schema_attr_type(sl_str s) {
  if (sl_str_eq_c(s, "S"))
    return SL_AV_S;
  if (sl_str_eq_c(s, "N"))
    return SL_AV_N;
  return SL_AV_B;
}

sl_str sl_schema_index_arn(sl_table *t, sl_str index) {
  return sl_table_str(
      t, sl_arena_printf(&t->mem, "%.*s/index/%.*s", SL_STR_FMT(t->arn), SL_STR_FMT(index)));
}

/* "a, b" of the table's attribute definitions. */
static sl_str def_names(sl_req *req, const sl_table *t) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  for (uint32_t i = 0; i < t->n_defs; i++) {
    if (i)
      sl_buf_puts(&b, SL_STR(", "));
    sl_buf_puts(&b, t->defs[i].name);
  }
  return sl_buf_str(&b);
}

sl_err sl_schema_key(sl_req *req, sl_table *t, const sl_key_schema_in *in, sl_key_schema *out) {
  memset(out, 0, sizeof(*out));
  size_t n = in->n;
  sl_str names[2] = {SL_STR_NULL, SL_STR_NULL};
  sl_str types[2] = {SL_STR_NULL, SL_STR_NULL};
  for (size_t i = 0; i < n && i < 2; i++) {
    names[i] = in->e[i].attr;
    types[i] = in->e[i].type;
  }
  if (n == 2) {
    bool defined = sl_table_attr_type(t, names[0]) && sl_table_attr_type(t, names[1]);
    if (!defined || (sl_str_eq(names[0], names[1]) && t->n_defs < 2))
      return sl_fail(req, SL_E_VALIDATION,
                     "Invalid KeySchema: Some index key attribute have no definition");
    if (sl_str_eq(names[0], names[1]))
      return sl_fail(req, SL_E_VALIDATION,
                     "Both the Hash Key and the Range Key element in the KeySchema have the same "
                     "name");
  }
  if (!sl_str_eq_c(types[0], "HASH"))
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  if (n == 2 && !sl_str_eq_c(types[1], "RANGE"))
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  if (n == 1 && !sl_table_attr_type(t, names[0]))
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Some index key attributes are not "
                   "defined in AttributeDefinitions. Keys: [%.*s], AttributeDefinitions: [%.*s]",
                   SL_STR_FMT(names[0]), SL_STR_FMT(def_names(req, t)));
  sl_key_schema_add(out, true, sl_table_str(t, names[0]), sl_table_attr_type(t, names[0]));
  if (n == 2)
    sl_key_schema_add(out, false, sl_table_str(t, names[1]), sl_table_attr_type(t, names[1]));
  return SL_OK;
}

sl_err sl_schema_gsi_key(sl_req *req, sl_table *t, const sl_key_schema_in *in, sl_key_schema *out) {
  uint32_t n = in->n, n_hash = 0, n_range = 0;
  bool order_ok = true;
  for (uint32_t i = 0; i < n; i++) {
    bool hash = sl_str_eq_c(in->e[i].type, "HASH");
    n_hash += hash;
    n_range += !hash;
    if (hash && n_range)
      order_ok = false;
  }
  /* One or two elements that a single-attribute schema allows keep the
   * table's checks and messages. */
  if (n <= 2 && !(n == 2 && n_hash == 2))
    return sl_schema_key(req, t, in, out);
  /* Multi-attribute keys (facts §14); the texts and their order are
   * DynamoDB Local 3.3's (tests/conformance/test_gsi_multi_key.py). */
  if (n > 2 * SL_KEY_MAX_PARTS)
    return sl_fail(req, SL_E_VALIDATION,
                   "Key Schema too big.  Key Schema must at most consist of the hash and range "
                   "key of a table");
  if (n_hash > SL_KEY_MAX_PARTS)
    return sl_fail(req, SL_E_VALIDATION,
                   "Too many partition keys. GSI can have at most %d partition keys",
                   SL_KEY_MAX_PARTS);
  if (n_range > SL_KEY_MAX_PARTS)
    return sl_fail(req, SL_E_VALIDATION, "Too many sort keys. GSI can have at most %d sort keys",
                   SL_KEY_MAX_PARTS);
  if (n_hash == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "No Hash Key specified in schema.  All Dynamo DB tables must have exactly one "
                   "hash key");
  if (!order_ok)
    return sl_fail(req, SL_E_VALIDATION,
                   "Invalid key order. Hash Key must be specified first in key schema, Range Key "
                   "must be specifed second");
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < i; j++)
      if (sl_str_eq(in->e[i].attr, in->e[j].attr))
        return sl_fail(req, SL_E_VALIDATION, "Two keys can not have the same name");
  memset(out, 0, sizeof(*out));
  for (uint32_t i = 0; i < n; i++)
    sl_key_schema_add(out, i < n_hash, sl_table_str(t, in->e[i].attr),
                      sl_table_attr_type(t, in->e[i].attr));
  return SL_OK;
}

sl_err sl_schema_check_keys_defined(sl_req *req, const sl_table *t, const sl_key_schema_in *in) {
  bool undefined = false;
  for (uint32_t k = 0; k < in->n; k++)
    if (!sl_table_attr_type(t, in->e[k].attr))
      undefined = true;
  if (!undefined)
    return SL_OK;
  sl_buf keys;
  sl_buf_init(&keys, req->arena);
  for (uint32_t k = 0; k < in->n; k++) {
    if (k)
      sl_buf_puts(&keys, SL_STR(", "));
    sl_buf_puts(&keys, in->e[k].attr);
  }
  return sl_fail(req, SL_E_VALIDATION,
                 "One or more parameter values were invalid: Some index key attributes are not "
                 "defined in AttributeDefinitions. Keys: [%.*s], AttributeDefinitions: [%.*s]",
                 SL_STR_FMT(sl_buf_str(&keys)), SL_STR_FMT(def_names(req, t)));
}

sl_err sl_schema_projection(sl_req *req, sl_table *t, const sl_projection_in *in, sl_index *x) {
  sl_str type = in->type;
  if (type.len == 0)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: Unknown ProjectionType: null");
  if (sl_str_eq_c(type, "ALL"))
    x->projection = SL_PROJ_ALL;
  else if (sl_str_eq_c(type, "KEYS_ONLY"))
    x->projection = SL_PROJ_KEYS_ONLY;
  else
    x->projection = SL_PROJ_INCLUDE;
  if (in->has_non_key && x->projection != SL_PROJ_INCLUDE)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: ProjectionType is %.*s, but "
                   "NonKeyAttributes is specified",
                   SL_STR_FMT(type));
  if (x->projection != SL_PROJ_INCLUDE)
    return SL_OK;
  if (!in->has_non_key)
    return sl_fail(req, SL_E_VALIDATION,
                   "One or more parameter values were invalid: NonKeyAttributes must be "
                   "specified for ProjectionType INCLUDE");
  x->non_key = SL_NEW_ARRAY(&t->mem, sl_str, in->n_non_key + 1);
  for (uint32_t i = 0; i < in->n_non_key; i++) {
    sl_str a = in->non_key[i];
    for (uint32_t j = 0; j < x->n_non_key; j++)
      if (sl_str_eq(x->non_key[j], a))
        return sl_fail(req, SL_E_VALIDATION,
                       "One or more parameter values were invalid: Duplicate NonKeyAttribute "
                       "%.*s in Projection",
                       SL_STR_FMT(a));
    x->non_key[x->n_non_key++] = sl_table_str(t, a);
  }
  return SL_OK;
}
