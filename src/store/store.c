/* The LMDB environment; see store.h for the design. */
#include "store/store.h"
#include "base/log.h"
#include "store/memlog.h"
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
#include <time.h>
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
  bool group;       /* durable with group commit: commits wait for sl_store_sync */
  bool dirty;       /* a commit since the last sync began */
  MDB_txn *pending; /* group commit: the open parent of every write (store.h) */
  unsigned syncing; /* syncs begun (sl_store_sync_begin) and not ended */
  sl_txn read;      /* the reusable read transaction; reset (renewable) when not live */
  sl_txn in_group;  /* durable: a read inside the pending group's transaction */
  bool read_live;   /* read.txn or in_group is in use */
  sl_txn write;
  sl_prefault *prefault; /* in memory mode: the map's pages ahead of LMDB */
  sl_memlog *log;        /* in memory mode: the "records" database (memlog.h) */
  char *map;             /* in memory mode: LMDB's map */
  uintptr_t donor_top;   /* with a pretouch: the end of the present map the log may take */
  uint64_t map_size;
  bool anonymous; /* in memory mode: the map is anonymous memory (store.h) */
  unsigned page_size;
  int lock_fd; /* durable: the directory's lock (store.h, "Modes") */
  /* Durable mode: the redo log (redo.h) and its checkpoints. */
  sl_redo *redo;
  size_t redo_mark; /* the group's ops before the write transaction under way */
  struct checkpoint {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool started, want, busy, stop; /* under mu */
  } ckpt;
};

