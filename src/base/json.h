/*
 * json.h — the JSON reader and the streaming JSON writer.
 *
 * Written in-house on purpose (DESIGN.md: the hot path needs ~1 µs to parse a
 * 1.3 KB PutItem body). Both sides work on the request arena.
 *
 * Reader
 * ------
 * sl_json_parse() reads one strict RFC 8259 document into an arena tree:
 *  - the input must be valid UTF-8 (overlong forms, surrogates encoded in
 *    UTF-8 and code points above U+10FFFF are errors);
 *  - escapes are decoded; \uXXXX surrogate pairs become one code point; a lone
 *    surrogate escape becomes '?' (what the service's Java runtime does when it
 *    encodes such a string as UTF-8);
 *  - strings without escapes point into the input (zero copy), so the input
 *    must outlive the tree; strings with escapes are decoded into the arena;
 *  - numbers are kept as their source text (DynamoDB numbers are decimals and
 *    request integers are range-checked by the validator, not here);
 *  - nesting deeper than SL_JSON_MAX_DEPTH is an error;
 *  - leading and trailing whitespace is allowed, anything else after the value
 *    is an error;
 *  - duplicate object keys are kept in document order; lookups return the
 *    LAST occurrence, which is what DynamoDB does (pinned by
 *    tests/unit/base/test_json.c).
 * On error nothing useful is left in the arena and 'err' says where and why.
 *
 * Writer
 * ------
 * sl_jw appends compact JSON (no whitespace) to an sl_buf and inserts commas
 * itself, so callers only say begin/key/value/end. Strings are escaped
 * minimally: '"', '\\' and control characters; other UTF-8 passes through.
 * The writer trusts its caller's nesting; SL_ASSERT catches a key at the top
 * level or right after another key, an end with nothing open or right after a
 * key, and nesting deeper than SL_JW_MAX_DEPTH. That limit is below the
 * reader's: a parsed tree deeper than it cannot be written back with
 * sl_jw_value (DynamoDB documents nest at most 32 levels).
 *
 * Threads: none; everything lives in the caller's arena and buffer.
 */
#ifndef SL_BASE_JSON_H
#define SL_BASE_JSON_H

#include "base/arena.h"

#define SL_JSON_MAX_DEPTH 512

typedef enum {
  SL_JSON_NULL,
  SL_JSON_FALSE,
  SL_JSON_TRUE,
  SL_JSON_NUMBER,
  SL_JSON_STRING,
  SL_JSON_ARRAY,
  SL_JSON_OBJECT,
} sl_json_type;

typedef struct sl_json sl_json;

typedef struct {
  sl_str key;
  sl_json *value;
} sl_json_member;

struct sl_json {
  sl_json_type type;
  union {
    sl_str str; /* STRING: decoded bytes; NUMBER: source text */
    struct {
      sl_json **items;
      size_t n;
    } arr;
    struct {
      sl_json_member *members;
      size_t n;
    } obj;
  };
};

typedef struct {
  size_t offset;   /* byte offset of the problem in the input */
  const char *msg; /* static text, e.g. "unexpected end of input" */
} sl_json_error;

/* Parses 'len' bytes at 'p'. Returns 0 and sets *out, or -1 and fills *err. */
int sl_json_parse(sl_arena *a, const char *p, size_t len, sl_json **out, sl_json_error *err);

/* The value of the last member named 'key' of object 'obj', or NULL (also when
 * 'obj' is NULL or not an object). */
sl_json *sl_json_get(const sl_json *obj, const char *key);
sl_json *sl_json_get_str(const sl_json *obj, sl_str key);

/* Name of a JSON type for messages: "null", "boolean", "number", "string",
 * "array", "object". */
const char *sl_json_type_name(sl_json_type t);

/* Writer. */
#define SL_JW_MAX_DEPTH 128

typedef struct {
  sl_buf *buf;
  int depth;
  uint8_t first[SL_JW_MAX_DEPTH]; /* 1 while the container at this depth has no element yet */
  bool after_key;
} sl_jw;

void sl_jw_init(sl_jw *w, sl_buf *buf);
void sl_jw_obj_begin(sl_jw *w);
void sl_jw_obj_end(sl_jw *w);
void sl_jw_arr_begin(sl_jw *w);
void sl_jw_arr_end(sl_jw *w);
void sl_jw_key(sl_jw *w, sl_str key);
void sl_jw_key_c(sl_jw *w, const char *key);
void sl_jw_str(sl_jw *w, sl_str s);
void sl_jw_str_c(sl_jw *w, const char *s);
/* A string known to need no escaping (sl_json_needs_escape was false): copied
 * as is, without the escape scan. */
void sl_jw_str_safe(sl_jw *w, sl_str s);
/* True when 's' holds a byte JSON must escape ('"', '\\', control). */
bool sl_json_needs_escape(sl_str s);
/* A number written verbatim (already valid JSON number text). */
void sl_jw_number_raw(sl_jw *w, sl_str text);
void sl_jw_int(sl_jw *w, int64_t v);
void sl_jw_uint(sl_jw *w, uint64_t v);
/* Doubles as DynamoDB writes them (Java's Double.toString layout): integral
 * values with one decimal ("1.0"), others in the shortest form that reads back
 * exactly ("0.5", "12.25"); outside [1e-3, 1e7) in E notation ("1.0E7",
 * "2.5E-4"). NaN and infinities are bugs (SL_ASSERT). */
void sl_jw_double(sl_jw *w, double v);
void sl_jw_bool(sl_jw *w, bool v);
void sl_jw_null(sl_jw *w);
/* A complete JSON value rendered elsewhere, inserted verbatim. */
void sl_jw_raw(sl_jw *w, sl_str json);
/* A parsed tree, written back compactly: numbers verbatim, strings re-escaped,
 * members in document order (duplicates included). Parsing the output gives an
 * equal tree. The tree must nest at most SL_JW_MAX_DEPTH deep. */
void sl_jw_value(sl_jw *w, const sl_json *v);

/* Escapes 's' as the body of a JSON string (no quotes) onto 'b'. */
void sl_json_escape(sl_buf *b, sl_str s);

#endif
