/*
 * shapes.h — the request models of the APIs on the one listener (DynamoDB,
 * DynamoDB Streams, Application Auto Scaling) as static tables (the input
 * half of botocore's service-2.json files), and the regex subset their
 * patterns use.
 *
 * Design: scripts/gen_shapes.py reads botocore's models and writes
 * src/server/shapes.gen.c, which is committed (the build never runs Python).
 * Every shape reachable from an operation's input is one sl_shape row;
 * shapes refer to each other by index into sl_shapes[], across models too.
 * An operation is named by its service's X-Amz-Target prefix and its name. A structure's members
 * are a contiguous run of sl_shape_members[] in the order the validator walks
 * them (the service's order where it is known, else the model's; see the
 * generator); a structure whose walk order differs also has a second run in
 * model order (model_a), the order type errors are found in. String enums and regex programs live
 * in their own pools.
 *
 * Regex programs: a pattern is a sequence of items; an item is a class of
 * code-point ranges (possibly negated) or a group (a sub-sequence), each with
 * a repeat count min..max (max SL_RE_INF = unbounded). Matching is a full
 * match over the code points of a UTF-8 string (Java String.matches), see
 * sl_api_regex_match() in server/validate.h.
 *
 * Invariants: indexes are in range (the generator checks); shape names are
 * unique across the models; sl_shape_ops[] is sorted by (service, name),
 * bytewise as sl_str_cmp orders them, so it can be binary-searched.
 * Ownership and threads: read-only static data, shared freely.
 */
#ifndef SL_SERVER_SHAPES_H
#define SL_SERVER_SHAPES_H

#include "base/str.h"

typedef enum {
  SL_SHAPE_STRUCT,
  SL_SHAPE_LIST,
  SL_SHAPE_MAP,
  SL_SHAPE_STRING,
  SL_SHAPE_BLOB,
  SL_SHAPE_BOOL,
  SL_SHAPE_INT,
  SL_SHAPE_LONG,
  SL_SHAPE_DOUBLE,
  SL_SHAPE_TIMESTAMP,
} sl_shape_type;

/* sl_shape.flags */
#define SL_SHAPE_HAS_MIN 1u
#define SL_SHAPE_HAS_MAX 2u
/* A list whose member, or a map whose value, is itself a list or map: the
 * service's deserializer fails differently on scalars there. */
#define SL_SHAPE_PARAMETERIZED 4u
/* The shape has a length, value, pattern or enum constraint to check. */
#define SL_SHAPE_CONSTRAINED 8u
/* The AttributeValue structure (the validator has a fast path for it; the
 * generator checks that the model still matches that path's assumptions). */
#define SL_SHAPE_ATTRIBUTE_VALUE 16u

typedef struct {
  /* Model shape name, e.g. "KeySchemaElement"; unique across the models: a
   * shape of a later model whose name an earlier one uses is prefixed with its
   * model's id and a '.' ("dynamodbstreams.TableName"). The service prints the
   * part after the last '.'. */
  sl_str name;
  sl_str java;     /* Java type printed by the service, e.g. "class java.lang.String" */
  sl_str enum_msg; /* "Member must satisfy enum value set: [...]" or empty */
  uint8_t type;    /* sl_shape_type */
  uint8_t flags;
  /* STRUCT: first member, member count; LIST: member shape, -; MAP: key shape,
   * value shape; STRING with enum: first value, value count. */
  uint16_t a, b;
  uint16_t model_a;    /* STRUCT: the same members in model order (== a unless reordered) */
  uint16_t hash_first; /* STRUCT: its name -> member table in sl_shape_member_hash */
  uint8_t hash_bits;   /* STRUCT: that table has 1 << hash_bits slots */
  uint16_t pattern;    /* STRING: 1 + index into sl_res, 0 for none */
  int64_t min, max;    /* length (string, blob, list, map) or value (int, long) bounds */
  uint64_t required;   /* STRUCT: bit i set if member a+i is required (at most 64 members) */
} sl_shape;

typedef struct {
  sl_str wire;        /* JSON member name, "TableName" */
  sl_str path;        /* name in validation messages, "tableName" */
  uint16_t shape;     /* index into sl_shapes */
  uint16_t arn_shape; /* 0, or 1 + shape used instead when the value starts with "arn:" */
  uint8_t required;
} sl_shape_member;

typedef struct {
  sl_str service; /* the X-Amz-Target prefix of its API, "DynamoDB_20120810" */
  sl_str name;    /* "CreateTable" */
  uint16_t input;
} sl_shape_op;

#define SL_RE_INF 0xFFFFu

typedef enum {
  SL_RE_CLASS,  /* one code point in ranges[first .. first+n) */
  SL_RE_NCLASS, /* one code point not in those ranges */
  SL_RE_GROUP,  /* the item sequence items[first .. first+n) */
} sl_re_kind;

typedef struct {
  uint32_t lo, hi;
} sl_re_range;

typedef struct {
  uint8_t kind;
  uint16_t min, max;
  uint16_t first, n;
  uint64_t ascii[2]; /* classes: bit c set if code point c < 128 matches (negation applied) */
} sl_re_item;

typedef struct {
  sl_str source; /* the pattern as the model spells it (printed in messages) */
  uint16_t first, n;
} sl_re;

extern const sl_shape sl_shapes[];
extern const size_t sl_shapes_n;
extern const sl_shape_member sl_shape_members[];
/* Per structure, an open-addressing table (linear probing) of walk position
 * + 1 (0 = empty slot), indexed by sl__shape_member_hash(name). */
extern const uint8_t sl_shape_member_hash[];
extern const sl_str sl_shape_enums[];
extern const sl_shape_op sl_shape_ops[];
extern const size_t sl_shape_ops_n;
extern const sl_re sl_res[];
extern const sl_re_item sl_re_items[];
extern const sl_re_range sl_re_ranges[];

/* The hash of a member name used by sl_shape_member_hash (the generator
 * computes the same). 'name' must not be empty. */
static inline unsigned sl__shape_member_hash(sl_str name) {
  return ((uint8_t)name.p[0] * 31u + (uint8_t)name.p[name.len - 1] * 7u + (unsigned)name.len) &
         0xFFFFu;
}

#endif
