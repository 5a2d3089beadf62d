#!/usr/bin/python3
"""What a DynamoDB stream costs per PutItem: server CPU µs per request, interleaved.

    bench/stream_cost.py [--rounds 5] [--seconds 3] [--conns 8]
                         [--views NEW_AND_OLD_IMAGES,KEYS_ONLY|none]
                         [--workloads fresh,put,update] [--keys 10000]
                         [--steady N [--steady-rate K]] [--durable DIR]
                         [--rate R] [--pretouch SIZE] BIN [BIN ...]

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

--steady N measures a server that has run longer than the 24 h retention as
well as one in its first minutes. Each run's server is on the manual clock
(--clock manual, from T0), and wrk writes two batches of exactly N writes,
advancing the clock a second (POST /_sluice/clock) after every K writes
(--steady-rate, default 20,000 a second): "first" from T0 + 1 s, then, with
the clock set to T0 + 1 day + 1 s, "steady", during which each second of the
clock puts one more second of the first batch's records past the retention,
so the server trims one old record per new one, as it does after a day, and
the trimming's CPU (the ticks before the requests) is inside the count. At
the end the oldest record kept must be of the second batch, else the run
says that the first batch was not all trimmed (a server whose trimming
falls behind). The records of the items put and update write over (made at
T0) are trimmed before the second count starts.
--durable DIR runs each server with --data-dir, a fresh directory under DIR
(removed after its run; put DIR on the disk to be measured, not on a tmpfs),
so every write waits for its group's fdatasync and a record is written in the
same LMDB transaction as its item; the CPU counted is then the loop's and the
sync threads', and the request rate is bounded by the syncs.
--rate R drives the fresh workload open loop at R PutItems a second instead
(bench/latc, --conns connections sharing the rate; with --steady, N writes
take N / R seconds and latc advances the clock), so that the server with a
stream and the one without serve the same request rate. Closed loop (wrk),
the slower server (the one with a stream) gets fewer requests per turn of
its loop (fewer per read, per epoll wakeup, per answer written), which
costs it CPU per request that is not the stream's; at the same rate both
get the same requests at the same times. Open loop every request costs
more (fewer of them a turn), so compare the extra µs, not only the ratio
(bench/README.md, "Eleventh pass"). R must be below both servers' maximum
(each run checks that its rate was served).
--pretouch SIZE starts each in-memory server with `--pretouch SIZE`, so the
storage the run grows into is present before the count begins: on this VM a
page first touched costs the host's backing (bench/README.md, "Pretouch"),
which a record's bytes pay on the first day; with it, the ratio is the
record's own work.
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
import calendar
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (call, wait_port, cpu_seconds, Proc)
import tail  # noqa: E402  (build_latc, LATC: --rate)

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


T0 = "2026-11-30T00:00:00.000Z"  # --steady: the manual clock's start
DAY_MS = 24 * 3600 * 1000


def iso(ms_after_t0):
    t = time.gmtime(calendar.timegm(time.strptime(T0[:19], "%Y-%m-%dT%H:%M:%S")) +
                    ms_after_t0 // 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", t) + f".{ms_after_t0 % 1000:03d}Z"


def admin(port, path, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    c.close()
    if r.status != 200:
        raise RuntimeError(f"{path} on :{port}: {r.status} {data[:200]!r}")
    return json.loads(data)


def counted(pid, drive):
    """Runs drive() (which returns the number of requests it sent) and returns
    (server CPU µs per request, requests/s, faults per request)."""
    cpu0 = run.cpu_seconds(pid)
    faults0 = faults(pid)
    t0 = time.monotonic()
    reqs = drive()
    took = time.monotonic() - t0
    cpu = run.cpu_seconds(pid) - cpu0
    return cpu * 1e6 / reqs, reqs / took, (faults(pid) - faults0) / reqs


def measure(pid, port, script, env, pin_c, seconds, conns):
    """One wrk batch: (server CPU µs per request, requests/s, faults per request)."""
    return counted(pid, lambda: run_wrk(port, script, env, pin_c, seconds, conns))


def run_wrk(port, script, env, pin_c, seconds, conns):
    stop = env.get("STOP_FILE")
    if stop and os.path.exists(stop):
        os.unlink(stop)
    w = subprocess.Popen(pin_c + ["wrk", "-t1", f"-c{conns}", f"-d{seconds}s", "-s",
                                  os.path.join(BENCH, script), f"http://127.0.0.1:{port}/"],
                         stdout=subprocess.PIPE, text=True, env=env)
    if stop:
        # STOP_AFTER writes answered: wrk would wait out -d; SIGINT makes it report now.
        while w.poll() is None and not os.path.exists(stop):
            time.sleep(0.005)
        w.send_signal(signal.SIGINT)
    out = w.communicate()[0]
    n = re.search(r"(\d+) requests in", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    reqs = int(n.group(1)) if n else 0
    if not reqs or bad:
        raise RuntimeError(f"wrk: {out}")
    return reqs


def measure_open(pid, port, rate, seconds, env, pin_c, conns):
    """One open-loop batch by bench/latc at 'rate' PutItems a second (fresh keys, the
    table "bench"): (server CPU µs per request, requests/s, faults per request)."""
    def drive():
        r = tail.latc(port, seconds, "put", rate, conns, client=pin_c, env=env)
        if r["errors"] or r["requests"] < 0.98 * rate * seconds:
            raise RuntimeError(f"latc at {rate}/s for {seconds} s: {r} (the rate was not served)")
        return r["requests"]
    return counted(pid, drive)


def one_run(binary, workload, view, seconds, conns, rt, nkeys, steady, durable=None, rate=0,
            pretouch=None):
    """{"first": (µs, req/s, faults)} or, with steady (writes, writes per clock second),
    also {"steady": ...}: the same number of writes a day of the clock later, while the
    first batch's records are trimmed."""
    pin_s = ["chrt", "-f", "20", "taskset", "-c", "1"] if rt else []
    pin_c = ["chrt", "-f", "20", "taskset", "-c", "0"] if rt else []
    port = free_port()
    args = [binary, "serve", "--port", str(port), "--profile", "unlimited"]
    if steady:
        args += ["--clock", "manual", "--clock-start", T0]
    data = tempfile.mkdtemp(prefix="stream_cost.", dir=durable) if durable else None
    if data:
        args += ["--data-dir", data]
    if pretouch:
        args += ["--pretouch", pretouch]
    srv = run.Proc(pin_s + args)
    try:
        run.wait_port(port, timeout=600)
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
        res = {}
        if rate:
            # Open loop (--rate): the first batch, then, with --steady, the second.
            if steady:
                n, per_s = steady
                env["LATC_CLOCK_EVERY"] = str(per_s)
                seconds = n / rate
                admin(port, "/_sluice/clock", {"advance_ms": 1000})
            time.sleep(0.2)
            res["first"] = measure_open(pid, port, rate, seconds, env, pin_c, conns)
            if steady:
                admin(port, "/_sluice/clock", {"set": iso(DAY_MS + 1001)})
                time.sleep(0.2)
                res["steady"] = measure_open(pid, port, rate, seconds, env, pin_c, conns)
        elif not steady:
            time.sleep(0.2)
            res["first"] = measure(pid, port, script, env, pin_c, seconds, conns)
        else:
            # Day 1: the first batch at --steady-rate writes a second of the clock, from
            # T0 + 1 s on (the items of put and update were written at T0).
            n, per_s = steady
            env["CLOCK_EVERY"], env["STOP_AFTER"] = str(per_s), str(n)
            env["STOP_FILE"] = f"/tmp/stream_cost.{os.getpid()}.stop"
            admin(port, "/_sluice/clock", {"advance_ms": 1000})
            time.sleep(0.2)
            res["first"] = measure(pid, port, script, env, pin_c, 600, conns)
            # A day later: the items' INSERT records of T0 go first, outside the count.
            admin(port, "/_sluice/clock", {"set": iso(DAY_MS + 500)})
            for _ in range(nkeys // 1024 + 2 if workload != "fresh" else 0):
                run.call(port, "DescribeTable", {"TableName": "bench"})
            time.sleep(0.2)
            # Then the second batch: at T0 + 1 day + 1 s the first batch's first second
            # of records is past the retention, and each second of the clock one more,
            # so its trimming (the ticks' CPU) is inside this count.
            admin(port, "/_sluice/clock", {"set": iso(DAY_MS + 1001)})
            if workload == "fresh":
                env["PUT_PREFIX"] = "d2-"
            res["steady"] = measure(pid, port, script, env, pin_c, 600, conns)
        if steady and view != "plain":
            # The first batch's records were trimmed: the oldest kept is of the second.
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("GET", "/_sluice/tables")
            tables = json.loads(c.getresponse().read())["tables"]
            c.close()
            oldest = next(t for t in tables if t["name"] == "bench")["stream"]
            oldest = oldest["oldest_record_ms"]
            t0_ms = calendar.timegm(time.strptime(T0[:19], "%Y-%m-%dT%H:%M:%S")) * 1000
            if oldest is not None and oldest < t0_ms + DAY_MS + 1001:
                print(f"  {binary} {workload} {view}: the first batch's records were not "
                      f"all trimmed (the oldest kept is from {oldest - t0_ms} ms after T0)",
                      flush=True)
        if view != "plain":
            # The records are there: one per request (a sanity check, not a timing).
            arn = run.call(port, "DescribeTable", {"TableName": "bench"})["Table"]["LatestStreamArn"]
            assert arn
        return res
    finally:
        srv.stop()
        if data:
            shutil.rmtree(data, ignore_errors=True)


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
                    help="stream view types, comma-separated (none: plain runs only)")
    ap.add_argument("--workloads", default="fresh",
                    help="fresh, put, update (comma-separated; see the header)")
    ap.add_argument("--keys", type=int, default=10000,
                    help="items written over by the put and update workloads")
    ap.add_argument("--steady", type=int, default=0, metavar="N",
                    help="two batches of N writes a day of the manual clock apart (see the "
                         "header); 0: one run of --seconds on the real clock")
    ap.add_argument("--steady-rate", type=int, default=20000, metavar="K",
                    help="--steady: writes per second of the manual clock")
    ap.add_argument("--durable", metavar="DIR",
                    help="each server with --data-dir, a fresh directory under DIR")
    ap.add_argument("--rate", type=int, default=0, metavar="R",
                    help="open loop at R PutItems a second (bench/latc; fresh workload only)")
    ap.add_argument("--pretouch", metavar="SIZE",
                    help="each in-memory server with --pretouch SIZE (its storage present "
                         "before the count: no first-touch faults as the table grows)")
    a = ap.parse_args()
    views = [v for v in a.views.split(",") if v and v != "none"]
    workloads = [w for w in a.workloads.split(",") if w]
    for w in workloads:
        if w not in ("fresh", "put", "update"):
            ap.error(f"unknown workload {w}")
    if a.rate:
        if workloads != ["fresh"]:
            ap.error("--rate drives the fresh workload only")
        tail.build_latc(os.path.join(os.path.dirname(BENCH), "build", "bench", "micro_http"))
    steady = (a.steady, a.steady_rate) if a.steady else None
    phases = ["first", "steady"] if steady else ["first"]
    res = {}
    print(f"load average at start: {os.getloadavg()}", flush=True)
    for r in range(a.rounds):
        for b in a.binaries:
            for w in workloads:
                for v in ["plain"] + views:
                    out = one_run(b, w, v, a.seconds, a.conns, not a.no_rt, a.keys, steady,
                                  a.durable, a.rate, a.pretouch)
                    for ph in phases:
                        us, rps, flt = out[ph]
                        res.setdefault((b, w, v, ph), []).append(us)
                        print(f"round {r} {b} {w} {v} {ph}: {us:.1f} CPU µs/req, {rps:.0f} req/s, "
                              f"{flt:.2f} faults/req, load {os.getloadavg()[0]:.1f}", flush=True)
    print(f"load average at end: {os.getloadavg()}")
    for ph in phases:
        for w in workloads:
            base = statistics.median(res[(a.binaries[0], w, "plain", ph)])
            for b in a.binaries:
                p = statistics.median(res[(b, w, "plain", ph)])
                # No stream: this binary's plain runs against the first binary's, round by round.
                mine = [x / y for x, y in zip(res[(b, w, "plain", ph)],
                                              res[(a.binaries[0], w, "plain", ph)])]
                print(json.dumps({"binary": b, "workload": w, "phase": ph, "view": "plain",
                                  "plain_us": round(p, 1), "plain_over_first": round(p / base, 3),
                                  "median_round_ratio_to_first": round(statistics.median(mine), 3),
                                  "round_ratios_to_first": [round(x, 2) for x in mine]}))
                for v in views:
                    s = statistics.median(res[(b, w, v, ph)])
                    pairs = [x / y for x, y in zip(res[(b, w, v, ph)], res[(b, w, "plain", ph)])]
                    print(json.dumps({"binary": b, "workload": w, "phase": ph, "view": v,
                                      "plain_us": round(p, 1), "stream_us": round(s, 1),
                                      "stream_over_plain": round(s / p, 3),
                                      "median_round_ratio": round(statistics.median(pairs), 3),
                                      "round_ratios": [round(x, 2) for x in pairs],
                                      "plain_over_first": round(p / base, 3)}))


if __name__ == "__main__":
    main()
