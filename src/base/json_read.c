/*
 * The JSON reader: one strict RFC 8259 document into an arena tree. See
 * json.h for the contract.
 *
 * How it works: one iterative loop (no recursion, so no input can exhaust the
 * C stack) with an explicit stack of open containers. The members of every open
 * container wait on one "scratch" stack; when a container closes, its members
 * are copied into an exact-size arena array and popped. Nodes and their arrays
 * are carved from blocks taken from the arena, so a parse costs a handful of
 * arena calls, not one per value.
 *
 * Strings are scanned 16 bytes at a time (SSE2; 8 with portable SWAR) for the
 * bytes that need attention ('"', '\\', controls, non-ASCII); a string without
 * escapes is returned as a slice of the input. A string with escapes is
 * measured to its closing quote, then decoded into an arena buffer of that size
 * (decoding never grows a string). Escaped strings are rare in requests, so
 * they take their buffer from the arena directly. UTF-8 is validated where it
 * occurs: only inside strings, since any non-ASCII byte outside a string is a
 * syntax error anyway.
 *
 * Every read is bounds-checked against the end of the input; the truncation
 * tests in tests/unit/base/test_json.c run every prefix of several documents against
 * a guard page, and tests/fuzz/fuzz_json.c round-trips whatever parses.
 *
 * Stack: about 6 KiB (the container stack for SL_JSON_MAX_DEPTH levels and a
 * first scratch of JR_SCRATCH_LOCAL members), whatever the input.
 */
#include "base/json.h"
#include "base/log.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Size of the blocks nodes and arrays are carved from; the first block is
 * sized from the input length, up to JR_FIRST_MAX (a quarter of an arena
 * chunk, the most the arena serves from a shared chunk). Requests above half a
 * block go straight to the arena. */
#define JR_BLOCK 8192
#define JR_FIRST_MAX 16384
#define JR_SCRATCH_LOCAL 64

static const char msg_eof[] = "unexpected end of input";

/* What the cold paths (errors, escaped strings) need. The hot state (the
 * bump block, the scratch stack) lives in sl_json_parse's locals and is only
 * touched by inline helpers, so the compiler keeps it in registers. */
typedef struct {
  sl_arena *arena;
  const char *start; /* the input, for error offsets */
  sl_json_error *err;
} jr;

/* A block nodes and arrays are carved from: [cur, end) is free. */
typedef struct {
  char *cur;
  char *end;
} jr_bump;

/* The members of the open containers, innermost last. */
typedef struct {
  sl_json_member *p;
  size_t n;
  size_t cap;
} jr_scratch;

/* Records the error; returns NULL so callers can 'return fail(...)'. */
static const char *fail(jr *r, const char *at, const char *msg) {
  r->err->offset = (size_t)(at - r->start);
  r->err->msg = msg;
  return NULL;
}

static jr_bump bump_block(sl_arena *a, size_t len) {
  char *p = sl_arena_alloc(a, len);
  return (jr_bump){p, p + len};
}

/* 8-byte aligned memory from the current block. */
static inline void *bump_alloc(sl_arena *a, jr_bump *b, size_t len) {
  len = (len + 7) & ~(size_t)7;
  if (__builtin_expect((size_t)(b->end - b->cur) < len, 0)) {
    if (len > JR_BLOCK / 2)
      return sl_arena_alloc(a, len);
    *b = bump_block(a, JR_BLOCK);
  }
  void *q = b->cur;
  b->cur += len;
  return q;
}

static sl_json_member *scratch_grow(sl_arena *a, const sl_json_member *old, size_t n, size_t cap) {
  sl_json_member *s = sl_arena_alloc(a, cap * sizeof(*s));
  memcpy(s, old, n * sizeof(*s));
  return s;
}

/* A new scratch entry (uninitialised). */
static inline sl_json_member *scratch_push(sl_arena *a, jr_scratch *s) {
  if (__builtin_expect(s->n == s->cap, 0)) {
    s->p = scratch_grow(a, s->p, s->n, s->cap * 2);
    s->cap *= 2;
  }
  return &s->p[s->n++];
}

/* JSON whitespace (space, \t, \n, \r) as a bit set over byte values < 64. */
#define WS_MASK ((1ULL << ' ') | (1ULL << '\t') | (1ULL << '\n') | (1ULL << '\r'))

static inline bool is_ws(char c) { return (uint8_t)c <= ' ' && (WS_MASK >> (uint8_t)c & 1); }

