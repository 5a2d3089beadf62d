-- wrk script: Query returning 100 items of ~1 KB from one partition (bench/run.sh).
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-amz-json-1.0"
  wrk.headers["X-Amz-Target"] = "DynamoDB_20120810.Query"
  wrk.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20261130/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0"
  wrk.headers["X-Amz-Date"] = "20261130T000000Z"
  wrk.body = '{"TableName":"benchq","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"q"}}}'
end
