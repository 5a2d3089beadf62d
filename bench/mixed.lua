-- wrk script: a write and a read of what it wrote, in turn (per wrk thread, so the
-- read may go out on another connection before the write is answered): PutItem of a
-- ~1 KB item with a fresh key, then GetItem of that key (bench/durable.py --script).
local pad = string.rep("x", 960)
local n = 0
local thread_id = 0
local prefix = os.getenv("PUT_PREFIX") or "m"
function setup(thread)
  thread:set("id", thread_id)
  thread_id = thread_id + 1
end
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
  wrk.headers["X-Amz-Date"] = "20261130T000000Z"
end
function request()
  n = n + 1
  local key = prefix .. id .. '-' .. math.floor((n + 1) / 2)
  if n % 2 == 1 then
    wrk.headers["X-Amz-Target"] = "DynamoDB_20120810.PutItem"
    return wrk.format(nil, "/", nil, '{"TableName":"bench","Item":{"pk":{"S":"' .. key ..
      '"},"pad":{"S":"' .. pad .. '"}}}')
  end
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810.GetItem"
  return wrk.format(nil, "/", nil, '{"TableName":"bench","Key":{"pk":{"S":"' .. key .. '"}}}')
end
