/*
 * The bottom of src/expr/ (see expr_int.h): the request context
 * (ExpressionAttributeNames and ExpressionAttributeValues, decoded and
 * validated once per request), the "Invalid <param>: " failure every pass
 * reports through, the replacement of "#name" and ":value" placeholders by
 * the request's names and values, and the constructors of tree nodes. The
 * parser, the resolver, key-condition extraction and the legacy parameters
 * all build on it; it calls none of them. Every message below was observed
 * on DynamoDB Local unless its comment says otherwise; tests/unit/expr/test_expr.c
 * pins them.
 */
#include "expr/expr_int.h"

#include <stdarg.h>

static const char *const param_names[] = {
    [SL_EXPR_CONDITION] = "ConditionExpression",        [SL_EXPR_FILTER] = "FilterExpression",
    [SL_EXPR_KEY_CONDITION] = "KeyConditionExpression", [SL_EXPR_UPDATE] = "UpdateExpression",
    [SL_EXPR_PROJECTION] = "ProjectionExpression",
};

const char *sl_expr_param_name(sl_expr_param p) {
  return (unsigned)p < SL_ARRAY_LEN(param_names) ? param_names[p] : "Expression";
}

/* ---- the request context ---- */

static bool key_syntax_ok(sl_str key, char lead) {
  if (key.len < 2 || key.p[0] != lead)
    return false;
  for (size_t i = 1; i < key.len; i++) {
    char c = key.p[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  }
  return true;
}

/* ---- key lookup ----
 * Names and values are looked up by key. Small maps are scanned; a map of
 * more than SMALL_MAP entries gets an open-addressing index in the arena
 * (slot = entry position + 1, 0 = empty), so that a request with thousands
 * of placeholders stays linear. Both entry types start with their key. */
#define SMALL_MAP 8

static uint32_t key_hash(sl_str k) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < k.len; i++)
    h = (h ^ (unsigned char)k.p[i]) * 16777619u;
  return h;
}

static sl_str entry_key(const void *base, size_t stride, uint32_t i) {
  return *(const sl_str *)((const char *)base + stride * i);
}

/* The position of 'key' among 'n' entries, or n. */
static uint32_t key_find(const void *base, size_t stride, uint32_t n, const uint32_t *slots,
                         uint32_t mask, sl_str key) {
  if (!slots) {
    for (uint32_t i = 0; i < n; i++)
      if (sl_str_eq(entry_key(base, stride, i), key))
        return i;
    return n;
  }
  for (uint32_t h = key_hash(key) & mask;; h = (h + 1) & mask) {
    if (!slots[h])
      return n;
    if (sl_str_eq(entry_key(base, stride, slots[h] - 1), key))
      return slots[h] - 1;
  }
}

static void key_insert(uint32_t *slots, uint32_t mask, sl_str key, uint32_t pos) {
  uint32_t h = key_hash(key) & mask;
  while (slots[h])
    h = (h + 1) & mask;
  slots[h] = pos + 1;
}

/* Slots for up to n keys (at most half full), or NULL for a small map. */
static uint32_t *key_slots(sl_arena *a, size_t n, uint32_t *mask) {
  if (n <= SMALL_MAP)
    return NULL;
  uint32_t cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  *mask = cap - 1;
  return SL_NEW_ARRAY(a, uint32_t, cap);
}

/* An expression value may nest one level deeper than an item attribute
 * (observed: 32 maps around a number pass as a value, 33 fail; an
 * attribute takes 31). base/item_json counts a value as level 1, so a value
 * it finds too deep is decoded again one level down, child by child. */
static sl_err decode_value(sl_failure *f, sl_arena *a, const sl_json *j, sl_av *out) {
  sl_err err = sl_av_from_json(f, a, j, out);
  if (err != SL_E_VALIDATION || !sl_str_starts_with(f->message, SL_STR("Nesting Levels")))
    return err;
  const sl_json *l = sl_json_get(j, "L"), *m = sl_json_get(j, "M");
  if (l && l->type == SL_JSON_ARRAY) {
    sl_av v = {.type = SL_AV_L, .n = (uint32_t)l->arr.n};
    v.list = SL_NEW_ARRAY(a, sl_av, v.n ? v.n : 1);
    for (uint32_t i = 0; i < v.n; i++) {
      sl_failure_init(f, a);
      if ((err = sl_av_from_json(f, a, l->arr.items[i], &v.list[i])) != SL_OK)
        return err;
    }
    *out = v;
    return SL_OK;
  }
  if (m && m->type == SL_JSON_OBJECT) {
    sl_av v = {.type = SL_AV_M, .n = (uint32_t)m->obj.n};
    v.map = SL_NEW_ARRAY(a, sl_attr, v.n ? v.n : 1);
    for (uint32_t i = 0; i < v.n; i++) {
      sl_failure_init(f, a);
      v.map[i].name = m->obj.members[i].key;
      if ((err = sl_av_from_json(f, a, m->obj.members[i].value, &v.map[i].v)) != SL_OK)
        return err;
    }
    v.n = sl__attrs_canonicalize(v.map, v.n);
    *out = v;
    return SL_OK;
  }
  return err;
}

