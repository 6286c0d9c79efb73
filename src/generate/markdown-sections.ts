/** A heading of a Markdown paper and the character range its body covers. */
export interface MarkdownSection {
  label: string;
  start: number;
  end: number;
}

/**
 * The `#`-headed sections of a Markdown paper (QASPER's `papers/*.txt` use `## A ::: B` headings).
 * Each section runs from its heading line to the next heading of any level. The document title
 * (a single `#` heading before any `##`) is kept as a section too.
 */
export function markdownSections(text: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const heading = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;
  for (const m of text.matchAll(heading)) {
    const last = sections.at(-1);
    if (last) last.end = m.index;
    sections.push({ label: (m[2] ?? '').trim(), start: m.index, end: text.length });
  }
  return sections;
}

/** The label of the section that contains `offset`, or null before the first heading. */
export function sectionLabelAt(sections: readonly MarkdownSection[], offset: number): string | null {
  for (const s of sections) if (offset >= s.start && offset < s.end) return s.label;
  return null;
}
