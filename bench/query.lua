-- wrk script: Query returning 100 items of ~1 KB from one partition (bench/run.sh).
local ddb = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ddb.lua")
function init(args)
  ddb.init("Query")
  wrk.body = '{"TableName":"benchq","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"q"}}}'
end
