import { CitegeistError } from '../../core/index.js';
import type { HumanItem, HumanSet, LabelScale } from './human-set.js';
import { SetFiles } from './set-files.js';

/** Check-COVID's veracity labels, relative to the listed evidence sentences (SCHEMA.md). */
export const CHECK_COVID_SCALE: LabelScale = {
  kind: 'nominal',
  categories: [
    { code: 0, name: 'SUPPORT' },
    { code: 1, name: 'REFUTE' },
    { code: 2, name: 'NOTENOUGHINFO' },
  ],
  meaning:
    'SUPPORT: the evidence sentences support the claim; REFUTE: they contradict it; NOTENOUGHINFO: they do not decide it',
};

interface Claim {
  id: string;
  claim: string;
  cord_id: string;
  label: string;
  evidence_set: { sent_index: number; type: string }[];
  is_auth: boolean;
}

interface Abstract {
  cord_id: string;
  title: string;
  abstract: string[];
}

/**
 * Check-COVID (Columbia, MIT licence): 1,504 news claims, each with the evidence sentences of one
 * CORD-19 abstract and one final label. Inputs: `claim`, `evidence` (the listed sentences, in the
 * listed order), `title`; group: `extracted` (journalist-written) or `composed`.
 */
export function readCheckCovid(dir: string): HumanSet {
  const files = new SetFiles(dir, 'check-covid');
  const corpus = new Map((files.jsonLines('corpus.json') as Abstract[]).map((a) => [a.cord_id, a]));
  const items: HumanItem[] = (files.jsonLines('Check-COVID_all.json') as Claim[]).map((c, i) => {
    const abstract = corpus.get(c.cord_id);
    const code = CHECK_COVID_SCALE.categories!.find((k) => k.name === c.label)?.code;
    if (!abstract || code === undefined) {
      throw new CitegeistError(
        'INVALID_INPUT',
        `${dir}/Check-COVID_all.json line ${i + 1}: ${abstract ? `label "${c.label}" is not known` : `abstract ${c.cord_id} is not in corpus.json`}.`,
        'The set files do not match each other: get them again from the source PROVENANCE.txt names.',
      );
    }
    return {
      id: c.id,
      inputs: {
        claim: c.claim.trim(),
        evidence: c.evidence_set.map((e) => abstract.abstract[e.sent_index] ?? ''),
        title: abstract.title,
      },
      labels: [{ annotator: 'check-covid', value: code }],
      group: c.is_auth ? 'extracted' : 'composed',
    };
  });
  return {
    name: 'check-covid',
    dimension: null,
    scale: CHECK_COVID_SCALE,
    items,
    sha256: files.sha256(),
    licence: 'MIT, Copyright (c) 2023 Columbia University (Check-COVID); abstracts from CORD-19',
    source: 'https://github.com/posuer/Check-COVID @ 3ae70f8',
  };
}
