import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PACK_LIMITS, readTarGz, writeTarGz } from '../../pack/index.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const METHODS = 'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.';
const RESULTS = 'Response rates rose from 41% to 58% after the reminder letters were sent.';

async function cli(argv: string[], cwd: string) {
  const { io, stdout, stderr } = memoryIo({ cwd, env: {} });
  const code = await runCli(argv, io);
  return { code, out: stdout(), err: stderr() };
}

/**
 * A papers folder of three papers and a note, a dataset naming two of them (p1 answered, p3 not)
 * and a run answering p1's rows: grading reads p1 and p3, never p2 or the note.
 */
function study(): { dir: string; folderSha: string } {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-pack-subset-'));
  mkdirSync(join(dir, 'papers'));
  const papers: [string, string][] = [
    ['NOTES.txt', 'not a paper of the dataset\n'],
    ['p1.md', `# Paper\n\n## Methods\n\n${METHODS}\n`],
    ['p2.md', '# Unused\n\n## Methods\n\nNothing here is cited.\n'],
    ['p3.txt', `Results\n\n${RESULTS}\n`],
  ];
  const whole = createHash('sha256');
  for (const [name, text] of papers) {
    writeFileSync(join(dir, 'papers', name), text);
    whole.update(name).update(text);
  }
  const row = (id: string, paper: string, q: string, alt: string) => ({
    row_id: id,
    paper_id: paper,
    domain: 'education',
    question_type: 'lookup',
    question: q,
    expected_answer: '1,204',
    expected_references: [{ section_label: 'Methods', alternatives: [alt] }],
  });
  const rows = [
    row('p1_chunk0_lookup', 'p1', 'How many responses?', METHODS),
    row('p1_chunk1_lookup', 'p1', 'How many surveys?', METHODS),
    row('p3_chunk0_lookup', 'p3', 'What happened to response rates?', RESULTS),
  ];
  writeFileSync(join(dir, 'dataset.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
  const answers = ['p1_chunk0_lookup', 'p1_chunk1_lookup'].map((id) => ({
    row_id: id,
    model: 'm',
    answer: '1,204 [^1]',
    citations: [{ key: '1', quote: METHODS }],
  }));
  writeFileSync(join(dir, 'run.jsonl'), answers.map((r) => JSON.stringify(r)).join('\n'));
  return { dir, folderSha: whole.digest('hex') };
}

const grade = 'grade --dataset dataset.jsonl --papers papers --run run.jsonl --out g.jsonl'.split(' ');

describe('pack: the papers a study read, standing for its papers folder', () => {
  it('packs only the papers the grading read, says what they stand for, and replays identically', async () => {
    const { dir, folderSha } = study();
    expect((await cli(grade, dir)).code).toBe(0);
    const pack = await cli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], dir);
    expect(pack.code, pack.err).toBe(0);
    const line = `corpus subset: papers/ holds 2 of 4 papers, standing for sha256 ${folderSha}`;
    expect(pack.out).toContain(line);
    expect(pack.out).toMatch(/2 of 2 outputs identical/);

    const inspect = await cli(['pack', 'inspect', 'study.cgpack'], dir);
    expect(inspect.out).toMatch(/input .* papers\/p1\.md/);
    expect(inspect.out).toMatch(/input .* papers\/p3\.txt/); // named by the dataset, though not answered
    expect(inspect.out).not.toMatch(/p2\.md|NOTES\.txt/);
    expect(inspect.out).toContain(line);
    const verify = await cli(['pack', 'verify', 'study.cgpack'], dir);
    expect(verify.code, verify.err).toBe(0);
    expect(verify.out).toContain(line);

    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-subset-'));
    const replay = await cli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], elsewhere);
    expect(replay.out).toContain(line);
    expect(replay.out).toMatch(/2 of 2 outputs identical/);
    expect(replay.code, replay.out + replay.err).toBe(0);
    expect(readdirSync(join(elsewhere, 'r', 'study', 'papers')).sort()).toEqual(['p1.md', 'p3.txt']);
    // The replayed grades record the same papers input as the original: the papers read, by text.
    const manifest = (f: string) => JSON.parse(readFileSync(f, 'utf8').split('\n')[0]!).inputs.papers;
    expect(manifest(join(elsewhere, 'r', 'study', 'g.jsonl'))).toEqual(manifest(join(dir, 'g.jsonl')));
    expect(manifest(join(dir, 'g.jsonl')).count).toBe(2);

    const whole = await cli(['pack', '--include', 'g.jsonl', '--with-corpus', '--out', 'whole.cgpack'], dir);
    expect(whole.code, whole.err).toBe(0);
    expect(whole.out).not.toMatch(/corpus subset/);
    expect((await cli(['pack', 'inspect', 'whole.cgpack'], dir)).out).toMatch(/input .* papers\/p2\.md/);
  }, 60_000);

  it('a papers folder that is the study folder itself (--papers .) is a subset too, and replays', async () => {
    const { dir } = study();
    for (const f of ['p1.md', 'p2.md', 'p3.txt', 'NOTES.txt'])
      writeFileSync(join(dir, f), readFileSync(join(dir, 'papers', f)));
    const graded = await cli([...grade.slice(0, 3), '--papers', '.', ...grade.slice(5)], dir);
    expect(graded.code, graded.err).toBe(0);
    const pack = await cli(['pack', '--include', 'g.jsonl', '--out', 'out.cgpack'], dir);
    expect(pack.code, pack.out + pack.err).toBe(0);
    expect(pack.out).toMatch(/corpus subset: \.\/ holds \d+ of \d+ papers/);
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-subset-root-'));
    const replay = await cli(['replay', join(dir, 'out.cgpack'), '--dir', 'r'], elsewhere);
    expect(replay.code, replay.out + replay.err).toBe(0);
    expect(existsSync(join(elsewhere, 'r', 'study', 'p2.md'))).toBe(false);
    expect(existsSync(join(elsewhere, 'r', 'study', 'p3.txt'))).toBe(true);
  }, 60_000);

  it('a report whose recipe hashes the papers folder gets the folder whole, so the report replays', async () => {
    const { dir } = study();
    expect((await cli(grade, dir)).code).toBe(0);
    const report = await cli(['report', '--grades', 'g.jsonl', '--papers', 'papers', '--out', 'r.html'], dir);
    expect(report.code, report.err).toBe(0);
    const pack = await cli(['pack', '--from', 'r.html', '--out', 'study.cgpack'], dir);
    expect(pack.code, pack.out + pack.err).toBe(0);
    expect(pack.out).not.toMatch(/corpus subset/);
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-subset-report-'));
    const replay = await cli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], elsewhere);
    expect(replay.out).toMatch(/identical\s+r\.html/);
    expect(replay.code, replay.out + replay.err).toBe(0);
    expect(readdirSync(join(elsewhere, 'r', 'study', 'papers')).sort()).toEqual([
      'NOTES.txt',
      'p1.md',
      'p2.md',
      'p3.txt',
    ]);
  }, 60_000);

  it('refuses a pack whose subset record does not match its papers (PACK_INVALID)', async () => {
    const { dir } = study();
    expect((await cli(grade, dir)).code).toBe(0);
    expect((await cli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], dir)).code).toBe(0);
    const entries = readTarGz('study.cgpack', readFileSync(join(dir, 'study.cgpack')), DEFAULT_PACK_LIMITS);
    const tampered = entries.map((e) => {
      if (e.path !== 'pack.json') return e;
      const m = JSON.parse(Buffer.from(e.data).toString('utf8'));
      m.corpus_subsets[0].subset_sha256 = m.corpus_subsets[0].sha256; // claim the subset is the folder
      return { path: e.path, data: Buffer.from(JSON.stringify(m)) };
    });
    writeFileSync(join(dir, 'tampered.cgpack'), writeTarGz(tampered, 0));
    const verify = await cli(['pack', 'verify', 'tampered.cgpack'], dir);
    expect(verify.code).not.toBe(0);
    expect(verify.err).toMatch(/PACK_INVALID.*the subset papers\/ hashes to [0-9a-f]{12}…, pack\.json says/s);
    expect(existsSync(join(dir, 'r'))).toBe(false);
  }, 60_000);

  it('of a corpus file only gradings read, packs a new corpus of the papers read, and replays', async () => {
    const { dir } = study();
    const ingest = await cli(
      ['ingest', 'papers/p1.md', 'papers/p2.md', 'papers/p3.txt', '--corpus', 'corpus.sqlite'],
      dir,
    );
    expect(ingest.code, ingest.err).toBe(0);
    const graded = await cli([...grade.slice(0, 3), '--corpus', 'corpus.sqlite', ...grade.slice(5)], dir);
    expect(graded.code, graded.err).toBe(0);
    const corpusSha = createHash('sha256')
      .update(readFileSync(join(dir, 'corpus.sqlite')))
      .digest('hex');
    const line = `corpus subset: corpus.sqlite holds 2 of 3 papers, standing for sha256 ${corpusSha}`;
    const pack = await cli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], dir);
    expect(pack.code, pack.out + pack.err).toBe(0);
    expect(pack.out).toContain(line);
    expect(pack.out).toMatch(/2 of 2 outputs identical/);
    const inspect = await cli(['pack', 'inspect', 'study.cgpack'], dir);
    expect(inspect.out).toContain(line);
    const verify = await cli(['pack', 'verify', 'study.cgpack'], dir);
    expect(verify.code, verify.err).toBe(0);
    expect(verify.out).toContain(line);

    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-corpus-subset-'));
    const replay = await cli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], elsewhere);
    expect(replay.out).toContain(line);
    expect(replay.out).toMatch(/2 of 2 outputs identical/);
    expect(replay.code, replay.out + replay.err).toBe(0);
    // The packed corpus is a corpus of the papers read (p1 and p3), not the file ingested.
    const list = await cli(['list', '--corpus', join(elsewhere, 'r', 'study', 'corpus.sqlite')], elsewhere);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(/p1/);
    expect(list.out).toMatch(/p3/);
    expect(list.out).not.toMatch(/p2/);
    const manifest = (f: string) => JSON.parse(readFileSync(f, 'utf8').split('\n')[0]!).inputs.papers;
    expect(manifest(join(elsewhere, 'r', 'study', 'g.jsonl'))).toEqual(manifest(join(dir, 'g.jsonl')));

    // A subset record that claims the pack holds the whole corpus file is refused.
    const entries = readTarGz('study.cgpack', readFileSync(join(dir, 'study.cgpack')), DEFAULT_PACK_LIMITS);
    const tampered = entries.map((e) => {
      if (e.path !== 'pack.json') return e;
      const m = JSON.parse(Buffer.from(e.data).toString('utf8'));
      m.corpus_subsets[0].subset_sha256 = m.corpus_subsets[0].sha256;
      return { path: e.path, data: Buffer.from(JSON.stringify(m)) };
    });
    writeFileSync(join(dir, 'tampered.cgpack'), writeTarGz(tampered, 0));
    const bad = await cli(['pack', 'verify', 'tampered.cgpack'], dir);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(
      /PACK_INVALID.*the subset corpus\.sqlite hashes to [0-9a-f]{12}…, pack\.json says/s,
    );

    const whole = await cli(['pack', '--include', 'g.jsonl', '--with-corpus', '--out', 'whole.cgpack'], dir);
    expect(whole.code, whole.err).toBe(0);
    expect(whole.out).not.toMatch(/corpus subset/);
    // Inputs referenced only: the corpus file is referenced whole (a reader can supply that one).
    const referenced = await cli(
      ['pack', '--include', 'g.jsonl', '--exclude-inputs', '--out', 'ref.cgpack'],
      dir,
    );
    expect(referenced.code, referenced.err).toBe(0);
    expect(referenced.out).not.toMatch(/corpus subset/);
    const refJson = readTarGz('ref.cgpack', readFileSync(join(dir, 'ref.cgpack')), DEFAULT_PACK_LIMITS).find(
      (e) => e.path === 'pack.json',
    )!;
    const refFiles = JSON.parse(Buffer.from(refJson.data).toString('utf8')).files as {
      path: string;
      sha256: string;
    }[];
    expect(refFiles.find((f) => f.path === 'corpus.sqlite')?.sha256).toBe(corpusSha);
    const wholeInspect = await cli(['pack', 'inspect', 'whole.cgpack'], dir);
    expect(wholeInspect.out).toMatch(/input .*corpus\.sqlite/);
    const entry = readTarGz(
      'whole.cgpack',
      readFileSync(join(dir, 'whole.cgpack')),
      DEFAULT_PACK_LIMITS,
    ).find((e) => e.path === `files/${corpusSha}`);
    expect(entry).toBeDefined();
  }, 90_000);

  it('a corpus file a report recipe also hashes is packed whole, so the report replays', async () => {
    const { dir } = study();
    const files = ['papers/p1.md', 'papers/p2.md', 'papers/p3.txt'];
    expect((await cli(['ingest', ...files, '--corpus', 'corpus.sqlite'], dir)).code).toBe(0);
    const graded = await cli([...grade.slice(0, 3), '--corpus', 'corpus.sqlite', ...grade.slice(5)], dir);
    expect(graded.code, graded.err).toBe(0);
    const report = await cli(
      ['report', '--grades', 'g.jsonl', '--corpus', 'corpus.sqlite', '--out', 'r.html'],
      dir,
    );
    expect(report.code, report.err).toBe(0);
    const pack = await cli(['pack', '--from', 'r.html', '--out', 'study.cgpack'], dir);
    expect(pack.code, pack.out + pack.err).toBe(0);
    expect(pack.out).not.toMatch(/corpus subset/);
    const corpusSha = createHash('sha256')
      .update(readFileSync(join(dir, 'corpus.sqlite')))
      .digest('hex');
    const packed = readTarGz('study.cgpack', readFileSync(join(dir, 'study.cgpack')), DEFAULT_PACK_LIMITS);
    expect(packed.some((e) => e.path === `files/${corpusSha}`)).toBe(true);
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-corpus-report-'));
    const replay = await cli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], elsewhere);
    expect(replay.out).toMatch(/identical\s+r\.html/);
    expect(replay.code, replay.out + replay.err).toBe(0);
  }, 90_000);
});
