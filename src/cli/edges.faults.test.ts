/**
 * The edges a held-out fault campaign found (issue 33), each tried here with inputs of its own: a run
 * graded while it is written, links and empty folders given to ingest, FIFOs and devices given as
 * any input, a PDF of many pages, inputs past the limits of a string or an array, a full disk and a
 * read-only corpus, empty inputs, per-line errors without a code, a config that one command ignored,
 * XML that is not a paper. Each must end in a coded error (or, where the input is valid, succeed),
 * never hang, crash or succeed on nothing. What each gives is listed in docs/reliability.md (this
 * file writes nothing there).
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_BYTES } from '../io/index.js';
import { type CliResult, classify, printedCodes, runCase } from '../testing/fault-campaign.js';
import { campaignReply, faultWorkspace } from '../testing/fault-workspace.js';
import { flatPdf } from '../testing/generated-pdf.js';
import { FakeOpenAiServer } from '../testing/index.js';
import { builtCli, startCli } from '../testing/process-faults.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let MAIN = '';
beforeAll(() => {
  MAIN = builtCli(ROOT);
}, 300_000);

/** A refusal: exit 1, a code from the table, no stack, and the code expected. */
function expectRefused(result: CliResult, code: string): void {
  expect(classify(result, false), `${result.err}${result.out}`).toBe('refused');
  expect(printedCodes(result)).toContain(code);
}

/** Runs the built CLI as its own process with a time limit (a hang is killed and reported). */
function runBuilt(argv: string[], cwd: string, o: { ulimitKb?: number; timeoutMs?: number } = {}) {
  const started = performance.now();
  const command = o.ulimitKb
    ? ['bash', ['-c', `ulimit -f ${o.ulimitKb}; exec "$0" "$@"`, process.execPath, MAIN, ...argv]]
    : [process.execPath, [MAIN, ...argv]];
  return new Promise<CliResult & { hung: boolean }>((done) => {
    const child = spawn(command[0] as string, command[1] as string[], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, o.timeoutMs ?? 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? 137, out, err, ms: performance.now() - started, hung });
    });
  });
}

/** A workspace of 4 papers and 12 questions, answered extractively into run.jsonl. */
async function answeredWorkspace(): Promise<string> {
  const dir = faultWorkspace(12, 4);
  const r = await runCase(
    [
      'answer',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--model',
      'extractive',
      '--out',
      'run.jsonl',
    ],
    dir,
  );
  expect(r.code, r.err).toBe(0);
  return dir;
}

