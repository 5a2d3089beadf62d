/*
 * prefault.h — pages of the in-memory map made present before LMDB writes them.
 *
 * Design: in memory mode the map is anonymous memory (store.h, "Memory
 * mode"; or, where that is refused, a sparse file on /dev/shm), and the first
 * write to one of its pages allocates it. On this machine (a virtual machine
 * whose host backs guest memory lazily) that first write costs 30-40 µs a 4 KB
 * page of the file, a 32 KB LMDB page 8 of them: ~0.3 ms inside the one
 * request whose transaction grew the map (a leaf split, a new page of stream
 * records), where a write to a page written before costs nanoseconds
 * (bench/README.md, "Fresh pages"); a 2 MB huge page of anonymous memory
 * costs one fault and its zeroing, 0.1-3 ms. A PutItem that splits a leaf was
 * the slowest percent of PutItems.
 *
 * A prefaulter keeps a reserve past LMDB's last page (SL_PREFAULT_RESERVE,
 * refilled when less than half of it is left) allocated and written once, on
 * a thread of its own, so that the loop thread's writes find the pages
 * present:
 *  - for a file's map ('fd' not -1), allocated first with fallocate, so a
 *    file system that filled up since the map was sized answers ENOSPC (the
 *    prefaulter stops, LMDB's own map limit still holds) rather than SIGBUS;
 *  - then written: an atomic add of 0 to one word of each OS page, a write
 *    that changes no byte even if LMDB writes the same page at that moment
 *    (it may: the reserve is ahead of LMDB only as long as the thread keeps
 *    up), which is what makes the host back the page.
 * The thread runs at SCHED_IDLE: it takes a CPU only when nothing else wants
 * it, so it never delays the loop thread, even on one shared CPU (if the
 * loop keeps the CPU busy, the loop faults the pages in itself, as without a
 * prefaulter). It owns nothing else: no LMDB call, no log, no loop state.
 * The loop thread calls sl_prefault_need after each write commit with the
 * bytes LMDB uses (its last page); it takes a lock and signals only when the
 * reserve runs low, at most once per half reserve.
 *
 * Pretouch (`sluice serve --pretouch SIZE`, like a JVM's AlwaysPreTouch;
 * tests/unit/store/test_prefault.c, tests/conformance/test_sluice_cli.py):
 * sl_prefault_start can also make the first 'pretouch' bytes of the map
 * present before it returns, on the caller's thread, so that the server
 * listens only once they are, and a table growing into them takes no first
 * touch at all (the reserve then starts past them). On this VM the guest
 * hands free 2 MB blocks back to the host within seconds (virtio-balloon
 * free page reporting), so every page a growing table takes is fresh to the
 * host, ~10 µs a 4 KB page, whoever touches it first; a PutItem load that
 * grows the table pays it in its tail, which the prefaulter alone does not
 * hide (bench/README.md, "Pretouch"). The stream records' log of memory
 * mode (store/memlog.h) takes its chunks from the same present bytes, from
 * their top down while LMDB does not use them (store.h, "Prefaulting"). The price is the start's
 * time (2.5-3.5 s a GiB here) and the memory, resident from the start.
 *
 * Cost: the reserve is in the map's allocated bytes (at most 2 MB more; with
 * huge pages, up to the next 2 MB boundary past it); a pretouch, its bytes.
 * Durable mode (--data-dir) writes through the file, not the map, and has no
 * prefaulter. Tests: tests/unit/store/test_prefault.c; records in a
 * pretouch, tests/unit/store/test_memlog.c (test_pretouch_feeds_records).
 *
 * Threads: sl_prefault_start, _need and _stop on the owner's thread (the
 * loop's); the prefaulter's own thread runs until sl_prefault_stop.
 */
#ifndef SL_STORE_PREFAULT_H
#define SL_STORE_PREFAULT_H

#include <stdint.h>

typedef struct sl_prefault sl_prefault;

enum { SL_PREFAULT_RESERVE = 2 << 20 };

/* The address of the shared mapping of the file open as 'fd' that is
 * 'len' bytes long (LMDB's map: it does not say where it put it), from
 * /proc/self/maps; NULL when there is none. */
void *sl_prefault_find_map(int fd, uint64_t len);

/* Starts the prefaulter of 'map' ('map_size' bytes; the map of the file 'fd',
 * or anonymous memory when 'fd' is -1) with 'used' bytes in use, after
 * making the map's first 'pretouch' bytes present (0: none; at most the map;
 * "Pretouch" above); NULL when the thread cannot be started (the pretouch is
 * done even then). */
sl_prefault *sl_prefault_start(int fd, void *map, uint64_t map_size, uint64_t used,
                               uint64_t pretouch);

/* LMDB now uses the first 'used' bytes of the map. */
void sl_prefault_need(sl_prefault *p, uint64_t used);

/* The end of what the prefaulter has made present (tests). */
uint64_t sl_prefault_ready(const sl_prefault *p);

/* Stops and joins the thread and frees 'p' (NULL is allowed); before the
 * map is unmapped. */
void sl_prefault_stop(sl_prefault *p);

#endif
