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

module.exports = { encodeString, decodeString, encodeVarint64, decodeVarint64 };
