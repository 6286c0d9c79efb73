/**
 * Step 2, paraphrase clustering (METHODS §5 step 2; manestay/dogmatiq
 * `step2_merge_paraphrases.py`, `process_request`):
 *
 * 1. QA pairs in document order, optionally only English ones; a question seen again gains the
 *    document (once) and the answer (same text: references concatenated), `update_questions`;
 * 2. candidate pairs by cosine ≥ threshold between question embeddings (`candidate-pairs.ts`),
 *    each verified by the model; single-link clusters of the verified pairs;
 * 3. per cluster of two or more, the model picks the canonical question (1-based index; an index
 *    Python's `int()` cannot read → the first, `get_canonical`); a singleton's explanation is "N/A";
 * 4. the merged nugget: answers of every member merged by text, `paraphrases` and
 *    `paraphrase_references` per member, `num_paraphrases_unique` (members),
 *    `num_paraphrases_total` (documents summed over members), `num_answers`; nuggets sorted by
 *    `num_paraphrases_total`, descending, stable.
 *
 * An index past the list (the released code stops with IndexError) also falls back to the first.
 */
import { type Answer, type Creator, type NuggetQuestion, nuggetQuestion } from '../../formats/index.js';
import { extractJson, type LlmProvider } from '../../llm/index.js';
import { pythonInt, pythonPosition, stringifyPythonJson } from '../../python-compat/index.js';
import { type CandidatePair, candidatePairs } from './candidate-pairs.js';
import { isEnglish } from './english-filter.js';
import type { DocumentQa } from './grounded-qa.js';
import { type CallOutcome, callText, looksRefused } from './llm-step.js';
import { CanonicalReplySchema, canonicalPrompt } from './prompts/canonical-prompt.js';
import { ParaphraseReplySchema, paraphrasePrompt } from './prompts/paraphrase-prompt.js';
import { type StepLog, stepKey } from './step-log.js';
import { singleLinkClusters } from './union-find.js';

/** One verified candidate pair (a line of `pairs.jsonl` and of the paraphrase judgments). */
export interface ParaphraseJudgment {
  request_id: string;
  q1: string;
  q2: string;
  similarity: number;
  /** YES: the same information need; NO; null when the reply could not be read. */
  paraphrase: 'YES' | 'NO' | null;
  status: 'ok' | 'unparsable' | 'refused';
  explanation?: string;
  raw?: string;
}

/** The canonical question of a cluster (a line of `canonical.jsonl`). */
export interface CanonicalChoice {
  request_id: string;
  questions: string[];
  /** 0-based position of the chosen question. */
  chosen: number;
  explanation: string;
  status: 'ok' | 'defaulted';
  raw?: string;
}

interface Question {
  text: string;
  answers: Map<string, Answer>;
  docIds: string[];
}

export interface MergeStats {
  qa_pairs: number;
  non_english_skipped: number;
  unique_questions: number;
  candidate_pairs: number;
  candidate_method: 'exact' | 'ann';
  verified_pairs: number;
  unparsable_pairs: number;
  clusters: number;
  multi_clusters: number;
  canonical_defaulted: number;
}

export interface MergeContext {
  requestId: string;
  /** The request as the prompts carry it (`background\nproblem_statement`). */
  requestText: string;
  llm: LlmProvider;
  embed: (texts: string[]) => Promise<Float32Array[]>;
  threshold: number;
  filterEnglish: boolean;
  exactLimit?: number;
  creator: Creator;
  pairsLog: StepLog<ParaphraseJudgment>;
  canonicalLog: StepLog<CanonicalChoice>;
  /** Reports each model call of a sub-step (`total`: the calls still to make). */
  progress?: (label: string, total: number, unit: string) => (outcome: CallOutcome) => void;
  /** Closes the sub-step's progress. */
  done?: () => void;
}

export type MergeResult =
  | { ok: true; nuggets: NuggetQuestion[]; judgments: ParaphraseJudgment[]; stats: MergeStats }
  | { ok: false; failed: number; reasons: string[] };

