/**
 * Bounded work (issue 12, item 10): ingest time of the inputs that used to grow with the square of
 * their size — Markdown with many headings, a paragraph of many hyphen-broken lines, a QASPER paper
 * with many sections — at n and 4n. Linear work gives a ratio near 4 (quadratic gave 16 and more:
 * 40,000 headings took 32 s, 100,000 never finished). Min and median of interleaved passes, with the
 * load average, since this machine is shared.
 */
import { loadavg } from 'node:os';
import { readDocumentBytes } from '../src/ingest/index.js';
import { pathologicalInputs } from '../src/testing/pathological-inputs.js';

const PASSES = 3;
const N = 25_000;
const encode = (s: string) => new TextEncoder().encode(s);

export default async function bench(): Promise<void> {
  const cases = [
    { name: 'Markdown headings', file: 'h.md', make: pathologicalInputs.headings },
    { name: 'hyphenated line breaks', file: 'hy.md', make: pathologicalInputs.hyphenBreaks },
    { name: 'QASPER sections', file: 'q.json', make: pathologicalInputs.qasperSections },
  ];
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; n = ${N}, ${PASSES} interleaved passes`,
  );
  console.log('| input | n: min / median ms | 4n: min / median ms | ratio of medians (linear ≈ 4) |');
  console.log('|---|---:|---:|---:|');
  for (const c of cases) {
    const small = encode(c.make(N));
    const large = encode(c.make(4 * N));
    const times: { small: number[]; large: number[] } = { small: [], large: [] };
    for (let p = 0; p < PASSES; p++) {
      for (const [key, bytes] of [
        ['small', small],
        ['large', large],
      ] as const) {
        const t = performance.now();
        await readDocumentBytes(bytes, { file: c.file, id: 'p1' });
        times[key].push(performance.now() - t);
      }
    }
    const stat = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { min: s[0]!, median: s[Math.floor(s.length / 2)]! };
    };
    const a = stat(times.small);
    const b = stat(times.large);
    console.log(
      `| ${c.name} | ${a.min.toFixed(0)} / ${a.median.toFixed(0)} | ${b.min.toFixed(0)} / ${b.median.toFixed(0)} | ${(b.median / a.median).toFixed(2)} |`,
    );
  }
}
