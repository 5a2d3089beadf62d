/* Unit tests of store/key.h's LMDB key encoding: S, B and N components
 * preserve DynamoDB's order under memcmp and delimit themselves, 0x00 is
 * escaped, components over their budget are cut and end in the XXH3-128
 * digest of the whole encoding, full keys stay within LMDB's 511 bytes, and
 * the prefix carries the resource id and the partition key hash; key tuples
 * (multi-attribute GSI keys) concatenate their components, sort
 * lexicographically, cut as one field and hash over every value. */
#include "harness.h"
#include "base/json.h"
#include "base/num.h"
#include "store/key.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

static sl_arena A;
static sl_failure F;

/* A value from DynamoDB JSON ({"S":..}, {"N":..}, {"B":..}), canonical. */
static sl_av av(const char *text) {
  sl_json *j;
  sl_json_error e;
  sl_av v = {0};
  sl_failure_init(&F, &A);
  if (sl_json_parse(&A, text, strlen(text), &j, &e) != 0 || sl_av_from_json(&F, &A, j, &v) != SL_OK)
    fprintf(stderr, "bad test value: %s (%.*s)\n", text, SL_STR_FMT(F.message));
  return v;
}

static sl_av bytes_av(uint8_t type, const char *p, size_t len) {
  sl_av v = {.type = type};
  v.s = sl_str_make(p, len);
  return v;
}

static sl_str component(const sl_av *v, size_t max) {
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_key_put_component(&b, v, max);
  return sl_buf_str(&b);
}

static int sign(int x) { return (x > 0) - (x < 0); }

static int memcmp_str(sl_str a, sl_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.p, b.p, n) : 0;
  return c ? sign(c) : sign((int)(a.len > b.len) - (int)(a.len < b.len));
}

/* For every pair: the encodings compare as the values do. */
static int order_mismatches(const sl_av *vals, size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      sl_str a = component(&vals[i], SL_KEY_SK_MAX), b = component(&vals[j], SL_KEY_SK_MAX);
      if (memcmp_str(a, b) != sign(sl_av_cmp_scalar(&vals[i], &vals[j])))
        bad++;
    }
  return bad;
}

/* S and B: bytewise order of the values, whatever bytes they hold (0x00,
 * 0x01, 0xFF) and whether one is a prefix of the other. */
static void test_order_bytes(void) {
  static const struct {
    const char *p;
    size_t len;
  } raw[] = {
      {"", 0},         {"\x00", 1},     {"\x00\x00", 2}, {"\x00\x01", 2}, {"\x00\xff", 2},
      {"\x01", 1},     {"a", 1},        {"a\x00", 2},    {"a\x00z", 3},   {"a\x01", 2},
      {"ab", 2},       {"abc", 3},      {"b", 1},        {"\xff", 1},     {"\xff\x00", 2},
      {"\xff\xff", 2}, {"\xc3\xa9", 2}, {"Z", 1},        {"z", 1},
  };
  enum { N = sizeof(raw) / sizeof(raw[0]) };
  sl_av s[N], b[N];
  for (size_t i = 0; i < N; i++) {
    s[i] = bytes_av(SL_AV_S, raw[i].p, raw[i].len);
    b[i] = bytes_av(SL_AV_B, raw[i].p, raw[i].len);
  }
  CHECK_INT(order_mismatches(s, N), 0);
  CHECK_INT(order_mismatches(b, N), 0);
}

/* N: numeric order across signs, magnitudes, the range's ends and 38
 * digits; equal numbers spelled differently encode (and hash) the same. */
