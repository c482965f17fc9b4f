// Starts the fake Ollama server (tests/support/fake_ollama.rs, built as the `fake_ollama`
// example) on a free loopback port. The model name a server is configured with picks the
// fake's answer: `slow` streams over about three seconds, `good` answers at once.
import { startExample } from './example.mjs';

export function startFakeOllama() {
  return startExample('fake_ollama', process.env.FAKE_OLLAMA_BIN);
}
