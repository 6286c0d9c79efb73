import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FakeRequest } from './fake-http-server.js';

/**
 * A synthetic workspace for the fault campaign: papers whose facts are known, a dataset over them,
 * and one fake model reply function that answers, judges and generates questions by prompt, so the
 * whole pipeline runs against a fake OpenAI-compatible server with real, verifiable content.
 */
export const COMMON_SENTENCE = 'The common sentence appears in every synthetic paper of this campaign.';

export const paperId = (i: number): string => `p${String(i).padStart(2, '0')}`;

/** Paper `i`: a Methods section with the common sentence and its own numbered facts, and filler. */
export function paperText(i: number): string {
  const facts = Array.from(
    { length: 12 },
    (_, j) => `Measurement ${j} of paper ${i} was ${(i + 1) * (j + 3)} units.`,
  );
  const filler = Array.from(
    { length: 30 },
    (_, j) => `Paragraph ${j} discusses the setting of study ${i} in plain words without numbers of note.`,
  );
  return `# Paper ${i}\n\n## Methods\n\n${COMMON_SENTENCE} ${facts.slice(0, 6).join(' ')}\n\n## Results\n\n${facts.slice(6).join(' ')}\n\n## Discussion\n\n${filler.join('\n\n')}\n`;
}

/** The dataset's row ids: `rows` questions spread round-robin over `papers` papers. */
export function datasetIds(rows: number, papers: number): string[] {
  return Array.from({ length: rows }, (_, n) => `${paperId(n % papers)}_q${n}`);
}

/** A folder with papers/p00.md … and dataset.jsonl (`rows` lookup questions citing the common sentence). */
export function faultWorkspace(rows: number, papers: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-faults-'));
  mkdirSync(join(dir, 'papers'));
  for (let i = 0; i < papers; i++) writeFileSync(join(dir, 'papers', `${paperId(i)}.md`), paperText(i));
  const lines = datasetIds(rows, papers).map((id, n) =>
    JSON.stringify({
      row_id: id,
      paper_id: paperId(n % papers),
      question_type: 'lookup',
      question: `What does paper ${n % papers} say in question ${n}?`,
      expected_answer: 'The common sentence.',
      expected_references: [{ section_label: 'Methods', alternatives: [COMMON_SENTENCE] }],
    }),
  );
  writeFileSync(join(dir, 'dataset.jsonl'), lines.map((l) => `${l}\n`).join(''));
  return dir;
}

/** The fake model: judge verdicts, generated questions (quoting the paper verbatim) or a cited answer. */
export function campaignReply(request: FakeRequest): { text: string } {
  const system = request.messages[0]?.content ?? '';
  const user = request.messages[1]?.content ?? '';
  if (system.startsWith('You grade one answer')) {
    // The one claim, quoted from the answer and the expected answer (grounded, so the 4 stands).
    return {
      text: JSON.stringify({
        factual_accuracy: 4,
        completeness: 4,
        justification: 'one claim, consistent',
        evidence: [{ claim: 'The paper says so', expected_quote: 'The common sentence' }],
      }),
    };
  }
  if (system.startsWith('You build a citation-grounded')) {
    const i = Number(/Paper p(\d+)/.exec(user)?.[1] ?? 0);
    const evidence = [
      { section_label: 'Methods', alternatives: [`Measurement 1 of paper ${i} was ${(i + 1) * 4} units.`] },
    ];
    return {
      text: JSON.stringify({
        chunks: [
          {
            section_label: 'Methods',
            lookup: { question: `Measurement 1 of paper ${i}?`, expected_answer: `${(i + 1) * 4}`, evidence },
            comprehension: {
              question: 'What was measured?',
              expected_answer: 'Units.',
              evidence,
              rubric: ['a', 'b', 'c'],
            },
          },
        ],
        multi_hop: [],
        adversarial: [],
      }),
    };
  }
  if (system.startsWith('You summarise the procedure')) {
    const title = /^Title: (.*)$/m.exec(user)?.[1] ?? '';
    return {
      text: JSON.stringify({
        material_name: `the subject of ${title}`,
        synthesis_method: 'measured',
        steps: [{ description: 'Measure it.' }],
        key_points: ['one measurement'],
      }),
    };
  }
  return {
    text: `The paper says so [^1].\n---EVIDENCE---\n@cite[1]\n"${COMMON_SENTENCE}"\n---END-EVIDENCE---`,
  };
}

export interface CorpusState {
  files: number;
  documents: number;
  /** Documents stored twice (an id with a `-2`-style suffix). */
  duplicates: number;
  /** Integrity-check failures, files without documents, documents without paragraphs. */
  problems: number;
}

/** The corpus as a reader sees it (a file killed before its schema existed counts as empty). */
export function corpusState(path: string): CorpusState {
  const empty = { files: 0, documents: 0, duplicates: 0, problems: 0 };
  if (!existsSync(path)) return empty;
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    const one = (sql: string) => Number((db.prepare(sql).get() as { n: number }).n);
    const integrity = (db.prepare('PRAGMA integrity_check').get() as Record<string, string>).integrity_check;
    return {
      files: one('SELECT count(*) AS n FROM files'),
      documents: one('SELECT count(*) AS n FROM documents'),
      duplicates: one("SELECT count(*) AS n FROM documents WHERE id GLOB '*-[0-9]*'"),
      problems:
        (integrity === 'ok' ? 0 : 1) +
        one(
          'SELECT count(*) AS n FROM files f WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.file = f.path)',
        ) +
        one(
          'SELECT count(*) AS n FROM documents d WHERE NOT EXISTS (SELECT 1 FROM paragraphs p WHERE p.doc_id = d.id)',
        ),
    };
  } catch (error) {
    if (/no such table/.test((error as Error).message)) return empty;
    throw error;
  } finally {
    db.close();
  }
}
