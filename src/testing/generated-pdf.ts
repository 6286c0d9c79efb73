/**
 * A PDF of `pages` pages of one line of text each, all in one /Kids list of the page tree (as many
 * generators write it): for the page bound and the page-count benchmark (`bench/pdf-pages.bench.ts`).
 */
export function flatPdf(pages: number): Buffer {
  const objects: string[] = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const pagesId = 2 * pages + 2;
  const kids: number[] = [];
  for (let i = 0; i < pages; i++) {
    const text = `BT /F1 11 Tf 72 720 Td (Sheet ${i + 1}: the lake held ${i * 7} fish.) Tj ET`;
    objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    objects.push(
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> /Contents ${objects.length} 0 R >>`,
    );
    kids.push(objects.length);
  }
  objects.push(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${pages} >>`);
  objects.push(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
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
