// The pressure scenario's hostile client, in a process of its own so that the load generator's measurements stay
// the service's: keeps IN_FLIGHT maximal bulk creates and as many maximal imports in flight (each sent again as
// soon as it is answered) until the bench sends "stop" (or, with `times`, that many of each), then one body a byte
// over the limit of each kind, and sends back every answer it got.
'use strict';
const { Agent, request } = require('node:http');
const { performance } = require('node:perf_hooks');

const { origin, key, limit, inFlight, times } = JSON.parse(process.argv[2]);

/** `head`, then `item` repeated with `separator` between, then `tail`: exactly `bytes` long. */
function filled(head, item, separator, tail, bytes) {
  const room = bytes - head.length - tail.length;
  const count = Math.floor((room + separator.length) / (item.length + separator.length));
  const items = Array.from({ length: count }, () => item).join(separator);
  // Spaces, which JSON and a CSV file's trimmed cells both pass over, make up the last few bytes.
  return Buffer.from(head + items + ' '.repeat(room - items.length) + tail);
}

// A JSON list of empty links, and a CSV file of one-letter rows.
const KINDS = [
  {
    name: 'bulk',
    path: '/api/v1/links/bulk',
    type: 'application/json',
    body: (bytes) => filled('{"links":[', '{}', ',', ']}', bytes),
  },
  {
    name: 'import',
    path: '/api/v1/links/import',
    type: 'text/csv',
    body: (bytes) => filled('url\n', 'x', '\n', '\n', bytes),
  },
];

function post(kind, body, agent) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      new URL(kind.path, origin),
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${key}`,
          Accept: 'application/json',
          'Content-Type': kind.type,
          'Content-Length': String(body.length),
        },
      },
      (incoming) => {
        const chunks = [];
        incoming.on('data', (chunk) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode,
            body: Buffer.concat(chunks).toString('utf8').slice(0, 200),
            ms: performance.now() - started,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

let stopped = false;
process.on('message', (message) => {
  if (message === 'stop') stopped = true;
});

async function main() {
  const report = {};
  await Promise.all(
    KINDS.map(async (kind) => {
      const answers = { maximal: [], oversized: [], failures: [] };
      report[kind.name] = answers;
      const maximal = kind.body(limit);
      const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
      let sent = 0;
      const client = async () => {
        while (!stopped && (times === null || sent < times)) {
          sent += 1;
          try {
            answers.maximal.push(await post(kind, maximal, agent));
          } catch (error) {
            answers.failures.push(String(error));
          }
        }
      };
      await Promise.all(Array.from({ length: inFlight }, client));
      try {
        answers.oversized.push(await post(kind, kind.body(limit + 1), agent));
      } catch (error) {
        answers.failures.push(`a byte over: ${String(error)}`);
      }
      agent.destroy();
    }),
  );
  process.send(report, () => process.exit(0));
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
