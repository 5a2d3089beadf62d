#!/usr/bin/python3
"""Tail latency of sluice as its table grows (issue 12): stalls, not throughput.

    bench/tail.py [--sluice build/sluice] [--micro-http build/bench/micro_http]
                  [--seconds 5] [--repeats 3] [--load-items 600000] [--load-seconds 30]
                  [--rate 0] [--data-dir DIR] [--put] [--rt] [--pretouch SIZE]

One run, all on 127.0.0.1; every latency row is one connection timed by bench/latc.c
(compiled here into build/bench/latc; closed loop, or open loop at --rate requests a
second, each request timed from its due time). wrk's own latency table is not used:
on this machine its latencies add up to several times the run's length at one
connection (see bench/README.md).
  1. the canned-body ceiling (bench/micro_http serve: the same net/server, no
     storage): what this machine's scheduler alone costs;
  2. sluice (`--profile unlimited`, in memory unless --data-dir) with a fresh
     table of 10,000 items of ~1 KB: GetItem, --repeats times (PutItem too with --put);
  3. PutItem at 32 connections (wrk, bench/put.lua) until --load-items items were
     written or --load-seconds passed, in wrk runs of at most 10 s;
  4. GetItem (and PutItem) again on the grown table;
  5. the ceiling again.
Each row also shows what the server process did meanwhile, from /proc: CPU time per
request, time it was runnable but waiting for a CPU (schedstat run_delay: the
machine's contention, not sluice's), minor and major page faults.

--rt runs every measured server pinned to CPU 1 and latc pinned to CPU 0, both at
real-time priority (SCHED_FIFO 50, `chrt`; needs root), so that other processes on a
shared machine (builds, test suites) cannot preempt them; what is left in the tails is
the kernel's and the hypervisor's. The load phase's wrk runs unpinned at normal
priority either way.

--pretouch SIZE starts sluice (in memory) with `--pretouch SIZE`: its storage's first
SIZE is present before it listens, so the load grows the table into pages the host
already backs (bench/README.md, "Pretouch").

The machine is shared: one p99.9 or max means little. A stall of sluice's own shows
in every repeat and not in the ceiling's rows; contention shows in both. Numbers are
measurements, never assertions.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import procmem  # bench/procmem.py: the table data's part of the resident memory
from run import AUTH, Proc, call, wait_port  # bench/run.py: the shared client and process helpers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
PORT = 8140


TICK_NS = 1e9 / os.sysconf("SC_CLK_TCK")


def stat_fields(path):
    with open(path) as f:
        return f.read().rsplit(")", 1)[1].split()


def proc_sample(pid):
    """The loop thread's CPU ns, run_delay ns, minor and major faults; the other
    threads' CPU ns (store/prefault.c's prefaulter, libuv's pool); the process's
    voluntary switches, RSS KB, shared-memory KB."""
    with open(f"/proc/{pid}/schedstat") as f:
        run, delay, _ = (int(x) for x in f.read().split())
    loop = stat_fields(f"/proc/{pid}/task/{pid}/stat")
    whole = stat_fields(f"/proc/{pid}/stat")
    minflt, majflt = int(loop[7]), int(loop[9])
    other = (int(whole[11]) + int(whole[12]) - int(loop[11]) - int(loop[12])) * TICK_NS
    st = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            st[k] = v.split()[0] if v.split() else "0"
    return {"cpu": run, "delay": delay, "minflt": minflt, "majflt": majflt, "other": other,
            "vcsw": int(st.get("voluntary_ctxt_switches", 0)),
            "rss": int(st.get("VmRSS", 0)), "storage": procmem.storage_kb(pid)}


def wrk(port, conns, seconds, prefix):
    """The 32-connection PutItem load: wrk with bench/put.lua, fresh keys under 'prefix'
    (wrk's own latency table is not used)."""
    out = subprocess.run(["wrk", "-t2", f"-c{conns}", f"-d{seconds}s", "-s",
                          os.path.join(BENCH, "put.lua"), f"http://127.0.0.1:{port}/"],
                         capture_output=True, text=True,
                         env=dict(os.environ, PUT_PREFIX=prefix)).stdout
    m = re.search(r"(\d+) requests in", out)
    errs = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"requests": int(m.group(1)) if m else 0, "errors": int(errs.group(1)) if errs else 0}


