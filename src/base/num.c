/* Exact decimal numbers for DynamoDB's N type: parsing with the service's
 * checks, canonical text, comparison, exact addition, the order-preserving
 * key encoding and the item-size rule. See num.h for the observed service
 * behaviour each function reproduces and for the encoding's byte table. */
#include "base/num.h"

/* Digits of a sum or difference, indexed by decimal weight: the lowest
 * weight is 10^(SL_NUM_EXP_MIN - SL_NUM_MAX_DIGITS) = 10^-167, the highest
 * 10^(SL_NUM_EXP_MAX - 1) = 10^125 plus one carry position. */
#define ACC_LEN (SL_NUM_EXP_MAX - (SL_NUM_EXP_MIN - SL_NUM_MAX_DIGITS) + 1)

/* Base-100 digits of the order encoding (num.h byte table). */
#define ORD_ZERO 0x80
#define ORD_POS_BIAS 0xC0
#define ORD_NEG_BIAS 0x3F
#define ORD_POS_END 0x00
#define ORD_NEG_END 0x66
#define ORD_MAX_PAIRS 20

/* The largest number size the capacity rules charge (num.h). */
#define SIZE_CAP 21

static void num_zero(sl_num *out) { memset(out, 0, sizeof(*out)); }

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Reads the optional exponent part starting at 'p' ('e' or 'E' already
 * consumed). Follows BigDecimal: any number of leading zeros, at most 10
 * significant digits, the value must fit int32. Returns false on a syntax
 * error; '*pp' is left after the digits. */
static bool parse_exponent(const char **pp, const char *end, int64_t *out) {
  const char *p = *pp;
  bool neg = false;
  if (p < end && (*p == '+' || *p == '-')) {
    neg = *p == '-';
    p++;
  }
  const char *d = p;
  while (p < end && is_digit(*p))
    p++;
  *pp = p;
  if (p == d)
    return false;
  while (d < p - 1 && *d == '0')
    d++;
  if (p - d > 10)
    return false;
  int64_t v = 0;
  for (; d < p; d++)
    v = v * 10 + (*d - '0');
  if (neg)
    v = -v;
  if (v > INT32_MAX || v < INT32_MIN)
    return false;
  *out = v;
  return true;
}

