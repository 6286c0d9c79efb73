/**
 * The counts of one judged report (METHODS §5 step 6; reverse-engineered from Auto-ARGUE's
 * published judgments and scores, hltcoe/argue-viz `assets/example-report.*` @ ada21228):
 *
 * - `sentences`: judged segments; `character_count`: the sum of their lengths in code points
 *   (Python `len`), no separators;
 * - `citations`: citations summed over sentences; `relevant_citations` / `supporting_citations`:
 *   CITED_DOCUMENT_RELEVANCE / SENTENCE_ATTESTED judgments that say yes — an attestation citegeist
 *   grounded counts only when its grounding does (`attested && grounding.counts`: its evidence quote
 *   was found in the cited document, or `--trust-unlocated-evidence`); one without a grounding
 *   (Auto-ARGUE's own judgments) counts as the judge said, as Auto-ARGUE counts it;
 * - `sentences_with_citations_or_requiring_citations`: sentences with a citation, plus uncited
 *   sentences ARGUE scores: a first instance of a claim that needs a citation (penalised), and a
 *   negative assertion (rewarded when a nugget confirms it);
 * - `correctly_cited_sentences`: cited sentences whose every citation is attested, plus uncited
 *   negative assertions confirmed by a nugget;
 * - nuggets: matched answers pooled per question over the whole report, whether or not the
 *   sentence was attested; OR is correct with any matched answer, AND when every gold answer is
 *   matched; `nuggets` is the size of the request's bank. A match whose grounding does not count
 *   (its sentence quote is not in the sentence) is not pooled.
 *
 * A judgment that failed is counted in `failed`; the caller decides what a report with failures
 * means (it is never scored as if the judge had said no).
 */
import { codePointLength } from '../../formats/index.js';
import { JUDGMENT, type JudgedSentence } from './judgments.js';
import type { NuggetIndex } from './nugget-index.js';

export interface ReportCounts {
  sentences: number;
  characterCount: number;
  sentencesWithCitationsOrRequiring: number;
  correctlyCitedSentences: number;
  nuggets: number;
  nuggetsWeighted: number;
  correctNuggets: number;
  correctNuggetsWeighted: number;
  citations: number;
  relevantCitations: number;
  supportingCitations: number;
  /** Failed judgments in the report. */
  failed: number;
  /** Matched questions that are not in the request's bank (ignored). */
  unknownQuestions: number;
  /** Matched answers that are not answers of their question (ignored for AND; enough for OR). */
  unknownAnswers: number;
  /** Claims of support by grounding: attested citations and nugget matches (see `GroundingCounts`). */
  grounding: GroundingCounts;
}

/**
 * How the report's claims of support were counted. `unverified`: quote missing or not found, left
 * out; `trusted`: the same, counted under `--trust-unlocated-evidence`; `ungrounded`: no grounding
 * recorded (Auto-ARGUE's judgments), counted as the judge said.
 */
export interface GroundingCounts {
  citations: GroundingTally;
  nuggetMatches: GroundingTally;
}
export interface GroundingTally {
  located: number;
  unverified: number;
  trusted: number;
  ungrounded: number;
}

const zeroTally = (): GroundingTally => ({ located: 0, unverified: 0, trusted: 0, ungrounded: 0 });

/** A judgment's `grounding` as read from a file (checked where it is used). */
type Grounding = { counts?: unknown; status?: unknown } | null | undefined;
type ReadMatch = { question_text: string; matched_answer: string[]; grounding?: Grounding };

/** Counts one claim of support by its grounding; true when it counts as support. */
function counted(g: Grounding, tally: GroundingTally): boolean {
  if (g === null || g === undefined || typeof g !== 'object') {
    tally.ungrounded++;
    return true;
  }
  if (g.status === 'located') tally.located++;
  else if (g.counts === true) tally.trusted++;
  else tally.unverified++;
  return g.counts === true;
}

/** What one sentence's judgments say, read in one pass. */
interface SentenceFlags {
  /** Cited documents judged to attest the sentence (doc ids; few per sentence). */
  attested: string[];
  requires: boolean | null;
  first: boolean | null;
  negative: boolean | null;
  /** The sentence matched at least one nugget answer. */
  matched: boolean;
}

