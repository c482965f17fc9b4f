// Serves a freshly built ui/dist in front of a running binary, for checking UI changes in the
// browser without rebuilding the Rust binary (which embeds the UI at build time).
//
// Every request still goes to the binary, so statuses (200 for a page, 404 for an unknown path),
// security headers (the Content-Security-Policy) and the API are the binary's own; only the body
// of a UI file is replaced by the one in the directory. Opt in with HIGHCHAIR_UI_DIST=ui/dist.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gunzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** Headers of the binary's answer that describe its own body, not the one sent instead. */
const BODY_HEADERS = ['content-length', 'content-encoding', 'etag', 'vary', 'content-type', 'cache-control'];

function distFile(dist, pathname) {
  const rel = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  if (rel === '/' || rel.endsWith('.gz') || rel.endsWith('.br')) return null;
  const file = join(dist, rel);
  // The build keeps most files only compressed (ui/scripts/compress.mjs): a file is there when
  // it or its gzip copy is.
  const stored = existsSync(file) ? file : `${file}.gz`;
  return file.startsWith(dist) && existsSync(stored) && statSync(stored).isFile() ? file : null;
}

/** Starts the overlay on a free loopback port; resolves to its URL and a stop function. */
export async function overlayUi(backendUrl, dist) {
  const backend = new URL(backendUrl);
  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://overlay');
    const api = pathname === '/api' || pathname.startsWith('/api/');
    // The Host header is passed on unchanged: the binary's same-origin check compares the
    // browser's Origin with it, and both name the overlay.
    const upstream = request(
      { host: backend.hostname, port: backend.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (api || !['GET', 'HEAD'].includes(req.method)) {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
          return;
        }
        answer.resume();
        const file = distFile(dist, pathname);
        const plain = file ?? join(dist, 'index.html');
        // The precompressed sibling when the browser takes it, as the binary sends it: a
        // Lighthouse run through the overlay then downloads the same bytes.
        const accepted = String(req.headers['accept-encoding'] ?? '');
        const [encoding, stored] = [
          ['br', `${plain}.br`],
          ['gzip', `${plain}.gz`],
        ].find(([e, path]) => accepted.includes(e) && existsSync(path)) ?? [null, plain];
        const body = existsSync(stored) ? readFileSync(stored) : gunzipSync(readFileSync(`${stored}.gz`));
        const headers = { ...answer.headers };
        for (const h of BODY_HEADERS) delete headers[h];
        headers['content-type'] = TYPES[extname(plain)] ?? 'application/octet-stream';
        if (encoding) {
          headers['content-encoding'] = encoding;
          headers.vary = 'accept-encoding';
        }
        headers['cache-control'] = 'no-cache';
        headers['content-length'] = body.length;
        res.writeHead(file ? 200 : answer.statusCode, headers);
        res.end(req.method === 'HEAD' ? undefined : body);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
    req.pipe(upstream);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(ok);
      }),
  };
}
