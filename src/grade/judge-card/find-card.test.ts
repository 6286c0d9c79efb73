import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HumanSet, JudgeLabels } from '../human-labels/index.js';
import { certifyJudge, requireAgreement } from './agreement-gate.js';
import { cardForJudge } from './find-card.js';
import { buildJudgeCard } from './judge-card.js';

const set: HumanSet = {
  name: 'tiny',
  dimension: null,
  scale: {
    kind: 'binary',
    categories: [
      { code: 0, name: 'no' },
      { code: 1, name: 'yes' },
    ],
    meaning: 'yes/no',
  },
  items: [0, 1, 1, 0, 1, 0].map((v, i) => ({
    id: `i${i}`,
    inputs: {},
    labels: [{ annotator: 'a', value: v }],
  })),
  sha256: 'a'.repeat(64),
  licence: 'test',
  source: 'test',
};

/** A card of `model` / prompt `p1` whose judge copies the first `right` labels and flips the rest. */
function card(model: string, right: number, at: string) {
  const values = new Map(
    set.items.map((item, i) => [item.id, i < right ? item.labels[0]!.value : 1 - item.labels[0]!.value]),
  );
  const labels: JudgeLabels = {
    values,
    failed: [],
    continuous: false,
    manifest: null,
    orders: new Map(),
    problems: [],
  };
  const c = buildJudgeCard(
    set,
    labels,
    { model, prompt_version: 'p1', kind: 'test' },
    {
      iterations: 50,
      version: 'test',
      now: () => new Date(at),
    },
  );
  return `${JSON.stringify(c)}\n`;
}

const judge = { what: 'test judge', model: 'm', promptVersion: 'p1' };

describe('cardForJudge: the workspace search', () => {
  it('takes *card.json files of the same model and prompt, the newest first; passes over other files', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'find-card-'));
    mkdirSync(join(cwd, 'judge-cards'));
    writeFileSync(join(cwd, 'judge-cards', 'old-card.json'), card('m', 6, '2026-01-01T00:00:00Z'));
    writeFileSync(join(cwd, 'new-card.json'), card('m', 3, '2026-06-01T00:00:00Z'));
    writeFileSync(join(cwd, 'other-card.json'), card('other', 6, '2026-12-01T00:00:00Z'));
    writeFileSync(join(cwd, 'broken-card.json'), '{not json');
    writeFileSync(join(cwd, 'newest.json'), card('m', 6, '2026-12-01T00:00:00Z')); // not named *card.json
    const found = cardForJudge(judge, { cwd });
    expect(found.card && found.path).toBe('new-card.json');
    expect(found.card?.measures.kappa?.estimate).toBe(0);
    const none = cardForJudge({ ...judge, promptVersion: 'p2' }, { cwd });
    expect(none).toEqual({ card: null, searched: ['judge-cards', '.'] });
  });

  it('--require-agreement compares the headline κ (point estimate) and refuses below it or without a card', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'find-card-'));
    writeFileSync(join(cwd, 'card.json'), card('m', 6, '2026-01-01T00:00:00Z'));
    const note = certifyJudge(judge, { cwd }, 1);
    expect(note).toMatchObject({
      card: 'card.json',
      found: true,
      measure: 'kappa',
      measure_name: "Cohen's κ",
    });
    expect(note.agreement?.estimate).toBe(1);
    writeFileSync(join(cwd, 'weak.json'), card('m', 4, '2026-01-01T00:00:00Z'));
    expect(() => certifyJudge(judge, { cwd, given: 'weak.json' }, 0.5)).toThrow(
      /weak\.json gives the test judge "m" \(prompt p1\) Cohen's κ 0\.333 with people on tiny, below 0\.5/,
    );
    expect(() => requireAgreement({ card: null, searched: ['.'] }, judge, -1)).toThrow(
      /no judge card certifies/,
    );
    expect(() => requireAgreement({ card: null, searched: ['.'] }, judge, undefined)).not.toThrow();
  });
});