sl_err sl_expr_ctx_init(sl_expr_ctx *cx, sl_arena *a, sl_failure *f, const sl_json *names,
                        const sl_json *values) {
  memset(cx, 0, sizeof(*cx));
  cx->arena = a;
  cx->f = f;
  if (names && names->type != SL_JSON_OBJECT)
    names = NULL;
  if (values && values->type != SL_JSON_OBJECT)
    values = NULL;
  /* 0. Keys are at most 255 bytes (a model constraint, checked first; the
   * values' text has no size, observed). */
  for (size_t i = 0; names && i < names->obj.n; i++)
    if (names->obj.members[i].key.len > 255)
      return sl_failf(f, SL_E_VALIDATION,
                      "ExpressionAttributeNames contains invalid key: The expression attribute map "
                      "contains a key that is too long; size of key: %zu",
                      names->obj.members[i].key.len);
  for (size_t i = 0; values && i < values->obj.n; i++)
    if (values->obj.members[i].key.len > 255)
      return sl_failf(f, SL_E_VALIDATION,
                      "ExpressionAttributeValues contains invalid key: The expression attribute "
                      "map contains a key that is too long;");
  /* 1. Values are attribute values: decode and check each one (a duplicate
   * key keeps its last value, as for every JSON object of a request). */
  if (values && values->obj.n) {
    cx->values = SL_NEW_ARRAY(a, sl_expr_value, values->obj.n);
    cx->value_slots = key_slots(a, values->obj.n, &cx->value_mask);
    for (size_t i = 0; i < values->obj.n; i++) {
      const sl_json_member *m = &values->obj.members[i];
      sl_failure tmp;
      sl_av v;
      sl_failure_init(&tmp, a);
      if (decode_value(&tmp, a, m->value, &v) != SL_OK) {
        if (tmp.code != SL_E_VALIDATION)
          return sl_failf(f, tmp.code, tmp.has_message ? "%.*s" : NULL, SL_STR_FMT(tmp.message));
        return sl_failf(f, SL_E_VALIDATION,
                        "ExpressionAttributeValues contains invalid value: %.*s for key %.*s",
                        SL_STR_FMT(tmp.message), SL_STR_FMT(m->key));
      }
      uint32_t j = key_find(cx->values, sizeof(*cx->values), cx->n_values, cx->value_slots,
                            cx->value_mask, m->key);
      if (j == cx->n_values) {
        cx->n_values++;
        if (cx->value_slots)
          key_insert(cx->value_slots, cx->value_mask, m->key, j);
      }
      cx->values[j] = (sl_expr_value){.key = m->key, .v = v};
      if (v.type == SL_AV_N)
        cx->values[j].n_text = sl_json_get(m->value, "N")->str;
    }
  }
  /* 2. Empty maps. */
  if (names && names->obj.n == 0)
    return sl_failf(f, SL_E_VALIDATION, "ExpressionAttributeNames must not be empty");
  if (values && values->obj.n == 0)
    return sl_failf(f, SL_E_VALIDATION, "ExpressionAttributeValues must not be empty");
  /* 3. Key syntax, names first. */
  if (names)
    for (size_t i = 0; i < names->obj.n; i++)
      if (!key_syntax_ok(names->obj.members[i].key, '#'))
        return sl_failf(
            f, SL_E_VALIDATION,
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"%.*s\"",
            SL_STR_FMT(names->obj.members[i].key));
  if (values)
    for (size_t i = 0; i < values->obj.n; i++)
      if (!key_syntax_ok(values->obj.members[i].key, ':'))
        return sl_failf(
            f, SL_E_VALIDATION,
            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"%.*s\"",
            SL_STR_FMT(values->obj.members[i].key));
  /* 4. Names. */
  if (names && names->obj.n) {
    cx->names = SL_NEW_ARRAY(a, sl_expr_name, names->obj.n);
    cx->name_slots = key_slots(a, names->obj.n, &cx->name_mask);
    for (size_t i = 0; i < names->obj.n; i++) {
      const sl_json_member *m = &names->obj.members[i];
      sl_str name = m->value && m->value->type == SL_JSON_STRING ? m->value->str : SL_STR_NULL;
      if (name.len == 0)
        return sl_failf(f, SL_E_VALIDATION,
                        "ExpressionAttributeNames contains invalid value: Empty attribute name for "
                        "key %.*s",
                        SL_STR_FMT(m->key));
      if (name.len > 65535)
        return sl_failf(f, SL_E_VALIDATION,
                        "ExpressionAttributeNames contains invalid value: Attribute name is too "
                        "large, must be less than 65536 bytes for key %.*s",
                        SL_STR_FMT(m->key));
      uint32_t j = key_find(cx->names, sizeof(*cx->names), cx->n_names, cx->name_slots,
                            cx->name_mask, m->key);
      if (j == cx->n_names) {
        cx->n_names++;
        if (cx->name_slots)
          key_insert(cx->name_slots, cx->name_mask, m->key, j);
      }
      cx->names[j] = (sl_expr_name){.key = m->key, .name = name};
    }
  }
  return SL_OK;
}

