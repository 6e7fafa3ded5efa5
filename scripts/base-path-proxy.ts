/**
 * A reverse proxy for the end-to-end tests (playwright.config.ts), as a corporate one in front of the
 * dashboard would be: it forwards `PREFIX/…` to `TARGET` unchanged (the prefix kept, as nginx's
 * `location /dashboard/ { proxy_pass http://dashboard:8080; }` does), and answers 404 to anything else,
 * so a request of the page's that escapes the prefix fails visibly. Never for real use.
 *
 * PORT (default 5318), TARGET (default http://127.0.0.1:5319), PREFIX (default /dashboard).
 */
import { createServer, request } from 'node:http';

const port = Number(process.env.PORT ?? 5318);
const target = new URL(process.env.TARGET ?? 'http://127.0.0.1:5319');
const prefix = process.env.PREFIX ?? '/dashboard';

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (!url.startsWith(`${prefix}/`)) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`Not under ${prefix}/ (the proxy forwards nothing else): ${url}\n`);
    return;
  }
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  upstream.on('error', (e) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`The dashboard did not answer: ${e.message}\n`);
  });
  req.pipe(upstream);
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`proxy at http://127.0.0.1:${port}${prefix}/ → ${target.origin}${prefix}/\n`);
});
