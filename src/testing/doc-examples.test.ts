import { describe, expect, it } from 'vitest';
import { demoFigures, demoQuotes, extractExamples, shellWords } from './doc-examples.js';

const COMMANDS = new Set(['ingest', 'reports', 'search']);

describe('extractExamples', () => {
  it('finds fenced commands (continuations joined, && split, comments dropped) and their directive', () => {
    const md = [
      '<!-- examples: run copy a/b=c rc=1 -->',
      '```sh',
      'npm ci && npx citegeist ingest papers/ \\',
      '  --corpus c.sqlite   # a comment',
      '$ citegeist search "a # not a comment" -k 3',
      'echo done',
      '```',
      '',
      '<!-- examples: parse: needs a model -->',
      '```',
      'citegeist answer --model openai:x',
      '```',
    ].join('\n');
    const found = extractExamples('x.md', md, COMMANDS);
    expect(found.map((e) => [e.line, e.command, e.mode, e.expectedCode])).toEqual([
      [3, 'ingest papers/ --corpus c.sqlite', 'run', 1],
      [5, 'search "a # not a comment" -k 3', 'run', 1],
      [11, 'answer --model openai:x', 'parse', 0],
    ]);
    expect(found[0]!.copies).toEqual([{ from: 'a/b', to: 'c' }]);
    expect(found[2]!.reason).toBe('needs a model');
  });

  it('reads synopses from table cells (escaped pipes) and citegeist code spans, not other spans', () => {
    const md = [
      '| step | commands |',
      '|---|---|',
      '| report | `reports validate --runs R`, `search "<q>" [--mode auto\\|bm25]`, `--json` |',
      'Run `citegeist ingest x` or `ingest y` in prose.',
    ].join('\n');
    expect(extractExamples('x.md', md, COMMANDS).map((e) => [e.line, e.command, e.mode])).toEqual([
      [3, 'reports validate --runs R', 'synopsis'],
      [3, 'search "<q>" [--mode auto|bm25]', 'synopsis'],
      [4, 'ingest x', 'synopsis'],
    ]);
  });

  it('turns printf lines of a run block into files to write, in order', () => {
    const md =
      "  <!-- examples: run rc=1 -->\n  ```sh\n  printf '1 0 a 1\\n2\\tb\\n' > qrels; printf 'x\\n' > run\n  citegeist trec-eval qrels run\n  ```";
    const found = extractExamples('x.md', md, COMMANDS);
    expect(found.map((e) => [e.write ?? e.command, e.expectedCode])).toEqual([
      [{ file: 'qrels', text: '1 0 a 1\n2\tb\n' }, 1],
      [{ file: 'run', text: 'x\n' }, 1],
      ['trec-eval qrels run', 1],
    ]);
  });

  it('refuses a parse directive without a reason and an unknown word', () => {
    expect(() =>
      extractExamples('x.md', '<!-- examples: parse -->\n```\ncitegeist x\n```', COMMANDS),
    ).toThrow(/needs a reason/);
    expect(() =>
      extractExamples('x.md', '<!-- examples: run quickly -->\n```\ncitegeist x\n```', COMMANDS),
    ).toThrow(/unknown word "quickly"/);
  });
});

describe('demo figures and quotes', () => {
  it('binds each KEY=VALUE to the paragraph after the comment', () => {
    const md =
      'x\n<!-- demo-figures: rows:a.jsonl=12 scores:all/f1=0.538 -->\nWe have 12 rows and F1 0.538.\n\nnext';
    expect(demoFigures('x.md', md)).toEqual([
      { file: 'x.md', line: 2, key: 'rows:a.jsonl', value: '12', context: 'We have 12 rows and F1 0.538.' },
      {
        file: 'x.md',
        line: 2,
        key: 'scores:all/f1',
        value: '0.538',
        context: 'We have 12 rows and F1 0.538.',
      },
    ]);
  });

  it('reads the lines of a quoted block, without the ellipses', () => {
    const md = '<!-- demo-output: s.tsv -->\n```\na\tb\n…\nc\td\n```';
    expect(demoQuotes('x.md', md)).toEqual([
      { file: 'x.md', line: 1, output: 's.tsv', lines: ['a\tb', 'c\td'] },
    ]);
  });
});

describe('shellWords', () => {
  it('splits on spaces and honours quotes and escapes', () => {
    expect(shellWords(`show N18 --section "node types" 'a b' c\\ d`)).toEqual([
      'show',
      'N18',
      '--section',
      'node types',
      'a b',
      'c d',
    ]);
    expect(() => shellWords('search "open')).toThrow(/unclosed/);
  });
});
