import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DocExample,
  demoFigures,
  demoQuotes,
  extractExamples,
  shellWords,
} from '../testing/doc-examples.js';
import { memoryIo } from './io.js';
import { createProgram, runCli } from './program.js';

// Docs are code: every `citegeist …` command README.md and docs/*.md show is extracted and either run
// against the demo workspace or, when it cannot run offline (marked in the doc, with the reason),
// parsed by the CLI's own parser. Figures quoted from the demo are recomputed from its output. The
// conventions are in src/testing/doc-examples.ts.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const { program } = await createProgram(memoryIo().io);
const TOP = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
const examples = DOCS.flatMap((file) => extractExamples(file, readFileSync(join(ROOT, file), 'utf8'), TOP));
const where = (e: { file: string; line: number }) => `${e.file}:${e.line}`;

function subcommand(cmd: Command, name: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
}

/** The flags `cmd` accepts: its own, its parents' and the program's (`--help` everywhere). */
function knownFlags(cmd: Command): Set<string> {
  const flags = new Set(['--help', '-h']);
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const o of c.options) {
      if (o.long) flags.add(o.long);
      if (o.short) flags.add(o.short);
    }
  flags.add('--version').add('-V');
  return flags;
}

const PLACEHOLDER = /[[\]<>…|]/;

/**
 * A synopsis (`ingest <files or folders…> [--corpus FILE]`): its command path must exist and every
 * flag it names must be one the command accepts. Placeholders and alternatives are not checked.
 */