describe('1. a run whose writer still holds its lock', () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await new FakeOpenAiServer({ replies: campaignReply, latencyMs: 60 }).start();
  });
  afterAll(async () => server?.close());

  it('is refused by grade, leaderboard and report (RUN_INCOMPLETE); --allow-partial grades it, marked partial', async () => {
    const dir = faultWorkspace(300, 6);
    const writer = startCli(
      MAIN,
      [
        'answer',
        '--dataset',
        'dataset.jsonl',
        '--papers',
        'papers',
        '--model',
        `openai-compatible:${server.url}/v1#slow-model`,
        '--concurrency',
        '1',
        '--no-check',
        '--out',
        'run.jsonl',
      ],
      dir,
      { OPENAI_COMPATIBLE_API_KEY: 'sk-edge-test' },
    );
    try {
      const run = join(dir, 'run.jsonl');
      const until = Date.now() + 120_000;
      while (!(existsSync(run) && readFileSync(run, 'utf8').split('\n').length > 6)) {
        if (Date.now() > until) throw new Error(`answer wrote no rows: ${writer.stderr()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const grade = [
        'grade',
        '--run',
        'run.jsonl',
        '--dataset',
        'dataset.jsonl',
        '--papers',
        'papers',
        '--no-check',
      ];
      expectRefused(await runCase([...grade, '--out', 'g.jsonl'], dir), 'RUN_INCOMPLETE');
      expect(existsSync(join(dir, 'g.jsonl'))).toBe(false);
      expectRefused(
        await runCase(['leaderboard', 'run.jsonl', '--dataset', 'dataset.jsonl', '--papers', 'papers'], dir),
        'RUN_INCOMPLETE',
      );
      expectRefused(
        await runCase(['report', '--runs', 'run.jsonl', '--out', 'r.html'], dir),
        'RUN_INCOMPLETE',
      );

      const partial = await runCase([...grade, '--out', 'g.jsonl', '--allow-partial'], dir);
      expect(partial.code, partial.err).toBe(0);
      expect(partial.out).toMatch(/^PARTIAL: the run was still being written/m);
      const manifest = JSON.parse(readFileSync(join(dir, 'g.jsonl'), 'utf8').split('\n')[0]!);
      expect(manifest.settings.partial_run).toBe(true);
      expect(manifest.label).toMatch(/partial_run=true/);
      const summary = JSON.parse(readFileSync(join(dir, 'g.summary.json'), 'utf8'));
      expect(summary.partial.run_rows_graded).toBeGreaterThan(0);
      expect(summary.partial.run_rows_graded).toBeLessThan(300);
      const board = await runCase(
        ['leaderboard', 'run.jsonl', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--allow-partial'],
        dir,
      );
      expect(board.out).toMatch(/\(partial\)/);
      const report = await runCase(
        ['report', '--runs', 'run.jsonl', '--out', 'r.html', '--allow-partial'],
        dir,
      );
      expect(report.code, report.err).toBe(0);
      expect(readFileSync(join(dir, 'r.html'), 'utf8')).toMatch(
        /PARTIAL: run\.jsonl was still being written/,
      );
    } finally {
      writer.child.kill('SIGKILL');
      await writer.exited;
    }
    // A lock left by the killed writer is stale: the run is graded as it is (no flag needed).
    const after = await runCase(
      [
        'grade',
        '--run',
        'run.jsonl',
        '--dataset',
        'dataset.jsonl',
        '--papers',
        'papers',
        '--no-check',
        '--out',
        'g2.jsonl',
      ],
      dir,
    );
    expect(printedCodes(after)).not.toContain('RUN_INCOMPLETE');
  });
});

describe('2. ingest of links and of nothing', () => {
  it('follows links to files and folders (each real folder once), and refuses finding nothing unless --allow-empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-edges-'));
    mkdirSync(join(dir, 'store'));
    mkdirSync(join(dir, 'links'));
    writeFileSync(join(dir, 'store', 'alpha.md'), '# Alpha\n\n## Methods\n\nWe weighed 31 stones.\n');
    writeFileSync(join(dir, 'store', 'beta.txt'), 'Beta paper. It counted 12 birds in the valley.\n');
    symlinkSync(join(dir, 'store', 'alpha.md'), join(dir, 'links', 'alpha.md'));
    symlinkSync(join(dir, 'store', 'beta.txt'), join(dir, 'links', 'beta.txt'));
    symlinkSync(join(dir, 'links'), join(dir, 'links', 'loop')); // a loop must end
    symlinkSync(join(dir, 'gone.md'), join(dir, 'links', 'dangling.md'));
    const r = await runCase(['--json', 'ingest', 'links', '--corpus', 'c.sqlite'], dir);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).ingested).toBe(2);

    mkdirSync(join(dir, 'empty'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'notes.docx'), 'not a format ingest reads');
    expectRefused(await runCase(['ingest', 'empty', '--corpus', 'c2.sqlite'], dir), 'NOTHING_TO_INGEST');
    expectRefused(await runCase(['ingest', 'other', '--corpus', 'c2.sqlite'], dir), 'NOTHING_TO_INGEST');
    const allowed = await runCase(['ingest', 'empty', '--allow-empty', '--corpus', 'c3.sqlite'], dir);
    expect(allowed.code, allowed.err).toBe(0);
  });
});

describe('3. a FIFO or a device as any input file', () => {
  /** Every command that reads an input file, the input replaced by `F` (a FIFO with no writer). */
  const cases: string[][] = [
    ['trec-eval', 'F', 'run.trec'],
    ['trec-eval', 'qrels.txt', 'F'],
    ['compare', 'F', 'run.trec', '--qrels', 'qrels.txt'],
    ['compare', 'run.trec', 'run.trec', '--qrels', 'F'],
    ['answer', '--dataset', 'F', '--papers', 'papers', '--model', 'extractive', '--out', 'o1.jsonl'],
    ['grade', '--run', 'F', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--out', 'o2.jsonl'],
    ['grade', '--run', 'run.jsonl', '--dataset', 'F', '--papers', 'papers', '--out', 'o3.jsonl'],
    ['leaderboard', 'F', '--dataset', 'dataset.jsonl', '--papers', 'papers'],
    ['report', '--grades', 'F', '--out', 'o4.html'],
    ['quote', '--paper', 'papers/p00.md', '--quotes', 'F.txt'],
    ['quote', '--paper', 'F.md', '--quotes', 'quotes.txt'],
    ['show', 'F.md'],
    ['qasper-eval', '--gold', 'F', '--predictions', 'F'],
    ['qa-eval', '--predictions', 'F', '--references', 'dataset.jsonl', '--out', 'o5.jsonl'],
    ['dataset', 'check', 'F', '--papers', 'papers'],
    ['ingest', 'F.md', '--corpus', 'c.sqlite'],
    ['nuggets', 'stats', '--bank', 'F'],
    ['nuggets', 'convert', '--in', 'F', '--to', 'v1', '--out', 'o6.jsonl'],
    ['reports', 'validate', 'F'],
    ['reports', 'score', '--judgments', 'F', '--nuggets', 'F'],
    ['retrieve', '--queries', 'F', '--out', 'o7.trec'],
    ['grade', 'faithfulness', '--answers', 'F', '--judge', 'lexical', '--out', 'o8.jsonl'],
    ['meta-eval', 'faithfulness', '--auto', 'F', '--human', 'F'],
    ['list', '--corpus', 'F'],
    ['--config', 'F.json', 'list'],
  ];

  it(`refuses it before opening, in each of ${cases.length} commands (none hangs)`, async () => {
    const dir = await answeredWorkspace();
    writeFileSync(join(dir, 'qrels.txt'), 'q1 0 d1 1\n');
    writeFileSync(join(dir, 'run.trec'), 'q1 Q0 d1 1 2.5 mine\n');
    writeFileSync(join(dir, 'quotes.txt'), 'The common sentence appears\n');
    for (const name of ['F', 'F.txt', 'F.md', 'F.json']) execFileSync('mkfifo', [join(dir, name)]);
    // Three at a time: each is a process of its own (a hang is killed at 90 s and reported).
    const results: { argv: string[]; result: CliResult & { hung: boolean } }[] = [];
    for (let i = 0; i < cases.length; i += 3) {
      const batch = cases.slice(i, i + 3);
      results.push(
        ...(await Promise.all(batch.map(async (argv) => ({ argv, result: await runBuilt(argv, dir) })))),
      );
    }
    const bad = results.filter(({ result }) => result.hung || classify(result, false) !== 'refused');
    expect(bad.map(({ argv, result }) => `${argv.join(' ')}: ${result.hung ? 'HUNG' : result.err}`)).toEqual(
      [],
    );
    const notRegular = results.filter(({ result }) =>
      /FILE_NOT_REGULAR|named pipe/.test(result.err + result.out),
    );
    // Commands that check the extension or the corpus first may refuse for that; most name the pipe.
    expect(notRegular.length).toBeGreaterThanOrEqual(cases.length - 3);
    // A device (never ends) too, and a link to one.
    symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));
    expectRefused(
      await runCase(
        [
          'grade',
          '--run',
          'zero.jsonl',
          '--dataset',
          'dataset.jsonl',
          '--papers',
          'papers',
          '--out',
          'z.jsonl',
        ],
        dir,
      ),
      'FILE_NOT_REGULAR',
    );
  }, 600_000);
});

describe('4. a PDF of many pages', () => {
  it('past --max-pdf-pages is refused (INGEST_PDF_TOO_LONG) before a page is read; at the bound it is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-edges-'));
    writeFileSync(join(dir, 'long.pdf'), flatPdf(41));
    const over = await runCase(['ingest', 'long.pdf', '--max-pdf-pages', '40', '--corpus', 'c.sqlite'], dir);
    expectRefused(over, 'INGEST_PDF_TOO_LONG');
    expect(over.out).toMatch(/41 pages, more than the 40/);
    const at = await runCase(
      ['--json', 'ingest', 'long.pdf', '--max-pdf-pages', '41', '--corpus', 'c.sqlite'],
      dir,
    );
    expect(at.code, at.err).toBe(0);
  });
});

describe('5. limits that surfaced as INTERNAL', () => {
  it('a dataset or run with one row longer than a string is FILE_TOO_LARGE; a qrels grade of 10^21 is INVALID_INPUT', async () => {
    const dir = await answeredWorkspace();
    // Sparse: 600 MiB that take no disk, one row of them.
    const huge = join(dir, 'huge.jsonl');
    const fd = openSync(huge, 'w');
    writeSync(fd, '{"row_id": "h1", "paper_id": "p00", "question": "');
    writeSync(fd, '"}\n', MAX_INPUT_BYTES + 80 * (1 << 20));
    closeSync(fd);
    const grade = ['grade', '--papers', 'papers', '--no-check', '--out', 'g.jsonl'];
    expectRefused(
      await runCase([...grade, '--dataset', 'huge.jsonl', '--run', 'run.jsonl'], dir),
      'FILE_TOO_LARGE',
    );
    expectRefused(
      await runCase([...grade, '--dataset', 'dataset.jsonl', '--run', 'huge.jsonl'], dir),
      'FILE_TOO_LARGE',
    );
    writeFileSync(join(dir, 'qrels.txt'), 'q7 0 docA 2\nq7 0 docB 400000000000000000000\n');
    writeFileSync(join(dir, 'run.trec'), 'q7 Q0 docA 1 3.0 mine\n');
    const trec = await runCase(['trec-eval', 'qrels.txt', 'run.trec'], dir);
    expectRefused(trec, 'INVALID_INPUT');
    expect(trec.err).toMatch(/qrels\.txt line 2/);
  });
});

describe('6. full disks and read-only places', () => {
  it('answer and ingest past the file-size limit (EFBIG, as a full disk) say DISK_FULL naming the path, and leave no lock temp file', async () => {
    const dir = await answeredWorkspace();
    // 4 KiB: a file may not grow past it (EFBIG, what a full disk does to a writer: ENOSPC).
    const argv = ['answer', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--model', 'extractive'];
    const answer = await runBuilt([...argv, '--out', 'full.jsonl'], dir, { ulimitKb: 4 });
    expectRefused(answer, 'DISK_FULL');
    // The path it names is the file that could not grow, in this workspace.
    expect(answer.err).toMatch(new RegExp(`error \\[DISK_FULL\\]: .*${dir.replaceAll('/', '\\/')}\\/\\S+`));
    expect(answer.err).not.toMatch(/unknown path|TypeError|database connection/);
    const again = await runBuilt([...argv, '--out', 'full.jsonl'], dir);
    expect(again.code, again.err).toBe(0);
    expect(readdirSync(dir).filter((f) => f.includes('.lock'))).toEqual([]);

    const ingest = await runBuilt(['ingest', 'papers', '--corpus', 'corpus/c.sqlite'], dir, { ulimitKb: 8 });
    expect(classify(ingest, false)).toBe('refused');
    expect(printedCodes(ingest)).not.toContain('FILE_UNREADABLE');
    expect(ingest.err).toMatch(/DISK_FULL/);
    expect(ingest.err).toMatch(/corpus\/c\.sqlite/);
  });

  it('a model run whose reply cache cannot be written is DISK_FULL naming the cache, never a TypeError', async () => {
    const server = await new FakeOpenAiServer({ replies: campaignReply }).start();
    try {
      const dir = faultWorkspace(8, 2);
      const model = `openai-compatible:${server.url}/v1#cache-model`;
      const r = await runBuilt(
        [
          'answer',
          '--dataset',
          'dataset.jsonl',
          '--papers',
          'papers',
          '--model',
          model,
          '--out',
          'run.jsonl',
          '--cache',
          'cache.sqlite',
        ],
        dir,
        { ulimitKb: 6 },
      );
      expect(r.err).not.toMatch(/TypeError|database connection is not open|\n\s+at /);
      expectRefused(r, 'DISK_FULL');
      expect(r.err).toMatch(/\.sqlite/);
    } finally {
      await server.close();
    }
  });

  it.skipIf(process.getuid?.() === 0)(
    'a read-only corpus is CORPUS_READ_ONLY, not "not a citegeist corpus" (skipped as root: root writes read-only files)',
    async () => {
      const dir = await answeredWorkspace();
      expect((await runCase(['ingest', 'papers/p00.md', '--corpus', 'ro/c.sqlite'], dir)).code).toBe(0);
      chmodSync(join(dir, 'ro', 'c.sqlite'), 0o444);
      chmodSync(join(dir, 'ro'), 0o555);
      const r = await runCase(['ingest', 'papers', '--corpus', 'ro/c.sqlite'], dir);
      chmodSync(join(dir, 'ro'), 0o755);
      expectRefused(r, 'CORPUS_READ_ONLY');
      expect(r.err).not.toMatch(/not a citegeist corpus/);
    },
  );
});

