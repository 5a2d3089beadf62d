/* Unit tests of base/num: parsing with the service's checks, canonical text,
 * comparison, exact addition, the order encoding and the item-size rule.
 *
 * Observations behind the tables (DynamoDB Local build 2026-01-16 at
 * 127.0.0.1:8001, PutItem {"N": text} then GetItem; UpdateItem with
 * "ADD n :v", "SET n = n + :v" and "SET n = n - :v" for arithmetic; all
 * three arithmetic forms behaved identically):
 *
 *   "1.50" -> "1.5"   "1e2" -> "100"   "1E+2" -> "100"   "-0" -> "0"
 *   "0.0" -> "0"   "00012" -> "12"   ".5" -> "0.5"   "5." -> "5"
 *   "+1" -> "1"   "-.5" -> "-0.5"   "+.5" -> "0.5"   "5.e3" -> "5000"
 *   "0." -> "0"   "-0.0e10" -> "0"   "0E500" -> "0"   "-00.00100" -> "-0.001"
 *   "1e-130" -> "0." + 129 zeros + "1"
 *   "9.9999999999999999999999999999999999999E+125" -> 38 nines + 88 zeros
 *   "1E+125" -> "1" + 125 zeros
 *   "1e+00000000000000000002" -> "100" (exponent leading zeros are free)
 *   "1234567890123456789012345678901234567800000" -> itself (38 significant)
 *   "1.23456789012345678901234567890123456780" -> 38 digits, trailing 0 dropped
 *
 *   syntax ("A value provided cannot be converted into a number" from Local;
 *   the service says "The parameter cannot be converted to a numeric value",
 *   see num.h): "", " 1", "1 ", "\t1", "1\n", "Infinity", "-Infinity", "NaN",
 *   "0x10", "1e", "1e+", "1E", "-", "--1", "+-1", "1e--1", "1e+-1", "1,5",
 *   "1_0", "1e2.5", "e5", ".", ".e3", "0e", "1d", "1f", "1L",
 *   "1E2147483648", "1E-2147483648", "0E2147483648", "0E-2147483648",
 *   "1.5E-2147483648", "0.1E-2147483647", "0.01E-2147483646",
 *   "0.10e-2147483646", "0.0000e-2147483647", "1e+12345678901",
 *   "0e12345678901" (BigDecimal's int32 exponent and scale limits).
 *   Local also accepts "١" (Arabic-Indic one) and "１" (fullwidth one) as 1;
 *   sluice rejects them (num.h).
 *
 *   precision ("DynamoDB only supports precision up to 38 digits" from Local;
 *   the service says "Attempting to store more than 38 significant digits in a
 *   Number"): "123456789012345678901234567890123456789" (39 digits),
 *   "1.234567890123456789012345678901234567801",
 *   "-12345678901234567890123456789012345678901",
 *   "123456789012345678901234567890123456789E-200" and "…E200" (precision is
 *   checked before the range).
 *
 *   overflow ("Number overflow. Attempting to store a number with magnitude
 *   larger than supported range"): "1E126", "-1E126", "1.0E126", "10E125",
 *   "1E2147483647", "1e+01234567890", "1" + 200 zeros,
 *   "12345678901234567890123456789012345678e89".
 *   underflow ("Number underflow. Attempting to store a number with magnitude
 *   smaller than supported range"): "1E-131", "-1E-131", "0.01E-129",
 *   "1E-200", "1E-2147483647", "0." + 5000 zeros + "1".
 *   Accepted at the edges: "0.5E-129", "0.99E-129", "0.1E-129",
 *   "99999999999999999999999999999999999999E+88".
 *   Local bugs not reproduced (sluice says overflow): "10E2147483647" gives
 *   underflow, "100E2147483647" an InternalFailure (500).
 *
 *   arithmetic: exact, never rounded.
 *   99999999999999999999999999999999999999 + 1 = 1E+38;
 *   12345678901234567890123456789012345678 + 0.1, 1E125 + 1E-130,
 *   1 + 1E-38, 99999999999999999999999999999999999999 + 0.5 (and + 0.4):
 *     Local "DynamoDB only supports precision up to 38 digits"; the service
 *     "Number overflow. …" (num.h), SL_NUM_INEXACT here;
 *   9.9999999999999999999999999999999999999E+125 + 1E+88 and the negative
 *     mirror: overflow; 9.99…E125 + 1.1E+88 (40 digits and over): Local says
 *     precision (precision first);
 *   2E-130 - 1.5E-130 and 1E-129 - 9.9E-130: underflow;
 *   1.1E-129 - 1E-129 = 1E-130; 1 + 1E-37 = 1.0000000000000000000000000000000000001;
 *   -5 + 5 = 0; 1.5 - 1.50 = 0 (Local prints "0.00"; num.h);
 *   10000000000000000000000000000000000000 - 1 = 37 nines;
 *   100000000000000000000000000000000000000 - 1 = 38 nines.
 */
