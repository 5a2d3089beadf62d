"""Shared fixtures of the conformance suite.

The suite talks HTTP to one endpoint, given by SLUICE_ENDPOINT. Without it, it
starts `SLUICE_BIN serve --port 0` (default build/sluice) for the session and
stops it at the end, so `pytest tests/conformance` works on its own.

Every test must pass against DynamoDB Local too (SLUICE_ENDPOINT=http://127.0.0.1:8001)
unless it is marked:
  @pytest.mark.capacity          throttling and capacity behaviour (DynamoDB Local ignores it)
  @pytest.mark.sluice_only       sluice's own endpoints (admin API, metrics, dashboard)
  @pytest.mark.ddblocal_differs  DynamoDB Local is known to differ from DynamoDB here
                                 (the reason goes in the test's comment)
These are skipped automatically when the endpoint is not sluice.
"""
import http.client
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
import uuid

import boto3
import botocore.config
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REGION = "us-east-1"
CREDS = Credentials("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")


def pytest_configure(config):
    for m in ("capacity", "sluice_only", "ddblocal_differs"):
        config.addinivalue_line("markers", f"{m}: see conftest.py")


def sluice_bin():
    """The sluice binary under test: SLUICE_BIN, or build/sluice."""
    return os.environ.get("SLUICE_BIN", os.path.join(ROOT, "build", "sluice"))


