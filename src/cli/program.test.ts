import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { memoryIo } from './io.js';
import { createProgram, runCli } from './program.js';

describe('citegeist CLI skeleton', () => {
  it('lists its commands in --help and exits 0', async () => {
    const { io, stdout } = memoryIo();
    const code = await runCli(['--help'], io);
    expect(code).toBe(0);
    expect(stdout()).toMatch(/Usage: citegeist/);
    expect(stdout()).toMatch(/demo/);
  });

  it('refuses an unknown command with a non-zero exit and says so', async () => {
    const { io, stderr } = memoryIo();
    const code = await runCli(['no-such-command'], io);
    expect(code).toBe(2);
    expect(stderr()).toMatch(/unknown command 'no-such-command'/);
  });

  it('answers a mistyped command with the suggestion and one line, not the whole help', async () => {
    const { io, stderr, stdout } = memoryIo();
    expect(await runCli(['grde', '--dataset', 'x'], io)).toBe(2);
    expect(stderr()).toBe(
      "error [UNKNOWN_COMMAND]: unknown command 'grde'\n  fix: Did you mean grade? Run `citegeist --help` (or `citegeist <command> --help`) for the usage.\n",
    );
    expect(stdout()).toBe('');
  });

  it('gives every usage error a code from the table', async () => {
    for (const argv of [['answer', '--nope'], ['answer'], ['trec-eval', 'a'], ['list', 'x', 'y', 'z']]) {
      const { io, stderr } = memoryIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(stderr()).toMatch(/^error \[(BAD_OPTION|OPTION_REQUIRED)\]: .+\n {2}fix: .+\n$/);
    }
  });

  it('shows each default once in --help (the description never repeats commander\'s "(default: …)")', async () => {
    const { program } = await createProgram(memoryIo().io);
    const twice: string[] = [];
    const walk = (command: Command, path: string) => {
      for (const o of command.options) {
        if (o.defaultValue !== undefined && /default/i.test(o.description)) twice.push(`${path} ${o.flags}`);
      }
      for (const sub of command.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(program, 'citegeist');
    expect(twice).toEqual([]);
  });

  it('drops its output quietly when the reader of stdout goes away (`… | head`), and finishes', () => {
    const script = `
      import { processIo } from ${JSON.stringify(join(import.meta.dirname, 'io.ts'))};
      const io = processIo();
      for (let i = 0; i < 200; i++) { io.out('line\\n'.repeat(500)); await new Promise((r) => setTimeout(r, 1)); }
      io.err('finished\\n');`;
    const result = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" --import tsx --input-type=module -e "$SCRIPT" | head -c 10 >/dev/null; echo "exit=\${PIPESTATUS[0]}" >&2`,
      ],
      { env: { ...process.env, SCRIPT: script }, encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(result.stderr).toMatch(/finished\nexit=0/);
  });
});

describe('config file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'citegeist-config-'));

  it('reads YAML and JSON and returns {} when there is none', () => {
    const yamlDir = dir();
    writeFileSync(join(yamlDir, 'citegeist.config.yaml'), 'model: ollama:qwen2.5:7b\nconcurrency: 4\n');
    expect(loadConfig(yamlDir).config).toEqual({ model: 'ollama:qwen2.5:7b', concurrency: 4 });
    const jsonDir = dir();
    writeFileSync(join(jsonDir, 'citegeist.config.json'), '{"judge": "openai:gpt-4.1-mini"}');
    expect(loadConfig(jsonDir).config).toEqual({ judge: 'openai:gpt-4.1-mini' });
    expect(loadConfig(dir())).toEqual({ config: {}, file: null });
  });

  it('names the bad key and lists the valid ones', () => {
    const bad = dir();
    writeFileSync(join(bad, 'citegeist.config.json'), '{"modle": "x"}');
    expect(() => loadConfig(bad)).toThrow(/modle[\s\S]*Valid keys: corpus, model/);
  });

  it('reports a syntax error with the file name', () => {
    const bad = dir();
    writeFileSync(join(bad, 'citegeist.config.json'), '{"model": ');
    expect(() => loadConfig(bad)).toThrow(/citegeist\.config\.json could not be parsed/);
  });

  it('prints problem and fix for a bad config through the CLI', async () => {
    const bad = dir();
    writeFileSync(join(bad, 'citegeist.config.json'), '{"concurrency": -1}');
    const { io, stderr } = memoryIo({ cwd: bad });
    const { createProgram } = await import('./program.js');
    const { ctx } = await createProgram(io);
    expect(() => ctx.config()).toThrow(/concurrency/);
    expect(stderr()).toBe('');
  });
});