static inline const char *skip_ws(const char *p, const char *end) {
  while (p < end && is_ws(*p))
    p++;
  return p;
}

/* Whether a string scan must stop at byte 'c': '"', '\\', controls and
 * non-ASCII (c - 0x20 wraps around for controls). */
static inline bool str_special(uint8_t c) {
  return (uint8_t)(c - 0x20) >= 0x60 || c == '"' || c == '\\';
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The special bytes (see str_special) among the 8 at 'p', as a mask with the
 * high bit of each flagged byte set (little-endian: byte 0 is the lowest).
 * Each term flags the bytes that match; a borrow can only flag spurious bytes
 * above a real match, so the lowest flagged byte is exact. */
static inline uint64_t special8(const char *p) {
  uint64_t x;
  memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  x = __builtin_bswap64(x); /* byte 0 lowest, so borrows run towards later bytes */
#endif
  uint64_t q = x ^ (ONES * '"');
  uint64_t b = x ^ (ONES * '\\');
  uint64_t t = ((q - ONES) & ~q) | ((b - ONES) & ~b) | ((x - ONES * 0x20) & ~x) | x;
  return t & HIGHS;
}

/* Advances to the next special byte of a string, or to 'end'. With SSE2
 * (every x86-64) 16 bytes per step: a signed compare catches controls and
 * non-ASCII at once (bytes >= 0x80 are negative). Elsewhere 8 bytes of SWAR. */
static inline const char *scan_plain(const char *p, const char *end) {
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i bslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                             _mm_cmplt_epi8(x, space));
    unsigned bits = (unsigned)_mm_movemask_epi8(m);
    if (bits)
      return p + __builtin_ctz(bits);
    p += 16;
  }
#endif
  while (end - p >= 8) {
    uint64_t m = special8(p);
    if (m)
      return p + (__builtin_ctzll(m) >> 3); /* the lowest flagged byte is the first match */
    p += 8;
  }
  while (p < end && !str_special((uint8_t)*p))
    p++;
  return p;
}

/* Validates the UTF-8 sequence whose lead byte (>= 0x80) is at 'p' (Unicode
 * table 3-7). Returns the byte after it, or NULL. */
__attribute__((noinline)) static const char *utf8_check(jr *r, const char *p, const char *end) {
  uint8_t c = (uint8_t)p[0];
  uint8_t lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  const char *bad2 = NULL; /* the error when the second byte is a continuation byte out of range */
  int n;                   /* continuation bytes */
  if (c < 0xC0)
    return fail(r, p, "invalid UTF-8: unexpected continuation byte");
  if (c < 0xC2)
    return fail(r, p, "invalid UTF-8: overlong encoding");
  if (c < 0xE0) {
    n = 1;
  } else if (c < 0xF0) {
    n = 2;
    if (c == 0xE0) {
      lo = 0xA0;
      bad2 = "invalid UTF-8: overlong encoding";
    } else if (c == 0xED) {
      hi = 0x9F;
      bad2 = "invalid UTF-8: encoded surrogate";
    }
  } else if (c < 0xF5) {
    n = 3;
    if (c == 0xF0) {
      lo = 0x90;
      bad2 = "invalid UTF-8: overlong encoding";
    } else if (c == 0xF4) {
      hi = 0x8F;
      bad2 = "invalid UTF-8: code point above U+10FFFF";
    }
  } else if (c < 0xF8) {
    return fail(r, p, "invalid UTF-8: code point above U+10FFFF");
  } else {
    return fail(r, p, "invalid UTF-8: invalid byte");
  }
  for (int i = 1; i <= n; i++) {
    if (p + i >= end)
      return fail(r, end, msg_eof);
    uint8_t d = (uint8_t)p[i];
    if (d < 0x80 || d > 0xBF)
      return fail(r, p, "invalid UTF-8: truncated sequence");
    if (i == 1 && (d < lo || d > hi))
      return fail(r, p, bad2);
  }
  return p + n + 1;
}

