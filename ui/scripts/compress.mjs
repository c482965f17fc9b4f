// Writes .br and .gz siblings of every compressible file in the build output, so the server
// can send precompressed files without spending a Raspberry Pi's CPU on each request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const compressible = /\.(html|js|mjs|css|svg|json|webmanifest|txt)$/;
const MIN_BYTES = 512;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
    } else if (compressible.test(name)) {
      const data = readFileSync(path);
      if (data.length < MIN_BYTES) continue;
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      writeFileSync(
        `${path}.br`,
        brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
    }
  }
}

walk(root);
