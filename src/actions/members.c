/* Reading request members into typed values; see members.h. */
#include "actions/members.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

sl_str sl_in_str(const sl_json *obj, const char *member) {
  const sl_json *v = sl_json_get(obj, member);
  return v && v->type == SL_JSON_STRING ? v->str : SL_STR_NULL;
}

bool sl_in_has(const sl_json *obj, const char *member) {
  const sl_json *v = sl_json_get(obj, member);
  return v && v->type != SL_JSON_NULL;
}

sl_err sl_in_refuse_unsupported(sl_req *req, const sl_json *obj, const sl_unsupported *list,
                                size_t n) {
  for (size_t i = 0; i < n; i++)
    if (sl_in_has(obj, list[i].member))
      return sl_fail(req, SL_E_VALIDATION,
                     "sluice does not support %s (%s); see README: Not supported", list[i].member,
                     list[i].what);
  return SL_OK;
}

bool sl_in_bool(const sl_json *obj, const char *member, bool dflt) {
  const sl_json *v = sl_json_get(obj, member);
  if (!v || (v->type != SL_JSON_TRUE && v->type != SL_JSON_FALSE))
    return dflt;
  return v->type == SL_JSON_TRUE;
}

int64_t sl_in_int(const sl_json *obj, const char *member, int64_t dflt) {
  const sl_json *v = sl_json_get(obj, member);
  if (!v || v->type != SL_JSON_NUMBER)
    return dflt;
  char tmp[64];
  size_t n = v->str.len < sizeof(tmp) - 1 ? v->str.len : sizeof(tmp) - 1;
  memcpy(tmp, v->str.p, n);
  tmp[n] = 0;
  /* The validator accepted it as an integer member; fractions truncate the
   * way the service's deserialiser does. */
  double d = strtod(tmp, NULL);
  if (d >= 9.2e18)
    return INT64_MAX;
  if (d <= -9.2e18)
    return INT64_MIN;
  char *end;
  long long ll = strtoll(tmp, &end, 10);
  if (*end == 0)
    return ll;
  return (int64_t)d;
}

sl_err sl_in_table(sl_req *req, const char *member, sl_lookup how, sl_table **out) {
  return sl_req_lookup(req, sl_in_str(req->body, member), how, out);
}

sl_err sl_in_table_of(sl_req *req, const sl_json *obj, const char *member, sl_lookup how,
                      sl_table **out) {
  return sl_req_lookup(req, sl_in_str(obj, member), how, out);
}

sl_rcc sl_in_rcc(const sl_json *body) {
  sl_str v = sl_in_str(body, "ReturnConsumedCapacity");
  if (sl_str_eq_c(v, "TOTAL"))
    return SL_RCC_TOTAL;
  if (sl_str_eq_c(v, "INDEXES"))
    return SL_RCC_INDEXES;
  return SL_RCC_NONE;
}

bool sl_in_member_shadowed(const sl_json *obj, size_t i) {
  for (size_t j = i + 1; j < obj->obj.n; j++)
    if (sl_str_eq(obj->obj.members[j].key, obj->obj.members[i].key))
      return true;
  return false;
}

const sl_json *sl_in_obj(const sl_json *obj, const char *member) {
  const sl_json *v = sl_json_get(obj, member);
  return v && v->type == SL_JSON_OBJECT ? v : NULL;
}

const sl_json *sl_in_arr(const sl_json *obj, const char *member) {
  const sl_json *v = sl_json_get(obj, member);
  return v && v->type == SL_JSON_ARRAY ? v : NULL;
}

/* ---- table definitions ---- */

/* The AttributeName and 'second' members of a list's objects (KeySchema,
 * AttributeDefinitions), in arena memory; NULL when 'list' is no array. */
static sl_attr_in *attr_list(sl_arena *a, const sl_json *list, const char *second) {
  if (!list || list->type != SL_JSON_ARRAY)
    return NULL;
  sl_attr_in *e = SL_NEW_ARRAY(a, sl_attr_in, list->arr.n + 1);
  for (size_t i = 0; i < list->arr.n; i++)
    e[i] = (sl_attr_in){sl_in_str(list->arr.items[i], "AttributeName"),
                        sl_in_str(list->arr.items[i], second)};
  return e;
}

sl_key_schema_in sl_in_key_schema(sl_arena *a, const sl_json *list) {
  const sl_attr_in *e = attr_list(a, list, "KeyType");
  return (sl_key_schema_in){e, e ? (uint32_t)list->arr.n : 0};
}

