/**
 * Ingest speed: pages per second of the full PDF ingest (pdfjs text items → lines, columns,
 * furniture, headings, reading order, hyphenation → Document) against raw extraction by the same
 * engine (pdfjs getTextContent only, items joined) on the same PDFs in the same run. The target:
 * structure recovery costs at most 30% over raw extraction (ratio ≤ 1.30).
 *
 * Rounds alternate raw and full so that machine load hits both alike; the median round is reported,
 * in wall time and in CPU time of this process (pdfjs runs in-process, so CPU time covers it and is
 * the steadier figure on a loaded machine).
 */
import { readFileSync } from 'node:fs';
import { rawPdfText, readDocumentBytes } from '../src/ingest/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';

const FILES = ['N18-3011.pdf', '2020.acl-main.207.pdf', '2023.eacl-main.121.pdf'];
const ROUNDS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function bench(): Promise<void> {
  const pdfs = FILES.map((name) => ({
    name,
    bytes: new Uint8Array(readFileSync(sharedDataPath('papers', 'pdf', name))),
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
  for (let r = 0; r < ROUNDS; r++) {
    raw.push(await time(async () => Promise.all(pdfs.map((p) => rawPdfText(p.name, p.bytes)))));
    full.push(
      await time(async () =>
        Promise.all(pdfs.map((p) => readDocumentBytes(p.bytes, { file: p.name, id: p.name }))),
      ),
    );
  }
  console.log(`${pdfs.length} PDFs, ${pages} pages, median of ${ROUNDS} alternating rounds`);
  console.log('| step | pages/s (wall) | ms (wall) | pages/s (CPU) | ms (CPU) |');
  console.log('|---|---:|---:|---:|---:|');
  const row = (name: string, xs: { wall: number; cpu: number }[]) => {
    const wall = median(xs.map((x) => x.wall));
    const cpu = median(xs.map((x) => x.cpu));
    console.log(
      `| ${name} | ${((pages / wall) * 1000).toFixed(1)} | ${wall.toFixed(0)} | ${((pages / cpu) * 1000).toFixed(1)} | ${cpu.toFixed(0)} |`,
    );
    return { wall, cpu };
  };
  const r = row('raw pdfjs getTextContent', raw);
  const f = row('full ingest → Document', full);
  const ratio = f.cpu / r.cpu;
  console.log(
    `ratio full / raw: ${ratio.toFixed(2)} CPU, ${(f.wall / r.wall).toFixed(2)} wall (target ≤ 1.30: ${ratio <= 1.3 ? 'met' : 'NOT met'})`,
  );
}
