/* The LMDB environment; see store.h for the design. */
#include "store/store.h"
#include "base/log.h"
#include "store/prefault.h"
#include "store/redo.h"

#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

struct sl_txn {
  MDB_txn *txn;
  sl_store *st;
  bool write;
};

struct sl_store {
  sl_store_capture_fn capture; /* store/items.h: every item change */
  void *capture_ctx;
  MDB_env *env;
  MDB_dbi dbi[5];
  bool durable;
  bool dirty;       /* durable: a commit since the last sync began */
  unsigned syncing; /* syncs begun (sl_store_sync_begin) and not ended */
  sl_txn read;      /* the reusable read transaction; reset (renewable) when not live */
  bool read_live;   /* read.txn is in use */
  sl_txn write;
  sl_prefault *prefault; /* the map's pages ahead of LMDB */
  bool anonymous;        /* the map is anonymous memory (store.h) */
  unsigned page_size;
  /* Durable mode: the directory, its lock, the redo log (redo.h) and the
   * checkpoints that write the snapshot behind it (store.h, "Modes"). */
  char *dir;
  int lock_fd;
  sl_redo *redo;
  size_t redo_mark;    /* the group's ops before the write transaction under way */
  uint64_t redo_limit; /* bytes of a log file before a checkpoint */
  bool redo_adaptive;  /* ... or the map's used bytes, when larger */
  uint64_t ckpt_group; /* the last group the last checkpoint begun covers */
  uint64_t snap_bytes; /* the last snapshot's size (written by the checkpoint thread) */
  struct checkpoint {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool started, want, busy, stop; /* under mu */
  } ckpt;
};

struct sl_cursor {
  MDB_cursor *cur;
};

static const char *const db_names[] = {"items", "catalog", "meta", "streams", "records"};

static sl_err storage_error(sl_failure *f, int rc, const char *what) {
  if (rc == MDB_MAP_FULL)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR,
                    "Internal server error: sluice storage is full (raise --map-size)");
  sl_error("lmdb %s: %s", what, mdb_strerror(rc));
  return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "Internal server error");
}

static MDB_val to_val(sl_str s) { return (MDB_val){s.len, (void *)s.p}; }

/* LMDB 0.9 gives a new environment the OS page size (4 KB) but reads the
 * page size of an existing one from its meta pages. An environment file
 * that does not exist yet is therefore written here first, as LMDB's
 * mdb_env_init_meta would write it, with SL_STORE_PAGE_SIZE pages: two meta
 * pages (page header, then the meta record: magic, data version 1, map size,
 * the free and main databases, last page 1, transaction 0), the free
 * database's md_pad holding the page size and its flags MDB_INTEGERKEY plus
 * the environment's flags, as LMDB sets them. Layout of lmdb 0.9 (its data
 * format version 1), 64-bit; tests/unit/store/test_store.c checks that the
 * bytes equal LMDB's own but for the page size. Returns 0 or an errno. */
enum { META_MAGIC = 0xBEEFC0DE, META_VERSION = 1, PAGE_HDR = 16, P_META = 0x08 };

int sl__store_preformat(const char *file, unsigned page_size, uint64_t map_size, unsigned flags) {
  int fd = open(file, O_RDWR | O_CREAT | O_EXCL, 0644);
  if (fd < 0)
    return errno;
  unsigned char *page = calloc(1, page_size);
  if (!page)
    sl_panic("out of memory");
  int rc = 0;
  for (uint64_t pgno = 0; pgno < 2 && rc == 0; pgno++) {
    memset(page, 0, page_size);
    unsigned char *m = page + PAGE_HDR;
    uint32_t magic = META_MAGIC, version = META_VERSION, psize = page_size;
    uint16_t free_flags = (uint16_t)(MDB_INTEGERKEY | (flags & 0xffff));
    uint64_t invalid = UINT64_MAX, last_pg = 1;
    uint16_t pflags = P_META;
    memcpy(page, &pgno, 8);           /* mp_pgno */
    memcpy(page + 10, &pflags, 2);    /* mp_flags */
    memcpy(m + 0, &magic, 4);         /* mm_magic */
    memcpy(m + 4, &version, 4);       /* mm_version */
    memcpy(m + 16, &map_size, 8);     /* mm_mapsize */
    memcpy(m + 24, &psize, 4);        /* mm_dbs[FREE].md_pad: the page size */
    memcpy(m + 28, &free_flags, 2);   /* mm_dbs[FREE].md_flags */
    memcpy(m + 24 + 40, &invalid, 8); /* mm_dbs[FREE].md_root */
    memcpy(m + 72 + 40, &invalid, 8); /* mm_dbs[MAIN].md_root */
    memcpy(m + 120, &last_pg, 8);     /* mm_last_pg; mm_txnid stays 0 */
    if (pwrite(fd, page, page_size, (off_t)(pgno * page_size)) != (ssize_t)page_size)
      rc = errno ? errno : EIO;
  }
  free(page);
  if (close(fd) != 0 && rc == 0)
    rc = errno;
  if (rc != 0)
    unlink(file);
  return rc;
}
static sl_str from_val(MDB_val v) { return sl_str_make(v.mv_data, v.mv_size); }

