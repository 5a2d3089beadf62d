#!/usr/bin/python3
"""Durable writes: PutItem of ~1 KB items against `sluice serve --data-dir` at 1, 8
and 32 connections (wrk, bench/put.lua), for one or two binaries measured in turn,
then the first binary in memory at 1 and 32 connections (the issue's yardstick).

    bench/durable.py [--sluice build/sluice] [--other OLD_BINARY] [--seconds 5]
    bench/durable.py --ab B1 B2 ... [--conns 1] [--rounds 4] [--seconds 3] [--view V]
                     [--script mixed.lua]

--ab measures only the durable rate at one connection count, the binaries alternating
round by round (so a machine's drift falls on all of them), and prints each one's
rates and median, with the server's bytes written to its files per request
(/proc/PID/io). --view gives the table a stream of that view type
(NEW_AND_OLD_IMAGES, KEYS_ONLY, ...), so each write also appends its change record
in the same group. --script names another wrk script of bench/ (mixed.lua: a PutItem
and a GetItem of its key in turn, so that reads come between the writes of a group);
the rates are then of all its requests.

Each write is acknowledged only once it is on disk; the number to watch is requests/s
per connection count (and, with --other, the ratio between two builds in the same
run). The data directory is a fresh temporary one per run. Numbers are measurements,
never assertions.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import Proc, call, wait_port, wrk  # noqa: E402


def written(pid):
    with open(f"/proc/{pid}/io") as f:
        return int(next(ln for ln in f if ln.startswith("wchar:")).split()[1])


def measure(binary, port, seconds, conns_list, durable=True, view=None, script="put.lua"):
    """[(conns, req/s, errors, p99, CPU µs/req, bytes written/req)]"""
    d = tempfile.mkdtemp(prefix="sluice-durable-")
    p = Proc([binary, "serve", "--port", str(port), "--profile", "unlimited"]
             + (["--data-dir", d] if durable else []))
    try:
        wait_port(port)
        spec = {"TableName": "bench",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "BillingMode": "PAY_PER_REQUEST"}
        if view:
            spec["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": view}
        call(port, "CreateTable", spec)
        rows = []
        for c in conns_list:
            w0 = written(p.p.pid)
            rps, errors, p99, cpu_us = wrk(port, script, c, seconds, p.p.pid)
            nreq = rps * seconds
            rows.append((c, rps, errors, p99, cpu_us,
                         (written(p.p.pid) - w0) / nreq if nreq else 0.0))
        return rows
    finally:
        p.stop()
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default="build/sluice")
    ap.add_argument("--other", help="a second binary, measured after the first")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--ab", nargs="+", metavar="BINARY", help="alternate these binaries")
    ap.add_argument("--conns", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--view", help="--ab: the table has a stream of this view type")
    ap.add_argument("--script", default="put.lua", help="--ab: the wrk script of bench/")
    a = ap.parse_args()
    if a.ab:
        rates = {b: [] for b in a.ab}
        cpus = {b: [] for b in a.ab}
        wrote = {b: [] for b in a.ab}
        for _ in range(a.rounds):
            for i, b in enumerate(a.ab):
                row = measure(b, 8190 + i, a.seconds, [a.conns], view=a.view, script=a.script)[0]
                rates[b].append(row[1])
                cpus[b].append(row[4] or 0.0)
                wrote[b].append(row[5])
        for b, v in rates.items():
            v.sort()
            c, w = sorted(cpus[b]), sorted(wrote[b])
            what = "PutItem/s" if a.script == "put.lua" else f"{a.script} requests/s"
            print(f"{b}: {a.conns} connection(s) {what} {[round(x) for x in v]} "
                  f"median {v[len(v) // 2]:.0f}; server CPU µs/request median "
                  f"{c[len(c) // 2]:.1f}; KB written/request median {w[len(w) // 2] / 1e3:.1f}")
        return
    conns = [1, 8, 32]
    results = {"sluice": measure(a.sluice, 8190, a.seconds, conns)}
    if a.other:
        results["other"] = measure(a.other, 8191, a.seconds, conns)
    # The yardstick: the in-memory PutItem rate in the same run.
    results["memory"] = measure(a.sluice, 8192, a.seconds, [1, 32], durable=False)
    print(f"{'build':8} {'conns':>5} {'PutItem/s':>10} {'errors':>7} {'wrk p99':>8}")
    for name, rows in results.items():
        for c, rps, errors, p99, *_ in rows:
            print(f"{name:8} {c:5d} {rps:10.0f} {errors:7d} {p99:>8}")
    if a.other:
        for (c, r1, *_), (_, r2, *_) in zip(results["sluice"], results["other"]):
            print(f"ratio sluice/other at {c} connections: {r1 / r2:.2f}" if r2 else "")
    d1, d32 = results["sluice"][0][1], results["sluice"][-1][1]
    m32 = results["memory"][-1][1]
    if d1 and m32:
        print(f"durable at 32 connections: {d32 / d1:.1f}x its rate at 1 connection, "
              f"{d32 / m32:.2f}x the in-memory rate at 32 (goals: >= 8x, >= 0.5x)")


if __name__ == "__main__":
    main()