static inline int hexval(uint8_t c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* Reads the four hex digits of a \u escape at 'p' (the backslash), all before
 * 'lim'. Returns the code unit, or -1. */
static long read_u(const char *p, const char *lim) {
  if (lim - p < 6 || p[1] != 'u')
    return -1;
  long u = 0;
  for (int i = 2; i < 6; i++) {
    int h = hexval((uint8_t)p[i]);
    if (h < 0)
      return -1;
    u = u << 4 | h;
  }
  return u;
}

static char *put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) {
    *o++ = (char)cp;
  } else if (cp < 0x800) {
    *o++ = (char)(0xC0 | cp >> 6);
    *o++ = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *o++ = (char)(0xE0 | cp >> 12);
    *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
    *o++ = (char)(0x80 | (cp & 0x3F));
  } else {
    *o++ = (char)(0xF0 | cp >> 18);
    *o++ = (char)(0x80 | (cp >> 12 & 0x3F));
    *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
    *o++ = (char)(0x80 | (cp & 0x3F));
  }
  return o;
}

/* The slow path of read_string: the string started at 's' and has its first
 * backslash at 'p'. */
__attribute__((noinline)) static const char *
read_string_escaped(jr *r, const char *s, const char *p, const char *end, sl_str *out) {
  /* Find the closing quote: the first '"' not escaped. Escapes are validated
   * below; here a backslash just hides the byte after it. */
  const char *q = p;
  for (;;) {
    while (q < end && *q != '"' && *q != '\\')
      q++;
    if (q == end)
      return fail(r, end, msg_eof);
    if (*q == '"')
      break;
    if (end - q < 2)
      return fail(r, end, msg_eof);
    q += 2;
  }
  /* Decoding never lengthens: every escape is at least as long as its output.
   * (Escaped strings are rare enough to take their memory from the arena.) */
  char *buf = sl_arena_alloc(r->arena, (size_t)(q - s));
  memcpy(buf, s, (size_t)(p - s));
  char *o = buf + (p - s);
  while (p < q) {
    uint8_t c = (uint8_t)*p;
    if (c != '\\') {
      if (c < 0x20)
        return fail(r, p, "control character in string");
      if (c < 0x80) {
        *o++ = (char)c;
        p++;
        continue;
      }
      const char *n = utf8_check(r, p, end);
      if (!n)
        return NULL;
      while (p < n)
        *o++ = *p++;
      continue;
    }
    /* p + 1 < q: the scan above never ends a string on an escaped byte. */
    switch (p[1]) {
    case '"':
    case '\\':
    case '/':
      *o++ = p[1];
      break;
    case 'b':
      *o++ = '\b';
      break;
    case 'f':
      *o++ = '\f';
      break;
    case 'n':
      *o++ = '\n';
      break;
    case 'r':
      *o++ = '\r';
      break;
    case 't':
      *o++ = '\t';
      break;
    case 'u': {
      long u = read_u(p, q);
      if (u < 0)
        return fail(r, p, "invalid \\u escape");
      p += 6;
      if (u >= 0xD800 && u <= 0xDBFF) {
        long lo = read_u(p, q);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
          o = put_utf8(o, 0x10000 + (uint32_t)((u - 0xD800) << 10 | (lo - 0xDC00)));
          p += 6;
        } else {
          *o++ = '?'; /* a lone high surrogate, as Java's UTF-8 encoder writes it */
        }
      } else if (u >= 0xDC00 && u <= 0xDFFF) {
        *o++ = '?'; /* a lone low surrogate */
      } else {
        o = put_utf8(o, (uint32_t)u);
      }
      continue;
    }
    default:
      return fail(r, p, "invalid escape in string");
    }
    p += 2;
  }
  *out = (sl_str){buf, (size_t)(o - buf)};
  return q + 1;
}

/* A string whose opening quote is just before 'p'. Returns the byte after the
 * closing quote, or NULL. */
__attribute__((always_inline)) static inline const char *read_string(jr *r, const char *p,
                                                                     const char *end, sl_str *out) {
  const char *s = p;
  for (;;) {
    p = scan_plain(p, end);
    if (p == end)
      return fail(r, end, msg_eof);
    uint8_t c = (uint8_t)*p;
    if (c == '"') {
      *out = (sl_str){s, (size_t)(p - s)};
      return p + 1;
    }
    if (c == '\\')
      return read_string_escaped(r, s, p, end, out);
    if (c < 0x20)
      return fail(r, p, "control character in string");
    p = utf8_check(r, p, end);
    if (!p)
      return NULL;
  }
}

static inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A number starting at 'p' ('-' or a digit), checked against RFC 8259's
 * grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static const char *read_number(jr *r, const char *p, const char *end) {
  if (*p == '-' && ++p == end)
    return fail(r, end, msg_eof);
  if (*p == '0') {
    p++;
    if (p < end && is_digit(*p))
      return fail(r, p - 1, "leading zero in number");
  } else if (is_digit(*p)) {
    while (++p < end && is_digit(*p))
      ;
  } else {
    return fail(r, p, "invalid number");
  }
  if (p < end && *p == '.') {
    if (++p == end)
      return fail(r, end, msg_eof);
    if (!is_digit(*p))
      return fail(r, p, "expected a digit after the decimal point");
    while (++p < end && is_digit(*p))
      ;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    if (++p < end && (*p == '+' || *p == '-'))
      p++;
    if (p == end)
      return fail(r, end, msg_eof);
    if (!is_digit(*p))
      return fail(r, p, "expected a digit in the exponent");
    while (++p < end && is_digit(*p))
      ;
  }
  return p;
}

/* The literal 'word' (of 'len' bytes) at 'p'. */
static const char *read_literal(jr *r, const char *p, const char *end, const char *word,
                                size_t len) {
  size_t avail = (size_t)(end - p);
  if (avail >= len && memcmp(p, word, len) == 0)
    return p + len;
  size_t i = 0;
  while (i < avail && i < len && p[i] == word[i])
    i++;
  if (i == avail)
    return fail(r, end, msg_eof);
  return fail(r, p, "invalid literal");
}

