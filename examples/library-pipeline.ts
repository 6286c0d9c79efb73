/**
 * The whole pipeline on the bundled demo papers through citegeist's public API alone (docs/library.md
 * shows this file verbatim; `src/library-guide.test.ts` runs it). Usage: `npx tsx examples/library-pipeline.ts [out-dir]`.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  answerManifest,
  CorpusStore,
  corpusDocuments,
  createProvider,
  DEFAULT_HARM_EXPONENT,
  ExtractiveAnswerer,
  ExtractiveReportWriter,
  formatTrecEval,
  gradeFaithfulness,
  gradeRunToFile,
  gradesManifest,
  indexCorpus,
  indexDirFor,
  ingestPaths,
  judgeIntoFile,
  LexicalJudge,
  type LlmProvider,
  loadHarmRubric,
  openJudgments,
  openReportRun,
  openRetriever,
  PaperContext,
  papersInput,
  parseQrels,
  parseReportRun,
  parseRequests,
  parseRun,
  prepareJudging,
  readDatasetStrict,
  readFaithfulnessInputs,
  readNuggetBanks,
  reportJudgmentsManifest,
  reportRunManifest,
  runAnswers,
  scoreInputs,
  sha256OfFile,
  summarizeFaithfulness,
  trecEval,
  VERSION,
  writeReportRun,
} from 'citegeist';

const ARGUE_SHOWN = ['nugget_coverage_macro', 'citation_support_macro', 'f1_macro'];

/**
 * `judge`: the model for VETSCORE's judges (step 7), which needs one; without it that step is
 * skipped. Every other step runs offline.
 */
export async function runPipeline(out: string, judge?: LlmProvider): Promise<Record<string, unknown>> {
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

  // 7. Faithfulness (VETSCORE): each cited claim of each answer checked against its excerpts by
  // the judge model, weighted by the harm it could do. A judge that fails gives "failed", never 0.
  let faithfulness: unknown = 'skipped: no judge model given';
  if (judge) {
    const { inputs } = readFaithfulnessInputs(readFileSync(runPath, 'utf8'));
    const settings = {
      decomposer: judge,
      verifier: judge,
      harmJudge: judge,
      p: DEFAULT_HARM_EXPONENT,
      mode: 'separate' as const,
      repeats: 1,
      rubric: loadHarmRubric('generic').text,
      call: {},
    };
    const grades = await Promise.all(inputs.map((input) => gradeFaithfulness(input, settings)));
    faithfulness = summarizeFaithfulness(grades);
  }

  // 8. Reports: a cited report per bundled request (the extractive writer, over BM25), judged the
  // ARGUE way by the offline lexical judge against the bundled nugget banks, and scored.
  const requestsPath = join(demo, 'reports', 'requests.jsonl');
  const requests = [...parseRequests(readFileSync(requestsPath, 'utf8'), requestsPath).values()];
  const writer = new ExtractiveReportWriter({
    retriever: opened.retriever,
    passages: opened.passages,
    k: 20,
  });
  const reportRunPath = join(out, 'reports-run.jsonl');
  const reportRun = openReportRun(
    reportRunPath,
    reportRunManifest({
      runId: 'library-extractive',
      teamId: 'citegeist',
      writer: writer.id,
      retrieval: opened.retriever.id,
      k: 20,
      indexCreated: index.manifest.createdAt,
      defaultLimit: 2000,
      lengthMode: 'characters',
      requests: requestsPath,
      version: VERSION,
    }),
    'library-pipeline',
  );
  const written = await writeReportRun({
    file: reportRun,
    requests,
    writer,
    teamId: 'citegeist',
    lengthMode: 'characters',
  }).finally(() => reportRun.close());

  const banks = readNuggetBanks(join(demo, 'reports', 'nuggets'));
  const reports = parseReportRun(readFileSync(reportRunPath, 'utf8'), reportRunPath).reports;
  const prepared = prepareJudging(reports, new Map(requests.map((r) => [r.id, r])), banks, {
    lengthMode: 'characters',
  });
  const judgmentsPath = join(out, 'reports-judgments.jsonl');
  const reportJudge = new LexicalJudge();
  const judgments = openJudgments(
    judgmentsPath,
    reportJudgmentsManifest({
      judge: reportJudge.id,
      nuggets: 'demo nuggets',
      requests: requestsPath,
      docs: corpusPath,
      limit: null,
      lengthMode: 'characters',
      maxDocChars: null,
      trustUnlocatedEvidence: false,
      version: VERSION,
    }),
  );
  const judged = await judgeIntoFile(
    judgments,
    prepared.inputs,
    { judge: reportJudge, docs: corpusDocuments(corpus, indexDir), version: VERSION },
    { concurrency: 1 },
  );
  const scored = scoreInputs({
    judgments: [{ file: judgmentsPath, text: readFileSync(judgmentsPath, 'utf8') }],
    banks,
  });
  corpus.close();

  return {
    ingested: ingested.ingested,
    indexed: index.manifest.passages,
    top_hit: hits[0]?.docId,
    answered: run.answered,
    graded: graded.rows,
    trec_eval: Object.fromEntries(evaluation.summary.map((v) => [v.name, v.value])),
    faithfulness,
    reports: {
      written: written.written,
      judged: judged.judged,
      scored_topics: scored.runs.reduce((n, r) => n + r.topics.length, 0),
    },
    // Three of the run's Auto-ARGUE figures over all its topics (`scored.rows` holds every one).
    argue: Object.fromEntries(
      scored.rows
        .filter((r) => r.requestId === 'all' && ARGUE_SHOWN.includes(r.metric))
        .map((r) => [r.metric, r.value]),
    ),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'citegeist-library-'));
  // e.g. CITEGEIST_JUDGE=openai:gpt-4.1-mini (with OPENAI_API_KEY) to run step 7 against a model.
  const model = process.env.CITEGEIST_JUDGE;
  const judge = model ? createProvider(model, { env: process.env }) : undefined;
  console.log(JSON.stringify(await runPipeline(out, judge), null, 2));
}