struct sl_cursor {
  MDB_cursor *cur; /* NULL: a cursor of the memory log */
  sl_memlog *log;
  uint64_t pos; /* an entry's, or just outside the entries after a step found none */
  bool started; /* pos has been set */
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

/* In memory mode (store.h, "Memory mode"): LMDB's shared map of the unlinked
 * file is replaced, at the same address, by private anonymous memory holding
 * the same bytes, asking for transparent huge pages; the file is emptied.
 * false (the file's map stays, as before) when the map is not found or the
 * memory is refused. */
static bool map_anonymous(void *map, uint64_t map_size, uint64_t used, int fd) {
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
  if (ftruncate(fd, 0) != 0)
    sl_debug("in-memory storage: cannot empty the file: %s", strerror(errno));
  return true;
}

/* In memory mode: the map in anonymous memory, then its prefaulter
 * (prefault.h). Without the map's address or a thread, the pages fault in
 * where LMDB writes them. */
static void start_memory(sl_store *st, uint64_t map_size, uint64_t pretouch) {
  mdb_filehandle_t fd;
  void *map;
  if (mdb_env_get_fd(st->env, &fd) != 0 || !(map = sl_prefault_find_map(fd, map_size))) {
    sl_debug("in-memory storage: the map is not found; it stays the file's");
    if (pretouch)
      sl_warn("--pretouch: the storage map is not found; its pages are touched as written");
    return;
  }
  st->anonymous = map_anonymous(map, map_size, map_used(st), fd);
  if (!st->anonymous)
    sl_debug("in-memory storage: anonymous memory refused; the map stays the file's");
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  st->prefault = sl_prefault_start(st->anonymous ? -1 : fd, map, map_size, map_used(st), pretouch);
  if (!st->prefault)
    sl_debug("in-memory storage: pages are not prefaulted");
  st->map = map;
  if (pretouch && st->prefault) {
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint64_t want = pretouch < map_size ? pretouch : map_size;
    uint64_t got = sl_prefault_ready(st->prefault); /* the thread may be past it already */
    if (st->anonymous) /* the records' log may take its top (prefault.h, "Pretouch") */
      st->donor_top =
          ((uintptr_t)map + (got < want ? got : want)) & ~(uintptr_t)(SL_MEMLOG_CHUNK - 1);
    if (got < want) /* a file's map on a file system that filled up */
      sl_warn("--pretouch: only %llu of %llu MiB could be made present",
              (unsigned long long)(got >> 20), (unsigned long long)(want >> 20));
    else
      sl_info("pretouched %llu MiB of in-memory storage in %.1f s",
              (unsigned long long)(want >> 20),
              (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
  }
}

/* A pretouch (prefault.h, "Pretouch") makes present the map's first bytes,
 * for the table data and the stream records alike: the records' log
 * (memlog.h) takes its chunks from the top of the present bytes LMDB does
 * not use yet, 2 MB at a time, when its pool runs dry. mremap moves the
 * pages, present, onto the chunk and leaves the map's range mapped and
 * empty (MREMAP_DONTUNMAP: fresh memory, which LMDB may grow into later
 * and fault in as it would past the pretouch). Only between transactions,
 * with no write under way, so the pages past LMDB's last are nobody's. */
static bool donate(void *ctx, void *chunk) {
  sl_store *st = ctx;
  uintptr_t floor =
      ((uintptr_t)st->map + map_used(st) + SL_MEMLOG_CHUNK - 1) & ~(uintptr_t)(SL_MEMLOG_CHUNK - 1);
  if (st->donor_top < floor + SL_MEMLOG_CHUNK)
    return false;
  void *from = (void *)(st->donor_top - SL_MEMLOG_CHUNK);
  if (mremap(from, SL_MEMLOG_CHUNK, SL_MEMLOG_CHUNK,
             MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, chunk) == MAP_FAILED) {
    sl_debug("in-memory storage: the records cannot take pretouched pages: %s", strerror(errno));
    return false;
  }
  st->donor_top -= SL_MEMLOG_CHUNK;
  return true;
}

/* ---- durable mode's redo log (redo.h) ---- */

static const MDB_val redo_key = {4, "redo"}; /* meta: the last group the file holds */

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

/* The checkpoint thread: an fsync of the LMDB file each time one is asked
 * for (sl_store_sync_begin), so that the log file before it may be reused.
 * The file's dirty pages are first written in pieces of CHECKPOINT_PIECE,
 * waiting for each, so that a log fsync queued behind the checkpoint waits
 * for one piece, not for all of them (bench/README.md, "the redo log"). A
 * failed checkpoint ends the process: the log file it was to release would
 * otherwise be overwritten with its groups not in the synced file. */
#define CHECKPOINT_PIECE (2u << 20)

static void *checkpoint_main(void *arg) {
  sl_store *st = arg;
  struct checkpoint *c = &st->ckpt;
  mdb_filehandle_t fd = -1;
  (void)mdb_env_get_fd(st->env, &fd);
  pthread_mutex_lock(&c->mu);
  for (;;) {
    while (!c->want && !c->stop)
      pthread_cond_wait(&c->cv, &c->mu);
    if (!c->want)
      break;
    c->want = false;
    pthread_mutex_unlock(&c->mu);
    struct stat sb;
    if (fd >= 0 && fstat(fd, &sb) == 0)
      for (off_t o = 0; o < sb.st_size; o += CHECKPOINT_PIECE)
        (void)sync_file_range(fd, o, CHECKPOINT_PIECE,
                              SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                                  SYNC_FILE_RANGE_WAIT_AFTER);
    int rc = mdb_env_sync(st->env, 1);
    if (rc != 0)
      sl_panic("cannot checkpoint storage: %s", mdb_strerror(rc));
    pthread_mutex_lock(&c->mu);
    c->busy = false;
  }
  pthread_mutex_unlock(&c->mu);
  return NULL;
}

/* Opens the log, replays what the LMDB file lacks (redo.h) in one
 * transaction, syncs the file (so that every record of the log is now in
 * it and may be overwritten) and starts the checkpoint thread. */
static sl_err open_redo(sl_store *st, const char *dir, uint64_t limit, sl_failure *f) {
  sl_redo *r;
  int rc = sl_redo_open(dir, limit ? limit : SL_STORE_REDO_LIMIT, &r);
  if (rc != 0)
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot open the redo log in %s: %s", dir,
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
  if (rc == 0 && last != after) {
    v = (MDB_val){8, &last};
    rc = mdb_put(t, st->dbi[SL_DB_META], (MDB_val *)&redo_key, &v, 0);
  }
  if (rc != 0) {
    mdb_txn_abort(t);
    sl_redo_close(r);
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot replay the redo log in %s: %s", dir,
                    rc == EBADMSG ? "a group is missing or unreadable" : strerror(rc));
  }
  if (last != after)
    sl_info("storage: replayed %llu groups of writes from the redo log",
            (unsigned long long)(last - after));
  if ((rc = mdb_txn_commit(t)) != 0 || (rc = mdb_env_sync(st->env, 1)) != 0) {
    sl_redo_close(r);
    return storage_error(f, rc, "replay");
  }
  st->redo = r;
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
 * and the last checkpoint has ended, the file is synced, the other one
 * becomes current and a checkpoint begins (redo.h, "Files"). */
static void maybe_checkpoint(sl_store *st) {
  struct checkpoint *c = &st->ckpt;
  if (!sl_redo_full(st->redo))
    return;
  pthread_mutex_lock(&c->mu);
  bool busy = c->busy;
  pthread_mutex_unlock(&c->mu);
  if (busy)
    return; /* the current file grows past the limit until it ends */
  int rc = sl_redo_switch(st->redo);
  if (rc != 0)
    sl_panic("cannot sync the redo log: %s", strerror(rc));
  pthread_mutex_lock(&c->mu);
  c->want = c->busy = true;
  pthread_cond_signal(&c->cv);
  pthread_mutex_unlock(&c->mu);
}

sl_err sl_store_open(const sl_store_config *cfg, sl_failure *f, sl_store **out) {
  sl_store *st = calloc(1, sizeof(*st));
  char tmpdir[256] = "";
  char path[300];
  int rc;
  sl_err err = SL_OK;
  if (!st)
    sl_panic("out of memory");
  st->lock_fd = -1;
  if ((rc = mdb_env_create(&st->env)) != 0)
    goto fail;
  mdb_env_set_maxdbs(st->env, 5);
  uint64_t map_size = cfg->map_size ? cfg->map_size : (uint64_t)64 << 30;
  unsigned flags = MDB_NOTLS;
  if (cfg->data_dir) {
    st->durable = true;
    st->group = true;
    flags |= MDB_NOSYNC;
    if (mkdir(cfg->data_dir, 0755) != 0 && errno != EEXIST) {
      err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create %s: %s", cfg->data_dir,
                     strerror(errno));
      goto out;
    }
    snprintf(path, sizeof(path), "%s", cfg->data_dir);
    /* LMDB lets several processes share an environment, so its own lock
     * file would let a second sluice in, and both would write the log. */
    char lock[320];
    snprintf(lock, sizeof(lock), "%s/lock", cfg->data_dir);
    if ((st->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
      err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create %s: %s", lock, strerror(errno));
      goto out;
    }
    if (flock(st->lock_fd, LOCK_EX | LOCK_NB) != 0) {
      err = errno == EWOULDBLOCK ? sl_failf(f, SL_E_INTERNAL_SERVER_ERROR,
                                            "%s is in use by another sluice", cfg->data_dir)
                                 : sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot lock %s: %s",
                                            lock, strerror(errno));
      goto out;
    }
  } else {
    const char *base =
        access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    snprintf(tmpdir, sizeof(tmpdir), "%s/sluice-XXXXXX", base);
    if (!mkdtemp(tmpdir)) {
      err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create a temporary directory: %s",
                     strerror(errno));
      goto out;
    }
    snprintf(path, sizeof(path), "%s/data.mdb", tmpdir);
    flags |= MDB_NOSUBDIR | MDB_NOLOCK | MDB_NOSYNC | MDB_NOMETASYNC | MDB_WRITEMAP;
    /* A write into the sparse map past the file system's free space is a
     * SIGBUS, not an error LMDB can return: keep the map within that space,
     * so that filling it is the handled "storage is full" (store.h). */
    struct statvfs vfs;
    if (statvfs(tmpdir, &vfs) == 0) {
      uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
      if (avail < map_size) {
        if (cfg->map_size)
          sl_warn("--map-size %llu exceeds the %llu bytes free in %s; in-memory storage is "
                  "limited to those",
                  (unsigned long long)cfg->map_size, (unsigned long long)avail, base);
        else
          sl_debug("in-memory storage limited to the %llu bytes free in %s",
                   (unsigned long long)avail, base);
        map_size = avail;
      }
    }
  }
  /* Whole pages: LMDB maps the size it is given, and a map that ends inside
   * an OS page is not found by its length (prefault.h), so it would keep the
   * file's pages and no prefaulter in memory mode. */
  if (map_size > SL_STORE_PAGE_SIZE)
    map_size -= map_size % SL_STORE_PAGE_SIZE;
  mdb_env_set_mapsize(st->env, map_size);
  {
    char file[320];
    snprintf(file, sizeof(file), "%s%s", path, flags & MDB_NOSUBDIR ? "" : "/data.mdb");
    if ((rc = sl__store_preformat(file, SL_STORE_PAGE_SIZE, map_size, flags)) != 0 &&
        rc != EEXIST) {
      err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot create %s: %s", file, strerror(rc));
      goto out;
    }
  }
  if ((rc = mdb_env_open(st->env, path, flags, 0644)) != 0)
    goto fail;
  st->page_size = sl_store_page_size(st);
  if (tmpdir[0]) {
    /* The map and the descriptor stay valid after the names are gone. */
    unlink(path);
    rmdir(tmpdir);
    tmpdir[0] = 0;
    start_memory(st, map_size, cfg->pretouch);
    st->log = sl_memlog_new(map_size, "sluice-stream-records");
  }
  st->map_size = map_size;
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
      /* Formats 1 to 4 are subsets of format 5 (store.h; format 4's stream
       * index is rewritten by streams/streams.c at open): upgrade the record. */
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
                     path, fv.mv_size == 4 ? v : 0u, (unsigned)SL_STORE_FORMAT);
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
  if (st->durable && (err = open_redo(st, cfg->data_dir, cfg->redo_limit, f)) != SL_OK)
    goto out;
  *out = st;
  return SL_OK;
fail:
  err = sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "cannot open storage at %s: %s", path,
                 mdb_strerror(rc));
