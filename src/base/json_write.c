/*
 * The streaming JSON writer and string escaping. See json.h for the contract.
 *
 * The writer keeps one flag per open container ("no element yet") and puts the
 * comma before every element but the first; a key clears the way for exactly
 * one value. Output is compact: no whitespace at all.
 */
#include "base/json.h"
#include "base/log.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* For each byte, what follows the backslash when it must be escaped: 0 means
 * the byte passes through, 'u' means \u00XX. Only '"', '\\' and controls are
 * escaped; DEL and non-ASCII UTF-8 pass through (as Jackson writes them). */
static const char esc_tab[256] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b',         't',           'n', 'u',
    'f', 'r', 'u', 'u', 'u', 'u', 'u', 'u', 'u',         'u',           'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', ['"'] = '"', ['\\'] = '\\',
};

/* Room for 'n' more bytes in 'b'; returns where they go (b->len unchanged). */
static inline char *jw_room(sl_buf *b, size_t n) {
  if (b->cap - b->len < n)
    sl_buf_reserve(b, n);
  return b->p + b->len;
}

/* Slack the string copy may overwrite past its output (bulk stores). */
#define JW_SLACK 16

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The bytes among 8 that need escaping ('"', '\\', < 0x20), as the high bit
 * of each flagged byte; as in json_read.c, the lowest flag is exact. Bytes
 * >= 0x80 are never flagged: ~x clears their high bit in every term. */
static inline uint64_t escape8(uint64_t x) {
  uint64_t q = x ^ (ONES * '"');
  uint64_t b = x ^ (ONES * '\\');
  return (((q - ONES) & ~q) | ((b - ONES) & ~b) | (x - ONES * 0x20)) & ~x & HIGHS;
}

/* Writes 's' escaped at 'o' in 'b' and returns the end of the output. The
 * caller guarantees room for s.len + JW_SLACK bytes at 'o'; on return there is
 * room for JW_SLACK more bytes at the result. 'b' may be reallocated (only
 * when something needs escaping), so 'o' is reloaded from it. */