#include "harness.h"
#include "base/num.h"

#include <stdlib.h>

static sl_num num(const char *s) {
  sl_num n;
  sl_num_status st = sl_num_parse(sl_str_c(s), &n);
  if (st != SL_NUM_OK)
    fprintf(stderr, "num(\"%s\") failed to parse: %d\n", s, (int)st);
  return n;
}

static char text_buf[SL_NUM_MAX_TEXT + 1];
static const char *fmt(const sl_num *n) {
  size_t len = sl_num_format(n, text_buf);
  text_buf[len] = 0;
  return text_buf;
}

/* "0." then z zeros then the digits d; or d then z zeros. For long canonical texts. */
static const char *zeros_after_point(int z, const char *d) {
  static char b[400];
  size_t len = strlen(d);
  memcpy(b, "0.", 2);
  memset(b + 2, '0', (size_t)z);
  memcpy(b + 2 + z, d, len + 1);
  return b;
}

static const char *digits_then_zeros(const char *d, int z) {
  static char b[400];
  size_t len = strlen(d);
  memcpy(b, d, len);
  memset(b + len, '0', (size_t)z);
  b[len + z] = 0;
  return b;
}

/* Every accepted literal from the observations comes back in DynamoDB's text. */
static void test_parse_canonical(void) {
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"1.50", "1.5"},
      {"1e2", "100"},
      {"1E+2", "100"},
      {"-0", "0"},
      {"0.0", "0"},
      {"00012", "12"},
      {".5", "0.5"},
      {"5.", "5"},
      {"+1", "1"},
      {"-.5", "-0.5"},
      {"+.5", "0.5"},
      {"5.e3", "5000"},
      {"0.", "0"},
      {"-0.0e10", "0"},
      {"0E500", "0"},
      {"0e-999", "0"},
      {"0000", "0"},
      {"-00.00100", "-0.001"},
      {"100", "100"},
      {"1.5e3", "1500"},
      {"-1.5E-3", "-0.0015"},
      {"1e0", "1"},
      {"1e-0", "1"},
      {"1e+0", "1"},
      {"1e+00000000000000000002", "100"},
      {"1e-000000000000000000000000000002", "0.01"},
      {"1E-0000000000000000000000000000000000", "1"},
      {"0E2147483647", "0"},
      {"0e1234567890", "0"},
      {"0e-1234567890", "0"},
      {"00000000000000000000000000000000000000000000000001", "1"},
      {"1.23456789012345678901234567890123456780", "1.2345678901234567890123456789012345678"},
      {"1234567890123456789012345678901234567800000",
       "1234567890123456789012345678901234567800000"},
      {"0.000000000000000000000000000000000000000000000000001",
       "0.000000000000000000000000000000000000000000000000001"},
      {"3.1415926535897932384626433832795028841", "3.1415926535897932384626433832795028841"},
      {"-17.4E37", "-174000000000000000000000000000000000000"},
      {"123.456", "123.456"},
      {"-123.456e1", "-1234.56"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    sl_num n;
    sl_num_status st = sl_num_parse(sl_str_c(cases[i].in), &n);
    CHECK_INT(st, SL_NUM_OK);
    if (st != SL_NUM_OK) {
      fprintf(stderr, "  input \"%s\"\n", cases[i].in);
      continue;
    }
    size_t len = sl_num_format(&n, text_buf);
    CHECK_MEM(text_buf, len, cases[i].out);
  }
}

/* The range edges print in plain notation, as the service returns them. */
static void test_parse_edges(void) {
  sl_num n = num("1e-130");
  CHECK(strcmp(fmt(&n), zeros_after_point(129, "1")) == 0);
  n = num("-1E-130");
  CHECK(fmt(&n)[0] == '-' && strcmp(fmt(&n) + 1, zeros_after_point(129, "1")) == 0);
  n = num("9.9999999999999999999999999999999999999E+125");
  CHECK(strcmp(fmt(&n), digits_then_zeros("99999999999999999999999999999999999999", 88)) == 0);
  n = num("1E+125");
  CHECK(strcmp(fmt(&n), digits_then_zeros("1", 125)) == 0);
  n = num("0.1E-129");
  CHECK(strcmp(fmt(&n), zeros_after_point(129, "1")) == 0);
  n = num("0.5E-129");
  CHECK(strcmp(fmt(&n), zeros_after_point(129, "5")) == 0);
  n = num("0.99E-129");
  CHECK(strcmp(fmt(&n), zeros_after_point(129, "99")) == 0);
  n = num("99999999999999999999999999999999999999E+88");
  CHECK_INT(n.exp, 126);
  CHECK_INT(n.ndigits, 38);
  /* The longest canonical text fits SL_NUM_MAX_TEXT. */
  n = num("-0.99999999999999999999999999999999999999E-129");
  CHECK_INT(sl_num_format(&n, text_buf), 170);
  /* Leading zeros before the first significant digit are free, even many. */
  char big[6000];
  memset(big, '0', 5000);
  memcpy(big + 5000, "1", 2);
  CHECK_INT(sl_num_parse(sl_str_c(big), &n), SL_NUM_OK);
  CHECK_STR(sl_str_c(fmt(&n)), "1");
  memcpy(big, "1.", 2);
  memset(big + 2, '0', 5000);
  big[5002] = 0;
  CHECK_INT(sl_num_parse(sl_str_c(big), &n), SL_NUM_OK);
  CHECK_STR(sl_str_c(fmt(&n)), "1");
}

