/* Unit tests of net/compress: coding names, Accept-Encoding with q-values,
 * round trips through gzip, zlib-format and raw deflate, several gzip
 * members, the decoded-size bound (a decompression bomb stops at max_out),
 * and corrupt, truncated and trailing-junk inputs at every cut. */
#include "harness.h"
#include "net/compress.h"

#include <stdlib.h>
#include <zlib.h>

static sl_buf text(size_t n) {
  sl_buf b;
  sl_buf_init(&b, NULL);
  for (size_t i = 0; i < n; i++)
    sl_buf_putc(&b, "{\"pk\":{\"S\":\"abc\"}}, "[i % 20]);
  return b;
}

/* Raw deflate (no zlib header), as some clients send under "deflate". */
static sl_buf raw_deflate(const sl_buf *in) {
  sl_buf out;
  sl_buf_init(&out, NULL);
  z_stream z;
  memset(&z, 0, sizeof(z));
  deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  size_t bound = deflateBound(&z, in->len);
  sl_buf_reserve(&out, bound);
  z.next_in = (Bytef *)in->p;
  z.avail_in = (uInt)in->len;
  z.next_out = (Bytef *)out.p;
  z.avail_out = (uInt)bound;
  deflate(&z, Z_FINISH);
  out.len = bound - z.avail_out;
  deflateEnd(&z);
  return out;
}