/** Report runs: two topics, their banks, documents and requests. */
function reportsWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-edges-reports-'));
  const requests = [
    {
      request_id: 'K1',
      title: 'Glacier melt',
      problem_statement: 'How fast does the glacier melt?',
      limit: 300,
    },
    { request_id: 'K2', title: 'Tide heights', problem_statement: 'How high are the tides?', limit: 300 },
  ];
  writeFileSync(join(dir, 'requests.jsonl'), requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const docs = [
    { doc_id: 'g1', text: 'The glacier loses 3 metres of ice a year. It is 40 km long.' },
    { doc_id: 't1', text: 'Spring tides rise 6 metres in the bay. Neap tides rise 2 metres.' },
  ];
  writeFileSync(join(dir, 'docs.jsonl'), docs.map((d) => `${JSON.stringify(d)}\n`).join(''));
  mkdirSync(join(dir, 'banks'));
  for (const [id, q, a] of [
    ['K1', 'How much ice a year?', '3 metres'],
    ['K2', 'How high are spring tides?', '6 metres'],
  ] as const) {
    writeFileSync(
      join(dir, 'banks', `${id}.json`),
      JSON.stringify({
        query_id: id,
        title_query: id,
        format_version: 'v3',
        nugget_bank: {
          [q]: { question: q, answers: { [a]: { answer: a } }, aggregator_type: 'OR', query_id: id },
        },
      }),
    );
  }
  const report = (topic: string, text: string, doc: string) =>
    JSON.stringify({
      metadata: { team_id: 'edge', run_id: 'edge-run', topic_id: topic },
      responses: [{ text, citations: [doc] }],
      references: [doc],
    });
  const k1 = report('K1', 'The glacier loses 3 metres of ice a year.', 'g1');
  const k2 = report('K2', 'Spring tides rise 6 metres in the bay.', 't1');
  writeFileSync(join(dir, 'run.jsonl'), `${k1}\n${k2}\n`);
  writeFileSync(join(dir, 'twice.jsonl'), `${k1}\n${k2}\n${k1}\n`);
  writeFileSync(join(dir, 'empty.jsonl'), '');
  writeFileSync(join(dir, 'blank.txt'), '\n  \n');
  mkdirSync(join(dir, 'nothing'));
  return dir;
}

