/**
 * Acceptance (issue 13): 100 reports × 20 nuggets judged through a fake OpenAI-compatible server
 * that faults on 30% of requests (HTTP 500, 429 with retry-after, broken JSON, schema-ignoring
 * replies, truncated bodies). Every judgment the flow owes must be either made or failed with a
 * reason; nothing is lost or read as "no"; a rerun against a healthy server completes the rest.
 */
import { describe, expect, it } from 'vitest';
import { parseReport, type ReportRequest } from '../../formats/index.js';
import { createProvider } from '../../llm/index.js';
import { createRandom } from '../../stats/index.js';
import { type FakeAction, FakeOpenAiServer, faults } from '../../testing/index.js';
import { countReport } from './count-report.js';
import type { CitedDocumentSource } from './documents.js';
import { judgeReports } from './judge-batch.js';
import { JUDGMENT, type JudgedReport } from './judgments.js';
import { LlmReportJudge } from './llm-report-judge.js';
import { indexNuggetBank } from './nugget-index.js';

const REPORTS = 100;
const NUGGETS = 20;

const docs: CitedDocumentSource = {
  description: 'synthetic',
  get: (id) => ({
    id,
    text: `Document ${id} states fact ${id}. It also says more about ${id}.`,
    title: null,
  }),
};
const nuggets = Array.from({ length: NUGGETS }, (_, i) => ({
  question: `Question ${i}?`,
  answers: [`answer ${i}`, `alt ${i}`],
  importance: null,
}));
const bank = {
  title_query: 't',
  nugget_bank: Object.fromEntries(
    nuggets.map((n) => [
      n.question,
      { question: n.question, answers: Object.fromEntries(n.answers.map((a) => [a, { answer: a }])) },
    ]),
  ),
};

function inputs() {
  const random = createRandom(11);
  return Array.from({ length: REPORTS }, (_, r) => {
    const sentences = Array.from({ length: 4 + (r % 3) }, (_, s) => ({
      text: `Report ${r} sentence ${s} gives answer ${(r + s) % NUGGETS}.`,
      citations:
        s === 3 ? [] : Array.from({ length: 1 + Math.floor(random() * 2) }, (_, c) => `r${r}-d${s}-${c}`),
    }));
    const report = parseReport(
      {
        metadata: { team_id: 't', run_id: 'faulty', topic_id: `t${r}` },
        responses: sentences,
        references: [],
      },
      `run line ${r + 1}`,
    );
    const request: ReportRequest = {
      id: `t${r}`,
      title: `Topic ${r}`,
      background: null,
      problemStatement: 'Report on it.',
      limit: null,
      raw: {},
      where: 'q',
    };
    return { report, request, nuggets, limit: null, lengthMode: 'characters' as const };
  });
}

/** What a healthy model answers to each ARGUE question. */
function healthy(system: string, user: string): string {
  if (system.includes('cites')) return '{"attested": true, "evidence_quote": "states fact"}';
  if (system.includes('relevant')) return '{"relevant": true}';
  if (system.includes('which questions')) {
    const n = /gives answer (\d+)/.exec(user)?.[1];
    return JSON.stringify({ matches: n === undefined ? [] : [{ question: Number(n) + 1, answers: [1] }] });
  }
  return '{"answer": false}';
}

function server(faultRate: number) {
  const random = createRandom(29);
  const menu: (() => FakeAction)[] = [
    () => faults.serverError(500),
    () => faults.rateLimit('0'),
    () => faults.invalidJson(),
    () => faults.ignoreSchema(),
    () => faults.truncatedBody(),
  ];
  return new FakeOpenAiServer({
    replies: (request) => {
      if (random() < faultRate) return menu[Math.floor(random() * menu.length)]!();
      return { text: healthy(request.messages[0]!.content, request.messages.at(-1)!.content) };
    },
  }).start();
}

