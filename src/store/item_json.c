/*
 * DynamoDB JSON <-> items; see item.h.
 *
 * The checks and their messages reproduce the service (observed through
 * DynamoDB Local, whose item validation is the service's code); each message
 * is pinned by tests/conformance/test_put_item.py. Checking happens in
 * document order, so the first offending value is the one reported.
 */
#include "store/item.h"
#include "base/base64.h"
#include "base/log.h"
#include "base/num.h"

#include <stdlib.h>

typedef struct {
  sl_failure *f;
  sl_arena *a;
} ctx;

static sl_err invalid(ctx *c, const char *msg) {
  return sl_failf(c->f, SL_E_VALIDATION, "%s", msg);
}

static sl_err parse_number(ctx *c, sl_str text, sl_str *out, sl_num *num) {
  sl_num n;
  sl_num_status st = sl_num_parse(text, &n);
  /* A syntax error names the offending text (facts: "The parameter cannot be
   * converted to a numeric value: NaN" from the live service). */
  if (st == SL_NUM_SYNTAX && text.len)
    return sl_failf(c->f, SL_E_VALIDATION, "%s: %.*s", sl_num_status_message(st), SL_STR_FMT(text));
  if (st != SL_NUM_OK)
    return invalid(c, sl_num_status_message(st));
  char buf[SL_NUM_MAX_TEXT];
  size_t len = sl_num_format(&n, buf);
  /* Canonical text usually equals the input: keep the zero-copy slice then. */
  if (len == text.len && memcmp(buf, text.p, len) == 0)
    *out = text;
  else
    *out = sl_arena_strdup(c->a, sl_str_make(buf, len));
  if (num)
    *num = n;
  return SL_OK;
}

static sl_err parse_binary(ctx *c, sl_str text, sl_str *out) {
  char *buf = sl_arena_alloc(c->a, sl_base64_decoded_max(text.len) + 1);
  size_t n = sl_base64_decode(text, buf);
  if (n == (size_t)-1) {
    if (text.len % 4)
      return sl_failf(c->f, SL_E_SERIALIZATION,
                      "'%.*s' can not be converted to a Blob: Base64 encoded length is expected a "
                      "multiple of 4 bytes but found: %zu",
                      SL_STR_FMT(text), text.len);
    return sl_failf(c->f, SL_E_SERIALIZATION,
                    "'%.*s' can not be converted to a Blob: Invalid Base64 character",
                    SL_STR_FMT(text));
  }
  *out = sl_str_make(buf, n);
  return SL_OK;
}

/* Renders a JSON string list as Java's List.toString would: "[a, b]". */
static sl_str list_text(ctx *c, const sl_json *arr) {
  sl_buf b;
  sl_buf_init(&b, c->a);
  sl_buf_putc(&b, '[');
  for (size_t i = 0; i < arr->arr.n; i++) {
    if (i)
      sl_buf_puts(&b, SL_STR(", "));
    if (arr->arr.items[i]->type == SL_JSON_STRING)
      sl_buf_puts(&b, arr->arr.items[i]->str);
  }
  sl_buf_putc(&b, ']');
  return sl_buf_str(&b);
}

typedef struct {
  sl_str text;
  sl_num num;
} num_member;

static int cmp_str(const void *x, const void *y) {
  return sl_str_cmp(*(const sl_str *)x, *(const sl_str *)y);
}

static int cmp_num_member(const void *x, const void *y) {
  return sl_num_cmp(&((const num_member *)x)->num, &((const num_member *)y)->num);
}

static sl_err parse_set(ctx *c, sl_av_type t, const sl_json *arr, sl_av *out) {
  size_t n = arr->arr.n;
  if (n == 0) {
    if (t == SL_AV_SS)
      return invalid(c,
                     "One or more parameter values were invalid: An string set  may not be empty");
    if (t == SL_AV_NS)
      return invalid(c,
                     "One or more parameter values were invalid: An number set  may not be empty");
    return invalid(c, "One or more parameter values were invalid: Binary sets should not be empty");
  }
  out->type = (uint8_t)t;
  out->n = (uint32_t)n;
  out->set = SL_NEW_ARRAY(c->a, sl_str, n);
  num_member *nums = t == SL_AV_NS ? SL_NEW_ARRAY(c->a, num_member, n) : NULL;
  for (size_t i = 0; i < n; i++) {
    const sl_json *e = arr->arr.items[i];
    if (e->type != SL_JSON_STRING)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    sl_err rc = SL_OK;
    if (t == SL_AV_SS)
      out->set[i] = e->str;
    else if (t == SL_AV_NS)
      rc = parse_number(c, e->str, &nums[i].text, &nums[i].num);
    else
      rc = parse_binary(c, e->str, &out->set[i]);
    if (rc != SL_OK)
      return rc;
  }
  /* Canonical order: bytewise for SS/BS, numeric for NS (as the service
   * returns them); duplicates are an error. */
  bool dup = false;
  if (t == SL_AV_NS) {
    qsort(nums, n, sizeof(*nums), cmp_num_member);
    for (size_t i = 0; i < n; i++) {
      out->set[i] = nums[i].text;
      if (i && sl_num_cmp(&nums[i - 1].num, &nums[i].num) == 0)
        dup = true;
    }
  } else {
    qsort(out->set, n, sizeof(sl_str), cmp_str);
    for (size_t i = 1; i < n; i++)
      if (sl_str_eq(out->set[i - 1], out->set[i]))
        dup = true;
  }
  if (dup) {
    if (t == SL_AV_SS)
      return sl_failf(c->f, SL_E_VALIDATION,
                      "One or more parameter values were invalid: Input collection %.*s contains "
                      "duplicates.",
                      SL_STR_FMT(list_text(c, arr)));
    if (t == SL_AV_NS)
      return invalid(c, "Input collection contains duplicates");
    return sl_failf(c->f, SL_E_VALIDATION,
                    "One or more parameter values were invalid: Input collection %.*sof type BS "
                    "contains duplicates.",
                    SL_STR_FMT(list_text(c, arr)));
  }
  return SL_OK;
}

