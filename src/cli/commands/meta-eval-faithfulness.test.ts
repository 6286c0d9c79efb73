import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeFrom } from '../../grade/vetscore/__fixtures__/grades.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'meta-'));
  const run1 = [gradeFrom('a', [[[1, 2]], [[0, 5]], [[1, 3]]]), gradeFrom('b', [[[1, 1]], [[0, 4]]])];
  const run2 = [gradeFrom('a', [[[1, 2]], [[1, 5]], [[1, 3]]]), gradeFrom('b', [[[1, 1]], [[0, 4]]])];
  writeFileSync(join(dir, 'auto1.jsonl'), `${run1.map((g) => JSON.stringify(g)).join('\n')}\n`);
  writeFileSync(join(dir, 'auto2.jsonl'), `${run2.map((g) => JSON.stringify(g)).join('\n')}\nnot json\n`);
  const rows = ['answer,segment,claim,annotator,verified,harm'];
  const human: [string, number, number, number, number][] = [
    ['a', 0, 0, 1, 2],
    ['a', 1, 0, 0, 5],
    ['a', 2, 0, 1, 3],
    ['b', 0, 0, 1, 1],
    ['b', 1, 0, 1, 4],
  ];
  for (const [answer, s, c, v, w] of human) {
    rows.push(`${answer},${s},${c},vet1,${v},${w}`);
    rows.push(`${answer},${s},${c},vet2,${v},${Math.min(5, w + 1)}`);
  }
  rows.push('a,0,0,vet3,maybe,2');
  writeFileSync(join(dir, 'ann.csv'), `${rows.join('\n')}\n`);
  return dir;
}

describe('citegeist meta-eval faithfulness', () => {
  it('prints correlations, alpha and run-to-run consistency; reports skipped lines', async () => {
    const dir = workspace();
    const { io, stdout, stderr } = memoryIo({ cwd: dir });
    const code = await runCli(
      [
        'meta-eval',
        'faithfulness',
        '--auto',
        'auto1.jsonl',
        '--auto',
        'auto2.jsonl',
        '--human',
        'ann.csv',
        '--iterations',
        '200',
      ],
      io,
    );
    expect(code).toBe(1);
    expect(stderr()).toMatch(/skipped \[INVALID_INPUT\] auto2\.jsonl line 3/);
    expect(stderr()).toMatch(/skipped \[INVALID_INPUT\] ann\.csv line 12: field "verified"/);
    expect(stdout()).toMatch(/matched claims 5 in 5 segments/);
    expect(stdout()).toMatch(/harm\s+ρ = 1\.000/);
    expect(stdout()).toMatch(/runs 0–1: 5 claims, verdict identical 0\.800, harm identical 1\.000/);
  });

  it('prints JSON with --json', async () => {
    const dir = workspace();
    const { io, stdout } = memoryIo({ cwd: dir });
    await runCli(
      [
        '--json',
        'meta-eval',
        'faithfulness',
        '--auto',
        'auto1.jsonl',
        '--human',
        'ann.csv',
        '--iterations',
        '100',
      ],
      io,
    );
    const report = JSON.parse(stdout());
    expect(report.alignment.matched_claims).toBe(5);
    expect(report.alpha.verification_nominal.humans).toBe(1);
    expect(report.annotation_problems).toBe(1);
  });
});
