"""HTTP details of the service's front end: the Server header, over-long heads,
Content-Type variants.

Real behaviour: DynamoDB answers with `Server: Server` (seen in the headers of live replies
quoted in SDK issues); the SDKs send `application/x-amz-json-1.0` (botocore, JS v3),
`application/x-amz-json-1.1` (some third-party clients) or `application/json`, sometimes with
`; charset=utf-8`, and the reply echoes the media type. The service never sends 431: an
over-long head is a 400 and the connection is closed.
"""
import socket

import pytest


# Every reply names the server "Server", as the service's do.
@pytest.mark.sluice_only
def test_server_header(raw):
    assert raw.call("ListTables", {}).headers["Server"] == "Server"
    assert raw.call("DescribeTable", {"TableName": "t_no_such_wire_http"}).headers["Server"] == "Server"


# The JSON media type of the request comes back, parameters dropped.
@pytest.mark.ddblocal_differs
@pytest.mark.parametrize("sent,answered", [
    ("application/x-amz-json-1.0", "application/x-amz-json-1.0"),
    ("application/x-amz-json-1.0; charset=utf-8", "application/x-amz-json-1.0"),
    ("application/x-amz-json-1.1", "application/x-amz-json-1.1"),
    ("application/json", "application/json"),
    ("application/json; charset=utf-8", "application/json"),
    ("Application/JSON", "application/json"),
])
def test_content_type_echoed(raw, sent, answered):
    r = raw.call("ListTables", {}, headers={"Content-Type": sent})
    assert r.status == 200, r
    assert r.headers["Content-Type"] == answered


def send_raw(endpoint, data):
    host, port = endpoint.split("//", 1)[1].split(":")
    s = socket.create_connection((host, int(port)), timeout=10)
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    out = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        out += chunk
    s.close()
    return out


# An over-long header is a 400 with a JSON error body, and the connection closes cleanly
# (the reply arrives whole, then EOF: no reset).
@pytest.mark.sluice_only
def test_header_too_large(endpoint):
    out = send_raw(endpoint, b"POST / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"v" * 70000 + b"\r\n\r\n")
    head, _, body = out.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"\r\nConnection: close" in head
    assert b"SerializationException" in body


# The same for an over-long request line.
@pytest.mark.sluice_only
def test_request_line_too_large(endpoint):
    out = send_raw(endpoint, b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n")
    assert out.startswith(b"HTTP/1.1 400 ")
