/**
 * A run read for grading without holding its quotes: every row is read and checked exactly as
 * `readRun` does, but only the fields a grades row records are kept, with the row's place in the
 * file; the whole row is read again when it is graded (see `indexDataset` for the dataset side).
 */
import {
  CitegeistError,
  isManifestRecord,
  location,
  parseManifest,
  type RunRow,
  type RunRowRef,
} from '../core/index.js';
import {
  firstContentChar,
  type JsonRowsFile,
  jsonSyntaxProblem,
  RowFile,
  type RowPlace,
  rowChangedError,
  scanJsonRows,
} from '../io/index.js';
import {
  citegeistRow,
  noteMissingCitations,
  publishedRow,
  type RunReadResult,
  runFileDefaults,
  runJsonError,
  runRowAdder,
} from './run-io.js';

/** A read run whose rows are references (`RunRowRef`); `close()` releases its file. */
export interface RunIndex extends Omit<RunReadResult, 'rows'> {
  rows: RunRowRef[];
  close(): void;
}

interface Light {
  row_id: string;
  model: string;
  contract: boolean;
  latency_ms: number | null;
  cost_usd: number | null;
  cached: boolean;
  error: string | null;
  citationCount: number;
  place: RowPlace;
  /** Whether the model was the row's own (else the file's fallback, fixed once the file is read). */
  ownModel: boolean;
}

function lightOf(row: RunRow, place: RowPlace, ownModel: boolean): Light {
  const { row_id, model, contract, latency_ms, cost_usd, cached, error } = row;
  return {
    row_id,
    model,
    contract,
    latency_ms,
    cost_usd,
    cached,
    error,
    citationCount: row.citations.length,
    place,
    ownModel,
  };
}

/** Indexes a run file (see the module comment and `readRun` for the layouts and the rules). */
export function indexRun(path: string, options: { model?: string } = {}): RunIndex {
  let { fallbackModel, contract } = runFileDefaults(path, options.model);
  const out: Omit<RunIndex, 'rows' | 'close'> = {
    format: 'citegeist',
    errors: [],
    models: [],
    manifest: null,
    missingFields: {},
    sha256: '',
  };
  let rows: Light[] = [];
  const json = scanPublished(path, fallbackModel, contract, out, runRowAdder(rows, out));
  let convert: (value: unknown) => RunRow | string;
  if (json) {
    out.format = 'published';
    out.sha256 = json.sha256;
    if (json.layout === 'envelope') {
      const { summary: _summary, ...info } = json.fields;
      out.published = info;
      const baseline = json.fields.mode === 'baseline' || !contract;
      const model = typeof json.fields.model_name === 'string' ? json.fields.model_name : null;
      if (!options.model && model) fallbackModel = `${model}${baseline ? '_baseline' : ''}`;
      contract = !baseline;
      for (const r of rows) {
        if (!r.ownModel) r.model = fallbackModel;
        r.contract = contract;
      }
    }
    convert = (value) => publishedRow(value, fallbackModel, contract);
  } else {
    rows = [];
    out.errors.length = 0;
    out.missingFields = {};
    out.sha256 = scanCitegeist(path, fallbackModel, out, runRowAdder(rows, out)).sha256;
    convert = (value) => citegeistRow(value, fallbackModel);
  }
  out.models = [...new Set(rows.map((r) => r.model))];
  const file = new RowFile(path);
  const load = (place: RowPlace): RunRow => {
    const row = convert(JSON.parse(file.text(place)));
    if (typeof row === 'string') throw rowChangedError(path, place, !json || json.layout === 'lines', row);
    return row;
  };
  return { ...out, rows: rows.map((r) => new RunRef(r, load)), close: () => file.close() };
}

/** A run row reference (a class: 50,000 object literals built by spreading took 10× the memory). */
class RunRef implements RunRowRef {
  readonly row_id: string;
  readonly model: string;
  readonly contract: boolean;
  readonly latency_ms: number | null;
  readonly cost_usd: number | null;
  readonly cached: boolean;
  readonly error: string | null;
  readonly citationCount: number;
  private readonly place: RowPlace;

  constructor(
    light: Light,
    private readonly read: (place: RowPlace) => RunRow,
  ) {
    this.row_id = light.row_id;
    this.model = light.model;
    this.contract = light.contract;
    this.latency_ms = light.latency_ms;
    this.cost_usd = light.cost_usd;
    this.cached = light.cached;
    this.error = light.error;
    this.citationCount = light.citationCount;
    this.place = light.place;
  }

  load(): RunRow {
    return this.read(this.place);
  }
}

/**
 * The published layout (a JSON list, or the results object with its rows), read row by row into
 * `add`; null when the file is not one (JSONL). Models and contract are provisional until the
 * object's own fields are known (`model_name` and `mode` may come after the rows).
 */
function scanPublished(
  path: string,
  model: string,
  contract: boolean,
  out: Pick<RunIndex, 'errors' | 'missingFields'>,
  add: (light: Light, where: string) => boolean,
): JsonRowsFile | null {
  const first = firstContentChar(path, 'run file');
  if (first !== '[' && first !== '{') return null;
  const seen: { light: Light; where: string; cites: unknown }[] = [];
  const failed: RunIndex['errors'] = [];
  let file: JsonRowsFile;
  try {
    file = scanJsonRows(
      path,
      'json',
      (text, place) => {
        const value = JSON.parse(text) as unknown;
        const where = `${path} ${first === '{' ? 'rows' : ''}[${place.index}]`;
        const row = publishedRow(value, model, contract);
        if (typeof row === 'string') failed.push({ where, message: row });
        else {
          const v = value as { model?: unknown; actual_citations?: unknown } | null;
          const own = typeof v?.model === 'string';
          seen.push({
            light: lightOf(row, place, own),
            where,
            cites: { actual_citations: v?.actual_citations },
          });
        }
      },
      'run file',
    );
  } catch (error) {
    // An object that is not one JSON value with a rows list is JSONL (a run's manifest line, say).
    if (first === '{') return null;
    throw runJsonError(path, error);
  }
  if (file.layout === 'envelope' && !file.hasRows) return null;
  out.errors.push(...failed);
  for (const s of seen) if (add(s.light, s.where)) noteMissingCitations(out, s.light, s.cites, 'published');
  return file;
}

/**
 * Citegeist run JSONL, line by line into `add`; its manifest (as `takeManifest` reads it) is set
 * on `out` as soon as it is read (a repeated row id is an error in a file with one).
 */
function scanCitegeist(
  path: string,
  model: string,
  out: Pick<RunIndex, 'errors' | 'manifest' | 'missingFields'>,
  add: (light: Light, where: string) => boolean,
): JsonRowsFile {
  const { errors } = out;
  let first = true;
  return scanJsonRows(
    path,
    'lines',
    (text, place) => {
      if (text.trim() === '') return;
      const where = location(path, place.index);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        first = false;
        errors.push({ where, message: `not JSON (${jsonSyntaxProblem(error, text)})` });
        return;
      }
      if (isManifestRecord(value)) {
        if (!first) {
          throw new CitegeistError(
            'RUN_FILE_CORRUPT',
            `${where} is a second manifest: the file holds more than one run.`,
            'Keep one run per file: split it, or answer/grade again into a new file.',
          );
        }
        first = false;
        out.manifest = parseManifest(value, where);
        return;
      }
      first = false;
      const row = citegeistRow(value, model);
      if (typeof row === 'string') errors.push({ where, message: row });
      else if (add(lightOf(row, place, true), where)) noteMissingCitations(out, row, value, 'citegeist');
    },
    'run file',
  );
}
