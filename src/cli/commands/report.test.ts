import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const data = (html: string) =>
  JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);

function workspace(files: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), 'citegeist-report-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
  return cwd;
}

describe('citegeist report', () => {
  it('refuses to write an empty report, and an unknown --paper-text, saying what to give', async () => {
    const { io, stderr } = memoryIo({ cwd: workspace({}) });
    expect(await runCli(['report', '--out', 'r.html'], io)).not.toBe(0);
    expect(stderr()).toMatch(/needs something to show.*--grades/s);
    const second = memoryIo({ cwd: workspace({ 'g.jsonl': '{"row_id":"a","model":"m"}\n' }) });
    expect(await runCli(['report', '--grades', 'g.jsonl', '--paper-text', 'most'], second.io)).not.toBe(0);
    expect(second.stderr()).toMatch(/--paper-text most is not one of auto, full, context, none/);
  });

  it('reads grades alone: the manifest names the run, bad lines are skipped and counted, never fatal', async () => {
    const manifest = {
      citegeist_manifest: 1,
      kind: 'grades',
      label: 'gpt (k=3)',
      tool: { name: 'citegeist', version: '0.2.0' },
      settings: { match: 'researchqa' },
    };
    const rows = [
      {
        row_id: 'a',
        model: 'gpt',
        question_type: 'lookup',
        citation_accuracy: 1,
        status: { citation_accuracy: 'scored' },
      },
      {
        row_id: 'b',
        model: 'gpt',
        question_type: 'lookup',
        citation_accuracy: null,
        status: { citation_accuracy: 'failed' },
        errors: { citation_accuracy: 'the paper text is not available' },
      },
    ];
    const text = [manifest, ...rows].map((r) => JSON.stringify(r)).join('\n');
    const cwd = workspace({ 'g.jsonl': `${text}\n{broken\n{"model":"gpt"}\n` });
    const { io, stdout, stderr } = memoryIo({ cwd });
    expect(await runCli(['report', '--grades', 'g.jsonl', '--out', 'r.html'], io)).toBe(0);
    expect(stdout()).toMatch(/1 run\(s\), 2 question\(s\), 2 answer\(s\), 0 paper\(s\) → r\.html/);
    expect(stderr()).toMatch(/g\.jsonl line 4 skipped: not JSON/);
    expect(stderr()).toMatch(/g\.jsonl line 5 skipped: field "row_id"/);
    const d = data(readFileSync(join(cwd, 'r.html'), 'utf8'));
    expect(d.runs.map((r: { label: string }) => r.label)).toEqual(['gpt (k=3)']);
    expect(d.runs[0].overall.metrics.citation_accuracy).toMatchObject({ n: 1, mean: 1, failed: 1 });
    expect(d.inputs[0]).toMatchObject({
      kind: 'grades',
      name: 'g.jsonl',
      rows: 2,
      skipped: 2,
      label: 'gpt (k=3)',
      version: '0.2.0',
    });
    expect(d.answers[1]).toMatchObject({
      status: { citation_accuracy: 'failed' },
      errors: { citation_accuracy: 'the paper text is not available' },
    });
  });

  it('builds when question types and domains are names of Object.prototype in one run only', async () => {
    // Plain objects answer `constructor`/`toString`/`__proto__` from their prototype: the report
    // crashed ("Cannot read properties of undefined") when one run had such a type and another not.
    const file = (label: string, names: [string, string][]) =>
      [
        { citegeist_manifest: 1, kind: 'grades', label },
        ...names.map(([type, domain], i) => ({
          row_id: `r${i}`,
          model: label,
          question_type: type,
          domain,
          citation_accuracy: 1,
          status: { citation_accuracy: 'scored' },
        })),
      ]
        .map((r) => JSON.stringify(r))
        .join('\n');
    const cwd = workspace({
      'a.jsonl': file('a', [
        ['constructor', '__proto__'],
        ['toString', 'hasOwnProperty'],
        ['lookup', 'valueOf'],
      ]),
      'b.jsonl': file('b', [
        ['lookup', 'nlp\u0000x'],
        ['lookup', 'nlp'],
        ['lookup', 'nlp'],
      ]),
    });
    const { io, stderr } = memoryIo({ cwd });
    expect(await runCli(['report', '--grades', 'a.jsonl', 'b.jsonl', '--out', 'r.html'], io), stderr()).toBe(
      0,
    );
    const html = readFileSync(join(cwd, 'r.html'), 'utf8');
    const d = data(html);
    expect(Object.keys(d.runs[0].byType).sort()).toEqual(['constructor', 'lookup', 'toString']);
    expect(Object.keys(d.runs[0].byDomain).sort()).toEqual(['__proto__', 'hasOwnProperty', 'valueOf']);
    expect(d.runs[0].byType.constructor.metrics.citation_accuracy).toMatchObject({ n: 1, mean: 1 });
    expect(Object.keys(d.runs[1].byType)).toEqual(['lookup']);
    // The breakdown table has a row for each, with run b's cell empty.
    expect(html).toMatch(/<th scope="row">constructor<\/th>/);
    expect(html).toMatch(/<th scope="row">__proto__<\/th>/);
    // A NUL in the input is never written raw into the page.
    expect(html.includes('\u0000')).toBe(false);
    expect(html).toContain('nlp\uFFFDx');
  });

  it('writes a VETSCORE-only report with --json output', async () => {
    const row = {
      id: 'x',
      question: 'q',
      status: 'failed',
      score: null,
      segments: [],
      failures: ['decomposition failed'],
    };
    const cwd = workspace({ 'vet.jsonl': `${JSON.stringify(row)}\n` });
    const { io, stdout } = memoryIo({ cwd });
    expect(await runCli(['--json', 'report', '--faithfulness', 'vet.jsonl', '--out', 'v.html'], io)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ out: 'v.html', runs: 0, answers: 0 });
    const d = data(readFileSync(join(cwd, 'v.html'), 'utf8'));
    expect(d.vetscore.runs).toEqual([
      expect.objectContaining({ label: 'vet.jsonl', answers: 1, failed: 1, mean: null }),
    ]);
  });
});
