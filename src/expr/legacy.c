/*
 * The legacy parameters translated into the same trees as expressions (see
 * expr.h), so that one evaluator serves both:
 *
 *   Expected, QueryFilter, ScanFilter -> a condition (AND / OR of one node per
 *     attribute, request order):
 *       EQ NE LT LE GT GE   (= a v) (<> a v) (< a v) ...
 *       NULL / NOT_NULL     attribute_not_exists(a) / attribute_exists(a)
 *       CONTAINS            contains(a, v)
 *       NOT_CONTAINS        attribute_exists(a) AND NOT contains(a, v)
 *                           (false on a missing attribute, unlike NOT contains)
 *       BEGINS_WITH         begins_with(a, v)
 *       IN, BETWEEN         (IN a v1 ... vn), (BETWEEN a lo hi)
 *       {Value: v} or {Exists: true, Value: v}: (= a v); {Exists: false}:
 *       attribute_not_exists(a)
 *   AttributeUpdates -> an update: PUT = SET, DELETE without a value =
 *     REMOVE, DELETE with a set = DELETE, ADD = ADD (which, for this legacy
 *     form only, also appends to lists). Its run-time type errors use the
 *     legacy text "Type mismatch for attribute to update".
 *   AttributesToGet -> a projection of top-level names.
 *   KeyConditions -> the key condition, extracted as for expressions.
 *
 * Attribute names are literal (no paths, no reserved words): "a.b" names an
 * attribute called "a.b". Messages were observed on DynamoDB Local.
 */
#include "expr/expr_int.h"

#include <stdarg.h>

/* ---- parameter mixing ---- */

typedef struct {
  const char *legacy[4];
  const char *expr[3];
  const char *values_null; /* "... can only be specified when using expressions: <this>" */
} param_set;

/* Orders as the service lists them (observed). */
static const param_set param_sets[] = {
    [SL_EXPR_OP_PUT_ITEM] = {{"Expected", "ConditionalOperator"},
                             {"ConditionExpression"},
                             "ConditionExpression is null"},
    [SL_EXPR_OP_UPDATE_ITEM] = {{"AttributeUpdates", "Expected", "ConditionalOperator"},
                                {"UpdateExpression", "ConditionExpression"},
                                "UpdateExpression and ConditionExpression are null"},
    [SL_EXPR_OP_GET_ITEM] = {{"AttributesToGet"}, {"ProjectionExpression"}, NULL},
    [SL_EXPR_OP_QUERY] = {{"AttributesToGet", "QueryFilter", "ConditionalOperator",
                           "KeyConditions"},
                          {"ProjectionExpression", "FilterExpression", "KeyConditionExpression"},
                          "FilterExpression and KeyConditionExpression are null"},
    [SL_EXPR_OP_SCAN] = {{"AttributesToGet", "ScanFilter", "ConditionalOperator"},
                         {"ProjectionExpression", "FilterExpression"},
                         "FilterExpression is null"},
};

static void list_params(sl_buf *b, const sl_json *body, const char *const *names, size_t n) {
  bool first = true;
  for (size_t i = 0; i < n && names[i]; i++) {
    if (!sl_json_get(body, names[i]))
      continue;
    if (!first)
      sl_buf_puts(b, SL_STR(", "));
    sl_buf_puts(b, sl_str_c(names[i]));
    first = false;
  }
}

