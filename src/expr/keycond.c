/*
 * Key-condition extraction (see expr.h, sl_expr_keycond): a resolved
 * KeyConditionExpression tree, or the tree sl_expr_legacy_key_conditions
 * builds, checked against the key schema in the service's order and turned
 * into the partition key's value and at most one sort-key condition. Every
 * message below was observed on DynamoDB Local unless its comment says
 * otherwise; tests/unit/expr/test_expr.c pins them.
 */
#include "expr/expr_int.h"

typedef struct {
  sl_str name;
  uint8_t op; /* sl_expr_key_op */
  const sl_av *v[2];
} key_leaf;

static sl_expr_key_op flip(sl_expr_key_op op) {
  switch (op) {
  case SL_EXPR_KEY_LT:
    return SL_EXPR_KEY_GT;
  case SL_EXPR_KEY_LE:
    return SL_EXPR_KEY_GE;
  case SL_EXPR_KEY_GT:
    return SL_EXPR_KEY_LT;
  case SL_EXPR_KEY_GE:
    return SL_EXPR_KEY_LE;
  default:
    return op;
  }
}

static sl_err key_leaves(sl_expr_ctx *cx, const sl_expr_node *n, key_leaf *leaves, uint32_t *nl,
                         uint32_t cap) {
  sl_err err;
  sl_expr_key_op kop;
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_AND:
    if ((err = key_leaves(cx, n->args[0], leaves, nl, cap)) != SL_OK)
      return err;
    return key_leaves(cx, n->args[1], leaves, nl, cap);
  case SL_EXPR_OP_EQ:
    kop = SL_EXPR_KEY_EQ;
    break;
  case SL_EXPR_OP_LT:
    kop = SL_EXPR_KEY_LT;
    break;
  case SL_EXPR_OP_LE:
    kop = SL_EXPR_KEY_LE;
    break;
  case SL_EXPR_OP_GT:
    kop = SL_EXPR_KEY_GT;
    break;
  case SL_EXPR_OP_GE:
    kop = SL_EXPR_KEY_GE;
    break;
  case SL_EXPR_OP_BETWEEN:
    kop = SL_EXPR_KEY_BETWEEN;
    break;
  case SL_EXPR_OP_BEGINS_WITH:
    kop = SL_EXPR_KEY_BEGINS_WITH;
    break;
  default:
    return sl_failf(cx->f, SL_E_VALIDATION, "Invalid operator used in KeyConditionExpression: %s",
                    sl__expr_op_text(n));
  }
  uint32_t n_paths = 0;
  const sl_expr_node *path = NULL;
  for (uint16_t i = 0; i < n->n; i++) {
    const sl_expr_node *a = n->args[i];
    if (a->op == SL_EXPR_OP_PATH) {
      n_paths++;
      if (!path)
        path = a;
    } else if (a->op != SL_EXPR_OP_VALUE) {
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "KeyConditionExpressions cannot contain nested operations");
    }
  }
  if ((kop == SL_EXPR_KEY_BETWEEN || kop == SL_EXPR_KEY_BEGINS_WITH) &&
      n->args[0]->op != SL_EXPR_OP_PATH)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Invalid condition in KeyConditionExpression: %s operator must have the key "
                    "attribute as its first operand",
                    kop == SL_EXPR_KEY_BETWEEN ? "BETWEEN" : "begins_with");
  if (n_paths > 1)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Invalid condition in KeyConditionExpression: Multiple attribute names used "
                    "in one condition");
  if (n_paths == 0)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Invalid condition in KeyConditionExpression: No key attribute specified");
  if (path->path.n != 1 || path->path.e[0].kind != SL_EXPR_ELEM_NAME)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Key attributes must be scalars; list random access '[]' and map lookup '.' "
                    "are not allowed: Key: %.*s",
                    SL_STR_FMT(path->path.e[0].name));
  if ((kop == SL_EXPR_KEY_BETWEEN || kop == SL_EXPR_KEY_BEGINS_WITH) && n->args[0] != path)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Invalid condition in KeyConditionExpression: %s operator must have the key "
                    "attribute as its first operand",
                    kop == SL_EXPR_KEY_BETWEEN ? "BETWEEN" : "begins_with");
  for (uint32_t i = 0; i < *nl; i++)
    if (sl_str_eq(leaves[i].name, path->path.e[0].name))
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "KeyConditionExpressions must only contain one condition per key");
  SL_ASSERT(*nl < cap);
  key_leaf *l = &leaves[(*nl)++];
  l->name = path->path.e[0].name;
  if (kop == SL_EXPR_KEY_BETWEEN) {
    l->v[0] = n->args[1]->value;
    l->v[1] = n->args[2]->value;
  } else {
    bool path_first = n->args[0] == path;
    l->v[0] = n->args[path_first ? 1 : 0]->value;
    if (!path_first)
      kop = flip(kop);
  }
  l->op = (uint8_t)kop;
  return SL_OK;
}

