/* DynamoDB Streams' records, shards, iterators and retention; see streams.h.
 * Pinned by tests/conformance/test_streams.py and tests/unit/streams/test_streams.c. */
#include "streams/streams.h"
#include "base/bytes.h"
#include "base/crc32.h"
#include "base/log.h"
#include "store/key.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SL_STREAMS_CACHE 16   /* entries of the capture hook's cache */
#define SL_STREAMS_ROUTES 128 /* and of its routes' */
#define READER_SLOTS 6        /* readers tracked per shard */

struct sl_streams {
  sl_store *store;
  sl_clock *clock;
  sl_streams_params p;
  uint64_t next_seq;
  uint64_t rng;
  int64_t trim_ms; /* when sl_streams_tick last looked */
  /* The capture hook's cache of enabled streams by table id: entries of an
   * older generation are void. Streams change only in sl_streams_sync (a
   * control-plane transaction that writes no items) and sl_streams_tick (its
   * own transaction); both bump the generation, so an entry never outlives
   * what it was read from, committed or aborted. */
  uint64_t gen;
  uint32_t next_reader;
  /* Readers of shards (streams.h, readers): a slot per shard by hash. */
  struct reader_slot {
    uint32_t stream_id, shard; /* stream_id 0: free */
    uint32_t reader[READER_SLOTS];
    uint32_t calls[READER_SLOTS]; /* GetRecords with its NextShardIterators */
    bool polling[READER_SLOTS];   /* admitted as one of the shard's readers */
    int64_t last_ms[READER_SLOTS];
  } readers[SL_STREAMS_READER_SLOTS];
  bool dirty;  /* a stream needs its shards: the next tick runs at once */
  bool behind; /* the last tick ran out of its trim budget: the next runs at once */
  /* Records captured since the shards' index was last brought up to date
   * (streams.h, "the index"; counts aborted ones too: a hint, never a
   * truth; 0 only after a commit that indexed everything). */
  uint32_t unindexed;
  struct stream_cache {
    uint64_t gen;
    uint32_t table_id, stream_id;
    uint8_t view, label_len;
    char label[32];
  } cache[SL_STREAMS_CACHE];
  /* The 'P' routes the hook read (partition to open shard), of the same
   * generation rule: routes change only where streams do. */
  struct route_cache {
    uint64_t gen;
    uint32_t stream_id, part, shard;
  } routes[SL_STREAMS_ROUTES];
  sl_stream_reader *positions; /* SL_STREAMS_READERS, allocated at the first read */
  size_t n_positions;
  /* Memory mode's links (streams.h, "After images"): a stream's item key to
   * its latest record and the one before it. */
  bool linked;
  struct link_node **links;
  size_t n_links, links_cap;
};

/* One item's entry in the links map. */
struct link_node {
  struct link_node *next;
  uint32_t h, stream_id;
  uint64_t last, prev; /* record numbers; 0: none */
  uint32_t klen;
  bool dead;     /* its records are being trimmed: removed at the commit */
  uint8_t key[]; /* the record's Keys image, as encoded */
};

#define STREAM_HDR 50 /* fixed part of a stream value, before the key names */
#define SHARD_LEN 72
#define RECORD_HDR 16  /* the fixed part of a format 1 record */
#define RECORD_HDR2 24 /* format 2: + u32 stream id, u32 shard */
#define RECORD_HDR3 32 /* format 3: + u64 link (memory mode, after images by link) */
/* Image bits of a record (byte 3). */
#define IMG_NEW 1        /* NewImage: inline in format 2, by link in format 3 */
#define IMG_OLD 2        /* OldImage */
#define IMG_OLD_HIDDEN 4 /* format 3, NEW_IMAGE: the before image kept for the link only */
#define FORMAT_AFTER 4   /* an after image copied when its stream was disabled */
/* Records captured before a tick brings the index up to date without
 * waiting for the second of the clock (one short write transaction). */
#define INDEX_BATCH 1024
/* Records trimmed per sl_streams_tick call at most (one write transaction of
 * ~1-3 ms here), so that the request before which a tick runs never waits
 * for more. A tick that uses it all runs again at the next call (before the
 * next request, or 100 ms later) instead of a second of the clock later, so
 * trimming follows any write rate: at 20,000 records a second, 20 calls. */
#define TRIM_PER_CALL 1024

void sl_streams_params_default(sl_streams_params *p) {
  p->retention_ms = 24LL * 3600 * 1000;
  p->iterator_ttl_ms = 15LL * 60 * 1000;
  p->shard_rollover_ms = 4LL * 3600 * 1000;
  p->readers_per_shard = 2;
  p->reader_window_ms = 2000;
}

uint32_t sl_streams_new_reader(sl_streams *s) {
  if (++s->next_reader == 0)
    s->next_reader = 1;
  return s->next_reader;
}

bool sl_streams_reader_admit(sl_streams *s, const sl_stream_iter *it, int64_t now_ms) {
  if (!it->chained)
    return true; /* not polling (yet) */
  uint32_t h = (it->stream_id * 0x9E3779B1u) ^ (it->shard * 0x85EBCA77u);
  struct reader_slot *r = &s->readers[h % SL_STREAMS_READER_SLOTS];
  if (r->stream_id != it->stream_id || r->shard != it->shard) {
    memset(r, 0, sizeof(*r));
    r->stream_id = it->stream_id;
    r->shard = it->shard;
  }
  uint32_t max = s->p.readers_per_shard < SL_STREAMS_READERS_MAX ? s->p.readers_per_shard
                                                                 : SL_STREAMS_READERS_MAX;
  bool live[READER_SLOTS];
  size_t self = READER_SLOTS, pollers = 0;
  for (size_t i = 0; i < READER_SLOTS; i++) {
    live[i] =
        r->reader[i] && now_ms >= r->last_ms[i] && now_ms - r->last_ms[i] < s->p.reader_window_ms;
    if (live[i] && r->reader[i] == it->reader)
      self = i;
  }
  for (size_t i = 0; i < READER_SLOTS; i++)
    if (i != self && live[i] && r->polling[i])
      pollers++;
  if (self == READER_SLOTS) {
    /* A new reader: a quiet slot, else that of a reader not polling yet. */
    for (size_t i = 0; i < READER_SLOTS && self == READER_SLOTS; i++)
      if (!live[i])
        self = i;
    for (size_t i = 0; i < READER_SLOTS && self == READER_SLOTS; i++)
      if (!r->polling[i] && r->calls[i] < 2)
        self = i;
    if (self == READER_SLOTS)
      return false;
    r->reader[self] = it->reader;
    r->calls[self] = 0;
    r->polling[self] = false;
  }
  r->last_ms[self] = now_ms;
  if (r->calls[self] < UINT32_MAX)
    r->calls[self]++;
  if (r->calls[self] < 2 || r->polling[self])
    return true;
  /* Its second NextShardIterator within the window: it polls. */
  if (pollers >= max)
    return false;
  r->polling[self] = true;
  return true;
}

const sl_streams_params *sl_streams_params_of(const sl_streams *s) { return &s->p; }
uint64_t sl_streams_next_seq(const sl_streams *s) { return s->next_seq; }

static const char *const view_names[] = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE",
                                         "NEW_AND_OLD_IMAGES"};

int sl_stream_view_parse(sl_str name) {
  for (int i = 0; i < 4; i++)
    if (sl_str_eq_c(name, view_names[i]))
      return i;
  return -1;
}

const char *sl_stream_view_name(sl_stream_view v) { return view_names[v & 3]; }

static uint32_t random_tag(sl_streams *s);

/* ---- keys ---- */

static sl_str stream_key(sl_arena *a, sl_str name, sl_str label) {
  sl_buf b;
  sl_buf_init(&b, a);
  sl_buf_putc(&b, 'S');
  sl_buf_puts(&b, name);
  sl_buf_putc(&b, 0);
  sl_buf_puts(&b, label);
  return sl_buf_str(&b);
}

static sl_str tags_key(sl_arena *a, sl_str name, sl_str label) {
  sl_str k = stream_key(a, name, label);
  ((char *)k.p)[0] = 'T';
  return k;
}

static void shard_key(uint8_t out[9], uint32_t id, uint32_t no) {
  out[0] = 'H';
  sl_be32(out + 1, id);
  sl_be32(out + 5, no);
}

/* A key of a shard's index: 'N' (a run, streams.h) or 'R' (one record, the
 * layout before runs, rewritten at open), the stream, the shard and a
 * sequence number. */
static void index_key(uint8_t out[17], char kind, uint32_t id, uint32_t no, uint64_t seq) {
  out[0] = (uint8_t)kind;
  sl_be32(out + 1, id);
  sl_be32(out + 5, no);
  sl_be64(out + 9, seq);
}

/* The record numbered 'seq', in "records". */
static bool record_get(sl_txn *txn, uint64_t seq, sl_str *out) {
  uint8_t k[8];
  sl_be64(k, seq);
  return sl_store_get(txn, SL_DB_RECORDS, sl_str_make((char *)k, 8), out);
}

/* ---- a shard's index: its runs ---- */

/* A walk over the record numbers of one shard, in either direction, never
 * below 'floor' (the shard's trim point: a run may still hold numbers of
 * trimmed records). */
typedef struct {
  sl_cursor *c;
  uint8_t shard[9]; /* the keys' prefix: 'N', stream, shard */
  uint64_t floor;
  uint64_t first; /* the current run's */
  sl_str deltas;  /* its u32 offsets from 'first' */
  size_t i;       /* the current number's place in it */
} run_walk;

static size_t run_len(const run_walk *w) { return w->deltas.len / 4; }
static uint64_t run_at(const run_walk *w, size_t i) {
  return w->first + sl_rd32((const uint8_t *)w->deltas.p + 4 * i);
}

/* Takes the run at key 'k' when it is one of the shard's. */
static bool run_take(run_walk *w, sl_str k, sl_str v) {
  if (k.len != 17 || memcmp(k.p, w->shard, 9) != 0 || v.len < 4 || v.len % 4)
    return false;
  w->first = sl_rd64be((const uint8_t *)k.p + 9);
  w->deltas = v;
  return true;
}

static void walk_open(run_walk *w, sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh) {
  memset(w, 0, sizeof(*w));
  w->c = sl_store_cursor(txn, SL_DB_STREAMS);
  w->shard[0] = 'N';
  sl_be32(w->shard + 1, st->id);
  sl_be32(w->shard + 5, sh->no);
  w->floor = sh->trim_seq;
}

static void walk_close(run_walk *w) { sl_cursor_close(w->c); }

