/**
 * `nuggets score-quality` (METHODS §5 step 4): the 19 criteria per nugget in `metadata.quality`,
 * laid out as the released banks lay them out (`reading_level`, `complexity`, `vitality`,
 * `personalization{5 matches, overall}`, `general_qualities{10}`, `creator`), and the bank-level
 * figures in the bank's `metadata.quality`. Three model calls per nugget, each logged when it
 * succeeds; a failed call leaves that nugget unscored for this run (rerun to retry). A reply that
 * cannot be read leaves its criteria out and names them in `failed`: a judge failure is never a
 * score, and the selector does not rank a nugget with a missing feature.
 */
import {
  type Creator,
  inQuestionOrder,
  isQuestion,
  md5,
  type NuggetBank,
  type NuggetQuestion,
  nuggetEntries,
} from '../../../formats/index.js';
import { extractJson, type LlmProvider } from '../../../llm/index.js';
import { markFloat } from '../../../python-compat/index.js';
import { type CallOutcome, callText } from '../llm-step.js';
import {
  GENERAL_QUALITIES,
  GENERAL_QUALITIES_SYSTEM,
  GeneralQualitiesReplySchema,
  PERSONALIZATION_MATCHES,
  PERSONALIZATION_SYSTEM,
  PersonalizationReplySchema,
  type QualityRequest,
  qualityPrompt,
  VITALITY_SYSTEM,
  VitalityReplySchema,
} from '../prompts/quality-prompt.js';
import { type StepLog, stepKey } from '../step-log.js';
import { bankQuality } from './bank-quality.js';
import { complexity, readingLevel } from './readability.js';

/** The model's judgments of one question (a line of `quality.jsonl`). */
export interface QualityRecord {
  request_id: string;
  question: string;
  vitality: 'VITAL' | 'OKAY' | null;
  personalization: Record<string, number> | null;
  general_qualities: Record<string, number> | null;
  /** The raw replies that could not be read, by criterion group. */
  unreadable?: Record<string, string>;
}

const inRange = (lo: number, hi: number) => (v: number) => Number.isFinite(v) && v >= lo && v <= hi;

export function parseVitality(text: string): 'VITAL' | 'OKAY' | null {
  const found = extractJson(text);
  const parsed = found ? VitalityReplySchema.safeParse(found.value) : null;
  const word = (parsed?.success ? parsed.data.vitality : text).trim().toUpperCase();
  return word.startsWith('VITAL') ? 'VITAL' : word.startsWith('OKAY') ? 'OKAY' : null;
}

export function parsePersonalization(text: string): Record<string, number> | null {
  const found = extractJson(text);
  const parsed = found ? PersonalizationReplySchema.safeParse(found.value) : null;
  if (!parsed?.success) return null;
  const out: Record<string, number> = {};
  for (const k of PERSONALIZATION_MATCHES) {
    if (!inRange(0, 1)(parsed.data[k])) return null;
    out[k] = parsed.data[k];
  }
  if (!inRange(1, 5)(parsed.data.overall)) return null;
  out.overall = parsed.data.overall;
  return out;
}

export function parseGeneralQualities(text: string): Record<string, number> | null {
  const found = extractJson(text);
  const parsed = found ? GeneralQualitiesReplySchema.safeParse(found.value) : null;
  if (!parsed?.success) return null;
  const out: Record<string, number> = {};
  for (const k of GENERAL_QUALITIES) {
    if (!inRange(1, 5)(parsed.data[k])) return null;
    out[k] = parsed.data[k];
  }
  return out;
}

export interface QualityContext {
  requestId: string;
  request: QualityRequest;
  llm: LlmProvider;
  log: StepLog<QualityRecord>;
  onCall?: (outcome: CallOutcome) => void;
}

/** The three judgments of one question, from the log or the model; `failed` when a call failed. */
export async function judgeQuality(
  ctx: QualityContext,
  question: string,
): Promise<{ record: QualityRecord } | { failed: string }> {
  const key = stepKey(ctx.requestId, question);
  const logged = ctx.log.get(key);
  if (logged) return { record: logged };
  const ask = async (system: string, maxTokens: number) => {
    const r = await callText(ctx.llm, qualityPrompt(system, question, ctx.request), maxTokens);
    ctx.onCall?.(r);
    return r;
  };
  const [v, p, g] = await Promise.all([
    ask(VITALITY_SYSTEM, 128),
    ask(PERSONALIZATION_SYSTEM, 256),
    ask(GENERAL_QUALITIES_SYSTEM, 256),
  ]);
  const down = [v, p, g].find((r) => !r.ok);
  if (down && !down.ok) return { failed: `quality of ${JSON.stringify(question)}: ${down.reason}` };
  const text = (r: CallOutcome) => (r.ok ? r.text : '');
  const record: QualityRecord = {
    request_id: ctx.requestId,
    question,
    vitality: parseVitality(text(v)),
    personalization: parsePersonalization(text(p)),
    general_qualities: parseGeneralQualities(text(g)),
  };
  const unreadable: Record<string, string> = {};
  if (record.vitality === null) unreadable.vitality = text(v);
  if (record.personalization === null) unreadable.personalization = text(p);
  if (record.general_qualities === null) unreadable.general_qualities = text(g);
  if (Object.keys(unreadable).length) record.unreadable = unreadable;
  ctx.log.put(record);
  return { record };
}