/* The first document path that is not a plain name, in text order (those
 * of the partition key first): the service rejects it before looking at the
 * operators (observed). */
static const sl_expr_node *key_nested_path(const sl_expr_node *n, const sl_str *only) {
  if (n->op == SL_EXPR_OP_PATH)
    return (n->path.n != 1 || n->path.e[0].kind != SL_EXPR_ELEM_NAME) &&
                   (!only || sl_str_eq(n->path.e[0].name, *only))
               ? n
               : NULL;
  if (n->op == SL_EXPR_OP_VALUE)
    return NULL;
  for (uint16_t i = 0; i < n->n; i++) {
    const sl_expr_node *p = key_nested_path(n->args[i], only);
    if (p)
      return p;
  }
  return NULL;
}

/* "a, b" of the names of key attributes [from, to) whose flag is set. */
static sl_str name_list(sl_expr_ctx *cx, const sl_key_schema *ks, const bool *flag, uint32_t from,
                        uint32_t to) {
  sl_buf b;
  sl_buf_init(&b, cx->arena);
  for (uint32_t i = from; i < to; i++) {
    if (!flag[i])
      continue;
    if (b.len)
      sl_buf_puts(&b, SL_STR(", "));
    sl_buf_puts(&b, sl_key_part(ks, i).name);
  }
  return sl_buf_str(&b);
}

/* A key condition on a multi-attribute key (facts §14): equality on every
 * partition-key attribute; sort-key attributes used left to right, equality
 * on all but the last one used. The texts are DynamoDB Local 3.3's
 * (tests/conformance/test_gsi_multi_key.py); the order of the checks follows
 * the single-attribute one below: value types, then operators, then empty
 * values and sizes. */
