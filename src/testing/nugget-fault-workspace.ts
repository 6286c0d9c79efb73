/**
 * A `nuggets generate` workspace for the process fault campaign (`src/cli/runs.faults.test.ts`):
 * requests with documents whose scripted QA pairs repeat and paraphrase each other, so a run goes
 * through every step (QA, exact merges, verified pairs, canonical questions, answer validation).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGGREGATE_ANSWERS_SYSTEM_MULTI,
  AGGREGATE_ANSWERS_SYSTEM_SINGLE,
  GET_CANONICAL_QUESTION_SYSTEM,
  IDENTIFY_PARAPHRASE_SYSTEM,
  SUMMARIZE_SYSTEM,
  WRITE_QA_PAIRS_SYSTEM,
} from '../generate/index.js';
import type { FakeRequest } from './fake-http-server.js';

const TOPICS = ['budget', 'deadline', 'venue', 'speaker', 'ticket price'];

/** `requests.jsonl` and `docs.jsonl` of `requests` requests × `docs` documents, in a new folder. */
export function nuggetWorkspace(requests: number, docs: number): string {
  const cwd = mkdtempSync(join(tmpdir(), 'citegeist-faults-nuggets-'));
  const ids = Array.from({ length: requests }, (_, i) => `r${i}`);
  writeFileSync(
    join(cwd, 'requests.jsonl'),
    ids
      .map((id) => JSON.stringify({ request_id: id, title: id, problem_statement: `Plan event ${id}.` }))
      .join('\n'),
  );
  writeFileSync(
    join(cwd, 'docs.jsonl'),
    ids
      .flatMap((id) =>
        Array.from({ length: docs }, (_, k) =>
          JSON.stringify({ request_id: id, doc_id: `d${k}`, text: `Document ${id}-d${k} about the event.` }),
        ),
      )
      .join('\n'),
  );
  return cwd;
}

/** The scripted reply to a nugget step, or null for another command's prompt. */
export function nuggetCampaignReply(request: FakeRequest): { text: string } | null {
  const system = request.messages[0]?.content ?? '';
  const user = request.messages[1]?.content ?? '';
  if (system === SUMMARIZE_SYSTEM) return { text: `Summary of ${/Document (\S+)/.exec(user)?.[1]}.` };
  if (system === WRITE_QA_PAIRS_SYSTEM) {
    const k = Number(/-d(\d+)/.exec(user)?.[1] ?? 0);
    const [t1, t2] = [TOPICS[k % 5]!, TOPICS[(k + 2) % 5]!];
    return {
      text: JSON.stringify([
        {
          answer: `${t1} answer ${k % 3}`,
          question: k % 2 ? `What is the ${t1}?` : `What is the ${t1} set?`,
        },
        { answer: k % 4 ? `${t2} value` : 'unknown', question: `What is the ${t2}?` },
      ]),
    };
  }
  if (system === IDENTIFY_PARAPHRASE_SYSTEM) return { text: '{"explanation": "same", "paraphrase": "YES"}' };
  if (system === GET_CANONICAL_QUESTION_SYSTEM) return { text: '{"index": 1, "explanation": "first"}' };
  if (system === AGGREGATE_ANSWERS_SYSTEM_MULTI) {
    const count = (/<answers>\n([\s\S]*?)\n<\/answers>/.exec(user)?.[1]?.match(/"\d+":/g) ?? []).length;
    const verdicts = Object.fromEntries(Array.from({ length: count }, (_, i) => [String(i + 1), 'YES']));
    return { text: JSON.stringify([verdicts, 'OR']) };
  }
  if (system === AGGREGATE_ANSWERS_SYSTEM_SINGLE) return { text: 'YES' };
  return null;
}

/** The banks of an output folder (file name → text), the creation dates left out (one per run). */
export function nuggetBanks(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)
    .filter((f) => /^nuggets_.*\.json$/.test(f))
    .sort()) {
    out[name] = readFileSync(join(dir, name), 'utf8').replace(
      /"creation_date": "[^"]*"/g,
      '"creation_date": "…"',
    );
  }
  return out;
}
