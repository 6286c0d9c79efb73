/**
 * Ingest speed: pages per second of the full PDF ingest (pdfjs text items → separators, regions and
 * reading order, furniture, headings, kinds, tables, formulas, references, markers → Document)
 * against raw extraction by the same engine (pdfjs getTextContent only, items joined) on the same
 * PDFs in the same run. The target: structure recovery costs at most 30% over raw extraction
 * (ratio ≤ 1.30).
 *
 * Rounds alternate raw and full so that machine load hits both alike; the minimum and the median
 * round are reported, in wall time and in CPU time of this process (pdfjs runs in-process, so CPU
 * time covers it and is the steadier figure on a loaded machine), with the load average.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { rawPdfText, readDocumentBytes } from '../src/ingest/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';

const FILES = [
  ['papers', 'pdf', 'N18-3011.pdf'],
  ['papers', 'pdf', '2020.acl-main.207.pdf'],
  ['papers', 'pdf', '2023.eacl-main.121.pdf'],
  ['pdf-gold', 'jose', '10.21105.jose.00180.pdf'],
  ['pdf-gold', 'grobid', '0807.3577.pdf'],
  ['pdf-gold', 'elife', 'elife-1234567890.pdf'],
];
const ROUNDS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const min = (xs: number[]) => Math.min(...xs);

export default async function bench(): Promise<void> {
  const pdfs = FILES.map((parts) => ({
    name: parts.at(-1)!,
    bytes: new Uint8Array(readFileSync(sharedDataPath(...parts))),
  }));
  let pages = 0;
  for (const p of pdfs) pages += (await rawPdfText(p.name, p.bytes)).pages; // warm-up: loads pdfjs
  for (const p of pdfs) await readDocumentBytes(p.bytes, { file: p.name, id: p.name });
  const time = async (work: () => Promise<unknown>) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await work();
    const used = process.cpuUsage(cpu);
    return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000 };
  };
  const raw: { wall: number; cpu: number }[] = [];
  const full: { wall: number; cpu: number }[] = [];
  const load = loadavg()[0]!;
  for (let r = 0; r < ROUNDS; r++) {
    raw.push(await time(async () => Promise.all(pdfs.map((p) => rawPdfText(p.name, p.bytes)))));
    full.push(
      await time(async () =>
        Promise.all(pdfs.map((p) => readDocumentBytes(p.bytes, { file: p.name, id: p.name }))),
      ),
    );
  }
  console.log(
    `${pdfs.length} PDFs, ${pages} pages, ${ROUNDS} alternating rounds; load average ${load.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end`,
  );
  console.log(
    '| step | ms CPU (min) | ms CPU (median) | ms wall (min) | ms wall (median) | pages/s CPU (median) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  const row = (name: string, xs: { wall: number; cpu: number }[]) => {
    const cpu = xs.map((x) => x.cpu);
    const wall = xs.map((x) => x.wall);
    console.log(
      `| ${name} | ${min(cpu).toFixed(0)} | ${median(cpu).toFixed(0)} | ${min(wall).toFixed(0)} | ${median(wall).toFixed(0)} | ${((pages / median(cpu)) * 1000).toFixed(1)} |`,
    );
    return { cpu, wall };
  };
  const r = row('raw pdfjs getTextContent', raw);
  const f = row('full ingest → Document', full);
  const ratio = (a: number[], b: number[], of: (xs: number[]) => number) => (of(a) / of(b)).toFixed(2);
  const medianCpu = median(f.cpu) / median(r.cpu);
  console.log(
    `ratio full / raw: CPU ${ratio(f.cpu, r.cpu, min)} (min) ${medianCpu.toFixed(2)} (median); wall ${ratio(f.wall, r.wall, min)} (min) ${ratio(f.wall, r.wall, median)} (median) — target ≤ 1.30 in CPU time: ${medianCpu <= 1.3 ? 'met' : 'NOT met'}`,
  );
}
