import {
  compareBytes,
  contentLines,
  expectFields,
  malformed,
  parseCDouble,
  parseGrade,
  pushTo,
  type QrelsEntry,
  sortedTopics,
} from '../../formats/index.js';
import { duplicateDoc } from './res-rels.js';

/**
 * The judgement formats of trec_eval's `-R` besides plain qrels (formats.c): preference files
 * (`prefs`, `qrels_prefs`) and qrels with judgment groups (`qrels_jg`), plus the z-score file of
 * `-Z`. Each keeps topics in byte order of their ids, as the C readers sort them.
 */

/** One line of a preference file: within judgment (sub)group `jg`/`jsg`, `docno` has `relLevel`. */
export interface PrefEntry {
  jg: string;
  jsg: string;
  docno: string;
  relLevel: number;
}

export interface Prefs {
  topics: Map<string, PrefEntry[]>;
}

/** One user's (judgment group's) qrels for a topic, sorted by docno. */
export interface JudgmentGroup {
  jg: string;
  entries: QrelsEntry[];
}

export interface QrelsJg {
  topics: Map<string, JudgmentGroup[]>;
}

/** Mean and standard deviation of each measure per topic (`qid measure mean stddev`). */
export interface ZScores {
  topics: Map<string, Map<string, { mean: number; stddev: number }>>;
}

function relLevelOf(file: string, line: number, text: string): number {
  const value = parseCDouble(text);
  if (value === null) {
    throw malformed(
      file,
      line,
      'rel_level is not a number',
      text,
      'Write a decimal rel_level in the last column.',
    );
  }
  return value;
}

function sortByDocno<T extends { docno: string }>(topics: Map<string, T[]>): Map<string, T[]> {
  for (const list of topics.values()) list.sort((a, b) => compareBytes(a.docno, b.docno));
  return sortedTopics(topics);
}

/** `-R prefs`: lines `qid jg jsg docno rel_level` (get_prefs.c). */
export function parsePrefs(text: string, file = 'prefs'): Prefs {
  const topics = new Map<string, PrefEntry[]>();
  for (const where of contentLines(text, 'line-start')) {
    expectFields(file, where, 5, 'qid jg jsg docno rel_level');
    const [qid, jg, jsg, docno, rel] = where.fields as [string, string, string, string, string];
    pushTo(topics, qid, { jg, jsg, docno, relLevel: relLevelOf(file, where.line, rel) });
  }
  return { topics: sortByDocno(topics) };
}

/**
 * `-R qrels_prefs`: a qrels file read as preferences (get_qrels_prefs.c): the iter column is the
 * judgment group and every line is in the one sub-group "0".
 */
export function parseQrelsPrefs(text: string, file = 'qrels'): Prefs {
  const topics = new Map<string, PrefEntry[]>();
  for (const where of contentLines(text, 'line-start')) {
    expectFields(file, where, 4, 'qid jg docno rel_level');
    const [qid, jg, docno, rel] = where.fields as [string, string, string, string];
    pushTo(topics, qid, { jg, jsg: '0', docno, relLevel: relLevelOf(file, where.line, rel) });
  }
  return { topics: sortByDocno(topics) };
}

/** `-R qrels_jg`: qrels whose iter column names the judgment group (get_qrels_jg.c). */
export function parseQrelsJg(text: string, file = 'qrels'): QrelsJg {
  const byTopic = new Map<string, Map<string, QrelsEntry[]>>();
  for (const where of contentLines(text, 'line-start')) {
    expectFields(file, where, 4, 'qid jg docno rel');
    const [qid, jg, docno, rel] = where.fields as [string, string, string, string];
    const groups = byTopic.get(qid) ?? new Map<string, QrelsEntry[]>();
    byTopic.set(qid, groups);
    pushTo(groups, jg, { docno, rel: parseGrade(file, where.line, rel) });
  }
  const topics = new Map<string, JudgmentGroup[]>();
  for (const [qid, groups] of sortedTopics(byTopic)) {
    const list = [...groups.entries()]
      .sort((a, b) => compareBytes(a[0], b[0]))
      .map(([jg, entries]) => {
        entries.sort((a, b) => compareBytes(a.docno, b.docno));
        for (let i = 1; i < entries.length; i++) {
          const docno = (entries[i] as QrelsEntry).docno;
          if (docno === (entries[i - 1] as QrelsEntry).docno) throw duplicateDoc('qrels', qid, docno);
        }
        return { jg, entries };
      });
    topics.set(qid, list);
  }
  return { topics };
}

/** `-Z`: lines `qid measure mean stddev` (get_zscores.c). */
export function parseZScores(text: string, file = 'zscores'): ZScores {
  const topics = new Map<string, Map<string, { mean: number; stddev: number }>>();
  for (const where of contentLines(text, 'line-start')) {
    expectFields(file, where, 4, 'qid measure mean stddev');
    const [qid, measure, meanText, stddevText] = where.fields as [string, string, string, string];
    const mean = parseCDouble(meanText);
    const stddev = parseCDouble(stddevText);
    if (mean === null || stddev === null) {
      throw malformed(
        file,
        where.line,
        'mean or stddev is not a number',
        where.raw,
        'Write two decimal numbers.',
      );
    }
    const row = topics.get(qid) ?? new Map<string, { mean: number; stddev: number }>();
    topics.set(qid, row);
    // get_zscores.c binary-searches a sorted list; with a repeated (qid, measure) one of them is found.
    if (!row.has(measure)) row.set(measure, { mean, stddev });
  }
  return { topics };
}
