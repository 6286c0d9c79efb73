import { citegeistNow } from '../core/index.js';
import type { CardNote } from '../grade/index.js';
import { buildFaithfulnessSection, type FaithfulnessSource } from './faithfulness-section.js';
import { buildGradesSection, type GradesSectionInput } from './grades-section.js';
import { type BankNuggets, buildJudgmentsSection } from './judgments-section.js';
import type { Json } from './loose-records.js';
import type { InputInfo, ReportData } from './report-data.js';

export interface ReportInput {
  title: string;
  /** `citegeist <version>`. */
  tool: string;
  generatedAt?: string;
  facts?: [string, string][];
  inputs: InputInfo[];
  /** Warnings from reading the inputs (rows skipped…). */
  notes?: string[];
  seed?: number;
  grades?: Omit<GradesSectionInput, 'seed'>;
  faithfulness?: readonly FaithfulnessSource[];
  judgments?: { rows: readonly Json[]; banks: readonly BankNuggets[] };
  /** The judges' cards (`certifyJudges`), shown beside the judged metrics. */
  judgeCards?: CardNote[];
}

const empty = { metrics: [], runs: [], questions: [], answers: [], papers: [], notes: [], pairwise: null };

/**
 * Builds a report's data from any mix of sources: ResearchQA grades (with their runs, dataset and
 * papers), VETSCORE faithfulness output and ARGUE judgments. Each source has its own builder; this
 * joins them (a VETSCORE answer links to the graded answer of the same run label and row id).
 */
export function buildReportData(input: ReportInput): ReportData {
  const seed = input.seed ?? 0;
  const grades = input.grades ? buildGradesSection({ ...input.grades, seed }) : empty;
  const notes = [...(input.notes ?? []), ...grades.notes];
  let vetscore: ReportData['vetscore'] = null;
  if (input.faithfulness) {
    const index = new Map(
      grades.answers.map((a, i) => [`${grades.runs[a.r]?.label}\u0000${grades.questions[a.q]?.id}`, i]),
    );
    const runFiles = new Map(
      (input.grades?.runs ?? []).map((f) => [
        baseName(f.name),
        f.manifest?.label ?? f.rows[0]?.model ?? null,
      ]),
    );
    vetscore = buildFaithfulnessSection(
      input.faithfulness,
      (name) => runFiles.get(baseName(name)) ?? null,
      (label, id) => index.get(`${label}\u0000${id}`) ?? null,
      seed,
    );
    vetscore.answers.forEach((v, i) => {
      if (v.a !== null) grades.answers[v.a]!.vet = i;
    });
    const unlinked = vetscore.answers.filter((v) => v.a === null).length;
    if (unlinked > 0 && grades.answers.length > 0) {
      notes.push(
        `${unlinked} VETSCORE answer(s) match no graded answer of the same run label and row id: they are shown in the VETSCORE view only.`,
      );
    }
  }
  return {
    version: 1,
    title: input.title,
    generatedAt: input.generatedAt ?? citegeistNow().toISOString(),
    tool: input.tool,
    inputs: input.inputs,
    notes,
    facts: input.facts ?? [],
    metrics: grades.metrics,
    runs: grades.runs,
    questions: grades.questions,
    answers: grades.answers,
    papers: grades.papers,
    vetscore,
    argue: input.judgments ? buildJudgmentsSection(input.judgments.rows, input.judgments.banks) : null,
    ...(input.judgeCards?.length ? { judgeCards: input.judgeCards } : {}),
    pairwise: grades.pairwise,
  };
}

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;
