import type { z } from 'zod';
import { failed, scored, type Verdict } from '../../core/index.js';
import type { ReportRequest } from '../../formats/index.js';
import type { ChatMessage, LlmProvider } from '../../llm/index.js';
import { type CallOptions, callModel } from '../vetscore/llm-call.js';
import type { CitedDocument } from './documents.js';
import type { MatchedNugget } from './judgments.js';
import {
  AttestSchema,
  attestPrompt,
  clip,
  firstInstancePrompt,
  negativePrompt,
  nuggetMatchSchema,
  nuggetPrompt,
  RelevanceSchema,
  relevancePrompt,
  requiresCitationPrompt,
  YesNoSchema,
} from './prompts.js';
import type { Attestation, JudgeNugget, ReportJudge } from './report-judge.js';

export interface LlmJudgeOptions {
  /** Documents longer than this are clipped in prompts (default 40,000 characters). */
  maxDocChars?: number;
  call?: CallOptions;
}

export const DEFAULT_MAX_DOC_CHARS = 40_000;

/** The ARGUE judge backed by a language model: one structured call per question. */
export class LlmReportJudge implements ReportJudge {
  readonly id: string;
  private readonly maxDocChars: number;

  constructor(
    private readonly llm: LlmProvider,
    private readonly options: LlmJudgeOptions = {},
  ) {
    this.id = llm.id;
    this.maxDocChars = options.maxDocChars ?? DEFAULT_MAX_DOC_CHARS;
  }

  private async ask<T, R>(messages: ChatMessage[], schema: z.ZodType<T>, name: string, read: (v: T) => R) {
    const result = await callModel(this.llm, messages, schema, name, this.options.call ?? {});
    return result.ok ? scored(read(result.value)) : failed<R>(result.reason, result.raw);
  }

  attest(sentence: string, doc: CitedDocument): Promise<Verdict<Attestation>> {
    return this.ask(
      attestPrompt(sentence, clip(doc.text, this.maxDocChars)),
      AttestSchema,
      'attestation',
      (v) => {
        const out: Attestation = {
          attested: v.attested,
          evidenceQuote: v.attested ? (v.evidence_quote ?? null) : null,
        };
        if (v.rationale !== undefined) out.rationale = v.rationale;
        return out;
      },
    );
  }

  relevance(request: ReportRequest, doc: CitedDocument): Promise<Verdict<boolean>> {
    return this.ask(
      relevancePrompt(request, clip(doc.text, this.maxDocChars)),
      RelevanceSchema,
      'relevance',
      (v) => v.relevant,
    );
  }

  async matchNuggets(
    sentence: string,
    _request: ReportRequest,
    nuggets: JudgeNugget[],
  ): Promise<Verdict<MatchedNugget[]>> {
    if (nuggets.length === 0) return scored([]);
    const schema = nuggetMatchSchema(nuggets);
    const reply = await this.ask(nuggetPrompt(sentence, nuggets), schema, 'nugget_matches', (v) => v.matches);
    if (reply.status !== 'scored') return reply as Verdict<MatchedNugget[]>;
    // The schema has checked every number against the lists. Entries of one question merge when
    // they quote the same words (each quote is grounded on its own, so others stay apart).
    const out = new Map<string, { question: number; answers: Set<string>; quote: string | null }>();
    for (const m of reply.value) {
      const quote = m.sentence_quote ?? null;
      const key = `${m.question}\u0000${quote ?? ''}`;
      const entry = out.get(key) ?? { question: m.question - 1, answers: new Set<string>(), quote };
      for (const a of m.answers) entry.answers.add(nuggets[m.question - 1]!.answers[a - 1]!);
      out.set(key, entry);
    }
    return scored(
      [...out.values()]
        .filter((e) => e.answers.size > 0)
        .map((e) => ({
          question_text: nuggets[e.question]!.question,
          matched_answer: [...e.answers],
          importance: nuggets[e.question]!.importance,
          sentence_quote: e.quote,
        })),
    );
  }

  requiresCitation(sentence: string, request: ReportRequest): Promise<Verdict<boolean>> {
    return this.ask(
      requiresCitationPrompt(sentence, request),
      YesNoSchema,
      'requires_citation',
      (v) => v.answer,
    );
  }

  firstInstance(sentence: string, previous: string[]): Promise<Verdict<boolean>> {
    return this.ask(firstInstancePrompt(sentence, previous), YesNoSchema, 'first_instance', (v) => v.answer);
  }

  negative(sentence: string): Promise<Verdict<boolean>> {
    return this.ask(negativePrompt(sentence), YesNoSchema, 'negative_assertion', (v) => v.answer);
  }
}
