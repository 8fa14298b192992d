// A Node gRPC client (@grpc/grpc-js, from the npm registry) calling a Jupiter provider.
// Usage: node unary-client.js <host:port> <service> [<client-stream service>]
// Prints one JSON line per call: the reply of sayHello (with metadata tenant=acme), the status of fail, and the
// status of sayHello with a deadline already too short for sleep; with a third argument, the reply of that
// service's client-streaming sum of 1, 2, 3; last, the reply of sayHello from a client that compresses its messages
// with gzip (grpc.default_compression_algorithm 2).
const grpc = require('@grpc/grpc-js');

const { encodeString, decodeString, encodeVarint64, decodeVarint64 } = require('./protobuf-wire');

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
  const gzip = new grpc.Client(target, grpc.credentials.createInsecure(), { 'grpc.default_compression_algorithm': 2 });
  results.push(await new Promise((resolve) => {
    gzip.makeUnaryRequest('/' + service + '/sayHello', encodeString, decodeString, 'gzip '.repeat(20),
      new grpc.Metadata(), {}, (error, reply) => resolve(error ? { code: error.code, details: error.details }
        : { reply: reply.length + ' chars, ' + reply.slice(0, 11) }));
  }));
  gzip.close();
  results.forEach((r) => console.log(JSON.stringify(r)));
  client.close();
})().catch((e) => { console.error(e); process.exit(2); });
