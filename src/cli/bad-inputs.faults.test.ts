/**
 * The bad-input campaign (issue 12): 10,000 generated inputs — bit-flipped, truncated and random PDFs
 * and XML; malformed JSONL datasets and runs (bad JSON, wrong types, BOM, CRLF, invalid UTF-8, 10 MB
 * lines, duplicate ids); malformed configs and TREC files; nonsense flags. Each must end in a coded
 * error with a non-zero exit (or, for an input the case knows is valid, in a success): never a stack
 * trace, a hang over 60 s or a silent success. Generated with fast-check from fixed seeds, so every
 * run tries the same inputs; the CLI runs in-process. Each campaign checks its own cases, so `-t` or
 * shuffling checks what runs; the figures go to docs/reliability.md by `npm run faults:report`.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../core/index.js';
import { classify, type Outcome, runCase, Tally } from '../testing/fault-campaign.js';
import { recordFaultFigures } from '../testing/fault-report.js';

const SEED = 20_261_201;
const ROOT = resolve(import.meta.dirname, '..', '..');
const tally = new Tally();
const sample = <T>(arb: fc.Arbitrary<T>, n: number, seed: number): T[] =>
  fc.sample(arb, { seed, numRuns: n });
const work = () => mkdtempSync(join(tmpdir(), 'citegeist-faults-'));

// ---------- byte mutations ----------
type Mutation =
  | { kind: 'flip'; at: number[] }
  | { kind: 'truncate'; keep: number }
  | { kind: 'random'; bytes: Uint8Array };
const mutation = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('flip' as const),
      at: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('truncate' as const),
      keep: fc.double({ min: 0, max: 0.999, noNaN: true }).map((x) => x),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('random' as const), bytes: fc.uint8Array({ maxLength: 4096 }) }),
  },
);
function mutate(base: Buffer, m: Mutation): Buffer {
  if (m.kind === 'random') return Buffer.from(m.bytes);
  if (m.kind === 'truncate') return base.subarray(0, Math.floor(base.length * (m.keep as number)));
  const out = Buffer.from(base);
  for (const a of m.at) out[a % out.length] = out[a % out.length]! ^ (1 << (a % 8));
  return out;
}

/**
 * Ingests a folder of mutated files in one `ingest --json` (as a user would a folder of downloads:
 * one bad file never stops the others) and classifies each file's outcome.
 */
async function ingestBatch(
  category: string,
  files: { name: string; bytes: Buffer; mustRefuse: boolean; damagedOk: boolean }[],
): Promise<void> {
  const dir = work();
  mkdirSync(join(dir, 'in'));
  for (const f of files) writeFileSync(join(dir, 'in', f.name), f.bytes);
  const result = await runCase(['--json', 'ingest', 'in', '--corpus', 'c.sqlite'], dir);
  const text = `${result.out}${result.err}`;
  const batchCrash = /\n\s+at .+:\d+:\d+|please report this as a bug/.test(text);
  const outcomes = new Map<string, { status: string; code?: string; fix?: string; damaged?: string }>();
  try {
    const json = JSON.parse(result.out) as {
      outcomes: { file: string; status: string; code?: string; fix?: string; damaged?: string }[];
    };
    for (const o of json.outcomes) outcomes.set(o.file.split('/').at(-1)!, o);
  } catch {
    // no JSON: every file of the batch counts as a crash below
  }
  for (const f of files) {
    const o = outcomes.get(f.name);
    let outcome: Outcome;
    if (result.ms > 60_000 * files.length) outcome = 'hang';
    else if (batchCrash || !o || o.code === 'INTERNAL') outcome = 'crash';
    else if (o.status === 'failed') outcome = o.code && o.code in ERROR_CODES && o.fix ? 'refused' : 'crash';
    else outcome = f.mustRefuse && !(f.damagedOk && o.damaged) ? 'silent' : 'accepted';
    const err =
      o?.status === 'failed' ? `  FAILED     ${f.name}: [${o.code}] ${JSON.stringify(o)}` : JSON.stringify(o);
    tally.add(category, outcome, { ...result, ms: result.ms / files.length, out: '', err }, f.name);
  }
}