function synopsisProblems(command: string): string[] {
  const words = command.replaceAll('\\|', '|').split(/\s+/).filter(Boolean);
  let cmd: Command = program;
  let i = 0;
  for (; i < words.length; i++) {
    const sub = subcommand(cmd, words[i]!);
    if (!sub) break;
    cmd = sub;
  }
  if (cmd === program) {
    // `<any LLM command> --queue …`, `<command> --help`: no command to check against.
    if (/^[<[]/.test(words[0] ?? '')) return [];
    if (/^-/.test(words[0] ?? '') && knownFlags(program).has(words[0]!)) return [];
    return [`"${words[0]}" is not a citegeist command`];
  }
  const problems: string[] = [];
  const next = words[i];
  const defaultName = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
  if (cmd.commands.length > 0 && !defaultName && next !== undefined && !/^[-<[(]/.test(next))
    problems.push(`"${cmd.name()} ${next}": "${next}" is not a subcommand of ${cmd.name()}`);
  const target = defaultName && cmd.commands.length > 0 ? subcommand(cmd, defaultName)! : cmd;
  const flags = knownFlags(target);
  for (const word of words.slice(i))
    for (const piece of word.split('|')) {
      const flag = /^[[(]*(--?[A-Za-z][\w-]*)/.exec(piece)?.[1];
      if (flag && !flags.has(flag) && !flags.has(flag.split('=')[0]!))
        problems.push(
          `\`${target.parent === program ? '' : `${target.parent?.name()} `}${target.name()}\` has no option ${flag}`,
        );
    }
  return problems;
}

/** Parses a concrete command with the real program, every action replaced by a no-op. */
async function parseOnly(words: string[]): Promise<{ code: number; stderr: string; ran: string[] }> {
  const { io, stderr } = memoryIo();
  const ran: string[] = [];
  const fresh = (await createProgram(io)).program;
  const stub = (c: Command) => {
    if ((c as unknown as { _actionHandler?: unknown })._actionHandler)
      c.action(() => void ran.push(c.name()));
    c.commands.forEach(stub);
  };
  stub(fresh);
  try {
    await fresh.parseAsync(words, { from: 'user' });
    return { code: 0, stderr: stderr(), ran };
  } catch (error) {
    return { code: 2, stderr: `${stderr()}${(error as Error).message}`, ran };
  }
}

/** Expands `*` in the last path segment of a word, as a shell would (kept as is when nothing matches). */
function expandGlob(word: string, cwd: string): string[] {
  if (!word.includes('*')) return [word];
  const dir = dirname(word);
  const base = word.slice(dir === '.' && !word.startsWith('./') ? 0 : dir.length + 1);
  const re = new RegExp(`^${base.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
  const full = join(cwd, dir);
  if (!existsSync(full)) return [word];
  const matches = readdirSync(full)
    .filter((f) => re.test(f))
    .sort()
    .map((f) => (dir === '.' && !word.startsWith('./') ? f : `${dir}/${f}`));
  return matches.length > 0 ? matches : [word];
}

let workspace = '';

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'citegeist-doc-examples-'));
  const { io, stderr } = memoryIo({ cwd: workspace });
  const code = await runCli(['demo'], io);
  if (code !== 0) throw new Error(`the demo failed (rc ${code}): ${stderr()}`);
}, 120_000);

describe('every command the docs show', () => {
  it('is found, and every fenced example is marked run, parse (with a reason) or setup', () => {
    expect(examples.length).toBeGreaterThan(100);
    const setups = examples.filter((e) => e.mode === 'setup');
    // The one setup command is the demo, which beforeAll runs exactly as README shows it.
    expect(setups.map((e) => e.command)).toEqual(['demo']);
  });

  it.each(
    examples
      .filter((e) => e.mode === 'synopsis' || (e.mode === 'parse' && PLACEHOLDER.test(e.command)))
      .map((e) => [where(e), e] as const),
  )('synopsis %s names a real command and its flags', (_where, example) => {
    expect(synopsisProblems(example.command), example.command).toEqual([]);
  });

  it.each(
    examples
      .filter((e) => e.mode === 'parse' && !PLACEHOLDER.test(e.command))
      .map((e) => [where(e), e] as const),
  )('offline-only %s is accepted by the command-line parser', async (_where, example) => {
    const result = await parseOnly(shellWords(example.command));
    expect(result.stderr, example.command).toBe('');
    expect(result.code, example.command).toBe(0);
    expect(result.ran.length, `${example.command}: no command ran`).toBe(1);
  });

  // The run examples of one fenced block run in order in one copy of the demo workspace.
  const blocks = new Map<string, DocExample[]>();
  for (const e of examples.filter((e) => e.mode === 'run')) {
    const key = `${e.file}#${e.copies.map((c) => `${c.from}=${c.to}`).join(',')}#${blockOf(e)}`;
    blocks.set(key, [...(blocks.get(key) ?? []), e]);
  }
  it.each([...blocks.values()].map((b) => [where(b[0]!), b] as const))(
    'block at %s runs against the demo workspace',
    async (_where, block) => {
      const cwd = mkdtempSync(join(tmpdir(), 'citegeist-doc-example-'));
      cpSync(workspace, cwd, { recursive: true });
      for (const { from, to } of block[0]!.copies) {
        const source = from.startsWith('demo-output/') ? join(workspace, from) : join(ROOT, from);
        mkdirSync(dirname(join(cwd, to)), { recursive: true });
        cpSync(source, join(cwd, to), { recursive: statSync(source).isDirectory() });
      }
      for (const example of block) {
        if (example.write) {
          writeFileSync(join(cwd, example.write.file), example.write.text);
          continue;
        }
        const words = shellWords(example.command).flatMap((w) => expandGlob(w, cwd));
        const { io, stdout, stderr } = memoryIo({ cwd });
        const code = await runCli(words, io);
        expect(
          { command: example.command, code },
          `${where(example)}\nstdout:\n${stdout().slice(-2000)}\nstderr:\n${stderr().slice(-2000)}`,
        ).toEqual({ command: example.command, code: example.expectedCode });
      }
    },
    60_000,
  );
});

/** Examples of one fenced block share a copy: the block is found from the first line above. */
function blockOf(e: DocExample): number {
  const lines = readFileSync(join(ROOT, e.file), 'utf8').split(/\r?\n/);
  let i = e.line - 1;
  while (i > 0 && !/^\s*(```|~~~)/.test(lines[i]!)) i--;
  return i;
}

describe('every figure the docs quote from the demo', () => {
  const figures = DOCS.flatMap((file) => demoFigures(file, readFileSync(join(ROOT, file), 'utf8')));
  const quotes = DOCS.flatMap((file) => demoQuotes(file, readFileSync(join(ROOT, file), 'utf8')));

  it('is bound to the demo output it comes from', () => {
    expect(figures.length).toBeGreaterThan(0);
    expect(quotes.length).toBeGreaterThan(0);
  });

  it.each(figures.map((f) => [`${where(f)} ${f.key}`, f] as const))('%s', (_name, figure) => {
    const actual = demoFigure(figure.key);
    const decimals = figure.value.split('.')[1]?.length ?? 0;
    expect(actual.toFixed(decimals), `${figure.key} in ${where(figure)}`).toBe(figure.value);
    expect(figure.context, `${figure.value} is not in the text after ${where(figure)}`).toContain(
      figure.value,
    );
  });

  it.each(quotes.map((q) => [where(q), q] as const))('block quoting the demo at %s', (_where, quote) => {
    const text = readFileSync(join(workspace, 'demo-output', quote.output), 'utf8').split(/\r?\n/);
    const missing = quote.lines.filter((l) => !text.includes(l));
    expect(missing, `lines of ${where(quote)} not in demo-output/${quote.output}`).toEqual([]);
  });
});

/**
 * One figure of the demo's output:
 * - `scores:<request>/<metric>`: a value of demo-output/reports-scores.tsv;
 * - `rows:<file>`: the rows of a demo-output JSONL file (its manifest line not counted);
 * - `mb:<file>`: a demo-output file's size in MB (10^6 bytes).
 */
function demoFigure(key: string): number {
  const out = join(workspace, 'demo-output');
  const [kind, arg] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  if (kind === 'scores') {
    const [request, metric] = arg.split('/');
    const row = readFileSync(join(out, 'reports-scores.tsv'), 'utf8')
      .split('\n')
      .map((l) => l.split('\t'))
      .find((c) => c[1] === request && c[2] === metric);
    if (!row) throw new Error(`no ${request}/${metric} in reports-scores.tsv`);
    return Number(row[3]);
  }
  if (kind === 'rows') {
    const lines = readFileSync(join(out, arg), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    return lines.filter((l) => !/^\{"(_manifest|manifest|citegeist_manifest)"/.test(l)).length;
  }
  if (kind === 'mb') return statSync(join(out, arg)).size / 1e6;
  throw new Error(`unknown demo figure "${key}" (scores:, rows:, mb:)`);
}
