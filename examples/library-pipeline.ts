/**
 * The whole pipeline on the bundled demo papers through citegeist's public API alone (docs/library.md
 * shows this file verbatim; `src/library-guide.test.ts` runs it). Usage: `npx tsx examples/library-pipeline.ts [out-dir]`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  answerManifest,
  CorpusStore,
  ExtractiveAnswerer,
  formatTrecEval,
  gradeRunToFile,
  gradesManifest,
  indexCorpus,
  indexDirFor,
  ingestPaths,
  openRetriever,
  PaperContext,
  papersInput,
  parseQrels,
  parseRun,
  readDatasetStrict,
  runAnswers,
  sha256OfFile,
  trecEval,
  VERSION,
} from 'citegeist';

export async function runPipeline(out: string): Promise<Record<string, unknown>> {
  const demo = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets', 'demo');
  mkdirSync(out, { recursive: true });

  // 1. Ingest the three demo papers (two PDFs, one JATS) into a new corpus.
  const corpusPath = join(out, 'corpus.sqlite');
  const corpus = CorpusStore.open(corpusPath);
  const ingested = await ingestPaths(corpus, [join(demo, 'papers')]);

  // 2. Index it (BM25 only here; `embedder: 'default'` adds the embedded LSA vectors).
  const indexDir = indexDirFor(corpusPath);
  const index = await indexCorpus(corpus, indexDir, { embedder: null });

  // 3. Search it.
  const opened = await openRetriever({ indexDir, corpus, mode: 'bm25' });
  const hits = await opened.retriever.retrieve('literature graph of scientific papers', 3);

  // 4. Answer the demo questions with the extractive baseline (no model), as a resumable run file.
  const datasetPath = join(demo, 'dataset.jsonl');
  const rows = readDatasetStrict(datasetPath);
  const texts = new Map(rows.map((r) => [r.paper_id, corpus.get(r.paper_id)?.text ?? null]));
  const dataset = { sha256: sha256OfFile(datasetPath).sha256, path: datasetPath, rows: rows.length };
  const papers = papersInput(texts, 'corpus');
  const answerer = new ExtractiveAnswerer();
  const runPath = join(out, 'run.jsonl');
  const run = await runAnswers(
    rows,
    answerer,
    async (paperId) => {
      const doc = corpus.get(paperId);
      return doc ? new PaperContext(doc) : null;
    },
    { path: runPath, manifest: answerManifest({ answerer, dataset, papers, version: VERSION }) },
  );

  // 5. Grade the run with the ResearchQA metrics (no judge: the deterministic metrics only).
  const settings = { match: 'researchqa', quoteMode: 'researchqa', judge: null };
  const graded = await gradeRunToFile(rows, run.rows, (id) => texts.get(id) ?? null, {
    path: join(out, 'grades.jsonl'),
    manifest: gradesManifest({
      runLabel: run.manifest.label,
      settings,
      dataset,
      papers,
      run: { sha256: sha256OfFile(runPath).sha256, path: runPath },
      version: VERSION,
    }),
  });

  // 6. trec_eval: retrieve for each question, judged by the paper it was asked about.
  const runLines: string[] = [];
  const qrelLines: string[] = [];
  for (const row of rows) {
    const ranked = await opened.retriever.retrieve(row.question, 10);
    ranked.forEach((hit, i) => {
      runLines.push(`${row.row_id} Q0 ${hit.id} ${i + 1} ${hit.score} ${opened.retriever.id}`);
    });
    for (const passage of opened.passages.values()) {
      if (passage.docId === row.paper_id) qrelLines.push(`${row.row_id} 0 ${passage.id} 1`);
    }
  }
  const evaluation = trecEval(parseQrels(qrelLines.join('\n')), parseRun(runLines.join('\n')), {
    measures: ['map', 'ndcg_cut.10', 'recall.10'],
  });
  writeFileSync(join(out, 'trec-eval.txt'), formatTrecEval(evaluation));
  corpus.close();

  return {
    ingested: ingested.ingested,
    indexed: index.manifest.passages,
    top_hit: hits[0]?.docId,
    answered: run.answered,
    graded: graded.rows,
    trec_eval: Object.fromEntries(evaluation.summary.map((v) => [v.name, v.value])),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'citegeist-library-'));
  console.log(JSON.stringify(await runPipeline(out), null, 2));
}
