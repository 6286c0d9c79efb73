/**
 * The 19 quality criteria of a nugget (METHODS §5 step 4) as the selector reads them from
 * `metadata.quality`, flattened exactly as the released selection step flattens them
 * (manestay/dogmatiq `step4_select_top_nuggets.py`, `convert_nugget_bank_to_dataframe`):
 * `vitality` VITAL → 1, anything else → 0; a number keeps its key; a nested object gives
 * `<key>_<subkey>` for its numeric members, `general_qualities` shortened to `quality`.
 */
import type { NuggetQuestion } from '../../formats/index.js';
import { orderedEntries } from '../../python-compat/index.js';

/** The 19 features in the order the released banks list them. */
export const QUALITY_FEATURES = [
  'reading_level',
  'complexity',
  'vitality',
  'personalization_goal_match',
  'personalization_background_match',
  'personalization_role_match',
  'personalization_communication_match',
  'personalization_scope_match',
  'personalization_overall',
  'quality_fluency',
  'quality_clarity',
  'quality_ambiguity',
  'quality_relevance',
  'quality_incompleteness',
  'quality_assumptiveness',
  'quality_multifaceted',
  'quality_knowledge_intensiveness',
  'quality_subjectiveness',
  'quality_reasoning_intensiveness',
] as const;

const isNumber = (v: unknown): v is number => typeof v === 'number' || typeof v === 'boolean';

/**
 * The flattened features of a nugget's `metadata.quality`, or null when it has none (the released
 * code skips such nuggets). Booleans count as numbers, as Python's `isinstance(True, int)` does.
 */
export function qualityFeatures(nugget: NuggetQuestion): Map<string, number> | null {
  const quality = nugget.metadata?.quality;
  if (quality === null || typeof quality !== 'object' || Array.isArray(quality)) return null;
  const out = new Map<string, number>();
  for (const [key, raw] of orderedEntries(quality as Record<string, unknown>)) {
    const value = key === 'vitality' ? (raw === 'VITAL' ? 1 : 0) : raw;
    if (isNumber(value)) out.set(key, Number(value));
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const prefix = key === 'general_qualities' ? 'quality' : key;
      for (const [sub, v] of orderedEntries(value as Record<string, unknown>)) {
        if (isNumber(v)) out.set(`${prefix}_${sub}`, Number(v));
      }
    }
  }
  return out;
}