async function judgeAll(url: string, todo: ReturnType<typeof inputs>): Promise<JudgedReport[]> {
  const llm = createProvider(`openai-compatible:${url}/v1#faulty-model`, {
    maxAttempts: 2,
    retryDelayScale: 0,
    timeoutMs: 5000,
    concurrency: 8,
  });
  return judgeReports(todo, { judge: new LlmReportJudge(llm), docs, version: 'test' }, { concurrency: 8 });
}

/** The judgments the ARGUE flow owes a report: per citation 3; per uncited sentence at least 1. */
function owed(judged: JudgedReport): { made: number; failed: number; reasons: string[]; missing: string[] } {
  const out = { made: 0, failed: 0, reasons: [] as string[], missing: [] as string[] };
  judged.judgments.forEach((s, i) => {
    const all = [
      ...s.judgments.map((j) => ({ type: j.judgment_type_id, doc: j.provenance.doc_id })),
      ...(s.failed_judgments ?? []).map((f) => ({ type: f.judgment_type_id, doc: f.provenance.doc_id })),
    ];
    out.made += s.judgments.length;
    out.failed += s.failed_judgments?.length ?? 0;
    out.reasons.push(...(s.failed_judgments ?? []).map((f) => f.reason));
    const need = s.citations.length
      ? s.citations.flatMap((c) =>
          [JUDGMENT.relevance, JUDGMENT.answers, JUDGMENT.attested].map((type) => ({ type, doc: c.doc_id })),
        )
      : [{ type: JUDGMENT.negative, doc: null }];
    for (const n of need)
      if (!all.some((a) => a.type === n.type && a.doc === n.doc))
        out.missing.push(`sentence ${i}: ${n.type} ${n.doc}`);
  });
  return out;
}

describe('judging through a faulty model server', () => {
  it('100 reports × 20 nuggets at 30% faults: every judgment made or failed with a reason; a rerun completes the rest', async () => {
    const todo = inputs();
    const faulty = await server(0.3);
    let first: JudgedReport[];
    try {
      first = await judgeAll(faulty.url, todo);
    } finally {
      await faulty.close();
    }
    expect(first).toHaveLength(REPORTS);
    let failed = 0;
    for (const judged of first) {
      const o = owed(judged);
      expect(o.missing, judged.report.metadata ? JSON.stringify(judged.report.metadata) : '').toEqual([]);
      for (const reason of o.reasons) expect(reason.length).toBeGreaterThan(5);
      expect(judged.citegeist!.failed).toBe(o.failed);
      failed += o.failed;
    }
    expect(failed).toBeGreaterThan(0); // the faults did reach the judgments
    const made = first.reduce((n, j) => n + owed(j).made, 0);
    const reasons = new Map<string, number>();
    for (const j of first)
      for (const r of owed(j).reasons) reasons.set(r.slice(0, 60), (reasons.get(r.slice(0, 60)) ?? 0) + 1);
    console.log(
      `faults: ${made} judgments made, ${failed} failed in ${first.filter((j) => (j.citegeist?.failed ?? 0) > 0).length} reports; reasons: ${JSON.stringify([...reasons])}`,
    );
    const index = indexNuggetBank(bank, 'bank');
    const withFailures = first.filter((j) => (j.citegeist?.failed ?? 0) > 0);
    for (const j of withFailures) expect(countReport(j.judgments, index).failed).toBeGreaterThan(0);

    // Rerun the reports with failures against a healthy server: all complete.
    const healthyServer = await server(0);
    try {
      const retried = await judgeAll(
        healthyServer.url,
        todo.filter((_, i) => (first[i]!.citegeist?.failed ?? 0) > 0),
      );
      expect(retried.length).toBe(withFailures.length);
      for (const j of retried) {
        expect(j.citegeist!.failed).toBe(0);
        expect(owed(j).missing).toEqual([]);
        expect(countReport(j.judgments, index).supportingCitations).toBe(
          j.judgments.reduce((n, s) => n + s.citations.length, 0),
        );
      }
    } finally {
      await healthyServer.close();
    }
  }, 120_000);
});