/** A number object whose values are written as Python floats (`5.0`), as the released banks have them. */
function floats(values: Record<string, number>): Record<string, number> {
  const out = { ...values };
  for (const k of Object.keys(out)) markFloat(out, k);
  return out;
}

/** `metadata.quality` of one nugget from its computed criteria and the model's judgments. */
export function nuggetQuality(
  question: string,
  record: QualityRecord,
  creator: Creator,
): Record<string, unknown> {
  const quality: Record<string, unknown> = {
    reading_level: readingLevel(question),
    complexity: complexity(question),
  };
  markFloat(quality, 'reading_level');
  markFloat(quality, 'complexity');
  if (record.vitality) quality.vitality = record.vitality;
  if (record.personalization) quality.personalization = floats(record.personalization);
  if (record.general_qualities) quality.general_qualities = floats(record.general_qualities);
  const failed = ['vitality', 'personalization', 'general_qualities'].filter((k) => !(k in quality));
  if (failed.length) quality.failed = failed;
  quality.creator = [creator];
  return quality;
}

export interface ScoreQualityResult {
  scored: number;
  failedCalls: string[];
  unreadable: number;
}

/** Scores every question nugget of a bank in place, then the bank-level figures. */
/**
 * The paraphrases of a bank's nuggets as sub-nuggets, as the released scoring run makes them with
 * `-rop` (manestay/dogmatiq `run_on_nugget_bank.py`, `create_subnugget`): a copy of the nugget
 * without metadata, answers, sub-nuggets and creator, the paraphrase as its question, the MD5 of
 * that as its id, `metadata: {parent: <question>}`; a paraphrase that is itself a nugget's
 * question, or was seen before, is skipped. They are appended to each nugget's `sub_nuggets`.
 */
export function paraphraseSubNuggets(bank: NuggetBank): NuggetQuestion[] {
  const nuggets = nuggetEntries(bank)
    .map(([, n]) => n)
    .filter((n): n is NuggetQuestion => isQuestion(n));
  const seen = new Set(nuggets.map((n) => n.question));
  const out: NuggetQuestion[] = [];
  for (const n of nuggets) {
    const paraphrases = n.metadata?.paraphrases;
    // A bank scored before (in place) already holds them: those are scored again, not added twice.
    const existing = new Map(
      (n.sub_nuggets ?? [])
        .filter((x): x is NuggetQuestion => typeof x.question === 'string')
        .map((x) => [x.question, x]),
    );
    const added: NuggetQuestion[] = [];
    for (const p of Array.isArray(paraphrases) ? paraphrases : []) {
      if (typeof p !== 'string' || seen.has(p)) continue;
      seen.add(p);
      const old = existing.get(p);
      if (old) {
        out.push(old);
        continue;
      }
      const { metadata: _m, answers: _a, sub_nuggets: _s, creator: _c, ...rest } = n;
      added.push(
        inQuestionOrder({ ...rest, question: p, question_id: md5(p), metadata: { parent: n.question } }),
      );
    }
    if (added.length > 0) n.sub_nuggets = [...(n.sub_nuggets ?? []), ...added];
    out.push(...added);
  }
  return out;
}

/**
 * Scores every question nugget of a bank in place, then the bank-level figures. With
 * `withParaphrases`, the paraphrases are scored too, as sub-nuggets, and counted in the bank-level
 * figures (the released run's `-rop`).
 */
export async function scoreBankQuality(
  bank: NuggetBank,
  ctx: QualityContext & {
    creator: Creator;
    embed: (texts: string[]) => Promise<Float32Array[]>;
    coverageCosine: number;
    withParaphrases?: boolean;
  },
): Promise<ScoreQualityResult> {
  const questions = nuggetEntries(bank)
    .map(([, n]) => n)
    .filter((n): n is NuggetQuestion => isQuestion(n));
  if (ctx.withParaphrases) questions.push(...paraphraseSubNuggets(bank));
  const failedCalls: string[] = [];
  let unreadable = 0;
  const scored: {
    question: string;
    reading_level: number;
    complexity: number;
    personalization_overall: number | null;
  }[] = [];
  const results = await Promise.all(questions.map((n) => judgeQuality(ctx, n.question)));
  results.forEach((r, i) => {
    const nugget = questions[i]!;
    if ('failed' in r) {
      failedCalls.push(r.failed);
      return;
    }
    if (r.record.unreadable) unreadable++;
    const quality = nuggetQuality(nugget.question, r.record, ctx.creator);
    // In place: the metadata's other fields keep their order and float notes.
    if (nugget.metadata) nugget.metadata.quality = quality;
    else nugget.metadata = { quality };
    scored.push({
      question: nugget.question,
      reading_level: quality.reading_level as number,
      complexity: quality.complexity as number,
      personalization_overall: r.record.personalization?.overall ?? null,
    });
  });
  const request = `${ctx.request.background ?? ''} ${ctx.request.problemStatement ?? ''}`.trim();
  const figures = await bankQuality(scored, request, ctx.embed, ctx.coverageCosine);
  const bankFigures = { ...figures, creator: [ctx.creator] };
  if (bank.metadata) bank.metadata.quality = bankFigures;
  else bank.metadata = { quality: bankFigures };
  return { scored: scored.length, failedCalls, unreadable };
}
