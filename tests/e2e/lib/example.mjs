// Starts one of the cargo examples the browser tests use (built in target/release/examples) on a
// free loopback port, and waits for its `listening on http://...` line.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');

/** `name`: the example; `binary`: a path that overrides target/release/examples/<name>. */
export async function startExample(name, binary) {
  const child = spawn(binary ?? join(root, 'target/release/examples', name), ['--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`${name} exited (${code})`)));
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]);
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}
