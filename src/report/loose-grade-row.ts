import { type GradeRow, METRIC_IDS } from '../grade/index.js';
import { idOf, isObject, type Json, list, num, obj, str } from './loose-records.js';

/** A grades row read loosely, with the fields newer graders add (absent in older files). */
export interface LooseGrade {
  row: GradeRow;
  /** `label` of the row (runs with manifests), else null. */
  label: string | null;
  /** `cached`: the answer came from the response cache. */
  cached: boolean;
  /** `judge_grounding.evidence`: the rubric judge's quoted evidence, when grounded. */
  grounding: { claim: string; quote: string | null; status: string }[] | null;
  /** `judge_grounding.judge_factual_accuracy`: the judge's own score before grounding capped it. */
  judgeFactual: number | null;
}

const STATUSES = new Set(['scored', 'not-applicable', 'failed']);

/**
 * Reads one grades record: `row_id` and `model` (or `label`) are required; every metric, status,
 * rule and cost field is optional. A metric without a status is `scored` when it has a number and
 * `not-applicable` otherwise. Returns the reason when the record cannot be a grades row.
 */
export function looseGradeRow(v: Json): LooseGrade | string {
  const rowId = idOf(v.row_id);
  if (rowId === null) return 'field "row_id": missing or not a string';
  const label = str(v.label);
  const model = str(v.model) ?? label;
  if (model === null) return 'field "model": missing or not a string';
  const status: Record<string, 'scored' | 'not-applicable' | 'failed'> = {};
  const given = obj(v.status);
  const metrics: Record<string, number | null> = {};
  for (const id of METRIC_IDS) {
    const value = num(v[id]);
    metrics[id] = value;
    const s = str(given[id]);
    status[id] = s && STATUSES.has(s) ? (s as 'scored') : value === null ? 'not-applicable' : 'scored';
  }
  const errors = Object.fromEntries(
    Object.entries(obj(v.errors)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const rules = list(v.citation_rules)
    .filter(isObject)
    .map((r) => ({
      key: String(idOf(r.key) ?? ''),
      rule: str(r.rule) ?? 'none',
      strict_rule: str(r.strict_rule) ?? 'none',
      prefix_only: r.prefix_only === true,
    }));
  const row = {
    row_id: rowId,
    model,
    paper_id: idOf(v.paper_id) ?? '',
    question_type: str(v.question_type) ?? '(unknown)',
    domain: str(v.domain) ?? '',
    ...metrics,
    judge_justification: str(v.judge_justification),
    judge: str(v.judge),
    status,
    errors,
    n_citations: num(v.n_citations) ?? rules.length,
    latency_seconds: num(v.latency_seconds),
    cost_usd: num(v.cost_usd),
    answer_failed: v.answer_failed === true,
    citation_rules: rules,
    // Fields of newer grades rows, so the grade stage's summaries read them where they know them.
    label,
    cached: v.cached === true,
    // The metric fields come from the registry's ids (the loop above), which the type cannot see.
  } as unknown as GradeRow;
  return {
    row,
    label,
    cached: v.cached === true,
    grounding: groundingOf(v.judge_grounding),
    judgeFactual: num(obj(v.judge_grounding).judge_factual_accuracy),
  };
}

function groundingOf(v: unknown): LooseGrade['grounding'] {
  if (!isObject(v) || !Array.isArray(v.evidence)) return null;
  return v.evidence.filter(isObject).map((e) => ({
    claim: str(e.claim) ?? '',
    quote: str(e.expected_quote) ?? str(e.quote),
    status: [str(e.status) ?? '', str(e.reason)].filter(Boolean).join(': '),
  }));
}