/* The shard's first number at or after 'pos' (forward walk). */
static bool walk_from(run_walk *w, uint64_t pos, uint64_t *seq) {
  if (pos < w->floor)
    pos = w->floor;
  uint8_t k[17];
  memcpy(k, w->shard, 9);
  sl_be64(k + 9, pos);
  sl_str kk, v;
  /* The run that starts at or before 'pos', else the first after it. */
  bool ok = pos < UINT64_MAX;
  if (ok) {
    sl_be64(k + 9, pos + 1);
    ok =
        sl_cursor_seek_last_before(w->c, sl_str_make((char *)k, 17), &kk, &v) && run_take(w, kk, v);
  }
  if (!ok) {
    sl_be64(k + 9, pos);
    if (!sl_cursor_seek(w->c, sl_str_make((char *)k, 17), &kk, &v) || !run_take(w, kk, v))
      return false;
  }
  for (;;) {
    /* The first of this run at or after 'pos': a binary search. */
    size_t lo = 0, hi = run_len(w);
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (run_at(w, mid) < pos)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo < run_len(w)) {
      w->i = lo;
      *seq = run_at(w, lo);
      return true;
    }
    if (!sl_cursor_next(w->c, &kk, &v) || !run_take(w, kk, v))
      return false;
  }
}

static bool walk_next(run_walk *w, uint64_t *seq) {
  if (++w->i >= run_len(w)) {
    sl_str k, v;
    if (!sl_cursor_next(w->c, &k, &v) || !run_take(w, k, v))
      return false;
    w->i = 0;
  }
  *seq = run_at(w, w->i);
  return true;
}

/* The shard's last number (backward walk). */
static bool walk_last(run_walk *w, uint64_t *seq) {
  uint8_t k[17];
  memcpy(k, w->shard, 9);
  memset(k + 9, 0xff, 8);
  sl_str kk, v;
  /* The last key of the shard is below 'N' stream shard ff..ff + one byte. */
  uint8_t past[18];
  memcpy(past, k, 17);
  past[17] = 0;
  if (!sl_cursor_seek_last_before(w->c, sl_str_make((char *)past, 18), &kk, &v) ||
      !run_take(w, kk, v))
    return false;
  w->i = run_len(w) - 1;
  *seq = run_at(w, w->i);
  return *seq >= w->floor;
}

static bool walk_prev(run_walk *w, uint64_t *seq) {
  if (w->i == 0) {
    sl_str k, v;
    if (!sl_cursor_prev(w->c, &k, &v) || !run_take(w, k, v))
      return false;
    w->i = run_len(w);
  }
  *seq = run_at(w, --w->i);
  return *seq >= w->floor;
}

/* ---- streams ---- */

static bool stream_decode(sl_arena *a, sl_str key, sl_str v, sl_stream *out) {
  const uint8_t *p = (const uint8_t *)v.p;
  if (v.len < STREAM_HDR || p[0] != 1 || key.len < 2)
    return false;
  const char *zero = memchr(key.p + 1, 0, key.len - 1);
  if (!zero)
    return false;
  memset(out, 0, sizeof(*out));
  out->table_name = sl_arena_strdup(a, sl_str_make(key.p + 1, (size_t)(zero - key.p - 1)));
  out->label = sl_arena_strdup(a, sl_str_make(zero + 1, key.len - (size_t)(zero + 1 - key.p)));
  out->enabled = p[1] == 1;
  out->view = p[2] & 3;
  out->id = sl_rd32(p + 4);
  out->open_shard = sl_rd32(p + 8);
  out->n_shards_made = sl_rd32(p + 12);
  out->created_ms = sl_rd64(p + 16);
  out->disabled_ms = sl_rd64(p + 24);
  out->table_id = sl_rd32(p + 40);
  out->key.hash_type = p[44];
  out->key.range_type = p[45];
  uint16_t hl = sl_rd16(p + 46), rl = sl_rd16(p + 48);
  if (v.len < (size_t)STREAM_HDR + hl + rl)
    return false;
  out->key.hash = sl_arena_strdup(a, sl_str_make(v.p + STREAM_HDR, hl));
  out->key.range = sl_arena_strdup(a, sl_str_make(v.p + STREAM_HDR + hl, rl));
  return true;
}

static sl_str stream_encode(sl_arena *a, const sl_stream *st, uint64_t open_created_ms) {
  size_t len = STREAM_HDR + st->key.hash.len + st->key.range.len;
  uint8_t *p = sl_arena_calloc(a, 1, len);
  p[0] = 1;
  p[1] = st->enabled ? 1 : 0;
  p[2] = st->view;
  sl_le32(p + 4, st->id);
  sl_le32(p + 8, st->open_shard);
  sl_le32(p + 12, st->n_shards_made);
  sl_le64(p + 16, st->created_ms);
  sl_le64(p + 24, st->disabled_ms);
  sl_le64(p + 32, open_created_ms);
  sl_le32(p + 40, st->table_id);
  p[44] = st->key.hash_type;
  p[45] = st->key.range_type;
  p[46] = (uint8_t)st->key.hash.len;
  p[47] = (uint8_t)(st->key.hash.len >> 8);
  p[48] = (uint8_t)st->key.range.len;
  p[49] = (uint8_t)(st->key.range.len >> 8);
  memcpy(p + STREAM_HDR, st->key.hash.p, st->key.hash.len);
  if (st->key.range.len) /* no sort key: an empty slice may have no pointer */
    memcpy(p + STREAM_HDR + st->key.hash.len, st->key.range.p, st->key.range.len);
  return sl_str_make((const char *)p, len);
}

static sl_err stream_put(sl_txn *txn, sl_arena *a, const sl_stream *st, uint64_t open_created_ms,
                         sl_failure *f) {
  return sl_store_put(txn, SL_DB_STREAMS, stream_key(a, st->table_name, st->label),
                      stream_encode(a, st, open_created_ms), f);
}

bool sl_streams_get(sl_txn *txn, sl_arena *a, sl_str name, sl_str label, sl_stream *out) {
  sl_str key = stream_key(a, name, label), v;
  return sl_store_get(txn, SL_DB_STREAMS, key, &v) && stream_decode(a, key, v, out);
}

/* ---- a stream's tags ---- */

static void put32(sl_buf *b, uint32_t v) {
  uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  sl_buf_puts(b, sl_str_make((char *)x, 4));
}

void sl_streams_tags(sl_txn *txn, sl_arena *a, sl_str name, sl_str label, sl_tag **out,
                     uint32_t *n_out) {
  sl_str v;
  *out = NULL;
  *n_out = 0;
  if (!sl_store_get(txn, SL_DB_STREAMS, tags_key(a, name, label), &v) || v.len < 4)
    return;
  const uint8_t *p = (const uint8_t *)v.p, *end = p + v.len;
  uint32_t n = sl_rd32(p), got = 0;
  p += 4;
  sl_tag *t = SL_NEW_ARRAY(a, sl_tag, n + 1);
  while (got < n) {
    sl_str part[2];
    for (int i = 0; i < 2; i++) {
      if (end - p < 4 || (size_t)(end - p - 4) < sl_rd32(p))
        goto done; /* a damaged record keeps what it could read */
      uint32_t len = sl_rd32(p);
      part[i] = sl_arena_strdup(a, sl_str_make((const char *)p + 4, len));
      p += 4 + len;
    }
    t[got].key = part[0];
    t[got].value = part[1];
    got++;
  }
done:
  *out = t;
  *n_out = got;
}

sl_err sl_streams_set_tags(sl_txn *txn, sl_arena *a, sl_str name, sl_str label, const sl_tag *tags,
                           uint32_t n, sl_failure *f) {
  sl_str key = tags_key(a, name, label);
  if (n == 0)
    return sl_store_del(txn, SL_DB_STREAMS, key, f);
  sl_buf b;
  sl_buf_init(&b, a);
  put32(&b, n);
  for (uint32_t i = 0; i < n; i++) {
    put32(&b, (uint32_t)tags[i].key.len);
    sl_buf_puts(&b, tags[i].key);
    put32(&b, (uint32_t)tags[i].value.len);
    sl_buf_puts(&b, tags[i].value);
  }
  return sl_store_put(txn, SL_DB_STREAMS, key, sl_buf_str(&b), f);
}

static int stream_order(const void *x, const void *y) {
  const sl_stream *a = x, *b = y;
  int c = sl_str_cmp(a->table_name, b->table_name);
  if (c)
    return c;
  return sl_str_cmp(b->label, a->label); /* newest first */
}

void sl_streams_list(sl_txn *txn, sl_arena *a, sl_str table, sl_stream **out, size_t *n_out) {
  size_t n = 0, cap = 16;
  sl_stream *v = SL_NEW_ARRAY(a, sl_stream, cap);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_STREAMS);
  sl_buf pre;
  sl_buf_init(&pre, a);
  sl_buf_putc(&pre, 'S');
  if (table.len) {
    sl_buf_puts(&pre, table);
    sl_buf_putc(&pre, 0);
  }
  sl_str k, val;
  for (bool ok = sl_cursor_seek(c, sl_buf_str(&pre), &k, &val);
       ok && sl_str_starts_with(k, sl_buf_str(&pre)); ok = sl_cursor_next(c, &k, &val)) {
    if (n == cap) {
      v = sl_arena_realloc(a, v, cap * sizeof(*v), 2 * cap * sizeof(*v));
      cap *= 2;
    }
    if (stream_decode(a, k, val, &v[n]))
      n++;
  }
  sl_cursor_close(c);
  qsort(v, n, sizeof(*v), stream_order);
  *out = v;
  *n_out = n;
}

bool sl_streams_get_by_id(sl_txn *txn, sl_arena *a, uint32_t id, sl_stream *out) {
  sl_stream *v;
  size_t n;
  sl_streams_list(txn, a, (sl_str){0}, &v, &n);
  for (size_t i = 0; i < n; i++)
    if (v[i].id == id) {
      *out = v[i];
      return true;
    }
  return false;
}

/* ---- shards ---- */

static void shard_id_format(const sl_stream_shard *sh, uint32_t tag, char out[48]) {
  snprintf(out, 48, "shardId-%020llu-%08x", (unsigned long long)sh->created_ms, tag);
}

static bool shard_decode(uint32_t no, sl_str v, sl_stream_shard *out) {
  const uint8_t *p = (const uint8_t *)v.p;
  if (v.len < SHARD_LEN)
    return false;
  memset(out, 0, sizeof(*out));
  out->no = no;
  uint32_t parent = sl_rd32(p);
  out->parent = parent ? (int64_t)parent - 1 : -1;
  out->created_ms = sl_rd64(p + 8);
  out->start_seq = sl_rd64(p + 16);
  out->end_seq = sl_rd64(p + 24);
  out->closed_ms = sl_rd64(p + 32);
  out->trim_seq = sl_rd64(p + 40);
  out->partition = sl_rd32(p + 48);
  out->lo_hash = sl_rd64(p + 56);
  out->epoch = sl_rd64(p + 64);
  out->tag = sl_rd32(p + 4);
  shard_id_format(out, out->tag, out->id);
  return true;
}

