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

void sl_key_put_component(sl_buf *b, const sl_av *v, size_t max) {
  size_t start = b->len;
  put_component(b, v);
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

uint64_t sl_key_hash_of(const void *key) {
  const uint8_t *p = (const uint8_t *)key + 4;
  uint64_t h = 0;
  for (int i = 0; i < 8; i++)
    h = h << 8 | p[i];
  return h;
}
