// Writes the API's Swagger UI into the build output (dist/api-docs/), served at /api/docs.
//
// From swagger-ui-dist, the Swagger team's own build, instead of the copy poem-openapi inlines
// into the binary (1.6 MB, sent with every page view, and an inline script the
// Content-Security-Policy had to allow). The two large files are stored gzip-compressed only
// (the server decompresses them for the rare client that takes no gzip): the binary grows by
// 0.45 MB instead of 1.6 MB. The page's own script is a file, so `script-src 'self'` holds.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

const out = join(process.argv[2] ?? 'dist', 'api-docs');
const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
mkdirSync(out, { recursive: true });

for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
  const data = readFileSync(join(from, name));
  writeFileSync(join(out, `${name}.gz`), gzipSync(data, { level: constants.Z_BEST_COMPRESSION }));
}
copyFileSync(join(from, 'LICENSE'), join(out, 'LICENSE.txt'));
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Highchair API</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`,
);
writeFileSync(
  join(out, 'init.js'),
  `// Swagger UI (swagger-ui-dist ${JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')).version}, Apache-2.0: /api/docs/LICENSE.txt) on this server's API.
window.SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#ui', deepLinking: true });
`,
);
