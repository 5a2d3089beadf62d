"""DescribeEndpoints: the endpoint-discovery operation SDKs may call.

ddblocal_differs (whole file): DynamoDB Local answers UnknownOperationException "An unknown
operation was requested.". Source of the shape: AWS API model (BOTO DescribeEndpoints:
Endpoints list of {Address, CachePeriodInMinutes}, both required); AWS answers
{"Endpoints":[{"Address":"dynamodb.<region>.amazonaws.com","CachePeriodInMinutes":1440}]}.
"""
import pytest

pytestmark = pytest.mark.ddblocal_differs


# The reply lists exactly one endpoint with an address and a cache period of one day.
def test_shape(raw):
    r = raw.call("DescribeEndpoints", {})
    assert r.status == 200, r
    assert set(r.json) == {"Endpoints"}
    (ep,) = r.json["Endpoints"]
    assert set(ep) == {"Address", "CachePeriodInMinutes"}
    assert isinstance(ep["Address"], str) and ep["Address"]
    assert ep["CachePeriodInMinutes"] == 1440


# boto3 parses it (this is what endpoint discovery calls).
def test_boto3(ddb):
    eps = ddb.describe_endpoints()["Endpoints"]
    assert len(eps) == 1 and eps[0]["Address"]


# The address is the host the client used (its Host header), as the service names its own
# regional host: endpoint discovery then keeps talking to this server.
def test_address_is_the_host_used(raw, endpoint):
    r = raw.call("DescribeEndpoints", {})
    assert r.json["Endpoints"][0]["Address"] == endpoint.split("//", 1)[1]