/** `Question.update_questions` over the request's documents. */
export function collectQuestions(
  docs: readonly DocumentQa[],
  filterEnglish: boolean,
): { questions: Question[]; pairs: number; skipped: number } {
  const byText = new Map<string, Question>();
  let pairs = 0;
  let skipped = 0;
  for (const doc of docs) {
    for (const { question, answer, doc_id: located } of doc.qa_pairs) {
      const docId = located ?? doc.doc_id;
      if (filterEnglish && (!isEnglish(question) || !isEnglish(answer))) {
        skipped++;
        continue;
      }
      pairs++;
      const fresh: Answer = { answer, references: [{ doc_id: docId }] };
      const q = byText.get(question);
      if (!q) {
        byText.set(question, { text: question, answers: new Map([[answer, fresh]]), docIds: [docId] });
        continue;
      }
      if (!q.docIds.includes(docId)) q.docIds.push(docId);
      const old = q.answers.get(answer);
      // `merge_answers`: references concatenated, metadata cleared.
      q.answers.set(
        answer,
        old ? { answer, references: [...(old.references ?? []), { doc_id: docId }] } : fresh,
      );
    }
  }
  return { questions: [...byText.values()], pairs, skipped };
}

/** Reads a paraphrase verdict: JSON `{"paraphrase": "YES"|"NO"}`, or a reply that starts with YES/NO. */
export function parseParaphrase(text: string): { paraphrase: 'YES' | 'NO'; explanation?: string } | null {
  const found = extractJson(text);
  const parsed = found ? ParaphraseReplySchema.safeParse(found.value) : null;
  const word = (parsed?.success ? parsed.data.paraphrase : text).trim().toUpperCase();
  const verdict = word.startsWith('YES') ? 'YES' : word.startsWith('NO') ? 'NO' : null;
  if (!verdict) return null;
  const explanation = parsed?.success ? parsed.data.explanation : undefined;
  return explanation === undefined ? { paraphrase: verdict } : { paraphrase: verdict, explanation };
}

/** Reads the canonical choice as the released code does (see the module note). */
export function parseCanonical(
  text: string,
  questions: readonly string[],
): { chosen: number; explanation: string; defaulted: boolean } {
  const found = extractJson(text);
  const parsed = found ? CanonicalReplySchema.safeParse(found.value) : null;
  const reply = parsed?.success ? parsed.data : {};
  // Python's str() of a reply value, as the release's f-string writes it (a missing one is None).
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? 'None' : stringifyPythonJson(v));
  const index = pythonInt(reply.index);
  const chosen = index === null ? null : pythonPosition(questions.length, index - 1);
  // The release stores the reply's explanation even when it defaulted (its warning is only
  // printed); without one it stops with KeyError, where the warning is kept here instead.
  const explanation = reply.explanation === undefined ? null : str(reply.explanation);
  if (chosen === null) {
    return {
      chosen: 0,
      explanation: explanation ?? `WARNING: defaulted to first -- None, ${str(reply.index)}`,
      defaulted: true,
    };
  }
  return { chosen, explanation: explanation ?? '', defaulted: false };
}

async function verifyPairs(ctx: MergeContext, questions: Question[], pairs: CandidatePair[]) {
  const failures: string[] = [];
  const pending = pairs.filter(
    (p) => !ctx.pairsLog.get(stepKey(ctx.requestId, questions[p.i]!.text, questions[p.j]!.text)),
  );
  const tick = ctx.progress?.(`verify pairs ${ctx.requestId}`, pending.length, 'pairs');
  const judgments = await Promise.all(
    pairs.map(async ({ i, j, similarity }): Promise<ParaphraseJudgment | null> => {
      const [q1, q2] = [questions[i]!.text, questions[j]!.text];
      const key = stepKey(ctx.requestId, q1, q2);
      const logged = ctx.pairsLog.get(key);
      if (logged) return logged;
      const reply = await callText(ctx.llm, paraphrasePrompt(q1, q2), 256);
      tick?.(reply);
      if (!reply.ok) {
        failures.push(`pair ${JSON.stringify(q1)} / ${JSON.stringify(q2)}: ${reply.reason}`);
        return null;
      }
      const verdict = parseParaphrase(reply.text);
      const judgment: ParaphraseJudgment = verdict
        ? { request_id: ctx.requestId, q1, q2, similarity, status: 'ok', ...verdict }
        : {
            request_id: ctx.requestId,
            q1,
            q2,
            similarity,
            paraphrase: null,
            status: looksRefused(reply.text) ? 'refused' : 'unparsable',
            raw: reply.text,
          };
      ctx.pairsLog.put(judgment);
      return judgment;
    }),
  );
  ctx.done?.();
  return { judgments, failures };
}

