import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The figures a fault-campaign file gathers, rendered as the bodies of docs/reliability.md
 * sections. The suite prints them and records them (`recordFaultFigures`) for
 * `npm run faults:report`, which writes them into the doc: a test never writes docs.
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

  /** Prints the sections and records each one for `npm run faults:report`. */
  publish(print: (text: string) => void): void {
    print(`\n${this.render()}`);
    for (const [title, lines] of this.sections) recordFaultFigures(title, lines.join('\n'));
  }
}

/** A Markdown table from a header and rows. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * Records the body of one `## <title>` section of docs/reliability.md for `npm run faults:report`,
 * which runs the campaigns with CITEGEIST_FAULT_FIGURES set to a folder and then writes the
 * sections into the doc. A test never writes docs itself: without that variable this does nothing
 * (the caller prints its figures anyway).
 */
export function recordFaultFigures(title: string, body: string): void {
  const dir = process.env.CITEGEIST_FAULT_FIGURES;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.json`;
  writeFileSync(join(dir, file), JSON.stringify({ title, body }));
}
