import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CitegeistError, type DatasetRow } from '../core/index.js';
import { readTextFile } from '../io/index.js';
import {
  checkQasperQuestion,
  markdownLocator,
  nativeLocator,
  type QasperQuestion,
  qasperQuestionToRow,
  type SectionLocator,
} from './qasper-import.js';

export interface QasperImportResult {
  rows: DatasetRow[];
  /** Questions that could not be read (the others are imported). */
  errors: { where: string; message: string }[];
  /** Papers whose text was not found, so their evidence has no section label. */
  missingPapers: string[];
  /** Evidence paragraphs that could not be located in their paper. */
  unlocatedEvidence: number;
}

const PAPER_EXTENSIONS = ['.txt', '.md', '.markdown'];

/**
 * Imports QASPER as citegeist rows from either layout:
 * - native (`{paperId: {title, abstract, full_text, qas}}`): sections come from `full_text`;
 * - flat (`[{paper_id, question_id, question, answers}]`, e.g. questions_validation.json) with the
 *   Markdown papers in `papersDir` (`<paper_id>.txt|.md`).
 */
export function importQasper(
  data: unknown,
  options: { file: string; papersDir?: string },
): QasperImportResult {
  const out: QasperImportResult = { rows: [], errors: [], missingPapers: [], unlocatedEvidence: 0 };
  const add = (raw: unknown, where: string, locatorFor: (q: QasperQuestion) => SectionLocator) => {
    try {
      const q = checkQasperQuestion(raw, where);
      const row = qasperQuestionToRow(q, locatorFor(q));
      const unlocated = row.metadata.unlocated_evidence;
      if (Array.isArray(unlocated)) out.unlocatedEvidence += unlocated.length;
      out.rows.push(row);
    } catch (error) {
      out.errors.push({ where, message: (error as Error).message });
    }
  };
  if (Array.isArray(data)) {
    const locators = new Map<string, SectionLocator>();
    const locatorFor = (q: QasperQuestion) => {
      let loc = locators.get(q.paper_id);
      if (!loc) {
        loc = flatLocator(q.paper_id, options.papersDir, out.missingPapers);
        locators.set(q.paper_id, loc);
      }
      return loc;
    };
    for (const [i, raw] of data.entries()) add(raw, `${options.file} [${i}]`, locatorFor);
  } else if (data !== null && typeof data === 'object') {
    for (const [paperId, paper] of Object.entries(data as Record<string, unknown>)) {
      importNativePaper(paperId, paper, options.file, add);
    }
  } else {
    throw new CitegeistError(
      'UNKNOWN_LAYOUT',
      `${options.file} is neither a native QASPER file nor a list of questions.`,
      'Give qasper-*-v0.3.json or questions_validation.json with --papers.',
    );
  }
  return out;
}

function flatLocator(paperId: string, dir: string | undefined, missing: string[]): SectionLocator {
  const file = dir ? PAPER_EXTENSIONS.map((e) => join(dir, `${paperId}${e}`)).find(existsSync) : undefined;
  if (!file) {
    missing.push(paperId);
    return () => null;
  }
  return markdownLocator(readTextFile(file, 'QASPER paper'));
}

type Add = (raw: unknown, where: string, locatorFor: (q: QasperQuestion) => SectionLocator) => void;

function importNativePaper(paperId: string, paper: unknown, file: string, add: Add): void {
  const p = (paper ?? {}) as {
    title?: unknown;
    abstract?: unknown;
    full_text?: unknown;
    qas?: unknown;
  };
  const fullText = Array.isArray(p.full_text)
    ? (p.full_text as { section_name: string | null; paragraphs: string[] }[])
    : [];
  const abstract = typeof p.abstract === 'string' ? p.abstract : '';
  const inner = nativeLocator(fullText);
  const locator: SectionLocator = (text) => (abstract !== '' && text === abstract ? 'Abstract' : inner(text));
  const qas = Array.isArray(p.qas) ? p.qas : [];
  for (const [i, q] of qas.entries()) {
    const rec = (q ?? {}) as Record<string, unknown>;
    const answers = Array.isArray(rec.answers)
      ? rec.answers.map((a) => (a as { answer?: unknown } | null)?.answer)
      : rec.answers;
    const flat = {
      paper_id: paperId,
      ...(typeof p.title === 'string' ? { paper_title: p.title } : {}),
      question_id: rec.question_id,
      question: rec.question,
      answers,
    };
    add(flat, `${file} ${paperId}.qas[${i}]`, () => locator);
  }
}