/* The order in which a java.util.HashSet copied from the request's map
 * iterates its keys: bucket order of String.hashCode (spread as HashMap
 * does) in a table sized for the whole map, request order within a bucket.
 * The service lists unused keys in that order ("{#c, #a, #b}" for #b, #a,
 * #c; pinned with 2, 12, 13 and 25 keys). Keys are ASCII by their syntax. */
static uint32_t java_bucket(sl_str key, uint32_t cap) {
  uint32_t h = 0;
  for (size_t i = 0; i < key.len; i++)
    h = 31 * h + (unsigned char)key.p[i];
  h ^= h >> 16;
  return h & (cap - 1);
}

static uint32_t java_copy_capacity(uint32_t n) {
  uint32_t want = (uint32_t)((float)n / 0.75f) + 1;
  if (want < 16)
    want = 16;
  uint32_t cap = 1;
  while (cap < want)
    cap <<= 1;
  return cap;
}

static sl_err report_unused(sl_expr_ctx *cx, const char *what, const sl_str *keys, const bool *used,
                            uint32_t n) {
  uint32_t n_unused = 0;
  for (uint32_t i = 0; i < n; i++)
    n_unused += !used[i];
  if (n_unused == 0)
    return SL_OK;
  uint32_t cap = java_copy_capacity(n);
  /* Counting sort by bucket, stable: request order within a bucket. */
  uint32_t *start = SL_NEW_ARRAY(cx->arena, uint32_t, cap + 1);
  uint32_t *bucket = SL_NEW_ARRAY(cx->arena, uint32_t, n);
  uint32_t *order = SL_NEW_ARRAY(cx->arena, uint32_t, n);
  for (uint32_t i = 0; i < n; i++) {
    bucket[i] = java_bucket(keys[i], cap);
    start[bucket[i] + 1]++;
  }
  for (uint32_t b = 0; b < cap; b++)
    start[b + 1] += start[b];
  for (uint32_t i = 0; i < n; i++)
    order[start[bucket[i]]++] = i;
  sl_buf b;
  sl_buf_init(&b, cx->arena);
  bool first = true;
  for (uint32_t k = 0; k < n; k++) {
    uint32_t i = order[k];
    if (used[i])
      continue;
    if (!first)
      sl_buf_puts(&b, SL_STR(", "));
    sl_buf_puts(&b, keys[i]);
    first = false;
  }
  return sl_failf(cx->f, SL_E_VALIDATION,
                  "Value provided in %s unused in expressions: keys: {%.*s}", what, (int)b.len,
                  b.p);
}

sl_err sl_expr_ctx_finish(sl_expr_ctx *cx) {
  uint32_t n = cx->n_names > cx->n_values ? cx->n_names : cx->n_values;
  bool all_used = true;
  for (uint32_t i = 0; i < cx->n_names; i++)
    all_used = all_used && cx->names[i].used;
  for (uint32_t i = 0; i < cx->n_values; i++)
    all_used = all_used && cx->values[i].used;
  if (n == 0 || all_used)
    return SL_OK;
  sl_str *keys = SL_NEW_ARRAY(cx->arena, sl_str, n);
  bool *used = SL_NEW_ARRAY(cx->arena, bool, n);
  for (uint32_t i = 0; i < cx->n_names; i++) {
    keys[i] = cx->names[i].key;
    used[i] = cx->names[i].used;
  }
  sl_err err = report_unused(cx, "ExpressionAttributeNames", keys, used, cx->n_names);
  if (err != SL_OK)
    return err;
  for (uint32_t i = 0; i < cx->n_values; i++) {
    keys[i] = cx->values[i].key;
    used[i] = cx->values[i].used;
  }
  return report_unused(cx, "ExpressionAttributeValues", keys, used, cx->n_values);
}

