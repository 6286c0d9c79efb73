/**
 * `nuggets generate`: the DoGMaTiQ pipeline per request (METHODS §5 steps 1–3, 5), resumable per
 * document and per step. Everything a step finishes is logged in the folder's state file, after
 * the run's manifest (see `step-log.ts`); a request's files are written (atomically) once all its
 * steps completed without a failed call, from the logs (so a resumed run writes the same bytes;
 * a file already holding other bytes was changed since, and is kept: `RequestOutcome.kept`):
 *
 *   <out>/nuggets_<request>.v3.json                         the nugget bank (v3)
 *   <out>/merged/nuggets_<request>.v3.json                  after paraphrase clustering
 *   <out>/potentially_unanswerable/nuggets_<request>.v3.json  nuggets whose answers were all dropped
 *   <out>/judgments/paraphrase_judgments.json               every verified candidate pair
 *   <out>/judgments/answer_judgments.json                   every answer-validation verdict
 *
 * so that `<out>` holds only banks (and `generate.meta.json`, the run's manifest) and can be passed
 * to `reports judge`.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  addNuggets,
  createNuggetBank,
  type NuggetBank,
  type NuggetQuestion,
  nuggetBankFileName,
  nuggetBankText,
  type ReportRequest,
} from '../../formats/index.js';
import { readJsonFile, writeFileAtomic } from '../../io/index.js';
import { stringifyPythonJson } from '../../python-compat/index.js';
import { type AnswerVerdict, applyVerdict, cleanAnswers, judgeAnswers } from './answer-validation.js';
import { type DocumentQa, groundedQa, type NuggetDocument, requestPromptText } from './grounded-qa.js';
import type { CallOutcome } from './llm-step.js';
import { type PlannedCall, plannedLaterCalls } from './nugget-plan.js';
import {
  type CanonicalChoice,
  type MergeStats,
  mergeParaphrases,
  type ParaphraseJudgment,
} from './paraphrase-merge.js';
import type { PipelineOptions, RequestInput, StepProgress } from './pipeline-options.js';
import { type StepLog, stepKey } from './step-log.js';

export type { PipelineOptions, RequestInput, StepProgress } from './pipeline-options.js';

export interface RequestOutcome {
  requestId: string;
  /** The step that stopped on failed calls (rerun to retry), or null when the bank was written. */
  blockedAt: 'qa' | 'paraphrases' | 'answers' | null;
  failures: string[];
  documents: number;
  documentsMalformed: number;
  merge?: MergeStats;
  nuggets?: number;
  unanswerable?: number;
  droppedByModel?: number;
  bank?: string;
  /**
   * Files of the request kept as they are: they hold other bytes than this run writes (under one
   * manifest a request's files are the same on every run), so something changed them since — a
   * bank scored in place by `score-quality`, an edit — and rewriting them would drop that.
   */
  kept?: string[];
}

function noProgress(): StepProgress {
  return { tick() {}, stop() {} };
}

export class NuggetPipeline {
  private readonly qaLog: StepLog<DocumentQa>;
  private readonly pairsLog: StepLog<ParaphraseJudgment>;
  private readonly canonicalLog: StepLog<CanonicalChoice>;
  private readonly answersLog: StepLog<AnswerVerdict>;
  /** Summary calls by document (a document of several requests is summarised once). */
  private readonly summaries = new Map<string, Promise<CallOutcome>>();
  /** This run's judgments per request that reached step 2 (and 3). */
  private readonly judged = new Map<string, { pairs: ParaphraseJudgment[]; answers: AnswerVerdict[] }>();

  constructor(private readonly options: PipelineOptions) {
    const { state } = options;
    this.qaLog = state.log('qa', (r) => stepKey(r.request_id, r.doc_id));
    this.pairsLog = state.log('pairs', (r) => stepKey(r.request_id, r.q1, r.q2));
    this.canonicalLog = state.log('canonical', (r) => stepKey(r.request_id, ...r.questions));
    this.answersLog = state.log('answers', (r) => stepKey(r.request_id, r.question, ...r.answers));
  }

  /** A progress reporter, or none for a step with nothing to do (no "0/0 done" lines). */
  private bar(label: string, total: number, unit: string): StepProgress {
    return total > 0 && this.options.progress ? this.options.progress(label, total, unit) : noProgress();
  }