static sl_err shard_put(sl_txn *txn, uint32_t stream_id, const sl_stream_shard *sh, sl_failure *f) {
  uint8_t k[9], p[SHARD_LEN] = {0};
  shard_key(k, stream_id, sh->no);
  sl_le32(p, sh->parent >= 0 ? (uint32_t)sh->parent + 1 : 0);
  sl_le32(p + 4, sh->tag);
  sl_le64(p + 8, sh->created_ms);
  sl_le64(p + 16, sh->start_seq);
  sl_le64(p + 24, sh->end_seq);
  sl_le64(p + 32, sh->closed_ms);
  sl_le64(p + 40, sh->trim_seq);
  sl_le32(p + 48, sh->partition);
  sl_le64(p + 56, sh->lo_hash);
  sl_le64(p + 64, sh->epoch);
  return sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)k, 9),
                      sl_str_make((char *)p, SHARD_LEN), f);
}

/* The 'P' record: which open shard takes the records of a partition. */
static void part_key(uint8_t out[9], uint32_t id, uint32_t part) {
  out[0] = 'P';
  sl_be32(out + 1, id);
  sl_be32(out + 5, part);
}

void sl_streams_shards(sl_txn *txn, sl_arena *a, const sl_stream *st, sl_stream_shard **out,
                       size_t *n_out) {
  size_t n = 0, cap = 8;
  sl_stream_shard *v = SL_NEW_ARRAY(a, sl_stream_shard, cap);
  uint8_t lo[9];
  shard_key(lo, st->id, 0);
  sl_str pre = sl_str_make((char *)lo, 5);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_STREAMS);
  sl_str k, val;
  for (bool ok = sl_cursor_seek(c, pre, &k, &val); ok && sl_str_starts_with(k, pre);
       ok = sl_cursor_next(c, &k, &val)) {
    if (k.len != 9)
      continue;
    if (n == cap) {
      v = sl_arena_realloc(a, v, cap * sizeof(*v), 2 * cap * sizeof(*v));
      cap *= 2;
    }
    if (shard_decode(sl_rd32be((const uint8_t *)k.p + 5), val, &v[n]))
      n++;
  }
  sl_cursor_close(c);
  *out = v;
  *n_out = n;
}

bool sl_streams_shard(sl_txn *txn, sl_arena *a, const sl_stream *st, sl_str shard_id,
                      sl_stream_shard *out) {
  sl_stream_shard *v;
  size_t n;
  sl_streams_shards(txn, a, st, &v, &n);
  for (size_t i = 0; i < n; i++)
    if (sl_str_eq_c(shard_id, v[i].id)) {
      *out = v[i];
      return true;
    }
  return false;
}

bool sl_streams_shard_bounds(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh,
                             uint64_t *first, uint64_t *last) {
  run_walk w;
  walk_open(&w, txn, st, sh);
  bool any = walk_from(&w, 0, first);
  if (any) {
    bool ok = walk_last(&w, last);
    SL_ASSERT(ok);
  }
  walk_close(&w);
  return any;
}

bool sl_streams_oldest(sl_txn *txn, const sl_stream *st, const sl_stream_shard *shards, size_t n,
                       int64_t *created_ms) {
  bool any = false;
  for (size_t i = 0; i < n; i++) {
    run_walk w;
    walk_open(&w, txn, st, &shards[i]);
    uint64_t seq;
    sl_str rv;
    bool got = walk_from(&w, 0, &seq) && record_get(txn, seq, &rv) && rv.len >= RECORD_HDR;
    walk_close(&w);
    if (!got)
      continue;
    int64_t at = (int64_t)sl_rd64((const uint8_t *)rv.p + 8);
    if (!any || at < *created_ms)
      *created_ms = at;
    any = true;
  }
  return any;
}

/* ---- sequence numbers ---- */

void sl_streams_seq_format(uint64_t seq, char out[32]) {
  snprintf(out, 32, "%021llu", (unsigned long long)seq);
}

bool sl_streams_seq_parse(sl_str s, uint64_t *out) {
  uint64_t v = 0;
  if (s.len == 0 || s.len > 40)
    return false;
  for (size_t i = 0; i < s.len; i++) {
    if (s.p[i] < '0' || s.p[i] > '9')
      return false;
    uint64_t d = (uint64_t)(s.p[i] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* ---- iterators ---- */

sl_str sl_streams_iter_format(sl_arena *a, const sl_stream_iter *it) {
  char body[96];
  int n = snprintf(body, sizeof(body), "v2|%u|%u|%llu|%lld|%llu", it->stream_id, it->shard,
                   (unsigned long long)it->pos, (long long)it->issued_ms,
                   (unsigned long long)it->reader << 1 | it->chained);
  return sl_arena_printf(a, "%s|%08x", body, sl_crc32(0, body, (size_t)n));
}

static bool parse_u64(const char **p, const char *end, uint64_t *out) {
  const char *q = *p;
  uint64_t v = 0;
  if (q == end || *q < '0' || *q > '9')
    return false;
  if (*q == '0' && q + 1 < end && q[1] >= '0' && q[1] <= '9')
    return false; /* one text per number: no leading zeros */
  while (q < end && *q >= '0' && *q <= '9') {
    if (v > UINT64_MAX / 10 - 9)
      return false;
    v = v * 10 + (uint64_t)(*q++ - '0');
  }
  *p = q;
  *out = v;
  return true;
}

bool sl_streams_iter_parse(sl_str s, sl_stream_iter *out) {
  const char *p = s.p, *end = s.p + s.len;
  uint64_t id = 0, shard = 0, pos = 0, issued = 0, reader = 0;
  if (s.len < 14 || memcmp(p, "v2|", 3) != 0)
    return false;
  p += 3;
  if (!parse_u64(&p, end, &id) || p == end || *p++ != '|' || !parse_u64(&p, end, &shard) ||
      p == end || *p++ != '|' || !parse_u64(&p, end, &pos) || p == end || *p++ != '|' ||
      !parse_u64(&p, end, &issued) || p == end || *p++ != '|' || !parse_u64(&p, end, &reader) ||
      p == end || *p != '|' || reader >> 1 > UINT32_MAX)
    return false;
  size_t body = (size_t)(p - s.p);
  p++;
  if (end - p != 8)
    return false;
  char want[9];
  snprintf(want, sizeof(want), "%08x", sl_crc32(0, s.p, body));
  if (memcmp(p, want, 8) != 0 || id > UINT32_MAX || shard > UINT32_MAX || issued > INT64_MAX)
    return false;
  out->stream_id = (uint32_t)id;
  out->shard = (uint32_t)shard;
  out->pos = pos;
  out->issued_ms = (int64_t)issued;
  out->reader = (uint32_t)(reader >> 1);
  out->chained = reader & 1;
  return true;
}

/* ---- opening ---- */

/* The two numbers kept in "streams" under a one-letter key (streams.h): the
 * sequence high-water mark 'Q' and the index mark 'I'. */
static bool mark_get(sl_txn *txn, const char *key, uint64_t *out) {
  sl_str v;
  if (!sl_store_get(txn, SL_DB_STREAMS, sl_str_c(key), &v) || v.len != 8)
    return false;
  *out = sl_rd64((const uint8_t *)v.p);
  return true;
}

static sl_err mark_put(sl_txn *txn, const char *key, uint64_t seq, sl_failure *f) {
  uint8_t v[8];
  sl_le64(v, seq);
  return sl_store_put(txn, SL_DB_STREAMS, sl_str_c(key), sl_str_make((char *)v, 8), f);
}

static sl_err high_water_put(sl_txn *txn, uint64_t seq, sl_failure *f) {
  return mark_put(txn, "Q", seq, f);
}

/* The runs a batch of records makes (index_pending, open_migrate): one per
 * shard, its numbers in increasing order. */
typedef struct {
  uint32_t stream, shard;
  uint64_t first;
  sl_buf deltas; /* u32 offsets from 'first', little-endian */
} run_build;

typedef struct {
  run_build *v;
  size_t n, cap;
  size_t hint; /* the run last added to */
  sl_arena *a;
} run_batch;

static sl_err runs_put(sl_txn *txn, const run_build *r, sl_failure *f) {
  uint8_t k[17];
  index_key(k, 'N', r->stream, r->shard, r->first);
  return sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)k, 17), sl_buf_str(&r->deltas), f);
}

/* Adds number 'seq' (above every number added to the shard's run) to the
 * shard's run; a run that would span more than a u32 of numbers is written
 * and a new one begun. */
static sl_err runs_add(run_batch *b, sl_txn *txn, uint32_t stream, uint32_t shard, uint64_t seq,
                       sl_failure *f) {
  run_build *r = b->hint < b->n ? &b->v[b->hint] : NULL;
  if (!r || r->stream != stream || r->shard != shard) {
    r = NULL;
    for (size_t i = 0; i < b->n && !r; i++)
      if (b->v[i].stream == stream && b->v[i].shard == shard) {
        r = &b->v[i];
        b->hint = i;
      }
  }
  if (r && seq - r->first > UINT32_MAX) {
    sl_err err = runs_put(txn, r, f);
    if (err != SL_OK)
      return err;
    r->first = seq;
    sl_buf_init(&r->deltas, b->a);
  }
  if (!r) {
    if (b->n == b->cap) {
      size_t cap = b->cap ? b->cap * 2 : 8;
      b->v = sl_arena_realloc(b->a, b->v, b->cap * sizeof(*b->v), cap * sizeof(*b->v));
      b->cap = cap;
    }
    r = &b->v[b->n];
    b->hint = b->n++;
    *r = (run_build){.stream = stream, .shard = shard, .first = seq};
    sl_buf_init(&r->deltas, b->a);
  }
  uint8_t d[4];
  sl_le32(d, (uint32_t)(seq - r->first));
  sl_buf_append(&r->deltas, d, 4);
  return SL_OK;
}

static sl_err runs_flush(run_batch *b, sl_txn *txn, sl_failure *f) {
  sl_err err = SL_OK;
  for (size_t i = 0; i < b->n && err == SL_OK; i++)
    err = runs_put(txn, &b->v[i], f);
  return err;
}

