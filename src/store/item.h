/*
 * item.h — DynamoDB items and attribute values in memory, their sizes, and
 * their two external forms: DynamoDB JSON (the wire) and the compact binary
 * encoding (LMDB values).
 *
 * Design
 * ------
 * An item is a sorted array of (name, value) attributes. A value (sl_av) is a
 * tagged union over DynamoDB's ten types. Everything lives in the request
 * arena: decoding an LMDB value or a request's JSON copies nothing it does not
 * have to (strings point into the JSON input or the LMDB page — so an item
 * decoded from LMDB must not outlive its read transaction, STYLE.md; use
 * sl_item_copy to keep one).
 *
 * Canonical form (every sl_item built by this module is canonical):
 *  - item attributes and map entries are sorted by name (bytewise) and unique
 *    (for duplicate names in JSON the last one wins, as the service does);
 *  - N values hold their canonical text (base/num.h);
 *  - B values hold decoded bytes;
 *  - set members are unique and sorted bytewise (NS by canonical text), so
 *    equal sets have equal representations.
 *
 * Sizes (facts §2.1): an attribute costs its name's UTF-8 bytes plus its
 * value: S = UTF-8 bytes; N = sl_num_size; B = bytes; BOOL and NULL = 1;
 * SS/NS/BS = sum of members; L and M = 3 + sum over elements of (element
 * size + 1), where a map element's size includes its name. The item's size is
 * the sum over its attributes. tests/unit/store/test_item.c pins the documentation's
 * worked examples.
 *
 * Binary encoding, format version 1 (never renumber a tag):
 *
 *   item  := 0x01 (version) | size:varint | n:varint | attr{n}
 *   attr  := name_len:varint | name | value
 *   value := tag:u8 | payload
 *
 *   tag  type  payload
 *   0x01 S     len:varint | bytes
 *   0x02 N     len:varint | canonical text
 *   0x03 B     len:varint | bytes
 *   0x04 BOOL  (false)
 *   0x05 BOOL  (true)
 *   0x06 NULL
 *   0x07 SS    n:varint | (len:varint | bytes){n}
 *   0x08 NS    n:varint | (len:varint | text){n}
 *   0x09 BS    n:varint | (len:varint | bytes){n}
 *   0x0A L     n:varint | value{n}
 *   0x0B M     n:varint | (name_len:varint | name | value){n}
 *   0x0C S     len:varint | bytes — a string with no byte JSON must escape
 *              (written when the item is stored, so that reads copy it to the
 *              reply without scanning it again)
 *
 * varint is LEB128 (7 bits per byte, low first). 'size' is the item's
 * DynamoDB size, so pricing an old item needs no walk. Attributes and map
 * entries are stored in canonical (sorted) order.
 *
 * Threads: none; arena-owned values.
 */
#ifndef SL_STORE_ITEM_H
#define SL_STORE_ITEM_H

#include "base/err.h"
#include "base/json.h"

#define SL_ITEM_MAX_BYTES (400 * 1024)
#define SL_ITEM_MAX_DEPTH 32
#define SL_ITEM_FORMAT 1

typedef enum {
  SL_AV_NONE = 0,
  SL_AV_S = 1,
  SL_AV_N = 2,
  SL_AV_B = 3,
  SL_AV_BOOL = 4,
  SL_AV_NULL = 6,
  SL_AV_SS = 7,
  SL_AV_NS = 8,
  SL_AV_BS = 9,
  SL_AV_L = 10,
  SL_AV_M = 11,
} sl_av_type;

typedef struct sl_av sl_av;
typedef struct sl_attr sl_attr;

struct sl_av {
  uint8_t type; /* sl_av_type */
  bool b;       /* BOOL */
  bool safe;    /* S read from storage that needs no JSON escaping */
  uint32_t n;   /* members of SS/NS/BS/L/M */
  union {
    sl_str s;     /* S, N (canonical text), B (bytes) */
    sl_str *set;  /* SS, NS, BS: n members, sorted, unique */
    sl_av *list;  /* L */
    sl_attr *map; /* M: n entries sorted by name */
  };
};

struct sl_attr {
  sl_str name;
  sl_av v;
};

typedef struct {
  sl_attr *attrs; /* sorted by name, unique */
  uint32_t n;
} sl_item;

/* DynamoDB's short type names: "S", "N", "B", "BOOL", "NULL", "SS", ... */
const char *sl_av_type_name(sl_av_type t);

/* Sizes (facts §2.1). */
size_t sl_av_size(const sl_av *v);
size_t sl_item_size(const sl_item *it);

/* Lookup by name (binary search); NULL when absent. */
const sl_av *sl_item_get(const sl_item *it, sl_str name);
const sl_av *sl_av_map_get(const sl_av *m, sl_str name);

/* Order of two scalar key values of the same type: S and B bytewise, N
 * numerically (DynamoDB's sort-key order). <0, 0, >0. */
int sl_av_cmp_scalar(const sl_av *a, const sl_av *b);

/* Deep equality (sets compare as sets; numbers numerically — canonical text
 * makes that bytewise). */
bool sl_av_eq(const sl_av *a, const sl_av *b);

/* Builders for canonical items: set or remove one attribute, returning a new
 * item in the arena (the old one is untouched). */
sl_item sl_item_set(sl_arena *a, const sl_item *it, sl_str name, const sl_av *v);
sl_item sl_item_remove(sl_arena *a, const sl_item *it, sl_str name);
/* Deep copy into 'a' (to keep an item past its LMDB transaction). */
sl_item sl_item_copy(sl_arena *a, const sl_item *it);
/* Sorts and de-duplicates (last wins) attrs in place: makes an item canonical. */
void sl_item_canonicalize(sl_item *it);

/* DynamoDB JSON → item. 'json' must be an object of attribute values (the
 * request validator has checked member types). Checks every value rule with
 * the service's messages: exactly one datatype, NULL must be true, empty sets,
 * duplicate set members, numbers (syntax, precision, range), base64, empty
 * attribute names, nesting depth. Fails with SL_E_VALIDATION (or
 * SL_E_SERIALIZATION for base64) on 'f'. */
sl_err sl_item_from_json(sl_failure *f, sl_arena *a, const sl_json *json, sl_item *out);
sl_err sl_av_from_json(sl_failure *f, sl_arena *a, const sl_json *json, sl_av *out);

/* Item / value → DynamoDB JSON. */
void sl_item_write_json(sl_jw *w, const sl_item *it);
void sl_av_write_json(sl_jw *w, const sl_av *v);

/* Binary encoding. sl_item_encode appends to 'b'. sl_item_decode returns
 * false on a malformed value (a bug or corruption: callers assert); it also
 * gives the stored item size when size_out is not NULL. */
void sl_item_encode(sl_buf *b, const sl_item *it);
bool sl_item_decode(sl_arena *a, const void *p, size_t len, sl_item *out, size_t *size_out);
/* The stored size field of an encoded item, without decoding it. */
bool sl_item_encoded_size(const void *p, size_t len, size_t *out);

/* Sorts 'n' attributes by name, last duplicate wins; returns the new count. */
uint32_t sl__attrs_canonicalize(sl_attr *v, uint32_t n);

#endif
