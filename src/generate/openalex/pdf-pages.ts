/** The page count of a PDF, read with pdfjs (loaded on first use); throws if it cannot be opened. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = lib.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    return doc.numPages;
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
