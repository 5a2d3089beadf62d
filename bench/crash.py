#!/usr/bin/python3
"""kill -9 under concurrent load (issue 12): `sluice serve --data-dir` is killed with
SIGKILL at a random moment while writers are busy, restarted on the same directory, and
checked, --restarts times (default 20).

Each round, --writers connections (default 16) each loop over
  PutItem    a new item w<W>-<N> (never overwritten), and
  UpdateItem SET n = <N> on the writer's own counter item c<W>,
recording what was acknowledged (HTTP 200). After a random 0.3 to 1.5 s the server
gets SIGKILL; a request in flight then has no answer and its outcome is unknown. After
the restart, before the next round's writers start, the check:
  - every acknowledged PutItem of every round so far is there (Scan, consistent);
  - each counter is at least its last acknowledged value (a write in flight at the
    kill may also be there: it was committed but not yet acknowledged);
  - DescribeTable's ItemCount equals the items the Scan saw.

    bench/crash.py [--sluice build/sluice] [--restarts 20] [--writers 16]

Prints one line per round and exits non-zero on the first lost write. The short version
(3 restarts, boto3) is tests/conformance/test_durability.py.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import AUTH, call, wait_port  # noqa: E402

PORT = 8152


def request(conn, op, body):
    conn.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810." + op, "Authorization": AUTH})
    r = conn.getresponse()
    data = r.read()
    return r.status, data


def writer(w, round_no, acked_items, acked_counter, stop):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        i = 0
        while not stop.is_set():
            key = f"w{w}-{round_no}-{i}"
            st, _ = request(conn, "PutItem", {"TableName": "crash", "Item": {
                "pk": {"S": key}, "pad": {"S": "x" * 200}}})
            if st != 200:
                return
            acked_items.append(key)  # list.append is atomic
            st, _ = request(conn, "UpdateItem", {
                "TableName": "crash", "Key": {"pk": {"S": f"c{w}"}},
                "UpdateExpression": "SET n = :n",
                "ExpressionAttributeValues": {":n": {"N": str(round_no * 1_000_000 + i)}}})
            if st != 200:
                return
            acked_counter[w] = round_no * 1_000_000 + i
            i += 1
    except (OSError, http.client.HTTPException):
        return  # the kill: this request's outcome is unknown


def scan_all():
    items = {}
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=60)
    start = None
    while True:
        body = {"TableName": "crash", "ConsistentRead": True}
        if start:
            body["ExclusiveStartKey"] = start
        st, data = request(conn, "Scan", body)
        if st != 200:
            raise RuntimeError(f"Scan: {st} {data[:200]!r}")
        page = json.loads(data)
        for it in page["Items"]:
            items[it["pk"]["S"]] = it
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def start_server(binary, data):
    p = subprocess.Popen([binary, "serve", "--port", str(PORT), "--profile", "unlimited",
                          "--data-dir", data], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    wait_port(PORT)
    return p


def check(acked_items, acked_counter, round_no):
    items = scan_all()
    lost = [k for k in acked_items if k not in items]
    behind = [(w, n, items.get(f"c{w}", {}).get("n")) for w, n in acked_counter.items()
              if f"c{w}" not in items or int(items[f"c{w}"]["n"]["N"]) < n]
    count = call(PORT, "DescribeTable", {"TableName": "crash"})["Table"]["ItemCount"]
    return items, lost, behind, count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build", "sluice"))
    ap.add_argument("--restarts", type=int, default=20)
    ap.add_argument("--writers", type=int, default=16)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    data = tempfile.mkdtemp(prefix="sluice-crash-")
    acked_items, acked_counter = [], {}
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; "
          f"{a.writers} writers, {a.restarts} kills")
    p = start_server(a.sluice, data)
    failed = False
    try:
        call(PORT, "CreateTable", {
            "TableName": "crash",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST"})
        for round_no in range(1, a.restarts + 1):
            stop = threading.Event()
            before = len(acked_items)
            threads = [threading.Thread(target=writer, args=(w, round_no, acked_items,
                                                             acked_counter, stop))
                       for w in range(a.writers)]
            for t in threads:
                t.start()
            delay = rng.uniform(0.3, 1.5)
            time.sleep(delay)
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            stop.set()
            for t in threads:
                t.join()
            t0 = time.monotonic()
            p = start_server(a.sluice, data)
            up = time.monotonic() - t0
            items, lost, behind, count = check(acked_items, acked_counter, round_no)
            n_items = len(items)
            print(f"round {round_no:2}: killed after {delay:.2f} s, "
                  f"{len(acked_items) - before:5} PutItems acknowledged this round, "
                  f"{len(acked_items):6} in all; restart {up * 1000:.0f} ms; "
                  f"{n_items} items, ItemCount {count}; lost {len(lost)}, "
                  f"counters behind {len(behind)}", flush=True)
            if lost or behind or count != n_items:
                print(f"LOST: {lost[:10]} behind: {behind[:10]}")
                failed = True
                break
    finally:
        p.kill()
        p.wait()
        shutil.rmtree(data, ignore_errors=True)
    print("FAILED" if failed else f"ok: no acknowledged write lost in {a.restarts} kills")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
