#!/usr/bin/python3
"""Connection storms and slow clients (issue 12): one-connection GetItem latency
(bench/latc.c, closed loop) while the server is under each of these, next to the same
measurement on the quiet server in the same run:

  storm     N connections (default 10,000) opened at once, each sending one GetItem and
            staying open; latc runs while they connect and are answered
  idle      the same N connections held open, idle
  slowloris S connections (default 2,000) in the middle of a request: half trickle
            header lines, half trickle a 1,000-byte body, one piece per connection
            every 0.5 s, for the whole row
  limit     a second server with --max-connections M (default 2,000) gets M + 1,000
            connections: M are answered 200, the rest 503 ServiceUnavailableException

    bench/storm.py [--sluice build/sluice] [--conns 10000] [--slow 2000] [--seconds 5]

Everything is bounded: each row runs --seconds, the whole script about a minute.
Numbers are measurements, never assertions; the short versions of these checks are
unit tests in tests/unit/net/test_server.c.
"""
import argparse
import errno
import json
import os
import resource
import selectors
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import AUTH, Proc, wait_port  # noqa: E402
import tail  # noqa: E402  (latc and its build)

PORT = 8150


def get_request(i):
    body = json.dumps({"TableName": "bench", "Key": {"pk": {"S": f"g{i % 10000}"}}})
    return (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
            f"X-Amz-Target: DynamoDB_20120810.GetItem\r\nAuthorization: {AUTH}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body}").encode()