out:
  if (tmpdir[0]) {
    unlink(path);
    rmdir(tmpdir);
  }
  sl_prefault_stop(st->prefault);
  sl_redo_close(st->redo);
  sl_memlog_free(st->log);
  if (st->env)
    mdb_env_close(st->env);
  if (st->lock_fd >= 0)
    close(st->lock_fd);
  free(st);
  return err;
}

/* Group commit: the pending group's commits written to the file (LMDB's
 * top-level commit; MDB_NOSYNC, so no fsync). Their answers have been
 * formed and are held (sl_store_dirty): a failure here cannot be reported to
 * them, and none of them may be acknowledged, so it stops the server, as a
 * failed fsync does (nothing acknowledged is lost). */
static void flush_pending(sl_store *st) {
  if (!st->pending)
    return;
  SL_ASSERT(!st->write.txn && !st->in_group.txn);
  int rc = mdb_txn_commit(st->pending);
  st->pending = NULL;
  if (rc != 0)
    sl_panic("cannot write committed writes to storage: %s", mdb_strerror(rc));
}

/* Durable mode: the group to the LMDB file, with its number in its last
 * commit (redo.h: a file that holds that commit holds the whole group), then
 * to the log (no fsync); failures end the process, as flush_pending's do. */
static void write_group(sl_store *st) {
  int rc = 0;
  if (!st->pending)
    rc = mdb_txn_begin(st->env, NULL, 0, &st->pending);
  uint64_t no = sl_redo_next(st->redo);
  MDB_val v = {8, &no};
  if (rc == 0)
    rc = mdb_put(st->pending, st->dbi[SL_DB_META], (MDB_val *)&redo_key, &v, 0);
  if (rc != 0)
    sl_panic("cannot write committed writes to storage: %s", mdb_strerror(rc));
  flush_pending(st);
  if ((rc = sl_redo_write(st->redo)) != 0)
    sl_panic("cannot write the redo log: %s", strerror(rc));
  maybe_checkpoint(st);
}

