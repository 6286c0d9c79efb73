import { basename, join } from 'node:path';
import { CitegeistError, type InputRef } from '../../../core/index.js';
import {
  bankQueryId,
  isQuestion,
  type LoadedBank,
  type NuggetBank,
  nuggetEntries,
  writeNuggetBankFile,
} from '../../../formats/index.js';
import type { ChatMessage } from '../../../llm/index.js';
import type { CallOutcome } from '../llm-step.js';
import { itemsInput } from '../nugget-manifest.js';
import {
  GENERAL_QUALITIES_SYSTEM,
  PERSONALIZATION_SYSTEM,
  type QualityRequest,
  qualityPrompt,
  VITALITY_SYSTEM,
} from '../prompts/index.js';
import { type StepLog, stepKey } from '../step-log.js';
import {
  type QualityContext,
  type QualityRecord,
  type ScoreQualityResult,
  scoreBankQuality,
} from './score-quality.js';

/** One bank to score (`nuggets score-quality`): its request and the questions judged. */
export interface QualityWork {
  file: string;
  bank: NuggetBank;
  id: string;
  request: QualityRequest;
  questions: string[];
}

/** The request a bank serves: from `requests`, else the `full_query` the generator writes. */
export function qualityRequestOf(
  bank: { full_query?: unknown },
  requests: ReadonlyMap<string, QualityRequest> | null,
  id: string,
): QualityRequest {
  const fromFile = requests?.get(id);
  if (fromFile) return fromFile;
  const full = bank.full_query as { background?: unknown; problem_statement?: unknown } | undefined;
  if (full && (typeof full.background === 'string' || typeof full.problem_statement === 'string')) {
    return {
      background: typeof full.background === 'string' ? full.background : null,
      problemStatement: typeof full.problem_statement === 'string' ? full.problem_statement : null,
    };
  }
  throw new CitegeistError(
    requests ? 'INVALID_INPUT' : 'OPTION_REQUIRED',
    `The bank of request "${id}" names no background or problem statement, and ${requests ? '--requests does not hold it' : 'no --requests was given'}.`,
    'Pass --requests <file> with this request (the personalisation criteria are judged against it).',
  );
}

/** Each bank's request and the questions to judge: its question nuggets, and their paraphrases if asked. */
export function qualityWork(
  banks: readonly { file: string; loaded: LoadedBank }[],
  requests: ReadonlyMap<string, QualityRequest> | null,
  withParaphrases: boolean,
): QualityWork[] {
  return banks.map(({ file, loaded }) => {
    const id = bankQueryId(loaded.bank);
    const nuggets = nuggetEntries(loaded.bank).flatMap(([, n]) => (isQuestion(n) ? [n] : []));
    const paraphrases = withParaphrases
      ? nuggets.flatMap((n) => (Array.isArray(n.metadata?.paraphrases) ? n.metadata.paraphrases : []))
      : [];
    const questions = [
      ...new Set([...nuggets.map((n) => n.question), ...paraphrases.filter((p) => typeof p === 'string')]),
    ];
    return { file, bank: loaded.bank, id, request: qualityRequestOf(loaded.bank, requests, id), questions };
  });
}

/** What is judged (each bank's request and questions), not the scores a run in place adds. */
export function qualityInput(work: readonly QualityWork[], source: string): InputRef {
  return itemsInput(new Map(work.map((w) => [w.id, { request: w.request, questions: w.questions }])), source);
}

/** The questions not yet judged (their three judgments are not all in the log). */
export function qualityTodo(
  work: readonly QualityWork[],
  log: Pick<StepLog<QualityRecord>, 'get'>,
): { w: QualityWork; q: string }[] {
  return work.flatMap((w) => w.questions.filter((q) => !log.get(stepKey(w.id, q))).map((q) => ({ w, q })));
}

/** The three judge calls of each question left (`--dry-run` prices them). */
export function qualityCalls(
  todo: readonly { w: Pick<QualityWork, 'request'>; q: string }[],
): { messages: ChatMessage[]; maxTokens: number }[] {
  return todo.flatMap(({ w, q }) =>
    [VITALITY_SYSTEM, PERSONALIZATION_SYSTEM, GENERAL_QUALITIES_SYSTEM].map((s) => ({
      messages: qualityPrompt(s, q, w.request),
      maxTokens: 150,
    })),
  );
}

/**
 * Scores every bank of `work` (`scoreBankQuality`) and writes it into `outDir` under its file's
 * name, bank by bank, so a killed run keeps the banks it finished (their judgments are in `log`).
 */
export async function scoreQualityBanks(
  work: readonly QualityWork[],
  outDir: string,
  o: Omit<QualityContext, 'requestId' | 'request' | 'onCall'> &
    Omit<Parameters<typeof scoreBankQuality>[1], keyof QualityContext> & {
      onCall?: (requestId: string) => (outcome: CallOutcome) => void;
      onBank?: (w: QualityWork, result: ScoreQualityResult) => void;
    },
): Promise<{ failedCalls: number; unreadable: number }> {
  const { onCall, onBank, ...shared } = o;
  let failedCalls = 0;
  let unreadable = 0;
  for (const w of work) {
    const result = await scoreBankQuality(w.bank, {
      ...shared,
      requestId: w.id,
      request: w.request,
      ...(onCall ? { onCall: onCall(w.id) } : {}),
    });
    writeNuggetBankFile(join(outDir, basename(w.file)), w.bank);
    failedCalls += result.failedCalls.length;
    unreadable += result.unreadable;
    onBank?.(w, result);
  }
  return { failedCalls, unreadable };
}
