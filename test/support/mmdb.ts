import ipaddr from 'ipaddr.js';
import { writeFileSync } from 'node:fs';

/**
 * A small MaxMind DB file (format 2.0, an IPv6 tree holding IPv4 at ::/96), so that the city lookup is tested
 * on a real database without shipping DB-IP's 135 MB one.
 */
export type MmdbValue = string | number | bigint | MmdbValue[] | { [key: string]: MmdbValue };

function controlByte(type: number, size: number): Buffer {
  const extended = type > 7;
  const head = (extended ? 0 : type << 5) | (size < 29 ? size : size < 285 ? 29 : 30);
  const parts = [Buffer.from([head])];
  if (extended) parts.push(Buffer.from([type - 7]));
  if (size >= 285) parts.push(Buffer.from([(size - 285) >> 8, (size - 285) & 0xff]));
  else if (size >= 29) parts.push(Buffer.from([size - 29]));
  return Buffer.concat(parts);
}

function unsigned(type: number, value: number | bigint): Buffer {
  let hex = value.toString(16);
  if (value === 0 || value === 0n) hex = '';
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return Buffer.concat([controlByte(type, bytes.length), bytes]);
}

function encode(value: MmdbValue, type?: 'uint16' | 'uint32' | 'uint64'): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([controlByte(2, bytes.length), bytes]);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return unsigned(type === 'uint64' ? 9 : type === 'uint32' ? 6 : 5, value);
  }
  if (Array.isArray(value)) {
    return Buffer.concat([controlByte(11, value.length), ...value.map((item) => encode(item))]);
  }
  const entries = Object.entries(value);
  return Buffer.concat([
    controlByte(7, entries.length),
    ...entries.flatMap(([key, item]) => [encode(key), encode(item)]),
  ]);
}

/** The 128 bits of a network's address, and its prefix length in the IPv6 tree. */
function bitsOf(network: string): { bits: number[]; prefix: number } {
  const [address, length] = ipaddr.parseCIDR(network);
  const v4 = address.kind() === 'ipv4';
  const bytes = [...(v4 ? new Array<number>(12).fill(0) : []), ...address.toByteArray()];
  const bits = bytes.flatMap((byte) => Array.from({ length: 8 }, (_, index) => (byte >> (7 - index)) & 1));
  return { bits, prefix: (v4 ? 96 : 0) + length };
}

/** Writes a database that answers `record` for each network (CIDR, IPv4 or IPv6). */
export function writeMmdb(path: string, networks: Record<string, { [key: string]: MmdbValue }>): void {
  type Slot = { node: number } | { data: number } | null;
  const nodes: [Slot, Slot][] = [[null, null]];
  const data: Buffer[] = [];
  let dataLength = 0;
  for (const [network, record] of Object.entries(networks)) {
    const encoded = encode(record);
    const slot = { data: dataLength };
    data.push(encoded);
    dataLength += encoded.length;
    const { bits, prefix } = bitsOf(network);
    let node = 0;
    for (let depth = 0; depth < prefix - 1; depth += 1) {
      const next = nodes[node][bits[depth]];
      if (next !== null && 'node' in next) {
        node = next.node;
      } else {
        nodes.push([null, null]);
        nodes[node][bits[depth]] = { node: nodes.length - 1 };
        node = nodes.length - 1;
      }
    }
    nodes[node][bits[prefix - 1]] = slot;
  }
  const nodeCount = nodes.length;
  const record = (slot: Slot) =>
    slot === null ? nodeCount : 'node' in slot ? slot.node : nodeCount + 16 + slot.data;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach(([left, right], index) => {
    tree.writeUIntBE(record(left), index * 6, 3);
    tree.writeUIntBE(record(right), index * 6 + 3, 3);
  });
  const metadata = Buffer.concat([
    controlByte(7, 9),
    encode('node_count'),
    encode(nodeCount, 'uint32'),
    encode('record_size'),
    encode(24, 'uint16'),
    encode('ip_version'),
    encode(6, 'uint16'),
    encode('database_type'),
    encode('test-city'),
    encode('languages'),
    encode([]),
    encode('binary_format_major_version'),
    encode(2, 'uint16'),
    encode('binary_format_minor_version'),
    encode(0, 'uint16'),
    encode('build_epoch'),
    encode(BigInt(Math.floor(Date.now() / 1000)), 'uint64'),
    encode('description'),
    encode({}),
  ]);
  writeFileSync(
    path,
    Buffer.concat([
      tree,
      Buffer.alloc(16),
      ...data,
      Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'),
      metadata,
    ]),
  );
}