/* LMDB's last page, in bytes from the start of the map. */
static uint64_t map_used(sl_store *st) {
  MDB_envinfo info;
  if (mdb_env_info(st->env, &info) != 0)
    return 0;
  return ((uint64_t)info.me_last_pgno + 1) * st->page_size;
}

#ifndef PR_SET_VMA /* Linux 5.17's names of anonymous mappings */
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

/* Reads 'len' bytes of file 'fd' from its start into 'to'; 0 or an errno. */
static int read_all(int fd, void *to, uint64_t len) {
  uint64_t done = 0;
  while (done < len) {
    size_t want = len - done > (1u << 30) ? (1u << 30) : (size_t)(len - done);
    ssize_t n = pread(fd, (char *)to + done, want, (off_t)done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n < 0 ? errno : EIO;
    done += (uint64_t)n;
  }
  return 0;
}

/* store.h, "Memory mode": LMDB's shared map of the unlinked file is
 * replaced, at the same address, by private anonymous memory holding the
 * same bytes, asking for transparent huge pages; the file is emptied unless
 * 'keep_size' (durable mode: LMDB's copy, a checkpoint, writes no further
 * than the file's size, so the file stays as LMDB made it: sparse, the
 * map's size, holding nothing). false (the file's map stays, as before) when
 * the memory is refused. */
static bool map_anonymous(void *map, uint64_t map_size, uint64_t used, int fd, bool keep_size) {
  char *copy = malloc(used);
  if (!copy)
    return false;
  memcpy(copy, map, used);
  void *m = mmap(map, map_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) {
    /* MAP_FIXED failed before unmapping anything (mmap(2)): LMDB's map is
     * still the file's. */
    free(copy);
    return false;
  }
  (void)madvise(m, map_size, MADV_HUGEPAGE); /* refused where THP is off: 4 KB pages */
  (void)prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)m, (unsigned long)map_size,
              (unsigned long)SL_STORE_MAP_NAME); /* refused without CONFIG_ANON_VMA_NAME */
  memcpy(m, copy, used);
  free(copy);
  if (!keep_size && ftruncate(fd, 0) != 0)
    sl_debug("in-memory storage: cannot empty the file: %s", strerror(errno));
  return true;
}

/* Right after LMDB's open: the map in anonymous memory, then, durable, the
 * snapshot's bytes ('snap', 'snap_len' bytes; -1: none) read into it, then
 * the prefaulter (prefault.h). Without the map's address or a thread, the
 * pages fault in where LMDB writes them. 0 or an errno (the snapshot could
 * not be read). */
static int start_memory(sl_store *st, uint64_t map_size, int snap, uint64_t snap_len) {
  mdb_filehandle_t fd;
  void *map;
  if (mdb_env_get_fd(st->env, &fd) != 0 || !(map = sl_prefault_find_map(fd, map_size)))
    return snap >= 0 ? ENOENT : 0; /* the snapshot has nowhere to go */
  st->anonymous = map_anonymous(map, map_size, map_used(st), fd, st->durable);
  if (!st->anonymous)
    sl_debug("in-memory storage: anonymous memory refused; the map stays the file's");
  if (snap >= 0) {
    int rc = read_all(snap, map, snap_len < map_size ? snap_len : map_size);
    if (rc != 0)
      return rc;
  }
  if (!(st->prefault = sl_prefault_start(st->anonymous ? -1 : fd, map, map_size, map_used(st))))
    sl_debug("in-memory storage: pages are not prefaulted");
  return 0;
}

/* ---- durable mode: the snapshot and the redo log behind it ---- */

static const MDB_val redo_key = {4, "redo"}; /* meta: the last group the snapshot holds */

/* Reads the page size of the LMDB file open as 'fd' from its first meta
 * page (the free database's md_pad, where sl__store_preformat and LMDB put
 * it); 0 when it is not an LMDB file this sluice can read. */
static unsigned snapshot_page_size(int fd) {
  unsigned char h[PAGE_HDR + 28];
  uint32_t magic, version, psize;
  if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
    return 0;
  memcpy(&magic, h + PAGE_HDR, 4);
  memcpy(&version, h + PAGE_HDR + 4, 4);
  memcpy(&psize, h + PAGE_HDR + 24, 4);
  if (magic != META_MAGIC || version != META_VERSION || psize < 512 || psize > 65536 ||
      (psize & (psize - 1)))
    return 0;
  return psize;
}

/* The temporary file LMDB opens for a durable store: the snapshot's two
 * meta pages (its page size, last page and databases' roots), the rest of
 * its bytes being read into the map before any transaction
 * (start_memory). 0 or an errno. */
static int copy_meta_pages(int snap, unsigned psize, const char *to) {
  int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out < 0)
    return errno;
  unsigned char *buf = malloc(2 * (size_t)psize);
  if (!buf)
    sl_panic("out of memory");
  int rc = 0;
  if (pread(snap, buf, 2 * (size_t)psize, 0) != (ssize_t)(2 * psize))
    rc = EIO;
  else if (write(out, buf, 2 * (size_t)psize) != (ssize_t)(2 * psize))
    rc = errno ? errno : EIO;
  free(buf);
  if (close(out) != 0 && rc == 0)
    rc = errno;
  return rc;
}