/* ---- failures ---- */

sl_err sl__expr_fail(sl_expr_ctx *cx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sl_str msg = sl_arena_vprintf(cx->arena, fmt, ap);
  va_end(ap);
  return sl_failf(cx->f, SL_E_VALIDATION, "Invalid %s: %.*s", sl_expr_param_name(cx->param),
                  SL_STR_FMT(msg));
}

/* ---- placeholders ---- */

sl_err sl__expr_resolve_path(sl_expr_ctx *cx, sl_expr_path *p) {
  for (uint32_t i = 0; i < p->n; i++) {
    sl_expr_elem *e = &p->e[i];
    if (e->kind != SL_EXPR_ELEM_REF)
      continue;
    uint32_t j = key_find(cx->names, sizeof(*cx->names), cx->n_names, cx->name_slots, cx->name_mask,
                          e->name);
    if (j == cx->n_names)
      return sl__expr_fail(cx,
                           "An expression attribute name used in the document path is not "
                           "defined; attribute name: %.*s",
                           SL_STR_FMT(e->name));
    cx->names[j].used = true;
    e->name = cx->names[j].name;
    e->kind = SL_EXPR_ELEM_NAME;
  }
  return SL_OK;
}

sl_err sl__expr_resolve_value(sl_expr_ctx *cx, sl_expr_node *n) {
  if (n->value)
    return SL_OK; /* legacy trees carry their values */
  uint32_t j = key_find(cx->values, sizeof(*cx->values), cx->n_values, cx->value_slots,
                        cx->value_mask, n->text);
  if (j == cx->n_values)
    return sl__expr_fail(cx,
                         "An expression attribute value used in expression is not defined; "
                         "attribute value: %.*s",
                         SL_STR_FMT(n->text));
  cx->values[j].used = true;
  n->value = &cx->values[j].v;
  return SL_OK;
}

/* ---- messages ---- */

/* The operator or function as the service names it in messages. */
const char *sl__expr_op_text(const sl_expr_node *n) {
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_EQ:
    return "=";
  case SL_EXPR_OP_NE:
    return "<>";
  case SL_EXPR_OP_LT:
    return "<";
  case SL_EXPR_OP_LE:
    return "<=";
  case SL_EXPR_OP_GT:
    return ">";
  case SL_EXPR_OP_GE:
    return ">=";
  case SL_EXPR_OP_BETWEEN:
    return "BETWEEN";
  case SL_EXPR_OP_IN:
    return "IN";
  case SL_EXPR_OP_AND:
    return "AND";
  case SL_EXPR_OP_OR:
    return "OR";
  case SL_EXPR_OP_NOT:
    return "NOT";
  case SL_EXPR_OP_PLUS:
    return "+";
  case SL_EXPR_OP_MINUS:
    return "-";
  case SL_EXPR_OP_ATTRIBUTE_EXISTS:
    return "attribute_exists";
  case SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS:
    return "attribute_not_exists";
  case SL_EXPR_OP_ATTRIBUTE_TYPE:
    return "attribute_type";
  case SL_EXPR_OP_BEGINS_WITH:
    return "begins_with";
  case SL_EXPR_OP_CONTAINS:
    return "contains";
  case SL_EXPR_OP_SIZE:
    return "size";
  case SL_EXPR_OP_IF_NOT_EXISTS:
    return "if_not_exists";
  case SL_EXPR_OP_LIST_APPEND:
    return "list_append";
  default:
    return "";
  }
}

/* ---- new nodes ---- */

sl_expr_node *sl__expr_node(sl_arena *a, sl_expr_op op, uint16_t n) {
  sl_expr_node *node = SL_NEW(a, sl_expr_node);
  node->op = (uint8_t)op;
  node->n = n;
  if (n)
    node->args = SL_NEW_ARRAY(a, sl_expr_node *, n);
  return node;
}

sl_expr_node *sl__expr_value_node(sl_arena *a, const sl_av *v) {
  sl_expr_node *node = SL_NEW(a, sl_expr_node);
  node->op = SL_EXPR_OP_VALUE;
  node->value = v;
  return node;
}

sl_expr_node *sl__expr_path_node(sl_arena *a, const sl_expr_path *p) {
  sl_expr_node *node = SL_NEW(a, sl_expr_node);
  node->op = SL_EXPR_OP_PATH;
  node->path = *p;
  return node;
}