static char *put_escaped(sl_buf *b, char *o, sl_str s) {
  static const char hex[] = "0123456789ABCDEF";
  if (s.len == 0)
    return o; /* s.p may be NULL (str.h) */
  const char *p = s.p;
  const char *end = p + s.len;
  for (;;) {
    /* Copy 8 bytes at a time, advancing only past the clean ones. */
    while (end - p >= 8) {
      uint64_t x;
      memcpy(&x, p, 8);
      memcpy(o, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      x = __builtin_bswap64(x); /* byte 0 lowest, as escape8 needs */
#endif
      uint64_t m = escape8(x);
      if (m) {
        size_t k = (size_t)__builtin_ctzll(m) >> 3;
        p += k;
        o += k;
        goto special;
      }
      p += 8;
      o += 8;
    }
    while (p < end && !esc_tab[(uint8_t)*p])
      *o++ = *p++;
    if (p == end)
      return o;
  special:;
    /* Keep the invariant: room for the escape, the rest and the slack. */
    b->len = (size_t)(o - b->p);
    o = jw_room(b, 6 + (size_t)(end - p) + JW_SLACK);
    uint8_t c = (uint8_t)*p++;
    char e = esc_tab[c];
    *o++ = '\\';
    *o++ = e;
    if (e == 'u') {
      *o++ = '0';
      *o++ = '0';
      *o++ = hex[c >> 4];
      *o++ = hex[c & 15];
    }
  }
}

void sl_json_escape(sl_buf *b, sl_str s) {
  char *o = jw_room(b, s.len + JW_SLACK);
  o = put_escaped(b, o, s);
  b->len = (size_t)(o - b->p);
}

void sl_jw_init(sl_jw *w, sl_buf *buf) {
  w->buf = buf;
  w->depth = 0;
  w->after_key = false;
}

/* Whether the next value or key needs a comma before it (and records that
 * one follows): not after a key, not first in its container, not at the top
 * level. */
static inline bool jw_comma(sl_jw *w) {
  if (w->after_key) {
    w->after_key = false;
    return false;
  }
  if (w->depth == 0)
    return false;
  if (w->first[w->depth - 1]) {
    w->first[w->depth - 1] = 0;
    return false;
  }
  return true;
}

/* Room for a comma and 'n' bytes; writes the comma if one is due. */
static inline char *jw_start(sl_jw *w, size_t n) {
  char *o = jw_room(w->buf, n + 1);
  *o = ',';
  return o + jw_comma(w);
}

static inline void jw_finish(sl_jw *w, char *o) { w->buf->len = (size_t)(o - w->buf->p); }

static void jw_open(sl_jw *w, char c) {
  SL_ASSERT(w->depth < SL_JW_MAX_DEPTH);
  char *o = jw_start(w, 1);
  *o++ = c;
  jw_finish(w, o);
  w->first[w->depth++] = 1;
}

static void jw_close(sl_jw *w, char c) {
  SL_ASSERT(w->depth > 0 && !w->after_key);
  w->depth--;
  sl_buf_putc(w->buf, c);
}

void sl_jw_obj_begin(sl_jw *w) { jw_open(w, '{'); }
void sl_jw_obj_end(sl_jw *w) { jw_close(w, '}'); }
void sl_jw_arr_begin(sl_jw *w) { jw_open(w, '['); }
void sl_jw_arr_end(sl_jw *w) { jw_close(w, ']'); }

void sl_jw_key(sl_jw *w, sl_str key) {
  SL_ASSERT(w->depth > 0 && !w->after_key);
  char *o = jw_start(w, key.len + 1 + JW_SLACK);
  *o++ = '"';
  o = put_escaped(w->buf, o, key);
  *o++ = '"';
  *o++ = ':';
  jw_finish(w, o);
  w->after_key = true;
}

void sl_jw_key_c(sl_jw *w, const char *key) { sl_jw_key(w, sl_str_c(key)); }

void sl_jw_str(sl_jw *w, sl_str s) {
  char *o = jw_start(w, s.len + 1 + JW_SLACK);
  *o++ = '"';
  o = put_escaped(w->buf, o, s);
  *o++ = '"';
  jw_finish(w, o);
}

void sl_jw_str_c(sl_jw *w, const char *s) { sl_jw_str(w, sl_str_c(s)); }

bool sl_json_needs_escape(sl_str s) {
  const char *p = s.p, *end = p + s.len;
  while (end - p >= 8) {
    uint64_t x;
    memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    if (escape8(x))
      return true;
    p += 8;
  }
  while (p < end)
    if (esc_tab[(uint8_t)*p++])
      return true;
  return false;
}

void sl_jw_str_safe(sl_jw *w, sl_str s) {
  char *o = jw_start(w, s.len + 2);
  *o++ = '"';
  if (s.len)
    memcpy(o, s.p, s.len);
  o += s.len;
  *o++ = '"';
  jw_finish(w, o);
}

/* Appends 'len' bytes verbatim as one value. */
static void jw_verbatim(sl_jw *w, const char *p, size_t len) {
  char *o = jw_start(w, len);
  if (len)
    memcpy(o, p, len);
  jw_finish(w, o + len);
}

void sl_jw_number_raw(sl_jw *w, sl_str text) { jw_verbatim(w, text.p, text.len); }

void sl_jw_raw(sl_jw *w, sl_str json) { jw_verbatim(w, json.p, json.len); }

/* Decimal digits of 'v', written backwards ending at 'end'; returns the start. */
static char *u64_digits(char *end, uint64_t v) {
  do {
    *--end = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return end;
}

void sl_jw_uint(sl_jw *w, uint64_t v) {
  char tmp[24];
  char *s = u64_digits(tmp + sizeof(tmp), v);
  jw_verbatim(w, s, (size_t)(tmp + sizeof(tmp) - s));
}

void sl_jw_int(sl_jw *w, int64_t v) {
  char tmp[24];
  /* The magnitude as unsigned, so INT64_MIN does not overflow. */
  uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  char *s = u64_digits(tmp + sizeof(tmp), m);
  if (v < 0)
    *--s = '-';
  jw_verbatim(w, s, (size_t)(tmp + sizeof(tmp) - s));
}

/*
 * Doubles are laid out as Java's Double.toString does (the service writes its
 * capacity numbers that way): the shortest digits that read back exactly, as a
 * plain decimal with at least one fractional digit when 1e-3 <= |v| < 1e7
 * ("1.0", "0.5", "12.25"), otherwise as d.dddE<exp> ("1.0E7", "2.5E-4").
 *
 * Shortest digits: any decimal of at most 15 significant digits survives a
 * round trip through a double, and the 15-digit grid is coarser than the
 * doubles', so if some <= 15-digit form reads back, %.15g finds it (with its
 * zeros stripped). Otherwise 16, then 17 digits (17 always reads back).
 * (Subnormals and zero are searched from one digit up.)
 */
void sl_jw_double(sl_jw *w, double v) {
  SL_ASSERT(isfinite(v));
  char sci[40];
  /* Subnormals carry fewer digits, so the 15-digit argument does not hold:
   * search from one digit up. */
  int from = fabs(v) < DBL_MIN ? 1 : 15;
  for (int prec = from; prec <= 17; prec++) {
    snprintf(sci, sizeof(sci), "%.*e", prec - 1, v);
    if (prec == 17 || strtod(sci, NULL) == v)
      break;
  }
  /* sci is "[-]d.ddde[+-]xx": collect the significant digits and exponent. */
  char digits[20];
  int nd = 0;
  const char *s = sci;
  bool neg = *s == '-';
  if (neg)
    s++;
  for (; *s != 'e'; s++)
    if (*s != '.')
      digits[nd++] = *s;
  int exp10 = atoi(s + 1); /* v = d.ddd x 10^exp10 */
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;

  char out[64];
  int o = 0;
  if (neg)
    out[o++] = '-';
  double mag = fabs(v);
  if (mag == 0 || (mag >= 1e-3 && mag < 1e7)) {
    if (mag == 0)
      exp10 = 0;
    if (exp10 >= 0) {
      for (int i = 0; i <= exp10; i++)
        out[o++] = i < nd ? digits[i] : '0';
      out[o++] = '.';
      if (nd > exp10 + 1)
        for (int i = exp10 + 1; i < nd; i++)
          out[o++] = digits[i];
      else
        out[o++] = '0';
    } else {
      out[o++] = '0';
      out[o++] = '.';
      for (int i = -1; i > exp10; i--)
        out[o++] = '0';
      for (int i = 0; i < nd; i++)
        out[o++] = digits[i];
    }
  } else {
    out[o++] = digits[0];
    out[o++] = '.';
    if (nd > 1)
      for (int i = 1; i < nd; i++)
        out[o++] = digits[i];
    else
      out[o++] = '0';
    o += snprintf(out + o, sizeof(out) - (size_t)o, "E%d", exp10);
  }
  jw_verbatim(w, out, (size_t)o);
}

void sl_jw_bool(sl_jw *w, bool v) {
  if (v)
    jw_verbatim(w, "true", 4);
  else
    jw_verbatim(w, "false", 5);
}

void sl_jw_null(sl_jw *w) { jw_verbatim(w, "null", 4); }

/* A parsed tree onto 'b', commas written directly (the tree knows its own
 * structure). 'depth_left' bounds the recursion as SL_JW_MAX_DEPTH does for
 * the streaming calls. */
static void put_tree(sl_buf *b, const sl_json *v, int depth_left) {
  char *o;
  switch (v->type) {
  case SL_JSON_NULL:
    sl_buf_append(b, "null", 4);
    return;
  case SL_JSON_FALSE:
    sl_buf_append(b, "false", 5);
    return;
  case SL_JSON_TRUE:
    sl_buf_append(b, "true", 4);
    return;
  case SL_JSON_NUMBER:
    sl_buf_append(b, v->str.p, v->str.len);
    return;
  case SL_JSON_STRING:
    o = jw_room(b, v->str.len + 1 + JW_SLACK);
    *o++ = '"';
    o = put_escaped(b, o, v->str);
    *o++ = '"';
    b->len = (size_t)(o - b->p);
    return;
  case SL_JSON_ARRAY:
    SL_ASSERT(depth_left > 0);
    sl_buf_putc(b, '[');
    for (size_t i = 0; i < v->arr.n; i++) {
      if (i)
        sl_buf_putc(b, ',');
      put_tree(b, v->arr.items[i], depth_left - 1);
    }
    sl_buf_putc(b, ']');
    return;
  case SL_JSON_OBJECT:
    SL_ASSERT(depth_left > 0);
    sl_buf_putc(b, '{');
    for (size_t i = 0; i < v->obj.n; i++) {
      const sl_json_member *m = &v->obj.members[i];
      o = jw_room(b, m->key.len + 2 + JW_SLACK);
      *o = ',';
      o += i != 0;
      *o++ = '"';
      o = put_escaped(b, o, m->key);
      *o++ = '"';
      *o++ = ':';
      b->len = (size_t)(o - b->p);
      put_tree(b, m->value, depth_left - 1);
    }
    sl_buf_putc(b, '}');
    return;
  }
}

void sl_jw_value(sl_jw *w, const sl_json *v) {
  jw_finish(w, jw_start(w, 0)); /* the comma, if one is due */
  put_tree(w->buf, v, SL_JW_MAX_DEPTH - w->depth);
}