sl_err sl_expr_check_params(sl_failure *f, const sl_json *body, sl_expr_request op) {
  const param_set *ps = &param_sets[op];
  uint32_t n_legacy = 0, n_expr = 0;
  bool only_key_conditions = true, value_expr = false;
  for (size_t i = 0; i < SL_ARRAY_LEN(ps->legacy) && ps->legacy[i]; i++) {
    if (sl_json_get(body, ps->legacy[i])) {
      n_legacy++;
      only_key_conditions = only_key_conditions && strcmp(ps->legacy[i], "KeyConditions") == 0;
    }
  }
  for (size_t i = 0; i < SL_ARRAY_LEN(ps->expr) && ps->expr[i]; i++) {
    if (sl_json_get(body, ps->expr[i])) {
      n_expr++;
      value_expr = value_expr || strcmp(ps->expr[i], "ProjectionExpression") != 0;
    }
  }
  /* DynamoDB Local accepts KeyConditions with FilterExpression or
   * ProjectionExpression (but not with KeyConditionExpression). */
  bool key_exception =
      op == SL_EXPR_OP_QUERY && only_key_conditions && !sl_json_get(body, "KeyConditionExpression");
  if (n_legacy && n_expr && !key_exception) {
    sl_buf a, b;
    sl_buf_init(&a, f->arena);
    sl_buf_init(&b, f->arena);
    list_params(&a, body, ps->legacy, SL_ARRAY_LEN(ps->legacy));
    list_params(&b, body, ps->expr, SL_ARRAY_LEN(ps->expr));
    return sl_failf(f, SL_E_VALIDATION,
                    "Can not use both expression and non-expression parameters in the same "
                    "request: Non-expression parameters: {%.*s} Expression parameters: {%.*s}",
                    (int)a.len, a.p, (int)b.len, b.p);
  }
  if (n_expr == 0 && sl_json_get(body, "ExpressionAttributeNames"))
    return sl_failf(f, SL_E_VALIDATION,
                    "ExpressionAttributeNames can only be specified when using expressions");
  if (!value_expr && ps->values_null && sl_json_get(body, "ExpressionAttributeValues"))
    return sl_failf(f, SL_E_VALIDATION,
                    "ExpressionAttributeValues can only be specified when using expressions: %s",
                    ps->values_null);
  return SL_OK;
}

/* ---- conditions ---- */

typedef enum {
  CMP_EQ = 0,
  CMP_NE,
  CMP_LE,
  CMP_LT,
  CMP_GE,
  CMP_GT,
  CMP_NOT_NULL,
  CMP_NULL,
  CMP_CONTAINS,
  CMP_NOT_CONTAINS,
  CMP_BEGINS_WITH,
  CMP_IN,
  CMP_BETWEEN,
} cmp_op;

static const char *const cmp_names[] = {
    "EQ",   "NE",       "LE",           "LT",          "GE", "GT",      "NOT_NULL",
    "NULL", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH", "IN", "BETWEEN",
};

static bool cmp_lookup(sl_str name, cmp_op *out) {
  for (size_t i = 0; i < SL_ARRAY_LEN(cmp_names); i++) {
    if (sl_str_eq_c(name, cmp_names[i])) {
      *out = (cmp_op)i;
      return true;
    }
  }
  return false;
}