void sl_store_close(sl_store *st) {
  if (!st)
    return;
  if (st->read.txn)
    mdb_txn_abort(st->read.txn);
  /* Durable: the last group, then the file synced (after any checkpoint
   * under way), which leaves nothing to replay. */
  if (st->redo && st->dirty)
    write_group(st);
  flush_pending(st);
  stop_checkpoints(st);
  if (st->durable) {
    int rc = mdb_env_sync(st->env, 1);
    if (rc != 0)
      sl_error("lmdb sync at close: %s", mdb_strerror(rc));
  }
  sl_redo_close(st->redo);
  sl_prefault_stop(st->prefault);
  sl_memlog_free(st->log);
  mdb_env_close(st->env);
  if (st->lock_fd >= 0)
    close(st->lock_fd);
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
  if (!st->dirty) {
    if (st->pending && !st->write.txn) { /* its writes all aborted: nothing to keep */
      mdb_txn_abort(st->pending);
      st->pending = NULL;
    }
    return false;
  }
  if (st->redo)
    write_group(st);
  else
    flush_pending(st);
  st->dirty = false;
  st->syncing++;
  return true;
}

/* Any thread: the fdatasync of the redo log's current file, which writes on
 * the loop thread meanwhile do not disturb (what they write may or may not
 * be in it: they are not reported durable by this sync). */
