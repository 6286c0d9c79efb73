import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

describe('citegeist demo', () => {
  it('runs ingest → index → answer → grade → report on the bundled papers with no model and no network', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-demo-'));
    const { io, stdout, stderr } = memoryIo({ cwd });
    const code = await runCli(['demo'], io);
    expect(stderr()).not.toMatch(/error/i);
    expect(code).toBe(0);
    const out = join(cwd, 'demo-output');
    for (const file of [
      'dataset.jsonl',
      'corpus.sqlite',
      'run.jsonl',
      'grades.jsonl',
      'grades.summary.json',
      'report.html',
    ]) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    // Every bundled question is answered and graded, and the dataset covers all four types.
    const grades = readFileSync(join(out, 'grades.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l));
    expect(grades).toHaveLength(12);
    expect(new Set(grades.map((g) => g.question_type))).toEqual(
      new Set(['lookup', 'comprehension', 'multi_hop', 'adversarial']),
    );
    // The extractive baseline quotes the papers verbatim, so every quote it makes is found.
    for (const g of grades.filter((g) => g.citation_accuracy !== null)) expect(g.citation_accuracy).toBe(1);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Leaderboard');
    // The report embeds every answer with its citations located in the papers it highlights (fields
    // at their default are left out of the embedded data: see src/report/compact-data.ts).
    const data = JSON.parse(
      /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!,
    );
    expect(data.answers).toHaveLength(12);
    const cites = data.answers.flatMap(
      (a: { citations?: { rule: string; m?: number }[] }) => a.citations ?? [],
    );
    expect(cites.length).toBeGreaterThan(10);
    for (const c of cites) expect([c.rule, (c.m ?? null) !== null]).toEqual(['exact', true]);
    expect(stdout()).toMatch(/Next, with a real model/);
  }, 120_000);
});
