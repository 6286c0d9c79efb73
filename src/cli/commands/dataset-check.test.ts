import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const SENTENCE = 'We collected 1,204 survey responses from teachers in three districts.';
const row = (id: string, extra: Record<string, unknown> = {}) => ({
  row_id: id,
  paper_id: 'p1',
  question_type: 'lookup',
  question: 'How many survey responses were collected?',
  expected_references: [{ section_label: 'Methods', alternatives: [SENTENCE] }],
  ...extra,
});

function workspace(rows: unknown[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-dataset-check-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(join(dir, 'papers', 'p1.md'), `# Paper\n\n## Methods\n\n${SENTENCE}\n`);
  writeFileSync(join(dir, 'd.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
  return dir;
}

async function run(cwd: string, argv: string[]) {
  const { io, stdout, stderr } = memoryIo({ cwd });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

describe('citegeist dataset check', () => {
  const bad = [
    row('ok'),
    row('ok'),
    row('blank', { question: '   ' }),
    row('elsewhere', { paper_id: 'p9' }),
    row('typo', {
      expected_references: [
        { section_label: 'Methods', alternatives: ['We collected 1,240 survey responses'] },
      ],
    }),
    { row_id: 'broken' },
  ];

  it('lists every problem with the nearest passage for evidence the strict matcher cannot find', async () => {
    const dir = workspace(bad);
    const { code, out } = await run(dir, ['dataset', 'check', 'd.jsonl', '--papers', 'papers']);
    expect(code).toBe(1);
    expect(out).toMatch(/d\.jsonl: 4 rows over 2 papers; 4 error\(s\), 1 warning\(s\)/);
    expect(out).toMatch(/gold evidence groups found by the strict matcher: 2 of 3/);
    expect(out).toMatch(/error {3}\S*d\.jsonl line 2: duplicate row_id "ok"/);
    expect(out).toMatch(/error {3}\S*d\.jsonl line 6: not a dataset row/);
    expect(out).toMatch(/error {3}row blank: the question is empty/);
    expect(out).toMatch(/error {3}row elsewhere: paper "p9" is not in the paper source/);
    expect(out).toMatch(/warning row typo: evidence group 1 is not found in paper "p1"/);
    expect(out).toMatch(/nearest \(0\.\d\d\): ".*We collected 1,204 survey responses/);
  });

  it('gives the same findings as JSON', async () => {
    const dir = workspace(bad);
    const { out } = await run(dir, ['--json', 'dataset', 'check', 'd.jsonl', '--papers', 'papers']);
    const json = JSON.parse(out) as {
      errors: { kind: string }[];
      warnings: { kind: string; nearest: unknown }[];
    };
    expect(json.errors.map((e) => e.kind).sort()).toEqual([
      'duplicate_row_id',
      'empty_question',
      'invalid_row',
      'unknown_paper',
    ]);
    expect(json.warnings[0]?.kind).toBe('unlocated_evidence');
    expect(json.warnings[0]?.nearest).toMatchObject({ similarity: expect.any(Number) });
  });

  it('passes a clean dataset (exit 0) and says when no papers were given', async () => {
    const dir = workspace([row('a'), row('b')]);
    expect((await run(dir, ['dataset', 'check', 'd.jsonl', '--papers', 'papers'])).code).toBe(0);
    const { code, out } = await run(dir, ['dataset', 'check', 'd.jsonl']);
    expect(code).toBe(0);
    expect(out).toMatch(/paper ids and gold evidence not checked: give --corpus or --papers/);
  });

  it('runs before answer: problems stop it before any row is answered, --no-check runs anyway', async () => {
    const dir = workspace([row('a'), row('elsewhere', { paper_id: 'p9' })]);
    const args = [
      'answer',
      '--dataset',
      'd.jsonl',
      '--papers',
      'papers',
      '--model',
      'extractive',
      '--out',
      'r.jsonl',
    ];
    const refused = await run(dir, args);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /error \[DATASET_INVALID\]: .* 1 problem\(s\)[\s\S]*row elsewhere: paper "p9"/,
    );
    expect(refused.err).toMatch(/fix: Run `citegeist dataset check .*--no-check/);
    const forced = await run(dir, [...args, '--no-check']);
    expect(forced.out).toMatch(/answered 2 rows \(1 failed/);
  });

  it('refuses a file that yields no rows (NO_ROWS) instead of "imported 0 rows"', async () => {
    const dir = workspace([]);
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ pairs: [{ a: 1 }] }));
    const imported = await run(dir, ['dataset', 'import', 'qasper', 'other.json', '--out', 'x.jsonl']);
    expect(imported.code).toBe(1);
    expect(imported.err).toMatch(
      /error \[NO_ROWS\]: other\.json yielded no rows as qasper; nothing was written/,
    );
    writeFileSync(join(dir, 'empty.jsonl'), '\n\n');
    const converted = await run(dir, ['dataset', 'convert', 'empty.jsonl', 'y.json']);
    expect(converted.err).toMatch(/error \[NO_ROWS\]/);
    const checked = await run(dir, ['dataset', 'check', 'empty.jsonl']);
    expect(checked.code).toBe(1);
    expect(checked.out).toMatch(/error {3}dataset: no usable rows/);
  });
});