  /** Documents whose step 1 is not logged yet (what a run would start with). */
  pendingDocuments(inputs: readonly RequestInput[]): { input: RequestInput; doc: NuggetDocument }[] {
    return inputs.flatMap((input) =>
      input.docs
        .filter((doc) => !this.qaLog.get(stepKey(input.request.id, doc.id)))
        .map((doc) => ({ input, doc })),
    );
  }

  /** For `--dry-run`: the calls of steps 2–3 still to make (see `plannedLaterCalls`). */
  async plannedLaterCalls(
    inputs: readonly RequestInput[],
  ): Promise<{ requests: number; calls: PlannedCall[] }> {
    return plannedLaterCalls(inputs, {
      options: this.options,
      qa: (id, docId) => this.qaLog.get(stepKey(id, docId)),
      verified: (id, q1, q2) => this.pairsLog.get(stepKey(id, q1, q2)) !== undefined,
      written: (request) =>
        existsSync(join(this.options.outDir, nuggetBankFileName(this.emptyBank(request)))),
    });
  }

  /** Runs every request: step 1 for all documents first, then steps 2–3 request by request. */
  async run(inputs: readonly RequestInput[]): Promise<RequestOutcome[]> {
    const outcomes = new Map<string, RequestOutcome>(
      inputs.map((i) => [
        i.request.id,
        {
          requestId: i.request.id,
          blockedAt: null,
          failures: [],
          documents: i.docs.length,
          documentsMalformed: 0,
        },
      ]),
    );
    await this.groundedQa(inputs, outcomes);
    for (const input of inputs) {
      const outcome = outcomes.get(input.request.id)!;
      if (outcome.blockedAt === null) await this.finishRequest(input, outcome);
    }
    this.writeJudgments();
    return [...outcomes.values()];
  }

  private async groundedQa(inputs: readonly RequestInput[], outcomes: Map<string, RequestOutcome>) {
    const todo = this.pendingDocuments(inputs);
    const progress = this.bar('grounded QA', todo.length, 'documents');
    try {
      await Promise.all(
        todo.map(async ({ input, doc }) => {
          const id = input.request.id;
          const result = await groundedQa(
            this.options.llm,
            id,
            requestPromptText(input.request),
            doc,
            this.summaries,
          );
          if (!result.ok) {
            const outcome = outcomes.get(id)!;
            outcome.blockedAt = 'qa';
            outcome.failures.push(`document ${doc.id}: ${result.reason}`);
            progress.tick({ ok: false, problem: `${id}/${doc.id}: ${result.reason}` });
            return;
          }
          const record = result.record;
          if (this.options.locate) {
            record.qa_pairs = record.qa_pairs.map((p) => {
              const at = this.options.locate!(doc, p);
              return at ? { ...p, doc_id: at } : p;
            });
          }
          this.qaLog.put(record);
          progress.tick({ ok: true, note: `${id}/${doc.id}` });
        }),
      );
    } finally {
      progress.stop();
    }
  }

