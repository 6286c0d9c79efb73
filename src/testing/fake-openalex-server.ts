import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAlexWorkSpec {
  id: string;
  title: string;
  citations: number;
  /** What the PDF URL serves: real PDF bytes, an HTML landing page, a 404, or no URL at all. */
  pdf: Uint8Array | 'html' | 404 | null;
}

/**
 * A local stand-in for api.openalex.org that answers `/works` in the real API's shape (`meta`,
 * `results[]` with id, doi, title, display_name, publication_year, cited_by_count, authorships,
 * abstract_inverted_index, primary_topic, topics, primary_location.source, best_oa_location,
 * open_access), sorted by citations and paged with `per-page`/`page`, and serves the PDFs. It
 * records every request; `rateLimitFirst` answers the first n requests with 429 + retry-after.
 */
export class FakeOpenAlexServer {
  readonly requests: URL[] = [];
  private server: Server | null = null;
  private rateLimited = 0;
  url = '';

  constructor(
    private readonly works: FakeOpenAlexWorkSpec[],
    private readonly options: { rateLimitFirst?: number } = {},
  ) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      this.requests.push(url);
      if (this.rateLimited < (this.options.rateLimitFirst ?? 0)) {
        this.rateLimited++;
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        res.end('{"error": "Too Many Requests"}');
        return;
      }
      if (url.pathname === '/works') return this.worksPage(url, res);
      const pdf = /^\/pdf\/(W\d+)\.pdf$/.exec(url.pathname)?.[1];
      const work = this.works.find((w) => w.id === pdf);
      if (!work || work.pdf === 404 || work.pdf === null) {
        res.writeHead(404).end('not found');
      } else if (work.pdf === 'html') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Access denied</body></html>');
      } else {
        res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(work.pdf));
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private worksPage(url: URL, res: import('node:http').ServerResponse): void {
    const perPage = Number(url.searchParams.get('per-page') ?? 25);
    const page = Number(url.searchParams.get('page') ?? 1);
    const sorted = [...this.works].sort((a, b) => b.citations - a.citations);
    const results = sorted.slice((page - 1) * perPage, page * perPage).map((w) => this.work(w));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        meta: { count: sorted.length, db_response_time_ms: 12, page, per_page: perPage, groups_count: null },
        results,
        group_by: [],
      }),
    );
  }

  private work(w: FakeOpenAlexWorkSpec) {
    return {
      id: `https://openalex.org/${w.id}`,
      doi: `https://doi.org/10.1234/${w.id.toLowerCase()}`,
      title: w.title,
      display_name: w.title,
      publication_year: 2020,
      cited_by_count: w.citations,
      authorships: [
        { author_position: 'first', author: { id: 'https://openalex.org/A1', display_name: 'Ada Lovelace' } },
      ],
      abstract_inverted_index: { We: [0], study: [1], teachers: [2], '.': [3] },
      primary_topic: { id: 'https://openalex.org/T1', display_name: 'Teacher Education' },
      topics: [
        { id: 'https://openalex.org/T1', display_name: 'Teacher Education' },
        { id: 'https://openalex.org/T2', display_name: 'Self-efficacy' },
      ],
      primary_location: { source: { id: 'https://openalex.org/S1', display_name: 'Journal of Tests' } },
      best_oa_location:
        w.pdf === null ? { pdf_url: null } : { pdf_url: `${this.url}/pdf/${w.id}.pdf`, is_oa: true },
      open_access: { is_oa: true, oa_status: 'gold', oa_url: `${this.url}/pdf/${w.id}.pdf` },
    };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