async function chooseCanonical(ctx: MergeContext, clusters: string[][]) {
  const failures: string[] = [];
  const pending = clusters.filter((c) => c.length > 1 && !ctx.canonicalLog.get(stepKey(ctx.requestId, ...c)));
  const tick = ctx.progress?.(`canonical questions ${ctx.requestId}`, pending.length, 'clusters');
  const choices = await Promise.all(
    clusters.map(async (texts): Promise<CanonicalChoice | null> => {
      if (texts.length === 1) {
        return { request_id: ctx.requestId, questions: texts, chosen: 0, explanation: 'N/A', status: 'ok' };
      }
      const key = stepKey(ctx.requestId, ...texts);
      const logged = ctx.canonicalLog.get(key);
      if (logged) return logged;
      const reply = await callText(ctx.llm, canonicalPrompt(texts, ctx.requestText), 512);
      tick?.(reply);
      if (!reply.ok) {
        failures.push(`canonical question of ${texts.length} paraphrases: ${reply.reason}`);
        return null;
      }
      const parsed = parseCanonical(reply.text, texts);
      const choice: CanonicalChoice = {
        request_id: ctx.requestId,
        questions: texts,
        chosen: parsed.chosen,
        explanation: parsed.explanation,
        status: parsed.defaulted ? 'defaulted' : 'ok',
        ...(parsed.defaulted ? { raw: reply.text } : {}),
      };
      ctx.canonicalLog.put(choice);
      return choice;
    }),
  );
  ctx.done?.();
  return { choices, failures };
}

function mergedNugget(ctx: MergeContext, members: Question[], choice: CanonicalChoice): NuggetQuestion {
  const answers = new Map<string, Answer>();
  for (const q of members) {
    for (const [text, a] of q.answers) {
      const old = answers.get(text);
      answers.set(
        text,
        old ? { answer: text, references: [...(old.references ?? []), ...(a.references ?? [])] } : a,
      );
    }
  }
  const total = members.reduce((n, q) => n + q.docIds.length, 0);
  return nuggetQuestion({
    query_id: ctx.requestId,
    question: members[choice.chosen]!.text,
    answers: [...answers.values()].map((a) => ({ answer: a.answer, references: a.references ?? [] })),
    creator: [ctx.creator],
    metadata: {
      paraphrases: members.map((q) => q.text),
      paraphrase_references: members.map((q) => q.docIds.map((doc_id) => ({ doc_id }))),
      canonical_explanation: choice.explanation,
      num_paraphrases_unique: members.length,
      num_paraphrases_total: total,
      num_answers: answers.size,
    },
  });
}

export async function mergeParaphrases(ctx: MergeContext, docs: readonly DocumentQa[]): Promise<MergeResult> {
  const collected = collectQuestions(docs, ctx.filterEnglish);
  const { questions } = collected;
  const vectors = questions.length > 1 ? await ctx.embed(questions.map((q) => q.text)) : [];
  const found = candidatePairs(
    vectors,
    ctx.threshold,
    ctx.exactLimit === undefined ? {} : { exactLimit: ctx.exactLimit },
  );
  const verified = await verifyPairs(ctx, questions, found.pairs);
  if (verified.failures.length > 0)
    return { ok: false, failed: verified.failures.length, reasons: verified.failures };
  const judgments = verified.judgments as ParaphraseJudgment[];
  const edges = found.pairs
    .filter((_, k) => judgments[k]!.paraphrase === 'YES')
    .map((p) => [p.i, p.j] as const);
  const clusters = singleLinkClusters(questions.length, edges);
  const canonical = await chooseCanonical(
    ctx,
    clusters.map((c) => c.map((i) => questions[i]!.text)),
  );
  if (canonical.failures.length > 0)
    return { ok: false, failed: canonical.failures.length, reasons: canonical.failures };
  const nuggets = clusters.map((c, k) =>
    mergedNugget(
      ctx,
      c.map((i) => questions[i]!),
      canonical.choices[k]!,
    ),
  );
  const total = (n: NuggetQuestion) => n.metadata!.num_paraphrases_total as number;
  nuggets.sort((a, b) => total(b) - total(a));
  return {
    ok: true,
    nuggets,
    judgments,
    stats: {
      qa_pairs: collected.pairs,
      non_english_skipped: collected.skipped,
      unique_questions: questions.length,
      candidate_pairs: found.pairs.length,
      candidate_method: found.method,
      verified_pairs: edges.length,
      unparsable_pairs: judgments.filter((j) => j.paraphrase === null).length,
      clusters: clusters.length,
      multi_clusters: clusters.filter((c) => c.length > 1).length,
      canonical_defaulted: canonical.choices.filter((c) => c!.status === 'defaulted').length,
    },
  };
}
