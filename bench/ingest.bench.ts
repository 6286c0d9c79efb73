/**
 * Ingest speed: pages per second of the full PDF ingest (pdfjs text items → separators, regions and
 * reading order, furniture, headings, kinds, tables, formulas, references, markers → Document)
 * against raw extraction by the same engine (pdfjs getTextContent only, items joined) on the same
 * PDFs in the same run. The target: structure recovery costs at most 30% over raw extraction
 * (ratio ≤ 1.30).
 *
 * Interleaved passes (`interleaved.ts`): min and median, in wall time and in CPU time of this
 * process (pdfjs runs in-process, so CPU time covers it and is the steadier figure on a loaded
 * machine), with the load average. BENCH_PASSES (default 7) sets the passes.
 */
import { readFileSync } from 'node:fs';
import { rawPdfText, readDocumentBytes } from '../src/ingest/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { formatRatio, interleaved, loadAverage, summarize, type Timing, withCpu } from './interleaved.js';

const FILES = [
  ['papers', 'pdf', 'N18-3011.pdf'],
  ['papers', 'pdf', '2020.acl-main.207.pdf'],
  ['papers', 'pdf', '2023.eacl-main.121.pdf'],
  ['pdf-gold', 'jose', '10.21105.jose.00180.pdf'],
  ['pdf-gold', 'grobid', '0807.3577.pdf'],
  ['pdf-gold', 'elife', 'elife-1234567890.pdf'],
];
const PASSES = Number(process.env.BENCH_PASSES ?? 7);

export default async function bench(): Promise<void> {
  const pdfs = FILES.map((parts) => ({
    name: parts.at(-1)!,
    bytes: new Uint8Array(readFileSync(sharedDataPath(...parts))),
  }));
  let pages = 0;
  for (const p of pdfs) pages += (await rawPdfText(p.name, p.bytes)).pages; // warm-up: loads pdfjs
  for (const p of pdfs) await readDocumentBytes(p.bytes, { file: p.name, id: p.name });
  const cpu = { raw: [] as number[], full: [] as number[] };
  const load = loadAverage();
  const t = await interleaved(PASSES, {
    raw: () => withCpu(cpu.raw, () => Promise.all(pdfs.map((p) => rawPdfText(p.name, p.bytes)))),
    full: () =>
      withCpu(cpu.full, () =>
        Promise.all(pdfs.map((p) => readDocumentBytes(p.bytes, { file: p.name, id: p.name }))),
      ),
  });
  console.log(
    `${pdfs.length} PDFs, ${pages} pages, ${PASSES} interleaved passes (load ${load} before, ${loadAverage()} after)`,
  );
  console.log('| step | pages/s (wall, min) | ms (wall: min, median) | ms (CPU: min, median) |');
  console.log('|---|---:|---:|---:|');
  const row = (name: string, wall: Timing, used: Timing) =>
    console.log(
      `| ${name} | ${((pages / wall.min) * 1000).toFixed(1)} | ${wall.min.toFixed(0)}, ${wall.median.toFixed(0)} | ${used.min.toFixed(0)}, ${used.median.toFixed(0)} |`,
    );
  const [rawCpu, fullCpu] = [summarize(cpu.raw), summarize(cpu.full)];
  row('raw pdfjs getTextContent (reference)', t.raw!, rawCpu);
  row('full ingest → Document', t.full!, fullCpu);
  console.log(`full / raw, wall time: ${formatRatio(t.full!, t.raw!, { max: 1.3 })}`);
  console.log(`full / raw, CPU time: ${formatRatio(fullCpu, rawCpu, { max: 1.3 })}`);
}