LATC = None
RT_SERVER = []  # --rt: the command prefix of measured servers
RT_CLIENT = []  # --rt: latc's


def latc(port, seconds, op, rate, conns=1, client=None, env=None):
    """Timed by bench/latc.c (see there; wrk's latencies fail its sum check): one
    connection, or 'conns' of them sharing the rate. 'client': the command prefix
    (default RT_CLIENT); 'env': latc's environment (LATC_TABLE, LATC_CLOCK_EVERY)."""
    prefix = RT_CLIENT if client is None else client
    out = subprocess.run(prefix + [LATC, str(port), op, str(seconds), str(rate), "10000",
                                   str(conns)], capture_output=True, text=True, env=env).stdout
    m = re.search(r"RESULT (.*)", out)
    if not m:
        raise RuntimeError(f"latc: {out!r}")
    return {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}


def build_latc(micro_http):
    """Compiles bench/latc.c beside micro_http (build/bench/latc) when missing or older."""
    global LATC
    src = os.path.join(BENCH, "latc.c")
    LATC = os.path.join(os.path.dirname(os.path.abspath(micro_http)), "latc")
    if not os.path.exists(LATC) or os.path.getmtime(LATC) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(LATC), exist_ok=True)
        subprocess.run(["cc", "-O2", "-std=gnu17", "-o", LATC, src], check=True)


def ms(us):
    return f"{us / 1000:.2f}"


def measure(label, pid, port, seconds, op="get", rate=0):
    before = proc_sample(pid)
    r = latc(port, seconds, op, rate)
    after = proc_sample(pid)
    n = max(r["requests"], 1)
    r = {k: int(v) for k, v in r.items()}
    d = {k: after[k] - before[k] for k in ("cpu", "delay", "minflt", "majflt", "vcsw", "other")}
    print(f"{label:<34}{r['requests'] / seconds:>9,.0f}{r['p50']:>8}{ms(r['p99']):>9}"
          f"{ms(r['p999']):>9}{ms(r['max']):>9}{r['over1ms']:>7}{r['over10ms']:>6}"
          f"{d['cpu'] / n / 1000:>8.1f}{d['other'] / n / 1000:>7.1f}{d['delay'] / 1e6 / seconds:>10.1f}"
          f"{d['minflt'] / seconds:>9,.0f}{d['majflt']:>6}{r['errors']:>7}", flush=True)
    return r


HEADER = (f"{'':<34}{'req/s':>9}{'p50 us':>8}{'p99 ms':>9}{'p99.9':>9}{'max ms':>9}"
          f"{'>1ms':>7}{'>10ms':>6}{'cpu us':>8}{'bg us':>7}{'waitms/s':>10}{'minflt/s':>9}{'majf':>6}{'errors':>7}")


def ceiling(a, label):
    if not os.path.exists(a.micro_http):
        return
    p = Proc(RT_SERVER + [a.micro_http, "serve", str(PORT + 1)])
    try:
        wait_port(PORT + 1)
        for i in range(a.repeats):
            measure(f"{label} #{i + 1}", p.p.pid, PORT + 1, a.seconds, "get", a.rate)
    finally:
        p.stop()


def bench_table(port, n=10000):
    """Creates the on-demand table "bench" (key pk) and preloads n items g0..g(n-1)."""
    call(port, "CreateTable", {
        "TableName": "bench",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "BillingMode": "PAY_PER_REQUEST"})
    preload(port, n)


