/* The redo log of durable mode; see redo.h. */
#include "store/redo.h"
#include "base/bytes.h"
#include "base/crc32.h"
#include "base/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAGIC = 0x44524c53 /* "SLRD" */, HDR = 24 };
/* Zeros written ahead of the records (redo.h, "Files"): a group that would
 * come within AHEAD_MIN of a file's end first writes AHEAD_CHUNK more. */
enum { AHEAD_MIN = 256 << 10, AHEAD_CHUNK = 1 << 20 };

struct sl_redo {
  int fd[2];
  int cur;          /* the current file; read by sl_redo_sync on another thread */
  uint64_t off;     /* where the next record goes in it */
  uint64_t size[2]; /* the files' sizes: records, then zeros */
  uint64_t limit;
  uint64_t next; /* the next group's number */
  uint8_t *buf;  /* HDR bytes for the header, then the group's ops */
  size_t len, cap;
};

int sl_redo_open(const char *dir, uint64_t limit, sl_redo **out) {
  sl_redo *r = calloc(1, sizeof(*r));
  if (!r)
    sl_panic("out of memory");
  r->fd[0] = r->fd[1] = -1;
  r->limit = limit;
  r->next = 1;
  r->cap = 64 << 10;
  r->len = HDR;
  if (!(r->buf = malloc(r->cap)))
    sl_panic("out of memory");
  for (int i = 0; i < 2; i++) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/redo.%d", dir, i);
    struct stat sb;
    if ((r->fd[i] = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0 ||
        fstat(r->fd[i], &sb) != 0) {
      int e = errno;
      sl_redo_close(r);
      return e;
    }
    r->size[i] = (uint64_t)sb.st_size;
  }
  /* The files' names are durable before anything depends on them. */
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)fsync(dfd);
    close(dfd);
  }
  *out = r;
  return 0;
}

void sl_redo_close(sl_redo *r) {
  if (!r)
    return;
  for (int i = 0; i < 2; i++)
    if (r->fd[i] >= 0)
      close(r->fd[i]);
  free(r->buf);
  free(r);
}

/* One file's chain of records (redo.h, "Record"), as (number, payload)
 * pairs into *v; false when it cannot be read. */
typedef struct {
  uint64_t no;
  const uint8_t *p;
  size_t len;
} group_ref;

static bool chain(int fd, uint8_t **map, size_t *map_len, group_ref **v, size_t *n, size_t *cap) {
  struct stat sb;
  if (fstat(fd, &sb) != 0)
    return false;
  *map = NULL;
  *map_len = (size_t)sb.st_size;
  if (sb.st_size < HDR)
    return true;
  void *m = mmap(NULL, *map_len, PROT_READ, MAP_PRIVATE, fd, 0);
  if (m == MAP_FAILED)
    return false;
  *map = m;
  const uint8_t *p = m, *end = p + *map_len;
  uint64_t prev = 0;
  while (end - p >= HDR && sl_rd32(p) == MAGIC) {
    uint32_t len = sl_rd32(p + 4);
    uint64_t no = sl_rd64(p + 8);
    if ((size_t)(end - p - HDR) < len || (prev && no != prev + 1))
      break;
    uint32_t crc = sl_crc32(0, p + 4, 12);
    if (sl_crc32(crc, p + HDR, len) != sl_rd32(p + 16))
      break;
    if (*n == *cap) {
      *cap = *cap ? *cap * 2 : 256;
      if (!(*v = realloc(*v, *cap * sizeof(**v))))
        sl_panic("out of memory");
    }
    (*v)[(*n)++] = (group_ref){no, p + HDR, len};
    prev = no;
    p += HDR + len;
  }
  return true;
}

static int by_number(const void *x, const void *y) {
  uint64_t a = ((const group_ref *)x)->no, b = ((const group_ref *)y)->no;
  return a < b ? -1 : a > b;
}