static sl_err invalid(sl_expr_ctx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static sl_err invalid(sl_expr_ctx *cx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_str msg = sl_arena_vprintf(cx->arena, fmt, ap);
  va_end(ap);
  return sl_failf(cx->f, SL_E_VALIDATION, "One or more parameter values were invalid: %.*s",
                  SL_STR_FMT(msg));
}

static sl_err decode(sl_expr_ctx *cx, const sl_json *j, sl_av **out) {
  sl_av *v = SL_NEW(cx->arena, sl_av);
  sl_err err = sl_av_from_json(cx->f, cx->arena, j, v);
  if (err == SL_OK)
    *out = v;
  return err;
}

static sl_expr_node *name_node(sl_arena *a, sl_str name) {
  sl_expr_path p = {.n = 1};
  p.e = SL_NEW(a, sl_expr_elem);
  p.e->kind = SL_EXPR_ELEM_NAME;
  p.e->name = name;
  return sl__expr_path_node(a, &p);
}

static sl_expr_node *fn1(sl_arena *a, sl_expr_op op, sl_expr_node *x) {
  sl_expr_node *n = sl__expr_node(a, op, 1);
  n->args[0] = x;
  return n;
}

static sl_expr_node *fn2(sl_arena *a, sl_expr_op op, sl_expr_node *x, sl_expr_node *y) {
  sl_expr_node *n = sl__expr_node(a, op, 2);
  n->args[0] = x;
  n->args[1] = y;
  return n;
}

static bool scalar(uint8_t t) { return t == SL_AV_S || t == SL_AV_N || t == SL_AV_B; }

/* One comparison of Expected / QueryFilter / ScanFilter / KeyConditions. */
static sl_err build_cmp(sl_expr_ctx *cx, sl_str attr, cmp_op op, const sl_json *list,
                        sl_expr_node **out) {
  sl_arena *a = cx->arena;
  uint32_t n = list && list->type == SL_JSON_ARRAY ? (uint32_t)list->arr.n : 0;
  uint32_t want_min = 1, want_max = 1;
  if (op == CMP_NULL || op == CMP_NOT_NULL)
    want_min = want_max = 0;
  else if (op == CMP_BETWEEN)
    want_min = want_max = 2;
  else if (op == CMP_IN)
    want_max = UINT32_MAX;
  if (n < want_min || n > want_max)
    return invalid(cx, "Invalid number of argument(s) for the %s ComparisonOperator",
                   cmp_names[op]);
  sl_av **vals = SL_NEW_ARRAY(a, sl_av *, n ? n : 1);
  sl_err err;
  for (uint32_t i = 0; i < n; i++)
    if ((err = decode(cx, list->arr.items[i], &vals[i])) != SL_OK)
      return err;
  /* Each value in turn: its type, then the same type as the first (observed
   * order: IN [N, NS] fails on NS's type, IN [N, B, NS] on B's). */
  for (uint32_t i = 0; i < n; i++) {
    uint8_t t = vals[i]->type;
    bool ok = true;
    switch (op) {
    case CMP_LE:
    case CMP_LT:
    case CMP_GE:
    case CMP_GT:
    case CMP_IN:
    case CMP_BETWEEN:
      ok = scalar(t);
      break;
    case CMP_CONTAINS:
    case CMP_NOT_CONTAINS: /* also BOOL and NULL (never contained) */
      ok = scalar(t) || t == SL_AV_BOOL || t == SL_AV_NULL;
      break;
    case CMP_BEGINS_WITH:
      ok = t == SL_AV_S || t == SL_AV_B;
      break;
    default:
      break;
    }
    if (!ok)
      return invalid(cx, "ComparisonOperator %s is not valid for %s AttributeValue type",
                     cmp_names[op], sl_av_type_name((sl_av_type)t));
    if (t != vals[0]->type)
      return invalid(cx, "AttributeValues inside AttributeValueList must be of same type");
  }
  if (op == CMP_BETWEEN && sl__expr_cmp_scalar(vals[0], vals[1]) > 0)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "The BETWEEN condition was provided a range where the lower bound is greater "
                    "than the upper bound");
  sl_expr_node *path = name_node(a, attr);
  switch (op) {
  case CMP_EQ:
  case CMP_NE:
  case CMP_LE:
  case CMP_LT:
  case CMP_GE:
  case CMP_GT: {
    static const sl_expr_op ops[] = {SL_EXPR_OP_EQ, SL_EXPR_OP_NE, SL_EXPR_OP_LE,
                                     SL_EXPR_OP_LT, SL_EXPR_OP_GE, SL_EXPR_OP_GT};
    *out = fn2(a, ops[op], path, sl__expr_value_node(a, vals[0]));
    return SL_OK;
  }
  case CMP_NULL:
    *out = fn1(a, SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS, path);
    return SL_OK;
  case CMP_NOT_NULL:
    *out = fn1(a, SL_EXPR_OP_ATTRIBUTE_EXISTS, path);
    return SL_OK;
  case CMP_CONTAINS:
    *out = fn2(a, SL_EXPR_OP_CONTAINS, path, sl__expr_value_node(a, vals[0]));
    return SL_OK;
  case CMP_NOT_CONTAINS:
    *out = fn2(
        a, SL_EXPR_OP_AND, fn1(a, SL_EXPR_OP_ATTRIBUTE_EXISTS, path),
        fn1(a, SL_EXPR_OP_NOT, fn2(a, SL_EXPR_OP_CONTAINS, path, sl__expr_value_node(a, vals[0]))));
    return SL_OK;
  case CMP_BEGINS_WITH:
    *out = fn2(a, SL_EXPR_OP_BEGINS_WITH, path, sl__expr_value_node(a, vals[0]));
    return SL_OK;
  case CMP_IN: {
    sl_expr_node *node = sl__expr_node(a, SL_EXPR_OP_IN, (uint16_t)(n + 1));
    node->args[0] = path;
    for (uint32_t i = 0; i < n; i++)
      node->args[i + 1] = sl__expr_value_node(a, vals[i]);
    *out = node;
    return SL_OK;
  }
  case CMP_BETWEEN: {
    sl_expr_node *node = sl__expr_node(a, SL_EXPR_OP_BETWEEN, 3);
    node->args[0] = path;
    node->args[1] = sl__expr_value_node(a, vals[0]);
    node->args[2] = sl__expr_value_node(a, vals[1]);
    *out = node;
    return SL_OK;
  }
  }
  return SL_OK;
}

static sl_err check_name(sl_expr_ctx *cx, sl_str name) {
  if (name.len == 0)
    return sl_failf(cx->f, SL_E_VALIDATION, "Empty attribute name");
  return SL_OK;
}