async function ingestCampaign(
  category: string,
  base: Buffer,
  ext: string,
  n: number,
  seed: number,
  closes: string,
) {
  const cases = sample(mutation, n, seed);
  for (let b = 0; b < cases.length; b += 100) {
    const batch = cases.slice(b, b + 100).map((m, i) => {
      const bytes = mutate(base, m);
      // Random bytes are never a paper; a cut before the closing marker must be refused or flagged.
      const cut = m.kind === 'truncate' && !bytes.includes(Buffer.from(closes));
      return {
        name: `f${b + i}.${ext}`,
        bytes,
        mustRefuse: m.kind === 'random' || cut,
        damagedOk: ext === 'pdf',
      };
    });
    await ingestBatch(category, batch);
  }
}

// ---------- JSONL datasets and runs ----------
const PAPER =
  '# Paper\n\n## Methods\n\nWe collected 1,204 survey responses from teachers in three districts.\n';
const QUOTE = 'We collected 1,204 survey responses from teachers in three districts.';
const goodRow = (i: number) => ({
  row_id: `r${i}`,
  paper_id: 'p1',
  question_type: 'lookup',
  question: `How many responses (${i})?`,
  expected_references: [{ section_label: 'Methods', alternatives: [QUOTE] }],
});
const goodRun = (i: number) => ({
  row_id: `r${i}`,
  model: 'm',
  answer: `1,204 [^1]`,
  citations: [{ key: '1', quote: QUOTE }],
});

