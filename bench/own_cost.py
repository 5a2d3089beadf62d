#!/usr/bin/env python3
"""The own cost of `sluice bench` beside wrk's, in the same run (issue 17).

Starts `sluice serve --profile unlimited` pinned to one core, then, each pinned to
the other core, sends ~1 KB PutItems with wrk (bench/put.lua, closed loop, its fake
signature) and with `sluice bench` (open loop at --rate, every request SigV4-signed),
and reports for each: requests, requests/s, the client's CPU (user + system, its
processes included, from wait4) per request, the server's CPU per request, and the
bench/wrk ratio. The measured processes run at real-time priority (chrt -f) for short
bounded runs, so other work on the machine distorts them less; the load average is
printed. A measurement, never a test.

    bench/own_cost.py [--sluice build/sluice] [--seconds 5] [--rate 20000]
                      [--connections 64] [--repeats 2] [--no-rt] [--other OLD_SLUICE]
"""
import argparse
import json
import os
import re
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / CLK  # utime + stime


def children_cpu():
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def call(ep, target, body):
    req = urllib.request.Request(ep + "/", data=json.dumps(body).encode(), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810." + target,
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                         "aws4_request, SignedHeaders=host, Signature=0",
        "X-Amz-Date": "20261130T000000Z"})
    return json.load(urllib.request.urlopen(req, timeout=10))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--rate", type=int, default=20000)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--no-rt", action="store_true", help="no chrt -f (pinning only)")
    ap.add_argument("--other", help="a second sluice binary whose bench is measured too "
                    "(e.g. an older build), in the same run")
    args = ap.parse_args()

    def pin(core):
        return (["taskset", "-c", str(core)] if args.no_rt
                else ["chrt", "-f", "20", "taskset", "-c", str(core)])

    srv = subprocess.Popen(pin(1) + [args.sluice, "serve", "--profile", "unlimited", "--port",
                                     "0"], stdout=subprocess.PIPE, text=True)
    ep = srv.stdout.readline().split("listening on ", 1)[1].split()[0].rstrip("/")
    rows = []
    try:
        call(ep, "CreateTable", {
            "TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        for rep in range(args.repeats):
            tools = ["wrk", "bench"] + (["other"] if args.other else [])
            for tool in tools:
                s0, c0 = cpu_of(srv.pid), children_cpu()
                t0 = time.monotonic()
                if tool == "wrk":
                    cmd = pin(0) + ["wrk", "-t1", f"-c{args.connections}",
                                    f"-d{args.seconds:g}s", "-s",
                                    os.path.join(ROOT, "bench", "put.lua"), ep + "/"]
                    env = dict(os.environ, PUT_PREFIX=f"w{rep}-")
                    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
                    m = re.search(r"(\d+) requests in ([\d.]+)s", p.stdout)
                    n, secs = int(m.group(1)), float(m.group(2))
                    errors = len(re.findall(r"Non-2xx", p.stdout))
                    extra = "closed loop"
                else:
                    with tempfile.TemporaryDirectory() as d:
                        out = os.path.join(d, "r.json")
                        binary = args.other if tool == "other" else args.sluice
                        cmd = pin(0) + [binary, "bench", "--endpoint", ep, "--table",
                                        "bench", "--workload", "put", "--rate",
                                        str(args.rate), "--duration", f"{args.seconds:g}",
                                        "--item-size", "1000", "--keys", "100000000",
                                        "--connections", str(args.connections), "--seed",
                                        str(rep + 1), "--quiet", "--json", out]
                        p = subprocess.run(cmd, capture_output=True, text=True)
                        r = json.load(open(out))
                    t = r["totals"]
                    n, secs = t["sent"], args.seconds
                    errors = t["errors"] + t["throttled"]
                    extra = "open loop at %d/s: ok %d, p50 %.1f ms, p99 %.1f ms" % (
                        args.rate, t["ok"], t["p50_ms"], t["p99_ms"])
                wall = time.monotonic() - t0
                client = children_cpu() - c0
                server = cpu_of(srv.pid) - s0
                rows.append((tool, rep, n, secs, client, server, errors, extra, wall))
    finally:
        srv.terminate()
        srv.wait()
    load = open("/proc/loadavg").read().split()[:3]
    print(f"load average {' '.join(load)}; {'pinned' if args.no_rt else 'pinned, chrt -f 20'};"
          f" {args.connections} connections; {args.seconds:g} s runs")
    print(f"{'tool':6} {'run':>3} {'requests':>9} {'req/s':>8} {'client us/req':>14} "
          f"{'server us/req':>14} {'errors':>6}  notes")
    per = {"wrk": [], "bench": [], "other": []}
    for tool, rep, n, secs, client, server, errors, extra, wall in rows:
        cu = client / n * 1e6 if n else float("nan")
        per[tool].append(cu)
        print(f"{tool:6} {rep:3} {n:9} {n / secs:8.0f} {cu:14.1f} "
              f"{(server / n * 1e6 if n else float('nan')):14.1f} {errors:6}  {extra}")
    if per["wrk"] and per["bench"]:
        b, w = min(per["bench"]), min(per["wrk"])
        print(f"bench / wrk CPU per request (best of each): {b:.1f} / {w:.1f} us = {b / w:.2f}x")
    if per["other"]:
        o, w = min(per["other"]), min(per["wrk"])
        print(f"other / wrk CPU per request (best of each): {o:.1f} / {w:.1f} us = {o / w:.2f}x")


if __name__ == "__main__":
    main()