class Server:
    """A sluice process started for tests; endpoint like http://127.0.0.1:PORT."""

    def __init__(self, args=()):
        self.proc = subprocess.Popen(
            [sluice_bin(), "serve", "--bind", "127.0.0.1", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=None, text=True)
        line = self.proc.stdout.readline()
        if "listening on " not in line:
            self.proc.kill()
            raise RuntimeError(f"sluice did not start: {line!r}")
        self.endpoint = line.split("listening on ", 1)[1].split()[0].rstrip("/")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        rc = self.proc.returncode
        # A sanitizer report or crash makes the exit code non-zero: fail loudly.
        assert rc in (0, -signal.SIGTERM), f"sluice exited with {rc}"


@pytest.fixture(scope="session")
def endpoint():
    ep = os.environ.get("SLUICE_ENDPOINT")
    if ep:
        yield ep.rstrip("/")
        return
    srv = Server()
    yield srv.endpoint
    srv.stop()


def _is_sluice(ep):
    try:
        with urllib.request.urlopen(ep + "/_sluice/clock", timeout=5) as r:
            return r.status == 200
    except Exception:
        return False


@pytest.fixture(scope="session")
def is_sluice(endpoint):
    return _is_sluice(endpoint)


@pytest.fixture(autouse=True)
def _skip_markers(request, endpoint):
    node = request.node
    if any(node.get_closest_marker(m) for m in ("capacity", "sluice_only", "ddblocal_differs")):
        if not _is_sluice_cached(endpoint):
            pytest.skip("sluice-specific behaviour; endpoint is not sluice")


_sluice_cache = {}


def _is_sluice_cached(ep):
    if ep not in _sluice_cache:
        _sluice_cache[ep] = _is_sluice(ep)
    return _sluice_cache[ep]


def make_client(ep, **cfg):
    return boto3.client(
        "dynamodb", endpoint_url=ep, region_name=REGION,
        aws_access_key_id=CREDS.access_key, aws_secret_access_key=CREDS.secret_key,
        config=botocore.config.Config(retries={"max_attempts": 1, "mode": "standard"}, **cfg))


@pytest.fixture(scope="session")
def ddb(endpoint):
    """A boto3 DynamoDB client with retries off (tests see every error)."""
    return make_client(endpoint)


class Raw:
    """Signed raw JSON calls, for exact wire checks."""

    def __init__(self, ep):
        self.ep = ep

    def call(self, op, body=None, raw=None, headers=None, sign=True, target=None):
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        if isinstance(data, str):
            data = data.encode()
        hdrs = {"Content-Type": "application/x-amz-json-1.0",
                "X-Amz-Target": target if target is not None else "DynamoDB_20120810." + op}
        if headers:
            hdrs.update(headers)
        req = AWSRequest(method="POST", url=self.ep + "/", data=data, headers=hdrs)
        if sign:
            SigV4Auth(CREDS, "dynamodb", REGION).add_auth(req)
        r = urllib.request.Request(req.url, data=data, headers=dict(req.headers.items()), method="POST")
        try:
            with urllib.request.urlopen(r, timeout=30) as resp:
                return Reply(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as e:
            return Reply(e.code, e.headers, e.read())


class Reply:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.raw = body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None

    @property
    def error_type(self):
        """The short exception name, read the way botocore reads it."""
        t = (self.json or {}).get("__type", "")
        return t.split("#")[-1].split(":")[0]

    @property
    def message(self):
        j = self.json or {}
        return j.get("message", j.get("Message"))

    def __repr__(self):
        return f"Reply({self.status}, {self.raw[:300]!r})"


@pytest.fixture(scope="session")
def raw(endpoint):
    return Raw(endpoint)


@pytest.fixture
def table_name():
    """A fresh, valid table name per test."""
    return "t_" + uuid.uuid4().hex[:12]


def wait_active(client, name, timeout=30):
    t0 = time.time()
    while True:
        d = client.describe_table(TableName=name)["Table"]
        if d["TableStatus"] == "ACTIVE" and all(
                g.get("IndexStatus") == "ACTIVE" for g in d.get("GlobalSecondaryIndexes", [])):
            return d
        if time.time() - t0 > timeout:
            raise TimeoutError(name)
        time.sleep(0.05)


@pytest.fixture
def make_table(ddb):
    """Creates tables for a test (on-demand by default) and deletes them after it."""
    created = []

    def make(name=None, hash_key=("pk", "S"), range_key=None, **kw):
        name = name or "t_" + uuid.uuid4().hex[:12]
        attrs = {hash_key[0]: hash_key[1]}
        schema = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
        if range_key:
            attrs[range_key[0]] = range_key[1]
            schema.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        for extra in kw.pop("extra_attrs", []):
            attrs[extra[0]] = extra[1]
        args = dict(TableName=name, KeySchema=schema,
                    AttributeDefinitions=[{"AttributeName": k, "AttributeType": v} for k, v in attrs.items()])
        if "ProvisionedThroughput" not in kw and "BillingMode" not in kw:
            args["BillingMode"] = "PAY_PER_REQUEST"
        args.update(kw)
        ddb.create_table(**args)
        wait_active(ddb, name)
        created.append(name)
        return name

    yield make
    for name in created:
        try:
            ddb.delete_table(TableName=name)
        except Exception:
            pass


def admin(ep, method, path, body=None):
    """Calls sluice's admin API; returns (status, json)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(ep + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            return e.code, json.loads(body)
        except ValueError:
            return e.code, body


@pytest.fixture
def manual_server():
    """A private sluice with a manual clock (capacity scenarios). Needs SLUICE_BIN
    or build/sluice; skipped when the suite targets another endpoint."""
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z"])
    yield srv
    srv.stop()


class Client:
    """A fast keep-alive client: sluice accepts any signature, so requests carry a
    fixed Authorization header instead of being signed one by one."""

    def __init__(self, endpoint):
        host, port = endpoint.split("//", 1)[1].split(":")
        self.ep = endpoint
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)

    def call(self, op, body):
        data = json.dumps(body)
        self.conn.request("POST", "/", body=data, headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810." + op,
            "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                             "aws4_request, SignedHeaders=host, Signature=0"})
        r = self.conn.getresponse()
        raw = r.read()
        return r.status, json.loads(raw) if raw else None

    def advance(self, ms):
        status, _ = admin(self.ep, "POST", "/_sluice/clock", {"advance_ms": ms})
        assert status == 200

    def create_table(self, name, **kw):
        """CreateTable of a table keyed by pk (S), on demand unless kw provisions it; kw
        overrides any member. The TableDescription."""
        body = {"TableName": name,
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}
        body.update(kw)
        if "ProvisionedThroughput" not in kw:
            body.setdefault("BillingMode", "PAY_PER_REQUEST")
        status, reply = self.call("CreateTable", body)
        assert status == 200, reply
        return reply["TableDescription"]


@pytest.fixture
def client(manual_server):
    """A Client of manual_server: the capacity scenarios' fast raw-JSON client."""
    return Client(manual_server.endpoint)


@pytest.fixture
def lean_client(tmp_path):
    """A Client of a private manual-clock sluice whose new provisioned tables start with one
    second of capacity (initial_burst_ms = 1000) instead of the default full 300 s: for the
    scenarios about what happens once a provisioned table's burst is spent, which would
    otherwise first write 300 s of capacity. The default is pinned by
    test_new_table_burst.py."""
    if os.environ.get("SLUICE_ENDPOINT") and not _is_sluice_cached(os.environ["SLUICE_ENDPOINT"]):
        pytest.skip("manual clock needs sluice")
    path = tmp_path / "lean.conf"
    path.write_text("initial_burst_ms = 1000\n")
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z",
                  "--config", str(path)])
    yield Client(srv.endpoint)
    srv.stop()


