-- wrk script: GetItem of ~1 KB items among 1,000 preloaded keys (bench/run.sh).
local n = 0
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810.GetItem"
  wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
  wrk.headers["X-Amz-Date"] = "20261130T000000Z"
end
function request()
  n = n + 1
  local body = '{"TableName":"bench","Key":{"pk":{"S":"g' .. (n % 1000) .. '"}}}'
  return wrk.format(nil, "/", nil, body)
end
