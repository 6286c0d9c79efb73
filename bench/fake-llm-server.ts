/**
 * Runs the fake OpenAI-compatible server in its own process for bench/llm.bench.ts, so that the
 * server's CPU does not share the client's event loop (a real API is on another machine too).
 * Prints its URL on stdout; replies with valid JSON after `latencyMs` (argv[2]).
 */
import { FakeOpenAiServer } from '../src/testing/index.js';

const latencyMs = Number(process.argv[2] ?? 50);
const server = await new FakeOpenAiServer({
  latencyMs,
  replies: (request) => ({ text: JSON.stringify({ id: request.messages.at(-1)?.content ?? '', ok: true }) }),
}).start();
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