static sl_err extract_tuple(sl_expr_ctx *cx, const key_leaf *leaves, uint32_t nl,
                            const sl_key_schema *ks, sl_expr_keycond *out) {
  uint32_t nh = sl_key_n_hash(ks), np = nh + sl_key_n_range(ks);
  const key_leaf *by_part[2 * SL_KEY_MAX_PARTS] = {0};
  bool other = false;
  for (uint32_t i = 0; i < nl; i++) {
    bool found = false;
    for (uint32_t k = 0; k < np && !found; k++)
      if (sl_str_eq(leaves[i].name, sl_key_part(ks, k).name)) {
        by_part[k] = &leaves[i];
        found = true;
      }
    other |= !found;
  }
  const char *mismatch =
      "One or more parameter values were invalid: Condition parameter type does not match schema "
      "type";
  for (uint32_t k = 0; k < nh; k++) {
    const key_leaf *l = by_part[k];
    for (int i = 0; l && i < (l->op == SL_EXPR_KEY_BETWEEN ? 2 : 1); i++)
      if (l->v[i]->type != sl_key_part(ks, k).type)
        return sl_failf(cx->f, SL_E_VALIDATION, "%s", mismatch);
  }
  bool bad[2 * SL_KEY_MAX_PARTS] = {0};
  bool any_bad = false;
  for (uint32_t k = 0; k < nh; k++) {
    bad[k] = !by_part[k] || by_part[k]->op != SL_EXPR_KEY_EQ;
    any_bad |= bad[k];
  }
  if (any_bad)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "HASH key attributes %.*s must have equality conditions specified in the "
                    "query",
                    SL_STR_FMT(name_list(cx, ks, bad, 0, nh)));
  if (other)
    return sl_failf(cx->f, SL_E_VALIDATION, "Query condition missed key schema element");
  int last = -1;
  for (uint32_t k = nh; k < np; k++)
    if (by_part[k])
      last = (int)k;
  for (int k = nh; k < last; k++) {
    bad[k] = !by_part[k] || by_part[k]->op != SL_EXPR_KEY_EQ;
    any_bad |= bad[k];
  }
  if (any_bad)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "RANGE key attributes %.*s must have equality conditions specified in the "
                    "query because a condition is present on key attribute %.*s",
                    SL_STR_FMT(name_list(cx, ks, bad, nh, (uint32_t)last)),
                    SL_STR_FMT(sl_key_part(ks, (uint32_t)last).name));
  for (int k = nh; k <= last; k++) {
    const key_leaf *l = by_part[k];
    for (int i = 0; i < (l->op == SL_EXPR_KEY_BETWEEN ? 2 : 1); i++)
      if (l->v[i]->type != sl_key_part(ks, (uint32_t)k).type)
        return sl_failf(cx->f, SL_E_VALIDATION, "%s", mismatch);
  }
  bool too_long = false;
  for (int k = 0; k <= (last < 0 ? (int)nh - 1 : last); k++) {
    const key_leaf *l = by_part[k];
    for (int i = 0; i < (l->op == SL_EXPR_KEY_BETWEEN ? 2 : 1); i++) {
      const sl_av *v = l->v[i];
      if (v->type != SL_AV_N && v->s.len == 0)
        return sl_failf(cx->f, SL_E_VALIDATION,
                        "One or more parameter values are not valid. A value specified for a "
                        "secondary index key is not supported. The AttributeValue for a key "
                        "attribute cannot contain an empty %s value. IndexName: %.*s, IndexKey: "
                        "%.*s",
                        v->type == SL_AV_S ? "string" : "binary", SL_STR_FMT(cx->index_name),
                        SL_STR_FMT(sl_key_part(ks, (uint32_t)k).name));
      too_long |= k >= (int)nh && v->type != SL_AV_N && v->s.len > 1024;
    }
  }
  /* One sort-key value over 1024 bytes, as for a single sort key; values
   * longer together are accepted (observed). */
  if (too_long)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "One or more parameter values were invalid: Aggregated size of all range "
                    "keys has exceeded the size limit of 1024 bytes");
  memset(out, 0, sizeof(*out));
  out->n_hash = (uint8_t)nh;
  for (uint32_t k = 0; k < nh; k++)
    out->hashes[k] = by_part[k]->v[0];
  out->hash = out->hashes[0];
  if (last < 0)
    return SL_OK;
  out->n_sort_eq = (uint8_t)(last - (int)nh);
  for (uint32_t k = 0; k < out->n_sort_eq; k++)
    out->sort_eq[k] = by_part[nh + k]->v[0];
  const key_leaf *rl = by_part[last];
  out->has_range = true;
  out->range_op = rl->op;
  out->range[0] = rl->v[0];
  out->range[1] = rl->op == SL_EXPR_KEY_BETWEEN ? rl->v[1] : NULL;
  return SL_OK;
}

