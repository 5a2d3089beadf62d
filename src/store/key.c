/* Key encoding; layout in key.h. */
#include "store/key.h"
#include "base/log.h"
#include "base/num.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define SL_KEY_SEED 0x736c75696365ULL /* "sluice" */

uint64_t sl_key_hash(const sl_av *v) {
  /* The type goes into the seed: "1" as S and 1 as N hash differently. */
  return XXH3_64bits_withSeed(v->s.p, v->s.len, SL_KEY_SEED + v->type);
}

static void put_component(sl_buf *b, const sl_av *v) {
  if (v->type == SL_AV_N) {
    sl_num n;
    if (sl_num_parse(v->s, &n) != SL_NUM_OK)
      SL_UNREACHABLE(); /* keys are validated before they are encoded */
    uint8_t tmp[SL_NUM_MAX_ORDERED];
    size_t len = sl_num_encode_ordered(&n, tmp);
    sl_buf_append(b, tmp, len);
    return;
  }
  sl_buf_reserve(b, v->s.len + 2);
  const char *p = v->s.p, *end = p + v->s.len;
  while (p < end) {
    const char *z = memchr(p, 0, (size_t)(end - p));
    if (!z) {
      sl_buf_append(b, p, (size_t)(end - p));
      break;
    }
    sl_buf_append(b, p, (size_t)(z - p) + 1);
    sl_buf_putc(b, (char)0xFF);
    p = z + 1;
  }
  sl_buf_putc(b, 0);
  sl_buf_putc(b, 1);
}

/* Cuts what was appended since 'start' to 'max' bytes (key.h). */
static void cut(sl_buf *b, size_t start, size_t max) {
  size_t len = b->len - start;
  if (len <= max)
    return;
  XXH128_hash_t d = XXH3_128bits(b->p + start, len);
  uint8_t digest[SL_KEY_DIGEST];
  sl_be64(digest, d.high64);
  sl_be64(digest + 8, d.low64);
  b->len = start + max - SL_KEY_DIGEST;
  sl_buf_append(b, digest, sizeof(digest));
}

void sl_key_put_component(sl_buf *b, const sl_av *v, size_t max) {
  size_t start = b->len;
  put_component(b, v);
  cut(b, start, max);
}

uint64_t sl_key_tuple_hash(const sl_key_tuple *t) {
  if (t->n == 1)
    return sl_key_hash(t->v[0]);
  XXH3_state_t st;
  XXH3_INITSTATE(&st);
  XXH3_64bits_reset_withSeed(&st, SL_KEY_SEED);
  for (uint32_t i = 0; i < t->n; i++) {
    uint8_t head[5];
    head[0] = t->v[i]->type;
    sl_be32(head + 1, (uint32_t)t->v[i]->s.len);
    XXH3_64bits_update(&st, head, sizeof(head));
    XXH3_64bits_update(&st, t->v[i]->s.p, t->v[i]->s.len);
  }
  return XXH3_64bits_digest(&st);
}

void sl_key_put_tuple(sl_buf *b, const sl_key_tuple *t, size_t max) {
  size_t start = b->len;
  for (uint32_t i = 0; i < t->n; i++)
    put_component(b, t->v[i]);
  cut(b, start, max);
}

void sl_key_index_entry_tuple(sl_buf *b, uint32_t index_id, const sl_key_tuple *ihash,
                              const sl_key_tuple *irange, const sl_av *thash, const sl_av *trange) {
  sl_key_put_prefix(b, index_id, sl_key_tuple_hash(ihash));
  sl_key_put_tuple(b, ihash, SL_KEY_INDEX_PK_MAX);
  if (irange && irange->n)
    sl_key_put_tuple(b, irange, SL_KEY_INDEX_SK_MAX);
  sl_key_put_component(b, thash, SL_KEY_INDEX_TPK_MAX);
  if (trange)
    sl_key_put_component(b, trange, SL_KEY_INDEX_TSK_MAX);
}

void sl_key_put_prefix(sl_buf *b, uint32_t resource_id, uint64_t hash) {
  uint8_t tmp[SL_KEY_PREFIX_LEN];
  sl_be32(tmp, resource_id);
  sl_be64(tmp + 4, hash);
  sl_buf_append(b, tmp, sizeof(tmp));
}

void sl_key_item(sl_buf *b, uint32_t resource_id, const sl_av *hash, const sl_av *range) {
  sl_key_put_prefix(b, resource_id, sl_key_hash(hash));
  sl_key_put_component(b, hash, SL_KEY_PK_MAX);
  if (range)
    sl_key_put_component(b, range, SL_KEY_SK_MAX);
}

void sl_key_index_entry(sl_buf *b, uint32_t index_id, const sl_av *ihash, const sl_av *irange,
                        const sl_av *thash, const sl_av *trange) {
  sl_key_put_prefix(b, index_id, sl_key_hash(ihash));
  sl_key_put_component(b, ihash, SL_KEY_INDEX_PK_MAX);
  if (irange)
    sl_key_put_component(b, irange, SL_KEY_INDEX_SK_MAX);
  sl_key_put_component(b, thash, SL_KEY_INDEX_TPK_MAX);
  if (trange)
    sl_key_put_component(b, trange, SL_KEY_INDEX_TSK_MAX);
}

void sl_key_successor(sl_buf *b) {
  while (b->len > 0) {
    uint8_t last = (uint8_t)b->p[b->len - 1];
    if (last != 0xFF) {
      b->p[b->len - 1] = (char)(last + 1);
      return;
    }
    b->len--;
  }
}

uint64_t sl_key_hash_of(const void *key) { return sl_rd64be((const uint8_t *)key + 4); }
