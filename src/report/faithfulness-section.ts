import { faithfulnessInterval } from '../grade/index.js';
import { idOf, isObject, type Json, list, type ManifestInfo, num, obj, str } from './loose-records.js';
import type { VetAnswer, VetClaim, VetRunStats } from './report-data.js';

/** A `grade faithfulness` output file as read: manifest, `<out>.meta.json`, rows. */
export interface FaithfulnessSource {
  name: string;
  manifest: ManifestInfo | null;
  /** The `.meta.json` written beside the output (judges, p, answers file), when present. */
  meta: Json | null;
  rows: Json[];
}

/** Where a VETSCORE answer links to: the graded answer of the same run label and row id. */
export type AnswerLookup = (label: string, id: string) => number | null;

/**
 * The run label of a faithfulness file: its manifest's label; else the label of the run whose file
 * the meta names as `answers` (matched by file name); else the file name.
 */
export function faithfulnessLabel(
  file: FaithfulnessSource,
  runLabelOfFile: (name: string) => string | null,
): string {
  if (file.manifest?.label) return file.manifest.label;
  const answers = str(file.meta?.answers);
  const fromRun = answers ? runLabelOfFile(answers) : null;
  return fromRun ?? file.name;
}

function claimOf(c: Json, p: number | null, total: number): VetClaim {
  const harm = num(c.w);
  const scored = c.status === 'scored';
  const weight = scored && harm !== null && p !== null ? harm ** p : null;
  const span = isObject(c.span)
    ? { key: String(idOf(c.span.key) ?? ''), text: str(c.span.text), rule: str(c.span.rule) }
    : null;
  const nearest = isObject(c.nearest)
    ? { text: str(c.nearest.text) ?? '', similarity: num(c.nearest.similarity) ?? 0 }
    : null;
  return {
    text: str(c.text) ?? '',
    status: str(c.status) ?? 'unknown',
    verdict: str(c.verdict),
    v: num(c.v),
    harm,
    weight,
    share: weight !== null && total > 0 ? weight / total : null,
    rationale: str(c.rationale),
    harmRationale: str(c.harm_rationale),
    evidence: str(c.evidence_quote),
    span,
    nearest,
    failure: str(c.failure),
  };
}

/** One answer's VETSCORE output: each claim with its verdict, harm and share of the risk weight. */
export function vetAnswer(row: Json, label: string, a: number | null): VetAnswer {
  const p = num(row.p);
  const segments = list(row.segments).filter(isObject);
  // ω_i = w_i^p over the scored claims of the whole answer (METHODS §3.4): each claim's share of it.
  let total = 0;
  for (const s of segments) {
    for (const c of list(s.claims).filter(isObject)) {
      const w = num(c.w);
      if (c.status === 'scored' && w !== null && p !== null) total += w ** p;
    }
  }
  const judges = obj(row.judges);
  return {
    id: String(idOf(row.id) ?? ''),
    label,
    question: str(row.question) ?? '',
    status: str(row.status) ?? 'unknown',
    score: num(row.score),
    p,
    judges: Object.keys(judges).length
      ? Object.entries(judges)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join(', ')
      : null,
    segments: segments.map((s) => ({
      text: str(s.text) ?? '',
      keys: list(s.keys).map(String),
      status: str(s.status) ?? 'unknown',
      penalty: num(s.penalty),
      claims: list(s.claims)
        .filter(isObject)
        .map((c) => claimOf(c, p, total)),
    })),
    failures: list(row.failures).map(String),
    a,
  };
}

/** Per label: answers scored / failed / not applicable, mean score with its 95% CI, claim counts. */
export function vetRunStats(label: string, answers: readonly VetAnswer[], seed: number): VetRunStats {
  const ci = faithfulnessInterval(answers, seed);
  const claims = answers.flatMap((x) => x.segments.flatMap((s) => s.claims));
  return {
    label,
    answers: answers.length,
    scored: answers.filter((x) => x.status === 'scored').length,
    failed: answers.filter((x) => x.status === 'failed').length,
    na: answers.filter((x) => x.status === 'not-applicable').length,
    mean: ci?.estimate ?? null,
    ci: ci && ci.lower !== null && ci.upper !== null ? [ci.lower, ci.upper] : null,
    claims: claims.length,
    unsupported: claims.filter((c) => c.status === 'scored' && c.v === 0).length,
    unverified: claims.filter((c) => c.verdict === 'unverified').length,
    claimsFailed: claims.filter((c) => c.status === 'failed').length,
  };
}

/**
 * The VETSCORE part of a report. A resumed output file may hold an answer twice (a failed answer
 * retried): the later row is the one that counts, as `grade faithfulness` reads it.
 */
export function buildFaithfulnessSection(
  files: readonly FaithfulnessSource[],
  runLabelOfFile: (name: string) => string | null,
  lookup: AnswerLookup,
  seed: number,
): { runs: VetRunStats[]; answers: VetAnswer[] } {
  const byLabel = new Map<string, Map<string, VetAnswer>>();
  for (const file of files) {
    const label = faithfulnessLabel(file, runLabelOfFile);
    const answers = byLabel.get(label) ?? new Map<string, VetAnswer>();
    byLabel.set(label, answers);
    for (const row of file.rows) {
      const id = String(idOf(row.id) ?? '');
      answers.set(id, vetAnswer(row, label, lookup(label, id)));
    }
  }
  const answers = [...byLabel.values()].flatMap((m) => [...m.values()]);
  const runs = [...byLabel].map(([label, m]) => vetRunStats(label, [...m.values()], seed));
  return { runs, answers };
}
