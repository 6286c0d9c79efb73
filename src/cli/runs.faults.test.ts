import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRandom } from '../stats/index.js';
import { FaultReport, markdownTable } from '../testing/fault-report.js';
import {
  campaignReply,
  corpusState,
  datasetIds,
  faultWorkspace,
  paperId,
  paperText,
} from '../testing/fault-workspace.js';
import { FakeOpenAiServer } from '../testing/index.js';
import { nuggetBanks, nuggetCampaignReply, nuggetWorkspace } from '../testing/nugget-fault-workspace.js';
import {
  builtCli,
  type CliProcess,
  type KillMoment,
  killAt,
  lineCount,
  readJsonlState,
  rowAccounting,
  startCli,
} from '../testing/process-faults.js';

/**
 * The run-integrity part of the fault campaign (issue 12): kill -9 at random moments of `answer`,
 * `grade`, `ingest`, `generate questions`, `recipes extract` and `nuggets generate`, resuming each time; two processes writing one file
 * or one corpus at once; a sentinel API key that must never be written anywhere. The suite prints
 * its figures, and writes them into docs/reliability.md with `npm run faults:report`.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const SEED = Number(process.env.CITEGEIST_FAULT_SEED ?? 20261201);
const KILLS = 20;
const ROWS = 1000;
const PAPERS = 20;
const SENTINEL = 'sk-citegeist-SENTINEL-4c0ffee-never-write-me';
const report = new FaultReport();
const killRows: (string | number)[][] = [];

let server: FakeOpenAiServer;
let model: string;
beforeAll(async () => {
  // The campaign runs the built CLI as a user would: rebuild when src/ changed since the last build.
  builtCli(ROOT);
  server = await new FakeOpenAiServer({
    replies: (request) => nuggetCampaignReply(request) ?? campaignReply(request),
    latencyMs: 2,
  }).start();
  model = `openai-compatible:${server.url}/v1#fake-model`;
}, 180_000);

afterAll(async () => {
  await server?.close();
  report.add(
    'Kill and resume',
    `Each command is killed with SIGKILL ${KILLS} times at random moments (seed ${SEED}; every fourth kill in the first 600 ms — lock, manifest check, resume — the others after a random share of the remaining work), resumed each time, then run to the end. "Torn" counts kills that left a half-written last line, which the next resume removed; for the run, grades and nugget state files the campaign also cuts the last line short itself after every fifth kill (+ injected: the damage a power cut can leave), and the resume must repair it too. Seconds are wall time on 2 cores at a load average of ${loadavg()[0]?.toFixed(1)}: they vary, the counts must not.\n\n${markdownTable(
      [
        'command',
        'kills (landed)',
        'torn after kill (+ injected)',
        'rows at the end',
        'lost',
        'duplicated',
        'corrupt lines',
        'seconds',
      ],
      killRows,
    )}`,
  );
  report.publish((t) => process.stdout.write(t));
});

interface KillFigures {
  landed: number;
  tornAfterKill: number;
  /** Last lines cut short by the campaign itself (a power cut's damage), repaired by the resume. */
  tornInjected: number;
  /** Non-JSON lines seen after any kill, the torn last line excluded: must be 0. */
  corruptSeen: number;
  seconds: number;
}

/**
 * Runs `argv` KILLS times, each killed at a random moment (every fourth in the start-up window,
 * the others at a random amount of progress), then once to the end. `inspect` reads the state
 * left after every kill.
 */
async function killAndResume(o: {
  argv: string[];
  cwd: string;
  progress: () => number;
  total: number;
  inspect: () => { torn: boolean; corrupt: number };
  random: () => number;
  /** After every fifth kill, cut the last line of this file short (what a power cut can leave). */
  tearFile?: string;
}): Promise<{ figures: KillFigures; last: CliProcess }> {
  const started = Date.now();
  const f = { landed: 0, tornAfterKill: 0, corruptSeen: 0, tornInjected: 0 };
  for (let i = 0; i < KILLS; i++) {
    const p = startCli(MAIN, o.argv, o.cwd, {});
    const done = o.progress();
    const target = done + 1 + Math.floor(o.random() * Math.max(1, (o.total - done) * 0.3));
    const moment: KillMoment =
      i % 4 === 0
        ? { afterMs: Math.floor(o.random() * 600) }
        : { when: () => o.progress() >= target, timeoutMs: 20_000 };
    if ((await killAt(p, moment)) === 'killed') f.landed++;
    const state = o.inspect();
    if (state.torn) f.tornAfterKill++;
    f.corruptSeen += state.corrupt;
    if (o.tearFile && i % 5 === 2 && !state.torn && tearLastLine(o.tearFile)) f.tornInjected++;
  }
  const last = startCli(MAIN, o.argv, o.cwd, {});
  await last.exited;
  return { figures: { ...f, seconds: (Date.now() - started) / 1000 }, last };
}

