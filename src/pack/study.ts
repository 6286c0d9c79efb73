import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, posix, relative, resolve, sep } from 'node:path';
import { CitegeistError } from '../core/index.js';
import { hashInputs, sha256OfFile } from '../io/index.js';
import { RECIPE_PATH_LISTS, RECIPE_PATHS } from '../report/index.js';
import { folderFiles, folderSha256Of, papersRead, writeCorpusSubset } from './corpus-subset.js';
import { faithfulnessStep } from './faithfulness-step.js';
import { judgeCardStep } from './judge-card-step.js';
import type { CorpusSubset, ReplayStep } from './pack-format.js';
import { qaEvalStep } from './qa-eval-step.js';

export interface StudyFile {
  abs: string;
  /** Path inside the study (logical, forward slashes). */
  path: string;
  role: 'output' | 'input';
  /** Where its bytes are read when not at `abs`: a corpus subset the pack wrote (corpus-subset.ts). */
  from?: string;
}

export interface Study {
  /** The study's working folder, logical (`.` unless inputs lie above it). */
  cwd: string;
  files: StudyFile[];
  steps: ReplayStep[];
  notes: string[];
  /** Papers folders packed as subsets (see corpus-subset.ts). */
  subsets: CorpusSubset[];
}

/** SHA-256 of a file's bytes, read in chunks (a corpus can be large). */
export function sha256File(path: string): string {
  return sha256OfFile(path, 'input').sha256;
}

/** The hash a command's `.meta.json` records for an input (`inputs_sha256`). */
function argueInputHash(path: string): string {
  return hashInputs(dirname(path), [basename(path)])[basename(path)]!;
}

/** Every regular file under a folder, sorted (a folder input such as nugget banks). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

export function firstLineJson(path: string): Record<string, unknown> | null {
  // Only the first line: a grades file can be large, and its manifest is that line.
  const fd = openSync(path, 'r');
  const parts: Buffer[] = [];
  try {
    const chunk = Buffer.alloc(1 << 16);
    for (let total = 0; total < 1 << 24; ) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const end = chunk.subarray(0, n).indexOf(10);
      parts.push(Buffer.from(chunk.subarray(0, end < 0 ? n : end)));
      if (end >= 0) break;
      total += n;
    }
  } finally {
    closeSync(fd);
  }
  try {
    const v = JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

interface ReportRecipeRead {
  options: Record<string, unknown>;
  inputs: { path: string; sha256: string }[];
  /** When the report was generated (its replay runs with the clock set to it). */
  generatedAt: string | null;
}

/** The recipe a citegeist HTML report embeds (its options and inputs), read once, or null. */
export function reportRecipeOf(path: string): ReportRecipeRead | null {
  if (!/\.html?$/i.test(path)) return null;
  const html = readFileSync(path, 'utf8');
  const m = /<script type="application\/json" id="citegeist-report-recipe">([\s\S]*?)<\/script>/.exec(html);
  if (!m) return null;
  try {
    // embedJson escapes `<` as \u003c inside the script element; JSON.parse reads it back.
    const recipe = JSON.parse(m[1]!) as Omit<ReportRecipeRead, 'generatedAt'>;
    return { ...recipe, generatedAt: /"generatedAt":"([^"]+)"/.exec(html)?.[1] ?? null };
  } catch {
    return null;
  }
}

type Pending = { abs: string; why: string };

/**
 * Collects a study from its outputs. `cwd` is where the commands that made them ran (the manifests'
 * paths are relative to it). Throws PACK_INPUT_MISSING, naming the output and the input, when an
 * input cannot be found with the content its record gives.
 */
