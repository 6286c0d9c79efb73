/**
 * The replay step of `citegeist qa-eval` scores (ROUGE, BERTScore): the scores JSONL has no
 * manifest line, its `.summary.json` beside it records the settings and the predictions and
 * references with their hashes. Naming either file packs both.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { NeedInput } from './faithfulness-step.js';

interface QaSummary {
  tool?: unknown;
  created_at?: unknown;
  settings?: { metrics?: unknown; stemmer?: unknown; bootstrap?: { seed?: unknown } };
  inputs?: Record<string, { path?: string; sha256?: string }>;
}

function readSummary(path: string): QaSummary | null {
  if (!existsSync(path)) return null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as QaSummary;
    return v && v.tool === 'citegeist qa-eval' ? v : null;
  } catch {
    return null;
  }
}

/** The step that re-derives the qa-eval output `abs` (scores or summary), or null when it is not one. */
export function qaEvalStep(
  abs: string,
  cwd: string,
  need: NeedInput,
  rel: (abs: string) => string,
): { argv: string[]; inputs: string[]; outputs: string[]; clock: string | null; note: string | null } | null {
  const scores = abs.endsWith('.summary.json')
    ? [
        `${abs.slice(0, -'.summary.json'.length)}.jsonl`,
        `${abs.slice(0, -'.summary.json'.length)}.json`,
      ].find(existsSync)
    : abs;
  if (!scores || !/\.jsonl?$/i.test(scores)) return null;
  const summaryPath = `${scores.replace(/\.jsonl?$/i, '')}.summary.json`;
  const summary = readSummary(summaryPath);
  if (!summary) return null;
  const predictions = summary.inputs?.predictions;
  const references = summary.inputs?.references;
  const owner = summaryPath;
  const p = need(owner, predictions?.path ?? '', cwd, predictions?.sha256);
  const r = need(owner, references?.path ?? '', cwd, references?.sha256);
  const metrics = Array.isArray(summary.settings?.metrics) ? summary.settings.metrics.map(String) : [];
  const argv = [
    'qa-eval',
    '--predictions',
    rel(p),
    '--references',
    rel(r),
    '--metric',
    metrics.join(','),
    '--seed',
    String(summary.settings?.bootstrap?.seed ?? 0),
  ];
  if (summary.settings?.stemmer === true) argv.push('--stemmer');
  argv.push('--out', rel(scores));
  return {
    argv,
    inputs: [p, r],
    outputs: [scores, summaryPath],
    clock: typeof summary.created_at === 'string' ? summary.created_at : null,
    note: metrics.includes('bertscore')
      ? `${rel(scores)} has BERTScore: its replay needs the BERTScore model on the replaying machine (it is not in the pack).`
      : null,
  };
}