/** Cuts the file's last line in half (no newline after it); false when there is no row line to cut. */
function tearLastLine(path: string): boolean {
  const text = readFileSync(path, 'utf8');
  const start = text.lastIndexOf('\n', text.length - 2) + 1;
  if (start <= 0 || text.length - start < 4) return false;
  writeFileSync(path, text.slice(0, start + Math.floor((text.length - start) / 2)));
  return true;
}

function recordKills(
  command: string,
  f: KillFigures,
  rows: number,
  lost: number,
  duplicated: number,
  corrupt: number,
) {
  killRows.push([
    command,
    `${KILLS} (${f.landed})`,
    `${f.tornAfterKill} (+${f.tornInjected})`,
    rows,
    lost,
    duplicated,
    corrupt,
    f.seconds.toFixed(0),
  ]);
}

describe('kill -9 and resume', () => {
  const random = createRandom(SEED);
  const ids = datasetIds(ROWS, PAPERS);
  let dir: string;

  /** The kill campaign on a command that writes one manifest-headed JSONL file; returns its rows. */
  async function campaignOnRunFile(command: string, argv: string[], file: string, kind: string) {
    const path = join(dir, file);
    const { figures, last } = await killAndResume({
      argv,
      cwd: dir,
      progress: () => lineCount(path),
      total: ROWS + 1,
      inspect: () => readJsonlState(path),
      random,
      tearFile: path,
    });
    expect(last.stderr()).not.toMatch(/error/i);
    const state = readJsonlState(path);
    const [manifest, ...rows] = state.values;
    const a = rowAccounting(rows, 'row_id', ids);
    recordKills(command, figures, rows.length, a.lost, a.duplicated, state.corrupt + Number(state.torn));
    expect(manifest).toMatchObject({ citegeist_manifest: 1, kind });
    const clean = { duplicated: 0, lost: 0, extra: 0, corrupt: 0, torn: false, corruptSeen: 0 };
    expect({ ...a, corrupt: state.corrupt, torn: state.torn, corruptSeen: figures.corruptSeen }).toEqual(
      clean,
    );
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    return rows;
  }

  it(`answer: ${KILLS} kills of a ${ROWS}-row run, resumed each time: no row lost, duplicated or corrupt`, async () => {
    dir = faultWorkspace(ROWS, PAPERS);
    const argv = `answer --dataset dataset.jsonl --papers papers --model ${model} --out run.jsonl --concurrency 8`;
    const rows = await campaignOnRunFile('answer', argv.split(' '), 'run.jsonl', 'run');
    expect(rows.every((r) => r.error === null)).toBe(true);
  });

  it(`grade --judge: ${KILLS} kills, resumed each time: every run row graded exactly once`, async () => {
    // Its own workspace and a complete run answered here (no kills), so this test does not depend
    // on the files the answer test leaves (-t or a shuffled order runs it alone).
    dir = faultWorkspace(ROWS, PAPERS);
    const answer = startCli(
      MAIN,
      `answer --dataset dataset.jsonl --papers papers --model ${model} --out run.jsonl --concurrency 8`.split(
        ' ',
      ),
      dir,
      {},
    );
    expect(await answer.exited).toMatchObject({ code: 0 });
    const argv = `grade --dataset dataset.jsonl --papers papers --run run.jsonl --judge ${model} --out grades.jsonl --concurrency 8`;
    const rows = await campaignOnRunFile('grade --judge', argv.split(' '), 'grades.jsonl', 'grades');
    expect(rows.every((r) => r.factual_accuracy === 4)).toBe(true);
  });

  it(`ingest: ${KILLS} kills while ingesting into one corpus, resumed each time: the corpus stays consistent`, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-faults-ingest-'));
    const files = 120;
    mkdirSync(join(cwd, 'in'));
    for (let i = 0; i < files; i++)
      writeFileSync(join(cwd, 'in', `doc${String(i).padStart(3, '0')}.md`), paperText(i).repeat(4));
    const corpus = join(cwd, 'corpus.sqlite');
    const { figures, last } = await killAndResume({
      argv: ['ingest', 'in', '--corpus', 'corpus.sqlite'],
      cwd,
      progress: () => corpusState(corpus).files,
      total: files,
      inspect: () => ({ torn: false, corrupt: corpusState(corpus).problems }),
      random,
    });
    expect(await last.exited).toMatchObject({ code: 0 });
    const final = corpusState(corpus);
    const again = startCli(MAIN, ['ingest', 'in', '--corpus', 'corpus.sqlite'], cwd, {});
    await again.exited;
    recordKills(
      'ingest (one corpus)',
      figures,
      final.documents,
      files - final.documents,
      final.duplicates,
      final.problems,
    );
    expect(again.stdout()).toMatch(new RegExp(`ingested 0, unchanged ${files}, failed 0`));
    expect({ corruptSeen: figures.corruptSeen, ...final }).toEqual({
      corruptSeen: 0,
      files,
      documents: files,
      duplicates: 0,
      problems: 0,
    });
  });

  it(`generate questions: ${KILLS} kills, resumed each time: each paper's questions exactly once`, async () => {
    const cwd = faultWorkspace(10, PAPERS);
    const out = join(cwd, 'questions.jsonl');
    const progressFile = `${out}.papers.jsonl`;
    const { figures, last } = await killAndResume({
      argv: `generate questions --papers papers --model ${model} --out questions.jsonl --concurrency 2`.split(
        ' ',
      ),
      cwd,
      progress: () => lineCount(progressFile),
      total: PAPERS + 1,
      inspect: () => {
        const [a, b] = [readJsonlState(out), readJsonlState(progressFile)];
        return { torn: a.torn || b.torn, corrupt: a.corrupt + b.corrupt };
      },
      random,
    });
    expect(last.stderr()).not.toMatch(/error/i);
    const [rows, progress] = [readJsonlState(out), readJsonlState(progressFile)];
    const expected = Array.from({ length: PAPERS }, (_, i) => [
      `${paperId(i)}_chunk0_lookup`,
      `${paperId(i)}_chunk0_comprehension`,
    ]).flat();
    const a = rowAccounting(rows.values, 'row_id', expected);
    const corrupt = rows.corrupt + progress.corrupt + Number(rows.torn || progress.torn);
    recordKills('generate questions', figures, rows.values.length, a.lost, a.duplicated, corrupt);
    expect({ ...a, corrupt }).toEqual({ duplicated: 0, lost: 0, extra: 0, corrupt: 0 });
    const papers = Array.from({ length: PAPERS }, (_, i) => paperId(i));
    expect(rowAccounting(progress.values.slice(1), 'paper_id', papers)).toEqual({
      duplicated: 0,
      lost: 0,
      extra: 0,
    });
    expect(figures.corruptSeen).toBe(0);
  });

  it(`recipes extract: ${KILLS} kills, resumed each time: each paper's recipe exactly once`, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'citegeist-faults-recipes-'));
    const papers = 200;
    mkdirSync(join(cwd, 'in'));
    for (let i = 0; i < papers; i++) writeFileSync(join(cwd, 'in', `${paperId(i)}.md`), paperText(i));
    const ingest = startCli(MAIN, ['ingest', 'in', '--corpus', 'corpus.sqlite'], cwd, {});
    expect(await ingest.exited).toMatchObject({ code: 0 });
    const path = join(cwd, 'recipes.jsonl');
    const argv = `recipes extract --corpus corpus.sqlite --model ${model} --out recipes.jsonl --concurrency 4 --no-cache`;
    const { figures, last } = await killAndResume({
      argv: argv.split(' '),
      cwd,
      progress: () => lineCount(path),
      total: papers + 1,
      inspect: () => readJsonlState(path),
      random,
      tearFile: path,
    });
    expect(await last.exited).toMatchObject({ code: 0 });
    const state = readJsonlState(path);
    const [manifest, ...rows] = state.values;
    const ids = Array.from({ length: papers }, (_, i) => paperId(i));
    const a = rowAccounting(rows, 'doc_id', ids);
    recordKills(
      'recipes extract',
      figures,
      rows.length,
      a.lost,
      a.duplicated,
      state.corrupt + Number(state.torn),
    );
    expect(manifest).toMatchObject({ citegeist_manifest: 1, kind: 'recipes' });
    expect(rows.every((r) => r.error === null && r.recipe !== null)).toBe(true);
    expect({ ...a, corrupt: state.corrupt, torn: state.torn, corruptSeen: figures.corruptSeen }).toEqual({
      duplicated: 0,
      lost: 0,
      extra: 0,
      corrupt: 0,
      torn: false,
      corruptSeen: 0,
    });
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it(`nuggets generate: ${KILLS} kills of a folder run, resumed each time: a clean run's banks, each unit logged once`, async () => {
    const cwd = nuggetWorkspace(4, 12);
    const argv = (out: string, ...extra: string[]) => [
      ...`nuggets generate --requests requests.jsonl --docs docs.jsonl --model ${model} --out ${out} --concurrency 8`.split(
        ' ',
      ),
      ...extra,
    ];
    const clean = startCli(MAIN, argv('clean', '--no-cache'), cwd, {});
    expect(await clean.exited).toMatchObject({ code: 0 });
    const cleanUnits = readJsonlState(join(cwd, 'clean', '.state', 'generate.jsonl')).values.slice(1);
    const path = join(cwd, 'out', '.state', 'generate.jsonl');
    const { figures, last } = await killAndResume({
      argv: argv('out'),
      cwd,
      progress: () => lineCount(path),
      total: cleanUnits.length + 1,
      inspect: () => readJsonlState(path),
      random,
      tearFile: path,
    });
    expect(await last.exited).toMatchObject({ code: 0 });
    const state = readJsonlState(path);
    const [manifest, ...units] = state.values;
    const a = rowAccounting(
      units,
      'unit',
      cleanUnits.map((u) => String(u.unit)),
    );
    recordKills(
      'nuggets generate',
      figures,
      units.length,
      a.lost,
      a.duplicated,
      state.corrupt + Number(state.torn),
    );
    expect(manifest).toMatchObject({ citegeist_manifest: 1, kind: 'nuggets' });
    expect({ ...a, corrupt: state.corrupt, torn: state.torn, corruptSeen: figures.corruptSeen }).toEqual({
      duplicated: 0,
      lost: 0,
      extra: 0,
      corrupt: 0,
      torn: false,
      corruptSeen: 0,
    });
    expect(Object.keys(nuggetBanks(join(cwd, 'out')))).toHaveLength(4);
    expect(nuggetBanks(join(cwd, 'out'))).toEqual(nuggetBanks(join(cwd, 'clean')));
    for (const f of ['paraphrase_judgments.json', 'answer_judgments.json'])
      expect(readFileSync(join(cwd, 'out', 'judgments', f), 'utf8')).toBe(
        readFileSync(join(cwd, 'clean', 'judgments', f), 'utf8'),
      );
    expect(existsSync(`${path}.lock`)).toBe(false);
    for (const d of ['out', join('out', '.state'), join('out', 'judgments')])
      expect(readdirSync(join(cwd, d)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('two processes writing one file or one corpus at once', () => {
  const trials: (string | number)[][] = [];
  afterAll(() => {
    report.add(
      'Concurrent writers',
      `Two processes are started on the same output (the second 0, 150 or 400 ms after the first) and both run to their end. A run, grades or questions file, and a nugget folder, admits one writer: the second refuses with \`LOCK_HELD\` (exit 1) naming the first, and the first's output is complete. The corpus (SQLite, one transaction per file) admits both: each succeeds and the corpus holds every file once.\n\n${markdownTable(
        [
          'output',
          'trials',
          'both succeeded',
          'second refused (LOCK_HELD)',
          'other failures',
          'rows lost',
          'rows duplicated',
          'corrupt lines',
        ],
        trials,
      )}`,
    );
  });

  /** Starts the same command twice, `offsetMs` apart, and waits for both. */
  async function race(argv: string[], cwd: string, offsetMs: number) {
    const a = startCli(MAIN, argv, cwd, {});
    await new Promise((r) => setTimeout(r, offsetMs));
    const b = startCli(MAIN, argv, cwd, {});
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    return [
      { code: ea.code, err: a.stderr(), out: a.stdout() },
      { code: eb.code, err: b.stderr(), out: b.stdout() },
    ];
  }

  it.each([
    ['run file (answer)', 'answer', ROWS],
    ['grades file (grade --judge)', 'grade', ROWS],
    ['questions file (generate questions)', 'generate', PAPERS * 2],
  ])('%s: the second writer is refused, the first completes', async (label, command, expected) => {
    let both = 0;
    let refused = 0;
    let other = 0;
    let lost = 0;
    let duplicated = 0;
    let corrupt = 0;
    for (const offset of [0, 150, 400]) {
      const cwd = faultWorkspace(ROWS, PAPERS);
      if (command === 'grade') {
        const answer = startCli(
          MAIN,
          `answer --dataset dataset.jsonl --papers papers --model extractive --out run.jsonl`.split(' '),
          cwd,
          {},
        );
        expect(await answer.exited).toMatchObject({ code: 0 });
      }
      const argv =
        command === 'answer'
          ? [
              'answer',
              '--dataset',
              'dataset.jsonl',
              '--papers',
              'papers',
              '--model',
              model,
              '--out',
              'out.jsonl',
              '--concurrency',
              '8',
            ]
          : command === 'grade'
            ? [
                'grade',
                '--dataset',
                'dataset.jsonl',
                '--papers',
                'papers',
                '--run',
                'run.jsonl',
                '--judge',
                model,
                '--out',
                'out.jsonl',
                '--concurrency',
                '8',
              ]
            : ['generate', 'questions', '--papers', 'papers', '--model', model, '--out', 'out.jsonl'];
      const results = await race(argv, cwd, offset);
      const ok = results.filter((r) => r.code === 0).length;
      const locked = results.filter((r) => r.code !== 0 && /LOCK_HELD/.test(r.err)).length;
      if (ok === 2) both++;
      else if (ok === 1 && locked === 1) refused++;
      else other++;
      const state = readJsonlState(join(cwd, 'out.jsonl'));
      const rows = command === 'generate' ? state.values : state.values.slice(1);
      const ids =
        command === 'generate'
          ? Array.from({ length: PAPERS }, (_, i) => [
              `${paperId(i)}_chunk0_lookup`,
              `${paperId(i)}_chunk0_comprehension`,
            ]).flat()
          : datasetIds(ROWS, PAPERS);
      const a = rowAccounting(rows, 'row_id', ids);
      lost += a.lost;
      duplicated += a.duplicated;
      corrupt += state.corrupt + Number(state.torn);
      expect(rows).toHaveLength(expected);
    }
    trials.push([label, 3, both, refused, other, lost, duplicated, corrupt]);
    expect({ other, lost, duplicated, corrupt }).toEqual({ other: 0, lost: 0, duplicated: 0, corrupt: 0 });
  });

  it('nugget folder (nuggets generate): the second writer is refused, the first completes', async () => {
    const f = { both: 0, refused: 0, other: 0, lost: 0, duplicated: 0, corrupt: 0 };
    for (const offset of [0, 150, 400]) {
      const cwd = nuggetWorkspace(4, 12);
      const argv = `nuggets generate --requests requests.jsonl --docs docs.jsonl --model ${model} --out out`;
      const results = await race(argv.split(' '), cwd, offset);
      const ok = results.filter((r) => r.code === 0).length;
      const locked = results.filter((r) => r.code !== 0 && /LOCK_HELD/.test(r.err)).length;
      if (ok === 2) f.both++;
      else if (ok === 1 && locked === 1) f.refused++;
      else f.other++;
      const state = readJsonlState(join(cwd, 'out', '.state', 'generate.jsonl'));
      const units = state.values.slice(1).map((u) => String(u.unit));
      f.lost += 4 - Object.keys(nuggetBanks(join(cwd, 'out'))).length;
      f.duplicated += units.length - new Set(units).size;
      f.corrupt += state.corrupt + Number(state.torn);
    }
    trials.push([
      'nugget folder (nuggets generate)',
      3,
      f.both,
      f.refused,
      f.other,
      f.lost,
      f.duplicated,
      f.corrupt,
    ]);
    expect({ other: f.other, lost: f.lost, duplicated: f.duplicated, corrupt: f.corrupt }).toEqual({
      other: 0,
      lost: 0,
      duplicated: 0,
      corrupt: 0,
    });
  });

  it('corpus (ingest): both writers succeed and every file is stored once', async () => {
    let both = 0;
    let other = 0;
    let lost = 0;
    let duplicated = 0;
    let problems = 0;
    const files = 60;
    for (const offset of [0, 150, 400]) {
      const cwd = mkdtempSync(join(tmpdir(), 'citegeist-faults-ingest2-'));
      mkdirSync(join(cwd, 'in'));
      for (let i = 0; i < files; i++)
        writeFileSync(join(cwd, 'in', `doc${String(i).padStart(3, '0')}.md`), paperText(i).repeat(4));
      const results = await race(['ingest', 'in', '--corpus', 'corpus.sqlite'], cwd, offset);
      if (results.every((r) => r.code === 0)) both++;
      else {
        other++;
        // Say why, so a failure of this race can be diagnosed from the CI log alone.
        for (const r of results.filter((x) => x.code !== 0))
          console.error(`ingest race (offset ${offset} ms) exited ${r.code}:\n${r.err.slice(-2000)}`);
      }
      const state = corpusState(join(cwd, 'corpus.sqlite'));
      lost += files - state.documents;
      duplicated += state.duplicates;
      problems += state.problems;
    }
    trials.push(['corpus (ingest)', 3, both, 0, other, lost, duplicated, problems]);
    expect({ both, other, lost, duplicated, problems }).toEqual({
      both: 3,
      other: 0,
      lost: 0,
      duplicated: 0,
      problems: 0,
    });
  });
});

describe('a sentinel API key is never written', () => {
  it('appears in no file, cache, lock, log or output of answer, grade, generate and grade faithfulness', async () => {
    let sent = 0;
    let echoed = 0;
    let n = 0;
    // Every fifth call is refused with the key echoed back, as some servers do ("Incorrect API key provided: …").
    const keyed = await new FakeOpenAiServer({
      replies: (request) => {
        if (String(request.headers.authorization ?? '').includes(SENTINEL)) sent++;
        if (++n % 5 === 0) {
          echoed++;
          return {
            status: 401,
            message: `Incorrect API key provided: ${SENTINEL}. You can find your API key at …`,
          };
        }
        return campaignReply(request);
      },
    }).start();
    const keyedModel = `openai-compatible:${keyed.url}/v1#fake-model`;
    const cwd = faultWorkspace(40, 5);
    const env = {
      OPENAI_COMPATIBLE_API_KEY: SENTINEL,
      OPENAI_API_KEY: SENTINEL,
      ANTHROPIC_API_KEY: SENTINEL,
      GEMINI_API_KEY: SENTINEL,
    };
    const commands = [
      `answer --dataset dataset.jsonl --papers papers --model ${keyedModel} --out run.jsonl`.split(' '),
      `answer --dataset dataset.jsonl --papers papers --model ${keyedModel} --out run.jsonl --debug`.split(
        ' ',
      ),
      `grade --dataset dataset.jsonl --papers papers --run run.jsonl --judge ${keyedModel} --out grades.jsonl`.split(
        ' ',
      ),
      `generate questions --papers papers --model ${keyedModel} --out questions.jsonl --debug`.split(' '),
      `grade faithfulness --answers run.jsonl --judge ${keyedModel} --out faithfulness.jsonl`.split(' '),
      ['llm', 'ping', '--model', keyedModel, '--no-cache'],
      `answer --dataset dataset.jsonl --papers papers --model ${keyedModel} --out run.jsonl --dry-run --json`.split(
        ' ',
      ),
    ];
    let output = '';
    for (const argv of commands) {
      const p = startCli(MAIN, argv, cwd, env);
      await p.exited;
      output += p.stdout() + p.stderr();
    }
    await keyed.close();
    const files = listFiles(cwd);
    const bytes = files.reduce((a, f) => a + statSync(f).size, 0);
    const found = files.filter((f) => readFileSync(f).includes(SENTINEL)).map((f) => f.slice(cwd.length));
    const inOutput = output.split(SENTINEL).length - 1;
    report.add(
      'Secrets',
      `A sentinel key is set in every provider's environment variable and ${commands.length} commands run against a fake server that checks it is sent and echoes it back in every fifth reply (a 401 "Incorrect API key provided: <key>"), with \`--debug\` on two of them. Then every file the commands left (runs, grades, questions, results, caches, locks) and their whole stdout and stderr are searched for it.\n\n${markdownTable(
        [
          'commands',
          'requests carrying the key',
          'replies echoing it',
          'files searched',
          'bytes searched',
          'files containing it',
          'occurrences in output',
        ],
        [[commands.length, sent, echoed, files.length, bytes, found.length, inOutput]],
      )}`,
    );
    expect(sent).toBeGreaterThan(20);
    expect(echoed).toBeGreaterThan(3);
    expect(files.some((f) => f.endsWith('cache.sqlite'))).toBe(true);
    expect({ found, inOutput }).toEqual({ found: [], inOutput: 0 });
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
