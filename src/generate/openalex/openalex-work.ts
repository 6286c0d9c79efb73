/** The fields of an OpenAlex work that collection reads (the real API's shape). */
export interface OpenAlexWork {
  id: string;
  doi?: string | null;
  title?: string | null;
  display_name?: string | null;
  publication_year?: number | null;
  cited_by_count?: number;
  authorships?: { author?: { display_name?: string } }[];
  abstract_inverted_index?: Record<string, number[]> | null;
  primary_topic?: { display_name?: string } | null;
  topics?: { display_name?: string }[];
  primary_location?: { source?: { display_name?: string } | null } | null;
  best_oa_location?: { pdf_url?: string | null } | null;
  open_access?: { is_oa?: boolean; oa_url?: string | null };
}

/** A page of `/works` results. */
export interface OpenAlexPage {
  meta: { count: number; page?: number; per_page?: number };
  results: OpenAlexWork[];
}

/** One manifest line per collected paper (METHODS §2.1). */
export interface ManifestEntry {
  openalex_id: string;
  doi: string | null;
  title: string;
  abstract: string;
  authors: string[];
  year: number | null;
  cited_by_count: number;
  domain: string;
  search_query: string;
  topics: string[];
  journal: string | null;
  pdf_url: string;
  page_count: number;
  file: string;
  bytes: number;
  collected_at: string;
}

/** Rebuilds an abstract from OpenAlex's inverted index (word → positions). */
export function abstractFromInvertedIndex(index: Record<string, number[]> | null | undefined): string {
  if (!index) return '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) for (const p of positions) words[p] = word;
  return words.filter((w) => w !== undefined).join(' ');
}

/** "https://openalex.org/W123" → "W123". */
export function shortId(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1);
}

export function manifestEntry(
  work: OpenAlexWork,
  extra: {
    domain: string;
    search: string;
    pdfUrl: string;
    pageCount: number;
    file: string;
    bytes: number;
    now: string;
  },
): ManifestEntry {
  const topics = [work.primary_topic?.display_name, ...(work.topics ?? []).map((t) => t.display_name)];
  return {
    openalex_id: shortId(work.id),
    doi: work.doi ?? null,
    title: work.display_name ?? work.title ?? '',
    abstract: abstractFromInvertedIndex(work.abstract_inverted_index),
    authors: (work.authorships ?? []).map((a) => a.author?.display_name ?? '').filter((n) => n !== ''),
    year: work.publication_year ?? null,
    cited_by_count: work.cited_by_count ?? 0,
    domain: extra.domain,
    search_query: extra.search,
    topics: [...new Set(topics.filter((t): t is string => typeof t === 'string'))],
    journal: work.primary_location?.source?.display_name ?? null,
    pdf_url: extra.pdfUrl,
    page_count: extra.pageCount,
    file: extra.file,
    bytes: extra.bytes,
    collected_at: extra.now,
  };
}
