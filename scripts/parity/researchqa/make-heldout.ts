/**
 * Makes the frozen held-out set of the ResearchQA parity check, `heldout.json.gz` beside this file:
 * the 1,005 QASPER dev questions as citegeist imports them (`citegeist dataset import qasper`) and
 * two answer runs in the published harness's row layout — the extractive baseline (`citegeist
 * answer --model extractive`) and a seeded perturbation of it meant to sit on every edge of the
 * published grader: verbatim and truncated evidence, a number changed after the 80th character
 * (accepted by the prefix rule only), evidence with appended context (quotes over 200 characters,
 * where difflib's autojunk depends on the argument order), shuffled words, typographic variants,
 * other sentences of the paper, and 3, 6, 7 or 16 citations per answer (so the per-row rounding to
 * 3 decimals, and its exact ties, come into play). Frozen so the reference numbers stay tied to
 * fixed inputs whatever later changes to the importer or the answerer. QASPER is CC BY 4.0
 * (AllenAI); the quotes and evidence here are its text.
 *
 *   npm run build && npx tsx scripts/parity/researchqa/make-heldout.ts ../shared/data/qasper-dev
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createRandom } from '../../../src/stats/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const qasper = resolve(process.argv[2] ?? join(here, '..', '..', '..', '..', 'shared', 'data', 'qasper-dev'));
const cli = join(here, '..', '..', '..', 'dist', 'cli', 'main.js');
const work = mkdtempSync(join(tmpdir(), 'citegeist-heldout-'));
const run = (...args: string[]) => execFileSync('node', [cli, ...args], { cwd: work, stdio: 'inherit' });
run(
  'dataset',
  'import',
  'qasper',
  join(qasper, 'questions_validation.json'),
  '--papers',
  join(qasper, 'papers'),
  '--out',
  'd.jsonl',
);
run(
  'answer',
  '--dataset',
  'd.jsonl',
  '--papers',
  join(qasper, 'papers'),
  '--model',
  'extractive',
  '--out',
  'e.jsonl',
);

const lines = (f: string) =>
  readFileSync(join(work, f), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
type Group = { section_label: string; alternatives: string[] };
const rows = lines('d.jsonl').map((r) => ({
  row_id: r.row_id as string,
  paper_id: r.paper_id as string,
  domain: r.domain as string,
  question_type: r.question_type as string,
  question: r.question as string,
  expected_answer: r.expected_answer as string,
  expected_references: r.expected_references as Group[],
  expected_refusal: r.expected_refusal as boolean | null,
}));
const extractive = new Map(
  lines('e.jsonl').map((r) => [r.row_id as string, (r.citations as { quote: string }[]).map((c) => c.quote)]),
);

const random = createRandom(20261201);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const papers = new Map<string, string[]>();
const sentencesOf = (id: string) => {
  let s = papers.get(id);
  if (!s) {
    const text = readFileSync(join(qasper, 'papers', `${id}.txt`), 'utf8');
    s = text.split(/(?<=[.!?])\s+/).filter((x) => x.length > 30 && x.length < 500 && !x.startsWith('#'));
    papers.set(id, s);
  }
  return s;
};
const clip = (s: string, n: number) => (s.length <= n ? s : s.slice(0, n));
/** One citation built from a source passage, perturbed one way or another. */
function perturb(source: string, paperId: string): string {
  const kind = pick([
    'verbatim',
    'tail-number',
    'truncate',
    'append',
    'shuffle',
    'typography',
    'sentence',
    'prefix-cut',
  ]);
  const words = source.split(/\s+/);
  switch (kind) {
    case 'verbatim':
      return clip(source, 700);
    case 'tail-number': {
      // Change a character after the 80th: the published prefix rule still accepts the quote.
      const at = Math.min(source.length - 1, 85 + Math.floor(random() * 60));
      const c = source[at]!;
      const swapped = /\d/.test(c) ? String((Number(c) + 5) % 10) : c === 'e' ? 'a' : 'e';
      return clip(`${source.slice(0, at)}${swapped}${source.slice(at + 1)}`, 400);
    }
    case 'truncate':
      return words.slice(0, Math.max(4, Math.floor(words.length * (0.2 + random() * 0.7)))).join(' ');
    case 'append':
      return `${clip(source, 250)} ${pick(sentencesOf(paperId))} This shows the approach is effective.`;
    case 'shuffle':
      return clip(
        words
          .map((w) => [random(), w] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, w]) => w)
          .join(' '),
        300,
      );
    case 'typography':
      return `“${clip(source, 300).replace(/'/g, '’').replace(/ - /g, ' — ').replace(/fi/g, 'ﬁ')}”`;
    case 'prefix-cut':
      return words.slice(Math.min(words.length - 3, 2 + Math.floor(random() * 6))).join(' ');
    default:
      return pick(sentencesOf(paperId));
  }
}

const perturbed = rows.map((row) => {
  const alternatives = row.expected_references.flatMap((g) => g.alternatives);
  const sources = [...alternatives, ...(extractive.get(row.row_id) ?? [])];
  const count = pick([0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 6, 7, 16]);
  const quotes: string[] = [];
  for (let i = 0; i < count; i++) {
    quotes.push(
      sources.length > 0 && random() < 0.75
        ? perturb(pick(sources), row.paper_id)
        : pick(sentencesOf(row.paper_id)),
    );
  }
  return { row_id: row.row_id, quotes };
});

const results = (runs: { row_id: string; quotes: string[] }[]) =>
  runs.map((r) => ({
    row_id: r.row_id,
    actual_answer: '(answer text not kept)',
    actual_citations: r.quotes.map((q, i) => ({ key: String(i + 1), reference: q })),
  }));
const set = {
  about:
    'Frozen held-out set of the ResearchQA parity check (scripts/parity/researchqa/make-heldout.ts): QASPER v0.3 dev (CC BY 4.0, AllenAI) as citegeist imports it, and two runs in the published results row layout.',
  rows,
  runs: {
    extractive: results(rows.map((r) => ({ row_id: r.row_id, quotes: extractive.get(r.row_id) ?? [] }))),
    perturbed: results(perturbed),
  },
};
writeFileSync(join(here, 'heldout.json.gz'), gzipSync(JSON.stringify(set), { level: 9 }));
console.log(
  `${rows.length} rows, ${perturbed.reduce((n, r) => n + r.quotes.length, 0)} perturbed quotes → heldout.json.gz`,
);
