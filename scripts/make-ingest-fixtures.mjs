#!/usr/bin/env node
// Writes the small bad-input fixtures of src/ingest/__fixtures__/ (they are committed; run this only
// to regenerate them). The encrypted PDF needs `qpdf` (apt-get install qpdf); the others are written
// byte by byte here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'ingest', '__fixtures__');
mkdirSync(out, { recursive: true });

/** A PDF from object bodies, with a correct xref table. */
function pdf(objects) {
  let body = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) body += `${String(o).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const stream = (content, dict = '') =>
  `<< /Length ${Buffer.byteLength(content, 'latin1')}${dict} >>\nstream\n${content}\nendstream`;

const text = 'BT /F1 12 Tf 72 720 Td (A tiny fixture paper about dehypenisation.) Tj ET';
const textPdf = pdf([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  stream(text),
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
]);
writeFileSync(join(out, 'tiny.pdf'), textPdf);

// A page that only paints a 2×2 grey image: no text layer (a scan).
const pixels = String.fromCharCode(0x20, 0x80, 0x80, 0x20);
writeFileSync(
  join(out, 'image-only.pdf'),
  pdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
    stream('q 500 0 0 700 56 46 cm /Im1 Do Q'),
    stream(
      pixels,
      ' /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8',
    ),
  ]),
);

writeFileSync(join(out, 'empty.pdf'), Buffer.alloc(0));
writeFileSync(join(out, 'truncated.pdf'), textPdf.subarray(0, 60));
writeFileSync(
  join(out, 'corrupt.pdf'),
  Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\nthis is not a PDF body\n', 'latin1'),
);
writeFileSync(
  join(out, 'malformed.nxml'),
  '<article><front><article-meta><title-group><article-title>T</article-title></title-group></front></article>\n',
);
writeFileSync(join(out, 'malformed.json'), '{"1912.01214": {"title": "T", "full_text": [\n');

try {
  execFileSync('qpdf', [
    '--encrypt',
    'user-pw',
    'owner-pw',
    '256',
    '--',
    join(out, 'tiny.pdf'),
    join(out, 'encrypted.pdf'),
  ]);
} catch (error) {
  console.error(`encrypted.pdf not regenerated (qpdf missing?): ${error.message}`);
}
console.log(`fixtures written to ${out}`);
