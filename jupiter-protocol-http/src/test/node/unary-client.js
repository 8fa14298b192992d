// A Node gRPC client (@grpc/grpc-js, from the npm registry) calling a Jupiter provider.
// Usage: node unary-client.js <host:port> <service> [<client-stream service>]
// Prints one JSON line per call: the reply of sayHello (with metadata tenant=acme), the status of fail, and the
// status of sayHello with a deadline already too short for sleep; with a third argument, the reply of that
// service's client-streaming sum of 1, 2, 3.
const grpc = require('@grpc/grpc-js');

// google.protobuf.StringValue / Int64Value by hand: field 1, a string (wire type 2) or a varint (wire type 0).
function encodeString(text) {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 127) throw new Error('short strings only');
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]);
}
function decodeString(buffer) {
  if (buffer.length === 0) return '';
  if (buffer[0] !== 0x0a) throw new Error('unexpected tag ' + buffer[0]);
  return buffer.subarray(2, 2 + buffer[1]).toString('utf8');
}
function encodeVarint64(value) {
  const out = [0x08];
  let v = BigInt(value);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}

function decodeVarint64(buffer) {
  if (buffer.length === 0) return 0;
  if (buffer[0] !== 0x08) throw new Error('unexpected tag ' + buffer[0]);
  let value = 0n;
  for (let i = 1, shift = 0n; i < buffer.length; i++, shift += 7n) {
    value |= BigInt(buffer[i] & 0x7f) << shift;
    if ((buffer[i] & 0x80) === 0) break;
  }
  return Number(value);
}

const [target, service, streamService] = process.argv.slice(2);
const client = new grpc.Client(target, grpc.credentials.createInsecure());
const results = [];

function call(method, request, encode, decode, metadata, deadlineMillis) {
  return new Promise((resolve) => {
    const options = deadlineMillis ? { deadline: Date.now() + deadlineMillis } : {};
    client.makeUnaryRequest('/' + service + '/' + method, encode, decode, request, metadata || new grpc.Metadata(),
      options, (error, reply) => resolve(error ? { code: error.code, details: error.details } : { reply }));
  });
}

function sum(values) {
  return new Promise((resolve) => {
    const stream = client.makeClientStreamRequest('/' + streamService + '/sum', encodeVarint64, decodeVarint64,
      new grpc.Metadata(), {}, (error, reply) => resolve(error ? { code: error.code, details: error.details } : { reply }));
    values.forEach((v) => stream.write(v));
    stream.end();
  });
}

(async () => {
  const metadata = new grpc.Metadata();
  metadata.set('tenant', 'acme');
  results.push(await call('sayHello', 'Node', encodeString, decodeString, metadata));
  results.push(await call('fail', 'from node', encodeString, decodeString));
  results.push(await call('sleep', 3000, encodeVarint64, (b) => b.length, null, 300));
  if (streamService) results.push(await sum([1, 2, 3]));
  results.forEach((r) => console.log(JSON.stringify(r)));
  client.close();
})().catch((e) => { console.error(e); process.exit(2); });
