import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * The figures a fault-campaign file gathers, rendered as the body of a docs/reliability.md
 * section. The suite prints them; with `write` it also replaces those sections' bodies in place
 * (the heading and everything outside the section stay as they are).
 */
export class FaultReport {
  private readonly sections = new Map<string, string[]>();

  add(section: string, line: string): void {
    const lines = this.sections.get(section) ?? [];
    lines.push(line);
    this.sections.set(section, lines);
  }

  render(): string {
    return [...this.sections].map(([title, lines]) => `## ${title}\n\n${lines.join('\n')}\n`).join('\n');
  }

  /** Prints the sections, and replaces their bodies in `doc` when `write`. */
  publish(doc: string, write: boolean, print: (text: string) => void): void {
    print(`\n${this.render()}`);
    if (!write || !existsSync(doc)) return;
    let text = readFileSync(doc, 'utf8');
    for (const [title, lines] of this.sections) {
      const heading = `## ${title}\n`;
      const at = text.indexOf(heading);
      if (at < 0) continue;
      const next = text.indexOf('\n## ', at + heading.length);
      const end = next < 0 ? text.length : next + 1;
      text = `${text.slice(0, at)}${heading}\n${lines.join('\n')}\n${next < 0 ? '' : '\n'}${text.slice(end)}`;
    }
    writeFileSync(doc, text);
  }
}

/** A Markdown table from a header and rows. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