/* Each failure kind, with the inputs DynamoDB Local rejected that way. */
static void test_parse_failures(void) {
  static const struct {
    const char *in;
    sl_num_status st;
  } cases[] = {
      {"", SL_NUM_SYNTAX},
      {" 1", SL_NUM_SYNTAX},
      {"1 ", SL_NUM_SYNTAX},
      {"\t1", SL_NUM_SYNTAX},
      {"1\n", SL_NUM_SYNTAX},
      {"Infinity", SL_NUM_SYNTAX},
      {"-Infinity", SL_NUM_SYNTAX},
      {"NaN", SL_NUM_SYNTAX},
      {"0x10", SL_NUM_SYNTAX},
      {"1e", SL_NUM_SYNTAX},
      {"1e+", SL_NUM_SYNTAX},
      {"1E", SL_NUM_SYNTAX},
      {"-", SL_NUM_SYNTAX},
      {"+", SL_NUM_SYNTAX},
      {"--1", SL_NUM_SYNTAX},
      {"+-1", SL_NUM_SYNTAX},
      {"1e--1", SL_NUM_SYNTAX},
      {"1e+-1", SL_NUM_SYNTAX},
      {"1,5", SL_NUM_SYNTAX},
      {"1_0", SL_NUM_SYNTAX},
      {"1e2.5", SL_NUM_SYNTAX},
      {"e5", SL_NUM_SYNTAX},
      {".", SL_NUM_SYNTAX},
      {".e3", SL_NUM_SYNTAX},
      {"-.", SL_NUM_SYNTAX},
      {"0e", SL_NUM_SYNTAX},
      {"1..2", SL_NUM_SYNTAX},
      {"1.2.3", SL_NUM_SYNTAX},
      {"1d", SL_NUM_SYNTAX},
      {"1f", SL_NUM_SYNTAX},
      {"1L", SL_NUM_SYNTAX},
      {"\xd9\xa1", SL_NUM_SYNTAX},     /* Arabic-Indic one: Local accepts it */
      {"\xef\xbc\x91", SL_NUM_SYNTAX}, /* fullwidth one: Local accepts it */
      {"1E2147483648", SL_NUM_SYNTAX},
      {"1E-2147483648", SL_NUM_SYNTAX},
      {"1E-2147483649", SL_NUM_SYNTAX},
      {"0E2147483648", SL_NUM_SYNTAX},
      {"0E-2147483648", SL_NUM_SYNTAX},
      {"1.5E-2147483648", SL_NUM_SYNTAX},
      {"0.1E-2147483647", SL_NUM_SYNTAX},
      {"0.01E-2147483646", SL_NUM_SYNTAX},
      {"0.10e-2147483646", SL_NUM_SYNTAX},
      {"0.0000e-2147483647", SL_NUM_SYNTAX},
      {"00000.0e-2147483647", SL_NUM_SYNTAX},
      {"1E999999999999", SL_NUM_SYNTAX},
      {"1e-99999999999", SL_NUM_SYNTAX},
      {"1e+12345678901", SL_NUM_SYNTAX},
      {"0e12345678901", SL_NUM_SYNTAX},
      {"1e000000000002147483648", SL_NUM_SYNTAX},
      {"123456789012345678901234567890123456789", SL_NUM_PRECISION},
      {"-1.23456789012345678901234567890123456789", SL_NUM_PRECISION},
      {"1.234567890123456789012345678901234567801", SL_NUM_PRECISION},
      {"1.00000000000000000000000000000000000001", SL_NUM_PRECISION},
      {"-12345678901234567890123456789012345678901", SL_NUM_PRECISION},
      {"12345678901234567890123456789012345678900000", SL_NUM_PRECISION},
      {"1234567890123456789012345678901234567890e-5", SL_NUM_PRECISION},
      {"9.99999999999999999999999999999999999999E+125", SL_NUM_PRECISION},
      {"123456789012345678901234567890123456789E-200", SL_NUM_PRECISION},
      {"123456789012345678901234567890123456789E200", SL_NUM_PRECISION},
      {"1E126", SL_NUM_OVERFLOW},
      {"-1E126", SL_NUM_OVERFLOW},
      {"1e126", SL_NUM_OVERFLOW},
      {"1.0E126", SL_NUM_OVERFLOW},
      {"10E125", SL_NUM_OVERFLOW},
      {"1E2147483647", SL_NUM_OVERFLOW},
      {"1E2147483646", SL_NUM_OVERFLOW},
      {"1e00000000002147483647", SL_NUM_OVERFLOW},
      {"1e+01234567890", SL_NUM_OVERFLOW},
      {"12345678901234567890123456789012345678e89", SL_NUM_OVERFLOW},
      {"10E2147483647", SL_NUM_OVERFLOW},  /* Local: underflow (a scale wrap-around) */
      {"100E2147483647", SL_NUM_OVERFLOW}, /* Local: InternalFailure */
      {"1E-131", SL_NUM_UNDERFLOW},
      {"-1E-131", SL_NUM_UNDERFLOW},
      {"1e-131", SL_NUM_UNDERFLOW},
      {"0.01E-129", SL_NUM_UNDERFLOW},
      {"0.9E-130", SL_NUM_UNDERFLOW},
      {"1E-200", SL_NUM_UNDERFLOW},
      {"1E-2147483647", SL_NUM_UNDERFLOW},
      {"10E-2147483647", SL_NUM_UNDERFLOW},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    sl_num n;
    sl_num_status st = sl_num_parse(sl_str_c(cases[i].in), &n);
    CHECK_INT(st, cases[i].st);
    if (st != cases[i].st)
      fprintf(stderr, "  input \"%s\"\n", cases[i].in);
    CHECK(sl_num_is_zero(&n)); /* a failed parse leaves zero */
  }
  /* "1" + 200 zeros overflows; "0." + 5000 zeros + "1" underflows. */
  char big[6000];
  big[0] = '1';
  memset(big + 1, '0', 200);
  big[201] = 0;
  sl_num n;
  CHECK_INT(sl_num_parse(sl_str_c(big), &n), SL_NUM_OVERFLOW);
  memcpy(big, "0.", 2);
  memset(big + 2, '0', 5000);
  memcpy(big + 5002, "1", 2);
  CHECK_INT(sl_num_parse(sl_str_c(big), &n), SL_NUM_UNDERFLOW);
  /* Slices are not C strings: the length bounds the text, NUL is a byte. */
  CHECK_INT(sl_num_parse(sl_str_make("12", 1), &n), SL_NUM_OK);
  CHECK_INT(n.ndigits, 1);
  CHECK_INT(sl_num_parse(sl_str_make("1\0", 2), &n), SL_NUM_SYNTAX);
  CHECK_INT(sl_num_parse(SL_STR_NULL, &n), SL_NUM_SYNTAX);
}

