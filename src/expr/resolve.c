/*
 * Pass 2 (see expr.h): the request context (ExpressionAttributeNames and
 * ExpressionAttributeValues), resolution of "#name" and ":value" references,
 * the semantic checks of each grammar, and the extraction of a Query key
 * condition. Every message below was observed on DynamoDB Local unless its
 * comment says otherwise; tests/unit/test_expr.c pins them.
 */
#include "expr/expr_int.h"
#include "base/num.h"

#include <stdio.h>

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

/* ---- references ---- */

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

/* ---- paths in messages ---- */

void sl__expr_path_list(sl_buf *b, const sl_expr_path *p) {
  sl_buf_putc(b, '[');
  for (uint32_t i = 0; i < p->n; i++) {
    if (i)
      sl_buf_puts(b, SL_STR(", "));
    if (p->e[i].kind == SL_EXPR_ELEM_INDEX)
      sl_buf_printf(b, "[%u]", p->e[i].index);
    else
      sl_buf_puts(b, p->e[i].name);
  }
  sl_buf_putc(b, ']');
}

static sl_str path_list(sl_expr_ctx *cx, const sl_expr_path *p) {
  sl_buf b;
  sl_buf_init(&b, cx->arena);
  sl__expr_path_list(&b, p);
  return sl_buf_str(&b);
}

static bool elem_eq(const sl_expr_elem *a, const sl_expr_elem *b) {
  if (a->kind != b->kind)
    return false;
  return a->kind == SL_EXPR_ELEM_INDEX ? a->index == b->index : sl_str_eq(a->name, b->name);
}

static bool path_eq(const sl_expr_path *a, const sl_expr_path *b) {
  if (a->n != b->n)
    return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!elem_eq(&a->e[i], &b->e[i]))
      return false;
  return true;
}

sl_err sl__expr_check_paths(sl_expr_ctx *cx, const sl_expr_path *const *paths, uint32_t n) {
  for (uint32_t j = 1; j < n; j++) {
    for (uint32_t i = 0; i < j; i++) {
      const sl_expr_path *a = paths[i], *b = paths[j];
      uint32_t k = a->n < b->n ? a->n : b->n, t = 0;
      bool conflict = false;
      for (; t < k; t++) {
        const sl_expr_elem *x = &a->e[t], *y = &b->e[t];
        bool xi = x->kind == SL_EXPR_ELEM_INDEX, yi = y->kind == SL_EXPR_ELEM_INDEX;
        if (xi != yi) {
          conflict = true;
          break;
        }
        if (!elem_eq(x, y))
          break;
      }
      if (conflict || t == k) {
        sl_str one = path_list(cx, a), two = path_list(cx, b);
        return sl__expr_fail(cx,
                             "Two document paths %s with each other; must remove or rewrite one "
                             "of these paths; path one: %.*s, path two: %.*s",
                             conflict ? "conflict" : "overlap", SL_STR_FMT(one), SL_STR_FMT(two));
      }
    }
  }
  return SL_OK;
}

/* "{N:2}" — the service's brief form of a constant in BETWEEN messages. A B
 * value shows as Java's ByteBuffer.toString (observed on DynamoDB Local:
 * "{B:java.nio.HeapByteBuffer[pos=0 lim=2 cap=2]}"). */
void sl__expr_av_brief(sl_buf *b, const sl_av *v) {
  sl_buf_printf(b, "{%s:", sl_av_type_name((sl_av_type)v->type));
  if (v->type == SL_AV_B)
    sl_buf_printf(b, "java.nio.HeapByteBuffer[pos=0 lim=%zu cap=%zu]", v->s.len, v->s.len);
  else
    sl_buf_puts(b, v->s); /* S or N: only these and B reach BETWEEN messages */
  sl_buf_putc(b, '}');
}

/* ---- conditions and update values ---- */

typedef enum {
  W_BOOL,    /* a condition */
  W_OPERAND, /* an operand of a comparison or a condition function */
  W_SET,     /* the value of a SET action */
  W_ARITH,   /* an operand of + or - */
  W_UARG,    /* an argument of if_not_exists */
  W_LARG,    /* an argument of list_append (which may not nest) */
} want;