def wait_gone(client, name, timeout=120):
    """Polls DescribeTable until the table is gone (DELETING lasts ~5 s on AWS)."""
    t0 = time.time()
    while True:
        try:
            client.describe_table(TableName=name)
        except client.exceptions.ResourceNotFoundException:
            return
        if time.time() - t0 > timeout:
            raise TimeoutError(name)
        time.sleep(0.05)


def _session_table(ddb, attrs, schema):
    name = "t_" + uuid.uuid4().hex[:12]
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", KeySchema=schema,
                     AttributeDefinitions=[{"AttributeName": k, "AttributeType": v} for k, v in attrs])
    wait_active(ddb, name)
    return name


@pytest.fixture(scope="session")
def hash_table(ddb):
    """One on-demand table with hash key pk (S), shared by the item tests of a session.
    Tests that use it write under fresh keys (new_key()) so they never see each other."""
    name = _session_table(ddb, [("pk", "S")], [{"AttributeName": "pk", "KeyType": "HASH"}])
    yield name
    ddb.delete_table(TableName=name)


def _range_table(ddb, sk_type):
    name = _session_table(ddb, [("pk", "S"), ("sk", sk_type)],
                          [{"AttributeName": "pk", "KeyType": "HASH"},
                           {"AttributeName": "sk", "KeyType": "RANGE"}])
    yield name
    ddb.delete_table(TableName=name)


@pytest.fixture(scope="session")
def range_table(ddb):
    """One on-demand table with hash key pk (S) and range key sk (N), shared like hash_table."""
    yield from _range_table(ddb, "N")


@pytest.fixture(scope="session")
def range_s_table(ddb):
    """Like range_table, but the range key sk is a string (S): begins_with, string order."""
    yield from _range_table(ddb, "S")


@pytest.fixture(scope="session")
def range_b_table(ddb):
    """Like range_table, but the range key sk is a binary (B): unsigned byte order."""
    yield from _range_table(ddb, "B")


@pytest.fixture(scope="module")
def module_table(ddb):
    """Makes fresh on-demand tables (pk S, optional range key) for one test module, deleted at
    its end: for tests that Scan and must see only their own items."""
    created = []

    def make(hash_key=("pk", "S"), range_key=None):
        attrs = [hash_key] + ([range_key] if range_key else [])
        schema = [{"AttributeName": hash_key[0], "KeyType": "HASH"}]
        if range_key:
            schema.append({"AttributeName": range_key[0], "KeyType": "RANGE"})
        name = _session_table(ddb, attrs, schema)
        created.append(name)
        return name

    yield make
    for name in created:
        try:
            ddb.delete_table(TableName=name)
        except Exception:
            pass


def call_retrying(raw, op, body, seconds=20):
    """Calls op like an SDK would, retrying throttled replies (ThrottlingException,
    ProvisionedThroughputExceededException) after a short pause. For test setups that write a
    lot into one partition quickly: DynamoDB and sluice throttle those, DynamoDB Local does not."""
    deadline = time.time() + seconds
    while True:
        r = raw.call(op, body)
        if r.error_type not in ("ThrottlingException", "ProvisionedThroughputExceededException") \
                or time.time() > deadline:
            return r
        time.sleep(0.2)


def error_of(reply):
    """(HTTP status, short exception name, message) of a reply, for one-line asserts."""
    return reply.status, reply.error_type, reply.message


# Attribute values for request bodies, as the wire spells them.
def S(x):
    return {"S": x}


def N(x):
    return {"N": str(x)}


def B(x):
    return {"B": x}


def L(*xs):
    return {"L": list(xs)}


def M(**kw):
    return {"M": kw}


def invalid(msg):
    """The (status, type, message) of a ValidationException, to compare with error_of."""
    return 400, "ValidationException", msg


def new_key():
    """A partition key value no other test uses."""
    return "k_" + uuid.uuid4().hex


def table_arn(client, name):
    return client.describe_table(TableName=name)["Table"]["TableArn"]
