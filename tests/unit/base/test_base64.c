/* Unit tests of base/base64: RFC 4648 vectors, round trips, and the
 * service's strict decoding rules.
 *
 * What the service answers for a B value that is not valid base64 (dynalite's
 * tests, written against the service; the API layer must send these). Type
 * com.amazon.coral.service#SerializationException, HTTP 400, messages
 * (current form; dynalite's older tests show the same reasons without the
 * "'<value>' can not be converted to a Blob: " prefix):
 *   length      '23456' can not be converted to a Blob: Base64 encoded length
 *               is expected a multiple of 4 bytes but found: 5
 *   character   '=+/=' can not be converted to a Blob: Invalid Base64
 *               character: '='
 *   last bits   '+/+=' can not be converted to a Blob: Invalid last non-pad
 *               Base64 character dectected          (sic, "dectected")
 * sl_base64_check returns SL_BASE64_BAD_LENGTH, SL_BASE64_BAD_CHAR (with the
 * offset of the character to quote) and SL_BASE64_BAD_LAST for these.
 *
 * What DynamoDB Local (build 2026-01-16) does instead, PutItem {"B": text}
 * then GetItem: "abc", "ab", "YQ", "YQ=", "Y===", "=", "====", "YQ ==",
 * "YW\nJj", "-_-_", "YWJj====", "YWJjZA", "YWJjZA=", "Y", "é===", "YQ=a",
 * "Y=Q=", "\0AAA", "A\tAA" -> 500 InternalFailure "The request processing has
 * failed because of an unknown error, exception or failure."; "ab==" -> "aQ==",
 * "YR==" -> "YQ==", "YWJ=" -> "YWI=", "YWJjZB==" -> "YWJjZA==" (non-zero
 * trailing bits dropped); "YQ==YQ==" -> "YWE="; " YQ==", "YQ==\n",
 * "YQ==\t", "YWJj\r\n" -> accepted, whitespace between groups skipped;
 * "" -> "" (empty binary, allowed outside keys). sluice follows the service.
 */
#include "harness.h"
#include "base/base64.h"

static char out_buf[256];

static void check_decodes(const char *in, const char *want, size_t want_len) {
  size_t n = sl_base64_decode(sl_str_c(in), out_buf);
  CHECK_INT(n, want_len);
  if (n == want_len)
    CHECK(memcmp(out_buf, want, want_len) == 0);
  else
    fprintf(stderr, "  decode(\"%s\")\n", in);
}

/* RFC 4648 §10 test vectors, both ways. */
static void test_rfc_vectors(void) {
  static const struct {
    const char *raw, *enc;
  } v[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
    size_t len = strlen(v[i].raw);
    CHECK_INT(sl_base64_encoded_len(len), strlen(v[i].enc));
    size_t n = sl_base64_encode(v[i].raw, len, out_buf);
    CHECK_MEM(out_buf, n, v[i].enc);
    check_decodes(v[i].enc, v[i].raw, len);
  }
  /* The '+' and '/' characters, and every byte value. */
  check_decodes("+/+/", "\xfb\xff\xbf", 3);
  unsigned char all[256];
  for (int i = 0; i < 256; i++)
    all[i] = (unsigned char)i;
  char enc[400], dec[300];
  size_t n = sl_base64_encode(all, 256, enc);
  CHECK_INT(n, sl_base64_encoded_len(256));
  CHECK_INT(sl_base64_decode(sl_str_make(enc, n), dec), 256);
  CHECK(memcmp(dec, all, 256) == 0);
}

/* Every length from 0 to 64 round-trips, and the output never exceeds the
 * advertised buffer sizes. */
static void test_roundtrip_lengths(void) {
  unsigned char raw[64];
  for (int i = 0; i < 64; i++)
    raw[i] = (unsigned char)(i * 37 + 11);
  for (size_t len = 0; len <= 64; len++) {
    char enc[100], dec[100];
    size_t n = sl_base64_encode(raw, len, enc);
    CHECK_INT(n, sl_base64_encoded_len(len));
    size_t m = sl_base64_decode(sl_str_make(enc, n), dec);
    CHECK_INT(m, len);
    CHECK(m <= sl_base64_decoded_max(n));
    CHECK(memcmp(dec, raw, len) == 0);
    size_t bad_at = 99;
    CHECK_INT(sl_base64_check(sl_str_make(enc, n), &bad_at), SL_BASE64_OK);
  }
}

