import { describe, expect, it } from 'vitest';
import { buildReportData } from './build-report.js';
import { embedJson, renderReportPage, reportCsp } from './report-page.js';

const assets = { script: 'console.log(1)', style: 'body{margin:0}' };

describe('embedJson', () => {
  it('cannot close its script element or open a comment, and parses back unchanged', () => {
    const value = {
      a: '</script><script>alert(1)</script>',
      b: '<!-- x -->',
      c: 'line\u2028sep\u2029',
      d: 'a & b > c',
    };
    const text = embedJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('renderReportPage', () => {
  const data = buildReportData({
    title: '<img src=x onerror=alert(1)>',
    tool: 'citegeist test',
    facts: [['"quoted"', '<b>bold</b>']],
    inputs: [
      {
        kind: 'grades',
        name: '<svg onload=alert(2)>.jsonl',
        sha256: null,
        rows: 0,
        skipped: 0,
        label: null,
        settings: null,
        version: null,
      },
    ],
  });
  const html = renderReportPage(data, assets, { options: { grades: ['</script>.jsonl'] }, inputs: [] });

  it('allows only its own script and style, by hash, and nothing from anywhere', () => {
    const csp = reportCsp(assets);
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:/,
    );
    expect(csp).not.toContain('unsafe');
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<script'));
  });

  it('escapes every text from data and keeps no handler, external source or link', () => {
    expect(html).toContain('<title>&lt;img src=x onerror=alert(1)&gt;</title>');
    expect(html).toContain('&lt;svg onload=alert(2)&gt;.jsonl');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(html).not.toMatch(/<(img|svg onload|b>)/);
    expect(html).not.toMatch(/<[^>]*\son[a-z]+=/i);
    expect(html).not.toMatch(/<[^>]*\s(src|srcset|action)=/i);
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.startsWith('#'))).not.toContain(false);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });
});
