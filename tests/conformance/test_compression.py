"""Content codings: compressed request bodies and compressed replies (net/compress.h).

Real behaviour: the service accepts gzip and deflate request bodies (botocore's request
compression, `request_min_compression_size_bytes`, can be switched on for an operation) and
compresses a reply when the client asks for it; the x-amz-crc32 header is the CRC32 of the
bytes on the wire (botocore `retryhandler.CRC32Checker` reads the response with
decode_content=False, aws-sdk-go's DynamoDB customisation checks the CRC of the gzipped body).
The service's answer to a body it cannot decode is not documented: sluice sends a
SerializationException with a message saying what is wrong (those tests are sluice_only).
"""
import gzip
import http.client
import json
import zlib

import pytest

from conftest import CREDS, REGION
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest


def put_get(raw, table, pk, encode, coding):
    item = {"pk": {"S": pk}, "v": {"S": "x" * 100}}
    body = json.dumps({"TableName": table, "Item": item}).encode()
    r = raw.call("PutItem", raw=encode(body), headers={"Content-Encoding": coding})
    assert r.status == 200, r
    r = raw.call("GetItem", {"TableName": table, "Key": {"pk": {"S": pk}}})
    assert r.json["Item"] == item


def raw_deflate(data):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


# A gzip body is decoded before it is parsed, and the signature covers the bytes sent.
# ddblocal_differs: DynamoDB Local (2026-05-28) answers an encoded body with a 500 InternalFailure.
@pytest.mark.ddblocal_differs
def test_gzip_request_body(raw, make_table):
    put_get(raw, make_table(), "g", gzip.compress, "gzip")


# deflate is the zlib format (RFC 9110 §8.4.1.2); raw deflate, which some clients send under
# that name, is accepted too.
# ddblocal_differs: DynamoDB Local (2026-05-28) answers an encoded body with a 500 InternalFailure.
@pytest.mark.ddblocal_differs
def test_deflate_request_body(raw, make_table):
    t = make_table()
    put_get(raw, t, "z", zlib.compress, "deflate")
    put_get(raw, t, "r", raw_deflate, "deflate")


# Coding names are case-insensitive, and identity is no coding at all.
# ddblocal_differs: DynamoDB Local (2026-05-28) answers an encoded body with a 500 InternalFailure.
@pytest.mark.ddblocal_differs
def test_coding_names(raw, make_table):
    t = make_table()
    put_get(raw, t, "G", gzip.compress, "GZIP")
    put_get(raw, t, "i", lambda b: b, "identity")


# Several gzip members one after another are one body (RFC 1952 §2.2).
# ddblocal_differs: DynamoDB Local (2026-05-28) answers an encoded body with a 500 InternalFailure.
@pytest.mark.ddblocal_differs
def test_gzip_members_concatenated(raw):
    body = b'{"Limit": 5}'
    r = raw.call("ListTables", raw=gzip.compress(body[:4]) + gzip.compress(body[4:]),
                 headers={"Content-Encoding": "gzip"})
    assert r.status == 200, r


# An empty body with a coding is an empty body: the same answer as without one.
def test_empty_encoded_body(raw):
    plain = raw.call("ListTables", raw=b"")
    coded = raw.call("ListTables", raw=b"", headers={"Content-Encoding": "gzip"})
    assert (coded.status, coded.error_type) == (plain.status, plain.error_type)


# Corrupt data: a 400 in the JSON error shape that says so.
@pytest.mark.sluice_only
def test_corrupt_gzip(raw):
    r = raw.call("ListTables", raw=b"this is not gzip", headers={"Content-Encoding": "gzip"})
    assert r.status == 400
    assert r.error_type == "SerializationException"
    assert r.message == "The request body is not valid gzip data"
    assert r.headers["Content-Type"] == "application/x-amz-json-1.0"
    assert r.headers.get("x-amzn-RequestId")
    r = raw.call("ListTables", raw=b"\x78\x9c garbage", headers={"Content-Encoding": "deflate"})
    assert (r.status, r.message) == (400, "The request body is not valid deflate data")


# A body cut short says it is truncated.
@pytest.mark.sluice_only
def test_truncated_gzip(raw):
    data = gzip.compress(b'{"Limit": 5}')
    r = raw.call("ListTables", raw=data[:-4], headers={"Content-Encoding": "gzip"})
    assert (r.status, r.error_type) == (400, "SerializationException")
    assert r.message == "The gzip request body is truncated"


