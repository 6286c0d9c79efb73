/**
 * Fault campaign for `nuggets generate`: a model whose calls fail at random (30 %, seeded) and a
 * log torn by a crash mid-write. Rerunning until every request finishes must give the same banks
 * and judgments, byte for byte, as one clean run, with no unit logged twice.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createManifest } from '../../core/index.js';
import type { ReportRequest } from '../../formats/index.js';
import type { GenerateRequest } from '../../llm/index.js';
import { createRandom } from '../../stats/index.js';
import { FakeLlm } from '../../testing/index.js';
import { NuggetPipeline, type RequestInput } from './nugget-pipeline.js';
import {
  AGGREGATE_ANSWERS_SYSTEM_MULTI,
  GET_CANONICAL_QUESTION_SYSTEM,
  IDENTIFY_PARAPHRASE_SYSTEM,
  SUMMARIZE_SYSTEM,
  WRITE_QA_PAIRS_SYSTEM,
} from './prompts/index.js';
import { StepState } from './step-log.js';

const TOPICS = ['budget', 'deadline', 'venue', 'speaker', 'ticket price'];

function inputs(): RequestInput[] {
  return ['r1', 'r2'].map((id) => ({
    request: {
      id,
      title: id,
      background: 'bg',
      problemStatement: `ps ${id}`,
      limit: null,
      raw: {},
      where: 'x',
    } as ReportRequest,
    docs: Array.from({ length: 12 }, (_, k) => ({
      id: `${id}-d${k}`,
      text: `document ${id}-d${k}`,
      language: null,
    })),
  }));
}

/** Two questions per document over five topics, phrased two ways: exact merges and paraphrases. */
function reply(r: GenerateRequest): string {
  const [system, user] = [r.messages[0]!.content, r.messages[1]!.content];
  if (system === SUMMARIZE_SYSTEM) return `summary of ${/document (\S+)/.exec(user)![1]}`;
  if (system === WRITE_QA_PAIRS_SYSTEM) {
    const k = Number(/-d(\d+)/.exec(user)![1]);
    const t1 = TOPICS[k % 5]!;
    const t2 = TOPICS[(k + 2) % 5]!;
    return JSON.stringify([
      { answer: `${t1} answer ${k % 3}`, question: k % 2 ? `What is the ${t1}?` : `Which ${t1} was set?` },
      { answer: k % 4 ? `${t2} value` : 'unknown', question: `What is the ${t2}?` },
    ]);
  }
  if (system === IDENTIFY_PARAPHRASE_SYSTEM) return '{"paraphrase": "YES"}';
  if (system === GET_CANONICAL_QUESTION_SYSTEM) return '{"index": 2, "explanation": "second"}';
  if (system === AGGREGATE_ANSWERS_SYSTEM_MULTI) return '[{"1": "YES", "2": "NO"}, "OR"]';
  return 'YES';
}

/** "What is the X?" and "Which X was set?" are the only near pairs. */
async function embed(texts: string[]) {
  return texts.map((t) => {
    const topic = TOPICS.findIndex((x) => t.includes(x));
    const v = new Float32Array(8);
    v[topic] = 1;
    v[7] = t.startsWith('Which') ? 0.3 : 0;
    return v;
  });
}

const creator = { is_human: false, llm_model: 'fake' };

const manifest = createManifest({
  kind: 'nuggets',
  defaultLabel: 'fake',
  settings: { model: 'fake' },
  inputs: {},
  version: 'test',
});

async function runOnce(out: string, llm: FakeLlm) {
  const state = StepState.open({ dir: out, name: 'generate', manifest, command: 'test', ownsBanks: true });
  try {
    return await new NuggetPipeline({ llm, embed, outDir: out, creator, state }).run(inputs());
  } finally {
    state.close();
  }
}

function outputs(out: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const f of readdirSync(out, { recursive: true }) as string[]) {
    if (/\.json$/.test(f)) files[f] = readFileSync(join(out, f), 'utf8');
  }
  return files;
}

describe('nuggets generate under faults', () => {
  it('random call failures and a torn log: reruns reach the clean run, byte for byte', async () => {
    const clean = mkdtempSync(join(tmpdir(), 'nuggets-clean-'));
    const cleanOutcomes = await runOnce(clean, new FakeLlm(reply));
    expect(cleanOutcomes.every((o) => o.blockedAt === null)).toBe(true);

    const faulty = mkdtempSync(join(tmpdir(), 'nuggets-faulty-'));
    const random = createRandom(7);
    let runs = 0;
    let failures = 0;
    for (; runs < 40; runs++) {
      const llm = new FakeLlm((r) => {
        if (random() < 0.3) {
          failures++;
          return { fail: 'HTTP 503' };
        }
        return reply(r);
      });
      const outcomes = await runOnce(faulty, llm);
      if (runs === 1)
        appendFileSync(
          join(faulty, '.state', 'generate.jsonl'),
          '{"unit": "0a1b", "step": "qa", "record": {"request_id": "r1", "doc_id": "r1-d',
        );
      if (outcomes.every((o) => o.blockedAt === null)) break;
    }
    expect(failures).toBeGreaterThan(10);
    expect(runs).toBeGreaterThan(1);
    // One more run after the torn write: it must not change anything.
    await runOnce(faulty, new FakeLlm(reply));
    expect(outputs(faulty)).toEqual(outputs(clean));
    // Every line of the state file is complete, and no unit is logged twice.
    const lines = readFileSync(join(faulty, '.state', 'generate.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const units = lines.slice(1).map((l) => JSON.parse(l) as { unit: string; step: string });
    expect(new Set(units.map((u) => u.unit)).size).toBe(units.length);
    expect(new Set(units.map((u) => u.step))).toEqual(new Set(['qa', 'pairs', 'canonical', 'answers']));
  });
});
