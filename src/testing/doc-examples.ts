/**
 * The `citegeist …` commands a Markdown document shows, for the test that runs them
 * (src/cli/doc-examples.test.ts): docs are code, so an example that no longer parses or runs fails CI.
 *
 * What is extracted:
 * - every line of a fenced block that starts with `citegeist`, `npx citegeist` or `$ citegeist`
 *   (backslash continuations joined, `a && b` split, a trailing `# comment` dropped);
 * - every inline code span that starts with `citegeist `, and every code span in a table cell whose
 *   first word is a top-level command (`ingest <files…> [--corpus FILE]`): a synopsis.
 *
 * How a fenced block is checked is said by an HTML comment on the lines just before it:
 * - no comment, or `<!-- examples: run -->`: each command runs in a copy of the demo workspace
 *   (a folder where `citegeist demo` ran) and must exit 0; a `printf '…' > FILE` line writes FILE;
 *   `copy SRC=DEST` (repeatable) first copies a file or folder of the repository (or `demo-output/…`
 *   of the workspace) to DEST in the copy; `rc=N` expects exit code N;
 * - `<!-- examples: parse: REASON -->`: the command cannot run offline (a real model, the network,
 *   Redis, files a user brings): it is only parsed by the CLI's own command-line parser, which must
 *   accept its command, flags and arguments; REASON is required;
 * - `<!-- examples: setup: REASON -->`: the command that makes the demo workspace itself.
 *
 * Figures quoted from the demo are bound by `<!-- demo-figures: KEY=VALUE … -->` (see
 * `demoFigures`): the test computes each KEY from the demo's output and compares it with VALUE
 * rounded as written, and VALUE must appear in the paragraph or block that follows the comment.
 * A fenced block after `<!-- demo-output: FILE -->` quotes FILE: each of its lines but `…` must be a
 * line of the demo's FILE.
 */

export type ExampleMode = 'run' | 'parse' | 'setup' | 'synopsis';

export interface DocExample {
  readonly file: string;
  /** 1-based line of the command in the document. */
  readonly line: number;
  /** The command as a user would type it, without `citegeist`. */
  readonly command: string;
  readonly mode: ExampleMode;
  readonly reason?: string | undefined;
  readonly copies: readonly { from: string; to: string }[];
  readonly expectedCode: number;
  /** A `printf '…' > FILE` line of a run block: the file to write before the commands after it. */
  readonly write?: { file: string; text: string };
}

const PRINTF = /^printf '([^']*)' > (\S+)$/;