/* The messages are the service's exact texts (num.h lists DynamoDB Local's). */
static void test_status_messages(void) {
  CHECK_STR(sl_str_c(sl_num_status_message(SL_NUM_SYNTAX)),
            "The parameter cannot be converted to a numeric value");
  CHECK_STR(sl_str_c(sl_num_status_message(SL_NUM_PRECISION)),
            "Attempting to store more than 38 significant digits in a Number");
  CHECK_STR(sl_str_c(sl_num_status_message(SL_NUM_OVERFLOW)),
            "Number overflow. Attempting to store a number with magnitude larger than "
            "supported range");
  CHECK_STR(sl_str_c(sl_num_status_message(SL_NUM_UNDERFLOW)),
            "Number underflow. Attempting to store a number with magnitude smaller than "
            "supported range");
  /* The service reports an inexact sum as an overflow (Alternator's tests against AWS). */
  CHECK_STR(sl_str_c(sl_num_status_message(SL_NUM_INEXACT)),
            sl_num_status_message(SL_NUM_OVERFLOW));
  CHECK_STR(sl_str_c(sl_num_status_message(SL_NUM_OK)), "");
}

/* Ordering across signs, exponents and lengths. */
static void test_cmp(void) {
  static const char *ascending[] = {
      "-9.9999999999999999999999999999999999999E+125",
      "-1E+125",
      "-100",
      "-12",
      "-11.5",
      "-11",
      "-10",
      "-9",
      "-1.5",
      "-1.01",
      "-1",
      "-0.5",
      "-0.12",
      "-0.1",
      "-1E-129",
      "-1E-130",
      "0",
      "1E-130",
      "1.5E-130",
      "1E-129",
      "0.1",
      "0.12",
      "0.5",
      "1",
      "1.0000000000000000000000000000000000001",
      "1.01",
      "1.5",
      "9",
      "10",
      "11",
      "11.5",
      "12",
      "100",
      "12345678901234567890123456789012345678",
      "1E+125",
      "9.9999999999999999999999999999999999999E+125",
  };
  size_t n = sizeof(ascending) / sizeof(ascending[0]);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++) {
      sl_num a = num(ascending[i]), b = num(ascending[j]);
      int want = (i > j) - (i < j);
      int got = sl_num_cmp(&a, &b);
      CHECK_INT(got, want);
      if (got != want)
        fprintf(stderr, "  cmp(%s, %s)\n", ascending[i], ascending[j]);
    }
  }
  sl_num a = num("1.50"), b = num("1.5"), z1 = num("-0"), z2 = num("0E10");
  CHECK_INT(sl_num_cmp(&a, &b), 0);
  CHECK_INT(sl_num_cmp(&z1, &z2), 0);
}

