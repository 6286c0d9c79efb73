/**
 * Inputs that once made citegeist's work grow with the square of their size (issue 12, item 10),
 * built at any size `n`: the bounded-work bench measures their scaling and the fault campaign
 * ingests them at full size.
 */
export const pathologicalInputs = {
  /** Markdown with n `##` headings, one short paragraph each. */
  headings: (n: number) =>
    `# T\n\n${Array.from({ length: n }, (_, i) => `## S${i}\n\ntext ${i}.\n\n`).join('')}`,
  /** One Markdown paragraph of n lines, each broken by a hyphen at its end. */
  hyphenBreaks: (n: number) =>
    `# T\n\n## A\n\n${Array.from({ length: n }, (_, i) => `some exam-\nple ${i} `).join('')}`,
  /** A QASPER native JSON paper with n sections. */
  qasperSections: (n: number) =>
    JSON.stringify({
      p1: {
        title: 'T',
        abstract: 'A',
        full_text: Array.from({ length: n }, (_, i) => ({ section_name: `S${i}`, paragraphs: [`p ${i}`] })),
        qas: [],
      },
    }),
} as const;