/* Inputs the service rejects, with the reason it gives. */
static void test_invalid(void) {
  static const struct {
    const char *in;
    size_t len;
    sl_base64_status st;
    size_t bad_at;
  } cases[] = {
      {"23456", 5, SL_BASE64_BAD_LENGTH, 0},    {"abc", 3, SL_BASE64_BAD_LENGTH, 0},
      {"ab", 2, SL_BASE64_BAD_LENGTH, 0},       {"YQ", 2, SL_BASE64_BAD_LENGTH, 0},
      {"YQ=", 3, SL_BASE64_BAD_LENGTH, 0},      {"=", 1, SL_BASE64_BAD_LENGTH, 0},
      {"Y", 1, SL_BASE64_BAD_LENGTH, 0},        {"YWJjZA", 6, SL_BASE64_BAD_LENGTH, 0},
      {"YWJjZA=", 7, SL_BASE64_BAD_LENGTH, 0},  {"YQ==\n", 5, SL_BASE64_BAD_LENGTH, 0},
      {"=+/=", 4, SL_BASE64_BAD_CHAR, 0},       {"====", 4, SL_BASE64_BAD_CHAR, 0},
      {"Y===", 4, SL_BASE64_BAD_CHAR, 1},       {"YQ=a", 4, SL_BASE64_BAD_CHAR, 2},
      {"Y=Q=", 4, SL_BASE64_BAD_CHAR, 1},       {"YQ==YQ==", 8, SL_BASE64_BAD_CHAR, 2},
      {"YWJj====", 8, SL_BASE64_BAD_CHAR, 4},   {"YQ ==", 5, SL_BASE64_BAD_LENGTH, 0},
      {" YQ=", 4, SL_BASE64_BAD_CHAR, 0},       {"YW\nJ", 4, SL_BASE64_BAD_CHAR, 2},
      {"YWJj\r\n==", 8, SL_BASE64_BAD_CHAR, 4}, {"-_-_", 4, SL_BASE64_BAD_CHAR, 0},
      {"A\tAA", 4, SL_BASE64_BAD_CHAR, 1},      {"\0AAA", 4, SL_BASE64_BAD_CHAR, 0},
      {"AA\0A", 4, SL_BASE64_BAD_CHAR, 2},      {"\xc3\xa9==", 4, SL_BASE64_BAD_CHAR, 0},
      {"+/+=", 4, SL_BASE64_BAD_LAST, 0},       {"ab==", 4, SL_BASE64_BAD_LAST, 0},
      {"YR==", 4, SL_BASE64_BAD_LAST, 0},       {"YWJ=", 4, SL_BASE64_BAD_LAST, 0},
      {"YWJjZB==", 8, SL_BASE64_BAD_LAST, 0},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    sl_str in = sl_str_make(cases[i].in, cases[i].len);
    size_t bad_at = 12345;
    sl_base64_status st = sl_base64_check(in, &bad_at);
    CHECK_INT(st, cases[i].st);
    if (st == SL_BASE64_BAD_CHAR)
      CHECK_INT(bad_at, cases[i].bad_at);
    else
      CHECK_INT(bad_at, 12345);
    CHECK(sl_base64_decode(in, out_buf) == (size_t)-1);
    if (st != cases[i].st)
      fprintf(stderr, "  case %zu\n", i);
  }
}

/* Valid corner cases: empty, padding at the end only, zero trailing bits. */
static void test_valid_corners(void) {
  size_t bad_at;
  CHECK_INT(sl_base64_check(SL_STR_NULL, &bad_at), SL_BASE64_OK);
  CHECK_INT(sl_base64_decode(SL_STR_NULL, out_buf), 0);
  check_decodes("YQ==", "a", 1);
  check_decodes("YWI=", "ab", 2);
  check_decodes("YWJj", "abc", 3);
  check_decodes("YWJjZA==", "abcd", 4);
  check_decodes("AAAA", "\0\0\0", 3);
  check_decodes("AA==", "\0", 1);
  check_decodes("////", "\xff\xff\xff", 3);
  check_decodes("/w==", "\xff", 1);
  check_decodes("//8=", "\xff\xff", 2);
}

/* Every 4-character group over a small alphabet: the decoder accepts exactly
 * the strings the encoder can produce. */
static void test_exhaustive_groups(void) {
  static const char chars[] = "AQgw/+=z\n";
  size_t nc = sizeof(chars) - 1;
  for (size_t a = 0; a < nc; a++)
    for (size_t b = 0; b < nc; b++)
      for (size_t c = 0; c < nc; c++)
        for (size_t d = 0; d < nc; d++) {
          char in[4] = {chars[a], chars[b], chars[c], chars[d]};
          char dec[3], re[4];
          size_t n = sl_base64_decode(sl_str_make(in, 4), dec);
          if (n == (size_t)-1)
            continue;
          CHECK(n >= 1 && n <= 3);
          size_t m = sl_base64_encode(dec, n, re);
          CHECK(m == 4 && memcmp(re, in, 4) == 0);
        }
}

int main(void) {
  RUN(test_rfc_vectors);
  RUN(test_roundtrip_lengths);
  RUN(test_invalid);
  RUN(test_valid_corners);
  RUN(test_exhaustive_groups);
  return DONE();
}
