"""The per-table quota of an on-demand table on the wire (capacity-model.md §3, facts §1.2):
an AccountLimit throttle is RequestLimitExceeded with the TableWriteAccountLimitExceeded
reason by default, or ThrottlingException (lower-case throttlingReasons) with
`account_limit_exception = 1` — AWS's pages disagree, so it is a parameter. The quota is cut
to 10 write units/s by --config so that a few writes reach it. DynamoDB Local ignores
capacity: marked `capacity`.
"""
import uuid

import pytest

from conftest import Client, Server

pytestmark = pytest.mark.capacity

MSG = ("Throughput exceeds the current throughput limit for your account. To request a limit "
       "increase, contact AWS Support at https://aws.amazon.com/support")


def first_throttle(tmp_path, extra):
    cfg = tmp_path / "quota.conf"
    cfg.write_text("table_quota_write = 10\n" + extra)
    srv = Server(["--clock", "manual", "--clock-start", "2026-11-30T12:00:00Z", "--config", str(cfg)])
    try:
        c = Client(srv.endpoint)
        name = "t_" + uuid.uuid4().hex[:12]
        arn = c.create_table(name)["TableArn"]
        for i in range(2000):
            status, reply = c.call("PutItem", {"TableName": name,
                                               "Item": {"pk": {"S": f"k{i}"}, "v": {"S": "x" * 900}}})
            if status != 200:
                return status, reply, arn
        raise AssertionError("no throttle in 2,000 writes at 10 units/s")
    finally:
        srv.stop()


# The default: RequestLimitExceeded (the modelled exception for account throughput).
def test_account_limit_is_request_limit_exceeded(tmp_path):
    status, reply, arn = first_throttle(tmp_path, "")
    assert status == 400
    assert reply["__type"] == "com.amazonaws.dynamodb.v20120810#RequestLimitExceeded"
    assert reply["message"] == MSG
    assert reply["ThrottlingReasons"] == [{"reason": "TableWriteAccountLimitExceeded", "resource": arn}]


# account_limit_exception = 1: ThrottlingException with the same reason.
def test_account_limit_as_throttling_exception(tmp_path):
    status, reply, arn = first_throttle(tmp_path, "account_limit_exception = 1\n")
    assert status == 400
    assert reply["__type"] == "com.amazon.coral.availability#ThrottlingException"
    assert reply["message"] == MSG
    assert reply["throttlingReasons"] == [{"reason": "TableWriteAccountLimitExceeded", "resource": arn}]