static void check_op(const char *a, char op, const char *b, sl_num_status want, const char *res) {
  sl_num x = num(a), y = num(b), r;
  sl_num_status st = op == '+' ? sl_num_add(&x, &y, &r) : sl_num_sub(&x, &y, &r);
  CHECK_INT(st, want);
  if (st != want) {
    fprintf(stderr, "  %s %c %s\n", a, op, b);
    return;
  }
  if (st == SL_NUM_OK) {
    CHECK_STR(sl_str_c(fmt(&r)), res);
  } else {
    CHECK(sl_num_is_zero(&r));
  }
}

/* Exact sums: carries, cancellation, magnitudes far apart, and each failure. */
static void test_add_sub(void) {
  check_op("1", '+', "2", SL_NUM_OK, "3");
  check_op("0.1", '+', "0.2", SL_NUM_OK, "0.3");
  check_op("99999999999999999999999999999999999999", '+', "1", SL_NUM_OK,
           "100000000000000000000000000000000000000");
  check_op("10000000000000000000000000000000000000", '-', "1", SL_NUM_OK,
           "9999999999999999999999999999999999999");
  check_op("100000000000000000000000000000000000000", '-', "1", SL_NUM_OK,
           "99999999999999999999999999999999999999");
  check_op("1", '+', "0.0000000000000000000000000000000000001", SL_NUM_OK,
           "1.0000000000000000000000000000000000001");
  check_op("-5", '+', "5", SL_NUM_OK, "0");
  check_op("1.5", '+', "-1.50", SL_NUM_OK, "0"); /* Local prints "0.00" */
  check_op("1.5", '-', "1.50", SL_NUM_OK, "0");
  check_op("2", '+', "1.50", SL_NUM_OK, "3.5"); /* Local prints "3.50" */
  check_op("2.5", '+', "0.50", SL_NUM_OK, "3");
  check_op("1E-130", '-', "1E-130", SL_NUM_OK, "0");
  check_op("1.1E-129", '-', "1E-129", SL_NUM_OK, zeros_after_point(129, "1"));
  check_op("1E+10", '+', "1E+10", SL_NUM_OK, "20000000000");
  check_op("-1", '-', "-1", SL_NUM_OK, "0");
  check_op("-1", '-', "1", SL_NUM_OK, "-2");
  check_op("-1", '+', "0.25", SL_NUM_OK, "-0.75");
  check_op("0.25", '-', "1", SL_NUM_OK, "-0.75");
  check_op("0", '-', "7.5", SL_NUM_OK, "-7.5");
  check_op("0", '+', "-7.5", SL_NUM_OK, "-7.5");
  check_op("7.5", '-', "0", SL_NUM_OK, "7.5");
  check_op("0", '-', "0", SL_NUM_OK, "0");
  check_op("999.999", '+', "0.001", SL_NUM_OK, "1000");
  check_op("1000", '-', "0.001", SL_NUM_OK, "999.999");
  check_op("10000000000000000000000", '+', "1", SL_NUM_OK, "10000000000000000000001");
  check_op("10000000000000000000000", '-', "1", SL_NUM_OK, "9999999999999999999999");
  check_op("-99999999999999999999999999999999999999E+88", '+', "1E+88", SL_NUM_OK,
           digits_then_zeros("-99999999999999999999999999999999999998", 88));
  /* Results that would need more than 38 significant digits. */
  check_op("12345678901234567890123456789012345678", '+', "0.1", SL_NUM_INEXACT, NULL);
  check_op("1E125", '+', "1E-130", SL_NUM_INEXACT, NULL);
  check_op("1", '+', "0.00000000000000000000000000000000000001", SL_NUM_INEXACT, NULL);
  check_op("99999999999999999999999999999999999999", '+', "0.5", SL_NUM_INEXACT, NULL);
  check_op("99999999999999999999999999999999999999", '+', "0.4", SL_NUM_INEXACT, NULL);
  check_op("1E50", '-', "1", SL_NUM_INEXACT, NULL);
  check_op("1E50", '+', "1", SL_NUM_INEXACT, NULL);
  /* Over 38 digits and over the range: precision is checked first, as in Local. */
  check_op("9.9999999999999999999999999999999999999E+125", '+', "1.1E+88", SL_NUM_INEXACT, NULL);
  /* Over the range. */
  check_op("9.9999999999999999999999999999999999999E+125", '+', "1E+88", SL_NUM_OVERFLOW, NULL);
  check_op("99999999999999999999999999999999999999E+88", '+', "1E+88", SL_NUM_OVERFLOW, NULL);
  check_op("-99999999999999999999999999999999999999E+88", '-', "1E+88", SL_NUM_OVERFLOW, NULL);
  check_op("9E125", '+', "9E125", SL_NUM_OVERFLOW, NULL);
  check_op("9E125", '-', "-9E125", SL_NUM_OVERFLOW, NULL);
  /* Under the range. */
  check_op("2E-130", '-', "1.5E-130", SL_NUM_UNDERFLOW, NULL);
  check_op("1E-129", '-', "9.9E-130", SL_NUM_UNDERFLOW, NULL);
  check_op("-2E-130", '+', "1.5E-130", SL_NUM_UNDERFLOW, NULL);

  /* 'out' may alias an operand. */
  sl_num a = num("1.25"), b = num("2");
  CHECK_INT(sl_num_add(&a, &b, &a), SL_NUM_OK);
  CHECK_STR(sl_str_c(fmt(&a)), "3.25");
  CHECK_INT(sl_num_sub(&a, &b, &b), SL_NUM_OK);
  CHECK_STR(sl_str_c(fmt(&b)), "1.25");
}