/* In 'txn': gives every record from the index mark ("I") on its place in
 * its shard's index (one run a shard for the batch), and moves the mark
 * past them. *did: whether it wrote. */
static sl_err index_pending(sl_streams *s, sl_txn *txn, bool *did, sl_failure *f) {
  *did = false;
  if (!s->unindexed)
    return SL_OK;
  /* The index mark: every record numbered below it is indexed. */
  uint64_t from = 0, last = 0;
  mark_get(txn, "I", &from);
  uint8_t lo[8];
  sl_be64(lo, from);
  sl_err err = SL_OK;
  bool any = false;
  sl_arena a;
  sl_arena_init(&a);
  run_batch b = {.a = &a};
  sl_cursor *c = sl_store_cursor(txn, SL_DB_RECORDS);
  sl_str k, v;
  for (bool ok = sl_cursor_seek(c, sl_str_make((char *)lo, 8), &k, &v); ok && err == SL_OK;
       ok = sl_cursor_next(c, &k, &v)) {
    const uint8_t *p = (const uint8_t *)v.p;
    if (k.len != 8)
      continue;
    last = sl_rd64be((const uint8_t *)k.p);
    any = true;
    if (v.len < RECORD_HDR2 || (p[0] != 2 && p[0] != 3))
      continue; /* format 1: indexed when its layout was rewritten (open_migrate);
                 * FORMAT_AFTER: an image, not a record */
    err = runs_add(&b, txn, sl_rd32(p + 16), sl_rd32(p + 20), last, f);
  }
  sl_cursor_close(c);
  if (err == SL_OK)
    err = runs_flush(&b, txn, f);
  sl_arena_destroy(&a);
  if (err == SL_OK && any)
    err = mark_put(txn, "I", last + 1, f);
  *did = any;
  return err;
}

struct held {
  uint64_t seq;
  sl_str rec;
};

static int held_order(const void *x, const void *y) {
  const struct held *a = x, *b = y;
  return (a->seq > b->seq) - (a->seq < b->seq);
}

/* A directory written before runs: each record's own 'R' entry (empty, the
 * record in "records"; or, before "records" existed, the record itself,
 * format 1) becomes part of its shard's run, and a record held by its
 * entry moves to "records" under its number. In one write transaction, at
 * open; nothing to do (one cursor seek) when no 'R' entry is left. */
static sl_err open_migrate(sl_store *st, sl_failure *f) {
  sl_txn *txn;
  sl_err err = sl_store_begin(st, true, f, &txn);
  if (err != SL_OK)
    return err;
  sl_arena a;
  sl_arena_init(&a);
  run_batch b = {.a = &a};
  struct held *held = NULL;
  size_t n_held = 0, cap_held = 0, n = 0;
  sl_cursor *c = sl_store_cursor(txn, SL_DB_STREAMS);
  sl_str k, v;
  for (bool ok = sl_cursor_seek(c, SL_STR("R"), &k, &v); ok && k.len && k.p[0] == 'R' && !err;
       ok = sl_cursor_next(c, &k, &v)) {
    if (k.len != 17)
      continue;
    const uint8_t *kp = (const uint8_t *)k.p;
    uint64_t seq = sl_rd64be(kp + 9);
    n++;
    if (v.len) {
      if (n_held == cap_held) {
        size_t cap = cap_held ? cap_held * 2 : 64;
        held = sl_arena_realloc(&a, held, cap_held * sizeof(*held), cap * sizeof(*held));
        cap_held = cap;
      }
      held[n_held++] = (struct held){seq, sl_arena_strdup(&a, v)};
    }
    err = runs_add(&b, txn, sl_rd32be(kp + 1), sl_rd32be(kp + 5), seq, f);
  }
  sl_cursor_close(c);
  if (err == SL_OK)
    err = runs_flush(&b, txn, f);
  if (err == SL_OK && n)
    err = sl_store_del_range(txn, SL_DB_STREAMS, SL_STR("R"), SL_STR("S"), NULL, f);
  /* The held records in number order: "records" appends in memory (memlog.h). */
  if (n_held)
    qsort(held, n_held, sizeof(*held), held_order);
  for (size_t i = 0; i < n_held && err == SL_OK; i++) {
    uint8_t rk[8];
    sl_be64(rk, held[i].seq);
    err = sl_store_put(txn, SL_DB_RECORDS, sl_str_make((char *)rk, 8), held[i].rec, f);
  }
  sl_arena_destroy(&a);
  if (err != SL_OK || !n) {
    sl_store_abort(txn);
    return err;
  }
  sl_info("streams: %zu index entries rewritten as runs", n);
  return sl_store_commit(txn, f);
}

sl_err sl_streams_index(sl_streams *s, sl_failure *f) {
  if (!s || !s->unindexed)
    return SL_OK;
  sl_txn *txn;
  sl_err err = sl_store_begin(s->store, true, f, &txn);
  if (err != SL_OK)
    return err;
  bool did;
  if ((err = index_pending(s, txn, &did, f)) != SL_OK || !did)
    sl_store_abort(txn); /* !did: the records counted were aborted */
  else
    err = sl_store_commit(txn, f);
  if (err == SL_OK)
    s->unindexed = 0;
  return err;
}

sl_err sl_streams_open(sl_store *st, sl_clock *clock, const sl_streams_params *p, sl_failure *f,
                       sl_streams **out) {
  sl_err err = open_migrate(st, f);
  if (err != SL_OK)
    return err;
  sl_txn *txn;
  if ((err = sl_store_begin(st, false, f, &txn)) != SL_OK)
    return err;
  uint64_t next = 1, mark;
  mark_get(txn, "Q", &next);
  sl_str v;
  /* The highest record of every shard (records are keyed by shard). */
  sl_cursor *c = sl_store_cursor(txn, SL_DB_STREAMS);
  sl_str k;
  for (bool ok = sl_cursor_seek(c, SL_STR("H"), &k, &v); ok && k.len == 9 && k.p[0] == 'H';
       ok = sl_cursor_next(c, &k, &v)) {
    sl_stream_shard sh;
    if (!shard_decode(sl_rd32be((const uint8_t *)k.p + 5), v, &sh))
      continue;
    if (sh.start_seq > next)
      next = sh.start_seq;
    sl_stream fake = {.id = sl_rd32be((const uint8_t *)k.p + 1)};
    uint64_t first, last;
    /* A second cursor: this one keeps its place among the shards. */
    if (sl_streams_shard_bounds(txn, &fake, &sh, &first, &last) && last + 1 > next)
      next = last + 1;
  }
  sl_cursor_close(c);
  /* And the highest record kept. */
  c = sl_store_cursor(txn, SL_DB_RECORDS);
  if (sl_cursor_seek_last_before(c, SL_STR("\xff\xff\xff\xff\xff\xff\xff\xff\xff"), &k, &v) &&
      k.len == 8 && sl_rd64be((const uint8_t *)k.p) + 1 > next)
    next = sl_rd64be((const uint8_t *)k.p) + 1;
  sl_cursor_close(c);
  bool marked = mark_get(txn, "I", &mark);
  sl_store_abort(txn);
  if (!marked) {
    /* A new directory, or one whose every record was indexed as it was
     * written (streams.h, "the index"): the mark starts at the next. */
    if ((err = sl_store_begin(st, true, f, &txn)) != SL_OK)
      return err;
    if ((err = mark_put(txn, "I", next, f)) != SL_OK) {
      sl_store_abort(txn);
      return err;
    }
    if ((err = sl_store_commit(txn, f)) != SL_OK)
      return err;
  }
  sl_streams *s = calloc(1, sizeof(*s));
  SL_ASSERT(s);
  s->gen = 1;
  s->dirty = true; /* shards whose layout is gone are replaced before anything is written */
  s->store = st;
  s->clock = clock;
  s->p = *p;
  s->next_seq = next;
  s->unindexed = 1; /* records after the mark may wait since the last run */
  s->rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)sl_clock_now_us(clock);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  s->rng ^= (uint64_t)ts.tv_nsec << 20 ^ (uint64_t)ts.tv_sec ^ (uint64_t)getpid() << 40;
  s->next_reader = random_tag(s);    /* see streams.h, readers */
  s->linked = !sl_store_durable(st); /* streams.h, "After images" */
  sl_store_set_capture(st, sl_streams_capture, s);
  *out = s;
  return SL_OK;
}

void sl_streams_close(sl_streams *s) {
  if (!s)
    return;
  sl_store_set_capture(s->store, NULL, NULL);
  free(s->positions);
  for (size_t i = 0; i < s->links_cap; i++)
    for (struct link_node *n = s->links[i], *next; n; n = next) {
      next = n->next;
      free(n);
    }
  free(s->links);
  free(s);
}

static uint32_t random_tag(sl_streams *s) {
  s->rng ^= s->rng >> 12;
  s->rng ^= s->rng << 25;
  s->rng ^= s->rng >> 27;
  return (uint32_t)((s->rng * 0x2545F4914F6CDD1DULL) >> 32);
}

/* ---- lifecycle ---- */

/* Opens shard 'no' of 'st' for partition 'part' (parent shard 'parent', -1:
 * none) at 'now_ms', and routes the partition's records to it. */
static sl_err shard_open(sl_streams *s, sl_txn *txn, const sl_stream *st, uint32_t no,
                         const sl_cap_part_ref *part, uint64_t epoch, int64_t parent,
                         int64_t now_ms, sl_failure *f) {
  sl_stream_shard sh = {.no = no,
                        .parent = parent,
                        .created_ms = (uint64_t)now_ms,
                        .start_seq = s->next_seq,
                        .partition = part->id,
                        .lo_hash = part->lo_hash,
                        .epoch = epoch,
                        .tag = random_tag(s)};
  uint8_t k[9], v[4];
  part_key(k, st->id, part->id);
  sl_le32(v, no);
  sl_err err = shard_put(txn, st->id, &sh, f);
  if (err == SL_OK)
    err = sl_store_put(txn, SL_DB_STREAMS, sl_str_make((char *)k, 9), sl_str_make((char *)v, 4), f);
  return err == SL_OK ? high_water_put(txn, s->next_seq, f) : err;
}

/* Closes an open shard: its ending sequence number is its last record's, or
 * its starting one when it holds none (DynamoDB Local shows an empty closed
 * shard so); its partition's route goes with it. */
