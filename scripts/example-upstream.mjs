#!/usr/bin/env node
// The small upstream the gateway examples in docs/gateway.md proxy to: it answers every request with what it
// received (method, path and query, the X-Forwarded-For the gateway added, the body), as JSON.
// `npm run example:upstream` listens on 127.0.0.1:8081; `PORT=8082 npm run example:upstream` on another port
// (`PORT=0`: a free one, named in the line it prints).
import http from 'node:http';

const port = Number(process.env.PORT ?? 8081);
const MAX_BODY = 64 * 1024;

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => {
    // An example server, not a sink: a body past the bound is cut, not buffered.
    if (body.length < MAX_BODY) body += chunk;
  });
  req.on('end', () => {
    const answer = { method: req.method, url: req.url, forwardedFor: req.headers['x-forwarded-for'] };
    if (body) answer.body = body.slice(0, MAX_BODY);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

server.listen(port, '127.0.0.1', () =>
  process.stdout.write(`example upstream listening on http://127.0.0.1:${server.address().port}\n`),
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
