/*
 * str.h — byte slices.
 *
 * Design: sluice never relies on NUL termination. Attribute names and binary
 * values may contain NUL bytes, and most strings point straight into a request
 * buffer or an LMDB page, so the universal string type is a (pointer, length)
 * pair that does not own its bytes. Whoever owns the bytes (an arena, a
 * connection buffer, a long-lived object) is named where the slice is made.
 *
 * Invariants: 'p' may be NULL only when 'len' is 0.
 * Threads: slices are plain values; no locking.
 */
#ifndef SL_BASE_STR_H
#define SL_BASE_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  const char *p;
  size_t len;
} sl_str;

/* A slice of a string literal: SL_STR("abc"). */
#define SL_STR(lit) ((sl_str){(lit), sizeof(lit) - 1})
#define SL_STR_NULL ((sl_str){NULL, 0})
/* printf("%.*s", SL_STR_FMT(s)) */
#define SL_STR_FMT(s) (int)(s).len, (s).p

static inline sl_str sl_str_make(const char *p, size_t len) { return (sl_str){p, len}; }

static inline sl_str sl_str_c(const char *cstr) { return (sl_str){cstr, cstr ? strlen(cstr) : 0}; }

static inline bool sl_str_eq(sl_str a, sl_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

static inline bool sl_str_eq_c(sl_str a, const char *cstr) { return sl_str_eq(a, sl_str_c(cstr)); }

/* Bytewise comparison (memcmp order, shorter first on a common prefix): the
 * order DynamoDB uses for S and B values. Returns <0, 0, >0. */
static inline int sl_str_cmp(sl_str a, sl_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.p, b.p, n) : 0;
  if (c != 0)
    return c;
  return (a.len > b.len) - (a.len < b.len);
}

static inline bool sl_str_starts_with(sl_str s, sl_str prefix) {
  return s.len >= prefix.len && (prefix.len == 0 || memcmp(s.p, prefix.p, prefix.len) == 0);
}

/* Case-insensitive ASCII equality, for HTTP header names and values. */
static inline bool sl_str_eq_nocase(sl_str a, sl_str b) {
  if (a.len != b.len)
    return false;
  for (size_t i = 0; i < a.len; i++) {
    unsigned char x = (unsigned char)a.p[i], y = (unsigned char)b.p[i];
    if (x >= 'A' && x <= 'Z')
      x += 32;
    if (y >= 'A' && y <= 'Z')
      y += 32;
    if (x != y)
      return false;
  }
  return true;
}

#endif
