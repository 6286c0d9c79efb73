/**
 * How often the strict quote matcher accepts a quote that is NOT verbatim: for 30 sentences of each
 * of 40 real QASPER papers, one random edit each — delete a word, insert a word of the paper,
 * substitute a word, swap two adjacent (different) words, change a digit — then match in strict mode.
 * Prints, per edit kind, how many edited quotes matched and which words the matched deletions removed
 * (expected: only skippable markers such as BIBREF/INLINEFORM placeholders and dashes) and by which
 * rule the other edits matched (a swap around a dash passes METHODS rule (c), by design). Baseline in
 * the same run: the unedited sentences (all must match).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { matchQuote, preparePaper } from '../src/text/index.js';

const PAPERS = 40;
const SENTENCES = 30;

export default async function quotePerturbationsBench(): Promise<void> {
  const dir = sharedDataPath('qasper-dev', 'papers');
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const counts = new Map<string, [number, number]>();
  const deleted = new Map<string, number>();
  const count = (kind: string, matched: boolean) => {
    const c = counts.get(kind) ?? [0, 0];
    counts.set(kind, [c[0] + (matched ? 1 : 0), c[1] + 1]);
  };
  for (const file of readdirSync(dir).sort().slice(0, PAPERS)) {
    const text = readFileSync(`${dir}/${file}`, 'utf8');
    const paper = preparePaper(text);
    const vocab = text.split(/\s+/).filter((w) => /^[a-z]{4,}$/.test(w));
    const sentences = text
      .split(/(?<=\.)\s+/)
      .filter((s) => s.length > 60 && s.length < 400 && !s.includes('#'))
      .slice(0, SENTENCES);
    for (const s of sentences) {
      count('unedited', matchQuote(paper, s, { mode: 'strict', nearest: false }).matched);
      const w = s.split(' ');
      const k = 1 + Math.floor(random() * (w.length - 2));
      const other = vocab[Math.floor(random() * vocab.length)]!;
      const edits: [string, string | null][] = [
        ['delete', [...w.slice(0, k), ...w.slice(k + 1)].join(' ')],
        ['insert', [...w.slice(0, k), other, ...w.slice(k)].join(' ')],
        ['substitute', w[k] === other ? null : w.map((x, i) => (i === k ? other : x)).join(' ')],
        [
          'swap',
          w[k]!.toLowerCase() === w[k + 1]?.toLowerCase()
            ? null
            : w.map((x, i) => (i === k ? w[k + 1]! : i === k + 1 ? w[k]! : x)).join(' '),
        ],
        ['digit', /\d/.test(s) ? s.replace(/\d/, (d) => String((Number(d) + 1) % 10)) : null],
      ];
      for (const [kind, quote] of edits) {
        if (quote === null) continue;
        const r = matchQuote(paper, quote, { mode: 'strict', nearest: false });
        count(kind, r.matched);
        if (r.matched && kind !== 'delete') count(`${kind} matched by ${r.rule}`, true);
        if (kind === 'delete' && r.matched) {
          const word = w[k]!.replace(/\d+$/, 'N');
          deleted.set(word, (deleted.get(word) ?? 0) + 1);
        }
      }
    }
  }
  console.log(`strict mode on ${PAPERS} QASPER papers x ${SENTENCES} sentences:`);
  for (const [kind, [matched, total]] of counts) {
    console.log(kind.includes(' by ') ? `    ${kind}: ${matched}` : `  ${kind}: ${matched}/${total} matched`);
  }
  console.log(
    `  words removed by the matched deletions: ${[...deleted].map(([w, n]) => `${w} ${n}`).join(', ')}`,
  );
}
