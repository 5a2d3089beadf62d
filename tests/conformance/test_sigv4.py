"""Authentication: `--auth sigv4` verifies AWS Signature Version 4 as the service does;
`--auth any` (the default) checks only the Authorization header's format.

Real behaviour: the check order and every text come from live DynamoDB replies recorded by
dynalite (index.js) and quoted in SDK issues: "Signature expired: ... (... - 15 min.)"
(aws-sdk-js #254), "Credential should be scoped to a valid region, not 'us-east-2'. "
(fluent-plugin-dynamodb #30, with its trailing space), "The request signature we calculated
does not match ..." (php-simple-amazon-dynamodb #1), "Credential must have exactly 5
slash-delimited elements ..." (fluent-bit tests), "The security token included in the request
is invalid." (node-dynamodb #54). The requests are signed by botocore, the way every boto3
user signs them: good and bad keys, secrets, dates, regions, services and session tokens,
header and query-string (presigned) signing. A server with keys is sluice's own
(`--credentials`), so the verifying tests are sluice_only.
"""
import datetime
import gzip
import json
import os
import urllib.error
import urllib.request
from unittest import mock

import boto3
import botocore.config
import pytest
from botocore.auth import SigV4Auth, SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from conftest import REGION, Reply, Server, sluice_bin

KEY = Credentials("AKIDSLUICETEST", "sluice/secret/key+example")
TEMP = Credentials("ASIASLUICETEMP", "temporary-secret", "session-token-123")
BAD_SECRET = Credentials("AKIDSLUICETEST", "not the secret")
UNKNOWN = Credentials("AKIDUNKNOWN", "whatever")
MISMATCH = ("The request signature we calculated does not match the signature you provided. "
            "Check your AWS Secret Access Key and signing method. Consult the service "
            "documentation for details.")


@pytest.fixture(scope="module")
def creds_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("sigv4") / "credentials"
    p.write_text("# sluice test keys\n\n"
                 f"{KEY.access_key} {KEY.secret_key}\n"
                 f"{TEMP.access_key}\t{TEMP.secret_key}  {TEMP.token}\n")
    return str(p)


@pytest.fixture(scope="module")
def sigv4(creds_file):
    srv = Server(["--auth", "sigv4", "--credentials", creds_file])
    yield srv.endpoint
    srv.stop()


def send(ep, creds, target="DynamoDB_20120810.ListTables", body=b"{}", region=REGION,
         service="dynamodb", at=None, headers=None, query=False, path="/"):
    """Signs a request with botocore (at a given time if 'at') and sends it."""
    hdrs = {"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": target}
    hdrs.update(headers or {})
    req = AWSRequest(method="POST", url=ep + path, data=body, headers=hdrs)
    signer = (SigV4QueryAuth(creds, service, region, expires=300) if query
              else SigV4Auth(creds, service, region))
    if at is None:
        signer.add_auth(req)
    else:
        with mock.patch("botocore.auth.datetime") as d:
            d.datetime.utcnow.return_value = at
            d.datetime.now.return_value = at
            d.timezone = datetime.timezone
            signer.add_auth(req)
    if query:
        body = req.body or b""  # botocore's presigner moves the body into the query string
    r = urllib.request.Request(req.url, data=body, headers=dict(req.headers.items()), method="POST")
    try:
        with urllib.request.urlopen(r, timeout=10) as resp:
            return Reply(resp.status, resp.headers, resp.read())
    except urllib.error.HTTPError as e:
        return Reply(e.code, e.headers, e.read())