static const char *op_text(const sl_expr_node *n) {
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

static bool is_function(uint8_t op) {
  return op >= SL_EXPR_OP_ATTRIBUTE_EXISTS && op <= SL_EXPR_OP_UNKNOWN_FUNCTION;
}

static sl_err bad_operand_type(sl_expr_ctx *cx, const sl_expr_node *n, uint8_t type) {
  return sl__expr_fail(
      cx,
      "Incorrect operand type for operator or function; operator or function: %s, operand "
      "type: %s",
      op_text(n), sl_av_type_name((sl_av_type)type));
}

static bool is_scalar_key_type(uint8_t t) { return t == SL_AV_S || t == SL_AV_N || t == SL_AV_B; }

static sl_err check_distinct(sl_expr_ctx *cx, const sl_expr_node *n) {
  if (n->n < 2 || n->args[0]->op != SL_EXPR_OP_PATH)
    return SL_OK;
  for (uint16_t i = 1; i < n->n; i++) {
    if (n->args[i]->op == SL_EXPR_OP_PATH && path_eq(&n->args[0]->path, &n->args[i]->path)) {
      sl_str first = path_list(cx, &n->args[0]->path);
      return sl__expr_fail(cx,
                           "The first operand must be distinct from the remaining operands for "
                           "this operator or function; operator: %s, first operand: %.*s",
                           op_text(n), SL_STR_FMT(first));
    }
  }
  return SL_OK;
}

/* A BETWEEN bound as the service shows it: numbers as the request wrote them
 * ("{N:9E125}", observed). */
static sl_str between_operand(sl_expr_ctx *cx, const sl_expr_node *n) {
  sl_buf b;
  sl_buf_init(&b, cx->arena);
  const sl_av *v = n->value;
  for (uint32_t i = 0; v->type == SL_AV_N && i < cx->n_values; i++) {
    if (&cx->values[i].v == v && cx->values[i].n_text.len) {
      sl_buf_puts(&b, SL_STR("{N:"));
      sl_buf_puts(&b, cx->values[i].n_text);
      sl_buf_putc(&b, '}');
      return sl_buf_str(&b);
    }
  }
  sl__expr_av_brief(&b, v);
  return sl_buf_str(&b);
}

/* The type an operand is known to have before evaluation: a constant's, or N
 * for size(); 0 when it depends on the item. */
static uint8_t static_type(const sl_expr_node *n) {
  if (n->op == SL_EXPR_OP_VALUE)
    return n->value->type;
  if (n->op == SL_EXPR_OP_SIZE)
    return SL_AV_N;
  return 0;
}

static sl_err resolve_node(sl_expr_ctx *cx, sl_expr_node *n, want w, bool update);

static sl_err check_function(sl_expr_ctx *cx, sl_expr_node *n, want w, bool update) {
  sl_expr_op op = (sl_expr_op)n->op;
  if (op == SL_EXPR_OP_UNKNOWN_FUNCTION)
    return sl__expr_fail(cx, "Invalid function name; function: %.*s", SL_STR_FMT(n->text));
  bool update_fn = op == SL_EXPR_OP_IF_NOT_EXISTS || op == SL_EXPR_OP_LIST_APPEND;
  if (update_fn && !update)
    return sl__expr_fail(cx, "The function is not allowed in a condition expression; function: %s",
                         op_text(n));
  if (!update_fn && update)
    return sl__expr_fail(cx, "The function is not allowed in an update expression; function: %s",
                         op_text(n));
  bool boolean = op != SL_EXPR_OP_SIZE && !update_fn;
  bool misuse = update ? ((w == W_ARITH || w == W_LARG) && op == SL_EXPR_OP_LIST_APPEND)
                       : (boolean != (w == W_BOOL));
  if (misuse)
    return sl__expr_fail(
        cx, "The function is not allowed to be used this way in an expression; function: %s",
        op_text(n));
  uint16_t arity = op == SL_EXPR_OP_ATTRIBUTE_EXISTS || op == SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS ||
                           op == SL_EXPR_OP_SIZE
                       ? 1
                       : 2;
  if (n->n != arity)
    return sl__expr_fail(cx,
                         "Incorrect number of operands for operator or function; operator or "
                         "function: %s, number of operands: %u",
                         op_text(n), n->n);
  sl_err err;
  for (uint16_t i = 0; i < n->n; i++)
    if ((err = resolve_node(cx, n->args[i],
                            !update                        ? W_OPERAND
                            : op == SL_EXPR_OP_LIST_APPEND ? W_LARG
                                                           : W_UARG,
                            update)) != SL_OK)
      return err;
  bool path_first = op == SL_EXPR_OP_ATTRIBUTE_EXISTS || op == SL_EXPR_OP_ATTRIBUTE_NOT_EXISTS ||
                    op == SL_EXPR_OP_ATTRIBUTE_TYPE || op == SL_EXPR_OP_IF_NOT_EXISTS;
  if (path_first && n->args[0]->op != SL_EXPR_OP_PATH)
    return sl__expr_fail(
        cx, "Operator or function requires a document path; operator or function: %s", op_text(n));
  if (op == SL_EXPR_OP_ATTRIBUTE_TYPE || op == SL_EXPR_OP_BEGINS_WITH ||
      op == SL_EXPR_OP_CONTAINS || op == SL_EXPR_OP_IF_NOT_EXISTS)
    if ((err = check_distinct(cx, n)) != SL_OK)
      return err;
  for (uint16_t i = 0; i < n->n; i++) {
    uint8_t t = static_type(n->args[i]);
    if (!t)
      continue;
    bool ok = true;
    switch (op) {
    case SL_EXPR_OP_BEGINS_WITH:
      ok = t == SL_AV_S || t == SL_AV_B;
      break;
    case SL_EXPR_OP_SIZE:
      ok = t != SL_AV_N && t != SL_AV_BOOL && t != SL_AV_NULL;
      break;
    case SL_EXPR_OP_LIST_APPEND:
      ok = t == SL_AV_L;
      break;
    case SL_EXPR_OP_ATTRIBUTE_TYPE:
      ok = t == SL_AV_S;
      break;
    default:
      break;
    }
    if (!ok)
      return bad_operand_type(cx, n, t);
  }
  if (op == SL_EXPR_OP_ATTRIBUTE_TYPE) {
    const sl_expr_node *t = n->args[1];
    if (t->op != SL_EXPR_OP_VALUE)
      return sl__expr_fail(
          cx, "Incorrect operand type for operator or function; operator or function: "
              "attribute_type, operand type: {BOOL,DICT,BS,INTSET,NULL,S,DOUBLESET,L,FLOAT,"
              "DECIMALSET,NS,M,DECIMAL,HD,SS,N,DOUBLE,HDS,FS,INT,B}");
    static const char *const types[] = {"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"};
    bool valid = false;
    for (size_t i = 0; i < SL_ARRAY_LEN(types); i++)
      valid = valid || sl_str_eq_c(t->value->s, types[i]);
    if (!valid)
      return sl__expr_fail(cx,
                           "Invalid attribute type name found; type: %.*s, valid types: "
                           "{N,BS,L,B,NULL,M,S,SS,NS,BOOL}",
                           SL_STR_FMT(t->value->s));
  }
  return SL_OK;
}

static sl_err resolve_node(sl_expr_ctx *cx, sl_expr_node *n, want w, bool update) {
  sl_err err;
  switch ((sl_expr_op)n->op) {
  case SL_EXPR_OP_PATH:
    return sl__expr_resolve_path(cx, &n->path);
  case SL_EXPR_OP_VALUE:
    return sl__expr_resolve_value(cx, n);
  case SL_EXPR_OP_AND:
  case SL_EXPR_OP_OR:
  case SL_EXPR_OP_NOT:
    for (uint16_t i = 0; i < n->n; i++)
      if ((err = resolve_node(cx, n->args[i], W_BOOL, update)) != SL_OK)
        return err;
    return SL_OK;
  case SL_EXPR_OP_EQ:
  case SL_EXPR_OP_NE:
  case SL_EXPR_OP_LT:
  case SL_EXPR_OP_LE:
  case SL_EXPR_OP_GT:
  case SL_EXPR_OP_GE:
  case SL_EXPR_OP_BETWEEN:
  case SL_EXPR_OP_IN: {
    for (uint16_t i = 0; i < n->n; i++)
      if ((err = resolve_node(cx, n->args[i], W_OPERAND, update)) != SL_OK)
        return err;
    bool ordered = n->op != SL_EXPR_OP_EQ && n->op != SL_EXPR_OP_NE && n->op != SL_EXPR_OP_IN;
    if (ordered)
      for (uint16_t i = 0; i < n->n; i++)
        if (static_type(n->args[i]) && !is_scalar_key_type(static_type(n->args[i])))
          return bad_operand_type(cx, n, static_type(n->args[i]));
    if ((err = check_distinct(cx, n)) != SL_OK)
      return err;
    if (n->op == SL_EXPR_OP_BETWEEN && n->args[1]->op == SL_EXPR_OP_VALUE &&
        n->args[2]->op == SL_EXPR_OP_VALUE) {
      const sl_av *lo = n->args[1]->value, *hi = n->args[2]->value;
      if (lo->type != hi->type) {
        sl_str l = between_operand(cx, n->args[1]), h = between_operand(cx, n->args[2]);
        return sl__expr_fail(cx,
                             "The BETWEEN operator requires same data type for lower and upper "
                             "bounds; lower bound operand: AttributeValue: %.*s, upper bound "
                             "operand: AttributeValue: %.*s",
                             SL_STR_FMT(l), SL_STR_FMT(h));
      }
      if (sl__expr_cmp_scalar(lo, hi) > 0) {
        sl_str l = between_operand(cx, n->args[1]), h = between_operand(cx, n->args[2]);
        return sl__expr_fail(cx,
                             "The BETWEEN operator requires upper bound to be greater than or "
                             "equal to lower bound; lower bound operand: AttributeValue: %.*s, "
                             "upper bound operand: AttributeValue: %.*s",
                             SL_STR_FMT(l), SL_STR_FMT(h));
      }
    }
    return SL_OK;
  }
  case SL_EXPR_OP_PLUS:
  case SL_EXPR_OP_MINUS:
    for (uint16_t i = 0; i < n->n; i++) {
      if ((err = resolve_node(cx, n->args[i], W_ARITH, update)) != SL_OK)
        return err;
      if (n->args[i]->op == SL_EXPR_OP_VALUE && n->args[i]->value->type != SL_AV_N)
        return bad_operand_type(cx, n, n->args[i]->value->type);
    }
    return SL_OK;
  default:
    if (is_function(n->op))
      return check_function(cx, n, w, update);
    return SL_OK;
  }
}

static sl_err check_reserved(sl_expr_ctx *cx, const sl__expr_parsed *pr) {
  if (pr->reserved.len)
    return sl__expr_fail(cx, "Attribute name is a reserved keyword; reserved keyword: %.*s",
                         SL_STR_FMT(pr->reserved));
  return SL_OK;
}

sl_err sl_expr_parse_condition(sl_expr_ctx *cx, sl_expr_param param, sl_str text, sl_expr **out) {
  sl__expr_parsed pr = {0};
  sl_expr *c;
  cx->param = param;
  sl_err err = sl__expr_parse_condition(cx, text, &c, &pr);
  if (err == SL_OK)
    err = check_reserved(cx, &pr);
  if (err == SL_OK)
    err = resolve_node(cx, c, W_BOOL, false);
  if (err == SL_OK)
    *out = c;
  return err;
}

sl_err sl_expr_parse_update(sl_expr_ctx *cx, sl_str text, sl_expr_update **out) {
  sl__expr_parsed pr = {0};
  sl_expr_update *u;
  cx->param = SL_EXPR_UPDATE;
  sl_err err = sl__expr_parse_update(cx, text, &u, &pr);
  if (err != SL_OK)
    return err;
  if ((err = check_reserved(cx, &pr)) != SL_OK)
    return err;
  for (uint32_t i = 0; i < u->n; i++) {
    sl_expr_action *a = &u->acts[i];
    if ((err = sl__expr_resolve_path(cx, &a->path)) != SL_OK)
      return err;
    if (!a->value)
      continue;
    if ((err = resolve_node(cx, a->value, W_SET, true)) != SL_OK)
      return err;
    if (a->kind == SL_EXPR_ADD || a->kind == SL_EXPR_DELETE) {
      uint8_t t = a->value->value->type;
      bool is_set = t == SL_AV_SS || t == SL_AV_NS || t == SL_AV_BS;
      if (!is_set && (a->kind == SL_EXPR_DELETE || t != SL_AV_N)) {
        static const char *const long_names[] = {
            [SL_AV_S] = "STRING",     [SL_AV_N] = "NUMBER",  [SL_AV_B] = "BINARY",
            [SL_AV_BOOL] = "BOOLEAN", [SL_AV_NULL] = "NULL", [SL_AV_L] = "LIST",
            [SL_AV_M] = "MAP"};
        bool add = a->kind == SL_EXPR_ADD;
        return sl__expr_fail(cx,
                             "Incorrect operand type for operator or function; operator: %s, "
                             "operand type: %s, typeSet: %s",
                             add ? "ADD" : "DELETE", long_names[t],
                             add ? "ALLOWED_FOR_ADD_OPERAND" : "ALLOWED_FOR_DELETE_OPERAND");
      }
    }
  }
  const sl_expr_path **paths = SL_NEW_ARRAY(cx->arena, const sl_expr_path *, u->n);
  u->paths.n = u->n;
  u->paths.paths = SL_NEW_ARRAY(cx->arena, sl_expr_path, u->n);
  for (uint32_t i = 0; i < u->n; i++) {
    paths[i] = &u->acts[i].path;
    u->paths.paths[i] = u->acts[i].path;
  }
  if ((err = sl__expr_check_paths(cx, paths, u->n)) != SL_OK)
    return err;
  *out = u;
  return SL_OK;
}

sl_err sl_expr_parse_projection(sl_expr_ctx *cx, sl_str text, sl_expr_proj **out) {
  sl__expr_parsed pr = {0};
  sl_expr_proj *p;
  cx->param = SL_EXPR_PROJECTION;
  sl_err err = sl__expr_parse_projection(cx, text, &p, &pr);
  if (err != SL_OK)
    return err;
  if ((err = check_reserved(cx, &pr)) != SL_OK)
    return err;
  const sl_expr_path **paths = SL_NEW_ARRAY(cx->arena, const sl_expr_path *, p->n);
  for (uint32_t i = 0; i < p->n; i++) {
    if ((err = sl__expr_resolve_path(cx, &p->paths[i])) != SL_OK)
      return err;
    paths[i] = &p->paths[i];
  }
  if ((err = sl__expr_check_paths(cx, paths, p->n)) != SL_OK)
    return err;
  *out = p;
  return SL_OK;
}

/* ---- key attributes ---- */

static bool is_key_name(const sl_key_schema *ks, sl_str name) {
  return sl_str_eq(name, ks->hash) || (ks->range.len && sl_str_eq(name, ks->range));
}

static sl_err filter_keys(sl_expr_ctx *cx, const sl_expr_node *n, const sl_key_schema *ks) {
  if (n->op == SL_EXPR_OP_PATH) {
    if (n->path.n && n->path.e[0].kind == SL_EXPR_ELEM_NAME && is_key_name(ks, n->path.e[0].name))
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "%s can only contain non-primary key attributes: Primary key attribute: %.*s",
                      cx->filter_name ? cx->filter_name : "Filter Expression",
                      SL_STR_FMT(n->path.e[0].name));
    return SL_OK;
  }
  if (n->op == SL_EXPR_OP_VALUE)
    return SL_OK;
  for (uint16_t i = 0; i < n->n; i++) {
    sl_err err = filter_keys(cx, n->args[i], ks);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

sl_err sl_expr_filter_check_keys(sl_expr_ctx *cx, const sl_expr *filter, const sl_key_schema *ks) {
  return filter ? filter_keys(cx, filter, ks) : SL_OK;
}

sl_err sl_expr_update_check_keys(sl_expr_ctx *cx, const sl_expr_update *u,
                                 const sl_key_schema *ks) {
  for (uint32_t i = 0; u && i < u->n; i++) {
    const sl_expr_path *p = &u->acts[i].path;
    if (p->n && is_key_name(ks, p->e[0].name))
      return sl_failf(cx->f, SL_E_VALIDATION,
                      "One or more parameter values were invalid: Cannot update attribute %.*s. "
                      "This attribute is part of the key",
                      SL_STR_FMT(p->e[0].name));
  }
  return SL_OK;
}

/* ---- key conditions ---- */

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
                    op_text(n));
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

static sl_err key_extract(sl_expr_ctx *cx, const sl_expr_node *c, const sl_key_schema *ks,
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

sl_err sl_expr_parse_key_condition(sl_expr_ctx *cx, sl_str text, const sl_key_schema *ks,
                                   sl_expr_keycond *out) {
  sl_expr *c;
  sl_err err = sl_expr_parse_condition(cx, SL_EXPR_KEY_CONDITION, text, &c);
  if (err != SL_OK)
    return err;
  return key_extract(cx, c, ks, out);
}

sl_err sl__expr_key_extract(sl_expr_ctx *cx, const sl_expr_node *c, const sl_key_schema *ks,
                            sl_expr_keycond *out) {
  return key_extract(cx, c, ks, out);
}
