// A Node gRPC client (@grpc/grpc-js, from the npm registry) making stream calls on a Jupiter provider.
// Usage: node streams-client.js <host:port> <server-stream service> <bidirectional service>
// Prints one JSON line per call, {messages, code, details}:
//   1. count(5), server streaming, read to its end;
//   2. echo of a, b, c, bidirectional, each line written once the previous one came back, then half-closed;
//   3. echo with a 500 ms deadline, one line written and never half-closed (DEADLINE_EXCEEDED, 4);
//   4. flood(1000000), server streaming of 16 KiB messages, cancelled by the client after 3 (CANCELLED, 1).
const grpc = require('@grpc/grpc-js');
const { encodeString, decodeString, encodeVarint64, decodeVarint64 } = require('./protobuf-wire');

const [target, ticker, tally] = process.argv.slice(2);
const client = new grpc.Client(target, grpc.credentials.createInsecure());

// Resolves with the messages read and the call's status, once grpc-js reports the status.
function settle(call, messages, onMessage) {
  return new Promise((resolve) => {
    call.on('data', (message) => {
      messages.push(message);
      if (onMessage) onMessage(message);
    });
    call.on('error', () => {}); // the status below says it
    call.on('status', (status) => resolve({ messages, code: status.code, details: status.details }));
  });
}

function count(n) {
  const call = client.makeServerStreamRequest('/' + ticker + '/count', encodeVarint64, decodeVarint64, n,
    new grpc.Metadata(), {});
  return settle(call, []);
}

function echo(lines) {
  const call = client.makeBidiStreamRequest('/' + tally + '/echo', encodeString, decodeString, new grpc.Metadata(),
    {});
  let next = 0;
  const writeNext = () => {
    if (next < lines.length) call.write(lines[next++]);
    else call.end();
  };
  const done = settle(call, [], writeNext);
  writeNext();
  return done;
}

function echoPastItsDeadline() {
  const call = client.makeBidiStreamRequest('/' + tally + '/echo', encodeString, decodeString, new grpc.Metadata(),
    { deadline: Date.now() + 500 });
  const done = settle(call, []);
  call.write('still here');
  return done;
}

function floodCancelledAfter(n) {
  const call = client.makeServerStreamRequest('/' + ticker + '/flood', encodeVarint64, (b) => b.length, 1000000,
    new grpc.Metadata(), {});
  const messages = [];
  return settle(call, messages, () => {
    if (messages.length === n) call.cancel();
  }).then((r) => ({ messages: r.messages.length, code: r.code, details: r.details }));
}

(async () => {
  const results = [];
  results.push(await count(5));
  results.push(await echo(['a', 'b', 'c']));
  results.push(await echoPastItsDeadline());
  results.push(await floodCancelledAfter(3));
  results.forEach((r) => console.log(JSON.stringify(r)));
  client.close();
})().catch((e) => { console.error(e); process.exit(2); });