sl_err sl__expr_key_extract(sl_expr_ctx *cx, const sl_expr_node *c, const sl_key_schema *ks,
                            sl_expr_keycond *out) {
  key_leaf leaves[SL_EXPR_MAX_OPERATORS + 1];
  uint32_t nl = 0;
  const sl_expr_node *nested = key_nested_path(c, &ks->hash);
  if (!nested)
    nested = key_nested_path(c, NULL);
  if (nested)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Key attributes must be scalars; list random access '[]' and map lookup '.' "
                    "are not allowed: Key: %.*s",
                    SL_STR_FMT(nested->path.e[0].name));
  sl_err err = key_leaves(cx, c, leaves, &nl, SL_ARRAY_LEN(leaves));
  if (err != SL_OK)
    return err;
  if (sl_key_is_tuple(ks))
    return extract_tuple(cx, leaves, nl, ks, out);
  /* Conditions are gathered per key first: a repeated key is one error, a
   * third condition another (observed). */
  if (nl > 2)
    return sl_failf(cx->f, SL_E_VALIDATION, "Conditions can be of length 1 or 2 only");
  int h = -1;
  for (uint32_t i = 0; i < nl; i++)
    if (sl_str_eq(leaves[i].name, ks->hash))
      h = (int)i;
  /* The service names the missing element (observed through the AWS CLI and
   * moto's tests); DynamoDB Local leaves the name out. */
  if (h < 0)
    return sl_failf(cx->f, SL_E_VALIDATION, "Query condition missed key schema element: %.*s",
                    SL_STR_FMT(ks->hash));
  const key_leaf *hl = &leaves[h], *rl = nl == 2 ? &leaves[1 - h] : NULL;
  const char *mismatch =
      "One or more parameter values were invalid: Condition parameter type does not match schema "
      "type";
  /* Order observed: the partition key's value type, its operator, its
   * emptiness, then the other condition's attribute. */
  for (int i = 0; i < (hl->op == SL_EXPR_KEY_BETWEEN ? 2 : 1); i++)
    if (hl->v[i]->type != ks->hash_type)
      return sl_failf(cx->f, SL_E_VALIDATION, "%s", mismatch);
  if (hl->op != SL_EXPR_KEY_EQ)
    return sl_failf(cx->f, SL_E_VALIDATION, "Query key condition not supported");
  if (hl->v[0]->type != SL_AV_N && hl->v[0]->s.len == 0)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "One or more parameter values are not valid. The AttributeValue for a key "
                    "attribute cannot contain an empty string value. Key: %.*s",
                    SL_STR_FMT(ks->hash));
  if (rl && !sl_str_eq(rl->name, ks->range)) {
    if (!ks->range.len)
      return sl_failf(cx->f, SL_E_VALIDATION, "Query key condition not supported");
    return sl_failf(cx->f, SL_E_VALIDATION, "Query condition missed key schema element: %.*s",
                    SL_STR_FMT(ks->range));
  }
  memset(out, 0, sizeof(*out));
  out->hash = hl->v[0];
  if (rl) {
    for (int i = 0; i < (rl->op == SL_EXPR_KEY_BETWEEN ? 2 : 1); i++)
      if (rl->v[i]->type != ks->range_type)
        return sl_failf(cx->f, SL_E_VALIDATION, "%s", mismatch);
    for (int i = 0; i < (rl->op == SL_EXPR_KEY_BETWEEN ? 2 : 1); i++) {
      if (rl->v[i]->type != SL_AV_N && rl->v[i]->s.len == 0)
        return sl_failf(cx->f, SL_E_VALIDATION,
                        "One or more parameter values are not valid. The AttributeValue for a key "
                        "attribute cannot contain an empty string value. Key: %.*s",
                        SL_STR_FMT(ks->range));
      if (rl->v[i]->type != SL_AV_N && rl->v[i]->s.len > 1024)
        return sl_failf(cx->f, SL_E_VALIDATION,
                        "One or more parameter values were invalid: Aggregated size of all range "
                        "keys has exceeded the size limit of 1024 bytes");
    }
    out->has_range = true;
    out->range_op = rl->op;
    out->range[0] = rl->v[0];
    out->range[1] = rl->op == SL_EXPR_KEY_BETWEEN ? rl->v[1] : NULL;
  }
  return SL_OK;
}