def preload(port, n):
    pad = "x" * 960
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for start in range(0, n, 25):
        reqs = [{"PutRequest": {"Item": {"pk": {"S": f"g{i}"}, "pad": {"S": pad}}}}
                for i in range(start, min(n, start + 25))]
        c.request("POST", "/", body=json.dumps({"RequestItems": {"bench": reqs}}), headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810.BatchWriteItem", "Authorization": AUTH})
        r = c.getresponse()
        body = r.read()
        if r.status != 200 or json.loads(body).get("UnprocessedItems"):
            raise RuntimeError(f"preload: {r.status} {body[:200]!r}")
    c.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--micro-http", default=os.path.join(ROOT, "build", "bench", "micro_http"))
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--load-items", type=int, default=600000)
    ap.add_argument("--load-seconds", type=int, default=30)
    ap.add_argument("--data-dir", help="measure --data-dir mode (a fresh directory is made here)")
    ap.add_argument("--put", action="store_true", help="PutItem at 1 connection too")
    ap.add_argument("--rate", type=int, default=0,
                    help="open-loop requests per second at 1 connection (0: closed loop)")
    ap.add_argument("--rt", action="store_true",
                    help="pin servers to CPU 1 and latc to CPU 0 at SCHED_FIFO 50 (root)")
    ap.add_argument("--pretouch", metavar="SIZE", help="sluice --pretouch SIZE (e.g. 4G)")
    a = ap.parse_args()
    build_latc(a.micro_http)
    if a.rt:
        RT_SERVER[:] = ["chrt", "-f", "50", "taskset", "-c", "1"]
        RT_CLIENT[:] = ["chrt", "-f", "50", "taskset", "-c", "0"]

    mode = f"open loop at {a.rate:,}/s" if a.rate else "closed loop"
    print(f"tail latency at 1 connection (bench/latc, {mode}), {a.seconds} s per row, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
          f"{', real-time priority, pinned' if a.rt else ''}")
    print("cpu us: the server's loop thread's CPU per request; bg us: its other threads' (the "
          "in-memory map's prefaulter); waitms/s: ms per second the loop was runnable but not "
          "running (machine contention); minflt/s: the loop thread's page faults\n")
    print(HEADER)
    ceiling(a, "ceiling (canned body)")
    args = [a.sluice, "serve", "--port", str(PORT), "--profile", "unlimited"]
    tmp = None
    if a.data_dir:
        tmp = tempfile.mkdtemp(prefix="sluice-tail-", dir=a.data_dir)
        args += ["--data-dir", tmp]
    if a.pretouch:
        args += ["--pretouch", a.pretouch]
    p = Proc(RT_SERVER + args)
    try:
        wait_port(PORT, timeout=600)
        bench_table(PORT)
        pid = p.p.pid
        latc(PORT, 1, "get", 0)  # warm-up
        for i in range(a.repeats):
            measure(f"GetItem, 10,000 items #{i + 1}", pid, PORT, a.seconds, "get", a.rate)
        if a.put:
            for i in range(a.repeats):
                measure(f"PutItem, 10,000 items #{i + 1}", pid, PORT, a.seconds, "put", a.rate)
        loaded, chunk, t0 = 0, 0, time.monotonic()
        before = proc_sample(pid)
        while loaded < a.load_items and time.monotonic() - t0 < a.load_seconds:
            left = a.load_seconds - (time.monotonic() - t0)
            r = wrk(PORT, 32, max(1, min(10, int(left))), f"load{chunk}-")
            chunk += 1
            loaded += r["requests"] - r["errors"]
        after = proc_sample(pid)
        el = time.monotonic() - t0
        print(f"-- loaded {loaded:,} items with PutItem at 32 connections in {el:.1f} s "
              f"({loaded / el:,.0f}/s; server minor faults {after['minflt'] - before['minflt']:,},"
              f" resident {after['rss'] / 1024:.0f} MB of which table data "
              f"{after['storage'] / 1024:.0f} MB)")
        n_items = 10000 + loaded
        for i in range(a.repeats):
            measure(f"GetItem, {n_items:,} items #{i + 1}", pid, PORT, a.seconds, "get", a.rate)
        if a.put:
            for i in range(a.repeats):
                measure(f"PutItem, {n_items:,} items #{i + 1}", pid, PORT, a.seconds, "put",
                        a.rate)
    finally:
        p.stop()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    ceiling(a, "ceiling (canned body), after")


if __name__ == "__main__":
    sys.exit(main())