int sl_store_sync_run(sl_store *st) {
  return st->redo ? sl_redo_sync(st->redo) : mdb_env_sync(st->env, 1);
}

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
    /* LMDB: a transaction with a live child serves nothing but it. */
    SL_ASSERT(!st->in_group.txn);
    if (st->log) {
      /* The log and the map share the map's size (memlog.h). */
      uint64_t used = map_used(st);
      sl_memlog_set_limit(st->log, used < st->map_size ? st->map_size - used : 0);
      /* Before LMDB's transaction: the map's pages past 'used' are LMDB's
       * to take only once it begins. */
      if (st->donor_top && sl_memlog_wants(st->log) && !sl_memlog_stock(st->log, donate, st))
        st->donor_top = 0; /* nothing more to give */
    }
    if (st->group && !st->pending && (rc = mdb_txn_begin(st->env, NULL, 0, &st->pending)) != 0)
      return storage_error(f, rc, "begin");
    if ((rc = mdb_txn_begin(st->env, st->pending, 0, &st->write.txn)) != 0)
      return storage_error(f, rc, "begin");
    if (st->redo)
      st->redo_mark = sl_redo_mark(st->redo);
    if (st->log)
      sl_memlog_begin(st->log);
    st->write.st = st;
    st->write.write = true;
    *out = &st->write;
    return SL_OK;
  }
  SL_ASSERT(!st->read_live);
  /* A read sees every commit before it. Durable: inside the group's open
   * transaction, which holds them all (the file does not yet). A read begun
   * inside a write (none today) would see the file's state without the
   * group's commits. */
  if (st->pending && !st->write.txn) {
    st->in_group = (sl_txn){.txn = st->pending, .st = st, .write = false};
    st->read_live = true;
    *out = &st->in_group;
    return SL_OK;
  }
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
  if (txn->st->log) {
    if (rc != 0)
      sl_memlog_abort(txn->st->log); /* LMDB aborted the transaction */
    else
      sl_memlog_commit(txn->st->log, txn->st->read_live);
  }
  if (rc != 0)
    return storage_error(f, rc, "commit");
  txn->st->dirty |= txn->st->group;
  if (txn->st->prefault)
    sl_prefault_need(txn->st->prefault, map_used(txn->st));
  return SL_OK;
}