static void test_codings(void) {
  CHECK_INT(sl_compress_coding(SL_STR("")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_coding(SL_STR("identity")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_coding(SL_STR(" GZip ")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_coding(SL_STR("x-gzip")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_coding(SL_STR("deflate")), SL_CODING_DEFLATE);
  CHECK_INT(sl_compress_coding(SL_STR("br")), SL_CODING_UNKNOWN);
  CHECK_INT(sl_compress_coding(SL_STR("gzip, gzip")), SL_CODING_UNKNOWN);
  CHECK_STR(sl_compress_coding_name(SL_CODING_GZIP), "gzip");
  CHECK_STR(sl_compress_coding_name(SL_CODING_DEFLATE), "deflate");
}

static void test_accept(void) {
  CHECK_INT(sl_compress_accept(SL_STR_NULL), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_accept(SL_STR("identity")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_accept(SL_STR("gzip")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_accept(SL_STR("deflate")), SL_CODING_DEFLATE);
  CHECK_INT(sl_compress_accept(SL_STR("gzip, deflate")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_accept(SL_STR("deflate, gzip")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_accept(SL_STR("gzip;q=0.5, deflate")), SL_CODING_DEFLATE);
  CHECK_INT(sl_compress_accept(SL_STR("gzip ; q=0.9 , deflate;q=0.8")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_accept(SL_STR("gzip;q=0, deflate;q=0")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_accept(SL_STR("gzip;q=0")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_accept(SL_STR("*")), SL_CODING_GZIP);
  CHECK_INT(sl_compress_accept(SL_STR("gzip;q=0, *")), SL_CODING_DEFLATE);
  CHECK_INT(sl_compress_accept(SL_STR("*;q=0")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_accept(SL_STR("br, x-gzip;q=1.000")), SL_CODING_GZIP);
  /* A malformed q-value drops its element. */
  CHECK_INT(sl_compress_accept(SL_STR("gzip;q=2, deflate;q=0.1")), SL_CODING_DEFLATE);
  CHECK_INT(sl_compress_accept(SL_STR("gzip;q=0.12345")), SL_CODING_IDENTITY);
  CHECK_INT(sl_compress_accept(SL_STR(",,gzip,,")), SL_CODING_GZIP);
}

static void test_round_trips(void) {
  sl_buf in = text(200000), z, out;
  sl_buf_init(&z, NULL);
  sl_buf_init(&out, NULL);
  sl_coding cs[] = {SL_CODING_GZIP, SL_CODING_DEFLATE};
  for (size_t k = 0; k < 2; k++) {
    sl_compress_deflate(cs[k], in.p, in.len, &z);
    CHECK(z.len < in.len / 10);
    CHECK_INT(sl_compress_inflate(cs[k], z.p, z.len, in.len, &out), SL_INFLATE_OK);
    CHECK(out.len == in.len && memcmp(out.p, in.p, in.len) == 0);
    /* One byte under the size: refused. */
    CHECK_INT(sl_compress_inflate(cs[k], z.p, z.len, in.len - 1, &out), SL_INFLATE_TOO_LARGE);
    CHECK(out.len <= in.len - 1);
  }
  /* Raw deflate under the name deflate. */
  sl_buf r = raw_deflate(&in);
  CHECK_INT(sl_compress_inflate(SL_CODING_DEFLATE, r.p, r.len, in.len, &out), SL_INFLATE_OK);
  CHECK(out.len == in.len && memcmp(out.p, in.p, in.len) == 0);
  /* Empty input is an empty body. */
  CHECK_INT(sl_compress_inflate(SL_CODING_GZIP, "", 0, 10, &out), SL_INFLATE_OK);
  CHECK_INT(out.len, 0);
  /* An empty body compressed. */
  sl_compress_deflate(SL_CODING_GZIP, "", 0, &z);
  CHECK_INT(sl_compress_inflate(SL_CODING_GZIP, z.p, z.len, 0, &out), SL_INFLATE_OK);
  CHECK_INT(out.len, 0);
  sl_buf_free(&r);
  sl_buf_free(&in);
  sl_buf_free(&z);
  sl_buf_free(&out);
}

/* Two gzip members decode as their concatenation; junk after a deflate
 * stream, or after a gzip member, is corrupt. */
static void test_members_and_junk(void) {
  sl_buf a, b, out, two;
  sl_buf_init(&a, NULL);
  sl_buf_init(&b, NULL);
  sl_buf_init(&out, NULL);
  sl_buf_init(&two, NULL);
  sl_compress_deflate(SL_CODING_GZIP, "hello ", 6, &a);
  sl_compress_deflate(SL_CODING_GZIP, "world", 5, &b);
  sl_buf_append(&two, a.p, a.len);
  sl_buf_append(&two, b.p, b.len);
  CHECK_INT(sl_compress_inflate(SL_CODING_GZIP, two.p, two.len, 100, &out), SL_INFLATE_OK);
  CHECK_STR(sl_buf_str(&out), "hello world");
  sl_buf_append(&two, "xy", 2);
  CHECK_INT(sl_compress_inflate(SL_CODING_GZIP, two.p, two.len, 100, &out), SL_INFLATE_CORRUPT);
  sl_compress_deflate(SL_CODING_DEFLATE, "hello", 5, &a);
  sl_buf_append(&a, "\0", 1);
  CHECK_INT(sl_compress_inflate(SL_CODING_DEFLATE, a.p, a.len, 100, &out), SL_INFLATE_CORRUPT);
  CHECK_INT(sl_compress_inflate(SL_CODING_GZIP, "not gzip", 8, 100, &out), SL_INFLATE_CORRUPT);
  sl_buf_free(&a);
  sl_buf_free(&b);
  sl_buf_free(&out);
  sl_buf_free(&two);
}

/* Every proper prefix of a stream is truncated or corrupt, never OK, and a
 * flipped byte is never silently accepted with the wrong contents. */
static void test_truncation(void) {
  sl_buf in = text(5000), z, out;
  sl_buf_init(&z, NULL);
  sl_buf_init(&out, NULL);
  sl_coding cs[] = {SL_CODING_GZIP, SL_CODING_DEFLATE};
  for (size_t k = 0; k < 2; k++) {
    sl_compress_deflate(cs[k], in.p, in.len, &z);
    int bad = 0;
    for (size_t cut = 1; cut < z.len; cut++) {
      sl_inflate_status st = sl_compress_inflate(cs[k], z.p, cut, in.len, &out);
      bad += st != SL_INFLATE_TRUNCATED && st != SL_INFLATE_CORRUPT;
    }
    CHECK_INT(bad, 0);
    for (size_t i = 0; i < z.len; i++) {
      z.p[i] ^= 0x5a;
      sl_inflate_status st = sl_compress_inflate(cs[k], z.p, z.len, in.len, &out);
      bad += st == SL_INFLATE_OK && (out.len != in.len || memcmp(out.p, in.p, in.len) != 0);
      z.p[i] ^= 0x5a;
    }
    CHECK_INT(bad, 0);
  }
  sl_buf_free(&in);
  sl_buf_free(&z);
  sl_buf_free(&out);
}

/* 256 MiB of zeros compress to about 256 KiB; decoding them with a 16 MiB bound
 * stops there, having held no more than twice the bound (the buffer doubles). */
static void test_bomb(void) {
  z_stream zs;
  memset(&zs, 0, sizeof(zs));
  deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  sl_buf z;
  sl_buf_init(&z, NULL);
  static char zeros[1 << 20];
  for (int i = 0; i < 256; i++) {
    zs.next_in = (Bytef *)zeros;
    zs.avail_in = sizeof(zeros);
    do {
      sl_buf_reserve(&z, 65536);
      zs.next_out = (Bytef *)z.p + z.len;
      zs.avail_out = 65536;
      deflate(&zs, i == 255 ? Z_FINISH : Z_NO_FLUSH);
      z.len += 65536 - zs.avail_out;
    } while (zs.avail_out == 0);
  }
  deflateEnd(&zs);
  CHECK(z.len < 4 << 20);
  sl_buf out;
  sl_buf_init(&out, NULL);
  uint64_t max = 16 << 20;
  CHECK_INT(sl_compress_inflate(SL_CODING_GZIP, z.p, z.len, max, &out), SL_INFLATE_TOO_LARGE);
  CHECK(out.len <= max && out.cap <= 2 * max);
  sl_buf_free(&z);
  sl_buf_free(&out);
}

int main(void) {
  RUN(test_codings);
  RUN(test_accept);
  RUN(test_round_trips);
  RUN(test_members_and_junk);
  RUN(test_truncation);
  RUN(test_bomb);
  return DONE();
}