/* ConditionalOperator without conditions is refused before they are read;
 * with fewer than two, after (observed). */
static sl_err conditional_op(sl_expr_ctx *cx, const sl_json *conds, sl_str op, bool *or_out) {
  *or_out = sl_str_eq_c(op, "OR");
  if (op.len && !conds)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "ConditionalOperator cannot be used without Filter or Expected");
  return SL_OK;
}

static sl_err conditional_count(sl_expr_ctx *cx, const sl_json *conds, sl_str op) {
  if (op.len && conds && conds->type == SL_JSON_OBJECT && conds->obj.n < 2)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "ConditionalOperator can only be used when Filter or Expected has two or more "
                    "elements");
  return SL_OK;
}

static sl_expr_node *combine(sl_arena *a, sl_expr_node *acc, sl_expr_node *n, bool or) {
  return acc ? fn2(a, or ? SL_EXPR_OP_OR : SL_EXPR_OP_AND, acc, n) : n;
}

sl_err sl_expr_legacy_expected(sl_expr_ctx *cx, const sl_json *expected, sl_str conditional,
                               sl_expr **out) {
  bool or ;
  *out = NULL;
  sl_err err = conditional_op(cx, expected, conditional, & or);
  if (err != SL_OK || !expected || expected->type != SL_JSON_OBJECT)
    return err;
  sl_expr_node *acc = NULL;
  for (size_t i = 0; i < expected->obj.n; i++) {
    sl_str attr = expected->obj.members[i].key;
    const sl_json *e = expected->obj.members[i].value;
    const sl_json *exists = sl_json_get(e, "Exists"), *value = sl_json_get(e, "Value");
    const sl_json *cmp = sl_json_get(e, "ComparisonOperator");
    const sl_json *list = sl_json_get(e, "AttributeValueList");
    sl_expr_node *node;
    if ((err = check_name(cx, attr)) != SL_OK)
      return err;
    if (exists && cmp)
      return invalid(cx,
                     "Exists and ComparisonOperator cannot be used together for Attribute: %.*s",
                     SL_STR_FMT(attr));
    if (value && list)
      return invalid(cx, "Value and AttributeValueList cannot be used together for Attribute: %.*s",
                     SL_STR_FMT(attr));
    if (cmp) {
      cmp_op op;
      sl_str name = cmp->type == SL_JSON_STRING ? cmp->str : SL_STR_NULL;
      if (!cmp_lookup(name, &op))
        return sl_failf(cx->f, SL_E_VALIDATION, "Comparison type does not exist in DynamoDB");
      if (!value && !list && op != CMP_NULL && op != CMP_NOT_NULL)
        return invalid(cx,
                       "Value or AttributeValueList must be used with ComparisonOperator: %s for "
                       "Attribute: %.*s",
                       cmp_names[op], SL_STR_FMT(attr));
      if (value) {
        /* A lone Value is a one-element list. */
        sl_json *one = SL_NEW(cx->arena, sl_json);
        one->type = SL_JSON_ARRAY;
        one->arr.n = 1;
        one->arr.items = SL_NEW_ARRAY(cx->arena, sl_json *, 1);
        one->arr.items[0] = (sl_json *)value;
        list = one;
      }
      if ((err = build_cmp(cx, attr, op, list, &node)) != SL_OK)
        return err;
    } else {
      bool ex = !exists || exists->type != SL_JSON_FALSE;
      if (exists && ex && !value)
        return invalid(cx, "Value must be provided when Exists is true for Attribute: %.*s",
                       SL_STR_FMT(attr));
      if (exists && !ex && value)
        return invalid(cx, "Value cannot be used when Exists is false for Attribute: %.*s",
                       SL_STR_FMT(attr));
      if (!exists && !value)
        return invalid(cx, "Value must be provided when Exists is null for Attribute: %.*s",
                       SL_STR_FMT(attr));
      if (ex) {
        sl_av *v;
        if ((err = decode(cx, value, &v)) != SL_OK)
          return err;
        node = fn2(cx->arena, SL_EXPR_OP_EQ, name_node(cx->arena, attr),
                   sl__expr_value_node(cx->arena, v));
      } else {
        node = fn1(cx->arena, SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS, name_node(cx->arena, attr));
      }
    }
    acc = combine(cx->arena, acc, node, or);
  }
  if ((err = conditional_count(cx, expected, conditional)) != SL_OK)
    return err;
  *out = acc;
  return SL_OK;
}