type JsonlCase = { label: string; bytes: Buffer; valid: boolean };
const parses = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};
const wrongValue = fc.oneof(
  fc.integer(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const lines = (rows: unknown[], eol = '\n') => rows.map((r) => JSON.stringify(r)).join(eol);
const jsonValue = fc.oneof(
  fc.integer(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
function jsonlCases(make: (i: number) => Record<string, unknown>, fields: string[]): fc.Arbitrary<JsonlCase> {
  const base = fc.integer({ min: 1, max: 6 }).map((n) => Array.from({ length: n }, (_, i) => make(i)));
  return fc.oneof(
    fc.tuple(base, fc.nat(), fc.string({ minLength: 1, maxLength: 40 })).map(([rows, at, junk]) => {
      const text = lines(rows).split('\n');
      text.splice(at % (text.length + 1), 0, `{${junk}`);
      return { label: 'bad JSON line', bytes: Buffer.from(text.join('\n')), valid: false };
    }),
    fc.tuple(base, fc.nat(), fc.constantFrom(...fields), wrongValue).map(([rows, at, field, value]) => {
      const copy = rows.map((r) => ({ ...r }));
      const row = copy[at % copy.length]!;
      // a value of another type than the field's (strings get non-strings, lists get non-lists)
      row[field] = Array.isArray(row[field])
        ? Array.isArray(value)
          ? 'x'
          : value
        : typeof value === 'string'
          ? 7
          : value;
      return { label: `wrong type for ${field}`, bytes: Buffer.from(lines(copy)), valid: false };
    }),
    base.map((rows) => ({ label: 'BOM', bytes: Buffer.from(`\uFEFF${lines(rows)}`), valid: true })),
    base.map((rows) => ({ label: 'CRLF', bytes: Buffer.from(lines(rows, '\r\n')), valid: true })),
    fc.tuple(base, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 3 })).map(([rows, at, junk]) => {
      const text = Buffer.from(lines(rows));
      const bad = Buffer.from(junk.map((b) => 0x80 | (b & 0x3f))); // continuation bytes with no lead: never UTF-8
      const i = at % text.length;
      return {
        label: 'invalid UTF-8',
        bytes: Buffer.concat([text.subarray(0, i), Buffer.from([0xff]), bad, text.subarray(i)]),
        valid: false,
      };
    }),
    fc.tuple(base, fc.nat()).map(([rows, at]) => {
      const copy = [...rows, { ...rows[at % rows.length]! }];
      return { label: 'duplicate id', bytes: Buffer.from(lines(copy)), valid: false };
    }),
    fc.tuple(base, fc.double({ min: 0.05, max: 0.95, noNaN: true })).map(([rows, keep]) => {
      const text = lines(rows);
      const cut = text.slice(0, Math.floor(text.length * keep));
      // a cut exactly at a line end leaves fewer, complete rows: a valid (shorter) file
      const complete = cut.trim() !== '' && cut.split('\n').every((l) => l.trim() === '' || parses(l));
      return { label: 'truncated', bytes: Buffer.from(cut), valid: complete };
    }),
    fc
      .constantFrom('', '\n\n', '[]', '{}', 'null')
      .map((t) => ({ label: 'empty', bytes: Buffer.from(t), valid: false })),
  );
}

function hugeLineCases(make: (i: number) => Record<string, unknown>, field: string): JsonlCase[] {
  const big = 'x'.repeat(10 * 1024 * 1024);
  return [
    { label: '10 MB valid line', bytes: Buffer.from(lines([{ ...make(0), [field]: big }])), valid: true },
    { label: '10 MB garbage line', bytes: Buffer.from(`${lines([make(0)])}\n{"${big}`), valid: false },
  ];
}

async function jsonlCampaign(
  category: string,
  cases: JsonlCase[],
  argv: (file: string) => string[],
  setup: (dir: string) => void,
) {
  const dir = work();
  setup(dir);
  for (const [i, c] of cases.entries()) {
    const file = `in${i}.jsonl`;
    writeFileSync(join(dir, file), c.bytes);
    const result = await runCase(argv(file), dir);
    tally.add(category, classify(result, c.valid), result, c.label);
  }
}

// ---------- nonsense flags ----------
const COMMANDS: string[][] = [
  ['answer', '--dataset', 'd.jsonl', '--model', 'extractive', '--out', 'o.jsonl'],
  ['grade', '--dataset', 'd.jsonl', '--run', 'r.jsonl', '--out', 'g.jsonl'],
  ['search', 'query'],
  ['retrieve', '--queries', 'q.jsonl'],
  ['trec-eval', 'q', 'r'],
  ['compare', '--qrels', 'q', 'a', 'b'],
  ['dataset', 'check', 'd.jsonl'],
  ['index'],
  ['list'],
  ['generate', 'questions', '--out', 'x.jsonl'],
  ['collect', 'openalex', '--domain', 'x', '--out', 'o'],
  ['leaderboard', 'g.jsonl'],
  ['errors'],
];
const NUMERIC = [
  '-k',
  '--limit',
  '--concurrency',
  '--budget',
  '--seed',
  '--threads',
  '-M',
  '--iterations',
  '--per-domain',
  '--max-pages',
  '--max-tokens',
];
const badNumber = fc.oneof(
  fc.constantFrom('abc', '', '-1', '1.5', '0x10', '1e999', 'NaN', '99999999999999999999999', ' ', '--', '8k'),
  fc.string({ maxLength: 6 }).filter((s) => !/^\s*[+-]?\d+(\.\d+)?\s*$/.test(s)),
);
const flagCase = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...COMMANDS),
      fc.string({ minLength: 1, maxLength: 12 }).filter((s) => /^[a-z-]+$/.test(s)),
    )
    .map(([cmd, name]) => ({ label: `unknown option --zz${name}`, argv: [...cmd, `--zz${name}`] })),
  fc
    .tuple(fc.constantFrom(...COMMANDS), fc.constantFrom(...NUMERIC), badNumber)
    .map(([cmd, flag, v]) => ({ label: `${flag} ${JSON.stringify(v)}`, argv: [...cmd, flag, v] })),
  fc
    .tuple(
      fc
        .string({ minLength: 1, maxLength: 10 })
        .filter(
          (s) =>
            /^[a-z]+$/.test(s) &&
            !COMMANDS.some((c) => c[0] === s) &&
            ![
              'demo',
              'ingest',
              'show',
              'quote',
              'recipes',
              'llm',
              'help',
              'meta-eval',
              'qasper-eval',
            ].includes(s),
        ),
    )
    .map(([name]) => ({ label: `command ${name}`, argv: [name] })),
  fc.constantFrom(...COMMANDS).map((cmd) => ({
    label: `${cmd[0]} without its required options`,
    argv: cmd
      .slice(0, cmd[0] === 'dataset' || cmd[0] === 'generate' || cmd[0] === 'collect' ? 2 : 1)
      .concat(
        cmd[0] === 'list' || cmd[0] === 'index' || cmd[0] === 'errors' ? ['extra', 'args', 'here'] : [],
      ),
  })),
);

