import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from './io.js';
import { runCli } from './program.js';

/**
 * Inputs that used to end in an uncoded "please report this as a bug" (issue 12, item 9): each now
 * ends in a coded error with a fix (or, where the input is valid, in a success).
 */
function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-uncoded-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(join(dir, 'papers', 'p1.md'), '# P\n\n## Methods\n\nWe collected 1,204 survey responses.\n');
  const row = {
    row_id: 'a',
    paper_id: 'p1',
    question_type: 'lookup',
    question: 'How many?',
    expected_references: [],
  };
  writeFileSync(join(dir, 'd.jsonl'), JSON.stringify(row));
  writeFileSync(join(dir, 'qrels'), '1 0 d1 1\n');
  writeFileSync(join(dir, 'run'), '1 Q0 d1 1 1.0 r\n');
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  writeFileSync(
    join(dir, 'deep.jsonl'),
    `{"row_id":"a","model":"extractive","answer":"x","citations":[],"raw":${deep}}\n`,
  );
  writeFileSync(
    join(dir, 'deep.nxml'),
    `<article><body>${'<sec>'.repeat(20_000)}<p>x</p>${'</sec>'.repeat(20_000)}</body></article>`,
  );
  writeFileSync(join(dir, 'doctype.nxml'), '<!DOCTYPE article <article><body><p>x</p></body></article>');
  return dir;
}

const answer = (out: string) => [
  'answer',
  '--dataset',
  'd.jsonl',
  '--papers',
  'papers',
  '--model',
  'extractive',
  '--out',
  out,
];

describe('inputs that used to end in an uncoded error', () => {
  it.each([
    [['trec-eval', '-M', '-5', 'qrels', 'run'], 'BAD_OPTION'],
    [['trec-eval', '-M', '99999999999999999999999', 'qrels', 'run'], 'BAD_OPTION'],
    [answer('.'), 'FILE_IS_DIRECTORY'],
    [answer('/proc'), 'FILE_IS_DIRECTORY'],
    [answer('/proc/version'), 'OUTPUT_UNWRITABLE'],
    [answer('/dev/full'), 'OUTPUT_UNWRITABLE'],
    // A file being resumed that holds a 10,000-deep value: without a manifest it is not a run file
    // citegeist wrote, and it is refused before any of its rows is read.
    [answer('deep.jsonl'), 'RUN_FILE_FOREIGN'],
    [['grade', '--dataset', 'd.jsonl', '--papers', 'papers', '--run', 'run', '--out', '.'], 'NO_ROWS'],
    [['show', 'deep.nxml'], 'INPUT_TOO_DEEP'],
    [['show', 'doctype.nxml'], 'INVALID_XML'],
    [
      [
        'answer',
        '--dataset',
        'd.jsonl',
        '--papers',
        'papers',
        '--model',
        'extractive',
        '--out',
        'o',
        '--limit',
        'abc',
      ],
      'BAD_OPTION',
    ],
  ])('%j → %s', async (argv, code) => {
    const { io, stderr } = memoryIo({ cwd: workspace() });
    expect(await runCli(argv, io)).toBe(1);
    expect(stderr()).toMatch(new RegExp(`error \\[${code}\\]: .+\\n {2}fix: \\S`));
    expect(stderr()).not.toMatch(/report this as a bug|INTERNAL|\n\s+at /);
  });

  it('a rank of 99999999999999999999999 is read as trec_eval reads it (the rank column is not used)', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'run'), '1 Q0 d1 99999999999999999999999 1.0 r\n');
    const { io, stdout } = memoryIo({ cwd: dir });
    expect(await runCli(['trec-eval', '-m', 'map', 'qrels', 'run'], io)).toBe(0);
    expect(stdout()).toMatch(/^map\s+all\s+1\.0000$/m);
  });
});
