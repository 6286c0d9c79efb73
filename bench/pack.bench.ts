/**
 * Study packs (docs/packs.md) at the size of the published ResearchQA set: 1,005 graded rows over
 * the QASPER dev papers, judged by the rubric judge on the fake OpenAI-compatible server. Reports
 * the time of `pack` (which includes its check replay) and of `replay`, each beside the time of the
 * `grade` run it re-derives (measured in the same run, as a baseline), and the pack's size beside
 * its inputs and replies compressed on their own (gzip -9 of their concatenation): the target is a
 * pack no larger than that, deduplicated, and pack and replay ≤ 5 s each on 2 cores. BENCH_KEEP=1
 * keeps the study and its replay in the temporary folder, to look at.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { memoryIo } from '../src/cli/io.js';
import { runCli } from '../src/cli/program.js';
import { openPack } from '../src/pack/open-pack.js';
import { FakeOpenAiServer, sharedDataPath } from '../src/testing/index.js';
import { buildWorkload, readPapers } from './grading-workload.js';

const ROWS = 1005;

/** Wall seconds, and CPU seconds of the whole process (every thread: the grading workers too). */
const cpuOf = new Map<string, number>();
async function timed(label: string, argv: string[], cwd: string): Promise<number> {
  const { io, stderr } = memoryIo({ cwd });
  const t = performance.now();
  const c = process.cpuUsage();
  const code = await runCli(argv, io);
  const s = (performance.now() - t) / 1000;
  const used = process.cpuUsage(c);
  cpuOf.set(label, (used.user + used.system) / 1e6);
  if (code !== 0) throw new Error(`${label} exited ${code}: ${stderr().slice(-400)}`);
  return s;
}
const cpu = (label: string) => `, CPU ${cpuOf.get(label)?.toFixed(2)} s`;
const load = () => `load average ${loadavg()[0]!.toFixed(1)}`;

export default async function bench(): Promise<void> {
  const papersDir = sharedDataPath('qasper-dev', 'papers');
  let papers: Map<string, string>;
  try {
    papers = readPapers(papersDir);
  } catch {
    console.log(`skipped: ${papersDir} is absent (the QASPER dev papers; see ../shared/data/README.md)`);
    return;
  }
  const { rows, runs } = buildWorkload(papers, ROWS);
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-pack-bench-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-pack-bench-replay-'));
  mkdirSync(join(dir, 'papers'));
  for (const id of new Set(rows.map((r) => r.paper_id))) {
    copyFileSync(join(papersDir, `${id}.txt`), join(dir, 'papers', `${id}.txt`));
  }
  writeFileSync(join(dir, 'dataset.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(join(dir, 'run.jsonl'), `${runs.map((r) => JSON.stringify(r)).join('\n')}\n`);
  let n = 0;
  const server = await new FakeOpenAiServer({
    replies: () => ({
      text: JSON.stringify({
        factual_accuracy: 1 + (n++ % 5),
        completeness: 3,
        justification: 'seeded fake judge',
        evidence: [],
      }),
    }),
  }).start();
  try {
    const judge = `openai-compatible:${server.url}/v1#bench-judge`;
    const grade = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'run.jsonl'];
    const tGrade = await timed(
      'grade',
      [...grade, '--judge', judge, '--concurrency', '16', '--out', 'g.jsonl'],
      dir,
    );
    const tPack = await timed('pack', ['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], dir);
    await server.close();
    const tReplay = await timed('replay', ['replay', join(dir, 'study.cgpack'), '--dir', 'r'], elsewhere);

    const inputs = [
      join(dir, 'dataset.jsonl'),
      join(dir, 'run.jsonl'),
      ...[...new Set(rows.map((r) => r.paper_id))].map((id) => join(dir, 'papers', `${id}.txt`)),
    ];
    const raw = Buffer.concat(inputs.map((f) => readFileSync(f)));
    const packBytes = statSync(join(dir, 'study.cgpack')).size;
    const outputsGz = gzipSync(
      Buffer.concat([readFileSync(join(dir, 'g.jsonl')), readFileSync(join(dir, 'g.summary.json'))]),
      { level: 9 },
    ).length;
    const inputsGz = gzipSync(raw, { level: 9 }).length;
    // The replies the grades used, as the pack holds them (one JSONL entry), compressed on their own.
    const replies = openPack(join(dir, 'study.cgpack')).entries.find((e) => e.path === 'replies.jsonl');
    const repliesGz = replies ? gzipSync(replies.data, { level: 9 }).length : 0;
    const baseline = inputsGz + repliesGz + outputsGz;
    console.log(
      `${ROWS} rows judged over ${inputs.length - 2} papers (${(raw.length / 1e6).toFixed(1)} MB of inputs)`,
    );
    console.log(`grade --judge (baseline, fake server): ${tGrade.toFixed(2)} s${cpu('grade')}`);
    console.log(
      `pack (with its check replay):          ${tPack.toFixed(2)} s${cpu('pack')}  (${(tPack / tGrade).toFixed(2)}× grade)`,
    );
    console.log(
      `replay (server gone):                  ${tReplay.toFixed(2)} s${cpu('replay')}  (${(tReplay / tGrade).toFixed(2)}× grade; ${load()})`,
    );
    console.log(
      `pack ${(packBytes / 1e6).toFixed(2)} MB; gzip -9 of each on its own: inputs ${(inputsGz / 1e6).toFixed(2)} MB + replies ${(repliesGz / 1e6).toFixed(2)} MB + outputs ${(outputsGz / 1e6).toFixed(2)} MB; ratio pack / (inputs + replies + outputs) = ${(packBytes / baseline).toFixed(2)} (goal ≤ 1: ${packBytes <= baseline ? 'met' : 'NOT met'})`,
    );
  } finally {
    await server.close().catch(() => {});
    if (!process.env.BENCH_KEEP)
      for (const d of [dir, elsewhere]) rmSync(d, { recursive: true, force: true });
  }
}