static void dir_path(const sl_store *st, const char *name, char *out, size_t cap) {
  snprintf(out, cap, "%s/%s", st->dir, name);
}

static int fsync_dir(const char *dir) {
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return errno;
  int rc = fsync(dfd) == 0 ? 0 : errno;
  close(dfd);
  return rc;
}

/* A checkpoint: the environment as it is now, under a read transaction of
 * LMDB's copy (so the loop may go on writing), to data.mdb.tmp, synced,
 * renamed over data.mdb, the directory synced; *bytes gets the snapshot's
 * size. The copy is compacted (MDB_CP_COMPACT: free pages left out; LMDB
 * writes it 1 MB at a time from a second thread) and written with O_DIRECT
 * where the file system takes it, so that the snapshot neither fills the
 * page cache nor queues hundreds of megabytes ahead of the log's fsyncs:
 * buffered, a checkpoint of a 300 MB store took the 32-connection PutItem
 * p99 from 5 to 35 ms and the rate down a fifth; direct, to 6-10 ms and
 * under a tenth (bench/README.md, "The snapshot design"). 0, an errno or
 * an LMDB code (mdb_strerror names both). */
static int snapshot_write(sl_store *st, uint64_t *bytes) {
  char tmp[4200], data[4200];
  dir_path(st, "data.mdb.tmp", tmp, sizeof(tmp));
  dir_path(st, "data.mdb", data, sizeof(data));
  int rc = 0, fd = -1;
  for (int direct = 1; direct >= 0; direct--) {
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (direct ? O_DIRECT : 0), 0644);
    if (fd < 0 && direct && errno == EINVAL)
      continue; /* no O_DIRECT here (tmpfs) */
    if (fd < 0)
      return errno;
    rc = mdb_env_copyfd2(st->env, fd, MDB_CP_COMPACT);
    if (rc == EINVAL && direct) { /* the file system wants other alignments */
      close(fd);
      continue;
    }
    break;
  }
  struct stat sb;
  if (rc == 0 && fstat(fd, &sb) == 0)
    *bytes = (uint64_t)sb.st_size;
  if (rc == 0 && fdatasync(fd) != 0)
    rc = errno;
  if (close(fd) != 0 && rc == 0)
    rc = errno;
  if (rc == 0 && rename(tmp, data) != 0)
    rc = errno;
  if (rc == 0)
    rc = fsync_dir(st->dir);
  return rc;
}

/* Meta "redo" := the last group written to the log, so that the next
 * snapshot names it (an LMDB write of its own, not a logged op: replaying
 * it would name a group the snapshot being replayed onto may not hold). */
static void mark_group(sl_store *st) {
  uint64_t no = sl_redo_next(st->redo) - 1;
  MDB_txn *t;
  MDB_val v = {8, &no};
  int rc = mdb_txn_begin(st->env, NULL, 0, &t);
  if (rc == 0 && (rc = mdb_put(t, st->dbi[SL_DB_META], (MDB_val *)&redo_key, &v, 0)) != 0)
    mdb_txn_abort(t);
  else if (rc == 0)
    rc = mdb_txn_commit(t);
  if (rc != 0)
    sl_panic("cannot checkpoint storage: %s", mdb_strerror(rc));
  st->ckpt_group = no;
}

static int replay_op(void *ctx, sl_redo_kind kind, uint8_t db, sl_str a, sl_str b) {
  sl_txn *txn = ctx;
  if (db >= 5)
    return EBADMSG;
  MDB_dbi dbi = txn->st->dbi[db];
  MDB_val k = to_val(a), v = to_val(b);
  int rc;
  sl_arena ar;
  sl_failure f;
  switch (kind) {
  case SL_REDO_PUT:
    return mdb_put(txn->txn, dbi, &k, &v, 0);
  case SL_REDO_DEL:
    rc = mdb_del(txn->txn, dbi, &k, NULL);
    return rc == MDB_NOTFOUND ? 0 : rc;
  case SL_REDO_DEL_RANGE:
    sl_arena_init(&ar);
    sl_failure_init(&f, &ar);
    rc = sl_store_del_range(txn, (sl_db)db, a, b, NULL, &f) == SL_OK ? 0 : EIO;
    sl_arena_destroy(&ar);
    return rc;
  case SL_REDO_EMPTY:
    return mdb_drop(txn->txn, dbi, 0);
  }
  return EBADMSG;
}

/* The checkpoint thread: a snapshot each time one is asked for
 * (maybe_checkpoint), so that the log file before it may be reused. A
 * failed checkpoint ends the process: the log file it was to release would
 * otherwise be overwritten with groups the snapshot does not hold. */
