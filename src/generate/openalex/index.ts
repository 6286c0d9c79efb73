export {
  type CollectEvent,
  type CollectOptions,
  type CollectResult,
  collectOpenAlex,
  OPENALEX_BASE_URL,
  type SkipReason,
  worksUrl,
} from './collect.js';
export { DOMAIN_PRESETS, type DomainPreset, resolveDomain } from './domains.js';
export {
  abstractFromInvertedIndex,
  type ManifestEntry,
  type OpenAlexPage,
  type OpenAlexWork,
  shortId,
} from './openalex-work.js';
export { pdfPageCount } from './pdf-pages.js';
export { type FetchFn, PoliteHttp, type PoliteHttpOptions } from './polite-http.js';
