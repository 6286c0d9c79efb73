import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { Document } from '../core/index.js';
import { pdfToDocument } from './pdf/pdf-document.js';

/** Reads one file into its document(s). */
export async function readDocumentFile(
  file: string,
  id = basename(file, extname(file)),
): Promise<Document[]> {
  const bytes = new Uint8Array(await readFile(file));
  return [await pdfToDocument(bytes, { file, id })];
}
