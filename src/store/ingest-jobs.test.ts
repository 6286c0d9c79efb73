import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDataPath } from '../testing/shared-data.js';
import { CorpusStore } from './corpus-store.js';
import { ingestPaths } from './ingest-files.js';

const root = mkdtempSync(join(tmpdir(), 'cg-ingest-jobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// The file itself, not its folder: a clone without ../shared finds it among the demo papers.
const pdf = sharedDataPath('papers', 'pdf', 'N18-3011.pdf');
const jats = sharedDataPath('papers', 'jats');

describe('ingest on a worker pool (--jobs)', () => {
  it.skipIf(!existsSync(pdf) || !existsSync(jats))(
    'stores the same corpus with 1 and 2 jobs, in file order, and records a bad file as failed',
    async () => {
      const papers = join(root, 'papers');
      mkdirSync(papers);
      // One real PDF (parsing is the slow part), the JATS files, five Markdown notes, one bad PDF.
      copyFileSync(pdf, join(papers, 'N18-3011.pdf'));
      const jatsFiles = readdirSync(jats);
      for (const f of jatsFiles) copyFileSync(join(jats, f), join(papers, f));
      for (let i = 0; i < 5; i++)
        writeFileSync(
          join(papers, `note${i}.md`),
          `# Note ${i}\n\n## Body\n\nText number ${i} about graphs.\n`,
        );
      writeFileSync(join(papers, 'broken.pdf'), '%PDF-1.4 this is not a PDF at all');
      const ingest = async (jobs: number) => {
        const store = CorpusStore.open(join(root, `corpus-${jobs}.sqlite`));
        try {
          const summary = await ingestPaths(store, [papers], undefined, { jobs });
          return {
            summary: summary.outcomes.map((o) => [o.file, o.status, o.status === 'failed' ? o.code : o.ids]),
            digests: [...store.digests()],
            order: store.ids(),
          };
        } finally {
          store.close();
        }
      };
      const one = await ingest(1);
      const three = await ingest(2);
      // the PDF, each JATS file (three with ../shared, fewer in the bundled copy) and the five notes
      expect(one.digests.length).toBeGreaterThanOrEqual(1 + jatsFiles.length + 5);
      expect(one.order).toEqual(three.order);
      expect(three.summary).toEqual(one.summary);
      expect(three.digests).toEqual(one.digests);
      const failed = three.summary.filter(([, status]) => status === 'failed');
      expect(failed).toHaveLength(1);
      expect(failed[0]?.[0]).toMatch(/broken\.pdf$/);
      expect(failed[0]?.[2]).toMatch(/^INGEST_|^PDF_|^FILE_/);
    },
    600_000,
  );
});