sl_num_status sl_num_parse(sl_str text, sl_num *out) {
  const char *p = text.p, *end = text.p + text.len;
  num_zero(out);
  if (text.len == 0)
    return SL_NUM_SYNTAX;

  bool neg = false;
  if (*p == '+' || *p == '-') {
    neg = *p == '-';
    p++;
  }
  const char *mant = p;
  size_t nint = 0, nfrac = 0;
  bool dot = false;
  for (; p < end; p++) {
    if (is_digit(*p)) {
      if (dot)
        nfrac++;
      else
        nint++;
    } else if (*p == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  const char *mant_end = p;
  if (nint + nfrac == 0)
    return SL_NUM_SYNTAX;

  int64_t exp10 = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    if (!parse_exponent(&p, end, &exp10))
      return SL_NUM_SYNTAX;
  }
  if (p != end)
    return SL_NUM_SYNTAX;
  /* BigDecimal's scale (digits after the point minus the exponent) must fit
   * int32, or the text is not a number at all: "0.1E-2147483647". */
  if (nfrac > (size_t)INT32_MAX * 2u)
    return SL_NUM_SYNTAX;
  int64_t scale = (int64_t)nfrac - exp10;
  if (scale > INT32_MAX || scale < INT32_MIN)
    return SL_NUM_SYNTAX;

  /* Significant digits: from the first to the last non-zero digit. */
  size_t first = SIZE_MAX, last = 0, idx = 0;
  for (const char *q = mant; q < mant_end; q++) {
    if (*q == '.')
      continue;
    if (*q != '0') {
      if (first == SIZE_MAX)
        first = idx;
      last = idx;
    }
    idx++;
  }
  if (first == SIZE_MAX)
    return SL_NUM_OK; /* any zero, whatever its exponent */
  size_t n = last - first + 1;
  if (n > SL_NUM_MAX_DIGITS)
    return SL_NUM_PRECISION;
  /* The first significant digit has weight 10^(nint - first - 1) × 10^exp10. */
  int64_t e = (int64_t)nint - (int64_t)first + exp10;
  if (e > SL_NUM_EXP_MAX)
    return SL_NUM_OVERFLOW;
  if (e < SL_NUM_EXP_MIN)
    return SL_NUM_UNDERFLOW;

  idx = 0;
  for (const char *q = mant; q < mant_end; q++) {
    if (*q == '.')
      continue;
    if (idx >= first && idx <= last)
      out->digits[idx - first] = (uint8_t)(*q - '0');
    idx++;
  }
  out->neg = neg;
  out->ndigits = (uint8_t)n;
  out->exp = (int16_t)e;
  return SL_NUM_OK;
}

const char *sl_num_status_message(sl_num_status st) {
  switch (st) {
  case SL_NUM_OK:
    return "";
  case SL_NUM_SYNTAX:
    return "The parameter cannot be converted to a numeric value";
  case SL_NUM_PRECISION:
    return "Attempting to store more than 38 significant digits in a Number";
  case SL_NUM_OVERFLOW:
  case SL_NUM_INEXACT:
    return "Number overflow. Attempting to store a number with magnitude larger than supported "
           "range";
  case SL_NUM_UNDERFLOW:
    return "Number underflow. Attempting to store a number with magnitude smaller than supported "
           "range";
  }
  return "";
}

size_t sl_num_format(const sl_num *n, char *out) {
  char *o = out;
  int nd = n->ndigits, e = n->exp;
  if (nd == 0) {
    *o = '0';
    return 1;
  }
  if (n->neg)
    *o++ = '-';
  if (e <= 0) {
    *o++ = '0';
    *o++ = '.';
    memset(o, '0', (size_t)-e);
    o += -e;
    for (int i = 0; i < nd; i++)
      *o++ = (char)('0' + n->digits[i]);
  } else if (e >= nd) {
    for (int i = 0; i < nd; i++)
      *o++ = (char)('0' + n->digits[i]);
    memset(o, '0', (size_t)(e - nd));
    o += e - nd;
  } else {
    for (int i = 0; i < e; i++)
      *o++ = (char)('0' + n->digits[i]);
    *o++ = '.';
    for (int i = e; i < nd; i++)
      *o++ = (char)('0' + n->digits[i]);
  }
  return (size_t)(o - out);
}

bool sl_num_is_zero(const sl_num *n) { return n->ndigits == 0; }

/* Compares |a| and |b|, both non-zero. */
static int cmp_magnitude(const sl_num *a, const sl_num *b) {
  if (a->exp != b->exp)
    return a->exp > b->exp ? 1 : -1;
  int n = a->ndigits < b->ndigits ? a->ndigits : b->ndigits;
  int c = memcmp(a->digits, b->digits, (size_t)n);
  if (c != 0)
    return c > 0 ? 1 : -1;
  return (a->ndigits > b->ndigits) - (a->ndigits < b->ndigits);
}

static int num_sign(const sl_num *n) { return n->ndigits == 0 ? 0 : n->neg ? -1 : 1; }

int sl_num_cmp(const sl_num *a, const sl_num *b) {
  int sa = num_sign(a), sb = num_sign(b);
  if (sa != sb)
    return sa < sb ? -1 : 1;
  if (sa == 0)
    return 0;
  int m = cmp_magnitude(a, b);
  return sa > 0 ? m : -m;
}

/* Adds (or, with 'subtract', takes away) the digits of 'x' into 'acc', whose
 * index 0 has weight 10^lo. */
static void acc_put(int8_t *acc, int lo, const sl_num *x, bool subtract) {
  for (int i = 0; i < x->ndigits; i++) {
    int pos = x->exp - 1 - i - lo;
    acc[pos] = (int8_t)(acc[pos] + (subtract ? -x->digits[i] : x->digits[i]));
  }
}

/* out = (a_neg ? -|a| : |a|) + (b_neg ? -|b| : |b|), both non-zero. */
static sl_num_status add_signed(const sl_num *a, bool a_neg, const sl_num *b, bool b_neg,
                                sl_num *out) {
  int8_t acc[ACC_LEN];
  memset(acc, 0, sizeof(acc));
  int lo_a = a->exp - a->ndigits, lo_b = b->exp - b->ndigits;
  int lo = lo_a < lo_b ? lo_a : lo_b;
  bool neg;
  if (a_neg == b_neg) {
    neg = a_neg;
    acc_put(acc, lo, a, false);
    acc_put(acc, lo, b, false);
  } else {
    /* Take the smaller magnitude from the larger; the larger gives the sign. */
    int m = cmp_magnitude(a, b);
    if (m == 0) {
      num_zero(out);
      return SL_NUM_OK;
    }
    const sl_num *big = m > 0 ? a : b, *small = m > 0 ? b : a;
    neg = m > 0 ? a_neg : b_neg;
    acc_put(acc, lo, big, false);
    acc_put(acc, lo, small, true);
  }
  /* Carries and borrows, low to high; the result is non-negative. */
  int carry = 0;
  for (int i = 0; i < ACC_LEN; i++) {
    int v = acc[i] + carry;
    carry = 0;
    while (v < 0) {
      v += 10;
      carry--;
    }
    while (v > 9) {
      v -= 10;
      carry++;
    }
    acc[i] = (int8_t)v;
  }
  int hi_i = ACC_LEN - 1, lo_i = 0;
  while (hi_i >= 0 && acc[hi_i] == 0)
    hi_i--;
  num_zero(out);
  if (hi_i < 0)
    return SL_NUM_OK;
  while (acc[lo_i] == 0)
    lo_i++;
  int n = hi_i - lo_i + 1;
  int e = hi_i + lo + 1;
  if (n > SL_NUM_MAX_DIGITS)
    return SL_NUM_INEXACT;
  if (e > SL_NUM_EXP_MAX)
    return SL_NUM_OVERFLOW;
  if (e < SL_NUM_EXP_MIN)
    return SL_NUM_UNDERFLOW;
  for (int i = 0; i < n; i++)
    out->digits[i] = (uint8_t)acc[hi_i - i];
  out->neg = neg;
  out->ndigits = (uint8_t)n;
  out->exp = (int16_t)e;
  return SL_NUM_OK;
}

static sl_num_status add_or_sub(const sl_num *a, const sl_num *b, bool subtract, sl_num *out) {
  if (b->ndigits == 0) {
    *out = *a;
    return SL_NUM_OK;
  }
  if (a->ndigits == 0) {
    *out = *b;
    out->neg = subtract ? !b->neg : b->neg;
    return SL_NUM_OK;
  }
  sl_num r;
  sl_num_status st = add_signed(a, a->neg, b, subtract ? !b->neg : b->neg, &r);
  *out = r;
  return st;
}

sl_num_status sl_num_add(const sl_num *a, const sl_num *b, sl_num *out) {
  return add_or_sub(a, b, false, out);
}

sl_num_status sl_num_sub(const sl_num *a, const sl_num *b, sl_num *out) {
  return add_or_sub(a, b, true, out);
}

/* The base-100 digits of |n| (non-zero) aligned on the decimal point, and
 * the base-100 exponent E with |n| = 0.c1 c2 … × 100^E. Returns k. */
static int to_base100(const sl_num *n, uint8_t *c, int *E) {
  int pad = n->exp % 2 != 0; /* a leading zero digit makes the exponent even */
  *E = (n->exp + pad) / 2;
  int k = 0;
  for (int i = -pad; i < n->ndigits; i += 2) {
    int hi = i >= 0 ? n->digits[i] : 0;
    int lo = i + 1 < n->ndigits ? n->digits[i + 1] : 0;
    c[k++] = (uint8_t)(hi * 10 + lo);
  }
  return k;
}

size_t sl_num_encode_ordered(const sl_num *n, uint8_t *out) {
  if (n->ndigits == 0) {
    out[0] = ORD_ZERO;
    out[1] = ORD_POS_END;
    return 2;
  }
  uint8_t c[ORD_MAX_PAIRS];
  int E;
  int k = to_base100(n, c, &E);
  size_t len = 0;
  if (n->neg) {
    out[len++] = (uint8_t)(ORD_NEG_BIAS - E);
    for (int i = 0; i < k; i++)
      out[len++] = (uint8_t)(101 - c[i]);
    out[len++] = ORD_NEG_END;
  } else {
    out[len++] = (uint8_t)(ORD_POS_BIAS + E);
    for (int i = 0; i < k; i++)
      out[len++] = (uint8_t)(c[i] + 1);
    out[len++] = ORD_POS_END;
  }
  return len;
}

size_t sl_num_decode_ordered(const uint8_t *p, size_t len, sl_num *out) {
  num_zero(out);
  if (len < 2)
    return 0;
  bool neg = p[0] < ORD_ZERO;
  if (!neg && p[0] == ORD_ZERO && p[1] == ORD_POS_END)
    return 2;
  int E = neg ? ORD_NEG_BIAS - p[0] : p[0] - ORD_POS_BIAS;
  uint8_t end = neg ? ORD_NEG_END : ORD_POS_END;
  uint8_t c[ORD_MAX_PAIRS];
  int k = 0;
  size_t i = 1;
  for (;; i++) {
    if (i >= len)
      return 0;
    if (p[i] == end)
      break;
    int v = neg ? 101 - p[i] : p[i] - 1;
    if (v < 0 || v > 99 || k == ORD_MAX_PAIRS)
      return 0;
    c[k++] = (uint8_t)v;
  }
  if (k == 0 || c[0] == 0 || c[k - 1] == 0)
    return 0;
  /* Back to decimal digits, dropping the one possible leading zero (which
   * lowers the decimal exponent) and the one possible trailing zero. */
  uint8_t d[2 * ORD_MAX_PAIRS];
  for (int j = 0; j < k; j++) {
    d[2 * j] = c[j] / 10;
    d[2 * j + 1] = c[j] % 10;
  }
  int from = d[0] == 0, to = 2 * k - (d[2 * k - 1] == 0);
  int n = to - from, e = 2 * E - from;
  if (n > SL_NUM_MAX_DIGITS || e > SL_NUM_EXP_MAX || e < SL_NUM_EXP_MIN)
    return 0;
  memcpy(out->digits, d + from, (size_t)n);
  out->neg = neg;
  out->ndigits = (uint8_t)n;
  out->exp = (int16_t)e;
  return i + 1;
}

size_t sl_num_size(const sl_num *n) {
  if (n->ndigits == 0)
    return 1;
  int pad = n->exp % 2 != 0;
  size_t pairs = (size_t)(n->ndigits + pad + 1) / 2;
  size_t size = 1 + pairs + (n->neg ? 1 : 0);
  return size > SIZE_CAP ? SIZE_CAP : size;
}

bool sl_num_to_i64(const sl_num *n, int64_t *out) {
  if (n->ndigits == 0) {
    *out = 0;
    return true;
  }
  if (n->exp < n->ndigits || n->exp > 19)
    return false;
  uint64_t m = 0;
  for (int i = 0; i < n->exp; i++) {
    unsigned d = i < n->ndigits ? n->digits[i] : 0;
    if (m > (UINT64_MAX - d) / 10)
      return false;
    m = m * 10 + d;
  }
  if (n->neg) {
    if (m > (uint64_t)INT64_MAX + 1)
      return false;
    *out = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
  } else {
    if (m > (uint64_t)INT64_MAX)
      return false;
    *out = (int64_t)m;
  }
  return true;
}

void sl_num_from_i64(int64_t v, sl_num *out) {
  num_zero(out);
  if (v == 0)
    return;
  uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  uint8_t rev[20];
  int nd = 0;
  while (m) {
    rev[nd++] = (uint8_t)(m % 10);
    m /= 10;
  }
  int skip = 0;
  while (rev[skip] == 0)
    skip++;
  out->neg = v < 0;
  out->exp = (int16_t)nd;
  out->ndigits = (uint8_t)(nd - skip);
  for (int i = 0; i < nd - skip; i++)
    out->digits[i] = rev[nd - 1 - i];
}
