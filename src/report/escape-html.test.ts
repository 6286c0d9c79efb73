import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it('escapes every character that could open markup or close an attribute', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
  });

  it('writes a NUL as the U+FFFD a browser would show, never raw', () => {
    expect(escapeHtml('a\u0000b')).toBe('a\uFFFDb');
  });
});
