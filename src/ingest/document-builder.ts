import {
  type Document,
  type DocumentMeta,
  type DocumentSource,
  type Furniture,
  type Page,
  type Paragraph,
  type ParagraphKind,
  type Section,
  ValidDocumentSchema,
} from '../core/index.js';

/**
 * Builds a Document's canonical text and spans in reading order. Every format reader feeds it
 * headings and paragraphs; it writes each paragraph (and each heading, on its own line) separated by
 * a blank line, so spans never overlap and the text reads naturally.
 *
 * A section runs from its heading to the next heading at the same or a higher level.
 */
export class DocumentBuilder {
  private text = '';
  private readonly sections: (Section & { open: boolean; raw: number })[] = [];
  /** The open sections, outermost first; their raw levels strictly increase (so work stays linear). */
  private readonly open: (Section & { open: boolean; raw: number })[] = [];
  private readonly paragraphs: Paragraph[] = [];
  private readonly pageStarts = new Map<number, number>();
  private readonly pageEnds = new Map<number, number>();
  readonly furniture: Furniture[] = [];

  /**
   * Appends a heading at `level` (1 = top) and opens its section. `shown` is the heading as it
   * appears in the text when that differs from its name (Markdown keeps its `##` markers); an empty
   * `shown` opens a section whose heading is not printed (a PDF bibliography without a heading).
   */
  heading(heading: string, level: number, page: number | null = null, shown = heading): void {
    const clean = heading.trim();
    if (!clean) return;
    // Sections end where their last chunk ends, before the blank line that precedes this heading.
    const end = this.text.length;
    const start = shown.trim() ? this.append(shown.trim(), page) : this.text.length;
    // Nesting follows the levels as given (`##` under `#`); the stored level counts real ancestors.
    while ((this.open.at(-1)?.raw ?? Number.NEGATIVE_INFINITY) >= level) {
      this.closeSection(this.open.pop()!, end);
    }
    const parent = this.open.at(-1);
    const lvl = parent ? parent.level + 1 : 1;
    const section = {
      id: `s${this.sections.length + 1}`,
      heading: clean,
      level: Math.max(lvl, 1),
      path: [...(parent?.path ?? []), clean],
      start,
      end: this.text.length,
      open: true,
      raw: level,
    };
    this.sections.push(section);
    this.open.push(section);
  }

  /** Closes every open section here: the paragraphs that follow belong to none until a heading. */
  closeSections(): void {
    for (const s of this.open.splice(0)) this.closeSection(s, this.text.length);
  }

  /** Appends a paragraph to the innermost open section and returns its id; empty text is skipped (null). */
  paragraph(text: string, kind: ParagraphKind = 'body', page: number | null = null): string | null {
    const clean = text.trim();
    if (!clean) return null;
    const start = this.append(clean, page);
    const section = this.currentSection();
    const id = `p${this.paragraphs.length + 1}`;
    this.paragraphs.push({
      id,
      sectionId: section?.id ?? null,
      page,
      start,
      end: start + clean.length,
      kind,
    });
    return id;
  }

  /** Marks that `page` exists even when it holds no text (so page counts stay true). */
  touchPage(page: number): void {
    if (!this.pageStarts.has(page)) {
      this.pageStarts.set(page, this.text.length);
      this.pageEnds.set(page, this.text.length);
    }
  }

  currentSection(): Section | undefined {
    return this.open.at(-1);
  }

  get length(): number {
    return this.text.length;
  }

  build(head: { id: string; title: string; source: DocumentSource; meta: DocumentMeta }): Document {
    for (const s of this.open.splice(0)) this.closeSection(s, this.text.length);
    const sections: Section[] = this.sections.map(({ open: _open, raw: _raw, ...s }) => s);
    const pages: Page[] = [...this.pageStarts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([number, start]) => ({
        number,
        start,
        end: Math.max(start, this.pageEnds.get(number) ?? start),
      }));
    // Pages are contiguous spans in reading order: each ends where the next begins.
    for (let i = 0; i + 1 < pages.length; i++) {
      const page = pages[i]!;
      const next = pages[i + 1]!;
      page.end = Math.max(page.start, next.start);
    }
    const last = pages.at(-1);
    if (last) last.end = this.text.length;
    return ValidDocumentSchema.parse({
      ...head,
      language: 'en',
      text: this.text,
      pages,
      sections,
      paragraphs: this.paragraphs,
      furniture: this.furniture,
    });
  }

  private append(chunk: string, page: number | null): number {
    if (this.text.length > 0) this.text += '\n\n';
    const start = this.text.length;
    this.text += chunk;
    if (page !== null) {
      if (!this.pageStarts.has(page)) this.pageStarts.set(page, start);
      this.pageEnds.set(page, this.text.length);
    }
    return start;
  }

  private closeSection(s: Section & { open: boolean; raw: number }, end: number): void {
    s.open = false;
    s.end = Math.max(s.start, end);
  }
}
