#!/usr/bin/python3
"""Open loop at 32 connections (issue 12): p99 at half of each server's maximum rate,
beside the canned-body server at the same rate.

    bench/openloop.py [--sluice build/sluice] [--micro-http build/bench/micro_http]
                      [--seconds 5] [--repeats 2] [--conns 32] [--rt]
                      [--load-items 0 --load-seconds 150] [--pretouch SIZE]

Closed-loop, 32 connections (bench/latc with CONNS 32) measure each server's maximum
rate: the canned-body server (bench/micro_http), sluice's GetItem and PutItem
(`--profile unlimited`, in memory, 10,000 items of ~1 KB). Then, open loop (each
request timed from when it was due, so queueing behind a stall counts): sluice at half
its own maximum for each operation, and the canned-body server at that same rate, each
--repeats times, interleaved. The issue's goal: sluice's p99 within 2× of the
canned-body server's p99 at the same rate. --load-items N first grows the table with
N more items (PutItem at 32 connections, fresh keys, as bench/tail.py's load; at most
--load-seconds), so that the rows run against a large table. --rt as in bench/tail.py (servers on CPU 1,
latc, one process driving every connection on epoll, on CPU 0, SCHED_FIFO 50). --pretouch
SIZE starts sluice with `--pretouch SIZE` (its storage's first SIZE present before it
listens: a table growing into it takes no first-touch page faults; bench/README.md,
"Pretouch"). A measurement, never an assertion.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tail  # noqa: E402  bench/tail.py: latc, the servers, the preload
from run import Proc, wait_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def row(label, r, seconds, rate):
    print(f"{label:<44}{rate:>9,.0f}{r['requests'] / seconds:>9,.0f}{r['p50']:>8.0f}"
          f"{r['p99'] / 1000:>9.2f}{r['p999'] / 1000:>9.2f}{r['max'] / 1000:>9.2f}"
          f"{r['over10ms']:>7.0f}{r['errors']:>7.0f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--micro-http", default=os.path.join(ROOT, "build", "bench", "micro_http"))
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--conns", type=int, default=32)
    ap.add_argument("--rt", action="store_true")
    ap.add_argument("--load-items", type=int, default=0)
    ap.add_argument("--load-seconds", type=int, default=150)
    ap.add_argument("--pretouch", help="sluice --pretouch SIZE (e.g. 4G)")
    a = ap.parse_args()
    tail.build_latc(a.micro_http)
    if a.rt:
        tail.RT_SERVER[:] = ["chrt", "-f", "50", "taskset", "-c", "1"]
        tail.RT_CLIENT[:] = ["chrt", "-f", "50", "taskset", "-c", "0"]
    cport, sport = tail.PORT + 1, tail.PORT
    canned = Proc(tail.RT_SERVER + [a.micro_http, "serve", str(cport)])
    pretouch = ["--pretouch", a.pretouch] if a.pretouch else []
    sl = Proc(tail.RT_SERVER + [a.sluice, "serve", "--port", str(sport), "--profile", "unlimited",
                                *pretouch])
    try:
        wait_port(cport)
        wait_port(sport, timeout=600)
        tail.bench_table(sport)
        loaded, chunk, t0 = 0, 0, time.monotonic()
        while loaded < a.load_items and time.monotonic() - t0 < a.load_seconds:
            left = a.load_seconds - (time.monotonic() - t0)
            r = tail.wrk(sport, 32, max(1, min(10, int(left))), f"load{chunk}-")
            chunk += 1
            loaded += r["requests"] - r["errors"]
        if a.load_items:
            print(f"-- the table holds {10000 + loaded:,} items ({loaded:,} loaded in "
                  f"{time.monotonic() - t0:.1f} s)")
        print(f"open loop at {a.conns} connections, {a.seconds} s rows, {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.2f}{', real-time priority, pinned' if a.rt else ''}")
        print(f"{'':<44}{'offered':>9}{'req/s':>9}{'p50 us':>8}{'p99 ms':>9}{'p99.9':>9}"
              f"{'max ms':>9}{'>10ms':>7}{'errors':>7}")
        tail.latc(sport, 1, "get", 0, a.conns)  # warm-up
        top = {}
        for name, port, op in (("canned", cport, "get"), ("GetItem", sport, "get"),
                               ("PutItem", sport, "put")):
            r = tail.latc(port, a.seconds, op, 0, a.conns)
            top[name] = r["requests"] / a.seconds
            row(f"closed loop: {name} (maximum)", r, a.seconds, 0)
        verdicts = []
        for name, op in (("GetItem", "get"), ("PutItem", "put")):
            rate = top[name] / 2
            p99s, c99s = [], []
            for i in range(a.repeats):
                r = tail.latc(sport, a.seconds, op, rate, a.conns)
                row(f"open loop: sluice {name} at half its max #{i + 1}", r, a.seconds, rate)
                p99s.append(r["p99"])
                r = tail.latc(cport, a.seconds, "get", rate, a.conns)
                row(f"open loop: canned body at that rate #{i + 1}", r, a.seconds, rate)
                c99s.append(r["p99"])
            ratio = max(p99s) / max(min(c99s), 1)
            verdicts.append(ratio <= 2)
            print(f"-- {name}: sluice p99 {', '.join(f'{x / 1000:.2f}' for x in p99s)} ms, canned "
                  f"{', '.join(f'{x / 1000:.2f}' for x in c99s)} ms: worst sluice / best canned "
                  f"{ratio:.2f}x ({'within' if ratio <= 2 else 'NOT within'} 2x)")
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
        return 0 if all(verdicts) else 1
    finally:
        sl.stop()
        canned.stop()


if __name__ == "__main__":
    sys.exit(main())
