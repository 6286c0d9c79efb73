import { CitegeistError, sha256Hex } from '../core/index.js';
import { readInputBytes } from '../io/index.js';
import { type DatasetReadResult, datasetFromEntries, readDataset, requireValidRows } from './dataset-io.js';
import { plainJson } from './dataset-layouts.js';

/**
 * Reads the hub's Parquet table of a ResearchQA dataset (the export's columns; snappy, gzip,
 * zstd, brotli or lz4 pages) into rows, as `readDataset` does for JSON and JSONL.
 */
export async function readParquetDataset(path: string): Promise<DatasetReadResult> {
  const bytes = readInputBytes(path, { what: 'dataset' });
  // Loaded here, not at start-up: most datasets are JSON, and these modules take ~30 ms to load.
  const [{ parquetReadObjects }, { compressors }] = await Promise.all([
    import('hyparquet'),
    import('hyparquet-compressors'),
  ]);
  let records: Record<string, unknown>[];
  try {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    records = (await parquetReadObjects({ file, compressors })) as Record<string, unknown>[];
  } catch (error) {
    throw new CitegeistError(
      'INVALID_PARQUET',
      `The dataset ${path} is not a readable Parquet file (${(error as Error).message}).`,
      'Give the Parquet file of the dataset as downloaded, or its JSON/JSONL.',
    );
  }
  const entries = records.map((r, i) => ({ where: `${path} row ${i + 1}`, value: stripNulls(plainJson(r)) }));
  return datasetFromEntries(path, entries, 'parquet', 'hub export (Parquet)', sha256Hex(bytes));
}

/** Top-level nulls are absent columns in Parquet (every row has every column): drop them. */
function stripNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
}

/** Reads a dataset in any layout, Parquet (`.parquet`) included. */
export function loadDataset(path: string): Promise<DatasetReadResult> {
  return path.toLowerCase().endsWith('.parquet')
    ? readParquetDataset(path)
    : Promise.resolve(readDataset(path));
}

/** `loadDataset`, throwing DATASET_INVALID_ROWS when any row is bad. */
export async function loadDatasetStrict(path: string): Promise<DatasetReadResult> {
  return requireValidRows(path, await loadDataset(path));
}
