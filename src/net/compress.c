/*
 * compress.c — gzip and deflate content codings with zlib; see compress.h.
 *
 * Decoding writes into the output buffer in steps of at most 64 KiB, growing
 * it only as zlib produces bytes, and never asks for room past max_out, so
 * memory follows the decoded size and stays under twice max_out (the buffer
 * grows by doubling).
 */
#include "net/compress.h"

#include "base/log.h"

#include <stdlib.h>
#include <zlib.h>

enum { STEP = 64 * 1024 };

#define EQ_LIT(s, lit) sl_str_eq_nocase((s), SL_STR(lit))

/* Trims spaces and tabs from both ends. */
static sl_str trim(sl_str s) {
  while (s.len && (s.p[0] == ' ' || s.p[0] == '\t'))
    s.p++, s.len--;
  while (s.len && (s.p[s.len - 1] == ' ' || s.p[s.len - 1] == '\t'))
    s.len--;
  return s;
}

sl_coding sl_compress_coding(sl_str v) {
  v = trim(v);
  if (v.len == 0 || EQ_LIT(v, "identity"))
    return SL_CODING_IDENTITY;
  if (EQ_LIT(v, "gzip") || EQ_LIT(v, "x-gzip"))
    return SL_CODING_GZIP;
  if (EQ_LIT(v, "deflate"))
    return SL_CODING_DEFLATE;
  return SL_CODING_UNKNOWN;
}

sl_str sl_compress_coding_name(sl_coding c) {
  switch (c) {
  case SL_CODING_GZIP:
    return SL_STR("gzip");
  case SL_CODING_DEFLATE:
    return SL_STR("deflate");
  default:
    return SL_STR("identity");
  }
}

/* zlib's window bits for a stream: 16+15 for gzip, 15 for the zlib format,
 * -15 for raw deflate. A "deflate" body is the zlib format when its first two
 * bytes make a valid zlib header (RFC 1950 §2.2: CM 8, and the 16-bit value
 * a multiple of 31), raw deflate otherwise. */
static int window_bits(sl_coding c, const unsigned char *in, size_t len) {
  if (c == SL_CODING_GZIP)
    return 16 + MAX_WBITS;
  if (len >= 2 && (in[0] & 0x0f) == 8 && (in[0] >> 4) <= 7 && ((in[0] << 8) | in[1]) % 31 == 0)
    return MAX_WBITS;
  return -MAX_WBITS;
}

sl_inflate_status sl_compress_inflate(sl_coding c, const void *in, size_t len, uint64_t max_out,
                                      sl_buf *out) {
  SL_ASSERT(c == SL_CODING_GZIP || c == SL_CODING_DEFLATE);
  out->len = 0;
  if (len == 0)
    return SL_INFLATE_OK;
  const unsigned char *p = in;
  z_stream z;
  memset(&z, 0, sizeof(z));
  if (inflateInit2(&z, window_bits(c, p, len)) != Z_OK)
    sl_panic("inflateInit2 failed");
  sl_inflate_status st = SL_INFLATE_OK;
  z.next_in = (Bytef *)p;
  z.avail_in = 0;
  size_t left = len; /* input not yet handed to zlib */
  for (;;) {
    if (z.avail_in == 0 && left > 0) {
      z.avail_in = left > UINT32_MAX ? UINT32_MAX : (uInt)left;
      left -= z.avail_in;
    }
    /* With the output full, one byte of room tells whether zlib has more:
     * if it fills it, the body is too large; a stream that ends exactly at
     * max_out is fine. */
    unsigned char probe;
    bool probing = out->len >= max_out;
    size_t step = 0;
    if (probing) {
      z.next_out = &probe;
      z.avail_out = 1;
    } else {
      size_t room = (size_t)(max_out - out->len);
      step = room < STEP ? room : STEP;
      sl_buf_reserve(out, step);
      z.next_out = (Bytef *)out->p + out->len;
      z.avail_out = (uInt)step;
    }
    int rc = inflate(&z, Z_NO_FLUSH);
    if (probing && z.avail_out == 0) {
      st = SL_INFLATE_TOO_LARGE;
      break;
    }
    if (!probing)
      out->len += step - z.avail_out;
    if (rc == Z_OK)
      continue;
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0 && left == 0)
        break;
      /* More bytes after the end: another gzip member, or junk. */
      if (c != SL_CODING_GZIP || inflateReset(&z) != Z_OK) {
        st = SL_INFLATE_CORRUPT;
        break;
      }
      continue;
    }
    /* Z_BUF_ERROR: no progress although there is room, so the input has run
     * out before the end of the stream. Anything else: Z_DATA_ERROR,
     * Z_NEED_DICT (a preset dictionary, which HTTP never has). */
    st = rc == Z_BUF_ERROR ? SL_INFLATE_TRUNCATED : SL_INFLATE_CORRUPT;
    break;
  }
  inflateEnd(&z);
  return st;
}

