import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatasetCheck } from '../../generate/index.js';
import { arbitraryReplies, FakeOpenAiServer } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const METHODS = 'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.';
const RESULTS =
  'Teachers who received coaching reported a 12% increase in self-efficacy compared with controls.';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-grade-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(
    join(dir, 'papers', 'p1.md'),
    `# Paper\n\n## Methods\n\n${METHODS}\n\n## Results\n\n${RESULTS}\n`,
  );
  const rows = [
    {
      row_id: 'p1_chunk0_lookup',
      paper_id: 'p1',
      domain: 'education',
      question_type: 'lookup',
      question: 'How many responses?',
      expected_answer: '1,204',
      expected_references: [{ section_label: 'Methods', alternatives: [METHODS] }],
    },
    {
      row_id: 'p1_multihop0',
      paper_id: 'p1',
      domain: 'education',
      question_type: 'multi_hop',
      question: 'Sample and effect?',
      expected_answer: '1,204; 12%',
      expected_references: [
        { section_label: 'Methods', alternatives: [METHODS] },
        { section_label: 'Results', alternatives: [RESULTS] },
      ],
    },
    {
      row_id: 'p1_adversarial0',
      paper_id: 'p1',
      domain: 'education',
      question_type: 'adversarial',
      question: 'Why did the RCT fail?',
      expected_refusal: true,
      false_premise: 'there is an RCT',
    },
  ];
  writeFileSync(join(dir, 'dataset.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
  // Model A (citegeist JSONL): all correct. Model B (published layout): one fabricated quote.
  const a = [
    {
      row_id: 'p1_chunk0_lookup',
      model: 'openai:gpt-x',
      answer: '1,204 [^1]',
      citations: [{ key: '1', quote: METHODS }],
      latency_ms: 1000,
    },
    {
      row_id: 'p1_multihop0',
      model: 'openai:gpt-x',
      answer: 'a',
      citations: [
        { key: '1', quote: METHODS },
        { key: '2', quote: RESULTS },
      ],
      latency_ms: 3000,
    },
    {
      row_id: 'p1_adversarial0',
      model: 'openai:gpt-x',
      answer: 'The paper has no RCT.',
      citations: [],
      latency_ms: 2000,
    },
  ];
  writeFileSync(join(dir, 'a.jsonl'), a.map((r) => JSON.stringify(r)).join('\n'));
  const b = [
    {
      row_id: 'p1_chunk0_lookup',
      actual_answer: '1,204',
      actual_citations: [{ key: '1', reference: METHODS }],
      latency_seconds: 0.5,
    },
    {
      row_id: 'p1_multihop0',
      actual_answer: 'b',
      actual_citations: [{ key: '1', reference: METHODS }],
      latency_seconds: 0.5,
    },
    {
      row_id: 'p1_adversarial0',
      actual_answer: 'It failed due to attrition.',
      actual_citations: [
        { key: '1', reference: 'The RCT failed because of high attrition in all districts.' },
      ],
      latency_seconds: 0.5,
    },
  ];
  writeFileSync(join(dir, 'model-b.json'), JSON.stringify(b));
  return dir;
}

/** `grade` of model A's run into g.jsonl. */
const gradeA = 'grade --dataset dataset.jsonl --papers papers --run a.jsonl --out g.jsonl'.split(' ');

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** stderr without `note:` lines (what grade says it did not do), to check that nothing else is there. */
const withoutNotes = (text: string) => text.replace(/^note: .*\n/gm, '');

describe('citegeist grade and leaderboard', () => {
  it('grades a citegeist run and a published-layout run, then compares them', async () => {
    const dir = workspace();
    const { io, stderr } = memoryIo({ cwd: dir });
    const base = ['--dataset', 'dataset.jsonl', '--papers', 'papers'];
    expect(await runCli(['grade', ...base, '--run', 'a.jsonl', '--out', 'a.grades.jsonl'], io)).toBe(0);
    expect(await runCli(['grade', ...base, '--run', 'model-b.json', '--out', 'b.grades.jsonl'], io)).toBe(0);
    // No warning; each grading notes that the gold evidence was not looked for (no check kept here).
    expect(withoutNotes(stderr())).toBe('');
    expect(stderr().match(/^note: the dataset's gold evidence was not looked for/gm)).toHaveLength(2);
    const [manifest, ...b] = readFileSync(join(dir, 'b.grades.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // A published-layout run has no manifest: the grades record the run file's hash instead.
    expect(manifest).toMatchObject({
      kind: 'grades',
      label: 'model-b',
      inputs: { run: { path: 'model-b.json' } },
    });
    expect(
      b.map((g) => [g.row_id, g.model, g.section_coverage, g.citation_accuracy, g.refusal_correctness]),
    ).toEqual([
      ['p1_chunk0_lookup', 'model-b', 1, 1, null],
      ['p1_multihop0', 'model-b', 0.5, 1, null],
      ['p1_adversarial0', 'model-b', null, null, 0],
    ]);
    expect(readFileSync(join(dir, 'a.grades.summary.json'), 'utf8')).toMatch(/"spreads"/);
    const lb = memoryIo({ cwd: dir });
    expect(await runCli(['leaderboard', 'a.grades.jsonl', 'b.grades.jsonl'], lb.io)).toBe(0);
    expect(lb.stdout()).toMatch(
      /Refusal correctness\s+1\.000 .*n=1\s+0\.000 .*n=1\s+1\.000 \(openai:gpt-x vs model-b\)/,
    );
    expect(lb.stdout()).toMatch(/Section coverage\s+1\.000/);
    // The same comparison straight from run files.
    const direct = memoryIo({ cwd: dir });
    expect(await runCli(['--json', 'leaderboard', 'a.jsonl', 'model-b.json', ...base], direct.io)).toBe(0);
    const json = JSON.parse(direct.stdout()) as { models: { model: string }[] };
    expect(json.models.map((m) => m.model)).toEqual(['openai:gpt-x', 'model-b']);
  });

  it('judges with --judge over an OpenAI-compatible server, warns on a shared family, records failures', async () => {
    const dir = workspace();
    let call = 0;
    server = await new FakeOpenAiServer({
      replies: () => {
        call++;
        return call === 2
          ? { status: 400, message: 'bad request' }
          : {
              // Support quoted from row 1 (answer "1,204 [^1]", expected "1,204"): found there,
              // not in row 3 (answer "The paper has no RCT.").
              text: JSON.stringify({
                factual_accuracy: 4,
                completeness: 5,
                justification: '2 claims, one minor error',
                evidence: [{ claim: '1,204', expected_quote: '1,204' }],
              }),
            };
      },
    }).start();
    const { io, stderr, stdout } = memoryIo({ cwd: dir });
    const args = gradeA;
    expect(
      await runCli(
        [...args, '--judge', `openai-compatible:${server.url}/v1#gpt-4o`, '--concurrency', '1'],
        io,
      ),
    ).toBe(1); // a judge failure is a failed row: exit 1, as `answer` does
    expect(stderr()).toMatch(
      /warning: Judge .*gpt-4o and system openai:gpt-x are both from the openai family/,
    );
    expect(stderr()).toMatch(/1 judge failure\(s\)/);
    // Rows are appended as they are judged, then put in the run's order once the grading ends.
    const grades = readFileSync(join(dir, 'g.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const byRow = new Map(grades.map((g) => [String(g.row_id), g]));
    const [lookup, multihop, adversarial] = ['p1_chunk0_lookup', 'p1_multihop0', 'p1_adversarial0'].map(
      (id) => byRow.get(id),
    );
    // The adversarial row's claim of support is not in its answer: unverified, so it counts as no
    // support (1).
    expect([lookup, multihop, adversarial].map((g) => g?.factual_accuracy)).toEqual([4, null, 1]);
    expect(multihop?.status).toMatchObject({ factual_accuracy: 'failed' });
    expect(lookup?.judge_grounding).toMatchObject({
      judge_factual_accuracy: 4,
      unverified: 0,
      evidence: [{ status: 'located', span: { key: 'expected_answer', start: 0, end: 5, text: '1,204' } }],
    });
    expect(adversarial?.judge_grounding).toMatchObject({
      judge_factual_accuracy: 4,
      factual_accuracy: 1,
      unverified: 1,
      evidence: [{ status: 'unverified', reason: 'claim-not-in-answer' }],
    });
    expect(stdout()).toMatch(
      /rubric judge openai-compatible:.*#gpt-4o: 1 of 2 claims counted consistent with the expected answer unverified \(quote missing or not found in the answer or the expected answer; counted as unsupported/,
    );
    const summary = JSON.parse(readFileSync(join(dir, 'g.summary.json'), 'utf8'));
    expect(summary.judge_evidence).toEqual([
      { judge: expect.stringMatching(/#gpt-4o$/), claimed_support: 2, located: 1, unverified: 1 },
    ]);
    expect(stderr()).toMatch(
      /judged: 3\/3 done, 1 failed, took \d+s, 3 model calls \(1 failed\), [1-9][\d,]* tokens/,
    );

    // With the flag the judge's score stands; the grounding still says what was not found. The
    // flag is a setting of the grades file: another file, not a resume of g.jsonl.
    call = 0;
    const trusted = memoryIo({ cwd: dir });
    const judge = ['--judge', `openai-compatible:${server.url}/v1#gpt-4o`, '--concurrency', '1'];
    const withFlag = [...args.slice(0, -1), 'g2.jsonl', ...judge, '--trust-unlocated-evidence', '--no-cache'];
    expect(await runCli(withFlag, trusted.io)).toBe(1); // the multi-hop row's judge fails again
    const [manifest, ...again] = readFileSync(join(dir, 'g2.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(manifest.settings).toMatchObject({ trust_unlocated_evidence: true });
    expect(manifest.label).toMatch(/trust_unlocated_evidence=true/);
    const trustedRow = (id: string) => again.find((g: { row_id: string }) => g.row_id === id);
    expect(trustedRow('p1_adversarial0')).toMatchObject({
      factual_accuracy: 4,
      judge_grounding: { unverified: 1, trust_unlocated_evidence: true },
    });
    expect(trustedRow('p1_chunk0_lookup')?.factual_accuracy).toBe(4);
    expect(trusted.stdout()).toMatch(/counted as supported: --trust-unlocated-evidence/);
    // Resuming g.jsonl with the flag would mix two countings: refused.
    const mixed = memoryIo({ cwd: dir });
    expect(await runCli([...args, ...judge, '--trust-unlocated-evidence'], mixed.io)).toBe(1);
    expect(mixed.stderr()).toMatch(
      /RUN_MANIFEST_MISMATCH[\s\S]*trust_unlocated_evidence: false in the file, true now/,
    );
  });

  it('a judge answering schema-valid but arbitrary JSON shows no support: its factual accuracy counts as 1', async () => {
    const dir = workspace();
    server = await new FakeOpenAiServer({ replies: arbitraryReplies(3) }).start();
    const { io, stdout } = memoryIo({ cwd: dir });
    const judge = `openai-compatible:${server.url}/v1#arbitrary`;
    expect(await runCli(['--json', ...gradeA, '--judge', judge, '--no-cache'], io)).toBe(0);
    type Row = {
      factual_accuracy: number | null;
      judge_grounding: { judge_factual_accuracy: number; claimed_support: number; unverified: number };
    };
    const grades = readFileSync(join(dir, 'g.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as Row);
    expect(grades).toHaveLength(3);
    for (const g of grades) {
      expect(g.judge_grounding.unverified).toBe(g.judge_grounding.claimed_support);
      expect(g.factual_accuracy).toBe(1);
    }
    // The arbitrary judge did claim support (scores above 1), and all of it is reported unverified.
    expect(grades.some((g) => g.judge_grounding.judge_factual_accuracy > 1)).toBe(true);
    const claimed = grades.reduce((a, g) => a + g.judge_grounding.claimed_support, 0);
    expect(JSON.parse(stdout()).judge_evidence).toEqual([
      {
        judge: expect.stringMatching(/#arbitrary$/),
        claimed_support: claimed,
        located: 0,
        unverified: claimed,
      },
    ]);
  });

  it('exits 1 with JUDGE_FAILED when every judge call failed', async () => {
    const dir = workspace();
    server = await new FakeOpenAiServer({ replies: () => ({ status: 400, message: 'bad request' }) }).start();
    const { io, stderr } = memoryIo({ cwd: dir });
    const code = await runCli(
      [
        'grade',
        '--dataset',
        'dataset.jsonl',
        '--papers',
        'papers',
        '--run',
        'a.jsonl',
        '--out',
        'g.jsonl',
      ].concat(['--judge', `openai-compatible:${server.url}/v1#m`]),
      io,
    );
    expect(code).toBe(1);
    expect(stderr()).toMatch(/error \[JUDGE_FAILED\]: every one of the 3 judge call\(s\) failed/);
  });

  it('warns about and counts rows without citations or expected_references; reads files with a BOM', async () => {
    const dir = workspace();
    const bom = '\uFEFF';
    const rows = readFileSync(join(dir, 'dataset.jsonl'), 'utf8')
      .split('\n')
      .map((l) => JSON.parse(l));
    delete rows[0].expected_references;
    writeFileSync(join(dir, 'dataset.jsonl'), bom + rows.map((r) => JSON.stringify(r)).join('\r\n'));
    const run = readFileSync(join(dir, 'a.jsonl'), 'utf8')
      .split('\n')
      .map((l) => JSON.parse(l));
    delete run[1].citations;
    writeFileSync(join(dir, 'a.jsonl'), bom + run.map((r) => JSON.stringify(r)).join('\n'));
    const published = JSON.parse(readFileSync(join(dir, 'model-b.json'), 'utf8'));
    published[0].actual_citations = null;
    writeFileSync(join(dir, 'model-b.json'), bom + JSON.stringify(published));
    const { io, stderr } = memoryIo({ cwd: dir });
    const base = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers'];
    expect(await runCli([...base, '--run', 'a.jsonl', '--out', 'a.g.jsonl'], io)).toBe(0);
    expect(await runCli([...base, '--run', 'model-b.json', '--out', 'b.g.jsonl'], io)).toBe(0);
    expect(stderr()).toMatch(
      /warning: 1 dataset row\(s\) have no "expected_references" field .*p1_chunk0_lookup/,
    );
    expect(stderr()).toMatch(/warning: 1 run row\(s\) have no "citations" field .*p1_multihop0/);
    expect(stderr()).toMatch(/warning: 1 run row\(s\) have no "actual_citations" field .*p1_chunk0_lookup/);
    const summary = JSON.parse(readFileSync(join(dir, 'a.g.summary.json'), 'utf8'));
    expect(summary.missing_fields).toEqual({ expected_references: 1, citations: 1 });
    const b = JSON.parse(readFileSync(join(dir, 'b.g.summary.json'), 'utf8'));
    expect(b.missing_fields).toEqual({ expected_references: 1, actual_citations: 1 });
  });

  it('finds the papers without --papers/--corpus: the configured corpus, else the workspace default', async () => {
    const dir = workspace();
    const grade = async (cwd: string) => {
      const { io, stderr } = memoryIo({ cwd });
      const code = await runCli(
        ['grade', '--dataset', `${dir}/dataset.jsonl`, '--run', `${dir}/a.jsonl`, '--out', 'g.jsonl'],
        io,
      );
      return {
        code,
        stderr: withoutNotes(stderr()),
        accuracy: () =>
          JSON.parse(readFileSync(join(cwd, 'g.jsonl'), 'utf8').split('\n')[1]!).citation_accuracy,
      };
    };
    const none = await grade(dir);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/OPTION_REQUIRED[\s\S]*--corpus FILE/);
    // `citegeist ingest` into the default corpus, then grade with no paper flag.
    expect(await runCli(['ingest', 'papers'], memoryIo({ cwd: dir }).io)).toBe(0);
    const byDefault = await grade(dir);
    expect([byDefault.code, byDefault.stderr, byDefault.accuracy()]).toEqual([0, '', 1]);
    // A config file naming a corpus elsewhere.
    const other = mkdtempSync(join(tmpdir(), 'citegeist-grade-config-'));
    writeFileSync(
      join(other, 'citegeist.config.json'),
      JSON.stringify({ corpus: `${dir}/.citegeist/corpus.sqlite` }),
    );
    const byConfig = await grade(other);
    expect([byConfig.code, byConfig.stderr, byConfig.accuracy()]).toEqual([0, '', 1]);
  });

  it('refuses run files without a dataset, a bad --match and a bad --threads', async () => {
    const dir = workspace();
    const { io, stderr } = memoryIo({ cwd: dir });
    expect(await runCli(['leaderboard', 'a.jsonl'], io)).toBe(1);
    expect(stderr()).toMatch(/need grading[\s\S]*--dataset/);
    expect(
      await runCli(
        [
          'grade',
          '--dataset',
          'dataset.jsonl',
          '--papers',
          'papers',
          '--run',
          'a.jsonl',
          '--out',
          'x.jsonl',
          '--match',
          'fuzzy',
        ],
        io,
      ),
    ).toBe(1);
    expect(stderr()).toMatch(/--match fuzzy is not one of researchqa, span/);
    const base = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'a.jsonl'];
    expect(await runCli([...base, '--out', 'x.jsonl', '--threads', '0'], io)).toBe(1);
    expect(stderr()).toMatch(/--threads must be a whole number at least 1, got "0"/);
  });
});

describe('grade writes rows as they complete and resumes like answer', () => {
  const rowsOf = (path: string) =>
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('keeps the rows graded from unchanged answers and regrades a changed one', async () => {
    const dir = workspace();
    const answer = ['answer', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--model', 'extractive'];
    expect(await runCli([...answer, '--out', 'r.jsonl'], memoryIo({ cwd: dir }).io)).toBe(0);
    const args = [
      'grade',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--run',
      'r.jsonl',
      '--out',
      'g.jsonl',
    ];
    expect(await runCli(args, memoryIo({ cwd: dir }).io)).toBe(0);
    const first = rowsOf(join(dir, 'g.jsonl')).slice(1);
    // One answer changes (as when \`answer\` retried a failed row): only that row is regraded.
    const run = readFileSync(join(dir, 'r.jsonl'), 'utf8').split('\n');
    const changed = JSON.parse(run[2]!) as { row_id: string; answer: string };
    run[2] = JSON.stringify({ ...changed, answer: 'changed' });
    writeFileSync(join(dir, 'r.jsonl'), run.join('\n'));
    const again = memoryIo({ cwd: dir });
    expect(await runCli(args, again.io), again.stderr()).toBe(0);
    expect(again.stdout()).toMatch(/3 graded rows \(2 kept from an earlier run\)/);
    const [manifest, ...rows] = rowsOf(join(dir, 'g.jsonl'));
    expect(manifest).toMatchObject({
      kind: 'grades',
      label: 'extractive',
      inputs: { run: { label: 'extractive' } },
    });
    // The regraded row was appended last, then the file was put back in the run's order, so a
    // resumed grading ends with the same layout as a fresh one (and a pack replays it byte for byte).
    const runOrder = run
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { row_id?: string }).row_id)
      .filter(Boolean);
    expect(rows.map((r) => r.row_id)).toEqual(runOrder);
    const regraded = rows.find((r) => r.row_id === changed.row_id)!;
    expect(regraded.run_row_sha256).not.toBe(first.find((r) => r.row_id === changed.row_id)!.run_row_sha256);
    expect(rows.every((r) => r.label === 'extractive' && typeof r.run_row_sha256 === 'string')).toBe(true);
  });

  it('refuses to resume grading a run without a manifest whose file changed', async () => {
    const dir = workspace();
    const args = gradeA;
    expect(await runCli(args, memoryIo({ cwd: dir }).io)).toBe(0);
    writeFileSync(
      join(dir, 'a.jsonl'),
      readFileSync(join(dir, 'a.jsonl'), 'utf8').replace('"answer":"a"', '"answer":"b"'),
    );
    const again = memoryIo({ cwd: dir });
    expect(await runCli(args, again.io)).toBe(1);
    expect(again.stderr()).toMatch(/RUN_MANIFEST_MISMATCH[\s\S]*run: content sha256/);
  });

  it('honours quoteMode from the config file, and refuses to resume a grading made another way', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'citegeist.config.json'), JSON.stringify({ quoteMode: 'strict' }));
    const args = gradeA;
    expect(await runCli(args, memoryIo({ cwd: dir }).io)).toBe(0);
    expect(rowsOf(join(dir, 'g.jsonl'))[0]).toMatchObject({ settings: { quote_mode: 'strict' } });
    const other = memoryIo({ cwd: dir });
    expect(await runCli([...args, '--quote-mode', 'researchqa'], other.io)).toBe(1);
    expect(other.stderr()).toMatch(
      /RUN_MANIFEST_MISMATCH[\s\S]*quote_mode: "strict" in the file, "researchqa" now/,
    );
  });

  it('--dry-run with --judge prices the judge calls and writes nothing', async () => {
    const dir = workspace();
    const { io, stdout } = memoryIo({ cwd: dir });
    const args = gradeA;
    expect(await runCli([...args, '--judge', 'openai:gpt-4.1-mini', '--dry-run', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ dry_run: true, rows: 3, calls: 3, outputTokens: 900 });
    expect(() => readFileSync(join(dir, 'g.jsonl'))).toThrow();
    // Not even the papers cache or the dataset check's results.
    expect(existsSync(join(dir, '.citegeist'))).toBe(false);
  });

  it('reports the gold-evidence check `dataset check` kept for the same dataset and papers, and notes its absence', async () => {
    const dir = workspace();
    const rows = readFileSync(join(dir, 'dataset.jsonl'), 'utf8').replace(
      /coaching reported/g,
      'mentoring saw',
    );
    writeFileSync(join(dir, 'dataset.jsonl'), rows);
    const check = ['dataset', 'check', 'dataset.jsonl', '--papers', 'papers'];
    // Grading alone does not look for the gold evidence (validation stays off its path) and says so.
    const unchecked = memoryIo({ cwd: dir });
    expect(await runCli(gradeA, unchecked.io)).toBe(0);
    expect(unchecked.stderr()).not.toMatch(/evidence group/);
    expect(unchecked.stderr()).toMatch(
      /note: the dataset's gold evidence was not looked for[\s\S]*dataset check/,
    );
    expect(await runCli(check, memoryIo({ cwd: dir }).io)).toBe(0);
    const first = memoryIo({ cwd: dir });
    expect(await runCli([...gradeA.slice(0, -1), 'g1.jsonl'], first.io)).toBe(0);
    expect(first.stderr()).toMatch(
      /dataset check: 1 warning\(s\), e\.g\. row p1_multihop0: evidence group 2/,
    );
    expect(first.stderr()).not.toMatch(/note:/);
    const checks = join(dir, '.citegeist', 'dataset-checks');
    const [entry] = readdirSync(checks);
    // The kept result is what the next grading reports (marked here to tell it from a new check).
    const kept = JSON.parse(readFileSync(join(checks, entry!), 'utf8')) as DatasetCheck;
    kept.warnings[0]!.message = 'marked';
    writeFileSync(join(checks, entry!), JSON.stringify(kept));
    const again = memoryIo({ cwd: dir });
    expect(await runCli([...gradeA.slice(0, -1), 'g2.jsonl'], again.io)).toBe(0);
    expect(again.stderr()).toMatch(/row p1_multihop0: marked/);
    // An edited paper is another input: the kept check no longer applies until it is run again.
    writeFileSync(
      join(dir, 'papers', 'p1.md'),
      `${readFileSync(join(dir, 'papers', 'p1.md'), 'utf8')}\nMore.\n`,
    );
    const edited = memoryIo({ cwd: dir });
    expect(await runCli([...gradeA.slice(0, -1), 'g3.jsonl'], edited.io)).toBe(0);
    expect(edited.stderr()).toMatch(/note: the dataset's gold evidence was not looked for/);
    expect(await runCli(check, memoryIo({ cwd: dir }).io)).toBe(0);
    expect(readdirSync(checks)).toHaveLength(2);
    const rechecked = memoryIo({ cwd: dir });
    expect(await runCli([...gradeA.slice(0, -1), 'g4.jsonl'], rechecked.io)).toBe(0);
    expect(rechecked.stderr()).toMatch(/row p1_multihop0: evidence group 2/);
  });

  it('grade reuses the dataset check `answer` kept for the same dataset and papers', async () => {
    const dir = workspace();
    const answered = memoryIo({ cwd: dir });
    const answer = ['answer', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--model', 'extractive'];
    expect(await runCli([...answer, '--out', 'x.jsonl'], answered.io)).toBe(0);
    const checks = join(dir, '.citegeist', 'dataset-checks');
    const [entry] = readdirSync(checks);
    const kept = JSON.parse(readFileSync(join(checks, entry!), 'utf8')) as DatasetCheck;
    kept.warnings.push({
      kind: 'unlocated_evidence',
      severity: 'warning',
      where: 'row p1_x',
      message: 'marked',
    });
    writeFileSync(join(checks, entry!), JSON.stringify(kept));
    const graded = memoryIo({ cwd: dir });
    expect(
      await runCli(
        'grade --dataset dataset.jsonl --papers papers --run x.jsonl --out gx.jsonl'.split(' '),
        graded.io,
      ),
    ).toBe(0);
    expect(graded.stderr()).toMatch(/dataset check: \d+ warning\(s\)/);
    expect(readdirSync(checks)).toEqual([entry]);
    // The marked entry was read, not a new check run.
    expect(JSON.parse(readFileSync(join(checks, entry!), 'utf8')).warnings.at(-1).message).toBe('marked');
  });

  it('leaderboard --dry-run prices the judge calls of grading the run files, per run, and grades nothing', async () => {
    const dir = workspace();
    const board = [
      'leaderboard',
      'a.jsonl',
      'model-b.json',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
    ];
    const priced = memoryIo({ cwd: dir });
    expect(await runCli([...board, '--judge', 'openai:gpt-4.1-mini', '--dry-run', '--json'], priced.io)).toBe(
      0,
    );
    const estimate = JSON.parse(priced.stdout());
    // Per run, the very requests `grade --dry-run` prices for that run.
    const single = memoryIo({ cwd: dir });
    expect(
      await runCli([...gradeA, '--judge', 'openai:gpt-4.1-mini', '--dry-run', '--json'], single.io),
    ).toBe(0);
    const one = JSON.parse(single.stdout());
    expect(estimate.runs[0]).toMatchObject({
      file: 'a.jsonl',
      rows: 3,
      calls: one.calls,
      inputTokens: one.inputTokens,
    });
    expect(estimate).toMatchObject({
      dry_run: true,
      judge: 'openai:gpt-4.1-mini',
      rows: 6,
      outputTokens: 300 * estimate.calls,
    });
    expect(estimate.costUsd).toBeGreaterThan(0);
    const text = memoryIo({ cwd: dir });
    expect(await runCli([...board, '--judge', 'openai:gpt-4.1-mini', '--dry-run'], text.io)).toBe(0);
    expect(text.stdout()).toMatch(
      /^dry run, nothing called or written: 6 rows of 2 run file\(s\) to grade; judge openai:gpt-4\.1-mini: \d+ calls/,
    );
    expect(text.stdout()).toMatch(/\n {2}model-b\.json \("model-b"\): 3 rows, \d+ calls, ~\$\d\.\d{4}\n/);
    const noJudge = memoryIo({ cwd: dir });
    expect(await runCli([...board, '--dry-run'], noJudge.io)).toBe(0);
    expect(noJudge.stdout()).toBe(
      'dry run: no judge, so no model calls (the citation metrics are computed locally)\n',
    );
  });

  it('is a command group: options before `faithfulness` are an error, not ignored', async () => {
    const { io, stderr } = memoryIo({ cwd: workspace() });
    const argv = [
      'grade',
      '--dataset',
      'dataset.jsonl',
      'faithfulness',
      '--answers',
      'a.jsonl',
      '--judge',
      'openai:m',
      '--out',
      'f.jsonl',
    ];
    expect(await runCli(argv, io)).toBe(1);
    expect(stderr()).toMatch(/BAD_OPTION[\s\S]*before the subcommand "faithfulness"/);
  });

  it('leaderboard keeps two runs of one model apart by label and refuses one run given twice', async () => {
    const dir = workspace();
    const base = ['--dataset', 'dataset.jsonl', '--papers', 'papers', '--model', 'extractive'];
    expect(await runCli(['answer', ...base, '--out', 'k8.jsonl'], memoryIo({ cwd: dir }).io)).toBe(0);
    expect(await runCli(['answer', ...base, '-k', '3', '--out', 'k3.jsonl'], memoryIo({ cwd: dir }).io)).toBe(
      0,
    );
    const lb = memoryIo({ cwd: dir });
    const board = ['leaderboard', '--dataset', 'dataset.jsonl', '--papers', 'papers', 'k8.jsonl', 'k3.jsonl'];
    expect(await runCli([...board, '--json'], lb.io)).toBe(0);
    const models = (JSON.parse(lb.stdout()) as { models: { label: string; overall: { rows: number } }[] })
      .models;
    expect(models.map((m) => [m.label, m.overall.rows])).toEqual([
      ['extractive', 3],
      ['extractive (k=3)', 3],
    ]);
    const twice = memoryIo({ cwd: dir });
    expect(await runCli([...board, 'k8.jsonl'], twice.io)).toBe(1);
    expect(twice.stderr()).toMatch(/DUPLICATE_ROW_IDS/);
  });
});
