/**
 * A score is tri-state: a value, "not applicable" (nothing to score, e.g. no claims), or "failed"
 * (the judge or parser broke). A failure is never a 0 and never silently dropped: aggregates report
 * it beside the mean.
 */
export type Verdict<T> =
  | { status: 'scored'; value: T; rationale?: string }
  | { status: 'not-applicable'; reason: string }
  | { status: 'failed'; reason: string; raw?: string };

export function scored<T>(value: T, rationale?: string): Verdict<T> {
  return rationale === undefined ? { status: 'scored', value } : { status: 'scored', value, rationale };
}

export function notApplicable<T>(reason: string): Verdict<T> {
  return { status: 'not-applicable', reason };
}

export function failed<T>(reason: string, raw?: string): Verdict<T> {
  return raw === undefined ? { status: 'failed', reason } : { status: 'failed', reason, raw };
}

/** The value of a scored verdict, `null` otherwise (for tables and JSON that use null for n/a). */
export function verdictValue<T>(verdict: Verdict<T>): T | null {
  return verdict.status === 'scored' ? verdict.value : null;
}