static void *checkpoint_main(void *arg) {
  sl_store *st = arg;
  struct checkpoint *c = &st->ckpt;
  pthread_mutex_lock(&c->mu);
  for (;;) {
    while (!c->want && !c->stop)
      pthread_cond_wait(&c->cv, &c->mu);
    if (!c->want)
      break;
    c->want = false;
    pthread_mutex_unlock(&c->mu);
    uint64_t bytes = 0;
    int rc = snapshot_write(st, &bytes);
    if (rc != 0)
      sl_panic("cannot checkpoint storage in %s: %s", st->dir, mdb_strerror(rc));
    pthread_mutex_lock(&c->mu);
    st->snap_bytes = bytes;
    c->busy = false;
  }
  pthread_mutex_unlock(&c->mu);
  return NULL;
}

/* Opens the log and replays the groups the snapshot lacks (redo.h) in one
 * transaction; when there were any, or there was no snapshot, checkpoints
 * at once (the log then writes over its files from the start of redo.0,
 * which must not hold the only copy of a group); then starts the checkpoint
 * thread. */
static sl_err open_redo(sl_store *st, bool had_snapshot, sl_failure *f) {
  sl_redo *r;
  int rc = sl_redo_open(st->dir, &r);
  if (rc != 0)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot open the redo log in %s: %s", st->dir,
                    strerror(rc));
  MDB_txn *t;
  if ((rc = mdb_txn_begin(st->env, NULL, 0, &t)) != 0) {
    sl_redo_close(r);
    return storage_error(f, rc, "begin");
  }
  uint64_t after = 0, last = 0;
  MDB_val v;
  if (mdb_get(t, st->dbi[SL_DB_META], (MDB_val *)&redo_key, &v) == 0 && v.mv_size == 8)
    memcpy(&after, v.mv_data, 8);
  sl_txn txn = {.txn = t, .st = st, .write = true};
  /* st->redo is still NULL: the replay's own changes are not logged again. */
  rc = sl_redo_replay(r, after, replay_op, &txn, &last);
  if (rc != 0) {
    mdb_txn_abort(t);
    sl_redo_close(r);
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot replay the redo log in %s: %s", st->dir,
                    rc == EBADMSG ? "a group is missing or unreadable" : strerror(rc));
  }
  if ((rc = mdb_txn_commit(t)) != 0) {
    sl_redo_close(r);
    return storage_error(f, rc, "replay");
  }
  st->redo = r;
  st->ckpt_group = last;
  if (last != after)
    sl_info("storage: replayed %llu groups of writes from the redo log",
            (unsigned long long)(last - after));
  if (last != after || !had_snapshot) {
    mark_group(st);
    if ((rc = snapshot_write(st, &st->snap_bytes)) != 0)
      return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot checkpoint storage in %s: %s", st->dir,
                      mdb_strerror(rc));
  }
  struct checkpoint *c = &st->ckpt;
  pthread_mutex_init(&c->mu, NULL);
  pthread_cond_init(&c->cv, NULL);
  /* With every signal blocked: they are the loop's (net/server.c). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  rc = pthread_create(&c->thread, NULL, checkpoint_main, st);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot start the checkpoint thread");
  c->started = true;
  return SL_OK;
}

static void stop_checkpoints(sl_store *st) {
  struct checkpoint *c = &st->ckpt;
  if (!c->started)
    return;
  pthread_mutex_lock(&c->mu);
  c->stop = true;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&c->mu);
  pthread_join(c->thread, NULL);
  pthread_mutex_destroy(&c->mu);
  pthread_cond_destroy(&c->cv);
  c->started = false;
}

/* After a group was written to the log: once its file is past the limit
 * (store.h, "Checkpoints") and the last checkpoint has ended, the file is
 * synced, the other one becomes current and a checkpoint begins (redo.h,
 * "Files"). */
static void maybe_checkpoint(sl_store *st) {
  struct checkpoint *c = &st->ckpt;
  if (sl_redo_written(st->redo) < st->redo_limit)
    return;
  pthread_mutex_lock(&c->mu);
  bool busy = c->busy;
  uint64_t snap = st->snap_bytes;
  pthread_mutex_unlock(&c->mu);
  if (busy)
    return; /* the current file grows past the limit until it ends */
  if (st->redo_adaptive && sl_redo_written(st->redo) < snap)
    return; /* the next snapshot would write more than the log did */
  int rc = sl_redo_switch(st->redo);
  if (rc != 0)
    sl_panic("cannot sync the redo log: %s", strerror(rc));
  mark_group(st);
  pthread_mutex_lock(&c->mu);
  c->want = c->busy = true;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&c->mu);
}

/* Durable: the lock that keeps a second sluice off the directory, stale
 * files of a checkpoint cut short, and the snapshot, open as *snap with its
 * size and page size (-1: a new directory). */
