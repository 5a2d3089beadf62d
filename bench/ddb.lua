-- ddb.lua: what the DynamoDB wrk scripts of bench/ share. Loaded with dofile (the
-- path of the script that loads it); returns a table.
-- ddb.init(target): in a script's init(), a JSON 1.0 POST of DynamoDB_20120810.<target>
-- with a placeholder SigV4 header (the servers measured accept any signature).
-- ddb.target(target): another operation for the requests that follow.
-- ddb.setup(thread): as a script's setup(), numbers the threads (their "id" global).
local M = {}
local thread_id = 0
function M.target(target)
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810." .. target
end
function M.init(target)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  M.target(target)
  wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
  wrk.headers["X-Amz-Date"] = "20261130T000000Z"
end
function M.setup(thread)
  thread:set("id", thread_id)
  thread_id = thread_id + 1
end
return M