static void test_order_numbers(void) {
  static const char *const nums[] = {
      "-9.9999999999999999999999999999999999999E+125",
      "-1E+10",
      "-100",
      "-10",
      "-9.5",
      "-1.5",
      "-1",
      "-0.001",
      "-1E-130",
      "0",
      "1E-130",
      "0.001",
      "0.5",
      "1",
      "1.5",
      "2",
      "9.99",
      "10",
      "10.5",
      "100",
      "1E+10",
      "12345678901234567890123456789012345678",
      "9.9999999999999999999999999999999999999E+125",
  };
  enum { N = sizeof(nums) / sizeof(nums[0]) };
  sl_av v[N];
  for (size_t i = 0; i < N; i++)
    v[i] = av(sl_arena_printf(&A, "{\"N\":\"%s\"}", nums[i]).p);
  CHECK_INT(order_mismatches(v, N), 0);
  for (size_t i = 0; i + 1 < N; i++)
    CHECK(memcmp_str(component(&v[i], SL_KEY_SK_MAX), component(&v[i + 1], SL_KEY_SK_MAX)) < 0);
  /* Never cut: the longest number fits every budget. */
  for (size_t i = 0; i < N; i++)
    CHECK(component(&v[i], SL_KEY_SK_MAX).len <= SL_NUM_MAX_ORDERED);
  sl_av one = av("{\"N\":\"1\"}"), one_again = av("{\"N\":\"1.000\"}"), ten = av("{\"N\":\"1e1\"}"),
        ten_again = av("{\"N\":\"10\"}");
  sl_str c1 = component(&one, SL_KEY_PK_MAX), c2 = component(&one_again, SL_KEY_PK_MAX);
  CHECK(memcmp_str(c1, c2) == 0);
  CHECK(sl_key_hash(&one) == sl_key_hash(&one_again));
  CHECK(sl_key_hash(&ten) == sl_key_hash(&ten_again));
  /* The type is part of the hash: "1" as S and 1 as N differ. */
  sl_av s1 = av("{\"S\":\"1\"}");
  CHECK(sl_key_hash(&s1) != sl_key_hash(&one));
}

/* 0x00 becomes 0x00 0xFF; a component ends with 0x00 0x01, so a value and
 * a longer one sharing its bytes stay in order inside a composite key:
 * ("a", "z") sorts before ("ab", "a"). */
static void test_escaping(void) {
  sl_av v = bytes_av(SL_AV_S,
                     "a\x00"
                     "b\x00",
                     4);
  sl_str c = component(&v, SL_KEY_SK_MAX);
  CHECK(c.len == 8 && memcmp(c.p,
                             "a\x00\xff"
                             "b\x00\xff\x00\x01",
                             8) == 0);
  sl_av empty = bytes_av(SL_AV_B, "", 0);
  c = component(&empty, SL_KEY_SK_MAX);
  CHECK(c.len == 2 && memcmp(c.p, "\x00\x01", 2) == 0);
  sl_av pk1 = av("{\"S\":\"a\"}"), sk1 = av("{\"S\":\"z\"}"), pk2 = av("{\"S\":\"ab\"}"),
        sk2 = av("{\"S\":\"a\"}");
  sl_buf k1, k2;
  sl_buf_init(&k1, &A);
  sl_buf_init(&k2, &A);
  sl_key_put_component(&k1, &pk1, SL_KEY_PK_MAX);
  sl_key_put_component(&k1, &sk1, SL_KEY_SK_MAX);
  sl_key_put_component(&k2, &pk2, SL_KEY_PK_MAX);
  sl_key_put_component(&k2, &sk2, SL_KEY_SK_MAX);
  CHECK(memcmp_str(sl_buf_str(&k1), sl_buf_str(&k2)) < 0);
}

/* A component longer than its budget: (budget - 16) bytes of its encoding,
 * then the XXH3-128 digest (big-endian, high half first) of the whole
 * encoding. One exactly at the budget is kept whole. */
