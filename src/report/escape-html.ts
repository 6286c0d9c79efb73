const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  // A NUL is a parse error in HTML (browsers show U+FFFD): written as the character it becomes.
  '\u0000': '\uFFFD',
};

/** Escapes text for HTML element content and attribute values. Model text always goes through it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\u0000]/g, (c) => ENTITIES[c] ?? c);
}
