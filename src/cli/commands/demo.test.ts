import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeOpenAiServer } from '../../testing/index.js';
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
    // Both offline answerers (extractive, and the lead baseline to compare it with) on 12 questions.
    expect(data.answers).toHaveLength(24);
    expect(stdout()).toMatch(/pairwise comparisons: paired randomization test/);
    expect(stdout()).toMatch(/extractive vs lead\s+[+-]\d\.\d{3}/);
    const lead = readFileSync(join(out, 'grades-lead.jsonl'), 'utf8').trim().split('\n');
    expect(lead).toHaveLength(1 + 12);
    const cites = data.answers.flatMap(
      (a: { citations?: { rule: string; m?: number }[] }) => a.citations ?? [],
    );
    expect(cites.length).toBeGreaterThan(10);
    for (const c of cites) expect([c.rule, (c.m ?? null) !== null]).toEqual(['exact', true]);
    expect(stdout()).toMatch(/Next, with a real model/);
    // The offline judge card: the lexical judge on the bundled Check-COVID slice, labelled as such.
    const card = JSON.parse(readFileSync(join(out, 'judge-card.json'), 'utf8'));
    expect(card.manifest).toMatchObject({
      kind: 'judge-card',
      settings: { judge_model: 'lexical', set: 'check-covid' },
    });
    expect(card.set).toMatchObject({ name: 'check-covid', items: 229 });
    expect(card.set.licence).toMatch(/MIT/);
    expect(card.counts).toMatchObject({ judged: 229, failed: 0, pairs: 229 });
    expect(card.per_category.map((p: { reference: number }) => p.reference)).toEqual([77, 76, 76]);
    // the lexical judge never says REFUTE
    expect(card.per_category[1].judge).toBe(0);
    // The demo packs its study; replayed elsewhere, every output comes back byte for byte.
    const packed = /(\d+) of (\d+) outputs identical/.exec(stdout());
    expect(packed?.[1]).toBe(packed?.[2]);
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-demo-replay-'));
    const replay = memoryIo({ cwd: elsewhere });
    expect(await runCli(['replay', join(out, 'demo.cgpack'), '--dir', 'r'], replay.io)).toBe(0);
    expect(replay.stdout()).toMatch(/identical\s+demo-output\/report\.html/);
    expect(replay.stdout()).toContain(`${packed?.[1]} of ${packed?.[2]} outputs identical`);
  }, 180_000);

  it('goes on when one row fails and shows the failure in its report (exit 1)', async () => {
    // An OpenAI-compatible fake: a contract answer for every question but one, which gets a 400.
    const server = await new FakeOpenAiServer({
      replies: (request) =>
        request.messages.some((m) => m.content.includes('literature graph contain'))
          ? { status: 400, message: 'bad request: context length exceeded' }
          : {
              text: 'The paper says so [^1].\n---EVIDENCE---\n@cite[1]\n"Semantic Scholar"\n---END-EVIDENCE---',
            },
    }).start();
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'citegeist-demo-fail-'));
      const { io, stdout } = memoryIo({ cwd });
      const code = await runCli(['demo', '--model', `openai-compatible:${server.url}/v1#m`], io);
      expect(code).toBe(1);
      expect(stdout()).toMatch(/this step reported failures/);
      expect(stdout()).toMatch(
        /Finished with failures \("Answer the questions with .*" exited with code 1\)/,
      );
      const html = readFileSync(join(cwd, 'demo-output', 'report.html'), 'utf8');
      expect(html).toContain('steps with failures');
      // The page renders its rows from the data it embeds: the failed row carries its error there
      // (the rows view shows it as "Failed: …").
      expect(html).toMatch(/"error":"[^"]*context length exceeded/);
      // The grades file: its manifest, then one row per question (the failed answer included).
      const grades = readFileSync(join(cwd, 'demo-output', 'grades.jsonl'), 'utf8')
        .trim()
        .split('\n');
      expect(grades).toHaveLength(1 + 12);
    } finally {
      await server.close();
    }
  }, 120_000);
});
