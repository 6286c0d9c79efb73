import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createManifest, type RunManifest } from '../../core/index.js';
import { RunFile, type RunFileOptions, writeFileAtomic } from '../../io/index.js';
import { type DomainPreset, resolveDomain } from './domains.js';
import {
  type ManifestEntry,
  manifestEntry,
  type OpenAlexPage,
  type OpenAlexWork,
  shortId,
} from './openalex-work.js';
import { PoliteHttp, type PoliteHttpOptions } from './polite-http.js';

export const OPENALEX_BASE_URL = 'https://api.openalex.org';

export interface CollectOptions extends PoliteHttpOptions {
  /** A domain preset name or a free search query. */
  domain: string;
  perDomain: number;
  outDir: string;
  mailto?: string;
  /** from_publication_date (default 2018-01-01). */
  from?: string;
  /** cited_by_count:>N (default 10). */
  minCitations?: number;
  baseUrl?: string;
  /** Results pages to read at most (default 10) of `perPage` (default 25). */
  maxPages?: number;
  perPage?: number;
  /** Page count of a validated PDF (the CLI passes a pdfjs-based counter). */
  countPages: (bytes: Uint8Array) => Promise<number>;
  onEvent?: (event: CollectEvent) => void;
  now?: () => string;
  /** The citegeist version, recorded in the manifest's first line. */
  version: string;
}

export type CollectEvent =
  | { kind: 'page'; page: number; results: number }
  | { kind: 'collected'; entry: ManifestEntry }
  | { kind: 'skipped'; openalexId: string; reason: SkipReason; detail?: string };

export type SkipReason =
  | 'already-collected'
  | 'no-pdf-url'
  | 'download-failed'
  | 'not-a-pdf'
  | 'unreadable-pdf';

export interface CollectResult {
  domain: DomainPreset;
  collected: number;
  /** Papers already in the manifest from an earlier run. */
  kept: number;
  skipped: Record<SkipReason, number>;
  pagesRead: number;
  /** Set when the API itself failed (the manifest keeps what was collected). */
  error: string | null;
}

/** The `/works` URL of one results page (METHODS §2.1 filters and sort). */
export function worksUrl(
  options: Pick<CollectOptions, 'baseUrl' | 'from' | 'minCitations' | 'mailto' | 'perPage'>,
  search: string,
  page: number,
): string {
  const url = new URL(`${(options.baseUrl ?? OPENALEX_BASE_URL).replace(/\/$/, '')}/works`);
  url.searchParams.set('search', search);
  url.searchParams.set(
    'filter',
    `is_oa:true,from_publication_date:${options.from ?? '2018-01-01'},cited_by_count:>${options.minCitations ?? 10}`,
  );
  url.searchParams.set('sort', 'cited_by_count:desc');
  url.searchParams.set('per-page', String(options.perPage ?? 25));
  url.searchParams.set('page', String(page));
  if (options.mailto) url.searchParams.set('mailto', options.mailto);
  return url.toString();
}

/**
 * The manifest heading `manifest.jsonl`: one collection from OpenAlex. Its folder grows by domain
 * and quota across runs, so neither is a setting; each paper's line records its domain and search.
 */
export function collectionManifest(version: string): RunManifest {
  return createManifest({
    kind: 'collection',
    defaultLabel: 'openalex',
    settings: { source: 'openalex' },
    inputs: {},
    version,
  });
}

/**
 * How `manifest.jsonl` is opened: one line per collected paper, by its OpenAlex id, and nothing
 * else (`generate questions --manifest` reads it), so its run manifest is kept beside it, in a
 * dot file that ingesting the folder passes over.
 */
export function collectionFileOptions(manifest: RunManifest, outDir: string): RunFileOptions {
  return {
    manifest,
    idField: 'openalex_id',
    what: 'collection manifest',
    command: 'citegeist collect openalex',
    manifestPath: join(outDir, '.manifest.jsonl.meta.json'),
  };
}