static sl_err open_dir(sl_store *st, const char *dir, int *snap, uint64_t *snap_len,
                       unsigned *psize, sl_failure *f) {
  char path[4200];
  if (mkdir(dir, 0755) != 0 && errno != EEXIST)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create %s: %s", dir, strerror(errno));
  if (!(st->dir = strdup(dir)))
    sl_panic("out of memory");
  dir_path(st, "lock", path, sizeof(path));
  if ((st->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create %s: %s", path, strerror(errno));
  if (flock(st->lock_fd, LOCK_EX | LOCK_NB) != 0)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "%s is in use by another sluice%s%s", dir,
                    errno == EWOULDBLOCK ? "" : ": ", errno == EWOULDBLOCK ? "" : strerror(errno));
  dir_path(st, "data.mdb.tmp", path, sizeof(path));
  (void)unlink(path);
  dir_path(st, "data.mdb", path, sizeof(path));
  *snap = open(path, O_RDONLY | O_CLOEXEC);
  if (*snap < 0 && errno != ENOENT)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot open %s: %s", path, strerror(errno));
  if (*snap < 0)
    return SL_OK;
  struct stat sb;
  if (fstat(*snap, &sb) != 0 || !(*psize = snapshot_page_size(*snap)) ||
      (uint64_t)sb.st_size < 2 * (uint64_t)*psize)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot open storage at %s: not an LMDB file",
                    path);
  *snap_len = (uint64_t)sb.st_size;
  return SL_OK;
}

sl_err sl_store_open(const sl_store_config *cfg, sl_failure *f, sl_store **out) {
  sl_store *st = calloc(1, sizeof(*st));
  char tmpdir[256] = "";
  char path[300];
  int rc, snap = -1;
  uint64_t snap_len = 0;
  unsigned snap_psize = 0;
  sl_err err = SL_OK;
  if (!st)
    sl_panic("out of memory");
  st->lock_fd = -1;
  if (cfg->data_dir) {
    st->durable = true;
    st->redo_limit = cfg->redo_limit ? cfg->redo_limit : SL_STORE_REDO_LIMIT;
    st->redo_adaptive = !cfg->redo_limit;
    if ((err = open_dir(st, cfg->data_dir, &snap, &snap_len, &snap_psize, f)) != SL_OK)
      goto out;
    st->snap_bytes = snap_len;
  }
  if ((rc = mdb_env_create(&st->env)) != 0)
    goto fail;
  mdb_env_set_maxdbs(st->env, 5);
  uint64_t map_size = cfg->map_size ? cfg->map_size : (uint64_t)64 << 30;
  /* Both modes open a file of a fresh temporary directory (store.h,
   * "Modes"); durable mode keeps LMDB's lock file (its reader table), so
   * that a checkpoint's copy holds its pages against reuse. */
  unsigned flags = MDB_NOTLS | MDB_NOSUBDIR | MDB_NOSYNC | MDB_NOMETASYNC | MDB_WRITEMAP;
  if (!st->durable)
    flags |= MDB_NOLOCK;
  const char *base =
      access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  snprintf(tmpdir, sizeof(tmpdir), "%s/sluice-XXXXXX", base);
  if (!mkdtemp(tmpdir)) {
    err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create a temporary directory: %s",
                   strerror(errno));
    tmpdir[0] = 0;
    goto out;
  }
  snprintf(path, sizeof(path), "%s/data.mdb", tmpdir);
  /* A write into the sparse map past the file system's free space is a
   * SIGBUS, not an error LMDB can return: keep the map within that space,
   * so that filling it is the handled "storage is full" (store.h). */
  struct statvfs vfs;
  if (statvfs(tmpdir, &vfs) == 0) {
    uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (avail < map_size) {
      if (cfg->map_size)
        sl_warn("--map-size %llu exceeds the %llu bytes free in %s; storage is limited to those",
                (unsigned long long)cfg->map_size, (unsigned long long)avail, base);
      else
        sl_debug("storage limited to the %llu bytes free in %s", (unsigned long long)avail, base);
      map_size = avail;
    }
  }
  if (snap >= 0 && snap_len > map_size) {
    err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR,
                   "%s/data.mdb holds %llu bytes, more than the %llu bytes of storage available",
                   cfg->data_dir, (unsigned long long)snap_len, (unsigned long long)map_size);
    goto out;
  }
  mdb_env_set_mapsize(st->env, map_size);
  rc = snap >= 0 ? copy_meta_pages(snap, snap_psize, path)
                 : sl__store_preformat(path, SL_STORE_PAGE_SIZE, map_size, flags);
  if (rc != 0) {
    err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create %s: %s", path, strerror(rc));
    goto out;
  }
  if ((rc = mdb_env_open(st->env, path, flags, 0644)) != 0)
    goto fail;
  st->page_size = sl_store_page_size(st);
  /* The map and the descriptors stay valid after the names are gone. */
  {
    char lock[320];
    snprintf(lock, sizeof(lock), "%s-lock", path);
    unlink(lock);
  }
  unlink(path);
  rmdir(tmpdir);
  tmpdir[0] = 0;
  if ((rc = start_memory(st, map_size, snap, snap_len)) != 0) {
    err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot read %s/data.mdb: %s", cfg->data_dir,
                   strerror(rc));
    goto out;
  }
  bool had_snapshot = snap >= 0;
  if (snap >= 0) {
    close(snap);
    snap = -1;
  }
  MDB_txn *txn;
  if ((rc = mdb_txn_begin(st->env, NULL, 0, &txn)) != 0)
    goto fail;
  for (int i = 0; i < 5; i++) {
    if ((rc = mdb_dbi_open(txn, db_names[i], MDB_CREATE, &st->dbi[i])) != 0) {
      mdb_txn_abort(txn);
      goto fail;
    }
  }
  /* The format version (store.h): a directory written by another format is
   * refused, never misread. One without the record is new, or was written
   * by a sluice of format 1 before the record existed: it gets it. */
  MDB_val fk = {6, "format"}, fv;
  rc = mdb_get(txn, st->dbi[SL_DB_META], &fk, &fv);
  if (rc == 0) {
    uint32_t v = 0;
    if (fv.mv_size == 4)
      memcpy(&v, fv.mv_data, 4);
    if (fv.mv_size == 4 && v >= 1 && v < SL_STORE_FORMAT) {
      /* Formats 1 to 3 are subsets of format 4 (store.h): upgrade the record. */
      v = SL_STORE_FORMAT;
      fv = (MDB_val){4, &v};
      if ((rc = mdb_put(txn, st->dbi[SL_DB_META], &fk, &fv, 0)) != 0) {
        mdb_txn_abort(txn);
        goto fail;
      }
    } else if (fv.mv_size != 4 || v != SL_STORE_FORMAT) {
      mdb_txn_abort(txn);
      err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR,
                     "%s holds storage format %u; this sluice reads format %u (run the sluice "
                     "that wrote it, or use another --data-dir)",
                     cfg->data_dir ? cfg->data_dir : path, fv.mv_size == 4 ? v : 0u,
                     (unsigned)SL_STORE_FORMAT);
      goto out;
    }
  } else if (rc == MDB_NOTFOUND) {
    uint32_t v = SL_STORE_FORMAT;
    fv = (MDB_val){4, &v};
    if ((rc = mdb_put(txn, st->dbi[SL_DB_META], &fk, &fv, 0)) != 0) {
      mdb_txn_abort(txn);
      goto fail;
    }
  } else {
    mdb_txn_abort(txn);
    goto fail;
  }
  if ((rc = mdb_txn_commit(txn)) != 0)
    goto fail;
  if (st->durable && (err = open_redo(st, had_snapshot, f)) != SL_OK)
    goto out;
  *out = st;
  return SL_OK;