/* Parses a qvalue (RFC 9110 §12.4.2) into thousandths; -1 if malformed. */
static int parse_q(sl_str v) {
  if (v.len == 0 || v.len > 5 || (v.p[0] != '0' && v.p[0] != '1'))
    return -1;
  int q = (v.p[0] - '0') * 1000;
  if (v.len == 1)
    return q;
  if (v.p[1] != '.')
    return -1;
  int scale = 100;
  for (size_t i = 2; i < v.len; i++, scale /= 10) {
    if (v.p[i] < '0' || v.p[i] > '9')
      return -1;
    q += (v.p[i] - '0') * scale;
  }
  return q > 1000 ? -1 : q;
}

sl_coding sl_compress_accept(sl_str v) {
  int q_gzip = -1, q_deflate = -1, q_star = -1;
  const char *p = v.p, *end = v.p + v.len;
  while (p && p < end) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *e = comma ? comma : end;
    sl_str elem = sl_str_make(p, (size_t)(e - p));
    p = comma ? comma + 1 : NULL;
    /* coding *( OWS ";" OWS "q=" qvalue ) */
    const char *semi = memchr(elem.p, ';', elem.len);
    sl_str name = trim(sl_str_make(elem.p, semi ? (size_t)(semi - elem.p) : elem.len));
    int q = 1000;
    if (semi) {
      sl_str param = trim(sl_str_make(semi + 1, (size_t)(elem.p + elem.len - semi - 1)));
      if (param.len >= 2 && (param.p[0] == 'q' || param.p[0] == 'Q') && param.p[1] == '=')
        q = parse_q(trim(sl_str_make(param.p + 2, param.len - 2)));
      if (q < 0)
        continue; /* a malformed element is ignored */
    }
    if (EQ_LIT(name, "gzip") || EQ_LIT(name, "x-gzip"))
      q_gzip = q;
    else if (EQ_LIT(name, "deflate"))
      q_deflate = q;
    else if (EQ_LIT(name, "*"))
      q_star = q;
  }
  if (q_gzip < 0)
    q_gzip = q_star;
  if (q_deflate < 0)
    q_deflate = q_star;
  if (q_gzip <= 0 && q_deflate <= 0)
    return SL_CODING_IDENTITY;
  return q_gzip >= q_deflate ? SL_CODING_GZIP : SL_CODING_DEFLATE;
}

void sl_compress_deflate(sl_coding c, const void *in, size_t len, sl_buf *out) {
  SL_ASSERT(c == SL_CODING_GZIP || c == SL_CODING_DEFLATE);
  z_stream z;
  memset(&z, 0, sizeof(z));
  /* Level 1: the fastest. JSON compresses well at any level, and this runs
   * on the loop thread for every large reply. */
  int bits = c == SL_CODING_GZIP ? 16 + MAX_WBITS : MAX_WBITS;
  if (deflateInit2(&z, 1, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    sl_panic("deflateInit2 failed");
  size_t bound = deflateBound(&z, (uLong)len);
  out->len = 0;
  sl_buf_reserve(out, bound);
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)len;
  z.next_out = (Bytef *)out->p;
  z.avail_out = (uInt)bound;
  int rc = deflate(&z, Z_FINISH);
  SL_ASSERT(rc == Z_STREAM_END);
  out->len = bound - z.avail_out;
  deflateEnd(&z);
}