/* A small deterministic generator, so failures reproduce. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* A random valid number, biased towards collisions: short mantissas, nearby
 * exponents, shared prefixes, the range edges and zero. */
static void random_num(sl_num *out) {
  memset(out, 0, sizeof(*out));
  unsigned kind = (unsigned)(rng() % 16);
  if (kind == 0)
    return; /* zero */
  int nd = kind < 8 ? 1 + (int)(rng() % 4) : 1 + (int)(rng() % SL_NUM_MAX_DIGITS);
  for (int i = 0; i < nd; i++)
    out->digits[i] = (uint8_t)(kind < 4 ? rng() % 2 : rng() % 10);
  out->digits[0] = (uint8_t)(1 + rng() % 9);
  while (out->digits[nd - 1] == 0)
    nd--;
  out->ndigits = (uint8_t)nd;
  int span = SL_NUM_EXP_MAX - SL_NUM_EXP_MIN + 1;
  if (kind < 10)
    out->exp = (int16_t)(-3 + (int)(rng() % 7));
  else if (kind < 12)
    out->exp = (int16_t)(rng() % 2 ? SL_NUM_EXP_MIN + (int)(rng() % 3)
                                   : SL_NUM_EXP_MAX - (int)(rng() % 3));
  else
    out->exp = (int16_t)(SL_NUM_EXP_MIN + (int)(rng() % (unsigned)span));
  out->neg = rng() % 2;
}

static int cmp_by_value(const void *a, const void *b) { return sl_num_cmp(a, b); }

typedef struct {
  uint8_t b[SL_NUM_MAX_ORDERED];
  size_t len;
} ordered;

static int cmp_by_bytes(const void *a, const void *b) {
  const ordered *x = a, *y = b;
  return sl_str_cmp(sl_str_make((const char *)x->b, x->len),
                    sl_str_make((const char *)y->b, y->len));
}

/* Sorting by value and sorting by encoded bytes give the same order; every
 * encoding decodes back to its number; equal numbers encode equally. */
static void test_order_encoding_sort(void) {
  enum { N = 600 };
  static sl_num nums[N];
  static ordered enc[N];
  for (int i = 0; i < N; i++)
    random_num(&nums[i]);
  qsort(nums, N, sizeof(nums[0]), cmp_by_value);
  for (int i = 0; i < N; i++) {
    enc[i].len = sl_num_encode_ordered(&nums[i], enc[i].b);
    CHECK(enc[i].len >= 2 && enc[i].len <= 22);
  }
  for (int i = 0; i + 1 < N; i++) {
    int c = cmp_by_bytes(&enc[i], &enc[i + 1]);
    int v = sl_num_cmp(&nums[i], &nums[i + 1]);
    CHECK((c < 0) == (v < 0) && (c == 0) == (v == 0));
  }
  /* Sorting the encodings independently yields the same sequence. */
  static ordered shuffled[N];
  memcpy(shuffled, enc, sizeof(enc));
  for (int i = N - 1; i > 0; i--) {
    int j = (int)(rng() % (uint64_t)(i + 1));
    ordered t = shuffled[i];
    shuffled[i] = shuffled[j];
    shuffled[j] = t;
  }
  qsort(shuffled, N, sizeof(shuffled[0]), cmp_by_bytes);
  for (int i = 0; i < N; i++)
    CHECK(cmp_by_bytes(&shuffled[i], &enc[i]) == 0);
  for (int i = 0; i < N; i++) {
    sl_num back;
    CHECK_INT(sl_num_decode_ordered(enc[i].b, enc[i].len, &back), enc[i].len);
    CHECK_INT(sl_num_cmp(&back, &nums[i]), 0);
    CHECK(memcmp(&back, &nums[i], sizeof(back)) == 0);
  }
}