void sl_store_abort(sl_txn *txn) {
  sl_store *st = txn->st;
  if (!txn->write) {
    if (txn == &st->in_group)
      txn->txn = NULL; /* the group's, which goes on */
    else
      mdb_txn_reset(txn->txn);
    st->read_live = false;
    if (st->log)
      sl_memlog_quiesce(st->log);
    return;
  }
  mdb_txn_abort(txn->txn);
  txn->txn = NULL;
  if (st->log)
    sl_memlog_abort(st->log);
  if (st->redo)
    sl_redo_rewind(st->redo, st->redo_mark); /* its ops go with it */
}

bool sl_store_txn_writable(const sl_txn *txn) { return txn->write; }

/* Memory mode's "records" (memlog.h): whether 'db' is kept in the log. */
static sl_memlog *log_of(const sl_txn *txn, sl_db db) {
  return db == SL_DB_RECORDS ? txn->st->log : NULL;
}

static sl_err log_put(sl_memlog *log, sl_str key, sl_str val, sl_failure *f) {
  switch (sl_memlog_append(log, key, val)) {
  case SL_MEMLOG_OK:
    return SL_OK;
  case SL_MEMLOG_FULL:
    return storage_error(f, MDB_MAP_FULL, "put");
  default:
    sl_error("in-memory records: a key not after the last one");
    return sl_failf(f, SL_E_INTERNAL_SERVER_ERROR, "Internal server error");
  }
}

bool sl_store_get(sl_txn *txn, sl_db db, sl_str key, sl_str *val) {
  if (log_of(txn, db))
    return sl_memlog_get(log_of(txn, db), key, val);
  MDB_val k = to_val(key), v;
  if (mdb_get(txn->txn, txn->st->dbi[db], &k, &v) != 0)
    return false;
  *val = from_val(v);
  return true;
}

sl_err sl_store_put(sl_txn *txn, sl_db db, sl_str key, sl_str val, sl_failure *f) {
  SL_ASSERT(txn->write); /* a read may be inside the group's transaction */
  if (log_of(txn, db))
    return log_put(log_of(txn, db), key, val, f);
  MDB_val k = to_val(key), v = to_val(val);
  int rc = mdb_put(txn->txn, txn->st->dbi[db], &k, &v, 0);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_PUT, (uint8_t)db, key, val);
  return rc == 0 ? SL_OK : storage_error(f, rc, "put");
}

sl_err sl_store_append(sl_txn *txn, sl_db db, sl_str key, sl_str val, sl_failure *f) {
  SL_ASSERT(txn->write); /* a read may be inside the group's transaction */
  if (log_of(txn, db))
    return log_put(log_of(txn, db), key, val, f);
  MDB_val k = to_val(key), v = to_val(val);
  int rc = mdb_put(txn->txn, txn->st->dbi[db], &k, &v, MDB_APPEND);
  if (rc == MDB_KEYEXIST) /* not after the last key: an ordinary put */
    rc = mdb_put(txn->txn, txn->st->dbi[db], &k, &v, 0);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_PUT, (uint8_t)db, key, val);
  return rc == 0 ? SL_OK : storage_error(f, rc, "put");
}

