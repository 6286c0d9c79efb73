import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './serve.js';

/** A raw request: the path is sent as given (no client-side normalisation of `..`). */
function get(port: number, path: string, options: { method?: string; host?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${port}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('citegeist serve', () => {
  let server: RunningServer;
  let dir: string;
  let outside: string;

  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'citegeist-serve-'));
    dir = join(base, 'workspace');
    outside = join(base, 'secret');
    mkdirSync(join(dir, 'out'), { recursive: true });
    mkdirSync(join(dir, '.citegeist'));
    mkdirSync(outside);
    writeFileSync(join(outside, 'key.txt'), 'SECRET');
    writeFileSync(join(dir, 'out', 'grades.jsonl'), '{"row_id":"a"}\n');
    writeFileSync(join(dir, 'report.html'), '<!doctype html><title>r</title>');
    writeFileSync(join(dir, '<b>odd name.txt'), 'odd');
    writeFileSync(join(dir, '.env'), 'OPENAI_API_KEY=sk-test');
    writeFileSync(join(dir, '.citegeist', 'cache.sqlite'), 'cache');
    writeFileSync(join(dir, 'corpus.sqlite'), 'binary');
    symlinkSync(outside, join(dir, 'escape'));
    symlinkSync(join(outside, 'key.txt'), join(dir, 'key.txt'));
    symlinkSync(join(dir, 'out'), join(dir, 'inside-link'));
    server = await startServer({ root: dir, port: 0 });
  });
  afterAll(async () => server?.close());

  it('listens on 127.0.0.1 only and serves reports and outputs read-only', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const report = await get(server.port, '/report.html');
    expect(report.status).toBe(200);
    expect(report.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(report.headers['content-security-policy'])).toContain('sandbox allow-scripts');
    const rows = await get(server.port, '/out/grades.jsonl');
    expect([rows.status, rows.body, rows.headers['x-content-type-options']]).toEqual([
      200,
      '{"row_id":"a"}\n',
      'nosniff',
    ]);
    expect((await get(server.port, '/inside-link/grades.jsonl')).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      expect((await get(server.port, '/report.html', { method })).status, method).toBe(405);
    }
  });

  it('lists a folder with names escaped and links encoded', async () => {
    const listing = await get(server.port, '/');
    expect(listing.status).toBe(200);
    expect(listing.body).toContain('&lt;b&gt;odd name.txt');
    expect(listing.body).toContain('href="%3Cb%3Eodd%20name.txt"');
    expect(listing.body).not.toContain('<b>odd');
    expect(listing.body).not.toMatch(/\.env|\.citegeist|corpus\.sqlite/);
    expect(String(listing.headers['content-security-policy'])).toMatch(/^default-src 'none'/);
    expect((await get(server.port, '/out')).status).toBe(301);
  });

  it.each([
    ['/../secret/key.txt', 403],
    ['/%2e%2e/secret/key.txt', 403],
    ['/out/%2E%2E/%2E%2E/secret/key.txt', 403],
    ['/..%2fsecret%2fkey.txt', 403],
    ['/out/..%2F..%2Fsecret/key.txt', 403],
    ['/%5c..%5csecret%5ckey.txt', 403],
    ['/out\\..\\..\\secret\\key.txt', 400],
    ['/out/%00.txt', 403],
    ['/%zz', 400],
    ['/escape/key.txt', 403],
    ['/key.txt', 403],
    ['/.env', 404],
    ['/.citegeist/cache.sqlite', 404],
    ['/%2eenv', 404],
    ['/corpus.sqlite', 404],
    ['/missing.html', 404],
  ])('refuses %s (%i)', async (path, status) => {
    const res = await get(server.port, path);
    expect(res.status).toBe(status);
    expect(res.body).not.toContain('SECRET');
    expect(res.body).not.toContain('sk-test');
  });

  it('refuses requests for another host name (DNS rebinding)', async () => {
    expect((await get(server.port, '/report.html', { host: 'evil.example:80' })).status).toBe(421);
    expect((await get(server.port, '/report.html', { host: `localhost:${server.port}` })).status).toBe(200);
  });
});