fail:
  err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot open storage at %s: %s",
                 cfg->data_dir ? cfg->data_dir : path, mdb_strerror(rc));
out:
  if (tmpdir[0]) {
    char lock[320];
    snprintf(lock, sizeof(lock), "%s-lock", path);
    unlink(lock);
    unlink(path);
    rmdir(tmpdir);
  }
  if (snap >= 0)
    close(snap);
  stop_checkpoints(st);
  sl_prefault_stop(st->prefault);
  sl_redo_close(st->redo);
  if (st->env)
    mdb_env_close(st->env);
  if (st->lock_fd >= 0)
    close(st->lock_fd);
  free(st->dir);
  free(st);
  return err;
}

/* Durable: the group built so far to the log (no fsync), then, when its
 * file is full, a checkpoint; a failure ends the process (store.h). */
static void write_group(sl_store *st) {
  int rc = sl_redo_write(st->redo);
  if (rc != 0)
    sl_panic("cannot write the redo log: %s", strerror(rc));
  maybe_checkpoint(st);
}

void sl_store_close(sl_store *st) {
  if (!st)
    return;
  SL_ASSERT(!st->write.txn);
  if (st->read.txn)
    mdb_txn_abort(st->read.txn);
  /* Durable: the last group, then (after any checkpoint under way) a last
   * checkpoint when a group was written since the last one began, which
   * leaves nothing to replay. Were it to fail, the log, synced first,
   * still holds every group. */
  if (st->redo) {
    if (st->dirty)
      write_group(st);
    int rc = sl_redo_sync(st->redo);
    if (rc != 0)
      sl_error("storage: cannot sync the redo log at close: %s", strerror(rc));
    stop_checkpoints(st);
    if (sl_redo_next(st->redo) - 1 != st->ckpt_group) {
      mark_group(st);
      if ((rc = snapshot_write(st, &st->snap_bytes)) != 0)
        sl_error("storage: cannot checkpoint at close (the redo log has every write): %s",
                 mdb_strerror(rc));
    }
  }
  sl_redo_close(st->redo);
  sl_prefault_stop(st->prefault);
  mdb_env_close(st->env);
  if (st->lock_fd >= 0)
    close(st->lock_fd);
  free(st->dir);
  free(st);
}

bool sl_store_durable(const sl_store *st) { return st->durable; }

struct sl_prefault *sl__store_prefault(const sl_store *st) {
  return st->prefault;
}

uint64_t sl__store_map_used(sl_store *st) { return map_used(st); }

bool sl__store_map_anonymous(const sl_store *st) { return st->anonymous; }

unsigned sl_store_page_size(const sl_store *st) {
  MDB_stat s;
  return mdb_env_stat(st->env, &s) == 0 ? s.ms_psize : 0;
}

bool sl_store_dirty(const sl_store *st) { return st->dirty || st->syncing; }

bool sl_store_sync_begin(sl_store *st) {
  if (!st->dirty)
    return false;
  SL_ASSERT(!st->write.txn);
  write_group(st);
  st->dirty = false;
  st->syncing++;
  return true;
}

