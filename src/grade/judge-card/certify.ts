import { basename } from 'node:path';
import { CitegeistError, type RunManifest } from '../../core/index.js';
import { readTextFile } from '../../io/index.js';
import {
  estimateCost,
  type LlmProvider,
  modelId,
  type PriceTable,
  parseModelString,
} from '../../llm/index.js';
import { type HumanItem, type HumanSet, readLabelFile } from '../human-labels/index.js';
import { chooseSetJudge, defaultJudgeKind, type SetJudgeKind } from './choose-judge.js';
import { buildJudgeCard, type CardReference, type JudgeCard, type JudgeIdentity } from './judge-card.js';
import {
  judgmentsManifest,
  planSetJudge,
  runSetJudge,
  type SetRunResult,
  sampleItems,
} from './run-set-judge.js';
import type { SetJudge, SetJudgment } from './set-judge.js';
import { PaddedJudge, pointwiseScores, type VerbosityProbe, verbosityProbe } from './verbosity-probe.js';

/** How a card is made (`meta-eval judge`'s flags). */
export interface CertifySettings {
  limit: number | null;
  sampleSeed: number;
  iterations: number;
  seed: number;
  reference?: CardReference | undefined;
  version: string;
}

const cardOptions = (s: CertifySettings) => ({
  ...(s.reference ? { reference: s.reference } : {}),
  iterations: s.iterations,
  seed: s.seed,
  sample: { limit: s.limit, seed: s.sampleSeed },
  version: s.version,
});

/**
 * A card from a file of a judge's labels (`--labels`): the judge is named by the file's manifest
 * (a judgments file's `judge_model`, `prompt_version`, `judge_kind`), else by the file's name.
 * Lines that could not be read are returned, not thrown: one bad line does not stop the card.
 */
export function cardFromLabelFile(
  set: HumanSet,
  text: string,
  name: string,
  s: CertifySettings & {
    judgeFamily?: string | undefined;
    /** The judge the labels come from (`--judge-model`, `--prompt-version`), over the manifest's. */
    judgeModel?: string | undefined;
    promptVersion?: string | undefined;
  },
): { card: JudgeCard; problems: { line: number; problem: string }[] } {
  const labels = readLabelFile(text, name, set);
  const m = labels.manifest?.settings ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const identity: JudgeIdentity = {
    model: s.judgeModel ?? str(m.judge_model) ?? basename(name),
    prompt_version: s.promptVersion ?? str(m.prompt_version),
    kind: str(m.judge_kind) ?? 'labels-file',
    family: s.judgeFamily ?? str(m.judge_family),
  };
  return { card: buildJudgeCard(set, labels, identity, cardOptions(s)), problems: labels.problems };
}

/** The set judge of `kind` (default: the set's), refusing a verbosity probe a judge cannot take. */
export function setJudgeFor(
  set: HumanSet,
  kind: SetJudgeKind | undefined,
  llm: LlmProvider | null,
  probeVerbosity: boolean,
): SetJudge {
  const k = kind ?? defaultJudgeKind(set);
  if (probeVerbosity && k !== 'rubric') {
    throw new CitegeistError(
      'BAD_OPTION',
      `--probe-verbosity measures how padding moves a pointwise score; the ${k} judge gives none.`,
      'Use it with --judge-kind rubric (the default on ragchecker, crowdrag25 and alce-utility).',
    );
  }
  return chooseSetJudge(k, set, llm);
}

/** What certifying a judge would cost (`--dry-run`): calls, tokens and dollars, nothing called. */
export function planCertify(
  set: HumanSet,
  judge: SetJudge,
  s: { limit: number | null; sampleSeed: number; probeVerbosity: boolean; prices?: PriceTable | undefined },
) {
  const items = sampleItems(set, s.limit, s.sampleSeed);
  const plan = planSetJudge(items, judge);
  if (s.probeVerbosity) plan.requests.push(...planSetJudge(items, new PaddedJudge(judge)).requests);
  const estimate =
    judge.model === 'lexical'
      ? null
      : estimateCost(
          judge.model,
          plan.requests.map((messages) => ({ messages })),
          { ...(s.prices ? { prices: s.prices } : {}), expectedOutputTokens: 150 },
        );
  return {
    items: plan.items,
    calls: plan.requests.length,
    input_tokens: estimate?.inputTokens ?? 0,
    output_tokens: estimate?.outputTokens ?? 0,
    cost_usd: estimate?.costUsd ?? null,
  };
}

/** One judged pass over the sample: the caller names it on a queue and watches its items. */
export interface CertifyPass {
  manifest: RunManifest;
  items: number;
  path: string;
}

export interface CertifyRun extends CertifySettings {
  judgmentsPath: string;
  concurrency: number;
  probeVerbosity: boolean;
  /** Before each pass (the judge, then the padded judge): returns the per-item listener. */
  beforePass?: (pass: CertifyPass) => Promise<(item: HumanItem, v: SetJudgment) => void>;
  /** After each pass, with its counts (judged, resumed, failed). */
  afterPass?: (pass: CertifyPass, result: SetRunResult) => void;
}

/**
 * Runs a judge on a set's sample into a resumable judgments file (and, with the verbosity probe,
 * again on padded answers into `<judgments>.verbosity.jsonl`) and makes its card.
 */
export async function certifySetJudge(set: HumanSet, judge: SetJudge, s: CertifyRun): Promise<JudgeCard> {
  const items = sampleItems(set, s.limit, s.sampleSeed);
  const pass = async (j: SetJudge, path: string) => {
    const manifest = judgmentsManifest(set, j, {
      limit: s.limit,
      sampleSeed: s.sampleSeed,
      version: s.version,
    });
    const info = { manifest, items: items.length, path };
    const onItem = await s.beforePass?.(info);
    const result = await runSetJudge(items, j, manifest, {
      outPath: path,
      concurrency: s.concurrency,
      call: {},
      command: 'citegeist meta-eval judge',
      ...(onItem ? { onItem } : {}),
    });
    s.afterPass?.(info, result);
    return readTextFile(path, 'judgments file');
  };
  const text = await pass(judge, s.judgmentsPath);
  let verbosity: VerbosityProbe | null = null;
  if (s.probeVerbosity) {
    const paddedPath = s.judgmentsPath.replace(/(\.jsonl)?$/, '.verbosity.jsonl');
    const padded = await pass(new PaddedJudge(judge), paddedPath);
    verbosity = verbosityProbe(pointwiseScores(text, s.judgmentsPath), pointwiseScores(padded, paddedPath), {
      iterations: s.iterations,
      seed: s.seed,
      confidence: 0.95,
    });
  }
  const labels = readLabelFile(text, s.judgmentsPath, set);
  // the judgments file may hold items of an earlier, larger sample: the card is of this one
  const sampled = new Set(items.map((i) => i.id));
  for (const id of [...labels.values.keys()]) if (!sampled.has(id)) labels.values.delete(id);
  return buildJudgeCard(
    set,
    labels,
    { model: judge.model, prompt_version: judge.promptVersion, kind: judge.kind, family: judge.family },
    { ...cardOptions(s), verbosity },
  );
}

/** A provider that only names the model, for --dry-run (the plan builds prompts and never calls it). */
export function namingProvider(spec: string): LlmProvider {
  const id = modelId(parseModelString(spec));
  const refuse = () => Promise.reject(new Error('dry run: no model calls'));
  return {
    id,
    family: id.split(':')[0] ?? id,
    contextWindow: null,
    generate: refuse,
    generateObject: refuse,
  };
}