sl_err sl_store_del(sl_txn *txn, sl_db db, sl_str key, sl_failure *f) {
  SL_ASSERT(txn->write); /* a read may be inside the group's transaction */
  if (log_of(txn, db)) {
    sl_memlog_del(log_of(txn, db), key);
    return SL_OK;
  }
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
  if (log_of(txn, db)) {
    uint64_t n = sl_memlog_del_range(log_of(txn, db), lo, hi);
    if (n_out)
      *n_out = n;
    return SL_OK;
  }
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
  SL_ASSERT(txn->write); /* a read may be inside the group's transaction */
  if (log_of(txn, db)) {
    sl_memlog_empty(log_of(txn, db));
    return SL_OK;
  }
  int rc = mdb_drop(txn->txn, txn->st->dbi[db], 0);
  if (rc == 0 && txn->st->redo)
    sl_redo_op(txn->st->redo, SL_REDO_EMPTY, (uint8_t)db, (sl_str){"", 0}, (sl_str){"", 0});
  return rc == 0 ? SL_OK : storage_error(f, rc, "drop");
}

sl_cursor *sl_store_cursor(sl_txn *txn, sl_db db) {
  sl_cursor *c = calloc(1, sizeof(*c));
  if (!c)
    sl_panic("out of memory");
  if ((c->log = log_of(txn, db)))
    return c;
  if (mdb_cursor_open(txn->txn, txn->st->dbi[db], &c->cur) != 0)
    sl_panic("cannot open an LMDB cursor");
  return c;
}

void sl_cursor_close(sl_cursor *c) {
  if (!c)
    return;
  if (c->cur)
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

/* A cursor of the memory log: from 'pos' in direction 'dir', the first live
 * entry becomes its place; when there is none, the place is just past the
 * entries that way, so that going on that way finds nothing either and
 * turning back finds the last one (LMDB's cursors at an end). */
static bool log_step(sl_cursor *c, uint64_t pos, int dir, sl_str *k, sl_str *v) {
  c->started = true;
  if (sl_memlog_at(c->log, &pos, dir, k, v)) {
    c->pos = pos;
    return true;
  }
  c->pos = dir > 0 ? sl_memlog_end_pos(c->log) : sl_memlog_first_pos(c->log) - 1;
  return false;
}

bool sl_cursor_seek(sl_cursor *c, sl_str key, sl_str *k, sl_str *v) {
  if (c->log)
    return log_step(c, sl_memlog_lower_bound(c->log, key), 1, k, v);
  MDB_val mk = to_val(key);
  return cursor_get(c, &mk, MDB_SET_RANGE, k, v);
}

bool sl_cursor_seek_last_before(sl_cursor *c, sl_str key, sl_str *k, sl_str *v) {
  if (c->log)
    return log_step(c, sl_memlog_lower_bound(c->log, key) - 1, -1, k, v);
  MDB_val mk = to_val(key);
  if (cursor_get(c, &mk, MDB_SET_RANGE, NULL, NULL))
    return cursor_get(c, &mk, MDB_PREV, k, v);
  return cursor_get(c, &mk, MDB_LAST, k, v);
}

bool sl_cursor_first(sl_cursor *c, sl_str *k, sl_str *v) {
  if (c->log)
    return log_step(c, sl_memlog_first_pos(c->log), 1, k, v);
  MDB_val mk;
  return cursor_get(c, &mk, MDB_FIRST, k, v);
}

bool sl_cursor_next(sl_cursor *c, sl_str *k, sl_str *v) {
  if (c->log) /* unplaced: the first, as LMDB's MDB_NEXT */
    return log_step(c, c->started ? c->pos + 1 : sl_memlog_first_pos(c->log), 1, k, v);
  MDB_val mk;
  return cursor_get(c, &mk, MDB_NEXT, k, v);
}

bool sl_cursor_prev(sl_cursor *c, sl_str *k, sl_str *v) {
  if (c->log) /* unplaced: the last, as LMDB's MDB_PREV */
    return log_step(c, c->started ? c->pos - 1 : sl_memlog_end_pos(c->log) - 1, -1, k, v);
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