int sl_json_parse(sl_arena *a, const char *p, size_t len, sl_json **out, sl_json_error *err) {
  if (len == 0)
    p = ""; /* an empty slice may have p == NULL (str.h) */
  sl_json_error local_err;
  sl_json_member local_scratch[JR_SCRATCH_LOCAL];
  size_t base[SL_JSON_MAX_DEPTH]; /* scratch index where each open container starts */
  /* is_obj[d]: whether the container at depth d (1-based) is an object;
   * is_obj[0] = 0 stands for the top level. */
  uint8_t is_obj[SL_JSON_MAX_DEPTH + 1];
  int depth = 0;
  bool in_obj = false; /* is_obj[depth], kept at hand */
  const char *end = p + len;
  sl_json *v = NULL;
  int rc = -1;
  is_obj[0] = 0;
  jr r = {.arena = a, .start = p, .err = err ? err : &local_err};
  jr_scratch sc = {.p = local_scratch, .n = 0, .cap = JR_SCRATCH_LOCAL};
  /* The first block fits a typical tree of this input (about 3.5 times its
   * length for DynamoDB items), so a request body needs one arena call. */
  size_t first = len < JR_FIRST_MAX / 4 ? len * 4 + 256 : JR_FIRST_MAX;
  jr_bump bump = bump_block(a, (first + 15) & ~(size_t)15);

value:
  p = skip_ws(p, end);
  if (p == end)
    goto eof;
  if (*p == '"') { /* the most common value in DynamoDB JSON, before the switch */
    v = bump_alloc(a, &bump, sizeof(sl_json));
    v->type = SL_JSON_STRING;
    p = read_string(&r, p + 1, end, &v->str);
    if (!p)
      goto out;
    goto done;
  }
  switch (*p) {
  case '{':
  case '[':
    if (depth == SL_JSON_MAX_DEPTH) {
      fail(&r, p, "nesting too deep");
      goto out;
    }
    in_obj = *p == '{';
    p = skip_ws(p + 1, end);
    if (p < end && *p == (in_obj ? '}' : ']')) {
      v = bump_alloc(a, &bump, sizeof(sl_json));
      v->type = in_obj ? SL_JSON_OBJECT : SL_JSON_ARRAY;
      v->arr.items = NULL;
      v->arr.n = 0;
      in_obj = is_obj[depth];
      p++;
      goto done;
    }
    base[depth] = sc.n;
    is_obj[++depth] = in_obj;
    if (in_obj)
      goto key;
    goto value;
  case 't':
    p = read_literal(&r, p, end, "true", 4);
    v = bump_alloc(a, &bump, sizeof(sl_json));
    v->type = SL_JSON_TRUE;
    break;
  case 'f':
    p = read_literal(&r, p, end, "false", 5);
    v = bump_alloc(a, &bump, sizeof(sl_json));
    v->type = SL_JSON_FALSE;
    break;
  case 'n':
    p = read_literal(&r, p, end, "null", 4);
    v = bump_alloc(a, &bump, sizeof(sl_json));
    v->type = SL_JSON_NULL;
    break;
  case '-':
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7':
  case '8':
  case '9': {
    const char *s = p;
    p = read_number(&r, p, end);
    if (!p)
      goto out;
    v = bump_alloc(a, &bump, sizeof(sl_json));
    v->type = SL_JSON_NUMBER;
    v->str = (sl_str){s, (size_t)(p - s)};
    goto done;
  }
  default:
    fail(&r, p, "expected a value");
    goto out;
  }
  if (!p)
    goto out;
  v->str = SL_STR_NULL;
  goto done;

key: /* at the first byte of a member (after '{' or ',' and whitespace) */
  if (p == end)
    goto eof;
  if (*p != '"') {
    fail(&r, p, "expected a string key");
    goto out;
  }
  p = read_string(&r, p + 1, end, &scratch_push(a, &sc)->key);
  if (!p)
    goto out;
  if (p < end && *p == ':') {
    p++; /* the common case, ':' right after the key */
  } else {
    p = skip_ws(p, end);
    if (p == end)
      goto eof;
    if (*p != ':') {
      fail(&r, p, "expected ':'");
      goto out;
    }
    p++;
  }
  goto value;

done: /* 'v' is complete; hand it to the enclosing container */
  if (in_obj)
    goto member_done;
  if (depth == 0)
    goto finish;
  scratch_push(a, &sc)->value = v;
  p = skip_ws(p, end);
  if (p == end)
    goto eof;
  if (*p == ',') {
    p++;
    goto value;
  }
  if (*p != ']') {
    fail(&r, p, "expected ',' or ']'");
    goto out;
  }
  {
    p++;
    size_t b = base[--depth];
    size_t n = sc.n - b;
    /* The node and its item array in one allocation. */
    v = bump_alloc(a, &bump, sizeof(sl_json) + n * sizeof(sl_json *));
    sl_json **items = (sl_json **)(v + 1);
    for (size_t i = 0; i < n; i++)
      items[i] = sc.p[b + i].value;
    v->type = SL_JSON_ARRAY;
    v->arr.items = items;
    v->arr.n = n;
    sc.n = b;
    in_obj = is_obj[depth];
    goto done;
  }

member_done:
  sc.p[sc.n - 1].value = v;
  p = skip_ws(p, end);
  if (p == end)
    goto eof;
  if (*p == ',') {
    p = skip_ws(p + 1, end);
    goto key;
  }
  if (*p != '}') {
    fail(&r, p, "expected ',' or '}'");
    goto out;
  }
  {
    p++;
    size_t b = base[--depth];
    size_t n = sc.n - b;
    /* The node and its member array in one allocation. */
    v = bump_alloc(a, &bump, sizeof(sl_json) + n * sizeof(sl_json_member));
    sl_json_member *members = (sl_json_member *)(v + 1);
    for (size_t i = 0; i < n; i++) /* mostly one or two: cheaper than memcpy */
      members[i] = sc.p[b + i];
    v->type = SL_JSON_OBJECT;
    v->obj.members = members;
    v->obj.n = n;
    sc.n = b;
    in_obj = is_obj[depth];
    goto done;
  }

finish:
  p = skip_ws(p, end);
  if (p != end) {
    fail(&r, p, "unexpected data after the value");
    goto out;
  }
  *out = v;
  rc = 0;
  goto out;
eof:
  fail(&r, end, msg_eof);
out:
  return rc;
}

sl_json *sl_json_get_str(const sl_json *obj, sl_str key) {
  if (!obj || obj->type != SL_JSON_OBJECT)
    return NULL;
  /* The last occurrence wins, as in DynamoDB (see json.h). */
  for (size_t i = obj->obj.n; i-- > 0;)
    if (sl_str_eq(obj->obj.members[i].key, key))
      return obj->obj.members[i].value;
  return NULL;
}

sl_json *sl_json_get(const sl_json *obj, const char *key) {
  return sl_json_get_str(obj, sl_str_c(key));
}

const char *sl_json_type_name(sl_json_type t) {
  switch (t) {
  case SL_JSON_NULL:
    return "null";
  case SL_JSON_FALSE:
  case SL_JSON_TRUE:
    return "boolean";
  case SL_JSON_NUMBER:
    return "number";
  case SL_JSON_STRING:
    return "string";
  case SL_JSON_ARRAY:
    return "array";
  case SL_JSON_OBJECT:
    return "object";
  }
  return "unknown";
}