static sl_err shard_close(sl_txn *txn, const sl_stream *st, sl_stream_shard *sh, int64_t now_ms,
                          sl_failure *f) {
  uint64_t first, last;
  sh->end_seq = sl_streams_shard_bounds(txn, st, sh, &first, &last) ? last : sh->start_seq;
  sh->closed_ms = (uint64_t)now_ms;
  uint8_t k[9];
  part_key(k, st->id, sh->partition);
  sl_str v;
  sl_err err = SL_OK;
  if (sl_store_get(txn, SL_DB_STREAMS, sl_str_make((char *)k, 9), &v) && v.len == 4 &&
      sl_rd32((const uint8_t *)v.p) == sh->no)
    err = sl_store_del(txn, SL_DB_STREAMS, sl_str_make((char *)k, 9), f);
  return err == SL_OK ? shard_put(txn, st->id, sh, f) : err;
}

/* Closes every open shard of 'st'. */
static sl_err shards_close_all(sl_txn *txn, sl_arena *a, const sl_stream *st, int64_t now_ms,
                               sl_failure *f) {
  sl_stream_shard *v;
  size_t n;
  sl_streams_shards(txn, a, st, &v, &n);
  sl_err err = SL_OK;
  for (size_t i = 0; i < n && err == SL_OK; i++)
    if (!v[i].closed_ms)
      err = shard_close(txn, st, &v[i], now_ms, f);
  return err;
}

static sl_err stream_create(sl_streams *s, sl_txn *txn, sl_table *t, int64_t now_ms, sl_arena *a,
                            sl_failure *f) {
  /* A label names one stream of the table: two enables in one millisecond
   * (the manual clock) get successive ones. */
  int64_t at = now_ms;
  sl_stream old;
  char label[32];
  for (;;) {
    sl_time_format_iso(at, label);
    label[23] = 0;
    if (!sl_streams_get(txn, a, t->name, sl_str_c(label), &old))
      break;
    at++;
  }
  t->stream_label = sl_table_str(t, sl_str_c(label));
  sl_stream st = {.table_name = t->name,
                  .label = t->stream_label,
                  .enabled = true,
                  .view = (uint8_t)sl_stream_view_parse(t->stream_view_type),
                  .open_shard = 0,
                  .n_shards_made = 0,
                  .created_ms = (uint64_t)now_ms,
                  .table_id = t->id,
                  .key = t->key};
  /* Its shards, one per partition of the table, are opened by the next
   * tick, which comes before any request or job can write (sl_streams_tick). */
  sl_err err = sl_store_next_id(txn, &st.id, f);
  if (err == SL_OK)
    err = stream_put(txn, a, &st, (uint64_t)now_ms, f);
  s->dirty = true;
  return err;
}

static sl_err links_detach(sl_streams *s, sl_txn *txn, const sl_table *t, const sl_stream *st,
                           int64_t now_ms, sl_arena *a, sl_failure *f);

static sl_err stream_disable(sl_streams *s, sl_txn *txn, const sl_table *t, int64_t now_ms,
                             sl_arena *a, sl_failure *f) {
  sl_stream st;
  if (!sl_streams_get(txn, a, t->name, t->stream_label, &st) || !st.enabled)
    return SL_OK;
  sl_err err = s->n_links ? links_detach(s, txn, t, &st, now_ms, a, f) : SL_OK;
  if (err == SL_OK)
    err = shards_close_all(txn, a, &st, now_ms, f);
  st.enabled = false;
  st.disabled_ms = (uint64_t)now_ms;
  if (err == SL_OK)
    err = stream_put(txn, a, &st, 0, f);
  return err;
}

sl_err sl_streams_sync(sl_streams *s, sl_txn *txn, const sl_table *old, sl_table *t, int64_t now_ms,
                       sl_failure *f) {
  bool had = old && old->stream_enabled;
  bool has = t && t->stream_enabled;
  if (had == has && (!has || sl_str_eq(old->stream_label, t->stream_label)))
    return SL_OK;
  s->gen++;
  sl_arena a;
  sl_arena_init(&a);
  bool indexed;
  /* A closed shard's range ends at its last record: every record indexed. */
  sl_err err = index_pending(s, txn, &indexed, f);
  if (err == SL_OK && had)
    err = stream_disable(s, txn, old, now_ms, &a, f);
  if (err == SL_OK && has)
    err = stream_create(s, txn, t, now_ms, &a, f);
  sl_arena_destroy(&a);
  return err;
}

/* ---- records (the capture hook) ---- */

static bool items_equal(const sl_item *a, const sl_item *b) {
  if (a->n != b->n)
    return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!sl_str_eq(a->attrs[i].name, b->attrs[i].name) || !sl_av_eq(&a->attrs[i].v, &b->attrs[i].v))
      return false;
  return true;
}

static void put_image(sl_buf *b, const sl_item *it) {
  size_t at = b->len;
  uint8_t len[4] = {0};
  sl_buf_append(b, len, 4);
  sl_item_encode(b, it);
  sl_le32((uint8_t *)b->p + at, (uint32_t)(b->len - at - 4));
}

/* The hot path's view of a table's enabled stream, cached (see the struct). */
static bool open_stream(sl_streams *s, sl_txn *txn, const sl_table *t, sl_arena *a,
                        struct stream_cache *out) {
  struct stream_cache *c = &s->cache[t->id % SL_STREAMS_CACHE];
  if (c->gen == s->gen && c->table_id == t->id &&
      sl_str_eq(sl_str_make(c->label, c->label_len), t->stream_label)) {
    *out = *c;
    return true;
  }
  sl_str key = stream_key(a, t->name, t->stream_label), v;
  if (!sl_store_get(txn, SL_DB_STREAMS, key, &v) || v.len < STREAM_HDR)
    return false;
  const uint8_t *p = (const uint8_t *)v.p;
  if (p[1] != 1)
    return false;
  out->gen = s->gen;
  out->table_id = t->id;
  out->view = p[2] & 3;
  out->stream_id = sl_rd32(p + 4);
  out->label_len = 0;
  if (t->stream_label.len <= sizeof(out->label)) {
    memcpy(out->label, t->stream_label.p, t->stream_label.len);
    out->label_len = (uint8_t)t->stream_label.len;
    *c = *out;
  }
  return true;
}

/* The partition of the capacity engine a table key is in (one partition,
 * id 0, for a table without capacity resources). */
static sl_cap_part_ref key_partition(const sl_table *t, const sl_keyvals *kv, sl_arena *a) {
  uint64_t hash = sl_key_hash(kv->hash);
  if (!t->cap)
    return (sl_cap_part_ref){0, SL_CAP_NO_PART, 0};
  sl_str sort = {0};
  if (kv->range) {
    sl_buf b;
    sl_buf_init(&b, a);
    sl_key_put_component(&b, kv->range, SL_KEY_SK_MAX);
    sort = sl_buf_str(&b);
  }
  sl_cap_part_ref ref = sl_cap_res_part_at(t->cap, hash, sort);
  ref.lo_hash = hash; /* what route()'s fallback looks for */
  return ref;
}

/* The open shard of stream 'id' that takes a change of key 'kv': its
 * partition's, or, when the partition was split since the last tick (its
 * children have no shards yet), the open shard whose range holds the key —
 * the split partition's, which the tick will close before opening the
 * children's, so a reader still sees each item's records in order. */
static bool route(sl_streams *s, sl_txn *txn, sl_arena *a, const sl_table *t, const sl_keyvals *kv,
                  uint32_t id, uint32_t *out) {
  sl_cap_part_ref ref = key_partition(t, kv, a);
  struct route_cache *rc = &s->routes[(id * 0x9E3779B1u ^ ref.id) % SL_STREAMS_ROUTES];
  if (rc->gen == s->gen && rc->stream_id == id && rc->part == ref.id) {
    *out = rc->shard;
    return true;
  }
  uint8_t k[9];
  part_key(k, id, ref.id);
  sl_str v;
  if (sl_store_get(txn, SL_DB_STREAMS, sl_str_make((char *)k, 9), &v) && v.len == 4) {
    *out = sl_rd32((const uint8_t *)v.p);
    *rc = (struct route_cache){s->gen, id, ref.id, *out};
    return true;
  }
  sl_stream st = {.id = id};
  sl_stream_shard *sh;
  size_t n;
  bool found = false;
  uint64_t best = 0;
  sl_streams_shards(txn, a, &st, &sh, &n);
  for (size_t i = 0; i < n; i++)
    if (!sh[i].closed_ms && sh[i].lo_hash <= ref.lo_hash && (!found || sh[i].lo_hash >= best)) {
      found = true;
      best = sh[i].lo_hash;
      *out = sh[i].no;
    }
  return found;
}

/* ---- after images by link (memory mode; streams.h, "After images") ---- */

static uint32_t link_hash(uint32_t stream_id, const uint8_t *key, size_t n) {
  return sl_crc32(stream_id * 0x9E3779B1u, key, n);
}

/* The place of the entry for (stream, key): the pointer to it, or the
 * chain's end. */
static struct link_node **link_slot(sl_streams *s, uint32_t stream_id, const uint8_t *key,
                                    uint32_t n, uint32_t h) {
  struct link_node **at = &s->links[h & (s->links_cap - 1)];
  while (*at && !((*at)->h == h && (*at)->stream_id == stream_id && (*at)->klen == n &&
                  memcmp((*at)->key, key, n) == 0))
    at = &(*at)->next;
  return at;
}

static struct link_node *link_find(sl_streams *s, uint32_t stream_id, const uint8_t *key,
                                   uint32_t n) {
  if (!s->links_cap)
    return NULL;
  return *link_slot(s, stream_id, key, n, link_hash(stream_id, key, n));
}

static struct link_node *link_add(sl_streams *s, uint32_t stream_id, const uint8_t *key,
                                  uint32_t n) {
  if (s->n_links >= s->links_cap) {
    size_t cap = s->links_cap ? s->links_cap * 2 : 1024;
    struct link_node **v = calloc(cap, sizeof(*v));
    SL_ASSERT(v);
    for (size_t i = 0; i < s->links_cap; i++)
      for (struct link_node *e = s->links[i], *next; e; e = next) {
        next = e->next;
        e->next = v[e->h & (cap - 1)];
        v[e->h & (cap - 1)] = e;
      }
    free(s->links);
    s->links = v;
    s->links_cap = cap;
  }
  struct link_node *e = malloc(sizeof(*e) + n);
  SL_ASSERT(e);
  *e = (struct link_node){.h = link_hash(stream_id, key, n), .stream_id = stream_id, .klen = n};
  memcpy(e->key, key, n);
  struct link_node **at = &s->links[e->h & (s->links_cap - 1)];
  e->next = *at;
  *at = e;
  s->n_links++;
  return e;
}

static void link_remove(sl_streams *s, struct link_node *e) {
  struct link_node **at = link_slot(s, e->stream_id, e->key, e->klen, e->h);
  SL_ASSERT(*at == e);
  *at = e->next;
  free(e);
  s->n_links--;
}