def raw_auth(ep, authorization, extra=None):
    hdrs = {"Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "DynamoDB_20120810.ListTables"}
    if authorization is not None:
        hdrs["Authorization"] = authorization
    hdrs.update(extra or {})
    r = urllib.request.Request(ep + "/", data=b"{}", headers=hdrs, method="POST")
    try:
        with urllib.request.urlopen(r, timeout=10) as resp:
            return Reply(resp.status, resp.headers, resp.read())
    except urllib.error.HTTPError as e:
        return Reply(e.code, e.headers, e.read())


def now():
    return datetime.datetime.utcnow().replace(microsecond=0)


# --- --auth sigv4 -----------------------------------------------------------------------------

# A request signed with a key of the file passes, through boto3 itself too.
@pytest.mark.sluice_only
def test_good_key(sigv4):
    assert send(sigv4, KEY).status == 200
    c = boto3.client("dynamodb", endpoint_url=sigv4, region_name=REGION,
                     aws_access_key_id=KEY.access_key, aws_secret_access_key=KEY.secret_key,
                     config=botocore.config.Config(retries={"max_attempts": 1}))
    assert "TableNames" in c.list_tables()


# The wrong secret: InvalidSignatureException with the service's text.
@pytest.mark.sluice_only
def test_wrong_secret(sigv4):
    r = send(sigv4, BAD_SECRET)
    assert (r.status, r.error_type, r.message) == (400, "InvalidSignatureException", MISMATCH)
    assert r.json["__type"] == "com.amazon.coral.service#InvalidSignatureException"


# A key id not in the file: UnrecognizedClientException.
@pytest.mark.sluice_only
def test_unknown_key(sigv4):
    r = send(sigv4, UNKNOWN)
    assert r.error_type == "UnrecognizedClientException"
    assert r.message == "The security token included in the request is invalid."


# Temporary credentials need their session token, and only it.
@pytest.mark.sluice_only
def test_session_tokens(sigv4):
    assert send(sigv4, TEMP).status == 200
    r = send(sigv4, Credentials(TEMP.access_key, TEMP.secret_key, "wrong-token"))
    assert (r.error_type, r.message) == ("UnrecognizedClientException",
                                         "The security token included in the request is invalid")
    r = send(sigv4, Credentials(TEMP.access_key, TEMP.secret_key))
    assert r.error_type == "UnrecognizedClientException"
    r = send(sigv4, Credentials(KEY.access_key, KEY.secret_key, "unexpected-token"))
    assert r.error_type == "UnrecognizedClientException"


# The scope must name the server's region and the service's signing name.
@pytest.mark.sluice_only
def test_scope_region_and_service(sigv4):
    r = send(sigv4, KEY, region="us-west-2")
    assert (r.error_type, r.message) == (
        "InvalidSignatureException", "Credential should be scoped to a valid region, not 'us-west-2'. ")
    r = send(sigv4, KEY, service="dynamo")
    assert r.message == "Credential should be scoped to correct service: 'dynamodb'. "
    r = send(sigv4, KEY, region="eu-west-1", service="s3")
    assert r.message == ("Credential should be scoped to a valid region, not 'eu-west-1'. "
                         "Credential should be scoped to correct service: 'dynamodb'. ")


# X-Amz-Date may be up to 15 minutes off either way, no more.
@pytest.mark.sluice_only
def test_date_skew(sigv4):
    assert send(sigv4, KEY, at=now() - datetime.timedelta(minutes=14)).status == 200
    assert send(sigv4, KEY, at=now() + datetime.timedelta(minutes=14)).status == 200
    old = now() - datetime.timedelta(minutes=20)
    r = send(sigv4, KEY, at=old)
    assert r.error_type == "InvalidSignatureException"
    assert r.message.startswith(f"Signature expired: {old:%Y%m%dT%H%M%SZ} is now earlier than ")
    assert r.message.endswith(" - 15 min.)")
    ahead = now() + datetime.timedelta(minutes=20)
    r = send(sigv4, KEY, at=ahead)
    assert r.message.startswith(f"Signature not yet current: {ahead:%Y%m%dT%H%M%SZ} is still "
                                "later than ")
    assert r.message.endswith(" + 15 min.)")


# A signature of the right form but the wrong value, and Signature=0, are refused here.
@pytest.mark.sluice_only
def test_made_up_signature_refused(sigv4):
    stamp = f"{now():%Y%m%dT%H%M%SZ}"
    r = raw_auth(sigv4, f"AWS4-HMAC-SHA256 Credential={KEY.access_key}/{stamp[:8]}/{REGION}/"
                        "dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0",
                 {"X-Amz-Date": stamp})
    assert (r.error_type, r.message) == ("InvalidSignatureException", MISMATCH)


# Host must be signed.
@pytest.mark.sluice_only
def test_host_must_be_signed(sigv4):
    stamp = f"{now():%Y%m%dT%H%M%SZ}"
    r = raw_auth(sigv4, f"AWS4-HMAC-SHA256 Credential={KEY.access_key}/{stamp[:8]}/{REGION}/"
                        "dynamodb/aws4_request, SignedHeaders=x-amz-date, Signature=0",
                 {"X-Amz-Date": stamp})
    assert r.message == "'Host' must be a 'SignedHeader' in the AWS Authorization."


# Verification needs a date header.
@pytest.mark.sluice_only
def test_date_required(sigv4):
    r = raw_auth(sigv4, "AWS4-HMAC-SHA256 Credential=k/20260101/us-east-1/dynamodb/aws4_request, "
                        "SignedHeaders=host, Signature=0")
    assert r.error_type == "IncompleteSignatureException"
    assert "requires existence of either a 'X-Amz-Date' or a 'Date' header" in r.message


# Query-string (presigned) signing, as botocore's SigV4QueryAuth does it. The presigner moves
# the JSON body into the query string, so the request arrives with an empty body: past the
# signature check, that is a SerializationException (the body is checked after the signature).
@pytest.mark.sluice_only
def test_presigned(sigv4):
    assert send(sigv4, KEY, query=True).error_type == "SerializationException"
    assert send(sigv4, TEMP, query=True).error_type == "SerializationException"
    r = send(sigv4, Credentials(TEMP.access_key, TEMP.secret_key, "bad"), query=True)
    assert r.error_type == "UnrecognizedClientException"
    r = send(sigv4, BAD_SECRET, query=True)
    assert (r.error_type, r.message) == ("InvalidSignatureException", MISMATCH)


# A compressed body is signed as sent (compressed), and verifies.
@pytest.mark.sluice_only
def test_gzip_body_signed_as_sent(sigv4):
    r = send(sigv4, KEY, body=gzip.compress(b'{"Limit": 3}'), headers={"Content-Encoding": "gzip"})
    assert r.status == 200, r


# Other paths and query strings are part of the signature and verify too.
@pytest.mark.sluice_only
def test_path_and_query_signed(sigv4):
    assert send(sigv4, KEY, path="/?a=1&b=x%20y").status == 200
    assert send(sigv4, KEY, path="/some%20path").status == 200


# --- admin access under --auth sigv4 ---------------------------------------------------------

def get(url, headers=None):
    r = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(r, timeout=10) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


# On a loopback bind the admin API answers unsigned.
@pytest.mark.sluice_only
def test_admin_on_loopback(sigv4):
    assert get(sigv4 + "/_sluice/clock")[0] == 200
    assert get(sigv4 + "/metrics")[0] == 200


# Bound to every address, the admin API refuses without a token.
@pytest.mark.sluice_only
def test_admin_refused_off_loopback(creds_file):
    srv = Server(["--auth", "sigv4", "--credentials", creds_file, "--bind", "0.0.0.0"])
    try:
        ep = srv.endpoint.replace("0.0.0.0", "127.0.0.1")
        status, _, body = get(ep + "/_sluice/clock")
        assert status == 403
        assert "loopback" in json.loads(body)["error"]
        assert send(ep, KEY).status == 200
    finally:
        srv.stop()


# With --admin-token, a bearer token or the dashboard's cookie opens the admin API.
@pytest.mark.sluice_only
def test_admin_token(creds_file):
    srv = Server(["--auth", "sigv4", "--credentials", creds_file, "--admin-token", "tok-42"])
    try:
        ep = srv.endpoint
        assert get(ep + "/_sluice/clock")[0] == 403
        assert get(ep + "/_sluice/clock", {"Authorization": "Bearer tok-41"})[0] == 403
        assert get(ep + "/_sluice/clock", {"Authorization": "Bearer tok-42"})[0] == 200
        assert get(ep + "/dashboard")[0] == 403
        status, headers, _ = get(ep + "/dashboard?token=tok-42")
        assert status == 200
        cookie = headers["Set-Cookie"].split(";")[0]
        assert cookie == "sluice_admin=tok-42"
        assert "HttpOnly" in headers["Set-Cookie"]
        assert get(ep + "/_sluice/tables", {"Cookie": cookie})[0] == 200
    finally:
        srv.stop()


# --- --auth any (the default) ------------------------------------------------------------------

# Any key, secret and signature value pass, Signature=0 included.
def test_any_accepts_any_signature(raw, endpoint):
    assert send(endpoint, UNKNOWN).status == 200
    r = raw_auth(endpoint, "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/"
                           "aws4_request, SignedHeaders=host, Signature=0",
                 {"X-Amz-Date": "20261130T000000Z"})
    assert r.status == 200


# A header missing its parts is refused with the service's text, listing each part.
# ddblocal_differs: DynamoDB Local (2026-05-28) answers a malformed Authorization header
# with a 500 InternalFailure instead of the service's exception.
@pytest.mark.ddblocal_differs
def test_any_missing_parts(endpoint):
    auth = "AWS4-HMAC-SHA256 Signature=abc"
    r = raw_auth(endpoint, auth, {"X-Amz-Date": "20261130T000000Z"})
    assert r.error_type == "IncompleteSignatureException"
    assert r.message == ("Authorization header requires 'Credential' parameter. Authorization "
                         "header requires 'SignedHeaders' parameter. Authorization=" + auth)


# A credential that is not five slash-separated elements is malformed.
# ddblocal_differs: DynamoDB Local (2026-05-28) answers a malformed Authorization header
# with a 500 InternalFailure instead of the service's exception.
@pytest.mark.ddblocal_differs
def test_any_malformed_scope(endpoint):
    r = raw_auth(endpoint, "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1, "
                           "SignedHeaders=host, Signature=0", {"X-Amz-Date": "20261130T000000Z"})
    assert (r.error_type, r.message) == (
        "IncompleteSignatureException",
        "Credential must have exactly 5 slash-delimited elements, e.g. "
        "keyid/date/region/service/term, got 'AKID/20261130/us-east-1'")


# A header that is not AWS4 at all counts as no authentication.
# ddblocal_differs: DynamoDB Local (2026-05-28) answers a malformed Authorization header
# with a 500 InternalFailure instead of the service's exception.
@pytest.mark.ddblocal_differs
def test_any_not_aws4(endpoint):
    r = raw_auth(endpoint, "Bearer xyz")
    assert r.error_type == "MissingAuthenticationTokenException"
    assert r.message == "Request is missing Authentication Token"


# The dashboard switches Contributor Insights through the admin API (it has no key to sign a
# DynamoDB request with); the switch is what UpdateContributorInsights does.
@pytest.mark.sluice_only
def test_dashboard_insights_switch_is_admin_api(sigv4):
    c = boto3.client("dynamodb", endpoint_url=sigv4, region_name=REGION,
                     aws_access_key_id=KEY.access_key, aws_secret_access_key=KEY.secret_key,
                     config=botocore.config.Config(retries={"max_attempts": 1}))
    name = "t_ci_" + os.urandom(4).hex()
    c.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                   AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                   KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    req = urllib.request.Request(sigv4 + f"/_sluice/tables/{name}/insights", method="POST",
                                 data=b'{"action":"ENABLE"}',
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        assert json.loads(r.read()) == {"table": name, "status": "ENABLING"}
    d = c.describe_contributor_insights(TableName=name)
    assert d["ContributorInsightsStatus"] in ("ENABLING", "ENABLED")
    req = urllib.request.Request(sigv4 + f"/_sluice/tables/{name}/insights", method="POST",
                                 data=b'{"action":"BOGUS"}')
    try:
        urllib.request.urlopen(req, timeout=10)
        assert False, "accepted"
    except urllib.error.HTTPError as e:
        assert e.code == 400
    c.delete_table(TableName=name)


# --auth sigv4 without keys, an unknown mode and an unreadable or malformed credentials file
# are refused at start, with the reason.
@pytest.mark.sluice_only
def test_flag_errors(tmp_path):
    import subprocess
    def run(*args):
        p = subprocess.run([sluice_bin(), "serve", "--port", "0", *args], capture_output=True,
                           text=True, timeout=10)
        return p.returncode, p.stderr
    rc, err = run("--auth", "sigv4")
    assert rc == 2 and "--auth sigv4 needs --credentials FILE" in err
    rc, err = run("--auth", "hmac")
    assert rc == 2 and "unknown auth mode 'hmac'" in err
    rc, err = run("--auth", "sigv4", "--credentials", str(tmp_path / "missing"))
    assert rc == 1 and "cannot open credentials file" in err
    bad = tmp_path / "bad"
    bad.write_text("AKID secret token extra\n")
    rc, err = run("--auth", "sigv4", "--credentials", str(bad))
    assert rc == 1 and "line 1" in err


# The AWS CLI, a real client, signs requests sluice verifies, and a wrong secret fails there.
@pytest.mark.sluice_only
def test_aws_cli_signed(sigv4, tmp_path):
    import shutil
    import subprocess
    aws = "/usr/bin/aws" if os.path.exists("/usr/bin/aws") else shutil.which("aws")
    if not aws:
        pytest.skip("AWS CLI not installed")

    def run(secret):
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(HOME=str(tmp_path), AWS_ACCESS_KEY_ID=KEY.access_key,
                   AWS_SECRET_ACCESS_KEY=secret, AWS_DEFAULT_REGION=REGION, AWS_PAGER="",
                   AWS_CONFIG_FILE=str(tmp_path / "config"),
                   AWS_SHARED_CREDENTIALS_FILE=str(tmp_path / "credentials"),
                   AWS_EC2_METADATA_DISABLED="true", AWS_MAX_ATTEMPTS="1")
        return subprocess.run([aws, "--endpoint-url", sigv4, "dynamodb", "list-tables"], env=env,
                              capture_output=True, text=True, timeout=60)
    assert run(KEY.secret_key).returncode == 0
    p = run("wrong")
    assert p.returncode != 0 and "InvalidSignatureException" in p.stderr
