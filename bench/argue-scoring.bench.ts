/**
 * ARGUE scoring throughput (issue 13 acceptance: 10,000 judged reports scored in under 2 s).
 * 50 runs × 200 topics of synthetic judged reports in the Auto-ARGUE judgments layout: 12–18
 * sentences each, 1–2 citations with a 400-character document text, the three judgments per
 * citation, a few uncited sentences; 20 nuggets per topic with 1–3 answers, AND and OR.
 * Measured: scoring (count every report, aggregate, write the TSV) from the judgments as read, and
 * end to end from the JSONL text (read + score); the baseline is JSON.parse of the same lines, the
 * floor of any reader, which the cited documents' texts in every line dominate. Interleaved
 * passes; min and median; the acceptance is checked on scoring.
 */
import { addNuggets, createNuggetBank, nuggetQuestion } from '../src/formats/index.js';
import {
  formatArgueTsv,
  indexNuggetBank,
  JUDGMENT,
  type NuggetIndex,
  parseJudgments,
  scoreJudgedReports,
  scoreRows,
} from '../src/grade/index.js';
import { createRandom } from '../src/stats/index.js';
import { interleaved, loadAverage, type Timing, timed } from './interleaved.js';

const RUNS = 50;
const TOPICS = Number(process.env.BENCH_TOPICS ?? 200);
const NUGGETS = 20;
const PASSES = Number(process.env.BENCH_PASSES ?? 5);

export function build() {
  const random = createRandom(3);
  const int = (n: number) => Math.floor(random() * n);
  const banks = new Map<string, NuggetIndex>();
  for (let t = 0; t < TOPICS; t++) {
    const bank = createNuggetBank({ query_id: `t${t}`, title_query: `Topic ${t}` });
    for (let n = 0; n < NUGGETS; n++) {
      addNuggets(
        bank,
        nuggetQuestion({
          query_id: `t${t}`,
          question: `Question ${n} of topic ${t}?`,
          aggregator_type: n % 4 === 0 ? 'AND' : 'OR',
          answers: Array.from({ length: 1 + int(3) }, (_, a) => `answer ${a}`),
        }),
      );
    }
    banks.set(`t${t}`, indexNuggetBank(bank, `t${t}`));
  }
  const doc = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(7);
  const judgment = (type: string, response: Record<string, unknown>, docId: string | null) => ({
    judgment_type_id: type,
    response: { judgment_type_id: type, ...response },
    evaluator: 'bench',
    provenance: { doc_id: docId, sentence: null, run_id: null, sent_id: null },
  });
  const lines: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    for (let t = 0; t < TOPICS; t++) {
      const sentences = Array.from({ length: 12 + int(7) }, (_, s) => {
        const cited = int(10) < 8 ? Array.from({ length: 1 + int(2) }, (_, c) => `doc-${t}-${s}-${c}`) : [];
        const matched = [
          {
            question_text: `Question ${int(NUGGETS)} of topic ${t}?`,
            matched_answer: ['answer 0'],
            importance: null,
          },
        ];
        const judgments = cited.length
          ? cited.flatMap((d) => [
              judgment(JUDGMENT.relevance, { doc_id: d, is_relevant: int(10) < 9 }, d),
              judgment(JUDGMENT.answers, { matched_nuggets: int(3) === 0 ? matched : [] }, d),
              judgment(JUDGMENT.attested, { is_attested: int(10) < 8 }, d),
            ])
          : [
              judgment(JUDGMENT.negative, { is_negative: false }, null),
              judgment(JUDGMENT.requiresCitation, { requires_citation: int(2) === 0 }, null),
            ];
        return {
          segment_type: 'sentence',
          text: `Sentence ${s} of the report on topic ${t}, with some words.`,
          citations: cited.map((d) => ({ doc_id: d, text: doc })),
          judgments,
        };
      });
      lines.push(
        JSON.stringify({
          report: {
            metadata: { team_id: 'bench', run_id: `run${r}`, topic_id: `t${t}` },
            responses: [],
            references: [],
          },
          judgments: sentences,
        }),
      );
    }
  }
  return { banks, text: `${lines.join('\n')}\n`, lines };
}

export default async function bench(): Promise<void> {
  const { banks, text, lines } = build();
  console.log(
    `${lines.length.toLocaleString('en-US')} judged reports (${RUNS} runs × ${TOPICS} topics), ${(text.length / 1e6).toFixed(0)} MB of JSONL, ${NUGGETS} nuggets per topic; load average ${loadAverage()}`,
  );
  const judged = parseJudgments(text, 'bench.jsonl').reports;
  let rows = 0;
  const t = await interleaved(PASSES, {
    floor: () => timed(() => lines.map((l) => JSON.parse(l))),
    score: () =>
      timed(() => {
        rows = formatArgueTsv(scoreRows(scoreJudgedReports(judged, banks))).split('\n').length - 2;
      }),
    endToEnd: () =>
      timed(() =>
        formatArgueTsv(scoreRows(scoreJudgedReports(parseJudgments(text, 'bench.jsonl').reports, banks))),
      ),
  });
  const sec = (x: Timing) => `min ${(x.min / 1000).toFixed(2)} s, median ${(x.median / 1000).toFixed(2)} s`;
  const [a, e, b] = [t.score!, t.endToEnd!, t.floor!];
  console.log(`scoring (count + aggregate + TSV, ${rows.toLocaleString('en-US')} rows): ${sec(a)}`);
  console.log(
    `end to end (read the JSONL + score): ${sec(e)}; baseline JSON.parse of the same lines: ${sec(b)}; end to end / baseline ${(e.min / b.min).toFixed(2)}× on minima (median ${(e.median / b.median).toFixed(2)}×)`,
  );
  console.log(
    `acceptance (scoring 10,000 judged reports < 2 s): ${lines.length >= 10_000 ? (a.median < 2000 ? 'met' : 'NOT met') : 'n/a (fewer reports)'}; load ${loadAverage()} after`,
  );
}