/* The entry's latest record that exists, and its bytes: its last, else (the
 * last was aborted) the one before it. */
static bool link_target(sl_txn *txn, const struct link_node *e, uint64_t *out, sl_str *v) {
  if (e->last && record_get(txn, e->last, v)) {
    *out = e->last;
    return true;
  }
  if (e->prev && record_get(txn, e->prev, v)) {
    *out = e->prev;
    return true;
  }
  return false;
}

/* Points the after image of record 'v' (when it takes one by link) at entry
 * 'to', in place in the log. */
static void link_set(sl_str v, uint64_t to) {
  if (v.len >= RECORD_HDR3 && v.p[0] == 3 && (v.p[3] & IMG_NEW))
    sl_le64((uint8_t *)(uintptr_t)v.p + 24, to);
}

/* The Keys image of a format 3 record (its bytes, without the length). */
static sl_str record_keys(sl_str v) {
  if (v.len < RECORD_HDR3 + 4)
    return (sl_str){0};
  uint32_t n = sl_rd32((const uint8_t *)v.p + RECORD_HDR3);
  if (n > v.len - RECORD_HDR3 - 4)
    return (sl_str){0};
  return sl_str_make(v.p + RECORD_HDR3 + 4, n);
}

/* The table key of a Keys image, decoded into 'a'. */
static bool keys_kv(sl_arena *a, const sl_table *t, sl_str keys, sl_item *it, sl_keyvals *kv) {
  return sl_item_decode(a, keys.p, keys.len, it, NULL) && sl_item_keyvals(it, &t->key, kv);
}

/* Disabling a stream: every item whose latest record takes its after image
 * from the table gets that image copied into the log (FORMAT_AFTER), since
 * the table's items now change without records. */
static sl_err links_detach(sl_streams *s, sl_txn *txn, const sl_table *t, const sl_stream *st,
                           int64_t now_ms, sl_arena *a, sl_failure *f) {
  for (size_t i = 0; i < s->links_cap; i++)
    for (struct link_node *e = s->links[i]; e; e = e->next) {
      uint64_t target;
      sl_str v, w;
      if (e->stream_id != st->id || !link_target(txn, e, &target, &v) || v.len < RECORD_HDR3 ||
          v.p[0] != 3 || !(v.p[3] & IMG_NEW))
        continue;
      uint64_t link = sl_rd64((const uint8_t *)v.p + 24);
      if (link && record_get(txn, link, &w))
        continue;
      sl_item keys, item;
      sl_keyvals kv;
      bool found = false;
      if (!keys_kv(a, t, record_keys(v), &keys, &kv) ||
          sl_store_item_get(txn, t, &kv, a, &item, &found, NULL) != SL_OK || !found)
        continue;
      sl_buf b;
      sl_buf_init(&b, a);
      uint8_t hdr[RECORD_HDR3] = {FORMAT_AFTER};
      sl_le64(hdr + 8, (uint64_t)now_ms);
      sl_le32(hdr + 16, st->id);
      sl_buf_append(&b, hdr, RECORD_HDR3);
      put_image(&b, &item);
      uint8_t rk[8];
      sl_be64(rk, s->next_seq);
      sl_err err =
          sl_store_append(txn, SL_DB_RECORDS, sl_str_make((char *)rk, 8), sl_buf_str(&b), f);
      if (err != SL_OK)
        return err;
      link_set(v, s->next_seq++);
    }
  return SL_OK;
}

sl_err sl_streams_capture(void *ctx, sl_txn *txn, const sl_store_change *c, sl_arena *a,
                          sl_failure *f) {
  const sl_table *t = c->t;
  if (!t->stream_enabled)
    return SL_OK;
  if (c->old && c->item && items_equal(c->old, c->item))
    return SL_OK; /* the item did not change: no record (facts §11) */
  sl_streams *s = ctx;
  struct stream_cache sc;
  if (!open_stream(s, txn, t, a, &sc))
    return SL_OK;
  int64_t now_ms = sl_clock_now_ms(s->clock);
  /* Keys: the table key attributes of the item. */
  sl_attr keys[2];
  uint32_t nk = 0;
  keys[nk++] = (sl_attr){t->key.hash, *c->key->hash};
  if (sl_key_has_range(&t->key))
    keys[nk++] = (sl_attr){t->key.range, *c->key->range};
  sl_item kit = {keys, nk};
  uint8_t view = sc.view;
  bool new_view = view == SL_STREAM_NEW_IMAGE || view == SL_STREAM_NEW_AND_OLD_IMAGES;
  bool want_new = c->item && new_view;
  bool want_old = c->old && (view == SL_STREAM_OLD_IMAGE || view == SL_STREAM_NEW_AND_OLD_IMAGES);
  /* Memory mode: the after image by link (streams.h, "After images"), the
   * before image kept whenever there is one (hidden with NEW_IMAGE). */
  bool linked = s->linked && new_view;
  bool keep_old = want_old || (linked && c->old);
  size_t size = sl_item_size(&kit) + (want_new ? sl_item_size(c->item) : 0) +
                (want_old ? sl_item_size(c->old) : 0);
  sl_buf b;
  sl_buf_init(&b, a);
  sl_buf_reserve(&b, RECORD_HDR3 + 64 + (want_new && !linked ? c->item_enc.len + 4 : 0) +
                         (keep_old ? sl_item_size(c->old) + 64 : 0));
  uint32_t shard;
  if (!route(s, txn, a, t, c->key, sc.stream_id, &shard))
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR,
                    "Internal server error: the stream of table %.*s has no open shard",
                    SL_STR_FMT(t->name));
  uint8_t hdr[RECORD_HDR3] = {linked ? 3 : 2,
                              (uint8_t)(!c->old    ? 1
                                        : !c->item ? 3
                                                   : 2),
                              (uint8_t)(c->by_service ? 1 : 0),
                              (uint8_t)((want_new ? IMG_NEW : 0) | (want_old ? IMG_OLD : 0) |
                                        (keep_old && !want_old ? IMG_OLD_HIDDEN : 0))};
  sl_le32(hdr + 4, (uint32_t)size);
  sl_le64(hdr + 8, (uint64_t)now_ms);
  sl_le32(hdr + 16, sc.stream_id);
  sl_le32(hdr + 20, shard);
  sl_buf_append(&b, hdr, linked ? RECORD_HDR3 : RECORD_HDR2);
  put_image(&b, &kit);
  if (linked) {
    if (keep_old)
      put_image(&b, c->old);
  } else if (want_new && !c->item_enc.len) {
    put_image(&b, c->item);
  } else if (want_new) {
    /* The funnel has encoded the new item already (store/items.h). */
    uint8_t len[4];
    sl_le32(len, (uint32_t)c->item_enc.len);
    sl_buf_append(&b, len, 4);
    sl_buf_puts(&b, c->item_enc);
  }
  if (want_old && !linked)
    put_image(&b, c->old);
  /* The record goes to the end of "records" (its number is the highest
   * yet); its shard's index gets the number later, with others (streams.h,
   * "the index"). */
  uint8_t rk[8];
  sl_be64(rk, s->next_seq);
  sl_err err = sl_store_append(txn, SL_DB_RECORDS, sl_str_make((char *)rk, 8), sl_buf_str(&b), f);
  if (err != SL_OK)
    return err;
  if (linked) {
    /* The item's record before this one takes its after image from this
     * one's before image; this one's, from the table until the next. */
    sl_str kb = record_keys(sl_buf_str(&b));
    struct link_node *e = link_find(s, sc.stream_id, (const uint8_t *)kb.p, (uint32_t)kb.len);
    uint64_t target;
    sl_str tv;
    if (!e) {
      e = link_add(s, sc.stream_id, (const uint8_t *)kb.p, (uint32_t)kb.len);
    } else if (link_target(txn, e, &target, &tv)) {
      link_set(tv, s->next_seq);
      e->prev = target;
    } else {
      e->prev = 0;
    }
    e->last = s->next_seq;
  }
  s->next_seq++; /* a number lost to an aborted transaction leaves a gap, never a repeat */
  s->unindexed++;
  return SL_OK;
}

/* ---- reading records ---- */

static bool take_image(const uint8_t **p, const uint8_t *end, sl_arena *a, sl_item *out) {
  if (end - *p < 4)
    return false;
  uint32_t len = sl_rd32(*p);
  *p += 4;
  if ((size_t)(end - *p) < len || !sl_item_decode(a, *p, len, out, NULL))
    return false;
  *p += len;
  return true;
}

/* Decodes a record; for format 3, *link gets its after image's link and
 * the after image is left to after_image (below). */
static bool record_decode(sl_arena *a, uint64_t seq, sl_str v, sl_stream_record *out,
                          uint64_t *link) {
  const uint8_t *p = (const uint8_t *)v.p, *end = p + v.len;
  if (v.len < RECORD_HDR ||
      (p[0] != 1 && (p[0] != 2 || v.len < RECORD_HDR2) && (p[0] != 3 || v.len < RECORD_HDR3)))
    return false;
  memset(out, 0, sizeof(*out));
  uint8_t format = p[0];
  out->seq = seq;
  out->event = p[1];
  out->service = p[2] & 1;
  out->has_new = p[3] & IMG_NEW;
  out->has_old = (p[3] & IMG_OLD) != 0;
  out->size_bytes = sl_rd32(p + 4);
  out->created_ms = (int64_t)sl_rd64(p + 8);
  *link = format == 3 ? sl_rd64(p + 24) : 0;
  p += format == 1 ? RECORD_HDR : format == 2 ? RECORD_HDR2 : RECORD_HDR3;
  if (!take_image(&p, end, a, &out->keys))
    return false;
  if (format == 3) /* a hidden before image is for the link alone */
    return !out->has_old || take_image(&p, end, a, &out->old_image);
  return (!out->has_new || take_image(&p, end, a, &out->new_image)) &&
         (!out->has_old || take_image(&p, end, a, &out->old_image));
}

/* A format 3 record's after image: the before image of the entry its link
 * names (the item's next record, or a FORMAT_AFTER copy), else, with no
 * such entry (none yet, or one whose writer aborted), the table's item. */
