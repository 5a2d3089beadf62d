/* Standard base64 with the service's strict decoding rules; see base64.h. */
#include "base/base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The 6-bit value of an alphabet character, or -1. */
static int sextet(unsigned char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

size_t sl_base64_encode(const void *in, size_t len, char *out) {
  const unsigned char *p = in;
  char *o = out;
  size_t i = 0;
  for (; i + 3 <= len; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    *o++ = alphabet[(v >> 6) & 63];
    *o++ = alphabet[v & 63];
  }
  if (len - i == 1) {
    uint32_t v = (uint32_t)p[i] << 16;
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    *o++ = '=';
    *o++ = '=';
  } else if (len - i == 2) {
    uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    *o++ = alphabet[(v >> 6) & 63];
    *o++ = '=';
  }
  return (size_t)(o - out);
}

/* Number of trailing '=' (0, 1 or 2) of a length-checked, non-empty input. */
static size_t padding(sl_str in) {
  size_t pad = 0;
  if (in.p[in.len - 1] == '=')
    pad++;
  if (pad && in.p[in.len - 2] == '=')
    pad++;
  return pad;
}

sl_base64_status sl_base64_check(sl_str in, size_t *bad_at) {
  if (in.len % 4 != 0)
    return SL_BASE64_BAD_LENGTH;
  if (in.len == 0)
    return SL_BASE64_OK;
  size_t pad = padding(in), data = in.len - pad;
  for (size_t i = 0; i < data; i++) {
    if (sextet((unsigned char)in.p[i]) < 0) {
      *bad_at = i;
      return SL_BASE64_BAD_CHAR;
    }
  }
  int last = sextet((unsigned char)in.p[data - 1]);
  if ((pad == 1 && (last & 3) != 0) || (pad == 2 && (last & 15) != 0))
    return SL_BASE64_BAD_LAST;
  return SL_BASE64_OK;
}

size_t sl_base64_decode(sl_str in, char *out) {
  size_t bad_at;
  if (sl_base64_check(in, &bad_at) != SL_BASE64_OK)
    return (size_t)-1;
  if (in.len == 0)
    return 0;
  size_t pad = padding(in), data = in.len - pad;
  const unsigned char *p = (const unsigned char *)in.p;
  unsigned char *o = (unsigned char *)out;
  size_t i = 0;
  for (; i + 4 <= data; i += 4) {
    uint32_t v = (uint32_t)sextet(p[i]) << 18 | (uint32_t)sextet(p[i + 1]) << 12 |
                 (uint32_t)sextet(p[i + 2]) << 6 | (uint32_t)sextet(p[i + 3]);
    *o++ = (unsigned char)(v >> 16);
    *o++ = (unsigned char)(v >> 8);
    *o++ = (unsigned char)v;
  }
  if (pad == 2) {
    uint32_t v = (uint32_t)sextet(p[i]) << 18 | (uint32_t)sextet(p[i + 1]) << 12;
    *o++ = (unsigned char)(v >> 16);
  } else if (pad == 1) {
    uint32_t v = (uint32_t)sextet(p[i]) << 18 | (uint32_t)sextet(p[i + 1]) << 12 |
                 (uint32_t)sextet(p[i + 2]) << 6;
    *o++ = (unsigned char)(v >> 16);
    *o++ = (unsigned char)(v >> 8);
  }
  return (size_t)((char *)o - out);
}
