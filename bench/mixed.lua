-- wrk script: a write and a read of what it wrote, in turn (per wrk thread, so the
-- read may go out on another connection before the write is answered): PutItem of a
-- ~1 KB item with a fresh key, then GetItem of that key (bench/durable.py --script).
local pad = string.rep("x", 960)
local n = 0
local prefix = os.getenv("PUT_PREFIX") or "m"
local ddb = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ddb.lua")
setup = ddb.setup
function init(args)
  ddb.init("PutItem")
end
function request()
  n = n + 1
  local key = prefix .. id .. '-' .. math.floor((n + 1) / 2)
  if n % 2 == 1 then
    ddb.target("PutItem")
    return wrk.format(nil, "/", nil, '{"TableName":"bench","Item":{"pk":{"S":"' .. key ..
      '"},"pad":{"S":"' .. pad .. '"}}}')
  end
  ddb.target("GetItem")
  return wrk.format(nil, "/", nil, '{"TableName":"bench","Key":{"pk":{"S":"' .. key .. '"}}}')
end
