// Writes .br and .gz siblings of every compressible file in the build output, so the server
// can send precompressed files without spending a Raspberry Pi's CPU on each request, and
// removes the original: the binary embeds what is here, and every browser takes br or gzip
// (the server decompresses the .gz for a client that takes neither). index.html stays as it
// is: it is the build's stamp (build.rs compares its time with the UI's sources).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const compressible = /\.(html|js|mjs|css|svg|json|webmanifest|txt)$/;
const MIN_BYTES = 512;
const KEEP_PLAIN = new Set([join(root, 'index.html')]);

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
      if (!KEEP_PLAIN.has(path)) rmSync(path);
    }
  }
}

walk(root);
