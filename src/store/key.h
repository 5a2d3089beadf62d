/*
 * key.h — how items and index entries are keyed in LMDB.
 *
 * All data lives in one ordered keyspace (the "items" database). A key is
 *
 *   offset size  field
 *   0      4     resource id, big-endian (a table, an LSI or a GSI)
 *   4      8     64-bit hash of the partition key value, big-endian
 *   12     var   partition key component
 *   ...    var   sort key component           (if the resource has a sort key)
 *   ...    var   table partition key component (index entries only)
 *   ...    var   table sort key component      (index entries only, if any)
 *
 * so a resource is one contiguous range, a partition key's items are one
 * contiguous range sorted by sort key (a Query is one range scan), and a Scan
 * walks hash order — the order DynamoDB's Scan and parallel-scan segments
 * follow. Capacity partitions (cap/) are ranges of the same hash space.
 *
 * Components are self-delimiting and order-preserving within their type:
 *
 *   S, B  the bytes with 0x00 escaped as 0x00 0xFF, then 0x00 0x01
 *         (memcmp order == bytewise order of the values, which is DynamoDB's
 *         order for S (UTF-8 bytes) and B)
 *   N     base/num.h order encoding (self-delimiting)
 *
 * Length limits: LMDB keys are at most 511 bytes, and DynamoDB keys can be
 * 2048 (partition) + 1024 (sort) bytes. A component longer than its budget
 * is cut to (budget - 16) bytes followed by a 16-byte XXH3-128 digest of the
 * whole encoding: keys stay unique, and order is exact except among long
 * values that share the whole cut prefix (readers that need exact order
 * re-sort such runs from the stored item, which holds the full values).
 * Budgets (always <= 511 in total):
 *
 *   table item:   4 + 8 + pk 128 + sk 368                       = 508
 *   index entry:  4 + 8 + ipk 96 + isk 160 + tpk 96 + tsk 144     = 508
 *
 * N components (<= 24 bytes) are never cut.
 *
 * Multi-attribute GSI keys (dynamodb-facts §14): an index's partition key
 * and its sort key may each be a tuple of up to SL_KEY_MAX_PARTS attributes.
 * A tuple is stored as one field, its components concatenated in KeySchema
 * order within the field's budget:
 *
 *   index entry:  4 + 8 + (ipk1 .. ipk4) 96 + (isk1 .. isk4) 160 + tpk 96 + tsk 144 = 508
 *
 * Components delimit themselves, so the concatenation is injective and
 * memcmp order on it is the tuple's lexicographic order (the order of a
 * Query's results). Eight N components always fit (4 x 24 = 96). A tuple
 * whose encoding exceeds its budget is cut like one long component: to
 * (budget - 16) bytes followed by the XXH3-128 digest of the whole tuple's
 * encoding. A partition tuple is only ever matched for equality, so cutting
 * it loses nothing; a sort tuple cut this way sorts exactly except among
 * tuples sharing the cut prefix, and Query re-checks every item it reads
 * against the key condition (ops/query.h), reading a range widened to the
 * cut prefix when a bound itself is longer than (budget - 16). A tuple of
 * one attribute is encoded exactly as that component, so single-attribute
 * keys are unchanged. The hash of a partition tuple of n > 1 values is
 * XXH3-64, with the same seed, over each value as type (1 byte), length (4
 * bytes, big-endian) and canonical bytes; of one value, sl_key_hash.
 *
 * The hash is XXH3-64 of the value's canonical bytes, seeded with a fixed
 * constant plus the type tag (N: canonical text), so equal keys hash equally whatever
 * their spelling ("1.0" and "1").
 *
 * Threads: pure functions.
 */
#ifndef SL_STORE_KEY_H
#define SL_STORE_KEY_H

#include "base/bytes.h" /* sl_be32, sl_be64 */
#include "store/item.h"
#include "store/schema.h"

#define SL_KEY_PREFIX_LEN 12 /* resource id + hash */
#define SL_KEY_PK_MAX 128
#define SL_KEY_SK_MAX 368
#define SL_KEY_INDEX_PK_MAX 96
#define SL_KEY_INDEX_SK_MAX 160
#define SL_KEY_INDEX_TPK_MAX 96
#define SL_KEY_INDEX_TSK_MAX 144
#define SL_KEY_DIGEST 16

uint64_t sl_key_hash(const sl_av *v);

/* The values of a key tuple in KeySchema order (n 1..SL_KEY_MAX_PARTS). */
typedef struct {
  const sl_av *v[SL_KEY_MAX_PARTS];
  uint32_t n;
} sl_key_tuple;

static inline sl_key_tuple sl_key_tuple_of(const sl_av *v) {
  sl_key_tuple t = {{v}, 1};
  return t;
}
/* The partition hash of a tuple (sl_key_hash for one value). */
uint64_t sl_key_tuple_hash(const sl_key_tuple *t);
/* Appends a tuple's field, cut to 'max' bytes as described above. */
void sl_key_put_tuple(sl_buf *b, const sl_key_tuple *t, size_t max);
/* Key of an index entry whose index keys are tuples ('irange' may have n 0). */
void sl_key_index_entry_tuple(sl_buf *b, uint32_t index_id, const sl_key_tuple *ihash,
                              const sl_key_tuple *irange, const sl_av *thash, const sl_av *trange);

/* Appends one component, cut to 'max' bytes as described above. */
void sl_key_put_component(sl_buf *b, const sl_av *v, size_t max);
void sl_key_put_prefix(sl_buf *b, uint32_t resource_id, uint64_t hash);

/* The full key of an item of a table. 'range' may be NULL when the schema has
 * no sort key. */
void sl_key_item(sl_buf *b, uint32_t resource_id, const sl_av *hash, const sl_av *range);
/* Key of an index entry: index keys, then the table's keys. */
void sl_key_index_entry(sl_buf *b, uint32_t index_id, const sl_av *ihash, const sl_av *irange,
                        const sl_av *thash, const sl_av *trange);

/* Turns 'b' into the smallest key greater than every key starting with it
 * (a range's exclusive end). */
void sl_key_successor(sl_buf *b);

/* Reads the big-endian hash of a key (after its resource id). */
uint64_t sl_key_hash_of(const void *key);

#endif
