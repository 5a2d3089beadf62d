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
 * significant digit). Zero has ndigits == 0, exp == 0 and is never negative.
 * A non-zero value has exp in [SL_NUM_EXP_MIN, SL_NUM_EXP_MAX]:
 * 1E-130 = 0.1 × 10^-129 and 9.99…E+125 = 0.999… × 10^126.
 *
 * Syntax (sl_num_parse) is that of Java's BigDecimal(String), which both
 * DynamoDB Local and (by every observation we have) the service use:
 *   [+|-] digits [. [digits]] | [+|-] . digits, then optionally
 *   (e|E) [+|-] digits.
 * No whitespace anywhere, no "Infinity"/"NaN", no hex, no "1e", no ".".
 * Leading zeros in the exponent are free ("1e+0000000000002" is 100), but an
 * exponent with more than 10 significant digits, one outside int32, or an
 * input whose BigDecimal scale (digits after the point minus the exponent)
 * leaves int32 is a syntax error, not an overflow: "1E2147483647" overflows,
 * "1E2147483648", "1E-2147483648" and "0.1E-2147483647" are syntax errors,
 * "0E2147483647" is zero. Only ASCII digits are accepted: DynamoDB Local
 * also accepts any Unicode decimal digit ("١" stores as 1, "１" as 1), a
 * BigDecimal quirk sluice deliberately does not copy.
 *
 * Checks, in DynamoDB Local's order (tests/unit/base/test_num.c pins each case):
 *   1. syntax                       SL_NUM_SYNTAX
 *   2. > 38 significant digits      SL_NUM_PRECISION (leading and trailing
 *      zeros do not count: "1234567890123456789012345678901234567800000" is fine)
 *   3. magnitude >= 1E126           SL_NUM_OVERFLOW
 *   4. magnitude <  1E-130, not 0   SL_NUM_UNDERFLOW
 * Any zero is fine whatever its exponent ("0E500", "-0.0e10" are 0).
 * dynalite checks overflow/underflow before precision; no observation of the
 * service decides a case that fails both ("1234…(39 digits)E200").
 *
 * Messages (sl_num_status_message) are the service's; DynamoDB Local differs
 * for two of them:
 *   status            service (dynalite, Alternator tests)        DynamoDB Local
 *   SYNTAX            The parameter cannot be converted to a      A value provided cannot be
 *                     numeric value                               converted into a number
 *   PRECISION         Attempting to store more than 38            DynamoDB only supports
 *                     significant digits in a Number              precision up to 38 digits
 *   OVERFLOW          Number overflow. Attempting to store a number with magnitude larger
 *                     than supported range  (same text in both)
 *   UNDERFLOW         Number underflow. Attempting to store a number with magnitude smaller
 *                     than supported range  (same text in both)
 *   INEXACT           the OVERFLOW text                           the PRECISION text
 * For SYNTAX the service appends ": <the text>" when the text is not empty
 * ("The parameter cannot be converted to a numeric value: b"); that is the
 * API layer's job. All of them are ValidationException.
 *
 * Arithmetic (sl_num_add, sl_num_sub; UpdateExpression "+"/"-" and ADD) is
 * exact and never rounds: a result needing more than 38 significant digits
 * fails with SL_NUM_INEXACT ("1E125 + 1E-130", "1 + 1E-38",
 * "99999999999999999999999999999999999999 + 0.5").
 * The service reports that case with the *overflow* message (Alternator's
 * test_update_expression_plus_imprecise, run against AWS: 1e50 ± 1), DynamoDB
 * Local with its precision message. A result below 1E-130 is
 * SL_NUM_UNDERFLOW ("2E-130 - 1.5E-130"), at or above 1E126 SL_NUM_OVERFLOW,
 * and an exact zero is zero.
 *
 * Canonical text (sl_num_format) is the form the service returns for a stored
 * number: plain notation, never an exponent (1E+2 -> "100", 1e-130 -> "0."
 * + 129 zeros + "1", 1E+125 -> "1" + 125 zeros), no leading '+', no leading
 * zeros other than the "0" before a point, no trailing fractional zeros, no
 * trailing '.', "-" only for negatives, "0" for zero ("-0", "0.0" -> "0").
 * DynamoDB Local agrees for every stored literal; after arithmetic it keeps the
 * operands' scale ("2 + 1.50" -> "3.50", "1.5 + -1.50" -> "0.00", ADD of
 * "1.50" to a missing attribute -> "1.50"), which the service, whose documented
 * storage trims leading and trailing zeros, does not: sluice always formats
 * canonically.
 *
 * Order encoding (sl_num_encode_ordered) maps numbers to byte strings whose
 * memcmp order is numeric order; it is how numeric sort keys are stored
 * (store/key.h). It is injective on canonical values and prefix-free (it
 * carries its own end), so anything may follow it in a composite key. It
 * writes the value in base 100 aligned on the decimal point,
 *   |v| = 0.c1 c2 … ck (base 100) × 100^E,  c1 != 0, ck != 0, 1 <= k <= 20,
 *   E in [-64, 63]  (1E-130 = 0.01 × 100^-64, 9.9…E125 = 0.99… × 100^63),
 * as:
 *   value      byte 0               bytes 1..k              last byte
 *   zero       0x80                 (none)                  0x00
 *   positive   0xC0 + E (0x80-0xFF) ci + 1   (0x01-0x64)    0x00
 *   negative   0x3F - E (0x00-0x7F) 101 - ci (0x02-0x65)    0x66
 * Positives: bigger exponent, bigger digits, or a longer mantissa (the 0x00
 * terminator sorts below any digit byte) mean bigger. Negatives mirror that,
 * and their 0x66 terminator sorts above any digit byte, so a longer mantissa
 * (bigger magnitude) sorts lower. Zero sorts between the two, below the
 * smallest positive (0x80 0x02 0x00 = 1E-130). Lengths: zero 2, others
 * k + 2 <= 22 bytes. Never change this table: stored keys depend on it.
 *
 * Item size (sl_num_size) is DynamoDB's storage size of the number (facts
 * §2.1), used by the capacity cost rules. The guide only says "approximately
 * (1 byte per two significant digits) + (1 byte)". sluice uses the exact rule
 * of a widely cited published calculator (zaccharles/dynamodb-calculator, also
 * adopted by Arpio's Python port). It is the length of an Oracle-style
 * NUMBER encoding, which the guide's sentence describes loosely and whose
 * range (1E-130..9.99E125) and 38-digit limit are exactly DynamoDB's:
 * 1 exponent byte + one byte per base-100 digit ck above (digits paired on
 * the decimal point, leading and trailing "00" pairs dropped) + 1 terminator
 * byte for a negative number, at most 21 bytes in all; zero is
 * 1 byte. So digit pairs straddling the point cost more than the guide's
 * "1 byte per two digits": 12345 = 01|23|45 -> 4, 1.5 = 01.50 -> 3,
 * 123.456 = 01|23.45|60 -> 5, 100 -> 2, 0.1 -> 2, 1E+125 -> 2, -1 -> 3,
 * 0 -> 1, 38 digits -> 20 or 21, negative 38 digits -> 21 (capped).
 * DynamoDB Local's own ConsumedCapacity uses a different, looser estimate
 * (it charges "1" and "100" the same as no attribute at all), so it cannot
 * check this rule; tests/unit/base/test_num.c pins the worked examples.
 *
 * Ownership: sl_num is a plain value (no pointers); copy it freely.
 * Threads: every function is pure and reentrant.
 */
#ifndef SL_BASE_NUM_H
#define SL_BASE_NUM_H

#include "base/str.h"

#define SL_NUM_MAX_DIGITS 38
/* Exponent range of a non-zero sl_num (value = 0.digits × 10^exp). */
#define SL_NUM_EXP_MIN (-129)
#define SL_NUM_EXP_MAX 126
/* Longest canonical text: sign + 126 integer digits, or "-0." + 129 zeros + 38 digits (170). */
#define SL_NUM_MAX_TEXT 176
/* Longest order encoding: 1 exponent byte + 20 base-100 digits + 1 terminator (22). */
#define SL_NUM_MAX_ORDERED 24

typedef struct {
  bool neg;
  uint8_t ndigits;                   /* 0 for zero */
  int16_t exp;                       /* value = 0.digits × 10^exp */
  uint8_t digits[SL_NUM_MAX_DIGITS]; /* each 0..9, digits[0] != 0 unless zero */
} sl_num;

typedef enum {
  SL_NUM_OK = 0,
  SL_NUM_SYNTAX,    /* not a number */
  SL_NUM_PRECISION, /* more than 38 significant digits in the input */
  SL_NUM_OVERFLOW,  /* magnitude above the supported range */
  SL_NUM_UNDERFLOW, /* non-zero magnitude below the supported range */
  SL_NUM_INEXACT,   /* an arithmetic result would need more than 38 significant digits */
} sl_num_status;

/* Parses DynamoDB number text (syntax above). On failure '*out' is zero. */
sl_num_status sl_num_parse(sl_str text, sl_num *out);

/* The exact ValidationException text the service sends for a status ("" for
 * SL_NUM_OK). For SL_NUM_SYNTAX the caller appends ": <text>" when the
 * offending text is not empty. */
const char *sl_num_status_message(sl_num_status st);

/* Writes the canonical text into 'out' (at least SL_NUM_MAX_TEXT bytes) and
 * returns its length. Not NUL-terminated. */
size_t sl_num_format(const sl_num *n, char *out);

/* Numeric comparison: -1, 0 or 1. */
int sl_num_cmp(const sl_num *a, const sl_num *b);
bool sl_num_is_zero(const sl_num *n);

/* out = a + b, out = a - b. Exact; 'out' may alias 'a' or 'b'. Fails with
 * SL_NUM_INEXACT, SL_NUM_OVERFLOW or SL_NUM_UNDERFLOW (checked in that order),
 * leaving '*out' zero. */
sl_num_status sl_num_add(const sl_num *a, const sl_num *b, sl_num *out);
sl_num_status sl_num_sub(const sl_num *a, const sl_num *b, sl_num *out);

/* Order-preserving encoding; returns its length (<= SL_NUM_MAX_ORDERED). */
size_t sl_num_encode_ordered(const sl_num *n, uint8_t *out);
/* Inverse of the above: reads one encoded number from the start of 'p' and
 * returns the bytes consumed, or 0 if they are not exactly what
 * sl_num_encode_ordered writes for some number. */
size_t sl_num_decode_ordered(const uint8_t *p, size_t len, sl_num *out);

/* DynamoDB's size in bytes of this number inside an item (rule above). */
size_t sl_num_size(const sl_num *n);

/* Convenience for integers that fit (Limit, counts): returns false if the
 * number is not an integer or is out of int64 range. */
bool sl_num_to_i64(const sl_num *n, int64_t *out);
void sl_num_from_i64(int64_t v, sl_num *out);

#endif
