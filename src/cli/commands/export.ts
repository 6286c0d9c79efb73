import { resolve } from 'node:path';
import {
  AppendFile,
  assertIndexFresh,
  EXPORT_FORMATS,
  exportPassages,
  loadIndex,
  parseExportFormat,
} from '../../retrieve/index.js';
import type { RegisterCommand } from '../context.js';
import { CORPUS_OPTION, corpusPath, displayPath, openCorpus } from '../corpus-option.js';
import { indexDirOf } from '../setup/retrieval-options.js';

interface ExportFlags {
  format: string;
  out?: string;
  corpus?: string;
  indexName: string;
}

export const registerExport: RegisterCommand = (program, ctx) => {
  const exp = program.command('export').description('write corpus data for other engines');
  exp
    .command('passages')
    .description(
      'write the indexed passages (same ids and text as citegeist retrieves, with paper id, title, section and page) for Lucene/Pyserini, OpenSearch/Elasticsearch or any engine',
    )
    .option('--format <format>', `${EXPORT_FORMATS.join(', ')}`, 'jsonl')
    .option('--out <file>', 'write here instead of stdout')
    .option('--index-name <name>', 'the index named in opensearch-bulk action lines', 'citegeist-passages')
    .option(...CORPUS_OPTION)
    .action((flags: ExportFlags) => {
      const format = parseExportFormat(flags.format);
      const dir = indexDirOf(ctx, flags.corpus);
      const saved = loadIndex(dir);
      const store = openCorpus(corpusPath(ctx, flags.corpus));
      try {
        assertIndexFresh(dir, saved.manifest, store);
      } finally {
        store.close();
      }
      const options = { index: flags.indexName };
      if (!flags.out) {
        exportPassages(saved.passages.values(), format, (s) => ctx.io.out(s), options);
        return;
      }
      const path = resolve(ctx.io.cwd, flags.out);
      const file = new AppendFile(path);
      const n = exportPassages(saved.passages.values(), format, (s) => file.writeString(s), options);
      file.close();
      ctx.io.err(`exported ${n} passages (${format}) to ${displayPath(ctx, path)}\n`);
    });
};