static sl_err parse_value(ctx *c, const sl_json *j, int depth, sl_av *out);
static sl_err parse_typed(ctx *c, sl_av_type t, const sl_json *v, int depth, sl_av *out);

static sl_err parse_map(ctx *c, const sl_json *obj, int depth, sl_attr **out, uint32_t *n_out) {
  size_t n = obj->obj.n;
  sl_attr *attrs = SL_NEW_ARRAY(c->a, sl_attr, n ? n : 1);
  uint32_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const sl_json_member *m = &obj->obj.members[i];
    if (m->value->type == SL_JSON_NULL)
      continue; /* a null member is an absent member */
    if (m->key.len == 0)
      return invalid(c, "Empty attribute name");
    attrs[k].name = m->key;
    sl_err rc = parse_value(c, m->value, depth, &attrs[k].v);
    if (rc != SL_OK)
      return rc;
    k++;
  }
  *out = attrs;
  *n_out = sl__attrs_canonicalize(attrs, k);
  return SL_OK;
}

/* The ten datatype member names, in the order a value is checked. */
static const struct {
  const char *name;
  sl_av_type type;
} datatypes[] = {
    {"S", SL_AV_S},   {"N", SL_AV_N}, {"B", SL_AV_B}, {"SS", SL_AV_SS},     {"NS", SL_AV_NS},
    {"BS", SL_AV_BS}, {"M", SL_AV_M}, {"L", SL_AV_L}, {"NULL", SL_AV_NULL}, {"BOOL", SL_AV_BOOL},
};

static int datatype_of(sl_str key) {
  for (size_t i = 0; i < SL_ARRAY_LEN(datatypes); i++)
    if (sl_str_eq_c(key, datatypes[i].name))
      return (int)i;
  return -1;
}

/* 'depth' is the nesting level of this value: a top-level attribute's value
 * is level 1 and DynamoDB allows 32 (measured: 31 nested lists around a
 * string pass, 32 fail). */
static sl_err parse_value(ctx *c, const sl_json *j, int depth, sl_av *out) {
  if (depth > SL_ITEM_MAX_DEPTH)
    return invalid(c, "Nesting Levels have exceeded supported limits: Attributes in the item have "
                      "nested levels beyond supported limit");
  if (j->type != SL_JSON_OBJECT)
    return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
  /* Which datatypes are set? Null members do not count; a repeated member
   * counts once (the last occurrence wins). */
  const sl_json *val[SL_ARRAY_LEN(datatypes)] = {0};
  int nset = 0, which = -1;
  for (size_t i = 0; i < j->obj.n; i++) {
    int d = datatype_of(j->obj.members[i].key);
    if (d < 0)
      continue;
    const sl_json *v = j->obj.members[i].value;
    if (v->type == SL_JSON_NULL) {
      if (val[d])
        nset--;
      val[d] = NULL;
      continue;
    }
    if (!val[d])
      nset++;
    val[d] = v;
    which = d;
  }
  if (nset == 0)
    return invalid(c, "Supplied AttributeValue is empty, must contain exactly one of the supported "
                      "datatypes");
  if (nset > 1) {
    /* Each value's own check comes first, in the order the members were
     * sent: {"S": "a", "N": "x"} is the number's error (dynalite's
     * validateAttributeValue, whose texts and order were the service's;
     * DynamoDB Local agrees). tests/conformance/test_put_item.py. */
    for (size_t i = 0; i < j->obj.n; i++) {
      int d = datatype_of(j->obj.members[i].key);
      if (d < 0 || val[d] != j->obj.members[i].value)
        continue;
      sl_av scratch;
      sl_err rc = parse_typed(c, datatypes[d].type, val[d], depth, &scratch);
      if (rc != SL_OK)
        return rc;
    }
    return invalid(c,
                   "Supplied AttributeValue has more than one datatypes set, must contain exactly "
                   "one of the supported datatypes");
  }
  return parse_typed(c, datatypes[which].type, val[which], depth, out);
}