sl_attr_defs_in sl_in_attr_defs(sl_arena *a, const sl_json *list) {
  const sl_attr_in *e = attr_list(a, list, "AttributeType");
  return (sl_attr_defs_in){e, e ? (uint32_t)list->arr.n : 0, e != NULL};
}

sl_projection_in sl_in_projection(sl_arena *a, const sl_json *proj) {
  sl_projection_in in;
  memset(&in, 0, sizeof(in));
  in.type = sl_in_str(proj, "ProjectionType");
  const sl_json *nk = sl_in_arr(proj, "NonKeyAttributes");
  if (!nk)
    return in;
  in.has_non_key = true;
  sl_str *names = SL_NEW_ARRAY(a, sl_str, nk->arr.n + 1);
  for (size_t i = 0; i < nk->arr.n; i++)
    names[i] = nk->arr.items[i]->type == SL_JSON_STRING ? nk->arr.items[i]->str : SL_STR_NULL;
  in.non_key = names;
  in.n_non_key = (uint32_t)nk->arr.n;
  return in;
}

sl_units_in sl_in_units(const sl_json *obj, const char *read, const char *write) {
  sl_units_in in;
  memset(&in, 0, sizeof(in));
  if (!obj || obj->type != SL_JSON_OBJECT)
    return in;
  in.present = true;
  in.has_read = sl_in_has(obj, read);
  in.has_write = sl_in_has(obj, write);
  in.read = sl_in_int(obj, read, 0);
  in.write = sl_in_int(obj, write, 0);
  return in;
}

/* ---- tags ---- */

/* Tag text: Unicode letters, digits and spaces and _ . : / = + - @ (the
 * service's pattern ^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$), 'max' code points
 * at most. Characters outside ASCII are taken as letters: sluice carries no
 * Unicode tables, so a non-ASCII symbol the service refuses passes here. */
static bool tag_text_ok(sl_str s, size_t min, size_t max) {
  size_t points = 0;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.p[i];
    if ((c & 0xC0) != 0x80)
      points++;
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      continue;
    if (!strchr(" _.:/=+-@", c) || c == 0)
      return false;
  }
  return points >= min && points <= max;
}

static sl_err check_tag_key(sl_failure *f, const sl_json *k) {
  if (!k || k->type != SL_JSON_STRING || !tag_text_ok(k->str, 1, 128))
    return sl_failf(f, SL_E_VALIDATION, "The Tag Key provided is invalid, Key: %.*s",
                    SL_STR_FMT(k && k->type == SL_JSON_STRING ? k->str : SL_STR("null")));
  return SL_OK;
}

sl_err sl_in_check_tags(sl_failure *f, const sl_json *tags) {
  if (!tags || tags->type != SL_JSON_ARRAY)
    return SL_OK;
  if (tags->arr.n == 0)
    return sl_failf(f, SL_E_VALIDATION, "Atleast one Tag needs to be provided as Input.");
  for (size_t i = 0; i < tags->arr.n; i++) {
    const sl_json *k = sl_json_get(tags->arr.items[i], "Key");
    const sl_json *v = sl_json_get(tags->arr.items[i], "Value");
    sl_err err = check_tag_key(f, k);
    if (err != SL_OK)
      return err;
    if (!v || v->type != SL_JSON_STRING || !tag_text_ok(v->str, 0, 256))
      return sl_failf(f, SL_E_VALIDATION, "The Tag Value provided is invalid, Value: %.*s",
                      SL_STR_FMT(v && v->type == SL_JSON_STRING ? v->str : SL_STR("null")));
    if (sl_str_starts_with(k->str, SL_STR("aws:")))
      return sl_failf(f, SL_E_VALIDATION, "Tag Key cannot be prefixed with aws:, Key: %.*s",
                      SL_STR_FMT(k->str));
    for (size_t j = 0; j < i; j++)
      if (sl_str_eq(sl_in_str(tags->arr.items[j], "Key"), k->str))
        return sl_failf(f, SL_E_VALIDATION,
                        "Duplicate Tag Keys provided as input: Duplicate Tag Key found %.*s",
                        SL_STR_FMT(k->str));
  }
  return SL_OK;
}

