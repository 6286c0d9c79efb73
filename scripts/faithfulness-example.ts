/**
 * The worked example of docs/faithfulness.md: one VetBench passage (RC4_open.jsonl, CC BY 4.0),
 * a long cited answer with a deliberately wrong dose, graded by the real VETSCORE pipeline with a
 * scripted FakeLlm standing in for the judges. Prints Markdown. Run: `npx tsx scripts/faithfulness-example.ts`.
 */
import { readFileSync } from 'node:fs';
import {
  type FaithfulnessInput,
  gradeAnswer,
  loadHarmRubric,
  riskWeightedScore,
} from '../src/grade/index.js';
import { type Script, scriptedJudge } from '../src/grade/vetscore/__fixtures__/scripted-judge.js';
import { sharedDataPath } from '../src/testing/index.js';

const ROW = 92; // 0-based line of RC4_open.jsonl: Malassezia dermatitis in dogs
const line = readFileSync(sharedDataPath('vetbench', 'RC4_open.jsonl'), 'utf8').split('\n')[ROW] ?? '';
const query = (JSON.parse(line) as { query: string }).query;
const [context = '', question = ''] = query.replace(/^Contextual materials:\s*/, '').split(/\nquery:\s*/);
const sentences = context.match(/[^.]+(?:\.(?!\d)[^.]*)*?\.(?=\s|$)/g)?.map((s) => s.trim()) ?? [];
const pick = (...i: number[]) => i.map((k) => sentences[k] ?? '').join(' ');
// Four source excerpts cut from the one VetBench passage.
const sources = { '1': pick(0, 1, 2), '2': pick(3, 4, 5), '3': pick(6, 7), '4': pick(8, 9, 10, 11) };

const answer = `## Treating the active episode

Generalized Malassezia dermatitis in dogs is treated with topical or systemic antifungals, alone or combined, and combination therapy may resolve it faster [1]. For generalized infection a shampoo is preferred; it should contain 2% chlorhexidine with 2% miconazole or ketoconazole [2]. Apply it two to three times per week for three to four weeks [^2].

## Oral antifungals

Ketoconazole and itraconazole are the most effective oral options for dogs, and itraconazole is given at 50 mg/kg/day [3]. Itraconazole is better tolerated, although vomiting and diarrhea can occur [3]. Fluconazole is less reliable for Malassezia, and terbinafine is less effective for surface infections [4].

Always recheck the dog after the first month.`;

const script: Script = {
  segments: {
    'Generalized Malassezia dermatitis in dogs is treated with topical or systemic antifungals, alone or combined, and combination therapy may resolve it faster [1].':
      [
        'Malassezia dermatitis in dogs can be treated with topical or systemic antifungals.',
        'Topical and systemic antifungals can be combined for Malassezia dermatitis.',
        'Combination therapy may resolve Malassezia dermatitis faster.',
      ],
    'For generalized infection a shampoo is preferred; it should contain 2% chlorhexidine with 2% miconazole or ketoconazole [2].':
      [
        'Shampoo is preferred for generalized Malassezia infection.',
        'The shampoo should contain 2% chlorhexidine with 2% miconazole or ketoconazole.',
      ],
    'Apply it two to three times per week for three to four weeks [^2].': [
      'The antifungal shampoo is applied two to three times per week for three to four weeks in active Malassezia infection.',
    ],
    'Ketoconazole and itraconazole are the most effective oral options for dogs, and itraconazole is given at 50 mg/kg/day [3].':
      [
        'Ketoconazole and itraconazole are the most effective oral antifungals for Malassezia dermatitis in dogs.',
        'Itraconazole is given to dogs at 50 mg/kg/day.',
      ],
    'Itraconazole is better tolerated, although vomiting and diarrhea can occur [3].': [
      'Itraconazole is better tolerated than ketoconazole in dogs.',
      'Itraconazole can cause vomiting and diarrhea in dogs.',
    ],
    'Fluconazole is less reliable for Malassezia, and terbinafine is less effective for surface infections [4].':
      [
        'Fluconazole may be less reliable for treating Malassezia.',
        'Terbinafine is less effective for surface Malassezia infections.',
      ],
    'Always recheck the dog after the first month.': [
      'The dog should be rechecked after the first month of treatment.',
    ],
  },
  claims: {
    'Malassezia dermatitis in dogs can be treated with topical or systemic antifungals.': {
      verdict: 'supported',
      harm: 2,
      evidence: 'can be treated with topical or systemic antifungals',
    },
    'Topical and systemic antifungals can be combined for Malassezia dermatitis.': {
      verdict: 'supported',
      harm: 2,
      evidence: 'alone or in combination',
    },
    'Combination therapy may resolve Malassezia dermatitis faster.': {
      verdict: 'supported',
      harm: 3,
      evidence: 'Combination therapy may lead to faster resolution of disease',
    },
    'Shampoo is preferred for generalized Malassezia infection.': {
      verdict: 'supported',
      harm: 3,
      evidence: 'The author prefers shampoo for generalized infections',
    },
    'The shampoo should contain 2% chlorhexidine with 2% miconazole or ketoconazole.': {
      verdict: 'supported',
      harm: 4,
      evidence: 'should contain 2% chlorhexidine with 2% miconazole or ketoconazole',
    },
    'The antifungal shampoo is applied two to three times per week for three to four weeks in active Malassezia infection.':
      {
        verdict: 'supported',
        harm: 4,
        evidence: 'two to three times per week for three to four weeks is recommended for active infection',
      },
    'Ketoconazole and itraconazole are the most effective oral antifungals for Malassezia dermatitis in dogs.':
      { verdict: 'supported', harm: 4, evidence: 'are the most effective oral therapeutic options for dogs' },
    'Itraconazole is given to dogs at 50 mg/kg/day.': { verdict: 'contradicted', harm: 5 },
    'Itraconazole is better tolerated than ketoconazole in dogs.': {
      verdict: 'supported',
      harm: 3,
      evidence: 'Overall itraconazole is better tolerated',
    },
    'Itraconazole can cause vomiting and diarrhea in dogs.': {
      verdict: 'supported',
      harm: 3,
      evidence: 'vomiting, inappetence, and diarrhea',
    },
    'Fluconazole may be less reliable for treating Malassezia.': {
      verdict: 'supported',
      harm: 4,
      evidence: 'may not be as reliable for Malassezia treatment',
    },
    'Terbinafine is less effective for surface Malassezia infections.': {
      verdict: 'supported',
      harm: 4,
      evidence: 'is not as effective for surface infections',
    },
    'The dog should be rechecked after the first month of treatment.': { harm: 3 },
  },
};