export async function collectStudy(
  outputs: readonly string[],
  cwd: string,
  options: {
    humanLabels?: string;
    withCorpus?: boolean;
    /** A folder the pack removes afterwards, where corpus subsets are written (none: corpora packed whole). */
    scratch?: string;
  } = {},
): Promise<Study> {
  const files = new Map<string, { abs: string; role: 'output' | 'input'; from?: string }>();
  const steps: Omit<ReplayStep, 'cwd'>[] = [];
  const stepArgvPaths: string[] = [];
  const notes: string[] = [];
  const queue: Pending[] = outputs.map((o) => ({ abs: resolve(cwd, o), why: 'named on the command line' }));
  const done = new Set<string>();
  /** Papers folders of which only the papers read are packed (unless `withCorpus`). */
  const subsetFolders = new Set<string>();
  /** Corpus files of which only the papers read are packed: the datasets of the gradings that read each. */
  const subsetCorpora = new Map<string, string[]>();
  const rel = (abs: string) => relative(cwd, abs).split(sep).join('/') || '.';

  const need = (
    owner: string,
    recorded: string,
    base: string,
    sha?: string,
    recordedBy: 'bytes' | 'meta' = 'bytes',
  ): string => {
    const abs = resolve(base, recorded);
    if (!existsSync(abs)) {
      throw new CitegeistError(
        'PACK_INPUT_MISSING',
        `${rel(owner)} was made from ${JSON.stringify(recorded)}, which is not at ${abs}.`,
        'Run `citegeist pack` from the folder where the commands that made the outputs ran: their records give paths relative to it.',
      );
    }
    if (!sha) return abs;
    // A record's hash is of the file's bytes (a folder's is not checked), or a .meta.json's
    // inputs_sha256 (names and bytes, folders too).
    const actual =
      recordedBy === 'meta' ? argueInputHash(abs) : statSync(abs).isFile() ? sha256File(abs) : null;
    if (sha && actual !== null && actual !== sha) {
      throw new CitegeistError(
        'PACK_INPUT_MISSING',
        `${rel(owner)} was made from ${JSON.stringify(recorded)} with sha256 ${sha.slice(0, 12)}…; the file there now has other content.`,
        'Pack the file the output was made from (restore it), or re-run the command that made the output.',
      );
    }
    return abs;
  };
  const addInput = (abs: string) => {
    if (statSync(abs).isDirectory()) {
      for (const f of filesUnder(abs)) if (!files.has(f)) files.set(f, { abs: f, role: 'input' });
      return;
    }
    queue.push({ abs, why: 'input' });
  };

  while (queue.length > 0) {
    const { abs, why } = queue.shift()!;
    if (done.has(abs)) continue;
    done.add(abs);
    if (!existsSync(abs) || !statSync(abs).isFile()) {
      throw new CitegeistError(
        'FILE_NOT_FOUND',
        `${rel(abs)} (${why}) is not a file.`,
        'Name the output files to pack.',
      );
    }
    const recipe = reportRecipeOf(abs);
    const manifest = recipe ? null : firstLineJson(abs);
    const meta = existsSync(`${abs}.meta.json`)
      ? (JSON.parse(readFileSync(`${abs}.meta.json`, 'utf8')) as Record<string, unknown>)
      : null;
    if (recipe) {
      files.set(abs, { abs, role: 'output' });
      const dir = dirname(abs);
      for (const input of recipe.inputs) addInput(need(abs, input.path, dir, input.sha256));
      // The report is rebuilt from the study's working folder, as `citegeist report` made it there,
      // so the paths it shows are the same: the recipe's paths (relative to the report) rebased.
      const rebase = (p: unknown) => (typeof p === 'string' ? rel(resolve(dir, p)) : p);
      const options: Record<string, unknown> = { ...recipe.options };
      for (const k of RECIPE_PATH_LISTS) {
        if (Array.isArray(options[k])) options[k] = (options[k] as unknown[]).map(rebase);
      }
      for (const k of RECIPE_PATHS) if (k in options) options[k] = rebase(options[k]);
      steps.push({
        id: rel(abs),
        kind: 'report',
        options,
        clock: recipe.generatedAt,
        models: false,
        outputs: [rel(abs)],
        not_replayable: null,
      });
      stepArgvPaths.push(cwd);
      continue;
    }
    if (manifest && manifest.citegeist_manifest !== undefined && manifest.kind === 'grades') {
      const settings = manifest.settings as Record<string, unknown>;
      const inputs = manifest.inputs as Record<string, { path?: string; source?: string; sha256: string }>;
      const dataset = need(abs, inputs.dataset?.path ?? '', cwd, inputs.dataset?.sha256);
      const run = need(abs, inputs.run?.path ?? '', cwd);
      const source = inputs.papers?.source ?? '';
      const kind = source.startsWith('corpus:') ? 'corpus' : source.startsWith('papers:') ? 'papers' : null;
      if (!kind)
        throw new CitegeistError(
          'PACK_INPUT_MISSING',
          `${rel(abs)} records no paper source (${JSON.stringify(source)}), so its papers cannot be packed.`,
          'Grade with --corpus or --papers, then pack.',
        );
      const papers = need(abs, source.slice(kind.length + 1), cwd);
      const outs = [abs];
      const summary = `${abs.replace(/\.jsonl$/, '')}.summary.json`;
      const argv = [
        'grade',
        '--dataset',
        rel(dataset),
        '--run',
        rel(run),
        `--${kind}`,
        rel(papers),
        '--match',
        String(settings.match),
        '--quote-mode',
        String(settings.quote_mode),
      ];
      if (existsSync(summary)) {
        outs.push(summary);
        const s = JSON.parse(readFileSync(summary, 'utf8')) as { bootstrap_seed?: number };
        if (s.bootstrap_seed !== undefined) argv.push('--seed', String(s.bootstrap_seed));
      }
      const judge = settings.judge;
      if (typeof judge === 'string') argv.push('--judge', judge);
      if (settings.trust_unlocated_evidence === true) argv.push('--trust-unlocated-evidence');
      // Judged K times (`grade --repeats K`): the manifest states K only when it is above 1.
      if (typeof settings.judge_repeats === 'number' && settings.judge_repeats > 1)
        argv.push('--repeats', String(settings.judge_repeats));
      argv.push('--label', String(manifest.label), '--no-check', '--out', rel(abs));
      for (const o of outs) files.set(o, { abs: o, role: 'output' });
      for (const i of [dataset, run]) addInput(i);
      if (kind === 'papers' && options.withCorpus !== true) {
        // The whole papers the grading read (those its dataset names), not the folder: see corpus-subset.ts.
        for (const f of await papersRead(dataset, papers))
          if (!files.has(f)) files.set(f, { abs: f, role: 'input' });
        subsetFolders.add(papers);
      } else if (kind === 'corpus' && options.withCorpus !== true && options.scratch) {
        // Decided once every output is collected: a step that needs the file whole keeps it whole.
        subsetCorpora.set(papers, [...(subsetCorpora.get(papers) ?? []), dataset]);
      } else addInput(papers);
      steps.push({
        id: rel(abs),
        kind: 'cli',
        argv,
        clock: String(manifest.created_at),
        models: typeof judge === 'string',
        outputs: outs.map(rel),
        not_replayable: null,
      });
      stepArgvPaths.push(cwd);
      continue;
    }
    // A qa-eval output: its scores and summary are one step (naming both packs it once).
    const qa = qaEvalStep(abs, cwd, need, rel);
    if (qa && steps.some((st) => st.id === rel(qa.outputs[0]!))) continue;
    if (qa) {
      for (const o of qa.outputs) files.set(o, { abs: o, role: 'output' });
      for (const i of qa.inputs) addInput(i);
      steps.push({
        id: rel(qa.outputs[0]!),
        kind: 'cli',
        argv: qa.argv,
        clock: qa.clock,
        models: false,
        outputs: qa.outputs.map(rel),
        not_replayable: null,
      });
      if (qa.note) notes.push(qa.note);
      stepArgvPaths.push(cwd);
      continue;
    }
    const card = judgeCardStep(abs, cwd, rel, options.humanLabels);
    if (card) {
      files.set(abs, { abs, role: 'output' });
      if (!card.replayable) {
        notes.push(card.note);
        continue;
      }
      for (const i of card.inputs) addInput(i);
      steps.push({
        id: rel(abs),
        kind: 'cli',
        argv: [...card.argv, '--out', rel(abs)],
        clock: card.clock,
        models: card.models,
        outputs: [rel(abs)],
        not_replayable: null,
      });
      stepArgvPaths.push(cwd);
      continue;
    }
    if (manifest && manifest.citegeist_manifest !== undefined && manifest.kind === 'faithfulness') {
      const step = faithfulnessStep(manifest, abs, cwd, need, rel);
      files.set(abs, { abs, role: 'output' });
      for (const i of step.inputs) addInput(i);
      steps.push({
        id: rel(abs),
        kind: 'cli',
        argv: [...step.argv, '--out', rel(abs)],
        clock: String(manifest.created_at),
        models: true,
        outputs: [rel(abs)],
        not_replayable: null,
      });
      stepArgvPaths.push(cwd);
      continue;
    }
    if (meta && (meta.method === 'argue-judge' || meta.method === 'argue-score')) {
      const hashes = (meta.inputs_sha256 ?? {}) as Record<string, string>;
      const recorded = Object.keys(hashes);
      for (const p of recorded) addInput(need(abs, p, cwd, hashes[p], 'meta'));
      files.set(abs, { abs, role: 'output' });
      files.set(`${abs}.meta.json`, { abs: `${abs}.meta.json`, role: 'output' });
      let argv: string[];
      let models = false;
      if (meta.method === 'argue-judge') {
        const nuggets = String(meta.nuggets);
        const requests = String(meta.requests);
        const runs = recorded.filter((p) => p !== nuggets && p !== requests);
        const judge = String(meta.judge ?? '');
        models = !judge.startsWith('lexical');
        const docs = need(abs, String(meta.docs), cwd);
        addInput(docs);
        // A corpus's index folder serves the passage ids the reports cite: the judge read it.
        if (String(meta.docs_found ?? '').endsWith(' and its index')) addInput(join(dirname(docs), 'index'));
        argv = [
          'reports',
          'judge',
          ...runs.flatMap((r) => ['--runs', r]),
          '--nuggets',
          nuggets,
          '--requests',
          requests,
          '--docs',
          String(meta.docs),
          '--judge',
          models ? judge : 'lexical',
        ];
        if (meta.trust_unlocated_evidence === true) argv.push('--trust-unlocated-evidence');
        // The settings the manifest records that change the judgments, when not the defaults.
        if (typeof meta.limit === 'number') argv.push('--limit', String(meta.limit));
        if (typeof meta.length_mode === 'string' && meta.length_mode !== 'characters')
          argv.push('--length-mode', meta.length_mode);
        if (models && typeof meta.max_doc_chars === 'number')
          argv.push('--max-doc-chars', String(meta.max_doc_chars));
        if (models && typeof meta.judge_repeats === 'number' && meta.judge_repeats > 1)
          argv.push('--repeats', String(meta.judge_repeats));
      } else {
        const [judgments, nuggets, requests] = recorded;
        argv = [
          'reports',
          'score',
          '--judgments',
          judgments!,
          '--nuggets',
          nuggets!,
          ...(requests ? ['--requests', requests] : []),
        ];
        if (meta.penalize_missing_topics === true) argv.push('--penalize-missing-topics');
      }
      argv.push('--out', rel(abs));
      steps.push({
        id: rel(abs),
        kind: 'cli',
        argv,
        // A judgments file's manifest (beside it) records when it was made: the replay uses that time.
        clock: typeof meta.created_at === 'string' ? meta.created_at : null,
        models,
        outputs: [rel(abs), `${rel(abs)}.meta.json`],
        not_replayable: null,
      });
      stepArgvPaths.push(cwd);
      continue;
    }
    // Anything else is an input: a run a model wrote, a dataset, a corpus, a request file.
    if (!files.has(abs)) files.set(abs, { abs, role: why === 'input' ? 'input' : 'output' });
    if (why !== 'input')
      notes.push(
        `${rel(abs)} is packed as it is: citegeist does not re-derive this kind of file on replay (runs and datasets are inputs; use replay --regenerate with a model to make new ones).`,
      );
  }

  // A corpus file only gradings read becomes a new corpus of the papers they read; one that some
  // other step hashes or reads whole (a report's recipe, an ARGUE judge's documents), or whose
  // index folder beside it is packed, stays whole.
  const corpusSubsets: { corpus: string; from: string; papers: number; of: number }[] = [];
  for (const [corpus, datasets] of [...subsetCorpora].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const index = `${join(dirname(corpus), 'index')}${sep}`;
    if (files.has(corpus) || [...files.keys()].some((f) => f.startsWith(index))) {
      files.set(corpus, { abs: corpus, role: 'input' });
      continue;
    }
    const from = join(options.scratch!, `corpus-subset-${corpusSubsets.length}.sqlite`);
    const { papers, of } = await writeCorpusSubset(datasets, corpus, from);
    files.set(corpus, { abs: corpus, role: 'input', from });
    corpusSubsets.push({ corpus, from, papers, of });
  }

  // Outputs are re-derived before anything that reads them: a report last, ARGUE scores after judgments.
  const order = (s: Omit<ReplayStep, 'cwd'>) =>
    s.kind === 'report' ? 3 : s.argv?.[1] === 'score' ? 2 : s.argv?.[0] === 'reports' ? 1 : 0;
  const ordered = steps.map((s, i) => ({ s, i })).sort((a, b) => order(a.s) - order(b.s) || a.i - b.i);

  // The logical layout: the working folder sits as deep as the farthest input above it needs.
  const all = [...files.keys(), ...stepArgvPaths];
  const ups = Math.max(
    0,
    ...all
      .map((a) =>
        relative(cwd, a)
          .split(sep)
          .findIndex((s) => s !== '..'),
      )
      .map((n) => Math.max(n, 0)),
  );
  const cwdLogical = ups === 0 ? '.' : Array.from({ length: ups }, (_, i) => `_cwd${i}`).join('/');
  const logical = (abs: string) =>
    posix.normalize(posix.join(cwdLogical, relative(cwd, abs).split(sep).join('/')));
  const rebase = (p: string) => posix.normalize(posix.join(cwdLogical, p));
  // A folder some other output needed whole (an ARGUE judge's documents) is not a subset.
  const subsets: CorpusSubset[] = [...subsetFolders].sort().flatMap((folder) => {
    const all = folderFiles(folder);
    const packed = all.filter((f) => files.has(f));
    if (packed.length === all.length) return [];
    return [
      {
        kind: 'folder' as const,
        path: logical(folder),
        papers: packed.length,
        of: all.length,
        // The whole folder's hash is the one every `.meta.json` gives a folder input (streamed).
        sha256: hashInputs(folder, [folder])[folder]!,
        subset_sha256: folderSha256Of(packed),
      },
    ];
  });
  for (const c of corpusSubsets) {
    if (c.papers === c.of) {
      // Every paper was read: the corpus is packed as it is.
      files.set(c.corpus, { abs: c.corpus, role: 'input' });
      continue;
    }
    subsets.push({
      kind: 'corpus file',
      path: logical(c.corpus),
      papers: c.papers,
      of: c.of,
      sha256: sha256File(c.corpus),
      subset_sha256: sha256File(c.from),
    });
  }
  return {
    subsets,
    cwd: cwdLogical,
    files: [...files.values()]
      .map((f) => ({ abs: f.abs, path: logical(f.abs), role: f.role, ...(f.from ? { from: f.from } : {}) }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    steps: ordered.map(({ s }) => ({
      ...s,
      outputs: s.outputs.map(rebase),
      cwd: cwdLogical,
    })),
    notes,
  };
}
