/**
 * Measures the strict quote matcher on real PDFs (issue 3 acceptance): the sentences of the
 * independent S2ORC parses in `../shared/data/papers/gold/` are gold quotes; each must be located
 * in the text citegeist extracts from the same PDF, and the same sentences with two adjacent words
 * swapped must not be.
 *
 *   npx tsx scripts/measure-quote-matching.ts [--misses N] [--json] [--raw]
 *
 * `--raw` measures the same on pdfjs's raw text (getTextContent items joined, no layout analysis)
 * for comparison. citegeist's text is matched with its recorded markers skippable, as the
 * `quote` command does.
 *
 * The gold filter, the sentence splitter and the miss causes are defined in `gold-quotes.ts`
 * beside this script.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rawPdfText, readDocumentFile } from '../src/ingest/index.js';
import { sharedDataPath } from '../src/testing/shared-data.js';
import { measurePaper, type PaperMeasurement, renderTable } from './gold-quotes.js';

const PAPERS = ['N18-3011', '2020.acl-main.207'];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const showMisses = Number(args[args.indexOf('--misses') + 1] ?? 0) || 0;
  const results: PaperMeasurement[] = [];
  for (const id of PAPERS) {
    const pdf = sharedDataPath('papers', 'pdf', `${id}.pdf`);
    const gold = JSON.parse(readFileSync(sharedDataPath('papers', 'gold', `${id}.s2orc.json`), 'utf8'));
    let text: string;
    let markers: { start: number; end: number }[] = [];
    if (args.includes('--raw')) {
      text = (await rawPdfText(pdf, new Uint8Array(readFileSync(pdf)))).text;
    } else {
      const [doc] = await readDocumentFile(pdf);
      if (!doc) throw new Error(`no document from ${join('papers', 'pdf', `${id}.pdf`)}`);
      text = doc.text;
      markers = doc.markers;
    }
    results.push(measurePaper(id, text, gold, { allCandidates: true, skippable: markers }));
  }
  if (args.includes('--json')) {
    console.log(JSON.stringify(results, (k, v) => (k === 'missed' ? undefined : v), 2));
  } else {
    console.log(renderTable(results));
  }
  if (showMisses > 0) {
    for (const r of results) {
      console.log(`\n## misses in ${r.paper}`);
      for (const m of r.missed.slice(0, showMisses)) {
        console.log(`- [${m.cause}] ${m.sentence}\n    nearest: ${m.nearest}`);
      }
    }
  }
}

await main();
