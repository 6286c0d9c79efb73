import { describe, expect, it } from 'vitest';
import { gradeFrom } from './__fixtures__/grades.js';
import { type Script, scriptedJudge } from './__fixtures__/scripted-judge.js';
import { type AnswerGrade, type FaithfulnessSettings, gradeAnswer } from './grade-answer.js';
import type { FaithfulnessInput } from './input.js';
import {
  renderFaithfulnessSummary,
  renderUnsupported,
  summarizeFaithfulness,
  unsupportedAcross,
} from './summary.js';

// Source 2 is PDF-style text: a page number and a running header inside a sentence.
const input: FaithfulnessInput = {
  id: 'g1',
  question: 'How is meloxicam used in cats?',
  answer:
    'Meloxicam is an NSAID, cleared by the kidneys, given at 0.5 mg/kg once daily and safe for cats [1][2].',
  sources: {
    '1': 'Meloxicam, an NSAID, is given at 0.1 mg/kg once daily.',
    '2': 'The drug is cleared by the\n12\nJournal of Feline Medicine 2019\nkidneys within 24 hours.',
  },
  layout: 'native',
};

const SEGMENT = input.answer;
const claims = {
  located: 'Meloxicam is an NSAID.',
  unlocated: 'Meloxicam is given at 0.5 mg/kg once daily.',
  gapped: 'Meloxicam is cleared by the kidneys.',
  empty: 'Meloxicam is safe for cats.',
  missing: 'Meloxicam is used in cats.',
  unsupported: 'Meloxicam is an old drug.',
};
const harm = { located: 2, unlocated: 5, gapped: 3, empty: 4, missing: 1, unsupported: 2 };

const script: Script = {
  segments: { [SEGMENT]: Object.values(claims) },
  claims: {
    [claims.located]: { verdict: 'supported', harm: harm.located, evidence: 'Meloxicam, an NSAID' },
    // The judge quotes a dose the excerpt does not give (the excerpt says 0.1 mg/kg).
    [claims.unlocated]: {
      verdict: 'supported',
      harm: harm.unlocated,
      evidence: 'Meloxicam is given at 0.5 mg/kg once daily',
    },
    // Verbatim except for the page number and running header the PDF put between its lines.
    [claims.gapped]: {
      verdict: 'supported',
      harm: harm.gapped,
      evidence: 'The drug is cleared by the kidneys within 24 hours',
    },
    [claims.empty]: { verdict: 'supported', harm: harm.empty, evidence: '  ""  ' },
    [claims.missing]: { verdict: 'supported', harm: harm.missing, evidence: null },
    [claims.unsupported]: { verdict: 'unsupported', harm: harm.unsupported },
  },
};

function settings(over: Partial<FaithfulnessSettings> = {}): FaithfulnessSettings {
  const llm = scriptedJudge(script);
  return {
    decomposer: llm,
    verifier: llm,
    harmJudge: llm,
    mode: 'separate',
    repeats: 1,
    rubric: 'RUBRIC',
    p: 2.426,
    call: {},
    ...over,
  };
}

/** METHODS §3.4 by hand: ω = w^p, score = 1 − Σω(1−v)/Σω. */
function byHand(claimsVw: [v: number, w: number][], p: number): number {
  const omega = claimsVw.map(([, w]) => w ** p);
  const total = omega.reduce((a, b) => a + b, 0);
  return 1 - claimsVw.reduce((a, [v], i) => a + omega[i]! * (1 - v), 0) / total;
}

describe.each(['separate', 'joint'] as const)('evidence grounding (%s prompts)', (mode) => {
  it('records each supported verdict as located (with its span) or unverified (with the nearest passage)', async () => {
    const grade = await gradeAnswer(input, settings({ mode }));
    const got = grade.segments[0]!.claims;
    expect(got.map((c) => [c.verdict, c.v])).toEqual([
      ['supported', 1],
      ['unverified', 0],
      ['supported', 1],
      ['unverified', 0],
      ['unverified', 0],
      ['unsupported', 0],
    ]);
    const [located, unlocated, gapped, empty, missing] = got;
    expect(located?.span).toEqual({
      key: '1',
      start: 0,
      end: 19,
      text: 'Meloxicam, an NSAID',
      rule: 'exact',
      spans: [{ start: 0, end: 19 }],
    });
    expect(unlocated).toMatchObject({
      span: null,
      evidence_quote: 'Meloxicam is given at 0.5 mg/kg once daily',
    });
    expect(unlocated?.nearest?.key).toBe('1');
    expect(unlocated?.nearest?.text).toContain('is given at 0.1 mg/kg once daily');
    expect(unlocated?.nearest?.similarity).toBeGreaterThan(0.5);
    const source2 = input.sources['2']!;
    expect(gapped?.span).toMatchObject({ key: '2', rule: 'gapped', start: 0 });
    expect(gapped?.span?.spans.map((s) => source2.slice(s.start, s.end))).toEqual([
      'The drug is cleared by the',
      'kidneys within 24 hours',
    ]);
    expect(gapped?.span?.text).toBe(source2.slice(0, source2.indexOf('.')));
    // An empty quote and no quote at all: nothing to look for, so no nearest passage either.
    expect(empty).toMatchObject({ span: null, nearest: null });
    expect(missing).toMatchObject({ span: null, nearest: null, evidence_quote: null });
    expect(grade.evidence).toEqual([{ judge: 'fake:judge', claimed_support: 5, located: 2, unverified: 3 }]);
    expect(grade.trust_unlocated_evidence).toBe(false);
  });

  it('the score counts unverified support as unsupported, and as supported with the flag (by hand)', async () => {
    const p = 2.426;
    const w = Object.values(harm);
    const strict = await gradeAnswer(input, settings({ mode }));
    expect(strict.score).toBeCloseTo(
      byHand(
        [1, 0, 1, 0, 0, 0].map((v, i) => [v, w[i]!]),
        p,
      ),
      12,
    );
    const trusted = await gradeAnswer(input, settings({ mode, trustUnlocatedEvidence: true }));
    expect(trusted.score).toBeCloseTo(
      byHand(
        [1, 1, 1, 1, 1, 0].map((v, i) => [v, w[i]!]),
        p,
      ),
      12,
    );
    // With the flag the verdicts are still reported as unverified; only their weight in the score changes.
    expect(trusted.segments[0]!.claims.map((c) => c.verdict)).toEqual(
      strict.segments[0]!.claims.map((c) => c.verdict),
    );
    expect(trusted.trust_unlocated_evidence).toBe(true);
    expect(trusted.unsupported.map((u) => u.text)).toEqual([claims.unsupported]);
    // Without the flag the unverified claims are listed with the judge's quote and the nearest passage.
    expect(strict.unsupported.map((u) => [u.text, u.verdict])).toEqual([
      [claims.unlocated, 'unverified'],
      [claims.empty, 'unverified'],
      [claims.unsupported, 'unsupported'],
      [claims.missing, 'unverified'],
    ]);
    expect(strict.unsupported[0]?.nearest?.key).toBe('1');
  });
});