/* Any thread: the fdatasync of the redo log's current file, which writes on
 * the loop thread meanwhile do not disturb (what they write may or may not
 * be in it: they are not reported durable by this sync). */
int sl_store_sync_run(sl_store *st) { return st->redo ? sl_redo_sync(st->redo) : 0; }

sl_err sl_store_sync_end(sl_store *st, int rc, sl_failure *f) {
  SL_ASSERT(st->syncing > 0);
  st->syncing--;
  return rc != 0 ? storage_error(f, rc, "sync") : SL_OK;
}

sl_err sl_store_sync(sl_store *st, sl_failure *f) {
  bool began = sl_store_sync_begin(st);
  if (!began && !st->syncing)
    return SL_OK;
  /* Also when only a sync begun elsewhere is under way: this one covers
   * every commit so far, now. */
  int rc = sl_store_sync_run(st);
  if (began)
    return sl_store_sync_end(st, rc, f);
  return rc != 0 ? storage_error(f, rc, "sync") : SL_OK;
}

sl_err sl_store_begin(sl_store *st, bool write, sl_failure *f, sl_txn **out) {
  int rc;
  if (write) {
    SL_ASSERT(st->write.txn == NULL);
    if ((rc = mdb_txn_begin(st->env, NULL, 0, &st->write.txn)) != 0)
      return storage_error(f, rc, "begin");
    if (st->redo)
      st->redo_mark = sl_redo_mark(st->redo);
    st->write.st = st;
    st->write.write = true;
    *out = &st->write;
    return SL_OK;
  }
  SL_ASSERT(!st->read_live);
  if (st->read.txn)
    rc = mdb_txn_renew(st->read.txn);
  else
    rc = mdb_txn_begin(st->env, NULL, MDB_RDONLY, &st->read.txn);
  if (rc != 0)
    return storage_error(f, rc, "begin read");
  st->read.st = st;
  st->read.write = false;
  st->read_live = true;
  *out = &st->read;
  return SL_OK;
}

sl_err sl_store_commit(sl_txn *txn, sl_failure *f) {
  if (!txn->write) {
    sl_store_abort(txn); /* a read transaction has nothing to commit */
    return SL_OK;
  }
  int rc = mdb_txn_commit(txn->txn);
  txn->txn = NULL;
  if (rc != 0) {
    if (txn->st->redo)
      sl_redo_rewind(txn->st->redo, txn->st->redo_mark); /* its ops go with it */
    return storage_error(f, rc, "commit");
  }
  txn->st->dirty |= txn->st->durable;
  if (txn->st->prefault)
    sl_prefault_need(txn->st->prefault, map_used(txn->st));
  return SL_OK;
}

void sl_store_abort(sl_txn *txn) {
  sl_store *st = txn->st;
  if (!txn->write) {
    mdb_txn_reset(txn->txn);
    st->read_live = false;
    return;
  }
  mdb_txn_abort(txn->txn);
  txn->txn = NULL;
  if (st->redo)
    sl_redo_rewind(st->redo, st->redo_mark); /* its ops go with it */
}

bool sl_store_txn_writable(const sl_txn *txn) { return txn->write; }

bool sl_store_get(sl_txn *txn, sl_db db, sl_str key, sl_str *val) {
  MDB_val k = to_val(key), v;
  if (mdb_get(txn->txn, txn->st->dbi[db], &k, &v) != 0)
    return false;
  *val = from_val(v);
  return true;
}

sl_err sl_store_put(sl_txn *txn, sl_db db, sl_str key, sl_str val, sl_failure *f) {
  SL_ASSERT(txn->write);
  MDB_val k = to_val(key), v = to_val(val);
  int rc = mdb_put(txn->txn, txn->st->dbi[db], &k, &v, 0);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_PUT, (uint8_t)db, key, val);
  return rc == 0 ? SL_OK : storage_error(f, rc, "put");
}

sl_err sl_store_append(sl_txn *txn, sl_db db, sl_str key, sl_str val, sl_failure *f) {
  SL_ASSERT(txn->write);
  MDB_val k = to_val(key), v = to_val(val);
  int rc = mdb_put(txn->txn, txn->st->dbi[db], &k, &v, MDB_APPEND);
  if (rc == MDB_KEYEXIST) /* not after the last key: an ordinary put */
    rc = mdb_put(txn->txn, txn->st->dbi[db], &k, &v, 0);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_PUT, (uint8_t)db, key, val);
  return rc == 0 ? SL_OK : storage_error(f, rc, "put");
}

sl_err sl_store_del(sl_txn *txn, sl_db db, sl_str key, sl_failure *f) {
  SL_ASSERT(txn->write);
  MDB_val k = to_val(key);
  int rc = mdb_del(txn->txn, txn->st->dbi[db], &k, NULL);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_DEL, (uint8_t)db, key, (sl_str){"", 0});
  return rc == 0 || rc == MDB_NOTFOUND ? SL_OK : storage_error(f, rc, "del");
}

/* From the highest key down: LMDB keeps a page's nodes from its end towards
 * its start in the order they were put, so in a page filled in key order
 * (records appended, an index grown at its end) the highest key is the
 * last node, and deleting it moves nothing, where deleting the lowest first
 * moves the rest of the page down each time (a 32 KB memmove per record of
 * a trimmed stream: bench/README.md, steady state). */