# A coding sluice does not decode is refused, not parsed as JSON.
@pytest.mark.sluice_only
def test_unknown_coding(raw):
    for coding in ("br", "compress", "gzip, gzip"):
        r = raw.call("ListTables", raw=b"{}", headers={"Content-Encoding": coding})
        assert (r.status, r.error_type) == (400, "SerializationException"), coding
        assert "Content-Encoding" in r.message


# A decompression bomb: 64 MiB of zeros in about 64 KiB is refused with 413 (the decoded
# body is over the 16 MiB limit), and the connection answers the next request.
@pytest.mark.sluice_only
def test_decompression_bomb(endpoint):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = c.compress(b"\0" * (64 << 20)) + c.flush()
    assert len(bomb) < 1 << 20
    host, port = endpoint.split("//", 1)[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    hdrs = {"Content-Type": "application/x-amz-json-1.0", "Content-Encoding": "gzip",
            "X-Amz-Target": "DynamoDB_20120810.ListTables"}
    req = AWSRequest(method="POST", url=endpoint + "/", data=bomb, headers=hdrs)
    SigV4Auth(CREDS, "dynamodb", REGION).add_auth(req)
    conn.request("POST", "/", body=bomb, headers=dict(req.headers.items()))
    r = conn.getresponse()
    r.read()
    assert r.status == 413
    req = AWSRequest(method="POST", url=endpoint + "/", data=b"{}",
                     headers={**hdrs, "Content-Encoding": "identity"})
    SigV4Auth(CREDS, "dynamodb", REGION).add_auth(req)
    conn.request("POST", "/", body=b"{}", headers=dict(req.headers.items()))
    r = conn.getresponse()
    assert r.status == 200
    assert "TableNames" in json.loads(r.read())
    conn.close()


def big_item(raw, make_table):
    t = make_table()
    item = {"pk": {"S": "big"}, "v": {"S": "abcdefgh" * 1000}}
    assert raw.call("PutItem", {"TableName": t, "Item": item}).status == 200
    return t, item


# A large reply to a client that takes gzip is compressed; x-amz-crc32 is the CRC of the
# compressed bytes, which is what botocore checks.
# ddblocal_differs: DynamoDB Local (2026-05-28) never compresses a reply.
@pytest.mark.ddblocal_differs
def test_gzip_reply(raw, make_table):
    t, item = big_item(raw, make_table)
    r = raw.call("GetItem", {"TableName": t, "Key": {"pk": {"S": "big"}}},
                 headers={"Accept-Encoding": "gzip"})
    assert r.status == 200
    assert r.headers["Content-Encoding"] == "gzip"
    assert int(r.headers["Content-Length"]) == len(r.raw)
    assert int(r.headers["x-amz-crc32"]) == zlib.crc32(r.raw)
    assert json.loads(gzip.decompress(r.raw))["Item"] == item
    assert len(r.raw) < 1000


# q-values choose the coding; q=0 refuses one; identity alone gets the plain reply.
# ddblocal_differs: DynamoDB Local (2026-05-28) never compresses a reply.
@pytest.mark.ddblocal_differs
def test_accept_encoding_q_values(raw, make_table):
    t, item = big_item(raw, make_table)
    key = {"TableName": t, "Key": {"pk": {"S": "big"}}}
    r = raw.call("GetItem", key, headers={"Accept-Encoding": "gzip;q=0.5, deflate;q=0.9"})
    assert r.headers["Content-Encoding"] == "deflate"
    assert json.loads(zlib.decompress(r.raw))["Item"] == item
    assert int(r.headers["x-amz-crc32"]) == zlib.crc32(r.raw)
    for ae in ("identity", "gzip;q=0", "*;q=0"):
        r = raw.call("GetItem", key, headers={"Accept-Encoding": ae})
        assert r.headers.get("Content-Encoding") is None, ae
        assert r.json["Item"] == item
    r = raw.call("GetItem", key, headers={"Accept-Encoding": "*"})
    assert r.headers["Content-Encoding"] == "gzip"


# Small replies go out as they are, even to a client that takes gzip.
@pytest.mark.sluice_only
def test_small_reply_not_compressed(raw):
    r = raw.call("ListTables", {"Limit": 1}, headers={"Accept-Encoding": "gzip"})
    assert r.status == 200
    assert r.headers.get("Content-Encoding") is None
    assert int(r.headers["x-amz-crc32"]) == zlib.crc32(r.raw)
