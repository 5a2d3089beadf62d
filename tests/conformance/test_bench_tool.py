"""`sluice bench`, the open-loop load generator (src/tools/bench.h), end to end.

The workload tests run against any endpoint (DynamoDB Local too): every operation
the schedule offers is sent and answered, and the table the run created is gone
afterwards. The capacity tests run against a private sluice: on the manual clock
the counts are exact (a provisioned table's 300 s of burst, then throttles with
the service's exception and ThrottlingReason), and they equal the server's own
metrics. The fault tests use a fake endpoint that never answers a data-plane
request, kill an executor, and interrupt a run.
"""
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time

import pytest

from conftest import ROOT, Server, admin, sluice_bin

BIN = sluice_bin()
ENV = dict(os.environ, AWS_ACCESS_KEY_ID="AKIAIOSFODNN7EXAMPLE",
           AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
           AWS_DEFAULT_REGION="us-east-1")


def bench(endpoint, *args, tmp_path=None, timeout=60, env=ENV):
    """Runs sluice bench; returns (exit code, stdout, stderr, the JSON report)."""
    out = os.path.join(str(tmp_path), "bench.json") if tmp_path else None
    cmd = [BIN, "bench", "--endpoint", endpoint, "--quiet", *args]
    if out:
        cmd += ["--json", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    report = None
    if out and os.path.exists(out):
        with open(out) as f:
            report = json.load(f)
    return p.returncode, p.stdout, p.stderr, report


def created_table(stderr):
    m = re.search(r"created table (\S+)", stderr)
    assert m, stderr
    return m.group(1)


# Every workload sends exactly what the schedule offers, each request is
# answered, and the table the run created is deleted in its finally.
@pytest.mark.parametrize("workload", [
    "put", "get", "get-strong", "update", "query", "scan", "batch-write", "batch-get",
    "transact-write", "put:2,get:1,update:1"])
def test_workloads(endpoint, ddb, tmp_path, workload):
    rc, out, err, rep = bench(endpoint, "--workload", workload, "--schedule", "20@1,40@0.5",
                              "--keys", "30", "--prefill", "10", "--collection", "3",
                              "--batch", "5", "--page-size", "2", "--pages", "2",
                              tmp_path=tmp_path)
    assert rc == 0, (out, err)
    t = rep["totals"]
    assert t["offered"] == 40 and rep["complete"], rep
    assert t["errors"] == 0 and t["throttled"] == 0, t
    if workload in ("query", "scan"):
        # Each operation follows up to two pages: more requests than operations.
        assert t["ok"] == t["sent"] > 40
    else:
        assert t["ok"] == t["sent"] == 40
    assert [w["scheduled"] for w in rep["windows"]] == [20, 20]
    units = t["read_units"] + t["write_units"]
    assert units > 0
    table = created_table(err)
    assert f"deleted table {table}" in err
    assert table not in ddb.list_tables()["TableNames"]


# An existing table is used as it is (its key schema read from DescribeTable,
# numeric keys included) and never deleted.
def test_existing_table_is_kept(endpoint, ddb, make_table, tmp_path):
    name = make_table(hash_key=("id", "N"))
    rc, out, err, rep = bench(endpoint, "--table", name, "--workload", "put:1,get:1",
                              "--rate", "30", "--duration", "1", tmp_path=tmp_path)
    assert rc == 0, (out, err)
    assert rep["totals"]["ok"] == 30
    assert "deleted" not in err
    assert name in ddb.list_tables()["TableNames"]
    items = ddb.scan(TableName=name)["Items"]
    assert items and all(set(i) <= {"id", "data"} and "N" in i["id"] for i in items)


# Latency runs from the scheduled send time and the key distributions reach
# the table: sequential keys write exactly keys 0..N-1.
def test_sequential_keys_and_text_report(endpoint, ddb, make_table):
    name = make_table()
    p = subprocess.run([BIN, "bench", "--endpoint", endpoint, "--table", name, "--rate", "25",
                        "--duration", "2", "--keys", "50", "--key-dist", "sequential"],
                       capture_output=True, text=True, timeout=60, env=ENV)
    assert p.returncode == 0, p.stderr
    keys = sorted(i["pk"]["S"] for i in ddb.scan(TableName=name)["Items"])
    assert keys == [f"k{i:010d}" for i in range(50)]
    rows = [l.split() for l in p.stdout.splitlines() if re.match(r"\s+\d+\s+\d+", l)]
    # second, offered, ok (sent belongs to the second it went out: it may slip)
    assert [[r[0], r[1], r[3]] for r in rows[:2]] == [["0", "25", "25"], ["1", "25", "25"]]
    assert "latency from the scheduled time" in p.stdout


# Bad flags are refused before anything is created, with a message.
def test_usage_errors(endpoint):
    for args, word in ((["--workload", "nope"], "--workload"),
                       (["--schedule", "100"], "@SECONDS"),
                       (["--key-dist", "zipf:0"], "zipf"),
                       (["--batch", "30", "--workload", "batch-write"], "25"),
                       (["--timeout", "0"], "--timeout")):
        p = subprocess.run([BIN, "bench", "--endpoint", endpoint, *args], capture_output=True,
                           text=True, timeout=30, env=ENV)
        assert p.returncode == 2 and word in p.stderr, (args, p.stderr)
    p = subprocess.run([BIN, "bench"], capture_output=True, text=True, timeout=30)
    assert p.returncode == 2 and "--endpoint" in p.stderr


# A run estimated above --max-cost needs --yes: nothing is created without it.
def test_cost_gate(endpoint):
    p = subprocess.run([BIN, "bench", "--endpoint", endpoint, "--rate", "2000", "--duration",
                        "600", "--item-size", "4000"], capture_output=True, text=True,
                       timeout=30, env=ENV)
    assert p.returncode == 2
    assert "above --max-cost $1.00" in p.stderr and "created" not in p.stderr
    # 1,200,000 operations capped at --max-ops 1,000,000, 4 write units each.
    assert re.search(r"1000000 operations .* estimated 0 read and 4000000 write units, \$2\.5000",
                     p.stderr), p.stderr


def provisioned_server():
    return Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z"])


def datapoints(ep, table, metric):
    status, body = admin(ep, "GET", f"/_sluice/metrics?table={table}&metric={metric}"
                         "&period=3600&start=2026-11-30T00:00:00Z&end=2026-12-01T00:00:00Z")
    assert status == 200, body
    return body["Datapoints"]


# On the manual clock a provisioned table of 1 WCU holds exactly 300 s of
# burst: 400 one-KB puts give 300 accepted and 100 throttled with
# ProvisionedThroughputExceededException / TableWriteProvisionedThroughput-
# Exceeded, the first at exactly 3.000 s (operation 300 of 100/s). The
# server's own metrics count the same numbers.
@pytest.mark.capacity
def test_manual_clock_exact_counts(tmp_path):
    srv = provisioned_server()
    try:
        from conftest import Client
        c = Client(srv.endpoint)
        c.create_table("prov", ProvisionedThroughput={"ReadCapacityUnits": 1,
                                                      "WriteCapacityUnits": 1})
        rc, out, err, rep = bench(srv.endpoint, "--table", "prov", "--rate", "100",
                                  "--duration", "4", "--keys", "1000000", tmp_path=tmp_path)
        assert rc == 0, (out, err)
        t = rep["totals"]
        assert (t["offered"], t["sent"], t["ok"], t["throttled"], t["errors"]) == \
            (400, 400, 300, 100, 0)
        assert t["counts"] == {"exc:ProvisionedThroughputExceededException": 100,
                               "reason:TableWriteProvisionedThroughputExceeded": 100}
        assert t["write_units"] == 300
        assert rep["windows"][0]["first_throttle_s"] == 3.0
        assert [s["ok"] for s in rep["seconds"][:4]] == [100, 100, 100, 0]
        # The server counted the same requests.
        assert sum(d["Sum"] for d in datapoints(srv.endpoint, "prov",
                                                "ConsumedWriteCapacityUnits")) == 300
        assert sum(d["Sum"] for d in datapoints(srv.endpoint, "prov", "WriteThrottleEvents")) \
            == 100
        assert sum(d["SampleCount"] for d in datapoints(srv.endpoint, "prov",
                                                        "SuccessfulRequestLatency")) == 300
    finally:
        srv.stop()


# A step from under to over a provisioned table's rate (real clock, burst cut
# to 1 s by --config): the first window is never throttled, the second is,
# with the table's reason, and accepts about the provisioned rate.
@pytest.mark.capacity
def test_step_over_provisioned_rate(tmp_path):
    conf = tmp_path / "cap.conf"
    conf.write_text("burst_seconds = 1\ninitial_burst_ms = 1000\n")
    srv = Server(["--config", str(conf)])
    try:
        from conftest import Client
        c = Client(srv.endpoint)
        c.create_table("step", ProvisionedThroughput={"ReadCapacityUnits": 50,
                                                      "WriteCapacityUnits": 50})
        rc, out, err, rep = bench(srv.endpoint, "--table", "step", "--schedule",
                                  "25@2,200@3", "--keys", "1000000", tmp_path=tmp_path)
        assert rc == 0, (out, err)
        sec = rep["seconds"]
        assert sum(s["throttled"] for s in sec[:2]) == 0
        assert rep["windows"][0]["first_throttle_s"] is None
        assert 0 <= rep["windows"][1]["first_throttle_s"] < 1.0
        ok2 = sum(s["ok"] for s in sec[2:5])
        assert 150 <= ok2 <= 260, sec  # 3 s at 50/s plus about 1 s of burst
        assert rep["totals"]["counts"]["reason:TableWriteProvisionedThroughputExceeded"] == \
            rep["totals"]["throttled"] == 600 - ok2
    finally:
        srv.stop()


class StallServer:
    """A fake endpoint: answers DescribeTable, never answers anything else (the
    connection stays open, silent)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.endpoint = "http://127.0.0.1:%d" % self.sock.getsockname()[1]
        self.held = []
        self.stopped = False
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def serve(self, conn):
        buf = b""
        while True:
            while b"\r\n\r\n" not in buf:
                data = conn.recv(65536)
                if not data:
                    return
                buf += data
            head, rest = buf.split(b"\r\n\r\n", 1)
            n = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            while len(rest) < n:
                rest += conn.recv(65536)
            buf = rest[n:]
            if b"DescribeTable" in head:
                body = json.dumps({"Table": {
                    "TableName": "t", "TableStatus": "ACTIVE",
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                    "AttributeDefinitions": [{"AttributeName": "pk",
                                              "AttributeType": "S"}]}}).encode()
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
                             b"Content-Length: %d\r\n\r\n" % len(body) + body)
            else:
                self.held.append(conn)  # silent: never answered
                return

    def stop(self):
        self.stopped = True
        self.sock.close()
        for c in self.held:
            c.close()


# A request without a reply is cut by the per-request timeout, counted as a
# Timeout, and the run ends on time.
def test_stalled_endpoint_times_out(tmp_path):
    s = StallServer()
    try:
        t0 = time.monotonic()
        rc, out, err, rep = bench(s.endpoint, "--table", "t", "--rate", "20", "--duration", "1",
                                  "--timeout", "500", tmp_path=tmp_path)
        assert time.monotonic() - t0 < 5
        assert rc == 0, (out, err)
        t = rep["totals"]
        assert (t["offered"], t["sent"], t["ok"], t["errors"]) == (20, 20, 0, 20)
        assert t["counts"] == {"err:Timeout": 20}
    finally:
        s.stop()


# Past its deadline the watchdog stops the executor: partial counts, a
# snapshot of every request still in flight, and a non-zero exit status.
def test_watchdog_partial_counts(tmp_path):
    s = StallServer()
    try:
        t0 = time.monotonic()
        rc, out, err, rep = bench(s.endpoint, "--table", "t", "--rate", "10", "--duration", "3",
                                  "--timeout", "8000", "--watchdog", "1.5", tmp_path=tmp_path)
        assert time.monotonic() - t0 < 6
        assert rc == 3, (out, err)
        assert "stopped by its watchdog: partial counts" in out
        t = rep["totals"]
        assert t["offered"] == t["sent"] == 15 and t["ok"] == 0 and t["errors"] == 0, t
        snap = rep["in_flight_when_stopped"].strip().splitlines()
        assert len(snap) == 15 and all("put" in l and "waiting-for-reply" in l for l in snap)
    finally:
        s.stop()


def children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(x) for x in f.read().split()]


# An executor killed mid-run is reported, not silently missing; the others'
# counts are still summed.
@pytest.mark.sluice_only
def test_killed_executor_is_reported(endpoint, tmp_path):
    out = tmp_path / "r.json"
    p = subprocess.Popen([BIN, "bench", "--endpoint", endpoint, "--executors", "2",
                          "--rate", "40", "--duration", "3", "--quiet", "--json", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    kids = []
    for _ in range(100):
        time.sleep(0.05)
        kids = children(p.pid)
        if len(kids) == 2:
            break
    assert len(kids) == 2
    time.sleep(1.2)
    os.kill(kids[1], signal.SIGKILL)
    stdout, stderr = p.communicate(timeout=30)
    assert p.returncode == 3, (stdout, stderr)
    assert f"executor 1 (pid {kids[1]}) was killed by signal 9" in stdout
    assert "executor 1 wrote no results" in stdout or "incomplete" in stdout
    rep = json.loads(out.read_text())
    assert rep["complete"] is False
    assert rep["totals"]["offered"] == 60  # executor 0's half of 120
    assert "deleted table" in stderr


# Ctrl-C stops the executors (partial counts) and still deletes the table.
@pytest.mark.sluice_only
def test_interrupt_deletes_table(endpoint, ddb):
    p = subprocess.Popen([BIN, "bench", "--endpoint", endpoint, "--rate", "50",
                          "--duration", "30", "--quiet"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=30)
    assert p.returncode == 130, (stdout, stderr)
    table = created_table(stderr)
    assert f"deleted table {table}" in stderr
    assert "interrupted: partial counts" in stdout
    assert table not in ddb.list_tables()["TableNames"]


# An executor that starts later than --late-tolerance after T0 does not run,
# and the run says so; one whose results file already exists (ran twice) is
# an error too.
@pytest.mark.sluice_only
def test_late_and_repeated_executors(endpoint, make_table, tmp_path):
    name = make_table()
    rc, out, err, _ = bench(endpoint, "--table", name, "--rate", "10", "--duration", "1",
                            "--start-in", "0", "--late-tolerance", "0")
    assert rc == 3 and re.search(r"executor 0 started \d+ ms after T0 and did not run", out), out
    d = tmp_path / "results"
    d.mkdir()
    (d / "executor-0.txt").write_text("")
    rc, out, err, _ = bench(endpoint, "--table", name, "--rate", "10", "--duration", "1",
                            "--results-dir", str(d))
    assert rc == 3 and "ran twice" in err, (out, err)


def readme_command():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    m = re.search(r"<!-- bench-aws -->\n```\n(.*?)```", text, re.S)
    assert m, "README lacks the bench command block"
    return m.group(1)


# The README's command for a measurement against AWS runs verbatim against
# sluice verifying signatures (--auth sigv4): only the environment differs.
@pytest.mark.sluice_only
def test_readme_command_signed(tmp_path):
    creds = tmp_path / "keys.txt"
    creds.write_text("AKIABENCHEXAMPLE benchSecretExample\n")
    srv = Server(["--auth", "sigv4", "--credentials", str(creds), "--region", "eu-west-1"])
    try:
        home = tmp_path / "home"
        (home / ".aws").mkdir(parents=True)
        (home / ".aws" / "credentials").write_text(
            "[bench]\naws_access_key_id = AKIABENCHEXAMPLE\n"
            "aws_secret_access_key = benchSecretExample\n")
        (home / ".aws" / "config").write_text("[profile bench]\nregion = eu-west-1\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(HOME=str(home), ENDPOINT=srv.endpoint, PATH=os.path.dirname(BIN) + ":" +
                   env.get("PATH", ""))
        cmd = readme_command()
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120,
                           env=env, cwd=str(tmp_path))
        assert p.returncode == 0, (p.stdout, p.stderr)
        assert "region eu-west-1" in p.stderr and "[bench]" in p.stderr
        rep = json.loads((tmp_path / "bench.json").read_text())
        t = rep["totals"]
        assert t["errors"] == 0 and t["ok"] == t["sent"] == 10000, t
        assert "<svg" in (tmp_path / "bench.html").read_text()
        assert "deleted table" in p.stderr
        # A wrong secret is refused by the server: every request is an error.
        (home / ".aws" / "credentials").write_text(
            "[bench]\naws_access_key_id = AKIABENCHEXAMPLE\naws_secret_access_key = wrong\n")
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120,
                           env=env, cwd=str(tmp_path))
        assert p.returncode == 1 and "InvalidSignatureException" in p.stderr, p.stderr
    finally:
        srv.stop()


class TlsProxy:
    """A TLS front (self-signed certificate for localhost and 127.0.0.1) that
    forwards each connection's bytes to a plain-HTTP endpoint."""

    def __init__(self, upstream, tmp_path):
        import ssl
        self.cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        key, "-out", self.cert, "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                       check=True, capture_output=True)
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(self.cert, key)
        host, port = upstream.split("//", 1)[1].split(":")
        self.upstream = (host, int(port))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while True:
            try:
                raw, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(raw,), daemon=True).start()

    def serve(self, raw):
        try:
            tls = self.ctx.wrap_socket(raw, server_side=True)
        except OSError:
            raw.close()
            return
        up = socket.create_connection(self.upstream)

        def pump(a, b):
            try:
                while True:
                    data = a.recv(65536)
                    if not data:
                        break
                    b.sendall(data)
            except OSError:
                pass
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        threading.Thread(target=pump, args=(up, tls), daemon=True).start()
        pump(tls, up)

    def stop(self):
        self.sock.close()


