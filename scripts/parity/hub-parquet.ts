/**
 * Writes rows of the ResearchQA hub export (one flat object per row, `metadata_*` columns) as a
 * Parquet table shaped like the one the hub serves for it: columns in order of first appearance,
 * absent values null, strings UTF8, integers INT64, `expected_refusal` BOOLEAN, string lists as
 * 3-level LISTs, and `expected_references` a LIST of STRUCT{section_label, alternatives: LIST}
 * (or a LIST of strings in the earlier flat layout); snappy pages. Used to make the Parquet
 * fixture and the Parquet layout of the parity set:
 *
 *   npx tsx scripts/parity/hub-parquet.ts in.hub.jsonl out.parquet
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';

type Row = Record<string, unknown>;
type SchemaElement = Record<string, unknown>;

const utf8 = (name: string): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: 'OPTIONAL',
});
const list = (name: string, element: SchemaElement[]): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...element,
];

function columnSchema(name: string, values: unknown[]): SchemaElement[] {
  const sample = values.find((v) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0));
  if (typeof sample === 'boolean') return [{ name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' }];
  if (typeof sample === 'number') return [{ name, type: 'INT64', repetition_type: 'OPTIONAL' }];
  if (Array.isArray(sample)) {
    if (typeof sample[0] === 'string') return list(name, [utf8('element')]);
    return list(name, [
      { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
      utf8('section_label'),
      ...list('alternatives', [utf8('element')]),
    ]);
  }
  return [utf8(name)];
}

export function hubParquet(rows: readonly Row[]): ArrayBuffer {
  const names: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!names.includes(k)) names.push(k);
  const schema: SchemaElement[] = [{ name: 'root', num_children: names.length }];
  const columnData = names.map((name) => {
    const values = rows.map((r) => r[name] ?? null);
    const elements = columnSchema(name, values);
    schema.push(...elements);
    const data =
      elements[0]!.type === 'INT64' ? values.map((v) => (v === null ? null : BigInt(v as number))) : values;
    return { name, data };
  });
  // biome-ignore lint/suspicious/noExplicitAny: hyparquet-writer's schema type is not exported
  return parquetWriteBuffer({ columnData: columnData as any, schema: schema as any });
}

if (process.argv[1]?.endsWith('hub-parquet.ts')) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: tsx scripts/parity/hub-parquet.ts in.hub.jsonl out.parquet');
  const rows = readFileSync(input, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Row);
  writeFileSync(output, new Uint8Array(hubParquet(rows)));
  console.log(`wrote ${rows.length} rows → ${output}`);
}
