/**
 * A PDF of `pages` pages of one line of text each, all in one /Kids list of the page tree (as many
 * generators write it): for the page bound and the page-count benchmark (`bench/pdf-pages.bench.ts`).
 */
export function flatPdf(pages: number): Buffer {
  return pageTreePdf(pages);
}

export interface PageTreeShape {
  /** Kids per intermediate /Pages node (a balanced tree); absent: one flat /Kids list. */
  fanout?: number;
  /** A page (0-based) whose /Kids entry names an object that does not exist (a damaged tree). */
  brokenKid?: number;
}

/**
 * A PDF of `pages` one-line pages ("Sheet N: …") with the page tree shaped as asked. In a tree,
 * MediaBox and Resources sit on the root only, so pages must inherit them through /Parent.
 */
export function pageTreePdf(pages: number, shape: PageTreeShape = {}): Buffer {
  const objects: string[] = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const tree = shape.fanout !== undefined;
  const own = tree ? '' : '/MediaBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> ';
  const inherited = tree ? '/MediaBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> ' : '';
  // Object numbers are 1-based positions in `objects`; pages first, then the /Pages nodes.
  const pageIds: number[] = [];
  for (let i = 0; i < pages; i++) {
    const text = `BT /F1 11 Tf 72 720 Td (Sheet ${i + 1}: the lake held ${i * 7} fish.) Tj ET`;
    objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    objects.push(`<< /Type /Page /Parent PARENT ${own}/Contents ${objects.length} 0 R >>`);
    pageIds.push(objects.length);
  }
  // Groups of kids, level by level, until one root remains.
  let level = pageIds.map((id, i) => ({ id, count: 1, broken: i === shape.brokenKid }));
  const fanout = shape.fanout ?? Math.max(1, pages);
  do {
    const next: typeof level = [];
    for (let g = 0; g < level.length; g += fanout) {
      const kids = level.slice(g, g + fanout);
      const id = objects.length + 1;
      const count = kids.reduce((n, k) => n + k.count, 0);
      const root = level.length <= fanout;
      objects.push(
        `<< /Type /Pages ${root ? inherited : `/Parent ROOT `}/Kids [${kids.map((k) => `${k.broken ? 999999 : k.id} 0 R`).join(' ')}] /Count ${count} >>`,
      );
      for (const k of kids) objects[k.id - 1] = objects[k.id - 1]!.replace(/PARENT|ROOT/, `${id} 0 R`);
      next.push({ id, count, broken: false });
    }
    level = next;
  } while (level.length > 1);
  const rootId = level[0]!.id;
  for (let i = 0; i < objects.length; i++) objects[i] = objects[i]!.replace('ROOT', `${rootId} 0 R`);
  objects.push(`<< /Type /Catalog /Pages ${rootId} 0 R >>`);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** One page of Helvetica text lines placed where asked (x, baseline y, size in points; US letter). */
export function linesPdf(lines: readonly { text: string; x: number; y: number; size?: number }[]): Buffer {
  const ops = lines
    .map((l) => `BT /F1 ${l.size ?? 11} Tf ${l.x} ${l.y} Td (${l.text.replace(/[\\()]/g, '\\$&')}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    '<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> /Contents 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Catalog /Pages 4 0 R >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
