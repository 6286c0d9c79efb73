/**
 * Every error code citegeist emits, with what it means and the usual fix. This table is the single
 * source: `CitegeistError` accepts only its keys (a typo does not compile), `citegeist errors` prints
 * it, docs/errors.md is generated from it (`npm run docs:errors`), and a test checks that every code
 * written in src/ is here and every code here is used. Adding a code is one line below (at the end
 * of its area's lines), then `npm run docs:errors`. Before adding one, look for a code of the same
 * meaning: a new code is for a case a script would handle differently (retry, rebuild, another
 * file), not for another file format or command (the message names those).
 *
 * The message of each error says what exactly was wrong and where (file, line, field); `meaning` and
 * `fix` here are the general case, for scripts that branch on the code and for the docs.
 */
export interface ErrorCodeInfo {
  /** Where it arises, for grouping in the docs. */
  readonly area: ErrorArea;
  readonly meaning: string;
  readonly fix: string;
}

export type ErrorArea =
  | 'command line'
  | 'files'
  | 'datasets and runs'
  | 'ingest'
  | 'corpus and index'
  | 'models'
  | 'statistics'
  | 'evaluation'
  | 'library'
  | 'internal';

// biome-ignore format: one line per code keeps adding a code a one-line change and the table readable
export const ERROR_CODES = {
  BAD_OPTION: { area: 'command line', meaning: 'An option or argument has a value it does not accept (not a number, out of range, not one of the allowed words or names such as a run id, a one-line label), or options were given in the wrong place (before a subcommand).', fix: 'Give a value the message lists; `citegeist <command> --help` shows them all.' },
  OPTION_REQUIRED: { area: 'command line', meaning: 'The command needs an option that was not given (and the config file does not set it), e.g. which run of a file with several, or a model folder for BERTScore.', fix: 'Add the option the message names.' },
  CONFLICTING_OPTIONS: { area: 'command line', meaning: 'Options that do not go together were given (e.g. --corpus with --papers, a trec-eval measure with a judgements format it cannot use).', fix: 'Keep one of them, or the combination the message names.' },
  MODEL_REQUIRED: { area: 'command line', meaning: 'The command needs a model (or judge) and none is given or configured.', fix: 'Pass --model / --judge with a model string (e.g. openai:gpt-4.1-mini, or lexical for `reports judge`), or set it in citegeist.config.json.' },
  UNKNOWN_COMMAND: { area: 'command line', meaning: 'The command name is not a citegeist command.', fix: 'Use the suggested name, or run `citegeist --help` for the list.' },
  CONFIG_INVALID: { area: 'command line', meaning: 'The config file does not parse (JSON or YAML) or has unknown keys or wrong types.', fix: 'Fix the key the message names; the message lists the valid keys.' },
  SERVE_PORT_IN_USE: { area: 'command line', meaning: 'The port `citegeist serve` was asked to listen on is taken by another program.', fix: 'Pass another --port, or stop the program that holds it.' },
  FILE_NOT_FOUND: { area: 'files', meaning: 'A file or folder given on the command line (or named in a config or manifest) does not exist.', fix: 'Check the path; relative paths are taken from the current folder.' },
  FILE_IS_DIRECTORY: { area: 'files', meaning: 'A folder was given where a file is read or written.', fix: 'Give a file path.' },
  FILE_UNREADABLE: { area: 'files', meaning: 'A file or folder exists but cannot be read.', fix: 'Check its permissions.' },
  FILE_TOO_LARGE: { area: 'files', meaning: 'An input file is larger than the limit for its kind, so reading it was refused before it could exhaust memory.', fix: 'Split the file, or check that it is the file you meant.' },
  OUTPUT_UNWRITABLE: { area: 'files', meaning: 'An output file (or the lock file beside it) cannot be written: a folder, a special file such as /proc or /dev/full, a full disk, no permission, a file system without hard links.', fix: 'Give a writable file path on a local disk with free space.' },
  EMPTY_FILE: { area: 'files', meaning: 'An input file is empty (0 bytes, or nothing but blank lines).', fix: 'Check the file was written, copied or downloaded completely.' },
  LOCK_HELD: { area: 'files', meaning: 'Another process is writing the same output (its lock file names it); two writers would mix their rows.', fix: 'Wait for it to finish, or write to another file; the message says how to remove a lock left by a dead process.' },
  LOCK_LOST: { area: 'files', meaning: 'The lock of an output was removed or taken by another process while this one was writing, so it stopped.', fix: 'Make sure one process at a time writes the file, then run the command again to resume.' },
  FILE_NOT_REGULAR: { area: 'files', meaning: 'An input is not a regular file: a named pipe (FIFO), socket or device, which could block forever or never end, so it is refused before it is opened.', fix: 'Save the data to a file and give its path; commands that read standard input take `-`.' },
  DISK_FULL: { area: 'files', meaning: 'An output, lock or corpus could not be written because its disk is full (or a quota or file-size limit was reached); what was written before is intact.', fix: 'Free space on that disk (or write to another one with --out / --corpus), then run the command again: it resumes.' },
  READ_ONLY_LOCATION: { area: 'files', meaning: 'An output (or the folder it goes in) is on a read-only file system, so nothing can be written there.', fix: 'Write to a folder on a writable disk (another --out), or remount the file system read-write.' },
  NOT_UTF8: { area: 'files', meaning: 'A text input holds bytes that are not UTF-8 (the message gives the first bad line).', fix: 'Convert it (e.g. `iconv -f latin1 -t utf-8`), or check it is the file you meant.' },
  INVALID_JSON: { area: 'files', meaning: 'A JSON file (or one line of a JSONL file that must be complete) does not parse.', fix: 'Fix the JSON at the position the message gives; give JSONL to commands that read JSONL.' },
  INVALID_XML: { area: 'files', meaning: 'An XML file is not well-formed.', fix: 'The file is damaged or truncated: export or download it again.' },
  INVALID_CSV: { area: 'files', meaning: 'A CSV file is malformed: a row with more or fewer fields than the header, a quoted field never closed, or a quote inside an unquoted field.', fix: 'Give every row one field per header column; quote a field that holds the separator, a quote or a line break, and write a quote inside it as "".' },
  INVALID_PARQUET: { area: 'files', meaning: 'A Parquet file cannot be read (damaged, truncated, or not Parquet).', fix: 'Give the Parquet file as downloaded, or the same data as JSON or JSONL.' },
  INVALID_INPUT: { area: 'files', meaning: 'A row, line or field of an input file does not have the expected shape or type, or repeats an id that must be unique (requests, nugget banks); this covers every format without a code of its own (TREC judgements, requests, reports, nugget banks, judgments, scores TSV, BERTScore baselines).', fix: 'Correct the field at the file and line the message names.' },
  INPUT_TOO_DEEP: { area: 'files', meaning: 'An input nests values or elements deeper than citegeist follows (JSON or XML thousands of levels deep).', fix: 'Check that the file is what the command expects; real papers and rows nest a few levels deep.' },
  UNKNOWN_LAYOUT: { area: 'files', meaning: 'An input file is of a kind or layout the command does not read (e.g. a JSON object of another layout, a quotes file that is neither .txt nor .jsonl).', fix: 'Give the layout the message names (e.g. eval_dataset.json, native QASPER, questions list).' },
  PACK_INVALID: { area: 'files', meaning: 'A study pack is damaged, truncated or altered, or holds an entry a pack may not hold (a link, a device, a path that is absolute or climbs out with ".."), or a file whose hash is not the one its pack.json records.', fix: 'Nothing was extracted. Ask for a new copy of the pack; `citegeist pack verify FILE` checks one.' },
  PACK_TOO_LARGE: { area: 'files', meaning: 'A study pack inflates past the size or entry limit (a decompression bomb, or a genuinely large study).', fix: 'Raise the limit with --max-bytes / --max-entries if you trust the pack.' },
  PACK_INPUT_MISSING: { area: 'files', meaning: 'An output to pack names an input (dataset, run, corpus, nugget banks…) that cannot be found with the content it records, or a replay needs an input the pack only references (packed with --exclude-inputs).', fix: 'Run `citegeist pack` from the folder where the commands that made the outputs ran (their manifests give paths relative to it), or supply the referenced input beside the pack with --inputs DIR.' },
  FILE_CHANGED: { area: 'files', meaning: 'An input file changed while the command was reading it: a row indexed on the first pass read differently when it was loaded.', fix: 'Keep the file as it is while the command runs (write new data to another file), then run the command again.' },
  NO_ROWS: { area: 'datasets and runs', meaning: 'An input parsed but yielded no rows at all (a dataset, run, requests or judgments file, a TREC run, a folder without nugget files): often the wrong file for the command or format.', fix: 'Check that the file is the one the command expects.' },
  DATASET_INVALID: { area: 'datasets and runs', meaning: 'A dataset has rows that cannot be used (invalid rows, duplicate row ids, empty questions, unknown papers).', fix: 'Run `citegeist dataset check` for the full list and fix those rows.' },
  RUN_MANIFEST_MISMATCH: { area: 'datasets and runs', meaning: 'An output being resumed (run, grades, results, generated dataset, recipes, reports) was made with other settings or inputs; the message lists what differs.', fix: 'Write to a new file (another --out), or run with the settings and inputs recorded in it.' },
  RUN_FILE_FOREIGN: { area: 'datasets and runs', meaning: 'An output to resume holds rows but no citegeist manifest (another tool or an older citegeist wrote it), so resuming could lose its rows.', fix: 'Write to a new file (another --out), or move this one away.' },
  RUN_FILE_CORRUPT: { area: 'datasets and runs', meaning: 'A run or grades file was edited or damaged: an invalid manifest or row, a second manifest, a row id twice.', fix: 'Write to a new file (another --out); keep one run per file.' },
  MANIFEST_TOO_NEW: { area: 'datasets and runs', meaning: 'A file was written by a newer citegeist (a manifest format this one does not read).', fix: 'Update citegeist, or write to another file.' },
  DUPLICATE_ROW_IDS: { area: 'datasets and runs', meaning: 'A run given to `leaderboard` or `report` holds a row id more than once, so its rows would be counted twice.', fix: 'Give each run once; give runs made with different settings different labels (--label).' },
  DUPLICATE_LABEL: { area: 'datasets and runs', meaning: 'Two different runs carry the same label, so a leaderboard would merge them into one column.', fix: 'Give them different labels (--label when answering or grading), or leave one out.' },
  RUN_INCOMPLETE: { area: 'datasets and runs', meaning: 'A run or grades file is still being written: the process that writes it holds its lock, so grading or reporting it now would score a part as the whole.', fix: 'Wait for the writer to finish (or stop it and resume it to the end); to score the rows written so far, pass --allow-partial (the output is marked partial).' },
  INGEST_UNSUPPORTED_FORMAT: { area: 'ingest', meaning: 'The file is none of the formats ingest reads (PDF, JATS, TEI, Markdown, text, QASPER or S2ORC JSON).', fix: 'Convert it to one of those formats.' },
  INGEST_NO_TEXT: { area: 'ingest', meaning: 'The file holds no text (a scanned PDF without a text layer, or an empty paper).', fix: 'Run OCR on scans (e.g. `ocrmypdf`), or check the file is the full paper.' },
  INGEST_PDF_CORRUPT: { area: 'ingest', meaning: 'The PDF cannot be parsed (truncated or damaged).', fix: 'Download it again, or ingest another format of the paper.' },
  INGEST_PDF_ENCRYPTED: { area: 'ingest', meaning: 'The PDF is encrypted and needs a password.', fix: 'Save a decrypted copy (e.g. `qpdf --decrypt in.pdf out.pdf`).' },
  INGEST_PDF_TOO_LONG: { area: 'ingest', meaning: 'A PDF has more pages than one paper is allowed to have (default 5,000, `--max-pdf-pages`), so it was not read.', fix: 'Check it is one paper (not a merged volume); split it, or raise --max-pdf-pages.' },
  NOTHING_TO_INGEST: { area: 'ingest', meaning: '`ingest` found no file it reads under the paths given (an empty folder, or files of other kinds only), so nothing was stored.', fix: 'Check the paths and the file extensions (.pdf, .nxml, .xml, .md, .txt, .json); pass --allow-empty where an empty folder is expected.' },
  CORPUS_NOT_FOUND: { area: 'corpus and index', meaning: 'There is no corpus at the given or default path.', fix: 'Ingest papers first (`citegeist ingest <files>`), or pass --corpus.' },
  CORPUS_UNREADABLE: { area: 'corpus and index', meaning: 'The corpus file exists but is not a citegeist corpus or cannot be opened.', fix: 'Pass another --corpus path, or move the file away.' },
  CORPUS_READ_ONLY: { area: 'corpus and index', meaning: 'The corpus file (or its folder) cannot be written: a read-only file, folder or file system.', fix: 'Make the corpus and its folder writable (chmod u+w), or pass another --corpus on a writable disk.' },
  CORPUS_SCHEMA_MISMATCH: { area: 'corpus and index', meaning: 'The corpus was written by a citegeist with another schema version.', fix: 'Re-ingest the papers into a new corpus.' },
  CORPUS_EMPTY: { area: 'corpus and index', meaning: 'The corpus (or the passages an embedder is fitted on) has no text to index.', fix: 'Ingest papers with text first.' },
  PAPER_NOT_FOUND: { area: 'corpus and index', meaning: 'A paper id or path names no paper in the corpus or papers folder.', fix: 'Check the id (`citegeist list`), or add the paper.' },
  DOCUMENT_AMBIGUOUS: { area: 'corpus and index', meaning: 'A file holds several documents and the command needs one.', fix: 'Ingest the file and name one document id.' },
  SECTION_NOT_FOUND: { area: 'corpus and index', meaning: 'The paper has no section with that label.', fix: 'Use one of the labels the message lists.' },
  INDEX_MISSING: { area: 'corpus and index', meaning: 'There is no retrieval index for the corpus.', fix: 'Build it with `citegeist index`.' },
  INDEX_CORRUPT: { area: 'corpus and index', meaning: 'An index file (or a saved embedder model in it) is damaged or has the wrong shape.', fix: 'Rebuild it with `citegeist index --rebuild`.' },
  INDEX_STALE: { area: 'corpus and index', meaning: 'The index does not match the corpus (papers added, removed or changed since it was built), so results would miss or misquote them.', fix: 'Update it with `citegeist index` (it rebuilds what changed).' },
  INDEX_VERSION: { area: 'corpus and index', meaning: 'The index was written in a format this citegeist does not read.', fix: 'Rebuild it with `citegeist index --rebuild`.' },
  INDEX_DISK_FULL: { area: 'corpus and index', meaning: 'The disk filled up while the index was being written; the half-built index was removed and the previous one left as it was.', fix: 'Free disk space, then run `citegeist index` again.' },
  INDEX_WRITE_FAILED: { area: 'corpus and index', meaning: 'Writing an index file failed for another reason than a full disk; the previous index was left as it was.', fix: 'Check the index folder and its permissions, then run `citegeist index` again.' },
  RUN_UNKNOWN_IDS: { area: 'corpus and index', meaning: 'A TREC run given with --retrieved names passages or papers the indexed corpus does not have (another corpus, or another id scheme).', fix: 'Index what `citegeist export passages` writes with the other engine, or ingest and index the missing papers.' },
  INDEX_NO_VECTORS: { area: 'corpus and index', meaning: 'Dense retrieval was asked of an index built without an embedder.', fix: 'Rebuild it with `citegeist index --rebuild --embedder <spec>`.' },
  INDEX_NO_ANN: { area: 'corpus and index', meaning: 'ANN dense search was asked of an index built without an ANN graph (graphs are built and certified at index time, never on open, and an update drops them).', fix: 'Build it with `citegeist index --ann`, or search exactly (dense mode exact or auto).' },
  INDEX_EMBEDDER_MISMATCH: { area: 'corpus and index', meaning: 'The index was built with another embedder (or dimension) than the one configured.', fix: 'Configure the embedder it was built with, or rebuild it.' },
  RECIPES_MISSING: { area: 'corpus and index', meaning: 'RECIPER retrieval needs extracted recipes and none are stored for the indexed papers as they are now.', fix: 'Run `citegeist recipes extract --model <spec>` first.' },
  ASSETS_MISSING: { area: 'corpus and index', meaning: 'Files that ship with citegeist (demo data, harm rubrics) are not where the package keeps them.', fix: 'Reinstall citegeist.' },
  BAD_MODEL_STRING: { area: 'models', meaning: 'A model string does not name a known provider and model.', fix: 'Use provider:model, e.g. openai:gpt-4.1-mini or ollama:qwen2.5:7b.' },
  BAD_EMBEDDER_SPEC: { area: 'models', meaning: 'An embedder spec or preset is not known.', fix: 'Use one of the embedders the message lists.' },
  MISSING_API_KEY: { area: 'models', meaning: 'The provider needs an API key and its environment variable is not set.', fix: 'Export the variable the message names (keys are never read from files).' },
  MISSING_BASE_URL: { area: 'models', meaning: 'The provider needs a server URL and its environment variable is not set.', fix: 'Export the variable the message names (e.g. VLLM_BASE_URL).' },
  OPTIONAL_DEPENDENCY: { area: 'models', meaning: 'An optional package or system library (an embedder, a local model runtime, OpenBLAS) is not installed or failed to load.', fix: 'Install what the message names (npm packages at the exact version, OpenBLAS with `apt-get install libopenblas0-pthread`), or choose another kernel or model.' },
  EMBEDDER_NOT_FITTED: { area: 'models', meaning: 'A corpus-fitted embedder was used before it was fitted.', fix: 'Fit it on the corpus (or load its saved model) first.' },
  EMBEDDER_MISCONFIGURED: { area: 'models', meaning: 'An embedding model (or the encoder BERTScore uses) does not fit how it is used: vectors of another size than configured, a config that lacks it, a model type, tokenizer or output layer it cannot be used with.', fix: 'Set the right dimensions, or use a model folder of the kind the message names.' },
  EMBEDDING_FAILED: { area: 'models', meaning: 'The embedding server failed after retries.', fix: 'Check the server and model name; finished batches are cached.' },
  CACHE_MISS: { area: 'models', meaning: 'Cache-only mode needed a result that is not cached.', fix: 'Run without --cache-only.' },
  JUDGE_FAILED: { area: 'models', meaning: 'Every judge call of a grading run failed, so no judged score exists.', fix: 'Check the judge model, key and server (the rows record each reason), then run again.' },
  QUEUE_UNREACHABLE: { area: 'models', meaning: 'The Redis of a queue run or a shared response cache (--queue, --cache redis://…) could not be reached when the command started, so nothing was enqueued or written.', fix: 'Start Redis there (docs/scale-out.md), or correct the host, port and database in the URL; run the command again.' },
  QUEUE_AUTH: { area: 'models', meaning: 'The Redis of a queue run or a shared response cache refused the connection (no password, or a wrong one).', fix: 'Give the password in the URL (redis://:PASSWORD@host:6379/0) or in CITEGEIST_REDIS_PASSWORD.' },
  STATS_BAD_DATA: { area: 'statistics', meaning: 'A statistics function was given data it cannot use (not an array, NaN or infinity, unequal lengths, bad or duplicate ratings).', fix: 'Clean the data as the message says (it names the argument and index).' },
  STATS_STATISTIC_NOT_FINITE: { area: 'statistics', meaning: 'A statistic passed to a resampling function returned a non-finite value.', fix: 'Return null where the statistic is undefined.' },
  STATS_SINGULAR_SYSTEM: { area: 'statistics', meaning: 'A model fit met a singular linear system (a parameter no observation informs).', fix: 'Check the data for items or raters with no ratings.' },
  UNKNOWN_MEASURE: { area: 'evaluation', meaning: 'A measure or metric name is unknown (trec_eval measures, ARGUE metrics), or the scores hold no per-topic values for it.', fix: 'Use a measure the message lists (map, ndcg_cut.10, P.10, recip_rank, nugget_coverage, f1, …).' },
  COMPARE_DATASET_MISMATCH: { area: 'evaluation', meaning: 'Two files to be compared were made on different datasets (their manifests name different dataset hashes), so their items are not the same questions.', fix: 'Compare files graded on the same dataset, or regrade one of them on the other\'s dataset.' },
  COMPARE_TOO_FEW_SHARED: { area: 'evaluation', meaning: 'Two files to be compared share too few items (row ids, answer ids or topics) for a paired test.', fix: 'Check that both files cover the same questions (same dataset, same ids), or lower --min-shared.' },
  NOTHING_IN_COMMON: { area: 'evaluation', meaning: 'Inputs scored against each other share too little: no topic in both the qrels and the run, no topic scored for every system in both score sets, or fewer than 3 systems for a ranking correlation.', fix: 'Check that the ids (topic ids in column 1, run ids) match between the files.' },
  TREC_TOPIC_NOT_IN_RUN: { area: 'evaluation', meaning: 'A topic in the judgements has no results in the run and -c was not given: trec_eval 10.0 stops there too, after printing the lines of the topics before it (which citegeist prints as well).', fix: 'Give -c to score topics missing from the run as 0 (what most evaluations want), or --skip-missing-topics to score only the topics in both files (trec_eval 9.0.x behaviour).' },
  TREC_DUPLICATE_DOC: { area: 'evaluation', meaning: 'A run or qrels lists one document twice for a topic (trec_eval stops there too).', fix: 'Remove the duplicate line.' },
  NUGGET_UNSUPPORTED: { area: 'evaluation', meaning: 'A nugget bank holds a nugget of a kind the operation cannot take: claims where question nuggets are needed (ARGUE scoring, question-only formats) or the reverse, or a claim merged with a nugget of the same text.', fix: 'Use a bank of the kind the message names; nugget bank v3 holds both kinds.' },
  NUGGETS_MISSING: { area: 'evaluation', meaning: 'A topic has no nugget bank, so a report missing for it cannot be scored 0 (--penalize-missing-topics).', fix: 'Add its bank, or leave out --penalize-missing-topics.' },
  NUGGETS_NOT_SCORED: { area: 'evaluation', meaning: 'Nuggets are to be ranked by their quality criteria (`nuggets select --method criteria|hybrid`, `train-selector`) and none of them carries the scores.', fix: 'Score the bank first: `citegeist nuggets score-quality --bank <dir> --model <spec>`.' },
  HUMAN_SET_MISSING: { area: 'evaluation', meaning: 'A human-judgment set is not where the command looks for it (its folder or one of its files is absent).', fix: 'Pass --data with the folder that holds the set (e.g. ../shared/data/human-labels), or get the set from the source its PROVENANCE names.' },
  HUMAN_LABELS_ID_MISMATCH: { area: 'evaluation', meaning: 'A labels file names items the human-judgment set does not have (it was made for another set, dimension or id scheme).', fix: 'Label the set\'s own item ids (the message shows how many matched and examples of those that did not).' },
  HUMAN_LABEL_OUT_OF_SCALE: { area: 'evaluation', meaning: 'A label is not on the set\'s scale (an unknown category, or a number outside the range).', fix: 'Write one of the scale\'s labels, by code or name (the message lists them and the line).' },
  JUDGE_CARD_STALE: { area: 'evaluation', meaning: 'A judge card was made for another judge model or prompt version than the judged numbers it is shown with, so it does not certify them.', fix: 'Make a new card for this judge and prompt version: `citegeist meta-eval judge --set <set> --judge <model>`.' },
  JUDGE_UNCERTIFIED: { area: 'evaluation', meaning: '`--require-agreement X` was given and the judge of the numbers has no judge card (none given, none found in the workspace), or its card\'s headline agreement with people (Cohen\'s κ, else Krippendorff\'s α, else Spearman ρ; the point estimate) is below X; the judged numbers are not made (grade --judge, grade faithfulness, reports judge); leaderboard and report show them marked UNCERTIFIED, not ranked.', fix: 'Make a card for this judge and prompt version into judge-cards/ (`citegeist meta-eval judge --set <set> --judge <model> --out judge-cards/<name>-card.json`), pass one with --judge-card, use a judge that agrees better with people, or lower --require-agreement.' },
  INVALID_ARGUMENT: { area: 'library', meaning: 'A library function was called with an argument it does not accept (out of range, not one of the allowed values, an empty list), or an object was used after it was closed. Commands check their options first (BAD_OPTION), so from the command line this is a bug.', fix: 'Pass a value the message names (the function\'s doc comment lists them); from the command line, report it with --debug output.' },
  DEMO_STEP_FAILED: { area: 'internal', meaning: 'A step of `citegeist demo` failed.', fix: 'Read the messages above; run that step yourself with --debug.' },
  INTERNAL: { area: 'internal', meaning: 'citegeist hit an unexpected state (a bug).', fix: 'Run again with --debug and report the stack trace.' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** The table as Markdown (docs/errors.md), grouped by area in table order. */
export function errorCodesMarkdown(): string {
  const lines = [
    '# Error codes',
    '',
    'Generated from `src/core/error-codes.ts` by `npm run docs:errors`; do not edit by hand.',
    '`citegeist errors [CODE]` prints the same table. Every error citegeist reports has one of these',
    'codes, a problem naming the bad value and where it came from, and a fix; the exit code is 1',
    '(2 for a command line commander cannot parse).',
    '',
  ];
  const areas = [...new Set(Object.values(ERROR_CODES).map((e) => e.area))];
  for (const area of areas) {
    lines.push(
      `## ${area[0]?.toUpperCase()}${area.slice(1)}`,
      '',
      '| code | meaning | fix |',
      '|---|---|---|',
    );
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      if (info.area === area) lines.push(`| \`${code}\` | ${cell(info.meaning)} | ${cell(info.fix)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

const cell = (text: string) => text.replaceAll('|', '\\|');
