/*
 * num.h — exact decimal numbers for DynamoDB's N type.
 *
 * DynamoDB numbers are decimals with up to 38 significant digits and a
 * magnitude between 1E-130 and 9.9999999999999999999999999999999999999E+125,
 * or zero. sluice parses, compares, adds and order-encodes them exactly; no
 * double ever touches an N value.
 *
 * Representation: sign, up to 38 significant decimal digits with leading and
 * trailing zeros stripped, and a decimal exponent. Value = 0.d1d2...dn × 10^exp
 * (so 'exp' is the position of the decimal point relative to the first
 * significant digit). Zero has ndigits == 0 and is never negative.
 *
 * Canonical text (sl_num_format) is the form DynamoDB returns for a stored
 * number (pinned by tests/unit/test_num.c and tests/conformance against
 * DynamoDB Local): no exponent, no leading '+', no trailing fractional zeros,
 * no trailing '.', "-" only for negatives, "0" for zero.
 *
 * Order encoding (sl_num_encode_ordered) maps numbers to byte strings whose
 * memcmp order is numeric order; it is how numeric sort keys are stored
 * (store/key.h) and it is injective on canonical values.
 *
 * Item size (sl_num_size) is DynamoDB's storage size of the number (facts
 * §2.1), used by the capacity cost rules.
 */
#ifndef SL_BASE_NUM_H
#define SL_BASE_NUM_H

#include "base/str.h"

#define SL_NUM_MAX_DIGITS 38
/* Longest canonical text: sign + 126 integer digits, or "0." + 129 zeros + 38 digits. */
#define SL_NUM_MAX_TEXT 176
#define SL_NUM_MAX_ORDERED 24

typedef struct {
  bool neg;
  uint8_t ndigits;                   /* 0 for zero */
  int16_t exp;                       /* value = 0.digits × 10^exp */
  uint8_t digits[SL_NUM_MAX_DIGITS]; /* each 0..9, digits[0] != 0 unless zero */
} sl_num;

typedef enum {
  SL_NUM_OK = 0,
  SL_NUM_SYNTAX,    /* not a number: "A value provided cannot be converted into a number" */
  SL_NUM_PRECISION, /* more than 38 significant digits */
  SL_NUM_OVERFLOW,  /* magnitude above the supported range */
  SL_NUM_UNDERFLOW, /* non-zero magnitude below the supported range */
} sl_num_status;

/* Parses DynamoDB number text: optional sign, digits with optional '.', optional
 * exponent; leading/trailing whitespace is not allowed. */
sl_num_status sl_num_parse(sl_str text, sl_num *out);

/* The exact ValidationException text DynamoDB sends for a status. */
const char *sl_num_status_message(sl_num_status st);

/* Writes the canonical text into 'out' (at least SL_NUM_MAX_TEXT bytes) and
 * returns its length. Not NUL-terminated. */
size_t sl_num_format(const sl_num *n, char *out);

int sl_num_cmp(const sl_num *a, const sl_num *b);
bool sl_num_is_zero(const sl_num *n);

/* out = a + b, out = a - b. Exact; the result's status is checked against the
 * same limits as parsing (precision, overflow, underflow). */
sl_num_status sl_num_add(const sl_num *a, const sl_num *b, sl_num *out);
sl_num_status sl_num_sub(const sl_num *a, const sl_num *b, sl_num *out);

/* Order-preserving encoding; returns its length (<= SL_NUM_MAX_ORDERED). */
size_t sl_num_encode_ordered(const sl_num *n, uint8_t *out);
/* Inverse of the above; returns the bytes consumed, or 0 on malformed input. */
size_t sl_num_decode_ordered(const uint8_t *p, size_t len, sl_num *out);

/* DynamoDB's size in bytes of this number inside an item (facts §2.1). */
size_t sl_num_size(const sl_num *n);

/* Convenience for integers that fit (Limit, counts): returns false if the
 * number is not an integer or is out of int64 range. */
bool sl_num_to_i64(const sl_num *n, int64_t *out);
void sl_num_from_i64(int64_t v, sl_num *out);

#endif
