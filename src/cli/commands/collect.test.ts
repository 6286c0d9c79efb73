import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAlexServer, sharedDataPath } from '../../testing/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const PDF = new Uint8Array(readFileSync(sharedDataPath('papers', 'pdf', 'dehypenisation1.pdf')));
const works = [
  { id: 'W1', title: 'Most cited', citations: 900, pdf: PDF },
  { id: 'W2', title: 'Landing page only', citations: 800, pdf: 'html' as const },
  { id: 'W3', title: 'Broken link', citations: 700, pdf: 404 as const },
  { id: 'W4', title: 'No PDF url', citations: 600, pdf: null },
  {
    id: 'W5',
    title: 'Fake header',
    citations: 500,
    pdf: new TextEncoder().encode('%PDF-1.4 garbage that is not a pdf'),
  },
  { id: 'W6', title: 'Second good one', citations: 400, pdf: PDF },
  { id: 'W7', title: 'Third good one', citations: 300, pdf: PDF },
];

let server: FakeOpenAlexServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('citegeist collect openalex (fake OpenAlex on 127.0.0.1)', () => {
  it('queries with the METHODS filters, validates PDFs, writes the manifest, retries 429, resumes', async () => {
    server = await new FakeOpenAlexServer(works, { rateLimitFirst: 1 }).start();
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-collect-'));
    const args = [
      'collect',
      'openalex',
      '--domain',
      'education',
      '--out',
      'corpus',
      '--mailto',
      'me@example.org',
      '--base-url',
      server.url,
      '--max-pages',
      '3',
    ];
    const first = memoryIo({ cwd: dir });
    expect(await runCli([...args, '--per-domain', '2'], first.io)).toBe(0);
    expect(first.stdout()).toMatch(
      /education: 2 collected, 0 kept .*skipped: no-pdf-url 1, download-failed 1, not-a-pdf 1, unreadable-pdf 1/,
    );
    const api = server.requests.filter((u) => u.pathname === '/works');
    expect(api[0]?.searchParams.get('filter')).toBe(
      'is_oa:true,from_publication_date:2018-01-01,cited_by_count:>10',
    );
    expect(api[0]?.searchParams.get('sort')).toBe('cited_by_count:desc');
    expect(api[0]?.searchParams.get('mailto')).toBe('me@example.org');
    expect(api[0]?.searchParams.get('search')).toMatch(/education/);
    expect(api.length).toBeGreaterThanOrEqual(2); // one 429, then the page
    const manifest = readFileSync(join(dir, 'corpus', 'manifest.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(manifest.map((m) => m.openalex_id)).toEqual(['W1', 'W6']);
    expect(manifest[0]).toMatchObject({
      doi: 'https://doi.org/10.1234/w1',
      title: 'Most cited',
      abstract: 'We study teachers .',
      authors: ['Ada Lovelace'],
      year: 2020,
      cited_by_count: 900,
      domain: 'education',
      topics: ['Teacher Education', 'Self-efficacy'],
      journal: 'Journal of Tests',
      page_count: 1,
      file: join('education', 'pdf', 'W1.pdf'),
    });
    expect(existsSync(join(dir, 'corpus', 'education', 'pdf', 'W6.pdf'))).toBe(true);
    // Resume with a larger quota: W1 and W6 are kept, only W7 is downloaded.
    const before = server.requests.filter((u) => u.pathname.startsWith('/pdf/')).length;
    const second = memoryIo({ cwd: dir });
    expect(await runCli([...args, '--per-domain', '3'], second.io)).toBe(0);
    expect(second.stdout()).toMatch(/education: 1 collected, 2 kept/);
    const pdfRequests = server.requests
      .filter((u) => u.pathname.startsWith('/pdf/'))
      .slice(before)
      .map((u) => u.pathname);
    expect(pdfRequests).not.toContain('/pdf/W1.pdf');
    expect(pdfRequests).toContain('/pdf/W7.pdf');
  });

  it('reports an API that keeps failing and exits 1', async () => {
    server = await new FakeOpenAlexServer(works, { rateLimitFirst: 100 }).start();
    const { io, stderr } = memoryIo({ cwd: mkdtempSync(join(tmpdir(), 'citegeist-collect-')) });
    const code = await runCli(
      [
        'collect',
        'openalex',
        '--domain',
        'my own query',
        '--out',
        'c',
        '--base-url',
        server.url,
        '--per-domain',
        '1',
      ],
      io,
    );
    expect(code).toBe(1);
    expect(stderr()).toMatch(/OpenAlex page 1: HTTP 429 after 4 attempts/);
  }, 20_000);
});