describe('bad inputs: each ends in a coded error (or, if valid, a success), never a crash, hang or silent success', () => {
  const tiny = readFileSync(join(ROOT, 'src', 'ingest', '__fixtures__', 'tiny.pdf'));
  const acl = readFileSync(join(ROOT, 'assets', 'demo', 'papers', 'N18-3011.pdf'));
  const jats = readFileSync(join(ROOT, 'assets', 'demo', 'papers', 'PMC6398430.nxml'));
  const tei = Buffer.from(
    `<?xml version="1.0"?><TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>T</title></titleStmt></fileDesc></teiHeader><text><body><div><head>1 Introduction</head><p>${QUOTE} More text follows here.</p></div><div><head>2 Methods</head><p>Second section text.</p></div></body></text></TEI>`,
  );

  it('PDFs: 1,500 bit-flipped, truncated and random (a small PDF and an 8-page ACL paper)', async () => {
    await ingestCampaign('PDF', tiny, 'pdf', 1_300, SEED, '%%EOF');
    await ingestCampaign('PDF', acl, 'pdf', 200, SEED + 1, '%%EOF');
    expectClean(['PDF'], 1_500);
  });

  it('XML: 1,500 bit-flipped, truncated and random JATS and TEI files', async () => {
    await ingestCampaign('XML', jats, 'nxml', 700, SEED + 2, '</article>');
    await ingestCampaign('XML', tei, 'tei.xml', 800, SEED + 3, '</TEI>');
    expectClean(['XML'], 1_500);
  });

  const papers = (dir: string) => {
    mkdirSync(join(dir, 'papers'));
    writeFileSync(join(dir, 'papers', 'p1.md'), PAPER);
    writeFileSync(join(dir, 'd.jsonl'), lines([0, 1, 2, 3, 4, 5].map(goodRow)));
  };

  it('datasets: 2,000 malformed JSONL files given to answer (it must refuse before answering)', async () => {
    const cases = [
      ...sample(
        jsonlCases(goodRow, ['row_id', 'paper_id', 'question_type', 'question', 'expected_references']),
        1_998,
        SEED + 4,
      ),
      ...hugeLineCases(goodRow, 'question'),
    ];
    await jsonlCampaign(
      'JSONL datasets',
      cases,
      (f) => ['answer', '--dataset', f, '--papers', 'papers', '--model', 'extractive', '--out', `${f}.run`],
      papers,
    );
    expectClean(['JSONL datasets'], 2_000);
  });

  it('runs: 1,500 malformed JSONL run files given to grade', async () => {
    const cases = [
      ...sample(jsonlCases(goodRun, ['row_id', 'model', 'answer', 'citations']), 1_498, SEED + 5),
      ...hugeLineCases(goodRun, 'answer'),
    ];
    await jsonlCampaign(
      'JSONL runs',
      cases,
      (f) => ['grade', '--dataset', 'd.jsonl', '--papers', 'papers', '--run', f, '--out', `${f}.grades`],
      papers,
    );
    expectClean(['JSONL runs'], 1_500);
  });

  it('configs and TREC files: 1,000 malformed', async () => {
    const dir = work();
    const configs = sample(
      fc.oneof(
        fc.string({ maxLength: 60 }).map((s) => ({ ext: 'yaml', text: `model: [${s}` })),
        fc
          .tuple(fc.constantFrom('concurrency', 'budget', 'model', 'corpus', 'nope'), jsonValue)
          .map(([k, v]) => ({ ext: 'json', text: JSON.stringify({ [k]: v }) })),
        fc
          .uint8Array({ minLength: 1, maxLength: 200 })
          .map((b) => ({ ext: 'json', text: Buffer.from(b).toString('latin1') })),
      ),
      500,
      SEED + 6,
    );
    for (const [i, c] of configs.entries()) {
      writeFileSync(join(dir, `c${i}.${c.ext}`), c.text);
      const result = await runCase(
        [
          '--config',
          `c${i}.${c.ext}`,
          'answer',
          '--dataset',
          'none.jsonl',
          '--model',
          'extractive',
          '--out',
          'o.jsonl',
        ],
        dir,
      );
      tally.add('configs', classify(result, false), result, c.text.slice(0, 60));
    }
    writeFileSync(join(dir, 'qrels'), '1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n');
    const runs = sample(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().split(/\s+/).length !== 6),
        fc
          .tuple(
            fc.constantFrom('1', '2'),
            fc.string({ maxLength: 8 }),
            fc.integer(),
            fc.string({ minLength: 1, maxLength: 8 }),
          )
          .map(([q, d, r, s]) => `${q} Q0 ${d || 'x'} ${r} ${s} run`),
        fc.constant('1 Q0 d1 1 1.0 run\n1 Q0 d1 2 0.5 run'),
      ),
      500,
      SEED + 7,
    );
    for (const [i, line] of runs.entries()) {
      writeFileSync(join(dir, `run${i}`), `${line}\n`);
      const result = await runCase(['trec-eval', 'qrels', `run${i}`], dir);
      // A line that happens to be well-formed (six columns, a numeric score) is a valid run.
      // (trec_eval reads the first six columns and ignores the rank's text: so does citegeist)
      const cols = line.trim().split(/\s+/);
      const wellFormed = !line.includes('\n') && cols.length >= 6 && Number.isFinite(Number(cols[4]));
      tally.add('TREC runs', classify(result, wellFormed), result, line);
    }
    expectClean(['configs', 'TREC runs'], 1_000);
  });

  it('flags: 2,500 nonsense command lines', async () => {
    const dir = work();
    for (const c of sample(flagCase, 2_500, SEED + 8)) {
      const result = await runCase(c.argv, dir);
      tally.add('flags', classify(result, false), result, `${c.label}: ${JSON.stringify(c.argv)}`);
    }
    expectClean(['flags'], 2_500);
  });

  afterAll(() => {
    const t = tally.total;
    const body = `${t.cases.toLocaleString('en')} generated inputs (fast-check, seed ${SEED}; \`npm run test:faults\`, \`src/cli/bad-inputs.faults.test.ts\`), run through the CLI in-process as a user would: \`ingest\` on folders of mutated files, \`answer\` and \`grade\` on malformed JSONL, \`--config\` and \`trec-eval\` on malformed files, nonsense command lines. An input the case knows is valid (a BOM, CRLF line ends, a bit flip that leaves the file readable, a well-formed TREC line) may succeed; a damaged PDF may be stored only flagged as damaged; anything else must be refused with a code from the table (docs/errors.md).

${tally.markdown()}`;
    process.stdout.write(`\n## Bad inputs\n\n${body}\n`);
    recordFaultFigures('Bad inputs', body);
  });
});

/** A campaign's verdict: it ran all its cases and none ended in a crash, hang or silent success. */
function expectClean(categories: string[], cases: number): void {
  expect(tally.badIn(...categories)).toEqual([]);
  expect(tally.casesIn(...categories)).toBe(cases);
}
