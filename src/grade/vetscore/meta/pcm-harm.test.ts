import { describe, expect, it } from 'vitest';
import { createRandom, partialCreditProbabilities, randomInt, spearman } from '../../../stats/index.js';
import type { AlignedClaim } from './align.js';
import { meanHarm } from './harm-aggregate.js';
import { type PcmHarmDetails, pcmHarm } from './pcm-harm.js';

/** Simulated harm ratings: each claim rated by two of four annotators of known severity. */
function simulate(seed: number) {
  const random = createRandom(seed);
  const severities = [-1.5, -0.5, 0.5, 1.5];
  const thresholds = [-2, -0.7, 0.7, 2];
  const thetas: number[] = [];
  const claims: AlignedClaim[] = [];
  for (let i = 0; i < 200; i++) {
    const theta = (random() - 0.5) * 5;
    thetas.push(theta);
    const first = randomInt(random, 4);
    const second = (first + 1 + randomInt(random, 3)) % 4;
    const human = new Map<string, { verified: 0 | 1 | null; harm: number | null }>();
    for (const r of [first, second]) {
      const p = partialCreditProbabilities(theta, severities[r] ?? 0, thresholds);
      let u = random();
      let k = 0;
      while (k < p.length - 1 && u > (p[k] ?? 0)) u -= p[k++] ?? 0;
      human.set(`vet${r}`, { verified: null, harm: k + 1 });
    }
    claims.push({ key: `c${i}`, answer: 'a', segment: i, claim: 0, auto: [], human });
  }
  return { claims, thetas, severities };
}

describe('pcmHarm', () => {
  const { claims, thetas, severities } = simulate(7);
  const annotators = ['vet0', 'vet1', 'vet2', 'vet3'];
  const fit = pcmHarm(claims, annotators);
  const details = fit.details as PcmHarmDetails;

  it('recovers the annotators’ severities within 0.35 logits', () => {
    expect(details.converged).toBe(true);
    for (const r of details.rater_severity) {
      const truth = severities[Number(r.annotator.slice(3))] ?? Number.NaN;
      expect(Math.abs(r.severity - truth)).toBeLessThan(0.35);
    }
  });

  it('ranks claims by true harm better than the raw mean when raters differ in severity', () => {
    const order = claims.map((c) => c.key);
    const pcm = order.map((k) => fit.perClaim.get(k) ?? Number.NaN);
    const raw = order.map((k) => meanHarm(claims, annotators).perClaim.get(k) ?? Number.NaN);
    const rhoPcm = spearman(pcm, thetas) ?? 0;
    const rhoRaw = spearman(raw, thetas) ?? 0;
    expect(rhoPcm).toBeGreaterThan(rhoRaw);
    for (const v of pcm) {
      expect(v).toBeGreaterThanOrEqual(1);
      expect(v).toBeLessThanOrEqual(5);
    }
  });

  it('falls back to the mean with one annotator, and says so', () => {
    const one = claims.slice(0, 5).map((c) => ({ ...c, human: new Map([...c.human].slice(0, 1)) }));
    const single = one.map((c) => ({
      ...c,
      human: new Map([['solo', [...c.human.values()][0] ?? { verified: null, harm: 1 }]]),
    }));
    const result = pcmHarm(single, ['solo']);
    expect(result.method).toMatch(/at least two annotators/);
    expect(result.perClaim.size).toBe(5);
  });
});