class Storm:
    """N non-blocking connections, each sends one request and keeps what it reads."""

    def __init__(self, port, n):
        self.port, self.n = port, n
        self.status = {}  # status code -> count
        self.connect_errors = 0
        self.open = []
        self.seconds = None

    def run(self, deadline_s=60.0):
        sel = selectors.EpollSelector()
        t0 = time.monotonic()
        pending = {}
        for i in range(self.n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            rc = s.connect_ex(("127.0.0.1", self.port))
            if rc not in (0, errno.EINPROGRESS):
                self.connect_errors += 1
                s.close()
                continue
            pending[s.fileno()] = [s, get_request(i), b""]
            sel.register(s, selectors.EVENT_WRITE)
            self.open.append(s)
            if i % 500 == 499:  # serve events while connecting, as a real storm would
                self._pump(sel, pending, 0)
        while pending and time.monotonic() - t0 < deadline_s:
            self._pump(sel, pending, 0.05)
        self.seconds = time.monotonic() - t0
        for fd, (s, _, _) in list(pending.items()):
            self.status["none"] = self.status.get("none", 0) + 1
        sel.close()

    def _pump(self, sel, pending, timeout):
        for key, ev in sel.select(timeout):
            st = pending.get(key.fd)
            if st is None:
                continue
            s = st[0]
            try:
                if ev & selectors.EVENT_WRITE:
                    s.send(st[1])
                    sel.modify(s, selectors.EVENT_READ)
                    continue
                data = s.recv(65536)
            except OSError:
                data = b""
            st[2] += data
            head, sep, rest = st[2].partition(b"\r\n\r\n")
            done = not data
            if sep:
                cl = [int(h.split(b":")[1]) for h in head.split(b"\r\n")
                      if h.lower().startswith(b"content-length:")]
                done = done or len(rest) >= (cl[0] if cl else 0)
            if done:
                code = head[9:12].decode() if head.startswith(b"HTTP/1.1 ") else "reset"
                self.status[code] = self.status.get(code, 0) + 1
                sel.unregister(s)
                del pending[key.fd]

    def close(self):
        for s in self.open:
            s.close()
        self.open = []


def slowloris(port, n, seconds, stop):
    """n connections in the middle of a request, one piece each every 0.5 s."""
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        s.send(b"POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n" if i % 2 else
               b"POST / HTTP/1.1\r\n")
        socks.append(s)
    t_end = time.monotonic() + seconds
    while not stop.is_set() and time.monotonic() < t_end:
        for i, s in enumerate(socks):
            try:
                s.send(b"x" if i % 2 else b"X-Slow: y\r\n")
            except OSError:
                pass
        stop.wait(0.5)
    for s in socks:
        s.close()


def row(label, port, seconds, pid):
    r = tail.latc(port, seconds, "get", 0)
    print(f"{label:<44}{r['requests'] / seconds:>9,.0f}{int(r['p50']):>8}{tail.ms(r['p99']):>9}"
          f"{tail.ms(r['p999']):>9}{tail.ms(r['max']):>9}{int(r['over10ms']):>7}"
          f"{int(r['errors']):>7}", flush=True)
    return r


def start(binary, port, extra=()):
    p = Proc([binary, "serve", "--port", str(port), "--profile", "unlimited", *extra])
    wait_port(port)
    tail.bench_table(port)
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(tail.ROOT, "build", "sluice"))
    ap.add_argument("--micro-http", default=os.path.join(tail.ROOT, "build", "bench",
                                                         "micro_http"))
    ap.add_argument("--conns", type=int, default=10000)
    ap.add_argument("--slow", type=int, default=2000)
    ap.add_argument("--limit", type=int, default=2000)
    ap.add_argument("--seconds", type=int, default=5)
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.conns + a.slow + a.limit + 2000
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    tail.build_latc(a.micro_http)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; "
          f"GetItem at 1 connection (bench/latc, closed loop), {a.seconds} s per row\n")
    print(f"{'':<44}{'req/s':>9}{'p50 us':>8}{'p99 ms':>9}{'p99.9':>9}{'max ms':>9}"
          f"{'>10ms':>7}{'errors':>7}")
    p = start(a.sluice, PORT)
    try:
        pid = p.p.pid
        tail.latc(PORT, 1, "get", 0)  # warm-up
        row("quiet", PORT, a.seconds, pid)
        storm = Storm(PORT, a.conns)
        before = tail.proc_sample(pid)
        th = threading.Thread(target=storm.run)
        th.start()
        row(f"while {a.conns:,} connections open and ask", PORT, a.seconds, pid)
        th.join()
        after = tail.proc_sample(pid)
        heap = (after["rss"] - after["storage"]) - (before["rss"] - before["storage"])
        print(f"  -> {a.conns:,} connections answered in {storm.seconds:.2f} s: {storm.status}"
              f", connect errors {storm.connect_errors}; server resident "
              f"{after['rss'] / 1024:.0f} MB ({after['storage'] / 1024:.0f} MB of it the table),"
              f" {heap * 1024 / max(len(storm.open), 1):,.0f} bytes more per open connection")
        row(f"with {len(storm.open):,} idle connections open", PORT, a.seconds, pid)
        storm.close()
        row("quiet again", PORT, a.seconds, pid)
        stop = threading.Event()
        th = threading.Thread(target=slowloris, args=(PORT, a.slow, a.seconds + 2, stop))
        th.start()
        time.sleep(1.0)
        row(f"during slowloris ({a.slow:,} slow heads and bodies)", PORT, a.seconds, pid)
        stop.set()
        th.join()
        row("quiet after", PORT, a.seconds, pid)
    finally:
        p.stop()
    q = start(a.sluice, PORT + 1, ["--max-connections", str(a.limit)])
    try:
        storm = Storm(PORT + 1, a.limit + 1000)
        storm.run()
        print(f"\n--max-connections {a.limit:,}, {a.limit + 1000:,} connections: {storm.status}"
              f" in {storm.seconds:.2f} s, connect errors {storm.connect_errors}")
        storm.close()
        time.sleep(0.5)
        r = tail.latc(PORT + 1, 1, "get", 0)
        print(f"after they closed: latc {int(r['requests']):,} requests, {int(r['errors'])} "
              f"errors")
    finally:
        q.stop()


if __name__ == "__main__":
    sys.exit(main())