sl_err sl_store_del_range(sl_txn *txn, sl_db db, sl_str lo, sl_str hi, uint64_t *n_out,
                          sl_failure *f) {
  SL_ASSERT(txn->write);
  MDB_cursor *cur = NULL;
  uint64_t n = 0;
  sl_err err = SL_OK;
  int rc = mdb_cursor_open(txn->txn, txn->st->dbi[db], &cur);
  if (rc != 0) {
    err = storage_error(f, rc, "cursor");
    goto out;
  }
  MDB_val k = to_val(hi), v;
  rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
  /* The last key below hi: before the first one at or above it, or the last. */
  rc = rc == 0              ? mdb_cursor_get(cur, &k, &v, MDB_PREV)
       : rc == MDB_NOTFOUND ? mdb_cursor_get(cur, &k, &v, MDB_LAST)
                            : rc;
  while (rc == 0) {
    if (sl_str_cmp(from_val(k), lo) < 0)
      break;
    if ((rc = mdb_cursor_del(cur, 0)) != 0) {
      err = storage_error(f, rc, "del");
      goto out;
    }
    n++;
    /* The cursor is now on the key after the deleted one (or past the end). */
    rc = mdb_cursor_get(cur, &k, &v, MDB_PREV);
  }
  if (rc != 0 && rc != MDB_NOTFOUND)
    err = storage_error(f, rc, "cursor");
  if (err == SL_OK && n && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_DEL_RANGE, (uint8_t)db, lo, hi);
out:
  if (cur)
    mdb_cursor_close(cur);
  if (n_out)
    *n_out = n;
  return err;
}

sl_err sl_store_empty(sl_txn *txn, sl_db db, sl_failure *f) {
  SL_ASSERT(txn->write);
  int rc = mdb_drop(txn->txn, txn->st->dbi[db], 0);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_EMPTY, (uint8_t)db, (sl_str){"", 0}, (sl_str){"", 0});
  return rc == 0 ? SL_OK : storage_error(f, rc, "drop");
}

sl_cursor *sl_store_cursor(sl_txn *txn, sl_db db) {
  sl_cursor *c = malloc(sizeof(*c));
  if (!c)
    sl_panic("out of memory");
  if (mdb_cursor_open(txn->txn, txn->st->dbi[db], &c->cur) != 0)
    sl_panic("cannot open an LMDB cursor");
  return c;
}

void sl_cursor_close(sl_cursor *c) {
  if (!c)
    return;
  mdb_cursor_close(c->cur);
  free(c);
}

static bool cursor_get(sl_cursor *c, MDB_val *k, MDB_cursor_op op, sl_str *key, sl_str *val) {
  MDB_val v;
  if (mdb_cursor_get(c->cur, k, &v, op) != 0)
    return false;
  if (key)
    *key = from_val(*k);
  if (val)
    *val = from_val(v);
  return true;
}

bool sl_cursor_seek(sl_cursor *c, sl_str key, sl_str *k, sl_str *v) {
  MDB_val mk = to_val(key);
  return cursor_get(c, &mk, MDB_SET_RANGE, k, v);
}

bool sl_cursor_seek_last_before(sl_cursor *c, sl_str key, sl_str *k, sl_str *v) {
  MDB_val mk = to_val(key);
  if (cursor_get(c, &mk, MDB_SET_RANGE, NULL, NULL))
    return cursor_get(c, &mk, MDB_PREV, k, v);
  return cursor_get(c, &mk, MDB_LAST, k, v);
}

bool sl_cursor_first(sl_cursor *c, sl_str *k, sl_str *v) {
  MDB_val mk;
  return cursor_get(c, &mk, MDB_FIRST, k, v);
}

bool sl_cursor_next(sl_cursor *c, sl_str *k, sl_str *v) {
  MDB_val mk;
  return cursor_get(c, &mk, MDB_NEXT, k, v);
}

bool sl_cursor_prev(sl_cursor *c, sl_str *k, sl_str *v) {
  MDB_val mk;
  return cursor_get(c, &mk, MDB_PREV, k, v);
}

sl_err sl_store_next_id(sl_txn *txn, uint32_t *out, sl_failure *f) {
  sl_str key = SL_STR("next_id");
  sl_str val;
  uint32_t id = 1;
  if (sl_store_get(txn, SL_DB_META, key, &val) && val.len == 4)
    memcpy(&id, val.p, 4);
  uint32_t next = id + 1;
  sl_err err = sl_store_put(txn, SL_DB_META, key, sl_str_make((const char *)&next, 4), f);
  if (err == SL_OK)
    *out = id;
  return err;
}

void sl_store_set_capture(sl_store *st, sl_store_capture_fn fn, void *ctx) {
  st->capture = fn;
  st->capture_ctx = ctx;
}

sl_err sl__store_capture_call(sl_txn *txn, const sl_store_change *c, sl_arena *a, sl_failure *f) {
  sl_store *st = txn->st;
  return st->capture ? st->capture(st->capture_ctx, txn, c, a, f) : SL_OK;
}
