#!/usr/bin/python3
"""What a DynamoDB stream costs per PutItem: server CPU µs per request, interleaved.

    bench/stream_cost.py [--rounds 5] [--seconds 3] [--conns 8]
                         [--views NEW_AND_OLD_IMAGES,KEYS_ONLY]
                         [--workloads fresh,put,update] [--keys 10000] BIN [BIN ...]

For each round, for each binary, for each workload, short runs on a fresh
in-memory server each (`--profile unlimited`) into a table without a stream
("plain"), then into one with a stream of each view type of --views (default
NEW_AND_OLD_IMAGES). The workloads (--workloads, default fresh):
  fresh   PutItem of ~1 KB items with fresh keys (bench/put.lua): every record
          an INSERT, so NEW_IMAGE writes what NEW_AND_OLD_IMAGES does and
          OLD_IMAGE what KEYS_ONLY does;
  put     PutItem of ~1 KB items over the --keys items written before the
          measured run (bench/over.lua): every record a MODIFY, carrying both
          images with NEW_AND_OLD_IMAGES;
  update  UpdateItem SET of one number attribute of those ~1 KB items.
The items of put and update are written (BatchWriteItem) before the CPU count
starts, in the same table, so their INSERT records are not counted either.
Runs of every binary, workload and view alternate within a round,
so a change of the machine's load hits all of them alike. Prints each run and
the median CPU µs per request of each (binary, workload), the stream/plain
ratio of the medians per binary and view, the median of the rounds' own
ratios (each stream run against the plain run of its round, the runs least
apart in time) and each binary's plain PutItem against the first binary's.

To keep other processes off the measurement (a shared 2-core machine), the
server runs on CPU 1 and wrk on CPU 0, both SCHED_FIFO 20 (chrt; root needed),
each run a few seconds. CPU time is the server's utime + stime from
/proc/PID/stat, divided by wrk's request count. Numbers are measurements, never
assertions.
"""
import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (call, wait_port, cpu_seconds, Proc)

BENCH = os.path.dirname(os.path.abspath(__file__))


def fill(port, nkeys):
    """The items that put and update write over: k0..k(nkeys-1), ~1 KB each."""
    pad = "x" * 960
    for i in range(0, nkeys, 25):
        reqs = [{"PutRequest": {"Item": {"pk": {"S": f"k{j}"}, "n": {"N": "0"},
                                         "pad": {"S": pad}}}}
                for j in range(i, min(i + 25, nkeys))]
        out = run.call(port, "BatchWriteItem", {"RequestItems": {"bench": reqs}})
        assert not out.get("UnprocessedItems"), out


def one_run(binary, workload, view, port, seconds, conns, rt, nkeys):
    pin_s = ["chrt", "-f", "20", "taskset", "-c", "1"] if rt else []
    pin_c = ["chrt", "-f", "20", "taskset", "-c", "0"] if rt else []
    port = free_port()
    srv = run.Proc(pin_s + [binary, "serve", "--port", str(port), "--profile", "unlimited"])
    try:
        run.wait_port(port)
        if srv.p.poll() is not None:
            raise RuntimeError(f"{binary} exited: is port {port} taken?")
        attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
        spec = {"TableName": "bench", "AttributeDefinitions": attrs,
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "BillingMode": "PAY_PER_REQUEST"}
        if view != "plain":
            spec["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": view}
        run.call(port, "CreateTable", spec)
        env = dict(os.environ)
        if workload == "fresh":
            script = "put.lua"
        else:
            fill(port, nkeys)
            script = "over.lua"
            env["OVER_OP"] = workload
            env["OVER_KEYS"] = str(nkeys)
        # The server process (chrt and taskset exec it, so the pid is the server's).
        pid = srv.p.pid
        time.sleep(0.2)
        cpu0 = run.cpu_seconds(pid)
        faults0 = faults(pid)
        out = subprocess.run(pin_c + ["wrk", "-t1", f"-c{conns}", f"-d{seconds}s", "-s",
                                      os.path.join(BENCH, script), f"http://127.0.0.1:{port}/"],
                             capture_output=True, text=True, env=env).stdout
        cpu = run.cpu_seconds(pid) - cpu0
        nflt = faults(pid) - faults0
        n = re.search(r"(\d+) requests in", out)
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        reqs = int(n.group(1)) if n else 0
        if not reqs or bad:
            raise RuntimeError(f"wrk against {binary}: {out}")
        if view != "plain":
            # The records are there: one per request (a sanity check, not a timing).
            arn = run.call(port, "DescribeTable", {"TableName": "bench"})["Table"]["LatestStreamArn"]
            assert arn
        return cpu * 1e6 / reqs, reqs / seconds, nflt / reqs
    finally:
        srv.stop()


def free_port():
    """A port nobody listens on (never another engineer's server)."""
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        return sk.getsockname()[1]


def faults(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[7]) + int(fields[9])  # minflt + majflt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--conns", type=int, default=8)
    ap.add_argument("--no-rt", action="store_true", help="no chrt/taskset")
    ap.add_argument("--views", default="NEW_AND_OLD_IMAGES",
                    help="stream view types, comma-separated")
    ap.add_argument("--workloads", default="fresh",
                    help="fresh, put, update (comma-separated; see the header)")
    ap.add_argument("--keys", type=int, default=10000,
                    help="items written over by the put and update workloads")
    a = ap.parse_args()
    views = [v for v in a.views.split(",") if v]
    workloads = [w for w in a.workloads.split(",") if w]
    for w in workloads:
        if w not in ("fresh", "put", "update"):
            ap.error(f"unknown workload {w}")
    res = {}
    print(f"load average at start: {os.getloadavg()}", flush=True)
    for r in range(a.rounds):
        for b in a.binaries:
            for w in workloads:
                for v in ["plain"] + views:
                    us, rps, flt = one_run(b, w, v, None, a.seconds, a.conns, not a.no_rt,
                                           a.keys)
                    res.setdefault((b, w, v), []).append(us)
                    print(f"round {r} {b} {w} {v}: {us:.1f} CPU µs/req, {rps:.0f} req/s, "
                          f"{flt:.2f} faults/req, load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"load average at end: {os.getloadavg()}")
    for w in workloads:
        base = statistics.median(res[(a.binaries[0], w, "plain")])
        for b in a.binaries:
            p = statistics.median(res[(b, w, "plain")])
            for v in views:
                s = statistics.median(res[(b, w, v)])
                pairs = [x / y for x, y in zip(res[(b, w, v)], res[(b, w, "plain")])]
                print(json.dumps({"binary": b, "workload": w, "view": v,
                                  "plain_us": round(p, 1), "stream_us": round(s, 1),
                                  "stream_over_plain": round(s / p, 3),
                                  "median_round_ratio": round(statistics.median(pairs), 3),
                                  "round_ratios": [round(x, 2) for x in pairs],
                                  "plain_over_first": round(p / base, 3)}))


if __name__ == "__main__":
    main()
