/* The binary item encoding (format version 1); byte table in item.h. */
#include "store/item.h"
#include "base/log.h"

static void varint_put(sl_buf *b, uint64_t v) {
  uint8_t tmp[10];
  size_t n = 0;
  do {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    tmp[n++] = byte | (v ? 0x80 : 0);
  } while (v);
  sl_buf_append(b, tmp, n);
}

static bool varint_get(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*p >= end)
      return false;
    uint8_t byte = *(*p)++;
    v |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

static void put_bytes(sl_buf *b, sl_str s) {
  varint_put(b, s.len);
  sl_buf_puts(b, s);
}

enum {
  TAG_S = 0x01,
  TAG_N = 0x02,
  TAG_B = 0x03,
  TAG_FALSE = 0x04,
  TAG_TRUE = 0x05,
  TAG_NULL = 0x06,
  TAG_SS = 0x07,
  TAG_NS = 0x08,
  TAG_BS = 0x09,
  TAG_L = 0x0A,
  TAG_M = 0x0B,
  TAG_S_SAFE = 0x0C,
};

static void encode_value(sl_buf *b, const sl_av *v) {
  switch ((sl_av_type)v->type) {
  case SL_AV_S:
    sl_buf_putc(b, v->safe || !sl_json_needs_escape(v->s) ? TAG_S_SAFE : TAG_S);
    put_bytes(b, v->s);
    return;
  case SL_AV_N:
    sl_buf_putc(b, TAG_N);
    put_bytes(b, v->s);
    return;
  case SL_AV_B:
    sl_buf_putc(b, TAG_B);
    put_bytes(b, v->s);
    return;
  case SL_AV_BOOL:
    sl_buf_putc(b, v->b ? TAG_TRUE : TAG_FALSE);
    return;
  case SL_AV_NULL:
    sl_buf_putc(b, TAG_NULL);
    return;
  case SL_AV_SS:
  case SL_AV_NS:
  case SL_AV_BS:
    sl_buf_putc(b, v->type == SL_AV_SS ? TAG_SS : v->type == SL_AV_NS ? TAG_NS : TAG_BS);
    varint_put(b, v->n);
    for (uint32_t i = 0; i < v->n; i++)
      put_bytes(b, v->set[i]);
    return;
  case SL_AV_L:
    sl_buf_putc(b, TAG_L);
    varint_put(b, v->n);
    for (uint32_t i = 0; i < v->n; i++)
      encode_value(b, &v->list[i]);
    return;
  case SL_AV_M:
    sl_buf_putc(b, TAG_M);
    varint_put(b, v->n);
    for (uint32_t i = 0; i < v->n; i++) {
      put_bytes(b, v->map[i].name);
      encode_value(b, &v->map[i].v);
    }
    return;
  case SL_AV_NONE:
    break;
  }
  SL_UNREACHABLE();
}

void sl_item_encode(sl_buf *b, const sl_item *it) {
  sl_buf_putc(b, SL_ITEM_FORMAT);
  varint_put(b, sl_item_size(it));
  varint_put(b, it->n);
  for (uint32_t i = 0; i < it->n; i++) {
    put_bytes(b, it->attrs[i].name);
    encode_value(b, &it->attrs[i].v);
  }
}

typedef struct {
  sl_arena *a;
  const uint8_t *p;
  const uint8_t *end;
} reader;

static bool get_bytes(reader *r, sl_str *out) {
  uint64_t len;
  if (!varint_get(&r->p, r->end, &len) || len > (uint64_t)(r->end - r->p))
    return false;
  *out = sl_str_make((const char *)r->p, (size_t)len);
  r->p += len;
  return true;
}

static bool get_count(reader *r, uint32_t *out) {
  uint64_t n;
  /* Every element takes at least one byte: a count above the remaining
   * length is corruption, and this bound keeps allocations sane. */
  if (!varint_get(&r->p, r->end, &n) || n > (uint64_t)(r->end - r->p))
    return false;
  *out = (uint32_t)n;
  return true;
}

static bool decode_value(reader *r, sl_av *v, int depth) {
  if (r->p >= r->end || depth > SL_ITEM_MAX_DEPTH + 1)
    return false;
  memset(v, 0, sizeof(*v));
  uint8_t tag = *r->p++;
  switch (tag) {
  case TAG_S:
    v->type = SL_AV_S;
    return get_bytes(r, &v->s);
  case TAG_S_SAFE:
    v->type = SL_AV_S;
    v->safe = true;
    return get_bytes(r, &v->s);
  case TAG_N:
    v->type = SL_AV_N;
    return get_bytes(r, &v->s);
  case TAG_B:
    v->type = SL_AV_B;
    return get_bytes(r, &v->s);
  case TAG_FALSE:
  case TAG_TRUE:
    v->type = SL_AV_BOOL;
    v->b = tag == TAG_TRUE;
    return true;
  case TAG_NULL:
    v->type = SL_AV_NULL;
    return true;
  case TAG_SS:
  case TAG_NS:
  case TAG_BS:
    v->type = tag == TAG_SS ? SL_AV_SS : tag == TAG_NS ? SL_AV_NS : SL_AV_BS;
    if (!get_count(r, &v->n))
      return false;
    v->set = SL_NEW_ARRAY(r->a, sl_str, v->n ? v->n : 1);
    for (uint32_t i = 0; i < v->n; i++)
      if (!get_bytes(r, &v->set[i]))
        return false;
    return true;
  case TAG_L:
    v->type = SL_AV_L;
    if (!get_count(r, &v->n))
      return false;
    v->list = SL_NEW_ARRAY(r->a, sl_av, v->n ? v->n : 1);
    for (uint32_t i = 0; i < v->n; i++)
      if (!decode_value(r, &v->list[i], depth + 1))
        return false;
    return true;
  case TAG_M:
    v->type = SL_AV_M;
    if (!get_count(r, &v->n))
      return false;
    v->map = SL_NEW_ARRAY(r->a, sl_attr, v->n ? v->n : 1);
    for (uint32_t i = 0; i < v->n; i++)
      if (!get_bytes(r, &v->map[i].name) || !decode_value(r, &v->map[i].v, depth + 1))
        return false;
    return true;
  default:
    return false;
  }
}

bool sl_item_decode(sl_arena *a, const void *p, size_t len, sl_item *out, size_t *size_out) {
  reader r = {a, p, (const uint8_t *)p + len};
  uint64_t size;
  uint32_t n;
  if (len < 1 || *r.p++ != SL_ITEM_FORMAT)
    return false;
  if (!varint_get(&r.p, r.end, &size) || !get_count(&r, &n))
    return false;
  if (size_out)
    *size_out = (size_t)size;
  out->n = n;
  out->attrs = SL_NEW_ARRAY(a, sl_attr, n ? n : 1);
  for (uint32_t i = 0; i < n; i++)
    if (!get_bytes(&r, &out->attrs[i].name) || !decode_value(&r, &out->attrs[i].v, 1))
      return false;
  return r.p == r.end;
}

bool sl_item_encoded_size(const void *p, size_t len, size_t *out) {
  const uint8_t *q = p, *end = q + len;
  uint64_t size;
  if (len < 1 || *q++ != SL_ITEM_FORMAT || !varint_get(&q, end, &size))
    return false;
  *out = (size_t)size;
  return true;
}