# HTTPS: the control plane and every executor connection speak TLS, the
# certificate is verified against --ca-file for the endpoint's host name (or
# IP), and an untrusted certificate fails the run with the reason.
@pytest.mark.sluice_only
def test_https_endpoint(endpoint, tmp_path):
    proxy = TlsProxy(endpoint, tmp_path)
    try:
        for host in ("localhost", "127.0.0.1"):
            rc, out, err, rep = bench(f"https://{host}:{proxy.port}", "--ca-file", proxy.cert,
                                      "--workload", "put:1,get:1", "--rate", "40",
                                      "--duration", "1", "--connections", "8",
                                      tmp_path=tmp_path)
            assert rc == 0, (out, err)
            assert rep["totals"]["ok"] == rep["totals"]["sent"] == 40
            assert "deleted table" in err
        p = subprocess.run([BIN, "bench", "--endpoint", f"https://localhost:{proxy.port}",
                            "--rate", "5", "--duration", "1"], capture_output=True, text=True,
                           timeout=60, env=ENV)
        assert p.returncode == 1 and "certificate" in p.stderr, p.stderr
    finally:
        proxy.stop()


# The CSV has one row per second with the JSON's numbers; the HTML report is
# one self-contained page (inline SVG, no script) with the same totals.
def test_csv_and_html_reports(endpoint, tmp_path):
    csv, html = tmp_path / "r.csv", tmp_path / "r.html"
    rc, out, err, rep = bench(endpoint, "--rate", "30", "--duration", "2", "--csv", str(csv),
                              "--html", str(html), tmp_path=tmp_path)
    assert rc == 0, (out, err)
    rows = csv.read_text().splitlines()
    assert rows[0].startswith("second,offered,sent,ok,throttled,errors")
    cells = [r.split(",") for r in rows[1:3]]
    assert [[c[0], c[1], c[3]] for c in cells] == [["0", "30", "30"], ["1", "30", "30"]]
    page = html.read_text()
    assert page.count("<svg") == 2 and "<script" not in page
    assert "Latency from the scheduled time" in page
    assert rep["totals"]["ok"] == 60