int sl_redo_replay(sl_redo *r, uint64_t after,
                   int (*fn)(void *ctx, sl_redo_kind kind, uint8_t db, sl_str a, sl_str b),
                   void *ctx, uint64_t *last) {
  uint8_t *map[2] = {NULL, NULL};
  size_t map_len[2] = {0, 0}, n = 0, cap = 0;
  group_ref *v = NULL;
  int rc = 0;
  for (int i = 0; i < 2 && rc == 0; i++)
    if (!chain(r->fd[i], &map[i], &map_len[i], &v, &n, &cap))
      rc = errno ? errno : EIO;
  if (n)
    qsort(v, n, sizeof(*v), by_number);
  uint64_t at = after;
  for (size_t i = 0; i < n && rc == 0; i++) {
    if (v[i].no <= at)
      continue; /* in the LMDB file already, or a duplicate */
    if (v[i].no != at + 1) {
      rc = EBADMSG; /* a group missing before this one */
      break;
    }
    const uint8_t *p = v[i].p, *end = p + v[i].len;
    while (rc == 0 && p < end) {
      uint32_t alen, blen;
      if (end - p < 6 || (alen = sl_rd32(p + 2)) > (size_t)(end - p - 6) ||
          end - p - 6 - alen < 4 ||
          (blen = sl_rd32(p + 6 + alen)) > (size_t)(end - p - 10 - alen)) {
        rc = EBADMSG; /* a whole record with a CRC that holds, but ops that do not parse */
        break;
      }
      sl_str a = sl_str_make((const char *)p + 6, alen);
      sl_str b = sl_str_make((const char *)p + 10 + alen, blen);
      rc = fn(ctx, (sl_redo_kind)p[0], p[1], a, b);
      p += 10 + alen + blen;
    }
    at = v[i].no;
  }
  for (int i = 0; i < 2; i++)
    if (map[i])
      munmap(map[i], map_len[i]);
  free(v);
  if (rc == 0) {
    *last = at;
    r->next = at + 1;
    r->cur = 0;
    r->off = 0;
  }
  return rc;
}

static void reserve(sl_redo *r, size_t more) {
  if (r->len + more <= r->cap)
    return;
  while (r->len + more > r->cap)
    r->cap *= 2;
  if (!(r->buf = realloc(r->buf, r->cap)))
    sl_panic("out of memory");
}

void sl_redo_op(sl_redo *r, sl_redo_kind kind, uint8_t db, sl_str a, sl_str b) {
  reserve(r, 10 + a.len + b.len);
  uint8_t *p = r->buf + r->len;
  p[0] = (uint8_t)kind;
  p[1] = db;
  sl_le32(p + 2, (uint32_t)a.len);
  if (a.len)
    memcpy(p + 6, a.p, a.len);
  sl_le32(p + 6 + a.len, (uint32_t)b.len);
  if (b.len)
    memcpy(p + 10 + a.len, b.p, b.len);
  r->len += 10 + a.len + b.len;
}

size_t sl_redo_mark(const sl_redo *r) { return r->len; }
void sl_redo_rewind(sl_redo *r, size_t mark) { r->len = mark; }
uint64_t sl_redo_next(const sl_redo *r) { return r->next; }

/* Zeros from the current file's end until AHEAD_MIN past 'end' and at
 * least AHEAD_CHUNK more; 0 or an errno. */
static int write_ahead(sl_redo *r, uint64_t end) {
  static const uint8_t zeros[64 << 10];
  uint64_t to = r->size[r->cur] + AHEAD_CHUNK;
  if (to < end + AHEAD_MIN)
    to = end + AHEAD_MIN;
  while (r->size[r->cur] < to) {
    uint64_t n = to - r->size[r->cur] < sizeof(zeros) ? to - r->size[r->cur] : sizeof(zeros);
    ssize_t w = pwrite(r->fd[r->cur], zeros, (size_t)n, (off_t)r->size[r->cur]);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return w < 0 ? errno : EIO;
    r->size[r->cur] += (uint64_t)w;
  }
  return 0;
}

int sl_redo_write(sl_redo *r) {
  if (r->off + r->len + AHEAD_MIN > r->size[r->cur]) {
    int rc = write_ahead(r, r->off + r->len);
    if (rc != 0)
      return rc;
  }
  uint32_t len = (uint32_t)(r->len - HDR);
  sl_le32(r->buf, MAGIC);
  sl_le32(r->buf + 4, len);
  sl_le64(r->buf + 8, r->next);
  sl_le32(r->buf + 16, sl_crc32(sl_crc32(0, r->buf + 4, 12), r->buf + HDR, len));
  sl_le32(r->buf + 20, 0);
  size_t done = 0;
  while (done < r->len) {
    ssize_t w = pwrite(r->fd[r->cur], r->buf + done, r->len - done, (off_t)(r->off + done));
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return w < 0 ? errno : EIO;
    done += (size_t)w;
  }
  r->off += r->len; /* within the zeros written ahead: the size stays */
  r->next++;
  r->len = HDR;
  return 0;
}

int sl_redo_sync(sl_redo *r) {
  int cur = __atomic_load_n(&r->cur, __ATOMIC_ACQUIRE);
  return fdatasync(r->fd[cur]) == 0 ? 0 : errno;
}

bool sl_redo_full(const sl_redo *r) { return r->off >= r->limit; }

int sl_redo_switch(sl_redo *r) {
  if (fdatasync(r->fd[r->cur]) != 0)
    return errno;
  __atomic_store_n(&r->cur, r->cur ^ 1, __ATOMIC_RELEASE);
  r->off = 0;
  return 0;
}
