'use strict';
// The limit a Node redirect can reach on this machine: bare node:http, the same aliases in a Map, the same answer
// as the service's (302, Location, Cache-Control). Started by the bench, which sends the aliases once over IPC.
const http = require('node:http');

process.once('message', (message) => {
  const links = new Map(message.links.map(([alias, url]) => [alias.toLowerCase(), url]));
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const end = path.indexOf('?');
    const url = links.get((end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase());
    if (url === undefined) {
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('Not found');
      return;
    }
    response.writeHead(302, { Location: url, 'Cache-Control': 'private, no-store' });
    response.end();
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
});
// The bench going away takes the baseline with it.
process.on('disconnect', () => process.exit(0));
