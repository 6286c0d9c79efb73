/**
 * Checks that every evidence alternative of the bundled demo dataset is found verbatim (strict
 * quote matcher) in its ingested paper, in the section its group names. Run after editing
 * assets/demo/dataset.jsonl: `npx tsx scripts/verify-demo-dataset.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sectionAt, sectionLabelMatches } from '../src/core/index.js';
import { readDocumentFile } from '../src/ingest/index.js';
import { matchQuote, preparePaper } from '../src/text/index.js';

const assets = join(import.meta.dirname, '..', 'assets', 'demo');
const files: Record<string, string> = {
  'N18-3011': 'N18-3011.pdf',
  '2020.acl-main.207': '2020.acl-main.207.pdf',
  PMC6398430: 'PMC6398430.nxml',
};
/** Every evidence alternative of the demo dataset, with whether it was found in its section. */
export async function verifyDemoDataset(): Promise<{ ok: boolean; rowId: string; line: string }[]> {
  const results: { ok: boolean; rowId: string; line: string }[] = [];
  for (const line of readFileSync(join(assets, 'dataset.jsonl'), 'utf8').trim().split('\n')) {
    const row = JSON.parse(line) as {
      row_id: string;
      paper_id: string;
      expected_references: { section_label: string; alternatives: string[] }[];
    };
    const [doc] = await readDocumentFile(join(assets, 'papers', files[row.paper_id] ?? ''), row.paper_id);
    if (!doc) throw new Error(`no document for ${row.paper_id}`);
    const paper = preparePaper(doc.text, { skippable: doc.markers });
    for (const group of row.expected_references) {
      for (const quote of group.alternatives) {
        const m = matchQuote(paper, quote, { mode: 'strict' });
        const section = m.spans[0] ? sectionAt(doc, m.spans[0].start) : undefined;
        const ok =
          m.matched && section !== undefined && sectionLabelMatches(group.section_label, section.path);
        results.push({
          ok,
          rowId: row.row_id,
          line: `${ok ? 'ok  ' : 'FAIL'} ${row.row_id} [${m.rule}] ${section?.heading ?? '-'} :: ${quote.slice(0, 60)}`,
        });
      }
    }
  }
  return results;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const results = await verifyDemoDataset();
  for (const r of results) console.log(r.line);
  const failures = results.filter((r) => !r.ok).length;
  console.log(failures === 0 ? 'every evidence quote verified' : `${failures} evidence quote(s) failed`);
  process.exitCode = failures === 0 ? 0 : 1;
}
