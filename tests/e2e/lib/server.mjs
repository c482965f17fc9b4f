// Starts the release binary on a free port with a fresh data directory, like a family would.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { overlayUi } from './ui-overlay.mjs';

const root = resolve(import.meta.dirname, '../../..');
export const BINARY = process.env.HIGHCHAIR_BIN ?? join(root, 'target/release/highchair');
/** A built UI directory (ui/dist) to serve instead of the one embedded in the binary; see ui-overlay.mjs. */
const UI_DIST = process.env.HIGHCHAIR_UI_DIST ? resolve(process.env.HIGHCHAIR_UI_DIST) : null;

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

async function waitHealthy(url, child, logs) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`highchair exited early:\n${logs.join('')}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`highchair did not become healthy:\n${logs.join('')}`);
}

/**
 * Starts `highchair serve`; `env` adds HIGHCHAIR_* settings. `url` is where the browser goes
 * (the UI overlay when HIGHCHAIR_UI_DIST is set, the binary otherwise).
 */
export async function startServer(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'highchair-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logs = [];
  // With an overlay, links the server prints (password resets) point at the overlay.
  const overlay = UI_DIST ? await overlayUi(url, UI_DIST) : null;
  const publicUrl = overlay ? { HIGHCHAIR_SERVER_PUBLIC_URL: overlay.url } : {};
  const child = spawn(BINARY, ['serve', '--listen', `127.0.0.1:${port}`, '--data-dir', join(dataDir, 'data')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HIGHCHAIR_LOG_LEVEL: 'info',
      // CI machines can be short of disk; the low-disk guard has its own test.
      HIGHCHAIR_LIMITS_MIN_FREE_DISK_MB: '0',
      ...publicUrl,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => logs.push(d.toString()));
  child.stderr.on('data', (d) => logs.push(d.toString()));
  try {
    await waitHealthy(url, child, logs);
  } catch (err) {
    await overlay?.stop();
    throw err;
  }
  return {
    url: overlay?.url ?? url,
    dataDir,
    /** The directory `serve` uses (for admin CLI commands). */
    dataPath: join(dataDir, 'data'),
    logs: () => logs.join(''),
    async stop() {
      await overlay?.stop();
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `highchair <args>` (the admin CLI) and returns its standard output. */
export function cli(args, input) {
  return execFileSync(BINARY, args, { input, encoding: 'utf8', env: { PATH: process.env.PATH } });
}