describe('7. success on nothing', () => {
  const judge = (runs: string) => [
    'reports',
    'judge',
    '--runs',
    runs,
    '--nuggets',
    'banks',
    '--requests',
    'requests.jsonl',
    '--docs',
    'docs.jsonl',
    '--judge',
    'lexical',
    '--out',
    `j-${runs.replace(/\W/g, '')}.jsonl`,
  ];

  it('reports judge on an empty file or folder, or with one topic twice, is refused and writes nothing', async () => {
    const dir = reportsWorkspace();
    for (const runs of ['empty.jsonl', 'nothing']) {
      expectRefused(await runCase(judge(runs), dir), 'NO_ROWS');
      expect(existsSync(join(dir, `j-${runs.replace(/\W/g, '')}.jsonl`))).toBe(false);
    }
    const twice = await runCase(judge('twice.jsonl'), dir);
    expectRefused(twice, 'INVALID_INPUT');
    expect(twice.err).toMatch(/two reports for topic "K1"/);
    const ok = await runCase(judge('run.jsonl'), dir);
    expect(ok.code, ok.err).toBe(0);
  });

  it('quote, nuggets stats, qasper-eval, reports validate --requests and report refuse empty or cut inputs', async () => {
    const dir = reportsWorkspace();
    mkdirSync(join(dir, 'papers'));
    writeFileSync(
      join(dir, 'papers', 'g.md'),
      '# G\n\n## Results\n\nThe glacier loses 3 metres of ice a year.\n',
    );
    expectRefused(
      await runCase(['quote', '--paper', 'papers/g.md', '--quotes', 'blank.txt'], dir),
      'NO_ROWS',
    );
    expectRefused(await runCase(['nuggets', 'stats', '--bank', 'empty.jsonl'], dir), 'EMPTY_FILE');
    expectRefused(await runCase(['nuggets', 'stats', '--bank', 'nothing'], dir), 'NO_ROWS');
    writeFileSync(join(dir, 'gold.json'), '{}');
    expectRefused(
      await runCase(['qasper-eval', '--gold', 'gold.json', '--predictions', 'empty.jsonl'], dir),
      'NO_ROWS',
    );
    expectRefused(
      await runCase(['reports', 'validate', 'run.jsonl', '--requests', 'empty.jsonl'], dir),
      'NO_ROWS',
    );
    expectRefused(await runCase(['reports', 'validate', 'empty.jsonl'], dir), 'INVALID_INPUT');

    const ws = await answeredWorkspace();
    const g = await runCase(
      ['grade', '--run', 'run.jsonl', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--out', 'g.jsonl'],
      ws,
    );
    expect(g.code, g.err).toBe(0);
    const text = readFileSync(join(ws, 'g.jsonl'), 'utf8');
    writeFileSync(join(ws, 'cut.jsonl'), text.slice(0, text.length - 40));
    expectRefused(
      await runCase(['report', '--grades', 'cut.jsonl', '--out', 'r.html'], ws),
      'RUN_FILE_CORRUPT',
    );
    writeFileSync(join(ws, 'head.jsonl'), `${text.split('\n')[0]}\n`);
    expectRefused(await runCase(['report', '--grades', 'head.jsonl', '--out', 'r.html'], ws), 'NO_ROWS');
  });
});

describe('8. errors that had no code', () => {
  it("quote's bad lines, a run of another dataset, and a topic mismatch in reports score each print a code", async () => {
    const dir = await answeredWorkspace();
    writeFileSync(join(dir, 'q.jsonl'), '{"quote": "The common sentence appears"}\n{"quote": 7}\nnot json\n');
    const quote = await runCase(['quote', '--paper', 'papers/p01.md', '--quotes', 'q.jsonl'], dir);
    expect(quote.code).toBe(1);
    expect(printedCodes(quote)).toEqual(expect.arrayContaining(['INVALID_INPUT', 'INVALID_JSON']));

    const foreign = readFileSync(join(dir, 'run.jsonl'), 'utf8').replaceAll(
      '"row_id":"',
      '"row_id":"elsewhere-',
    );
    writeFileSync(join(dir, 'foreign.jsonl'), foreign);
    const args = ['--dataset', 'dataset.jsonl', '--papers', 'papers'];
    expectRefused(
      await runCase(['grade', '--run', 'foreign.jsonl', ...args, '--out', 'gf.jsonl'], dir),
      'NOTHING_IN_COMMON',
    );
    expectRefused(await runCase(['leaderboard', 'foreign.jsonl', ...args], dir), 'NOTHING_IN_COMMON');
    // Some rows of another dataset: the others are graded, the exit code and its code say so.
    const lines = readFileSync(join(dir, 'run.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'mixed.jsonl'), [...lines.slice(0, 4), foreign.split('\n')[5], ''].join('\n'));
    expectRefused(
      await runCase(['grade', '--run', 'mixed.jsonl', ...args, '--out', 'gm.jsonl'], dir),
      'INVALID_INPUT',
    );

    const rw = reportsWorkspace();
    const judged = await runCase(
      [
        'reports',
        'judge',
        '--runs',
        'run.jsonl',
        '--nuggets',
        'banks',
        '--requests',
        'requests.jsonl',
        '--docs',
        'docs.jsonl',
        '--judge',
        'lexical',
        '--out',
        'j.jsonl',
      ],
      rw,
    );
    expect(judged.code, judged.err).toBe(0);
    mkdirSync(join(rw, 'other-banks'));
    const bank = JSON.parse(readFileSync(join(rw, 'banks', 'K1.json'), 'utf8'));
    writeFileSync(
      join(rw, 'other-banks', 'Z9.json'),
      JSON.stringify({ ...bank, query_id: 'Z9', title_query: 'Z9' }),
    );
    expectRefused(
      await runCase(
        ['reports', 'score', '--judgments', 'j.jsonl', '--nuggets', 'other-banks', '--out', 's.tsv'],
        rw,
      ),
      'NOTHING_IN_COMMON',
    );
  });
});

describe('9. odd acceptances', () => {
  it('an invalid --config is refused by every command; XML of an HTML page or with declared entities is not a paper', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-edges-'));
    writeFileSync(join(dir, 'bad.json'), '{"modell": "openai:x"}');
    writeFileSync(join(dir, 'qrels.txt'), 'q1 0 d1 1\n');
    writeFileSync(join(dir, 'run.trec'), 'q1 Q0 d1 1 1.0 x\n');
    expectRefused(
      await runCase(['--config', 'bad.json', 'trec-eval', 'qrels.txt', 'run.trec'], dir),
      'CONFIG_INVALID',
    );
    expectRefused(await runCase(['--config', 'bad.json', 'errors'], dir), 'CONFIG_INVALID');

    mkdirSync(join(dir, 'in'));
    writeFileSync(
      join(dir, 'in', 'page.xml'),
      '<html><head><title>Shop</title></head><body><p>Buy now</p></body></html>',
    );
    writeFileSync(
      join(dir, 'in', 'laughs.xml'),
      `<?xml version="1.0"?>\n<!DOCTYPE article [\n <!ENTITY w "wave">\n <!ENTITY w2 "&w;&w;&w;&w;&w;&w;&w;&w;">\n <!ENTITY w3 "&w2;&w2;&w2;&w2;&w2;&w2;&w2;&w2;">\n]>\n<article><body><sec><p>&w3;</p></sec></body></article>\n`,
    );
    const r = await runCase(['--json', 'ingest', 'in', '--corpus', 'c.sqlite'], dir);
    const outcomes = JSON.parse(r.out).outcomes as { file: string; code?: string }[];
    expect(Object.fromEntries(outcomes.map((o) => [o.file.split('/').at(-1), o.code]))).toEqual({
      'laughs.xml': 'INVALID_XML',
      'page.xml': 'INGEST_UNSUPPORTED_FORMAT',
    });
    expect(r.code).toBe(1);
  });
});