static void test_cut_and_digest(void) {
  char *long1 = sl_arena_alloc(&A, 1024), *long2 = sl_arena_alloc(&A, 1024);
  memset(long1, 'k', 1024);
  memcpy(long2, long1, 1024);
  long2[1023] = 'l'; /* differs after the cut */
  sl_av a = bytes_av(SL_AV_S, long1, 1024), b = bytes_av(SL_AV_S, long2, 1024);
  sl_str whole = component(&a, 4096);
  CHECK_INT(whole.len, 1026);
  sl_str ca = component(&a, SL_KEY_SK_MAX), cb = component(&b, SL_KEY_SK_MAX);
  CHECK_INT(ca.len, SL_KEY_SK_MAX);
  CHECK_INT(cb.len, SL_KEY_SK_MAX);
  CHECK(memcmp(ca.p, whole.p, SL_KEY_SK_MAX - SL_KEY_DIGEST) == 0);
  XXH128_hash_t d = XXH3_128bits(whole.p, whole.len);
  uint8_t digest[SL_KEY_DIGEST];
  sl_be64(digest, d.high64);
  sl_be64(digest + 8, d.low64);
  CHECK(memcmp(ca.p + SL_KEY_SK_MAX - SL_KEY_DIGEST, digest, SL_KEY_DIGEST) == 0);
  /* Unique although they share the whole cut prefix. */
  CHECK(memcmp_str(ca, cb) != 0);
  CHECK(memcmp(ca.p, cb.p, SL_KEY_SK_MAX - SL_KEY_DIGEST) == 0);
  /* Order is exact when long values differ before the cut. */
  char *long3 = sl_arena_alloc(&A, 1024);
  memcpy(long3, long1, 1024);
  long3[10] = 'a';
  sl_av c = bytes_av(SL_AV_S, long3, 1024);
  CHECK(memcmp_str(component(&c, SL_KEY_SK_MAX), ca) < 0);
  /* Escapes count toward the budget: 100 zero bytes encode to 202. */
  char zeros[100] = {0};
  sl_av z = bytes_av(SL_AV_B, zeros, sizeof(zeros));
  CHECK_INT(component(&z, 4096).len, 202);
  CHECK_INT(component(&z, SL_KEY_PK_MAX).len, SL_KEY_PK_MAX);
  /* Exactly at the budget: not cut (126 bytes + terminator = 128). */
  sl_av exact = bytes_av(SL_AV_S, long1, SL_KEY_PK_MAX - 2);
  sl_str ce = component(&exact, SL_KEY_PK_MAX);
  CHECK_INT(ce.len, SL_KEY_PK_MAX);
  CHECK(ce.len >= 2 && memcmp(ce.p + ce.len - 2, "\x00\x01", 2) == 0);
  sl_av over = bytes_av(SL_AV_S, long1, SL_KEY_PK_MAX - 1);
  sl_str co = component(&over, SL_KEY_PK_MAX);
  CHECK_INT(co.len, SL_KEY_PK_MAX);
  CHECK(co.len >= 2 && memcmp(co.p + co.len - 2, "\x00\x01", 2) != 0);
}

/* The budgets add up to at most LMDB's 511 bytes, and the longest keys
 * DynamoDB allows (2,048-byte partition key, 1,024-byte sort key, escapes
 * doubling them) produce keys of exactly the budget. */
static void test_budgets(void) {
  CHECK(SL_KEY_PREFIX_LEN + SL_KEY_PK_MAX + SL_KEY_SK_MAX <= 511);
  CHECK(SL_KEY_PREFIX_LEN + SL_KEY_INDEX_PK_MAX + SL_KEY_INDEX_SK_MAX + SL_KEY_INDEX_TPK_MAX +
            SL_KEY_INDEX_TSK_MAX <=
        511);
  char *pk = sl_arena_alloc(&A, 2048), *sk = sl_arena_alloc(&A, 1024);
  memset(pk, 0, 2048);
  memset(sk, 0, 1024);
  sl_av h = bytes_av(SL_AV_B, pk, 2048), r = bytes_av(SL_AV_B, sk, 1024);
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_key_item(&b, 7, &h, &r);
  CHECK_INT(b.len, 508);
  sl_buf_init(&b, &A);
  sl_key_index_entry(&b, 8, &h, &r, &h, &r);
  CHECK_INT(b.len, 508);
  sl_buf_init(&b, &A);
  sl_key_item(&b, 7, &h, NULL);
  CHECK_INT(b.len, SL_KEY_PREFIX_LEN + SL_KEY_PK_MAX);
  /* The longest number beside the longest string. */
  sl_av n = av("{\"N\":\"-1.2345678901234567890123456789012345678E-120\"}");
  sl_buf_init(&b, &A);
  sl_key_index_entry(&b, 8, &n, &r, &h, &n);
  CHECK(b.len <= 511);
}

/* The prefix: resource id and partition key hash, big-endian, so a
 * resource is one range in hash order; sl_key_hash_of reads the hash back. */
static void test_prefix(void) {
  sl_av h = av("{\"S\":\"user#1\"}");
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_key_item(&b, 0x01020304, &h, NULL);
  CHECK(b.len > SL_KEY_PREFIX_LEN && memcmp(b.p, "\x01\x02\x03\x04", 4) == 0);
  uint64_t hash = sl_key_hash(&h);
  CHECK(sl_key_hash_of(b.p) == hash);
  uint8_t be[8];
  sl_be64(be, hash);
  CHECK(memcmp(b.p + 4, be, 8) == 0);
  sl_str pkc = component(&h, SL_KEY_PK_MAX);
  CHECK(b.len == SL_KEY_PREFIX_LEN + pkc.len &&
        memcmp(b.p + SL_KEY_PREFIX_LEN, pkc.p, pkc.len) == 0);
  /* Every key of resource 5 sorts below every key of resource 6. */
  sl_buf lo, hi;
  sl_buf_init(&lo, &A);
  sl_buf_init(&hi, &A);
  sl_key_put_prefix(&lo, 5, UINT64_MAX);
  sl_key_put_prefix(&hi, 6, 0);
  CHECK(memcmp(lo.p, hi.p, SL_KEY_PREFIX_LEN) < 0);
}