/* The byte table of num.h, byte for byte. */
static void test_order_encoding_bytes(void) {
  static const struct {
    const char *in;
    const char *hex;
  } cases[] = {
      {"0", "8000"},
      {"1", "c10200"},
      {"1.5", "c1023300"},
      {"2", "c10300"},
      {"99", "c16400"},
      {"100", "c20200"},
      {"0.5", "c03300"},
      {"0.05", "c00600"},
      {"12345", "c302182e00"},
      {"1E-130", "800200"},
      {"9.9999999999999999999999999999999999999E+125", "ff"
                                                       "64646464646464646464646464646464646464"
                                                       "00"},
      {"-1", "3e6466"},
      {"-1.5", "3e643366"},
      {"-1E-130", "7f6466"},
      {"-9.9999999999999999999999999999999999999E+125", "00"
                                                        "02020202020202020202020202020202020202"
                                                        "66"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    sl_num n = num(cases[i].in);
    uint8_t b[SL_NUM_MAX_ORDERED];
    size_t len = sl_num_encode_ordered(&n, b);
    char hex[2 * SL_NUM_MAX_ORDERED + 1];
    for (size_t j = 0; j < len; j++)
      snprintf(hex + 2 * j, 3, "%02x", b[j]);
    CHECK_MEM(hex, 2 * len, cases[i].hex);
  }
  /* The longest: a negative 38-digit number straddling the point. */
  sl_num n = num("-1234567890123456789012345678901234567.8");
  uint8_t b[SL_NUM_MAX_ORDERED];
  CHECK_INT(sl_num_encode_ordered(&n, b), 22);
}

/* Decoding rejects anything the encoder never writes, and reads exactly one
 * number from a longer key. */
static void test_order_decode_malformed(void) {
  static const struct {
    const char *bytes;
    size_t len;
  } bad[] = {
      {"", 0},
      {"\x80", 1},             /* zero without its terminator */
      {"\xc1\x02", 2},         /* no terminator */
      {"\xc1\x00", 2},         /* empty mantissa */
      {"\xc1\x01\x02\x00", 4}, /* leading zero digit */
      {"\xc1\x02\x01\x00", 4}, /* trailing zero digit */
      {"\xc1\x65\x00", 3},     /* digit byte above 100 */
      {"\x3e\x66", 2},         /* negative, empty mantissa */
      {"\x3e\x01\x66", 3},     /* negative digit byte out of range */
      {"\x3e\x65\x66", 3},     /* negative leading zero digit */
      {"\x3e\x64", 2},         /* negative without terminator */
      /* 20 digits of 2 each: 40 significant digits. */
      {"\xc1\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x0c\x00",
       22},
      /* 21 digits. */
      {"\xc1\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02"
       "\x00",
       23},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    sl_num n;
    size_t got = sl_num_decode_ordered((const uint8_t *)bad[i].bytes, bad[i].len, &n);
    CHECK_INT(got, 0);
    if (got)
      fprintf(stderr, "  case %zu\n", i);
  }
  /* A key with more bytes after the number. */
  uint8_t key[SL_NUM_MAX_ORDERED + 3];
  sl_num n = num("-42.5"), back;
  size_t len = sl_num_encode_ordered(&n, key);
  memcpy(key + len, "abc", 3);
  CHECK_INT(sl_num_decode_ordered(key, len + 3, &back), len);
  CHECK_INT(sl_num_cmp(&n, &back), 0);
  /* Every truncation of an encoding is rejected. */
  n = num("123.456");
  len = sl_num_encode_ordered(&n, key);
  for (size_t cut = 0; cut < len; cut++)
    CHECK_INT(sl_num_decode_ordered(key, cut, &back), 0);
}

/* The item-size rule of num.h on worked examples. */
static void test_size(void) {
  static const struct {
    const char *in;
    size_t size;
  } cases[] = {
      {"0", 1},
      {"1", 2},
      {"10", 2},
      {"100", 2},
      {"12", 2},
      {"123", 3},
      {"1234", 3},
      {"12345", 4},
      {"1000000", 2},
      {"0.1", 2},
      {"0.01", 2},
      {"0.001", 2},
      {"0.12", 2},
      {"1.5", 3},
      {"1.01", 3},
      {"100.5", 4},
      {"123.456", 5},
      {"-1", 3},
      {"-0.5", 3},
      {"-99", 3},
      {"-100", 3},
      {"-101", 4},
      {"1E+125", 2},
      {"5E+124", 2},
      {"1E-130", 2},
      {"-1E-130", 3},
      {"12345678901234567890123456789012345678", 20},
      {"-12345678901234567890123456789012345678", 21},
      {"1234567890123456789012345678901234567.8", 21},
      {"-1234567890123456789012345678901234567.8", 21}, /* 22, capped */
      {"0.12345678901234567890123456789012345678", 20},
      {"9.9999999999999999999999999999999999999E+125", 20},
      {"-9.9999999999999999999999999999999999999E+125", 21},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    sl_num n = num(cases[i].in);
    CHECK_INT(sl_num_size(&n), cases[i].size);
    if (sl_num_size(&n) != cases[i].size)
      fprintf(stderr, "  size(%s)\n", cases[i].in);
  }
}

static void test_i64(void) {
  static const int64_t vals[] = {
      0,         1,         -1,           10, -10, 100, 12345, -120000, 1000000000000000000,
      INT64_MAX, INT64_MIN, INT64_MAX - 1};
  for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
    sl_num n;
    sl_num_from_i64(vals[i], &n);
    char want[32];
    snprintf(want, sizeof(want), "%" PRId64, vals[i]);
    CHECK_STR(sl_str_c(fmt(&n)), want);
    int64_t back = 7;
    CHECK(sl_num_to_i64(&n, &back));
    CHECK(back == vals[i]);
    /* The same number parsed from text is identical, byte for byte. */
    sl_num p = num(want);
    CHECK(memcmp(&p, &n, sizeof(p)) == 0);
  }
  static const char *not_i64[] = {
      "1.5",    "0.1",     "9223372036854775808", "-9223372036854775809", "1E+19",
      "1E+125", "-1E-130", "18446744073709551616"};
  for (size_t i = 0; i < sizeof(not_i64) / sizeof(not_i64[0]); i++) {
    sl_num n = num(not_i64[i]);
    int64_t v;
    CHECK(!sl_num_to_i64(&n, &v));
  }
  sl_num n = num("1E+18");
  int64_t v;
  CHECK(sl_num_to_i64(&n, &v) && v == 1000000000000000000);
  n = num("-9223372036854775808");
  CHECK(sl_num_to_i64(&n, &v) && v == INT64_MIN);
}

