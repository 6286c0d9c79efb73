/** A domain preset: the OpenAlex search string used to find its papers. */
export interface DomainPreset {
  name: string;
  search: string;
}

/**
 * The eight domains of the ResearchQA paper plus the two of its public code (biology, economics),
 * each with the search string sent to OpenAlex `search=`.
 */
export const DOMAIN_PRESETS: readonly DomainPreset[] = [
  { name: 'machine_learning', search: 'machine learning deep learning neural network' },
  { name: 'public_health', search: 'public health epidemiology population health intervention' },
  { name: 'education', search: 'education teaching learning students school' },
  { name: 'environmental_science', search: 'environmental science climate change ecology pollution' },
  { name: 'history_humanities', search: 'history humanities historical analysis culture' },
  { name: 'mathematics', search: 'mathematics theorem proof algebra analysis' },
  { name: 'psychology', search: 'psychology cognition behavior mental health experiment' },
  { name: 'social_science', search: 'social science sociology political survey society' },
  { name: 'biology', search: 'biology molecular cell genetics organism' },
  { name: 'economics', search: 'economics market policy labor growth' },
];

/** A preset by name (case-, space- and dash-insensitive), or a free query used as its own domain. */
export function resolveDomain(nameOrQuery: string): DomainPreset {
  const key = nameOrQuery
    .trim()
    .toLowerCase()
    .replace(/[\s/-]+/g, '_');
  const preset = DOMAIN_PRESETS.find((d) => d.name === key || d.name.split('_')[0] === key);
  return preset ?? { name: key.replace(/[^a-z0-9_]+/g, '') || 'custom', search: nameOrQuery.trim() };
}