/* QueryFilter / ScanFilter / KeyConditions entries: {ComparisonOperator,
 * AttributeValueList}. */
static sl_err build_condition(sl_expr_ctx *cx, sl_str attr, const sl_json *c, sl_expr_node **out) {
  const sl_json *cmp = sl_json_get(c, "ComparisonOperator");
  cmp_op op;
  sl_err err = check_name(cx, attr);
  if (err != SL_OK)
    return err;
  if (!cmp || cmp->type != SL_JSON_STRING || !cmp_lookup(cmp->str, &op))
    return sl_failf(cx->f, SL_E_VALIDATION, "Comparison type does not exist in DynamoDB");
  return build_cmp(cx, attr, op, sl_json_get(c, "AttributeValueList"), out);
}

sl_err sl_expr_legacy_filter(sl_expr_ctx *cx, const sl_json *filter, sl_str conditional,
                             const char *param_name, sl_expr **out) {
  bool or ;
  *out = NULL;
  sl_err err = conditional_op(cx, filter, conditional, & or);
  if (err != SL_OK || !filter || filter->type != SL_JSON_OBJECT)
    return err;
  cx->filter_name = param_name;
  sl_expr_node *acc = NULL;
  for (size_t i = 0; i < filter->obj.n; i++) {
    sl_expr_node *node;
    if ((err = build_condition(cx, filter->obj.members[i].key, filter->obj.members[i].value,
                               &node)) != SL_OK)
      return err;
    acc = combine(cx->arena, acc, node, or);
  }
  if ((err = conditional_count(cx, filter, conditional)) != SL_OK)
    return err;
  *out = acc;
  return SL_OK;
}

sl_err sl_expr_legacy_attributes_to_get(sl_expr_ctx *cx, const sl_json *names, sl_expr_proj **out) {
  *out = NULL;
  if (!names || names->type != SL_JSON_ARRAY)
    return SL_OK;
  sl_expr_proj *p = SL_NEW(cx->arena, sl_expr_proj);
  p->paths = SL_NEW_ARRAY(cx->arena, sl_expr_path, names->arr.n ? names->arr.n : 1);
  for (size_t i = 0; i < names->arr.n; i++) {
    const sl_json *j = names->arr.items[i];
    sl_str name = j->type == SL_JSON_STRING ? j->str : SL_STR_NULL;
    sl_err err = check_name(cx, name);
    if (err != SL_OK)
      return err;
    for (uint32_t k = 0; k < p->n; k++)
      if (sl_str_eq(p->paths[k].e[0].name, name))
        return sl_failf(cx->f, SL_E_VALIDATION,
                        "One or more parameter values were invalid: Duplicate value in attribute "
                        "name: %.*s",
                        SL_STR_FMT(name));
    p->paths[p->n] = name_node(cx->arena, name)->path;
    p->n++;
  }
  *out = p;
  return SL_OK;
}

