import { join } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { readAlceUtility } from './alce-utility.js';
import { readCheckCovid } from './check-covid.js';
import { checkCrowdragDimension, readCrowdrag25 } from './crowdrag25.js';
import type { HumanSet } from './human-set.js';
import { RAGCHECKER_DIMENSIONS, type RagcheckerDimension, readRagchecker } from './ragchecker.js';

export const HUMAN_SETS = ['check-covid', 'ragchecker', 'crowdrag25', 'alce-utility'] as const;
export type HumanSetName = (typeof HUMAN_SETS)[number];

/** Reads a named set from `<dataDir>/<name>/` (the layout of ../shared/data/human-labels). */
export function readHumanSet(name: string, dataDir: string, dimension?: string): HumanSet {
  const dir = join(dataDir, name);
  switch (name) {
    case 'check-covid':
      return readCheckCovid(dir);
    case 'alce-utility':
      return readAlceUtility(dir);
    case 'ragchecker': {
      const d = dimension ?? 'overall';
      if (!(RAGCHECKER_DIMENSIONS as readonly string[]).includes(d)) {
        throw new CitegeistError(
          'BAD_OPTION',
          `RAGChecker has no dimension ${quoteValue(d)}.`,
          `Use --dimension ${RAGCHECKER_DIMENSIONS.join('|')}.`,
        );
      }
      return readRagchecker(dir, d as RagcheckerDimension);
    }
    case 'crowdrag25': {
      const d = dimension ?? 'quality_overall';
      checkCrowdragDimension(d);
      return readCrowdrag25(dir, d);
    }
    default:
      throw new CitegeistError(
        'BAD_OPTION',
        `There is no human-judgment set ${quoteValue(name)}.`,
        `Use --set ${HUMAN_SETS.join('|')}.`,
      );
  }
}