/** The text `printf` writes for a format without conversions (`\n`, `\t`, `\\` escapes). */
function printfText(format: string): string {
  return format.replace(/\\([nt\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
}

export interface DemoFigure {
  readonly file: string;
  readonly line: number;
  readonly key: string;
  readonly value: string;
  /** The text the figure must appear in (the paragraph or block after the comment). */
  readonly context: string;
}

export interface DemoQuote {
  readonly file: string;
  readonly line: number;
  /** The demo output file quoted, relative to demo-output/. */
  readonly output: string;
  readonly lines: readonly string[];
}

const FENCE = /^\s*(```|~~~)/;
const COMMENT = /^\s*<!--\s*(examples|demo-figures|demo-output):\s*(.*?)\s*-->\s*$/;
const COMMAND_START = /^(?:\$\s+)?(?:npx\s+)?citegeist(?:\s+|$)/;

interface Directive {
  kind: string;
  body: string;
  line: number;
}

/** The directive comment just above `index` (blank lines between allowed), if any. */
function directiveAbove(lines: readonly string[], index: number, kind: string): Directive | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const text = lines[i] ?? '';
    if (text.trim() === '') continue;
    const m = COMMENT.exec(text);
    if (!m) return undefined;
    if (m[1] === kind) return { kind, body: m[2] ?? '', line: i + 1 };
  }
  return undefined;
}

function parseExamplesDirective(d: Directive | undefined, file: string) {
  if (!d) return { mode: 'run' as const, copies: [], expectedCode: 0 };
  const setup = /^setup:\s*(.+)$/.exec(d.body);
  if (setup) return { mode: 'setup' as const, reason: setup[1], copies: [], expectedCode: 0 };
  const parse = /^parse:\s*(.+)$/.exec(d.body);
  if (parse) return { mode: 'parse' as const, reason: parse[1], copies: [], expectedCode: 0 };
  if (d.body === 'parse' || d.body === 'setup')
    throw new Error(`${file}:${d.line}: "examples: ${d.body}" needs a reason ("${d.body}: why")`);
  const words = d.body.split(/\s+/);
  if (words[0] !== 'run') throw new Error(`${file}:${d.line}: unknown examples directive "${d.body}"`);
  const copies: { from: string; to: string }[] = [];
  let expectedCode = 0;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'copy') {
      const [from, to] = (words[++i] ?? '').split('=');
      if (!from || !to) throw new Error(`${file}:${d.line}: "copy" needs SRC=DEST`);
      copies.push({ from, to });
    } else if (/^rc=\d+$/.test(w)) expectedCode = Number(w.slice(3));
    else throw new Error(`${file}:${d.line}: unknown word "${w}" in examples directive`);
  }
  return { mode: 'run' as const, copies, expectedCode };
}

/** Drops a trailing shell comment (a `#` after whitespace, outside quotes). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** Splits a shell line on `&&` outside quotes. */
function splitAnd(line: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '&' && line[i + 1] === '&') {
      parts.push(line.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(line.slice(start).trim());
  return parts;
}

function fencedExamples(file: string, lines: readonly string[]): DocExample[] {
  const found: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const open = i;
    let close = i + 1;
    while (close < lines.length && !FENCE.test(lines[close]!)) close++;
    const directive = parseExamplesDirective(directiveAbove(lines, open, 'examples'), file);
    for (let j = open + 1; j < close; j++) {
      let text = stripComment(lines[j]!);
      const first = j;
      while (text.endsWith('\\') && j + 1 < close)
        text = `${text.slice(0, -1).trimEnd()} ${stripComment(lines[++j]!.trim())}`;
      for (const part of text.split(/;\s+(?=printf )/).flatMap(splitAnd)) {
        const printf = PRINTF.exec(part);
        if (printf && directive.mode === 'run') {
          const write = { file: printf[2]!, text: printfText(printf[1]!) };
          found.push({ file, line: first + 1, command: part, ...directive, write });
          continue;
        }
        if (!COMMAND_START.test(part)) continue;
        found.push({ file, line: first + 1, command: part.replace(COMMAND_START, '').trim(), ...directive });
      }
    }
    i = close;
  }
  return found;
}

/** Inline code spans outside fenced blocks, with their line. */
function codeSpans(lines: readonly string[]): { text: string; line: number; inTable: boolean }[] {
  const spans: { text: string; line: number; inTable: boolean }[] = [];
  let fenced = false;
  lines.forEach((raw, i) => {
    if (FENCE.test(raw)) fenced = !fenced;
    if (fenced || FENCE.test(raw)) return;
    const inTable = raw.trimStart().startsWith('|');
    // In a table, `\|` inside a span is an escaped pipe, part of the code.
    for (const m of raw.matchAll(/`([^`]+)`/g))
      spans.push({ text: inTable ? m[1]!.replaceAll('\\|', '|') : m[1]!, line: i + 1, inTable });
  });
  return spans;
}

/**
 * Every example of one document. `commands` is the set of top-level command names: a code span in a
 * table cell that starts with one of them is a synopsis of that command.
 */
export function extractExamples(file: string, markdown: string, commands: ReadonlySet<string>): DocExample[] {
  const lines = markdown.split(/\r?\n/);
  const found = fencedExamples(file, lines);
  for (const span of codeSpans(lines)) {
    const text = span.text.trim();
    const first = text.split(/\s+/)[0] ?? '';
    const command = COMMAND_START.test(text)
      ? text.replace(COMMAND_START, '').trim()
      : span.inTable && commands.has(first)
        ? text
        : null;
    if (command === null || command === '') continue;
    found.push({ file, line: span.line, command, mode: 'synopsis', copies: [], expectedCode: 0 });
  }
  return found;
}

/** The blank-line-delimited paragraph (or fenced block) that starts at or after `index`. */
function followingText(lines: readonly string[], index: number): string {
  let i = index;
  while (i < lines.length && (lines[i]!.trim() === '' || COMMENT.test(lines[i]!))) i++;
  const out: string[] = [];
  if (i < lines.length && FENCE.test(lines[i]!)) {
    for (i++; i < lines.length && !FENCE.test(lines[i]!); i++) out.push(lines[i]!);
    return out.join('\n');
  }
  for (; i < lines.length && lines[i]!.trim() !== ''; i++) out.push(lines[i]!);
  return out.join('\n');
}

/** The figures a document quotes from the demo, bound by `<!-- demo-figures: KEY=VALUE … -->`. */
export function demoFigures(file: string, markdown: string): DemoFigure[] {
  const lines = markdown.split(/\r?\n/);
  const found: DemoFigure[] = [];
  lines.forEach((text, i) => {
    const m = COMMENT.exec(text);
    if (m?.[1] !== 'demo-figures') return;
    const context = followingText(lines, i + 1);
    for (const pair of (m[2] ?? '').split(/\s+/)) {
      const eq = pair.lastIndexOf('=');
      if (eq <= 0) throw new Error(`${file}:${i + 1}: "${pair}" is not KEY=VALUE`);
      found.push({ file, line: i + 1, key: pair.slice(0, eq), value: pair.slice(eq + 1), context });
    }
  });
  return found;
}

/** Fenced blocks that quote a demo output file, marked `<!-- demo-output: FILE -->`. */
export function demoQuotes(file: string, markdown: string): DemoQuote[] {
  const lines = markdown.split(/\r?\n/);
  const found: DemoQuote[] = [];
  lines.forEach((text, i) => {
    const m = COMMENT.exec(text);
    if (m?.[1] !== 'demo-output') return;
    const quoted = followingText(lines, i + 1)
      .split('\n')
      .filter((l) => l.trim() !== '' && l.trim() !== '…');
    found.push({ file, line: i + 1, output: m[2] ?? '', lines: quoted });
  });
  return found;
}

/**
 * Splits a command line into words as a POSIX shell would for the plain cases docs use: spaces,
 * single and double quotes, backslash escapes outside single quotes. No expansion.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let has = false;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || word) words.push(word);
      word = '';
      has = false;
    } else {
      word += c;
      has = true;
    }
  }
  if (quote) throw new Error(`unclosed ${quote} in: ${line}`);
  if (has || word) words.push(word);
  return words;
}
