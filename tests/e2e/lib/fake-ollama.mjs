// Starts the fake Ollama server (tests/support/fake_ollama.rs, built as the `fake_ollama`
// example) on a free loopback port. The model name a server is configured with picks the
// fake's answer: `slow` streams over about three seconds, `good` answers at once.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const BINARY = process.env.FAKE_OLLAMA_BIN ?? join(root, 'target/release/examples/fake_ollama');

export async function startFakeOllama() {
  const child = spawn(BINARY, ['--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`fake_ollama exited (${code})`)));
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