/* Cross-checks the arithmetic against int64 on random small integers, and
 * checks algebraic identities on random decimals. */
static void test_add_properties(void) {
  for (int i = 0; i < 20000; i++) {
    int64_t x = (int64_t)(rng() % 2000001) - 1000000, y = (int64_t)(rng() % 2000001) - 1000000;
    x *= (int64_t)(rng() % 1000000);
    sl_num a, b, s, d;
    sl_num_from_i64(x, &a);
    sl_num_from_i64(y, &b);
    CHECK_INT(sl_num_add(&a, &b, &s), SL_NUM_OK);
    CHECK_INT(sl_num_sub(&a, &b, &d), SL_NUM_OK);
    int64_t sv = 0, dv = 0;
    CHECK(sl_num_to_i64(&s, &sv) && sv == x + y);
    CHECK(sl_num_to_i64(&d, &dv) && dv == x - y);
  }
  for (int i = 0; i < 20000; i++) {
    sl_num a, b, s, back, ab, ba;
    random_num(&a);
    random_num(&b);
    sl_num_status st1 = sl_num_add(&a, &b, &ab), st2 = sl_num_add(&b, &a, &ba);
    CHECK_INT(st1, st2);
    CHECK(memcmp(&ab, &ba, sizeof(ab)) == 0);
    if (st1 == SL_NUM_OK) {
      /* (a + b) - b is exactly a, which is always representable. */
      CHECK_INT(sl_num_sub(&ab, &b, &back), SL_NUM_OK);
      CHECK(memcmp(&back, &a, sizeof(a)) == 0);
      /* Adding a positive number makes it bigger. */
      if (!sl_num_is_zero(&b))
        CHECK_INT(sl_num_cmp(&ab, &a), b.neg ? -1 : 1);
    }
    CHECK_INT(sl_num_sub(&a, &a, &s), SL_NUM_OK);
    CHECK(sl_num_is_zero(&s) && !s.neg);
  }
}

/* Format then parse gives the same number for random valid numbers. */
static void test_format_roundtrip(void) {
  for (int i = 0; i < 20000; i++) {
    sl_num a, b;
    random_num(&a);
    char buf[SL_NUM_MAX_TEXT];
    size_t len = sl_num_format(&a, buf);
    CHECK(len <= 170);
    CHECK_INT(sl_num_parse(sl_str_make(buf, len), &b), SL_NUM_OK);
    CHECK(memcmp(&a, &b, sizeof(a)) == 0);
  }
}

int main(void) {
  RUN(test_parse_canonical);
  RUN(test_parse_edges);
  RUN(test_parse_failures);
  RUN(test_status_messages);
  RUN(test_cmp);
  RUN(test_add_sub);
  RUN(test_order_encoding_sort);
  RUN(test_order_encoding_bytes);
  RUN(test_order_decode_malformed);
  RUN(test_size);
  RUN(test_i64);
  RUN(test_add_properties);
  RUN(test_format_roundtrip);
  return DONE();
}
