import { createHash } from 'node:crypto';
import { createReadStream, readdirSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { CitegeistError } from '../core/index.js';
import { escapeHtml as e } from '../report/index.js';
import { Freshness, type Rebuild, readRecipe } from './report-freshness.js';
import { resolveRequestPath } from './safe-path.js';

export interface ServeOptions {
  /** The folder to serve (a workspace). */
  root: string;
  /** 0 picks a free port. */
  port: number;
  /** Rebuilds a report whose inputs changed; without it reports are served as they are. */
  rebuild?: Rebuild;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** What is served, by extension: reports and the outputs a workspace holds. Anything else is 404. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.tsv': 'text/plain; charset=utf-8',
  '.csv': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Reports keep their own hash-based policy (in their meta element); this header adds a sandbox, so
 * even an HTML file that is not a citegeist report runs in an opaque origin with nothing to reach.
 */
const HTML_CSP =
  "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";
const LISTING_STYLE =
  'body{font:14px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem}td,th{padding:.2rem .8rem;text-align:left}td.num{text-align:right}.muted{color:#666}';
const LISTING_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(LISTING_STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Security-Policy': FILE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/**
 * `citegeist serve`: a read-only viewer of a workspace's reports and outputs, bound to 127.0.0.1.
 * GET and HEAD only; requests naming another host are refused (DNS rebinding); paths are confined
 * to the folder (see `resolveRequestPath`); a report whose inputs changed is rebuilt before it is
 * served, one rebuild at a time per report.
 */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  let root: string;
  try {
    root = realpathSync(o.root);
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
  } catch (error) {
    throw new CitegeistError(
      'FILE_NOT_FOUND',
      `The folder ${o.root} cannot be served (${(error as Error).message}).`,
      'Give an existing folder: `citegeist serve [DIR]`.',
    );
  }
  const freshness = new Freshness(root);
  const rebuilding = new Map<string, Promise<void>>();
  const log = o.log ?? (() => {});
  let port = o.port;

  async function fresh(path: string): Promise<string | null> {
    const recipe = o.rebuild ? readRecipe(path) : null;
    if (!recipe || !o.rebuild) return null;
    const state = freshness.check(path, recipe);
    if (state.state === 'refused') return `not rebuilt: ${state.detail}`;
    if (state.state === 'fresh') return state.detail || null;
    let job = rebuilding.get(path);
    if (!job) {
      log(`rebuilding ${path.slice(root.length + 1)}: ${state.detail}`);
      job = o.rebuild(path, recipe).finally(() => rebuilding.delete(path));
      rebuilding.set(path, job);
    }
    try {
      await job;
      return `rebuilt: ${state.detail}`;
    } catch (error) {
      log(`rebuild failed: ${(error as Error).message}`);
      return `rebuild failed: ${(error as Error).message}`;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, 'read-only: GET and HEAD only\n', { Allow: 'GET, HEAD' });
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 421, 'unknown host\n');
    const raw = (req.url ?? '/').split('?')[0]!.split('#')[0]!;
    if (!raw.startsWith('/')) return send(res, 400, 'bad request\n');
    const target = resolveRequestPath(root, raw);
    if (!target.ok) return send(res, target.status, `${target.reason}\n`);
    const stat = statSync(target.path);
    if (stat.isDirectory()) {
      if (!raw.endsWith('/')) return send(res, 301, '', { Location: `${raw}/` });
      return send(res, 200, listing(target.path, target.segments), {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': LISTING_CSP,
      });
    }
    const type = TYPES[extname(target.path).toLowerCase()];
    if (!stat.isFile() || !type) return send(res, 404, 'not a file this server shows\n');
    const headers: Record<string, string> = { 'Content-Type': type };
    if (type.startsWith('text/html')) {
      headers['Content-Security-Policy'] = HTML_CSP;
      const note = await fresh(target.path);
      if (note) headers['X-Citegeist-Report'] = note.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
    }
    res.writeHead(200, {
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': FILE_CSP,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Content-Length': String(statSync(target.path).size),
      ...headers,
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(target.path)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`error: ${(error as Error).message}`);
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'EADDRINUSE'
          ? new CitegeistError(
              'SERVE_PORT_IN_USE',
              `Port ${o.port} on 127.0.0.1 is in use.`,
              'Pick another with --port, or --port 0 for any free port.',
            )
          : error,
      ),
    );
    server.listen(o.port, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The folder's listing: sub-folders, then reports, then other served files; names escaped and encoded. */
function listing(dir: string, segments: string[]): string {
  const entries = readdirSync(dir, { withFileTypes: true })
    .filter((d) => !d.name.startsWith('.'))
    .map((d) => {
      const isDir = d.isDirectory() || (d.isSymbolicLink() && safeIsDir(join(dir, d.name)));
      const type = TYPES[extname(d.name).toLowerCase()];
      return { name: d.name, isDir, type };
    })
    .filter((d) => d.isDir || d.type)
    .sort(
      (a, b) =>
        Number(b.isDir) - Number(a.isDir) ||
        Number(b.type?.startsWith('text/html')) - Number(a.type?.startsWith('text/html')) ||
        a.name.localeCompare(b.name),
    );
  const rows = entries
    .map((d) => {
      const href = encodeURIComponent(d.name) + (d.isDir ? '/' : '');
      const size = d.isDir ? '' : `${(statSync(join(dir, d.name)).size / 1024).toFixed(1)} KB`;
      const kind = d.isDir ? 'folder' : d.type?.startsWith('text/html') ? 'report' : '';
      return `<tr><td><a href="${e(href)}">${e(d.name)}${d.isDir ? '/' : ''}</a></td><td class="muted">${kind}</td><td class="num">${size}</td></tr>`;
    })
    .join('');
  const title = `/${segments.map(e).join('/')}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>citegeist serve: ${title}</title><style>${LISTING_STYLE}</style></head><body><h1>${title}</h1>${segments.length ? '<p><a href="../">..</a></p>' : ''}<p class="muted">Read-only. Reports are rebuilt when their inputs change.</p><table>${rows}</table></body></html>`;
}

function safeIsDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