/** Reads one sentence's judgments into counts and the report's pool of matched answers. */
function readSentence(s: JudgedSentence, pool: Map<string, Set<string>>, c: ReportCounts): SentenceFlags {
  const flags: SentenceFlags = { attested: [], requires: null, first: null, negative: null, matched: false };
  // citegeist records a sentence's matches under each of its citations: tallied once (pooling is
  // a union, so every judgment is still read, as Auto-ARGUE reads them).
  let matchTally = c.grounding.nuggetMatches;
  for (const j of s.judgments) {
    const r = j.response as unknown as Record<string, unknown>;
    switch (j.judgment_type_id) {
      case JUDGMENT.attested:
        if (r.is_attested === true && counted(r.grounding as Grounding, c.grounding.citations)) {
          c.supportingCitations++;
          if (j.provenance?.doc_id != null) flags.attested.push(j.provenance.doc_id);
        }
        break;
      case JUDGMENT.relevance:
        if (r.is_relevant === true) c.relevantCitations++;
        break;
      case JUDGMENT.answers:
        for (const m of (r.matched_nuggets as ReadMatch[]) ?? []) {
          if (!counted(m.grounding, matchTally)) continue;
          const answers = pool.get(m.question_text) ?? new Set<string>();
          pool.set(m.question_text, answers);
          for (const a of m.matched_answer ?? []) answers.add(a);
          if ((m.matched_answer ?? []).length > 0) flags.matched = true;
        }
        matchTally = zeroTally();
        break;
      case JUDGMENT.requiresCitation:
        flags.requires = r.requires_citation === true;
        break;
      case JUDGMENT.firstInstance:
        flags.first = r.is_first_instance === true;
        break;
      case JUDGMENT.negative:
        flags.negative = r.is_negative === true;
        break;
    }
  }
  c.failed += s.failed_judgments?.length ?? 0;
  return flags;
}

/** The counts of a report that says nothing, against a bank of this size (a missing report). */
export function emptyCounts(nuggets: number, nuggetsWeighted: number): ReportCounts {
  return {
    sentences: 0,
    characterCount: 0,
    sentencesWithCitationsOrRequiring: 0,
    correctlyCitedSentences: 0,
    nuggets,
    nuggetsWeighted,
    correctNuggets: 0,
    correctNuggetsWeighted: 0,
    citations: 0,
    relevantCitations: 0,
    supportingCitations: 0,
    failed: 0,
    unknownQuestions: 0,
    unknownAnswers: 0,
    grounding: { citations: zeroTally(), nuggetMatches: zeroTally() },
  };
}

/** Counts one judged report against its request's nugget index. */
export function countReport(sentences: readonly JudgedSentence[], index: NuggetIndex): ReportCounts {
  const c = emptyCounts(index.count, index.weightedCount);
  c.sentences = sentences.length;
  const pool = new Map<string, Set<string>>();
  for (const s of sentences) {
    c.characterCount += codePointLength(s.text);
    const cited = s.citations.length;
    c.citations += cited;
    const f = readSentence(s, pool, c);
    if (cited > 0) {
      c.sentencesWithCitationsOrRequiring++;
      if (s.citations.every((d) => f.attested.includes(d.doc_id))) c.correctlyCitedSentences++;
    } else if (f.negative === true) {
      c.sentencesWithCitationsOrRequiring++;
      if (f.matched) c.correctlyCitedSentences++;
    } else if (f.requires === true && f.first !== false) {
      c.sentencesWithCitationsOrRequiring++;
    }
  }
  // In bank order, so weighted sums add up in the same order whatever order the matches came in.
  for (const nugget of index.nuggets.values()) {
    const answers = pool.get(nugget.question);
    if (!answers) continue;
    let known = 0;
    for (const a of answers) if (nugget.answers.has(a)) known++;
    c.unknownAnswers += answers.size - known;
    const correct =
      nugget.aggregator === 'OR'
        ? answers.size > 0
        : nugget.answers.size > 0 && known === nugget.answers.size;
    if (correct) {
      c.correctNuggets++;
      c.correctNuggetsWeighted += nugget.weight;
    }
  }
  for (const question of pool.keys()) if (!index.nuggets.has(question)) c.unknownQuestions++;
  return c;
}
