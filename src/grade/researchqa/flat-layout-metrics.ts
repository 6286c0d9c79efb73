/**
 * The metrics of a row from the earlier dataset layout, where `expected_references` was a flat list
 * of quotes (read as one single-alternative group per quote), computed as the grader of that
 * version did: khoj-ai/openpaper server/evals/run_benchmark.py, the version that introduced
 * `refusal_correctness` next to `citation_recall` (the last one before `SectionEvidence` groups),
 * `compute_citation_metrics`:
 *
 * - `citation_recall` (here `section_coverage`): the share of expected quotes that some citation
 *   matches with `fuzzy_match(exp, act) >= 0.5`; 1 when nothing is expected;
 * - `citation_precision`: the share of citations that match some expected quote (same order); 1
 *   without citations;
 * - no expected quotes and no citations: every metric 1;
 * - adversarial rows expecting a refusal get all of these too, and `refusal_correctness`: 1 without
 *   citations, 0 when citations were made but nothing was expected, else 1 iff every citation
 *   matches some expected quote, tested the other way round: `fuzzy_match(act, exp)` (the citation
 *   is difflib's `a` there).
 *
 * Citation accuracy: that grader was never given the paper text (`grade_results` called
 * `compute_citation_metrics(result)`), so it recorded 1.0 on every row; citegeist applies the
 * published quote matcher instead (as the current grader does), strict accuracy beside it.
 */
import type { Verdict } from '../../core/index.js';
import { failed, notApplicable, scored } from '../../core/index.js';
import type {
  AlternativeMatch,
  CitationRule,
  CitationScores,
  PaperQuotes,
  ScoredRow,
} from './citation-parts.js';
import { accuracies, isRefusalRow, matchHits } from './citation-parts.js';

export function flatLayoutScores(
  row: ScoredRow,
  quotes: readonly string[],
  rules: readonly CitationRule[],
  havePaper: boolean,
  match: AlternativeMatch,
  paper: PaperQuotes | null,
): Omit<CitationScores, 'citation_rules'> {
  const expected = row.expected_references.flatMap((g) => g.alternatives.slice(0, 1));
  const refusalRow = isRefusalRow(row);
  const refusalNa = notApplicable<number>('not an adversarial row expecting a refusal');
  if (expected.length === 0 && quotes.length === 0) {
    const one = scored(1);
    return {
      citation_precision: one,
      section_coverage: one,
      citation_accuracy: one,
      citation_accuracy_strict: one,
      refusal_correctness: refusalRow ? one : refusalNa,
    };
  }
  const groups = expected.map((quote) => ({ section_label: '', alternatives: [quote] }));
  const hits = matchHits(quotes, groups, paper, match);
  const share = (found: boolean[], empty: number): Verdict<number> =>
    hits.error
      ? failed(hits.error)
      : found.length === 0
        ? scored(empty)
        : scored(found.filter(Boolean).length / found.length);
  let refusal: Verdict<number> = refusalNa;
  if (refusalRow) {
    if (quotes.length === 0) refusal = scored(1);
    else if (expected.length === 0) refusal = scored(0);
    else {
      try {
        // fuzzy_match(act, exp): the citation is `a` here, so the arguments are swapped.
        const all = quotes.every((q) => expected.some((e) => match(e, q, paper)));
        refusal = scored(all ? 1 : 0);
      } catch (error) {
        refusal = failed((error as Error).message);
      }
    }
  }
  return {
    citation_precision: share(hits.quotes, 1),
    section_coverage: share(hits.groups, 1),
    ...accuracies(quotes.length, rules, havePaper),
    refusal_correctness: refusal,
  };
}
