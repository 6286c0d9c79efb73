import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { memoryIo } from './io.js';
import { runCli } from './program.js';

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
    const { ctx } = createProgram(io);
    expect(() => ctx.config()).toThrow(/concurrency/);
    expect(stderr()).toBe('');
  });
});