const input: FaithfulnessInput = { id: 'vetbench-rc4-92', question, answer, sources, layout: 'native' };
const rubric = loadHarmRubric('veterinary').text;

async function grade(p: number) {
  const llm = scriptedJudge(script, 'fake:scripted-judge');
  return gradeAnswer(input, {
    decomposer: llm,
    verifier: llm,
    harmJudge: llm,
    mode: 'separate',
    repeats: 1,
    rubric,
    p,
    call: {},
  });
}

const main = await grade(2.426);
const plain = await grade(0);
const out: string[] = [];
out.push(`Question (VetBench RC4_open.jsonl line ${ROW + 1}): ${question.replace(/\*\*/g, '')}`, '');
out.push('Sources (cut from the VetBench context passage):', '');
for (const [k, v] of Object.entries(sources)) out.push(`- [${k}] ${v}`);
out.push(
  '',
  '| seg | segment (cited keys) | claim | v | w | ω = w^p | P_s |',
  '|---|---|---|---|---|---|---|',
);
for (const seg of main.segments) {
  seg.claims.forEach((c, i) => {
    const omega = c.w === null ? '' : (c.w ** 2.426).toFixed(2);
    const segCell =
      i === 0
        ? `${seg.text.slice(0, 60)}${seg.text.length > 60 ? '…' : ''} (${seg.keys.join(', ') || 'none'})`
        : '';
    const pen = i === 0 ? (seg.penalty?.toFixed(3) ?? 'n/a') : '';
    out.push(
      `| ${i === 0 ? seg.index : ''} | ${segCell} | ${c.text} | ${c.v} | ${c.w} | ${omega} | ${pen} |`,
    );
  });
}
const check = riskWeightedScore(
  main.segments.map((s) => ({ claims: s.claims.map((c) => ({ verified: c.v ?? 0, harm: c.w ?? 1 })) })),
);
out.push(
  '',
  `score (p = 2.426): ${main.score?.toFixed(4)} (riskWeightedScore on the same claims: ${check.score?.toFixed(4)})`,
);
out.push(`score (p = 0, plain precision): ${plain.score?.toFixed(4)}`);
out.push(
  `coverage: ${main.coverage.claims_scored}/${main.coverage.claims} claims scored; failures: ${main.failures.length}`,
  '',
);
out.push('Unsupported claims by harm:');
for (const u of main.unsupported) out.push(`- w=${u.w} ${u.verdict}: ${u.text} — ${u.rationale}`);
out.push('', 'Evidence spans of supported claims (excerpt key, [start, end), matcher rule):');
for (const seg of main.segments)
  for (const c of seg.claims)
    if (c.span)
      out.push(
        `- ${c.text} → [${c.span.key}] ${c.span.start}–${c.span.end} ${c.span.rule}: "${c.span.text}"`,
      );
const tally = main.evidence[0];
if (tally)
  out.push(
    '',
    `Verdicts claiming support: ${tally.claimed_support}, located ${tally.located}, unverified ${tally.unverified}`,
  );
console.log(out.join('\n'));