/* The value 'v' of datatype 't'. */
static sl_err parse_typed(ctx *c, sl_av_type t, const sl_json *v, int depth, sl_av *out) {
  memset(out, 0, sizeof(*out));
  out->type = (uint8_t)t;
  switch (t) {
  case SL_AV_S:
    if (v->type != SL_JSON_STRING)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    out->s = v->str;
    return SL_OK;
  case SL_AV_N:
    if (v->type != SL_JSON_STRING)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    return parse_number(c, v->str, &out->s, NULL);
  case SL_AV_B:
    if (v->type != SL_JSON_STRING)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    return parse_binary(c, v->str, &out->s);
  case SL_AV_SS:
  case SL_AV_NS:
  case SL_AV_BS:
    if (v->type != SL_JSON_ARRAY)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    return parse_set(c, t, v, out);
  case SL_AV_BOOL:
    if (v->type != SL_JSON_TRUE && v->type != SL_JSON_FALSE)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    out->b = v->type == SL_JSON_TRUE;
    return SL_OK;
  case SL_AV_NULL:
    if (v->type != SL_JSON_TRUE && v->type != SL_JSON_FALSE)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    if (v->type != SL_JSON_TRUE)
      return invalid(c,
                     "One or more parameter values were invalid: Null attribute value types must "
                     "have the value of true");
    return SL_OK;
  case SL_AV_L:
    if (v->type != SL_JSON_ARRAY)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    out->n = (uint32_t)v->arr.n;
    out->list = SL_NEW_ARRAY(c->a, sl_av, v->arr.n ? v->arr.n : 1);
    for (size_t i = 0; i < v->arr.n; i++) {
      sl_err rc = parse_value(c, v->arr.items[i], depth + 1, &out->list[i]);
      if (rc != SL_OK)
        return rc;
    }
    return SL_OK;
  case SL_AV_M:
    if (v->type != SL_JSON_OBJECT)
      return sl_failf(c->f, SL_E_SERIALIZATION, "Unexpected value type in payload");
    return parse_map(c, v, depth + 1, &out->map, &out->n);
  case SL_AV_NONE:
    break;
  }
  SL_UNREACHABLE();
}

sl_err sl_av_from_json(sl_failure *f, sl_arena *a, const sl_json *json, sl_av *out) {
  ctx c = {f, a};
  return parse_value(&c, json, 1, out);
}

sl_err sl_item_from_json(sl_failure *f, sl_arena *a, const sl_json *json, sl_item *out) {
  ctx c = {f, a};
  if (json->type != SL_JSON_OBJECT)
    return sl_failf(f, SL_E_SERIALIZATION, "Unexpected value type in payload");
  return parse_map(&c, json, 1, &out->attrs, &out->n);
}

static void write_bytes_b64(sl_jw *w, sl_str bytes) {
  size_t n = sl_base64_encoded_len(bytes.len);
  char small[256];
  char *p = n <= sizeof(small) ? small : malloc(n);
  if (!p)
    sl_panic("out of memory");
  sl_base64_encode(bytes.p, bytes.len, p);
  sl_jw_str_safe(w, sl_str_make(p, n)); /* base64 never needs escaping */
  if (p != small)
    free(p);
}

void sl_av_write_json(sl_jw *w, const sl_av *v) {
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, sl_av_type_name((sl_av_type)v->type));
  switch ((sl_av_type)v->type) {
  case SL_AV_S:
    if (v->safe)
      sl_jw_str_safe(w, v->s);
    else
      sl_jw_str(w, v->s);
    break;
  case SL_AV_N:
    sl_jw_str_safe(w, v->s); /* canonical digits, sign and point */
    break;
  case SL_AV_B:
    write_bytes_b64(w, v->s);
    break;
  case SL_AV_BOOL:
    sl_jw_bool(w, v->b);
    break;
  case SL_AV_NULL:
    sl_jw_bool(w, true);
    break;
  case SL_AV_SS:
  case SL_AV_NS:
  case SL_AV_BS:
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < v->n; i++) {
      if (v->type == SL_AV_BS)
        write_bytes_b64(w, v->set[i]);
      else if (v->type == SL_AV_NS)
        sl_jw_str_safe(w, v->set[i]); /* canonical number text, like N */
      else
        sl_jw_str(w, v->set[i]);
    }
    sl_jw_arr_end(w);
    break;
  case SL_AV_L:
    sl_jw_arr_begin(w);
    for (uint32_t i = 0; i < v->n; i++)
      sl_av_write_json(w, &v->list[i]);
    sl_jw_arr_end(w);
    break;
  case SL_AV_M:
    sl_jw_obj_begin(w);
    for (uint32_t i = 0; i < v->n; i++) {
      sl_jw_key(w, v->map[i].name);
      sl_av_write_json(w, &v->map[i].v);
    }
    sl_jw_obj_end(w);
    break;
  case SL_AV_NONE:
    sl_jw_null(w);
    break;
  }
  sl_jw_obj_end(w);
}

void sl_item_write_json(sl_jw *w, const sl_item *it) {
  sl_jw_obj_begin(w);
  for (uint32_t i = 0; i < it->n; i++) {
    sl_jw_key(w, it->attrs[i].name);
    sl_av_write_json(w, &it->attrs[i].v);
  }
  sl_jw_obj_end(w);
}
