#!/usr/bin/python3
"""The mixed soak (issue 12, part 4): every data-plane operation for a long time at a
steady offered rate, checking that memory stays flat after warm-up and that no request
fails.

    bench/soak.py [--minutes 30] [--rate 400] [--threads 4] [--keys 20000]
                  [--warmup-minutes 5] [--sluice build/sluice] [--data-dir] [--port 8171]

It starts a fresh `sluice serve --profile unlimited` (so that nothing throttles: a
throttle would be the model working, not an error), creates a table with a sort key, a
GSI (ALL) and TTL, and runs --threads client threads, each on one keep-alive
connection, issuing a fixed mix at --rate requests a second in all: PutItem, GetItem
(eventual and strong), UpdateItem (ADD, SET), DeleteItem, Query (table and GSI, pages of
25), Scan (pages of 50), BatchWriteItem and BatchGetItem (10 items), TransactWriteItems
and TransactGetItems (2 items), PutItem of items whose TTL has passed (so the TTL
job deletes items all the time), ConditionCheckFailed by design (a conditional put on
an existing key, counted apart). Keys are drawn from --keys partition keys × 4 sort
keys, so the table reaches a steady size during warm-up; item sizes vary from 100 bytes
to 4 KB.

Every 10 s it samples the server's resident memory (VmRSS), its heap-and-stack part
(VmRSS minus the table data's resident pages, bench/procmem.py, in memory mode; minus
RssFile with --data-dir), the table data's bytes (in memory: resident, procmem.py; with
--data-dir: the storage file's allocated bytes), the item count, the request counts and errors. At the end it prints the samples
and the verdict: any error (an HTTP status other than 200, or a DynamoDB error other
than the designed ConditionalCheckFailedException) fails the run; memory is "flat"
when the largest sample after warm-up is within 5 % (or 2 MB) of the first one after
warm-up, for resident memory, the heap part and the storage file. Exit status 0 when
both hold. Bounded: the server is killed at the end whatever happens, the run stops
after --minutes. A measurement, never an assertion in `make test` (its short version is
--minutes 1, run by hand).
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from memory import Conn, storage_file, status  # bench/memory.py  # noqa: E402
import procmem  # bench/procmem.py  # noqa: E402
from run import wait_port  # bench/run.py  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORT = 8171
T = "soak"


def set_port(port):
    global PORT
    PORT = port


class Worker(threading.Thread):
    def __init__(self, idx, a, deadline, stats, lock):
        super().__init__(daemon=True)
        self.rng = random.Random(1000 + idx)
        self.a = a
        self.deadline = deadline
        self.stats = stats
        self.lock = lock
        self.conn = Conn(PORT)
        self.interval = a.threads / a.rate

    def key(self):
        return {"pk": {"S": f"p{self.rng.randrange(self.a.keys)}"},
                "sk": {"N": str(self.rng.randrange(4))}}

    def item(self, ttl_past=False):
        it = self.key()
        it["g"] = {"S": f"g{self.rng.randrange(100)}"}
        it["pad"] = {"S": "%x" % self.rng.getrandbits(64) * self.rng.randrange(6, 256)}
        it["n"] = {"N": str(self.rng.randrange(10**9))}
        if ttl_past:
            it["exp"] = {"N": str(int(time.time()) - 60)}
        return it

    def one(self):
        r = self.rng.random()
        if r < 0.20:
            return "PutItem", {"TableName": T, "Item": self.item()}
        if r < 0.40:
            return "GetItem", {"TableName": T, "Key": self.key(),
                               "ConsistentRead": self.rng.random() < 0.5}
        if r < 0.52:
            return "UpdateItem", {"TableName": T, "Key": self.key(),
                                  "UpdateExpression": "ADD c :one SET g = :g",
                                  "ExpressionAttributeValues": {
                                      ":one": {"N": "1"}, ":g": {"S": "g%d" % self.rng.randrange(100)}}}
        if r < 0.60:
            return "DeleteItem", {"TableName": T, "Key": self.key()}
        if r < 0.66:
            return "Query", {"TableName": T, "Limit": 25,
                             "KeyConditionExpression": "pk = :p",
                             "ExpressionAttributeValues": {":p": self.key()["pk"]}}
        if r < 0.70:
            return "Query", {"TableName": T, "IndexName": "by_g", "Limit": 25,
                             "KeyConditionExpression": "g = :g",
                             "ExpressionAttributeValues": {":g": {"S": "g%d" % self.rng.randrange(100)}}}
        if r < 0.72:
            start = {"ExclusiveStartKey": self.key()} if self.rng.random() < 0.8 else {}
            return "Scan", dict({"TableName": T, "Limit": 50}, **start)
        if r < 0.78:
            items, seen = [], set()
            while len(items) < 10:
                it = self.item()
                k = (it["pk"]["S"], it["sk"]["N"])
                if k not in seen:
                    seen.add(k)
                    items.append({"PutRequest": {"Item": it}})
            return "BatchWriteItem", {"RequestItems": {T: items}}
        if r < 0.84:
            keys = {(k["pk"]["S"], k["sk"]["N"]): k for k in (self.key() for _ in range(10))}
            return "BatchGetItem", {"RequestItems": {T: {"Keys": list(keys.values())}}}
        if r < 0.89:
            a, b = self.key(), self.key()
            while a == b:
                b = self.key()
            return "TransactWriteItems", {"TransactItems": [
                {"Put": {"TableName": T, "Item": dict(self.item(), **a)}},
                {"Update": {"TableName": T, "Key": b, "UpdateExpression": "ADD c :one",
                            "ExpressionAttributeValues": {":one": {"N": "1"}}}}]}
        if r < 0.93:
            a, b = self.key(), self.key()
            while a == b:
                b = self.key()
            return "TransactGetItems", {"TransactItems": [
                {"Get": {"TableName": T, "Key": a}}, {"Get": {"TableName": T, "Key": b}}]}
        if r < 0.98:
            return "PutItem", {"TableName": T, "Item": self.item(ttl_past=True)}
        # Designed failure: a conditional put that fails when the key exists.
        return "PutItem", {"TableName": T, "Item": self.item(),
                           "ConditionExpression": "attribute_exists(nope)"}

    def run(self):
        next_at = time.monotonic()
        local = {"requests": 0, "errors": 0, "conditional": 0}
        while True:
            now = time.monotonic()
            if now >= self.deadline:
                break
            if now < next_at:
                time.sleep(next_at - now)
            next_at += self.interval
            op, body = self.one()
            try:
                self.conn.call(op, body)
            except RuntimeError as e:
                if "ConditionalCheckFailedException" in str(e):
                    local["conditional"] += 1
                else:
                    local["errors"] += 1
                    with self.lock:
                        self.stats.setdefault("samples_of_errors", []).append(str(e)[:300])
            except OSError as e:
                local["errors"] += 1
                with self.lock:
                    self.stats.setdefault("samples_of_errors", []).append(f"{op}: {e!r}")
                self.conn = Conn(PORT)
            local["requests"] += 1
            if local["requests"] % 200 == 0:
                self.flush(local)
        self.flush(local)

    def flush(self, local):
        with self.lock:
            for k, v in local.items():
                self.stats[k] = self.stats.get(k, 0) + v
                local[k] = 0


def flat(values, what):
    base, top = values[0], max(values)
    ok = top <= base * 1.05 or top - base <= 2 << 20
    return ok, f"{what}: {base / 2**20:.1f} MB after warm-up, at most {top / 2**20:.1f} MB later " \
               f"({'flat' if ok else 'GROWS'})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--warmup-minutes", type=float, default=5)
    ap.add_argument("--rate", type=float, default=400, help="requests a second, all threads")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--keys", type=int, default=20000)
    ap.add_argument("--sluice", default=os.path.join(ROOT, "build", "sluice"))
    ap.add_argument("--data-dir", action="store_true", help="a fresh --data-dir instead of memory")
    ap.add_argument("--port", type=int, default=PORT)
    a = ap.parse_args()
    set_port(a.port)
    tmp = tempfile.mkdtemp(prefix="sluice-soak-")
    cmd = [a.sluice, "serve", "--port", str(PORT), "--profile", "unlimited"]
    if a.data_dir:
        cmd += ["--data-dir", os.path.join(tmp, "data")]
    srv = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "log"), "w"))
    ok = False
    try:
        wait_port(PORT)
        c = Conn(PORT)
        c.call("CreateTable", {
            "TableName": T, "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t}
                                     for n, t in (("pk", "S"), ("sk", "N"), ("g", "S"))],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [{"IndexName": "by_g", "Projection": {"ProjectionType": "ALL"},
                                        "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}]})
        c.call("UpdateTimeToLive", {"TableName": T, "TimeToLiveSpecification": {
            "Enabled": True, "AttributeName": "exp"}})
        t0 = time.monotonic()
        deadline = t0 + a.minutes * 60
        stats, lock = {}, threading.Lock()
        workers = [Worker(i, a, deadline, stats, lock) for i in range(a.threads)]
        for w in workers:
            w.start()
        samples = []
        print(f"soak: {a.minutes:g} min at {a.rate:g} requests/s on {a.threads} connections, "
              f"{a.keys:,} × 4 keys, {'--data-dir' if a.data_dir else 'in memory'}", flush=True)
        print(f"{'min':>6} {'requests':>9} {'errors':>6} {'cond':>6} {'items':>7} "
              f"{'RSS MB':>7} {'heap MB':>7} {'data MB':>7} {'load':>5}", flush=True)
        while time.monotonic() < deadline:
            time.sleep(min(10, max(0.1, deadline - time.monotonic())))
            st = status(srv.pid)
            rss, shm = st.get("VmRSS", 0), procmem.storage_kb(srv.pid) * 1024
            alloc = storage_file(srv.pid)[0] if a.data_dir else shm
            heap = rss - shm if not a.data_dir else rss - min(rss, st.get("RssFile", 0))
            items = c.call("DescribeTable", {"TableName": T})["Table"]["ItemCount"]
            m = (time.monotonic() - t0) / 60
            with lock:
                snap = dict(stats)
            samples.append((m, rss, heap, alloc))
            print(f"{m:6.1f} {snap.get('requests', 0):9,} {snap.get('errors', 0):6} "
                  f"{snap.get('conditional', 0):6} {items:7,} {rss / 2**20:7.1f} {heap / 2**20:7.1f} "
                  f"{alloc / 2**20:7.1f} {os.getloadavg()[0]:5.1f}", flush=True)
        for w in workers:
            w.join(timeout=30)
        after = [s for s in samples if s[0] >= a.warmup_minutes]
        errors = stats.get("errors", 0)
        print(f"requests {stats.get('requests', 0):,}, errors {errors}, designed conditional "
              f"failures {stats.get('conditional', 0):,}, server alive: {srv.poll() is None}")
        for e in stats.get("samples_of_errors", [])[:10]:
            print("  error:", e)
        verdicts = []
        if len(after) >= 2:
            for i, what in ((1, "resident"), (2, "heap (resident minus storage)"), (3, "table data")):
                good, text = flat([s[i] for s in after], what)
                verdicts.append(good)
                print(text)
        else:
            print("too short for a memory verdict (fewer than two samples after warm-up)")
        ok = errors == 0 and srv.poll() is None and all(verdicts)
        print("verdict:", "PASS" if ok else "FAIL")
    finally:
        srv.kill()
        srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