static bool after_image(sl_txn *txn, sl_arena *a, const sl_table *t, const sl_stream_record *r,
                        uint64_t link, sl_item *out) {
  sl_str v;
  if (link && record_get(txn, link, &v)) {
    const uint8_t *p = (const uint8_t *)v.p, *end = p + v.len;
    if (v.len < RECORD_HDR3)
      return false;
    uint8_t format = p[0], images = p[3];
    sl_item keys;
    p += RECORD_HDR3;
    bool ok;
    if (format == FORMAT_AFTER)
      ok = take_image(&p, end, a, out);
    else if (format == 3 && (images & (IMG_OLD | IMG_OLD_HIDDEN)))
      ok = take_image(&p, end, a, &keys) && take_image(&p, end, a, out);
    else
      return false;
    if (ok) /* the log's bytes may go once the read ends */
      *out = sl_item_copy(a, out);
    return ok;
  }
  if (!t)
    return false;
  sl_keyvals kv;
  bool found = false;
  if (!sl_item_keyvals(&r->keys, &t->key, &kv) ||
      sl_store_item_get(txn, t, &kv, a, out, &found, NULL) != SL_OK || !found)
    return false;
  *out = sl_item_copy(a, out);
  return true;
}

void sl_streams_read(sl_txn *txn, sl_arena *a, const sl_stream *st, const sl_table *t,
                     const sl_stream_shard *sh, uint64_t pos, size_t limit, size_t max_bytes,
                     sl_stream_record **out, size_t *n_out, uint64_t *next_pos) {
  sl_stream_record *v = SL_NEW_ARRAY(a, sl_stream_record, limit ? limit : 1);
  size_t n = 0, bytes = 0;
  uint64_t next = pos, seq;
  run_walk w;
  walk_open(&w, txn, st, sh);
  for (bool ok = n < limit && walk_from(&w, pos, &seq); ok && n < limit; ok = walk_next(&w, &seq)) {
    sl_stream_record r;
    sl_str rv;
    uint64_t link;
    if (!record_get(txn, seq, &rv) || !record_decode(a, seq, sl_arena_strdup(a, rv), &r, &link))
      SL_ASSERT(!"corrupt stream record");
    if (r.has_new && rv.p[0] == 3 && !after_image(txn, a, t, &r, link, &r.new_image)) {
      /* Not reached while every change of the item writes a record or its
       * stream's disabling copied the image (links_detach). */
      sl_warn("stream record %llu: its NewImage is lost", (unsigned long long)seq);
      r.has_new = false;
    }
    if (n > 0 && bytes + r.size_bytes > max_bytes)
      break;
    bytes += r.size_bytes;
    v[n++] = r;
    next = seq + 1;
  }
  walk_close(&w);
  *out = v;
  *n_out = n;
  *next_pos = next;
}

sl_stream_count sl_streams_count(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh,
                                 uint64_t pos, uint64_t cap) {
  sl_stream_count out = {0, false, -1, -1};
  uint64_t seq;
  run_walk w;
  walk_open(&w, txn, st, sh);
  for (bool ok = walk_from(&w, pos, &seq); ok; ok = walk_next(&w, &seq)) {
    sl_str rv;
    if (!record_get(txn, seq, &rv) || rv.len < RECORD_HDR)
      continue;
    if (out.n == cap) {
      out.capped = true;
      break;
    }
    int64_t t = (int64_t)sl_rd64((const uint8_t *)rv.p + 8);
    if (out.oldest_ms < 0)
      out.oldest_ms = t;
    out.newest_ms = t;
    out.n++;
  }
  walk_close(&w);
  return out;
}

sl_stream_count sl_streams_count_since(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh,
                                       int64_t since_ms, uint64_t cap) {
  sl_stream_count out = {0, false, -1, -1};
  uint64_t seq;
  run_walk w;
  walk_open(&w, txn, st, sh);
  for (bool ok = walk_last(&w, &seq); ok; ok = walk_prev(&w, &seq)) {
    sl_str rv;
    if (!record_get(txn, seq, &rv) || rv.len < RECORD_HDR)
      continue;
    int64_t t = (int64_t)sl_rd64((const uint8_t *)rv.p + 8);
    if (t < since_ms)
      break;
    if (out.n == cap) {
      out.capped = true;
      break;
    }
    if (out.newest_ms < 0)
      out.newest_ms = t;
    out.oldest_ms = t;
    out.n++;
  }
  walk_close(&w);
  return out;
}

int64_t sl_streams_newest_ms(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh) {
  uint64_t first, last;
  if (!sl_streams_shard_bounds(txn, st, sh, &first, &last))
    return -1;
  return sl_streams_count(txn, st, sh, last, 1).newest_ms;
}

void sl_streams_note_read(sl_streams *s, uint32_t stream_id, uint32_t shard, uint64_t next_pos,
                          int64_t now_ms) {
  if (!s->positions) {
    s->positions = calloc(SL_STREAMS_READERS, sizeof(sl_stream_reader));
    SL_ASSERT(s->positions);
  }
  sl_stream_reader *r = NULL, *oldest = NULL;
  for (size_t i = 0; i < s->n_positions && !r; i++) {
    if (s->positions[i].stream_id == stream_id && s->positions[i].shard == shard)
      r = &s->positions[i];
    else if (!oldest || s->positions[i].read_ms < oldest->read_ms)
      oldest = &s->positions[i];
  }
  if (!r) {
    r = s->n_positions < SL_STREAMS_READERS ? &s->positions[s->n_positions++] : oldest;
    *r = (sl_stream_reader){stream_id, shard, 0, 0, 0};
  }
  if (next_pos > r->pos)
    r->pos = next_pos;
  r->read_ms = now_ms;
  r->reads++;
}

bool sl_streams_reader(const sl_streams *s, uint32_t stream_id, uint32_t shard,
                       sl_stream_reader *out) {
  for (size_t i = 0; i < s->n_positions; i++)
    if (s->positions[i].stream_id == stream_id && s->positions[i].shard == shard) {
      *out = s->positions[i];
      return true;
    }
  return false;
}

void sl_streams_record_write_json(sl_jw *w, const sl_stream *st, const sl_stream_record *r,
                                  const char *region) {
  static const char *const events[] = {"", "INSERT", "MODIFY", "REMOVE"};
  char seq[32], eid[40];
  sl_streams_seq_format(r->seq, seq);
  /* A globally unique id: the stream's id and the record's number. */
  snprintf(eid, sizeof(eid), "%08x%024llx", st->id, (unsigned long long)r->seq);
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "eventID");
  sl_jw_str_c(w, eid);
  sl_jw_key_c(w, "eventName");
  sl_jw_str_c(w, events[r->event & 3]);
  sl_jw_key_c(w, "eventVersion");
  sl_jw_str_c(w, "1.1");
  sl_jw_key_c(w, "eventSource");
  sl_jw_str_c(w, "aws:dynamodb");
  sl_jw_key_c(w, "awsRegion");
  sl_jw_str_c(w, region);
  sl_jw_key_c(w, "dynamodb");
  sl_jw_obj_begin(w);
  sl_jw_key_c(w, "ApproximateCreationDateTime");
  sl_jw_int(w, r->created_ms / 1000);
  sl_jw_key_c(w, "Keys");
  sl_item_write_json(w, &r->keys);
  if (r->has_new) {
    sl_jw_key_c(w, "NewImage");
    sl_item_write_json(w, &r->new_image);
  }
  if (r->has_old) {
    sl_jw_key_c(w, "OldImage");
    sl_item_write_json(w, &r->old_image);
  }
  sl_jw_key_c(w, "SequenceNumber");
  sl_jw_str_c(w, seq);
  sl_jw_key_c(w, "SizeBytes");
  sl_jw_uint(w, r->size_bytes);
  sl_jw_key_c(w, "StreamViewType");
  sl_jw_str_c(w, sl_stream_view_name(st->view));
  sl_jw_obj_end(w);
  if (r->service) {
    /* TTL deletions (facts §11). */
    sl_jw_key_c(w, "userIdentity");
    sl_jw_obj_begin(w);
    sl_jw_key_c(w, "PrincipalId");
    sl_jw_str_c(w, "dynamodb.amazonaws.com");
    sl_jw_key_c(w, "Type");
    sl_jw_str_c(w, "Service");
    sl_jw_obj_end(w);
  }
  sl_jw_obj_end(w);
}

/* ---- retention ---- */

#define MAX_PARTS 4096 /* partitions a stream's shards follow; more share the last ones */

/* The most recent shard (highest number) of 'v' that 'want' accepts, or -1. */
static int64_t latest(const sl_stream_shard *v, size_t n, const bool *closed_now, uint64_t epoch,
                      uint32_t part, int mode, uint64_t lo_hash) {
  int64_t best = -1;
  uint64_t best_lo = 0;
  for (size_t i = 0; i < n; i++) {
    const sl_stream_shard *sh = &v[i];
    if (!sh->closed_ms)
      continue;
    if (mode == 0 && (sh->epoch != epoch || sh->partition != part))
      continue;
    /* mode 1: the shards this tick closed, by range: a partition that split
     * more than once since the last tick, or one of another run (a restart) */
    if (mode == 1 && (!closed_now[i] || sh->lo_hash > lo_hash))
      continue;
    if (mode == 1 && best >= 0 && sh->lo_hash < best_lo)
      continue;
    best = (int64_t)sh->no;
    best_lo = sh->lo_hash;
  }
  return best;
}

/* Brings the open shards of an enabled stream in line with its table's
 * partitions: a shard of a partition that split, of an earlier run, or older
 * than the rollover is closed; a partition without an open shard gets one,
 * whose parent is its own previous shard (rollover), its parent partition's
 * last shard (a split), or else the shard closed by this same pass whose
 * range held its first key (a partition split twice between two ticks; after
 * a restart, the earlier run's shard). */