  private async finishRequest(input: RequestInput, outcome: RequestOutcome): Promise<void> {
    const id = input.request.id;
    const docs = input.docs.map((d) => this.qaLog.get(stepKey(id, d.id))!);
    outcome.documentsMalformed = docs.filter((d) => d.status !== 'ok').length;
    const onCall = (bar: StepProgress) => (o: CallOutcome) =>
      bar.tick({ ok: o.ok, ...(o.ok ? {} : { problem: `${id}: ${o.reason}` }) });
    let bar: StepProgress | null = null;
    const done = () => {
      bar?.stop();
      bar = null;
    };
    let merged: Awaited<ReturnType<typeof mergeParaphrases>>;
    try {
      merged = await mergeParaphrases(
        {
          requestId: id,
          requestText: requestPromptText(input.request),
          llm: this.options.llm,
          embed: this.options.embed,
          threshold: this.options.threshold ?? 0.9,
          filterEnglish: this.options.filterEnglish ?? true,
          ...(this.options.exactLimit === undefined ? {} : { exactLimit: this.options.exactLimit }),
          creator: this.options.creator,
          pairsLog: this.pairsLog,
          canonicalLog: this.canonicalLog,
          progress: (label, total, unit) => {
            done();
            const made = this.bar(label, total, unit);
            bar = made;
            return onCall(made);
          },
          done,
        },
        docs,
      );
    } finally {
      done();
    }
    if (!merged.ok) {
      outcome.blockedAt = 'paraphrases';
      outcome.failures.push(...merged.reasons);
      return;
    }
    outcome.merge = merged.stats;
    this.judged.set(id, { pairs: merged.judgments, answers: [] });
    const bankOf = (nuggets: NuggetQuestion[]) => {
      const bank = this.emptyBank(input.request);
      if (nuggets.length > 0) addNuggets(bank, nuggets);
      return bank;
    };
    const kept: string[] = [];
    const write = (relative: string, bank: NuggetBank) => {
      if (!this.write(relative, bank)) kept.push(relative);
    };
    write(join('merged', nuggetBankFileName(bankOf([]))), bankOf(merged.nuggets));
    const cleaned = merged.nuggets.map((n) => cleanAnswers(n).nugget);
    const answered = cleaned.filter((n) => Object.keys(n.answers ?? {}).length > 0);
    const unanswered = cleaned.filter((n) => Object.keys(n.answers ?? {}).length === 0);
    const answersBar = this.bar(`answers ${id}`, answered.length, 'nuggets');
    const failures: string[] = [];
    let verdicts: (AnswerVerdict | null)[];
    try {
      verdicts = await Promise.all(
        answered.map(async (n) => {
          const r = await judgeAnswers(
            { requestId: id, llm: this.options.llm, log: this.answersLog, onCall: onCall(answersBar) },
            n,
          );
          if ('failed' in r) failures.push(r.failed);
          return 'verdict' in r ? r.verdict : null;
        }),
      );
    } finally {
      answersBar.stop();
    }
    if (failures.length > 0) {
      outcome.blockedAt = 'answers';
      outcome.failures.push(...failures);
      return;
    }
    this.judged.get(id)!.answers = verdicts as AnswerVerdict[];
    const final = answered
      .map((n, k) => applyVerdict(n, verdicts[k]!))
      .filter((n): n is NuggetQuestion => n !== null);
    const name = nuggetBankFileName(bankOf([]));
    write(name, bankOf(final));
    const sidePath = join('potentially_unanswerable', name);
    if (unanswered.length > 0) write(sidePath, bankOf(unanswered));
    else rmSync(join(this.options.outDir, sidePath), { force: true });
    Object.assign(outcome, {
      nuggets: final.length,
      unanswerable: unanswered.length,
      droppedByModel: answered.length - final.length,
      bank: join(this.options.outDir, name),
      ...(kept.length > 0 ? { kept } : {}),
    });
  }

  /** A request's bank before nuggets: the released step 2's fields, with the request's title. */
  private emptyBank(request: ReportRequest): NuggetBank {
    const full: Record<string, string> = {};
    if (request.title) full.title = request.title;
    if (request.background) full.background = request.background;
    if (request.problemStatement) full.problem_statement = request.problemStatement;
    return createNuggetBank({
      query_id: request.id,
      title_query: request.title ?? request.id,
      ...(Object.keys(full).length > 0 ? { full_query: full } : {}),
      creator: [this.options.creator],
    });
  }

  /** Writes one of a request's files, unless it holds other bytes already (false: kept, see `kept`). */
  private write(relative: string, bank: NuggetBank): boolean {
    const path = join(this.options.outDir, relative);
    const text = nuggetBankText(bank);
    if (existsSync(path)) return readFileSync(path, 'utf8') === text;
    writeFileAtomic(path, text);
    return true;
  }

  /** This run's judgments per request, merged into the files on disk (other requests kept). */
  private writeJudgments(): void {
    const write = (name: string, pick: (j: { pairs: unknown[]; answers: unknown[] }) => unknown[]) => {
      const path = join(this.options.outDir, 'judgments', name);
      const all = (existsSync(path) ? readJsonFile(path, 'judgments file', { output: true }) : {}) as Record<
        string,
        unknown[]
      >;
      for (const [id, judged] of this.judged) all[id] = pick(judged);
      writeFileAtomic(path, `${stringifyPythonJson(all, { indent: 2, ensureAscii: false })}\n`);
    };
    write('paraphrase_judgments.json', (j) => j.pairs);
    write('answer_judgments.json', (j) => j.answers);
  }
}