describe('the batch summary', () => {
  it('reports unverified verdicts per judge model and shows the nearest passage of each', async () => {
    const a = await gradeAnswer(input, settings());
    const b = await gradeAnswer(
      { ...input, id: 'g2' },
      settings({ verifier: scriptedJudge(script, 'fake:other') }),
    );
    const summary = summarizeFaithfulness([a, b]);
    expect(summary.evidence).toEqual([
      { judge: 'fake:judge', claimed_support: 5, located: 2, unverified: 3 },
      { judge: 'fake:other', claimed_support: 5, located: 2, unverified: 3 },
    ]);
    const text = renderFaithfulnessSummary(summary);
    expect(text).toMatch(
      /unverified\s+fake:judge: 3 of 5 verdicts claiming support unverified \(quote missing or not found in the cited text; counted as unsupported/,
    );
    expect(text).toMatch(/unverified\s+fake:other: 3 of 5/);
    const listed = renderUnsupported(unsupportedAcross([a]));
    expect(listed).toMatch(
      /w=5 unverified {2}g1 §0\.1 {2}Meloxicam is given at 0\.5 mg\/kg once daily\.\n {6}quote not found: "Meloxicam is given at 0\.5 mg\/kg once daily"; nearest passage \[1\] "[^"]*0\.1 mg\/kg/,
    );
    expect(listed).toMatch(
      /w=4 unverified {2}g1 §0\.3 {2}Meloxicam is safe for cats\.\n {6}no evidence quote given\n/,
    );
  });

  it('says when unverified support was counted as supported', async () => {
    const summary = summarizeFaithfulness([
      await gradeAnswer(input, settings({ trustUnlocatedEvidence: true })),
    ]);
    expect(summary.trust_unlocated_evidence).toBe(true);
    expect(renderFaithfulnessSummary(summary)).toMatch(/counted as supported: --trust-unlocated-evidence/);
  });

  it('reads rows written before grounding (no tally) without counting them', () => {
    const { evidence: _e, trust_unlocated_evidence: _t, ...old } = gradeFrom('old', [[[1, 2]]]);
    const summary = summarizeFaithfulness([old as AnswerGrade]);
    expect(summary).toMatchObject({ evidence: [], trust_unlocated_evidence: false });
    expect(renderFaithfulnessSummary(summary)).not.toMatch(/unverified/);
  });
});

describe('repeats', () => {
  it('counts every repeat verdict, and the majority uses the grounded values', async () => {
    const repeated: Script = {
      segments: { 'Meloxicam is an NSAID [1].': ['Meloxicam is an NSAID.'] },
      claims: {
        'Meloxicam is an NSAID.': {
          verdict: ['supported', 'supported', 'supported'],
          harm: 2,
          evidence: ['an NSAID', 'a COX-2 selective NSAID', ''],
        },
      },
    };
    const llm = scriptedJudge(repeated);
    const grade = await gradeAnswer(
      { ...input, answer: 'Meloxicam is an NSAID [1].' },
      { ...settings(), decomposer: llm, verifier: llm, harmJudge: llm, repeats: 3 },
    );
    const claim = grade.segments[0]!.claims[0]!;
    // One located, two unverified: the majority is 0 (unsupported), the chosen verdict unverified.
    expect(claim.repeats?.verdicts).toEqual(['supported', 'unverified', 'unverified']);
    expect(claim.repeats?.v).toEqual([1, 0, 0]);
    expect(claim).toMatchObject({ v: 0, verdict: 'unverified' });
    expect(grade.evidence).toEqual([{ judge: 'fake:judge', claimed_support: 3, located: 1, unverified: 2 }]);
    expect(grade.agreement?.verification.identical).toBe(0);
  });
});