static sl_str tuple_field(const sl_key_tuple *t, size_t max) {
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_key_put_tuple(&b, t, max);
  return sl_buf_str(&b);
}

/* A tuple of one value is that value's component and hash, so
 * single-attribute keys are stored as before. */
static void test_tuple_of_one(void) {
  sl_av s = av("{\"S\":\"user#1\"}"), n = av("{\"N\":\"-12.5\"}");
  sl_key_tuple ts = sl_key_tuple_of(&s), tn = sl_key_tuple_of(&n);
  CHECK(memcmp_str(tuple_field(&ts, SL_KEY_INDEX_PK_MAX), component(&s, SL_KEY_INDEX_PK_MAX)) == 0);
  CHECK(memcmp_str(tuple_field(&tn, SL_KEY_INDEX_SK_MAX), component(&n, SL_KEY_INDEX_SK_MAX)) == 0);
  CHECK(sl_key_tuple_hash(&ts) == sl_key_hash(&s));
  sl_buf a, b;
  sl_buf_init(&a, &A);
  sl_buf_init(&b, &A);
  sl_key_tuple none = {{0}, 0};
  sl_key_index_entry(&a, 9, &s, &n, &s, NULL);
  sl_key_index_entry_tuple(&b, 9, &ts, &tn, &s, NULL);
  CHECK(memcmp_str(sl_buf_str(&a), sl_buf_str(&b)) == 0);
  sl_buf_init(&a, &A);
  sl_buf_init(&b, &A);
  sl_key_index_entry(&a, 9, &s, NULL, &s, NULL);
  sl_key_index_entry_tuple(&b, 9, &ts, &none, &s, NULL);
  CHECK(memcmp_str(sl_buf_str(&a), sl_buf_str(&b)) == 0);
}

/* Sort tuples compare lexicographically under memcmp: by the first value,
 * then the next, whatever their types and lengths ("a" before "ab" in the
 * first position even when the second values say otherwise). */
static void test_tuple_order(void) {
  const char *rows[][3] = {
      {"{\"S\":\"a\"}", "{\"N\":\"-5\"}", "{\"B\":\"AA==\"}"},
      {"{\"S\":\"a\"}", "{\"N\":\"-5\"}", "{\"B\":\"AQ==\"}"},
      {"{\"S\":\"a\"}", "{\"N\":\"2\"}", "{\"B\":\"AA==\"}"},
      {"{\"S\":\"a\"}", "{\"N\":\"10\"}", "{\"B\":\"\"}"},
      {"{\"S\":\"a\\u0000\"}", "{\"N\":\"-100\"}", "{\"B\":\"AA==\"}"},
      {"{\"S\":\"ab\"}", "{\"N\":\"-100\"}", "{\"B\":\"AA==\"}"},
      {"{\"S\":\"b\"}", "{\"N\":\"-100\"}", "{\"B\":\"\"}"},
  };
  enum { N = sizeof(rows) / sizeof(rows[0]) };
  sl_av v[N][3];
  sl_str f[N];
  for (size_t i = 0; i < N; i++) {
    sl_key_tuple t = {{0}, 3};
    for (int k = 0; k < 3; k++) {
      v[i][k] = av(rows[i][k]);
      t.v[k] = &v[i][k];
    }
    f[i] = tuple_field(&t, SL_KEY_INDEX_SK_MAX);
  }
  for (size_t i = 0; i + 1 < N; i++)
    CHECK(memcmp_str(f[i], f[i + 1]) < 0);
  /* A prefix of the tuple (equality on the leading attributes) is a prefix
   * of the field: Query's range for it is one prefix scan. */
  sl_key_tuple lead = {{&v[2][0], &v[2][1]}, 2};
  sl_str p = tuple_field(&lead, SL_KEY_INDEX_SK_MAX);
  CHECK(p.len < f[2].len && memcmp(p.p, f[2].p, p.len) == 0);
  CHECK(memcmp(p.p, f[3].p, p.len) != 0);
}

/* Eight N components fit whole (4 x 24 <= 96); a tuple longer than its
 * budget is cut as one field: (budget - 16) bytes of the concatenation,
 * then the XXH3-128 digest of all of it, so tuples differing only after the
 * cut stay distinct, and index entries stay within LMDB's limit. */