sl_err sl_expr_legacy_attribute_updates(sl_expr_ctx *cx, const sl_json *updates,
                                        sl_expr_update **out) {
  *out = NULL;
  if (!updates || updates->type != SL_JSON_OBJECT)
    return SL_OK;
  uint32_t n = (uint32_t)updates->obj.n;
  sl_expr_update *u = SL_NEW(cx->arena, sl_expr_update);
  u->legacy = true;
  u->acts = SL_NEW_ARRAY(cx->arena, sl_expr_action, n ? n : 1);
  u->paths.paths = SL_NEW_ARRAY(cx->arena, sl_expr_path, n ? n : 1);
  for (uint32_t i = 0; i < n; i++) {
    sl_str attr = updates->obj.members[i].key;
    const sl_json *e = updates->obj.members[i].value;
    const sl_json *action = sl_json_get(e, "Action"), *value = sl_json_get(e, "Value");
    sl_str act = action && action->type == SL_JSON_STRING ? action->str : SL_STR("PUT");
    sl_err err = check_name(cx, attr);
    if (err != SL_OK)
      return err;
    sl_expr_action *a = &u->acts[u->n];
    memset(a, 0, sizeof(*a));
    a->path = name_node(cx->arena, attr)->path;
    /* Entry errors are reported when the entry is reached while applying
     * (observed: "Type mismatch" of an earlier entry wins over them). */
    if (!value) {
      a->kind = SL_EXPR_REMOVE;
      if (!sl_str_eq_c(act, "DELETE")) {
        /* Kept as a SET/ADD (never applied): a REMOVE-only update of a
         * missing item would be skipped before its error is seen. */
        a->error = SL_STR("One or more parameter values were invalid: Only DELETE action is "
                          "allowed when no attribute value is specified");
        a->kind = sl_str_eq_c(act, "ADD") ? SL_EXPR_ADD : SL_EXPR_SET;
      }
    } else {
      sl_av *v;
      if ((err = decode(cx, value, &v)) != SL_OK)
        return err;
      uint8_t t = v->type;
      bool is_set = t == SL_AV_SS || t == SL_AV_NS || t == SL_AV_BS;
      if (sl_str_eq_c(act, "ADD")) {
        if (!is_set && t != SL_AV_N && t != SL_AV_L)
          a->error = sl_arena_printf(cx->arena,
                                     "One or more parameter values were invalid: ADD action is "
                                     "not supported for the type %s",
                                     sl_av_type_name((sl_av_type)t));
        a->kind = SL_EXPR_ADD;
      } else if (sl_str_eq_c(act, "DELETE")) {
        if (!is_set)
          a->error = sl_arena_printf(cx->arena,
                                     "One or more parameter values were invalid: DELETE action "
                                     "with value is not supported for the type %s",
                                     sl_av_type_name((sl_av_type)t));
        a->kind = SL_EXPR_DELETE;
      } else {
        a->kind = SL_EXPR_SET;
      }
      a->value = sl__expr_value_node(cx->arena, v);
    }
    /* A repeated key: the last one wins, as for every JSON object. */
    uint32_t k = 0;
    while (k < u->n && !sl_str_eq(u->acts[k].path.e[0].name, attr))
      k++;
    if (k < u->n)
      u->acts[k] = *a;
    else
      u->n++;
  }
  u->paths.n = u->n;
  for (uint32_t i = 0; i < u->n; i++)
    u->paths.paths[i] = u->acts[i].path;
  *out = u;
  return SL_OK;
}

sl_err sl_expr_legacy_key_conditions(sl_expr_ctx *cx, const sl_json *conds, const sl_key_schema *ks,
                                     sl_expr_keycond *out) {
  memset(out, 0, sizeof(*out));
  if (!conds || conds->type != SL_JSON_OBJECT)
    return sl_failf(cx->f, SL_E_VALIDATION,
                    "Either the KeyConditions or KeyConditionExpression parameter must be "
                    "specified in the request.");
  /* The service (dynalite's live texts) says the same for none and for more
   * than two; DynamoDB Local says "Conditions must be at least length 1" for
   * none. */
  size_t most = sl_key_is_tuple(ks) ? sl_key_n_hash(ks) + sl_key_n_range(ks) : 2;
  if (conds->obj.n == 0 || conds->obj.n > most)
    return sl_failf(cx->f, SL_E_VALIDATION, "Conditions can be of length 1 or 2 only");
  sl_expr_node *acc = NULL;
  for (size_t i = 0; i < conds->obj.n; i++) {
    sl_str attr = conds->obj.members[i].key;
    const sl_json *c = conds->obj.members[i].value;
    const sl_json *cmp = sl_json_get(c, "ComparisonOperator");
    cmp_op op;
    sl_expr_node *node;
    sl_err err = build_condition(cx, attr, c, &node);
    if (err != SL_OK)
      return err;
    cmp_lookup(cmp->str, &op);
    bool range = ks->range.len && sl_str_eq(attr, ks->range);
    for (uint32_t k = sl_key_n_hash(ks); !range && k < sl_key_n_hash(ks) + sl_key_n_range(ks); k++)
      range = sl_str_eq(attr, sl_key_part(ks, k).name);
    /* DynamoDB Local says "Only scalar types can be used as Range Key values"
     * for NULL / NOT_NULL and fails on NE; the service's text is this one
     * (dynalite's live texts). */
    if (range && (op == CMP_NE || op == CMP_IN || op == CMP_CONTAINS || op == CMP_NOT_CONTAINS ||
                  op == CMP_NULL || op == CMP_NOT_NULL))
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "Attempted conditional constraint is not an indexable operation");
    if (!range && sl_str_eq(attr, ks->hash) && op != CMP_EQ)
      return sl_failf(cx->f, SL_E_VALIDATION, "Query key condition not supported");
    acc = combine(cx->arena, acc, node, false);
  }
  return sl__expr_key_extract(cx, acc, ks, out);
}