static sl_err reconcile(sl_streams *s, sl_txn *txn, sl_arena *a, sl_catalog *cat, sl_stream *st,
                        int64_t now_ms, bool *changed, sl_failure *f) {
  sl_table *t = sl_catalog_get(cat, st->table_name);
  if (!t || t->id != st->table_id || !t->stream_enabled || !sl_str_eq(t->stream_label, st->label))
    return SL_OK;
  /* The ids of the table's partitions mean something within their layout's
   * epoch, which a restart keeps with the layout (jobs/tables.h); a table
   * without capacity resources has one partition, id 0, always. */
  uint64_t epoch = t->cap ? sl_cap_res_epoch(t->cap) : 1;
  static sl_cap_part_ref live[MAX_PARTS];
  size_t n_live = 1;
  live[0] = (sl_cap_part_ref){0, SL_CAP_NO_PART, 0};
  if (t->cap) {
    n_live = sl_cap_res_part_refs(t->cap, live, MAX_PARTS);
    if (n_live > MAX_PARTS)
      n_live = MAX_PARTS;
  }
  sl_stream_shard *v;
  size_t n;
  sl_streams_shards(txn, a, st, &v, &n);
  bool *closed_now = SL_NEW_ARRAY(a, bool, n ? n : 1);
  sl_err err = SL_OK;
  for (size_t i = 0; i < n && err == SL_OK; i++) {
    sl_stream_shard *sh = &v[i];
    if (sh->closed_ms)
      continue;
    bool alive = false;
    for (size_t j = 0; j < n_live && !alive; j++)
      alive = live[j].id == sh->partition && live[j].lo_hash == sh->lo_hash;
    if (sh->epoch == epoch && alive && now_ms - (int64_t)sh->created_ms < s->p.shard_rollover_ms)
      continue;
    err = shard_close(txn, st, sh, now_ms, f);
    closed_now[i] = true;
    *changed = true;
  }
  for (size_t j = 0; j < n_live && err == SL_OK; j++) {
    bool open = false;
    for (size_t i = 0; i < n && !open; i++)
      open = !v[i].closed_ms && v[i].epoch == epoch && v[i].partition == live[j].id;
    if (open)
      continue;
    int64_t parent = latest(v, n, closed_now, epoch, live[j].id, 0, 0);
    if (parent < 0 && live[j].parent != SL_CAP_NO_PART)
      parent = latest(v, n, closed_now, epoch, live[j].parent, 0, 0);
    if (parent < 0)
      parent = latest(v, n, closed_now, epoch, 0, 1, live[j].lo_hash);
    uint32_t no = st->n_shards_made++;
    if (j == 0)
      st->open_shard = no;
    err = shard_open(s, txn, st, no, &live[j], epoch, parent, now_ms, f);
    *changed = true;
  }
  if (err == SL_OK && *changed)
    err = stream_put(txn, a, st, (uint64_t)now_ms, f);
  return err;
}

/* The number below which every record of "records" is trimmed by this tick:
 * the oldest records, made before 'horizon', at most *budget of them
 * (counted down). Numbers follow commit order and records are made in clock
 * order, so they are a prefix of "records" and of each shard's index. */
static uint64_t trim_cut(sl_txn *txn, int64_t horizon, size_t *budget) {
  uint64_t cut = 0;
  size_t n = 0;
  sl_cursor *c = sl_store_cursor(txn, SL_DB_RECORDS);
  sl_str k, v;
  for (bool ok = sl_cursor_first(c, &k, &v); ok && n < *budget; ok = sl_cursor_next(c, &k, &v)) {
    if (k.len != 8 || v.len < RECORD_HDR || (int64_t)sl_rd64((const uint8_t *)v.p + 8) >= horizon)
      break;
    cut = sl_rd64be((const uint8_t *)k.p) + 1;
    n++;
  }
  sl_cursor_close(c);
  *budget -= n;
  return cut;
}

/* Deletes the runs of shard 'sh' that hold only records trimmed (numbers
 * below 'cut'), in one range delete; a run that also holds younger ones
 * stays, and readers walk it from the trim point. *trim becomes the number
 * after the shard's last one below the cut (unchanged when it has none). */
static sl_err trim_shard(sl_txn *txn, const sl_stream *st, const sl_stream_shard *sh, uint64_t cut,
                         uint64_t *trim, sl_failure *f) {
  run_walk w;
  walk_open(&w, txn, st, sh);
  uint8_t lo[17], end[17];
  index_key(lo, 'N', st->id, sh->no, 0);
  uint64_t below = 0, gone = 0; /* the last number below the cut, the last run wholly below */
  bool any_below = false, any_gone = false;
  sl_str k, v;
  for (bool ok = sl_cursor_seek(w.c, sl_str_make((char *)lo, 17), &k, &v) && run_take(&w, k, v);
       ok && w.first < cut; ok = sl_cursor_next(w.c, &k, &v) && run_take(&w, k, v)) {
    any_below = true;
    if (run_at(&w, run_len(&w) - 1) < cut) {
      below = run_at(&w, run_len(&w) - 1);
      gone = w.first;
      any_gone = true;
      continue;
    }
    size_t lo_i = 0, hi_i = run_len(&w); /* the first of the run at or above the cut */
    while (lo_i < hi_i) {
      size_t mid = lo_i + (hi_i - lo_i) / 2;
      if (run_at(&w, mid) < cut)
        lo_i = mid + 1;
      else
        hi_i = mid;
    }
    below = run_at(&w, lo_i - 1); /* lo_i > 0: the run starts below the cut */
    break;
  }
  walk_close(&w);
  sl_err err = SL_OK;
  if (any_gone) {
    index_key(end, 'N', st->id, sh->no, gone + 1);
    err = sl_store_del_range(txn, SL_DB_STREAMS, sl_str_make((char *)lo, 17),
                             sl_str_make((char *)end, 17), NULL, f);
  }
  if (err == SL_OK && any_below && below + 1 > *trim)
    *trim = below + 1;
  return err;
}

/* The links entries left with no record once every record numbered below
 * 'cut' is trimmed, marked dead and listed in *out (in 'a'). */
static void links_dead(sl_streams *s, sl_txn *txn, uint64_t cut, sl_arena *a,
                       struct link_node ***out, size_t *n_out) {
  sl_buf v;
  sl_buf_init(&v, a);
  sl_cursor *c = sl_store_cursor(txn, SL_DB_RECORDS);
  sl_str k, rv, w;
  for (bool ok = sl_cursor_first(c, &k, &rv); ok; ok = sl_cursor_next(c, &k, &rv)) {
    if (k.len != 8 || sl_rd64be((const uint8_t *)k.p) >= cut)
      break;
    if (rv.len < RECORD_HDR3 || rv.p[0] != 3)
      continue;
    sl_str keys = record_keys(rv);
    struct link_node *e = link_find(s, sl_rd32((const uint8_t *)rv.p + 16), (const uint8_t *)keys.p,
                                    (uint32_t)keys.len);
    /* Gone when its last record is trimmed, or aborted with the one before
     * it trimmed. */
    if (!e || e->dead || !(e->last < cut || (e->prev < cut && !record_get(txn, e->last, &w))))
      continue;
    e->dead = true;
    sl_buf_append(&v, &e, sizeof(e));
  }
  sl_cursor_close(c);
  *out = (struct link_node **)(void *)v.p;
  *n_out = v.len / sizeof(struct link_node *);
}

bool sl_streams_tick(sl_streams *s, sl_catalog *cat, int64_t now_ms, sl_failure *f) {
  /* Once per second of the clock (a tick comes every 100 ms and before every
   * request), and at once when a stream needs its shards. */
  if (!s->dirty && !s->behind && now_ms >= s->trim_ms && now_ms - s->trim_ms < 1000) {
    /* Between seconds, only the index, once a batch of records waits. */
    if (s->unindexed >= INDEX_BATCH && sl_streams_index(s, f) != SL_OK)
      sl_warn("cannot index stream records: %.*s", SL_STR_FMT(f->message));
    return false;
  }
  s->trim_ms = now_ms;
  s->dirty = false;
  s->behind = false;
  int64_t horizon = now_ms - s->p.retention_ms;
  sl_txn *txn;
  if (sl_store_begin(s->store, true, f, &txn) != SL_OK)
    return false;
  sl_arena a;
  sl_arena_init(&a);
  bool changed = false;
  /* Shards are closed and trimmed by their index: it comes up to date first. */
  sl_err err = index_pending(s, txn, &changed, f);
  size_t budget = TRIM_PER_CALL;
  uint64_t cut = trim_cut(txn, horizon, &budget);
  struct link_node **dead = NULL;
  size_t n_dead = 0;
  if (err == SL_OK && cut && s->n_links)
    links_dead(s, txn, cut, &a, &dead, &n_dead);
  sl_stream *v;
  size_t n;
  sl_streams_list(txn, &a, (sl_str){0}, &v, &n);
  for (size_t i = 0; i < n && err == SL_OK; i++) {
    sl_stream *st = &v[i];
    if (st->enabled) {
      bool moved = false;
      if ((err = reconcile(s, txn, &a, cat, st, now_ms, &moved, f)) != SL_OK)
        break;
      changed |= moved;
    }
    sl_stream_shard *shards;
    size_t ns;
    sl_streams_shards(txn, &a, st, &shards, &ns);
    size_t kept = 0;
    for (size_t j = 0; j < ns && err == SL_OK; j++) {
      sl_stream_shard *sh = &shards[j];
      uint64_t trim = sh->trim_seq;
      if ((err = trim_shard(txn, st, sh, cut, &trim, f)) != SL_OK)
        break;
      if (trim != sh->trim_seq) {
        sh->trim_seq = trim;
        changed = true;
        if ((err = shard_put(txn, st->id, sh, f)) != SL_OK ||
            (err = high_water_put(txn, s->next_seq, f)) != SL_OK)
          break;
      }
      uint64_t first, last;
      bool empty = !sl_streams_shard_bounds(txn, st, sh, &first, &last);
      if (sh->closed_ms && (int64_t)sh->closed_ms < horizon && empty) {
        /* A closed shard past retention holding nothing: it goes. */
        uint8_t k[9];
        shard_key(k, st->id, sh->no);
        if ((err = sl_store_del(txn, SL_DB_STREAMS, sl_str_make((char *)k, 9), f)) != SL_OK)
          break;
        changed = true;
        continue;
      }
      kept++;
    }
    if (err == SL_OK && !st->enabled && kept == 0 && (int64_t)st->disabled_ms < horizon) {
      err = high_water_put(txn, s->next_seq, f);
      if (err == SL_OK)
        err = sl_store_del(txn, SL_DB_STREAMS, stream_key(&a, st->table_name, st->label), f);
      if (err == SL_OK) /* its tags go with it */
        err = sl_store_del(txn, SL_DB_STREAMS, tags_key(&a, st->table_name, st->label), f);
      changed = true;
    }
  }
  if (err == SL_OK && cut > 0) {
    /* The records themselves: every one numbered below the cut. */
    uint8_t hi[8];
    sl_be64(hi, cut);
    err = sl_store_del_range(txn, SL_DB_RECORDS, (sl_str){"", 0}, sl_str_make((char *)hi, 8), NULL,
                             f);
    changed = true;
  }
  bool committed = false;
  if (err != SL_OK || !changed) {
    sl_store_abort(txn);
    if (err == SL_OK)
      s->unindexed = 0; /* nothing was waiting: the records counted were aborted */
  } else {
    s->behind = budget == 0;
    s->gen++; /* the capture hook's cache (above) */
    committed = sl_store_commit(txn, f) == SL_OK;
    if (committed)
      s->unindexed = 0;
  }
  for (size_t i = 0; i < n_dead; i++) {
    if (committed)
      link_remove(s, dead[i]);
    else
      dead[i]->dead = false;
  }
  sl_arena_destroy(&a);
  return committed;
}