static void test_tuple_cut(void) {
  sl_av big = av("{\"N\":\"-1.2345678901234567890123456789012345678E-120\"}");
  sl_key_tuple nums = {{&big, &big, &big, &big}, 4};
  sl_str whole = tuple_field(&nums, 4096);
  CHECK(whole.len <= SL_KEY_INDEX_PK_MAX);
  CHECK(memcmp_str(tuple_field(&nums, SL_KEY_INDEX_PK_MAX), whole) == 0);
  char *s1 = sl_arena_alloc(&A, 200), *s2 = sl_arena_alloc(&A, 200);
  memset(s1, 'q', 200);
  memcpy(s2, s1, 200);
  s2[199] = 'r';
  sl_av a = bytes_av(SL_AV_S, s1, 60), b1 = bytes_av(SL_AV_S, s1, 200),
        b2 = bytes_av(SL_AV_S, s2, 200);
  sl_key_tuple t1 = {{&a, &b1}, 2}, t2 = {{&a, &b2}, 2};
  sl_str full = tuple_field(&t1, 4096), c1 = tuple_field(&t1, SL_KEY_INDEX_SK_MAX),
         c2 = tuple_field(&t2, SL_KEY_INDEX_SK_MAX);
  CHECK_INT(full.len, 62 + 202);
  CHECK_INT(c1.len, SL_KEY_INDEX_SK_MAX);
  CHECK(memcmp(c1.p, full.p, SL_KEY_INDEX_SK_MAX - SL_KEY_DIGEST) == 0);
  XXH128_hash_t d = XXH3_128bits(full.p, full.len);
  uint8_t digest[SL_KEY_DIGEST];
  sl_be64(digest, d.high64);
  sl_be64(digest + 8, d.low64);
  CHECK(memcmp(c1.p + SL_KEY_INDEX_SK_MAX - SL_KEY_DIGEST, digest, SL_KEY_DIGEST) == 0);
  CHECK(memcmp_str(c1, c2) != 0);
  /* The longest tuples DynamoDB allows still make a key of at most 508
   * bytes. */
  char *pk = sl_arena_alloc(&A, 2048);
  memset(pk, 0, 2048);
  sl_av h = bytes_av(SL_AV_B, pk, 2048), r = bytes_av(SL_AV_B, pk, 1024);
  sl_key_tuple hs = {{&h, &h, &h, &h}, 4}, rs = {{&r, &r, &r, &r}, 4};
  sl_buf k;
  sl_buf_init(&k, &A);
  sl_key_index_entry_tuple(&k, 3, &hs, &rs, &h, &r);
  CHECK_INT(k.len, 508);
}

/* The hash of a tuple covers every value with its type and length: order,
 * type and where one value ends all change it; equal numbers spelled
 * differently hash alike. */
static void test_tuple_hash(void) {
  sl_av ab = av("{\"S\":\"ab\"}"), c = av("{\"S\":\"c\"}"), a = av("{\"S\":\"a\"}"),
        bc = av("{\"S\":\"bc\"}"), n1 = av("{\"N\":\"1\"}"), n1b = av("{\"N\":\"1.0\"}"),
        s1 = av("{\"S\":\"1\"}");
  sl_key_tuple t1 = {{&ab, &c}, 2}, t2 = {{&a, &bc}, 2}, t3 = {{&c, &ab}, 2};
  CHECK(sl_key_tuple_hash(&t1) != sl_key_tuple_hash(&t2));
  CHECK(sl_key_tuple_hash(&t1) != sl_key_tuple_hash(&t3));
  sl_key_tuple u1 = {{&a, &n1}, 2}, u2 = {{&a, &n1b}, 2}, u3 = {{&a, &s1}, 2};
  CHECK(sl_key_tuple_hash(&u1) == sl_key_tuple_hash(&u2));
  CHECK(sl_key_tuple_hash(&u1) != sl_key_tuple_hash(&u3));
  sl_buf b;
  sl_buf_init(&b, &A);
  sl_key_index_entry_tuple(&b, 4, &t1, NULL, &a, NULL);
  CHECK(sl_key_hash_of(b.p) == sl_key_tuple_hash(&t1));
}

int main(void) {
  sl_arena_init(&A);
  RUN(test_order_bytes);
  RUN(test_order_numbers);
  RUN(test_escaping);
  RUN(test_cut_and_digest);
  RUN(test_budgets);
  RUN(test_prefix);
  RUN(test_tuple_of_one);
  RUN(test_tuple_order);
  RUN(test_tuple_cut);
  RUN(test_tuple_hash);
  sl_arena_destroy(&A);
  return DONE();
}