sl_err sl_in_check_tag_keys(sl_failure *f, const sl_json *keys) {
  if (!keys || keys->type != SL_JSON_ARRAY || keys->arr.n == 0)
    return sl_failf(f, SL_E_VALIDATION, "Atleast one Tag Key needs to be provided as Input.");
  if (keys->arr.n > SL_TABLE_MAX_TAGS)
    return sl_failf(f, SL_E_VALIDATION,
                    "Number of Tags exceed the current limit for the provided ResourceArn");
  for (size_t i = 0; i < keys->arr.n; i++) {
    sl_err err = check_tag_key(f, keys->arr.items[i]);
    if (err != SL_OK)
      return err;
  }
  return SL_OK;
}

void sl_in_tags(sl_arena *a, const sl_json *tags, sl_tag **out, uint32_t *n) {
  *out = NULL;
  *n = 0;
  if (!tags || tags->type != SL_JSON_ARRAY)
    return;
  sl_tag *t = SL_NEW_ARRAY(a, sl_tag, tags->arr.n + 1);
  for (size_t i = 0; i < tags->arr.n; i++)
    t[i] = (sl_tag){sl_in_str(tags->arr.items[i], "Key"), sl_in_str(tags->arr.items[i], "Value")};
  *out = t;
  *n = (uint32_t)tags->arr.n;
}

sl_err sl_in_refuse_kms(sl_req *req, const sl_json *body) {
  const sl_json *sse = sl_json_get(body, "SSESpecification");
  if (sse && sse->type == SL_JSON_OBJECT && sl_in_bool(sse, "Enabled", false))
    return sl_fail(req, SL_E_VALIDATION,
                   "sluice does not support SSESpecification with Enabled true (server-side "
                   "encryption with a KMS key); see README: Not supported");
  return SL_OK;
}

/* ---- transactions ---- */

/* The members of each action type in the model (botocore service-2.json). */
static const char *const put_members[] = {"Item",
                                          "TableName",
                                          "ConditionExpression",
                                          "ExpressionAttributeNames",
                                          "ExpressionAttributeValues",
                                          "ReturnValuesOnConditionCheckFailure",
                                          NULL};
static const char *const update_members[] = {"Key",
                                             "UpdateExpression",
                                             "TableName",
                                             "ConditionExpression",
                                             "ExpressionAttributeNames",
                                             "ExpressionAttributeValues",
                                             "ReturnValuesOnConditionCheckFailure",
                                             NULL};
static const char *const keyed_members[] = {"Key",
                                            "TableName",
                                            "ConditionExpression",
                                            "ExpressionAttributeNames",
                                            "ExpressionAttributeValues",
                                            "ReturnValuesOnConditionCheckFailure",
                                            NULL};
static const char *const get_members[] = {"Key", "TableName", "ProjectionExpression",
                                          "ExpressionAttributeNames", NULL};

static const char *const *members_of(const char *kind) {
  if (!strcmp(kind, "Put"))
    return put_members;
  if (!strcmp(kind, "Update"))
    return update_members;
  if (!strcmp(kind, "Get"))
    return get_members;
  return keyed_members; /* Delete, ConditionCheck */
}

static bool listed(const char *const *names, sl_str key) {
  for (; *names; names++)
    if (sl_str_eq_c(key, *names))
      return true;
  return false;
}

const sl_json *sl_in_transact_action(sl_req *req, const sl_json *elem, const char *kind) {
  const sl_json *src = sl_json_get(elem, kind);
  if (!src || src->type != SL_JSON_OBJECT)
    return NULL;
  const char *const *names = members_of(kind);
  sl_json *obj = SL_NEW(req->arena, sl_json);
  obj->type = SL_JSON_OBJECT;
  obj->obj.members = SL_NEW_ARRAY(req->arena, sl_json_member, src->obj.n ? src->obj.n : 1);
  for (size_t i = 0; i < src->obj.n; i++)
    if (listed(names, src->obj.members[i].key))
      obj->obj.members[obj->obj.n++] = src->obj.members[i];
  return obj;
}

void sl_in_fingerprint(sl_req *req, const sl_json *items, uint8_t out[16]) {
  sl_buf b;
  sl_buf_init(&b, req->arena);
  sl_jw w;
  sl_jw_init(&w, &b);
  sl_jw_value(&w, items);
  XXH128_hash_t h = XXH3_128bits(b.p, b.len);
  for (int i = 0; i < 8; i++) {
    out[i] = (uint8_t)(h.low64 >> (8 * i));
    out[8 + i] = (uint8_t)(h.high64 >> (8 * i));
  }
}