/**
 * Collects up to `perDomain` open-access PDFs for one domain into `outDir/<domain>/`: reads
 * OpenAlex result pages (most cited first), downloads each work's best OA PDF, keeps it only if
 * it starts with `%PDF-` and pdfjs can count its pages, and appends a manifest line. Resumable:
 * works already in the manifest are skipped and count toward the quota; a line cut short by a
 * killed run is removed and its paper collected again.
 */
export async function collectOpenAlex(options: CollectOptions): Promise<CollectResult> {
  const domain = resolveDomain(options.domain);
  const dir = join(options.outDir, domain.name);
  mkdirSync(join(dir, 'pdf'), { recursive: true });
  const http = new PoliteHttp(options);
  // Held open from here: its lock keeps a second collect out of the folder until this one ends.
  const manifest = RunFile.open(
    join(options.outDir, 'manifest.jsonl'),
    collectionFileOptions(collectionManifest(options.version), options.outDir),
  );
  const existing = manifest.kept as unknown as ManifestEntry[];
  const have = new Set(existing.map((e) => e.openalex_id));
  const kept = existing.filter((e) => e.domain === domain.name).length;
  const result: CollectResult = {
    domain,
    collected: 0,
    kept,
    skipped: {
      'already-collected': 0,
      'no-pdf-url': 0,
      'download-failed': 0,
      'not-a-pdf': 0,
      'unreadable-pdf': 0,
    },
    pagesRead: 0,
    error: null,
  };
  const skip = (work: OpenAlexWork, reason: SkipReason, detail?: string): null => {
    result.skipped[reason]++;
    options.onEvent?.({
      kind: 'skipped',
      openalexId: shortId(work.id),
      reason,
      ...(detail ? { detail } : {}),
    });
    return null;
  };
  try {
    for (let page = 1; page <= (options.maxPages ?? 10); page++) {
      if (kept + result.collected >= options.perDomain) break;
      const response = await http.get(worksUrl(options, domain.search, page));
      if (!response.ok) {
        result.error = `OpenAlex page ${page}: ${response.reason}`;
        break;
      }
      const data = JSON.parse(new TextDecoder().decode(response.body)) as OpenAlexPage;
      result.pagesRead++;
      options.onEvent?.({ kind: 'page', page, results: data.results.length });
      for (const work of data.results) {
        if (kept + result.collected >= options.perDomain) break;
        if (have.has(shortId(work.id))) {
          skip(work, 'already-collected');
          continue;
        }
        const entry = await collectWork(work, domain, dir, http, options, skip);
        if (!entry) continue;
        manifest.append(entry);
        have.add(entry.openalex_id);
        result.collected++;
        options.onEvent?.({ kind: 'collected', entry });
      }
      if (data.results.length < (options.perPage ?? 25)) break;
    }
  } finally {
    manifest.close();
  }
  return result;
}

async function collectWork(
  work: OpenAlexWork,
  domain: DomainPreset,
  dir: string,
  http: PoliteHttp,
  options: CollectOptions,
  skip: (work: OpenAlexWork, reason: SkipReason, detail?: string) => null,
): Promise<ManifestEntry | null> {
  const pdfUrl = work.best_oa_location?.pdf_url;
  if (!pdfUrl) return skip(work, 'no-pdf-url');
  const download = await http.get(pdfUrl);
  if (!download.ok) return skip(work, 'download-failed', download.reason);
  const head = new TextDecoder('latin1').decode(download.body.subarray(0, 1024));
  if (!head.includes('%PDF-')) return skip(work, 'not-a-pdf', download.contentType);
  let pageCount: number;
  try {
    pageCount = await options.countPages(download.body);
  } catch (error) {
    return skip(work, 'unreadable-pdf', (error as Error).message);
  }
  const id = shortId(work.id);
  const file = join(domain.name, 'pdf', `${id}.pdf`);
  // Whole or not at all: a killed collect never leaves half a PDF that a later run would trust.
  writeFileAtomic(join(dir, 'pdf', `${id}.pdf`), download.body);
  return manifestEntry(work, {
    domain: domain.name,
    search: domain.search,
    pdfUrl,
    pageCount,
    file,
    bytes: download.body.length,
    now: options.now?.() ?? new Date().toISOString(),
  });
}
