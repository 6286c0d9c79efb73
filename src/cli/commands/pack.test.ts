import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedReply } from '../../grade/vetscore/__fixtures__/scripted-judge.js';
import { writeTarGz } from '../../pack/index.js';
import { FakeOpenAiServer, missingSharedData, sharedDataPath } from '../../testing/index.js';
import { itUnless } from '../../testing/it-unless.js';
import { memoryIo } from '../io.js';
import { runCli } from '../program.js';

const METHODS = 'We collected 1,204 survey responses from teachers in three districts between 2019 and 2021.';
const SECRET = 'sk-canary-0123456789abcdef';

/** A small judged study: papers, a dataset, a run; graded with a judge over the fake server. */
function study(): string {
  const dir = mkdtempSync(join(tmpdir(), 'citegeist-pack-'));
  mkdirSync(join(dir, 'papers'));
  writeFileSync(join(dir, 'papers', 'p1.md'), `# Paper\n\n## Methods\n\n${METHODS}\n`);
  const row = (id: string, q: string) => ({
    row_id: id,
    paper_id: 'p1',
    domain: 'education',
    question_type: 'lookup',
    question: q,
    expected_answer: '1,204',
    expected_references: [{ section_label: 'Methods', alternatives: [METHODS] }],
  });
  writeFileSync(
    join(dir, 'dataset.jsonl'),
    [row('p1_chunk0_lookup', 'How many responses?'), row('p1_chunk1_lookup', 'How many surveys?')]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  const answer = (id: string) => ({
    row_id: id,
    model: 'm',
    answer: '1,204 [^1]',
    citations: [{ key: '1', quote: METHODS }],
  });
  writeFileSync(
    join(dir, 'run.jsonl'),
    [answer('p1_chunk0_lookup'), answer('p1_chunk1_lookup')].map((r) => JSON.stringify(r)).join('\n'),
  );
  return dir;
}

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const judgeReply = JSON.stringify({
  factual_accuracy: 4,
  completeness: 5,
  justification: 'one claim',
  evidence: [{ claim: '1,204', expected_quote: '1,204' }],
});

describe('citegeist pack and replay', () => {
  it('packs a judged study with the replies it used, and replays it byte for byte with the server gone', async () => {
    const dir = study();
    server = await new FakeOpenAiServer({ replies: () => ({ text: judgeReply }) }).start();
    const env = { OPENAI_API_KEY: SECRET, OPENAI_COMPATIBLE_API_KEY: SECRET };
    const made = memoryIo({ cwd: dir, env });
    const judge = `openai-compatible:${server.url}/v1#judge-model`;
    const grade = [
      'grade',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--run',
      'run.jsonl',
      '--judge',
      judge,
      '--out',
      'grades/g.jsonl', // an output in a folder of its own: replay makes the folder
    ];
    mkdirSync(join(dir, 'grades'));
    expect(await runCli(grade, made.io), made.stderr()).toBe(0);
    // Another study's reply in the same cache must not travel in this pack.
    const other = memoryIo({ cwd: dir, env });
    writeFileSync(
      join(dir, 'other.jsonl'),
      readFileSync(join(dir, 'run.jsonl'), 'utf8').replace(/1,204 \[/g, '1204 ['),
    );
    expect(
      await runCli(
        [...grade.slice(0, 6), 'other.jsonl', '--judge', judge, '--out', 'other-g.jsonl'],
        other.io,
      ),
    ).toBe(0);
    const callsBefore = server.requests.length;

    const pack = memoryIo({ cwd: dir, env });
    expect(
      await runCli(['pack', '--include', 'grades/g.jsonl', '--out', 'study.cgpack'], pack.io),
      pack.stderr(),
    ).toBe(0);
    expect(pack.stdout()).toMatch(/2 model replies/);
    expect(pack.stdout()).toMatch(/2 of 2 outputs identical/);
    expect(server.requests.length).toBe(callsBefore); // packing replays from the cache, never calls
    const raw = gunzipSync(readFileSync(join(dir, 'study.cgpack'))).toString('latin1');
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toContain(dir); // no machine path of the study's folder

    await server.close();
    server = undefined;
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-'));
    const replay = memoryIo({ cwd: elsewhere, env: {} });
    const code = await runCli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], replay.io);
    expect(replay.stdout()).toMatch(/identical\s+grades\/g\.jsonl/);
    expect(replay.stdout()).toMatch(/identical\s+grades\/g\.summary\.json/);
    expect(replay.stdout()).toMatch(/2 of 2 outputs identical/);
    expect(code, replay.stdout() + replay.stderr()).toBe(0);

    const inspect = memoryIo({ cwd: dir });
    expect(await runCli(['pack', 'inspect', 'study.cgpack'], inspect.io)).toBe(0);
    expect(inspect.stdout()).toMatch(/replayable\s+grades\/g\.jsonl, grades\/g\.summary\.json/);
    expect(inspect.stdout()).toMatch(/input .* papers\/p1\.md/);
    expect(inspect.stdout()).toMatch(/model replies: 2/);
  }, 60_000);

  it('re-judges a pack with another judge on the fake server and reports the drift with a judge card', async () => {
    const dir = study();
    server = await new FakeOpenAiServer({ replies: () => ({ text: judgeReply }) }).start();
    const env = { OPENAI_COMPATIBLE_API_KEY: SECRET };
    const made = memoryIo({ cwd: dir, env });
    const grade = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'run.jsonl'];
    const judge = `openai-compatible:${server.url}/v1#old-judge`;
    expect(await runCli([...grade, '--judge', judge, '--out', 'g.jsonl'], made.io), made.stderr()).toBe(0);
    expect(await runCli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], made.io)).toBe(0);
    await server.close();

    // The new judge is harsher on accuracy (2 instead of 4) and agrees on completeness.
    const harsher = JSON.stringify({ ...JSON.parse(judgeReply), factual_accuracy: 2 });
    server = await new FakeOpenAiServer({ replies: () => ({ text: harsher }) }).start();
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-rejudge-'));
    const r = memoryIo({ cwd: elsewhere, env });
    const newJudge = `openai-compatible:${server.url}/v1#new-judge`;
    const code = await runCli(
      ['replay', join(dir, 'study.cgpack'), '--dir', 'r', '--rejudge', newJudge],
      r.io,
    );
    expect(code, r.stdout() + r.stderr()).toBe(0);
    expect(server.requests.length).toBe(2); // both rows judged live by the new judge
    expect(r.stdout()).toMatch(/differs\s+g\.jsonl/);
    expect(readFileSync(join(elsewhere, 'r', 'study', 'g.jsonl'), 'utf8')).toMatch(
      /"label":"m \(judge=[^"]*new-judge\)"/,
    );
    expect(r.stdout()).toMatch(
      /factual_accuracy: mean 4(\.0+)? \(packed\) → 2(\.0+)? \(new\) over 2 paired rows; packed − new 2/,
    );
    expect(r.stdout()).toMatch(
      /completeness: mean 5(\.0+)? \(packed\) → 5(\.0+)? \(new\) over 2 paired rows; packed − new 0/,
    );
    const drift = JSON.parse(readFileSync(join(elsewhere, 'r', 'drift.json'), 'utf8'));
    expect(drift[0].oldJudge).toBe(judge);
    expect(drift[0].newJudge).toBe(newJudge);
    const accuracy = drift[0].metrics.find((m: { metric: string }) => m.metric === 'factual_accuracy');
    expect(accuracy.comparison.meanA).toBe(4);
    expect(accuracy.comparison.meanB).toBe(2);
    expect(accuracy.comparison.wins).toBe(2); // the packed judge scored both rows higher
    const card = JSON.parse(
      readFileSync(join(elsewhere, 'r', 'g.jsonl.factual_accuracy.judge-card.json'), 'utf8'),
    );
    expect(card.judge.model).toBe(newJudge);
    expect(card.counts).toEqual({ judged: 2, failed: 0, not_judged: 0, pairs: 2 });
    expect(card.measures.accuracy.estimate).toBe(0); // never the same label
    expect(card.confusion.counts[3][1]).toBe(2); // packed 4 (row) vs new 2 (column)
    // The new replies are kept apart from the packed ones, ready to be packed anew.
    // The re-judged study packs again from the live cache, with the new judge's replies only.
    const calls = server.requests.length;
    const again = memoryIo({ cwd: join(elsewhere, 'r', 'study'), env });
    expect(
      await runCli(
        ['pack', '--include', 'g.jsonl', '--cache', '../live-replies.sqlite', '--out', '../rejudged.cgpack'],
        again.io,
      ),
      again.stdout() + again.stderr(),
    ).toBe(0);
    expect(again.stdout()).toMatch(/2 model replies/);
    expect(again.stdout()).toMatch(/2 of 2 outputs identical/);
    expect(server.requests.length).toBe(calls);
    const raw = gunzipSync(readFileSync(join(dir, 'study.cgpack'))).toString('latin1');
    expect(raw).not.toContain(SECRET);
  }, 60_000);

  it('packs a VETSCORE results file and replays it from the packed replies', async () => {
    const script = {
      segments: {
        'Meloxicam is an NSAID [1].': ['Meloxicam is an NSAID.'],
        'Dogs are mammals [1].': ['Dogs are mammals.'],
      },
      claims: {
        'Meloxicam is an NSAID.': { verdict: 'supported' as const, harm: 2 },
        'Dogs are mammals.': { verdict: 'supported' as const, harm: 1 },
      },
    };
    const reply = scriptedReply(script);
    server = await new FakeOpenAiServer({
      replies: (request) => {
        const r = reply({ messages: request.messages });
        return typeof r === 'string' ? { text: r } : { status: 400, message: r.fail };
      },
    }).start();
    const dir = mkdtempSync(join(tmpdir(), 'citegeist-pack-faith-'));
    const rows = [
      {
        id: 'a',
        question: 'Q',
        answer: 'Meloxicam is an NSAID [1].',
        sources: { '1': 'Meloxicam is an NSAID.' },
      },
      { id: 'b', question: 'Q', answer: 'Dogs are mammals [1].', sources: { '1': 'Dogs are mammals.' } },
    ];
    writeFileSync(join(dir, 'answers.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const made = memoryIo({ cwd: dir, env: {} });
    const judge = `openai-compatible:${server.url}/v1#judge-model`;
    const faith = [
      'grade',
      'faithfulness',
      '--answers',
      'answers.jsonl',
      '--judge',
      judge,
      '--out',
      'faith.jsonl',
    ];
    expect(await runCli(faith, made.io), made.stderr()).toBe(0);
    const pack = memoryIo({ cwd: dir, env: {} });
    expect(
      await runCli(['pack', '--include', 'faith.jsonl', '--out', 'study.cgpack'], pack.io),
      pack.stdout() + pack.stderr(),
    ).toBe(0);
    expect(pack.stdout()).toMatch(/1 of 1 outputs identical/);
    await server.close();
    server = undefined;
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-faith-'));
    const replay = memoryIo({ cwd: elsewhere, env: {} });
    const code = await runCli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], replay.io);
    expect(replay.stdout()).toMatch(/identical\s+faith\.jsonl/);
    expect(code, replay.stdout() + replay.stderr()).toBe(0);
    // Answers changed since the results were made: refused, naming the output and the input.
    writeFileSync(join(dir, 'answers.jsonl'), `${JSON.stringify(rows[0])}\n`);
    const stale = memoryIo({ cwd: dir, env: {} });
    expect(await runCli(['pack', '--include', 'faith.jsonl', '--out', 'stale.cgpack'], stale.io)).not.toBe(0);
    expect(stale.stderr()).toMatch(/PACK_INPUT_MISSING.*faith\.jsonl was made from "answers\.jsonl"/s);
  }, 60_000);

  it('packs qa-eval scores with their summary and replays both byte for byte', async () => {
    const dir = study();
    const made = memoryIo({ cwd: dir, env: {} });
    const qa = [
      'qa-eval',
      '--predictions',
      'run.jsonl',
      '--references',
      'dataset.jsonl',
      '--metric',
      'rouge1,rougeL',
    ];
    expect(await runCli([...qa, '--out', 'qa.jsonl'], made.io), made.stderr()).toBe(0);
    const pack = memoryIo({ cwd: dir, env: {} });
    expect(
      await runCli(['pack', '--include', 'qa.summary.json', 'qa.jsonl', '--out', 'study.cgpack'], pack.io),
      pack.stdout() + pack.stderr(),
    ).toBe(0);
    expect(pack.stdout()).toMatch(/1 replay steps/);
    expect(pack.stdout()).toMatch(/2 of 2 outputs identical/);
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-qa-'));
    const replay = memoryIo({ cwd: elsewhere, env: {} });
    const code = await runCli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], replay.io);
    expect(replay.stdout()).toMatch(/identical\s+qa\.jsonl/);
    expect(replay.stdout()).toMatch(/identical\s+qa\.summary\.json/);
    expect(code, replay.stdout() + replay.stderr()).toBe(0);
  }, 60_000);

  const noLabels = missingSharedData(['human-labels', 'check-covid']);
  itUnless(noLabels)(
    `packs a judge card made by running a judge on a human set, and replays it ${noLabels ?? ''}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'citegeist-pack-card-'));
      cpSync(sharedDataPath('human-labels', 'check-covid'), join(dir, 'human-labels', 'check-covid'), {
        recursive: true,
      });
      const verdict = JSON.stringify({
        verdict: 'contradicted',
        rationale: 'scripted',
        evidence_quote: null,
      });
      server = await new FakeOpenAiServer({ replies: () => ({ text: verdict }) }).start();
      const made = memoryIo({ cwd: dir, env: {} });
      const judge = `openai-compatible:${server.url}/v1#judge-model`;
      const card = ['meta-eval', 'judge', '--set', 'check-covid', '--judge', judge, '--limit', '6'];
      expect(
        await runCli([...card, '--iterations', '200', '--out', 'card.json'], made.io),
        made.stderr(),
      ).toBe(0);
      const pack = memoryIo({ cwd: dir, env: {} });
      expect(
        await runCli(['pack', '--include', 'card.json', '--out', 'study.cgpack'], pack.io),
        pack.stdout() + pack.stderr(),
      ).toBe(0);
      expect(pack.stdout()).toMatch(/6 model replies/);
      expect(pack.stdout()).toMatch(/1 of 1 outputs identical/);
      await server.close();
      server = undefined;
      const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-replay-card-'));
      const replay = memoryIo({ cwd: elsewhere, env: {} });
      const code = await runCli(['replay', join(dir, 'study.cgpack'), '--dir', 'r'], replay.io);
      expect(replay.stdout()).toMatch(/identical\s+card\.json/);
      expect(code, replay.stdout() + replay.stderr()).toBe(0);
    },
    60_000,
  );

  it('regenerates a run with another generator on the fake server and reports the drift on every metric', async () => {
    const dir = study();
    const answerWith = (quote: string) =>
      `1,204 [^1].\n---EVIDENCE---\n@cite[1]\n"${quote}"\n---END-EVIDENCE---`;
    server = await new FakeOpenAiServer({
      replies: (request) =>
        request.model === 'judge-model'
          ? { text: judgeReply }
          : {
              text: answerWith(request.model === 'old-gen' ? METHODS : 'A sentence the paper does not hold.'),
            },
    }).start();
    const env = { OPENAI_COMPATIBLE_API_KEY: SECRET };
    const made = memoryIo({ cwd: dir, env });
    const url = `openai-compatible:${server.url}/v1`;
    const answer = [
      'answer',
      '--dataset',
      'dataset.jsonl',
      '--papers',
      'papers',
      '--model',
      `${url}#old-gen`,
    ];
    expect(await runCli([...answer, '--no-check', '--out', 'gen.jsonl'], made.io), made.stderr()).toBe(0);
    const grade = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'gen.jsonl'];
    expect(await runCli([...grade, '--judge', `${url}#judge-model`, '--out', 'g.jsonl'], made.io)).toBe(0);
    expect(await runCli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], made.io)).toBe(0);

    const calls = server.requests.length;
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-regenerate-'));
    const r = memoryIo({ cwd: elsewhere, env });
    const code = await runCli(
      ['replay', join(dir, 'study.cgpack'), '--dir', 'r', '--regenerate', `${url}#new-gen`],
      r.io,
    );
    expect(code, r.stdout() + r.stderr()).toBe(0);
    const models = server.requests.slice(calls).map((q) => q.model);
    expect(models.filter((m) => m === 'new-gen')).toHaveLength(2); // both rows answered again
    expect(models.filter((m) => m === 'judge-model')).toHaveLength(2); // the new answers judged live
    expect(readFileSync(join(elsewhere, 'r', 'study', 'gen.jsonl'), 'utf8')).toContain('new-gen');
    expect(r.stdout()).toMatch(/answers regenerated by .*#new-gen/);
    const drift = JSON.parse(readFileSync(join(elsewhere, 'r', 'drift.json'), 'utf8'));
    const precision = drift[0].metrics.find((m: { metric: string }) => m.metric === 'citation_precision');
    expect(precision.comparison.meanA).toBe(1); // the packed answers quote the paper
    expect(precision.comparison.meanB).toBe(0); // the new ones do not
    expect(precision.card).toBeNull();
  }, 60_000);

  it('a row the new judge fails on is left out of the drift and counted as a judge failure, never a 0', async () => {
    const dir = study();
    server = await new FakeOpenAiServer({ replies: () => ({ text: judgeReply }) }).start();
    const made = memoryIo({ cwd: dir, env: {} });
    const grade = ['grade', '--dataset', 'dataset.jsonl', '--papers', 'papers', '--run', 'run.jsonl'];
    expect(
      await runCli(
        [...grade, '--judge', `openai-compatible:${server.url}/v1#old-judge`, '--out', 'g.jsonl'],
        made.io,
      ),
    ).toBe(0);
    expect(await runCli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], made.io)).toBe(0);
    await server.close();
    // The new judge answers the "surveys" row and sends prose (not the rubric's JSON) for the other.
    server = await new FakeOpenAiServer({
      replies: (request) =>
        JSON.stringify(request.messages).includes('How many surveys?')
          ? { text: judgeReply }
          : { text: 'I would rather not grade this.' },
    }).start();
    const elsewhere = mkdtempSync(join(tmpdir(), 'citegeist-rejudge-fail-'));
    const r = memoryIo({ cwd: elsewhere, env: {} });
    await runCli(
      [
        'replay',
        join(dir, 'study.cgpack'),
        '--dir',
        'r',
        '--rejudge',
        `openai-compatible:${server.url}/v1#new-judge`,
      ],
      r.io,
    );
    const drift = JSON.parse(readFileSync(join(elsewhere, 'r', 'drift.json'), 'utf8'));
    const accuracy = drift[0].metrics.find((m: { metric: string }) => m.metric === 'factual_accuracy');
    expect(accuracy.comparison.n).toBe(1);
    expect(accuracy.comparison.dropped.failed).toBe(1);
    expect(accuracy.comparison.meanB).toBe(4); // the one row judged, not (4 + 0) / 2
    expect(accuracy.card.counts).toMatchObject({ judged: 1, failed: 1, pairs: 1 });
  }, 60_000);

  it('refuses a tampered pack naming the entry, and a pack with a path that climbs out, writing nothing', async () => {
    const dir = study();
    const io0 = memoryIo({ cwd: dir });
    expect(
      await runCli(
        [
          'grade',
          '--dataset',
          'dataset.jsonl',
          '--papers',
          'papers',
          '--run',
          'run.jsonl',
          '--out',
          'g.jsonl',
        ],
        io0.io,
      ),
    ).toBe(0);
    expect(await runCli(['pack', '--include', 'g.jsonl', '--out', 'study.cgpack'], io0.io)).toBe(0);
    // Tamper: one byte of the dataset changed inside the archive, the archive re-written.
    const tar = Buffer.from(gunzipSync(readFileSync(join(dir, 'study.cgpack'))));
    const at = tar.indexOf(Buffer.from('How many responses?'));
    expect(at).toBeGreaterThan(0);
    tar[at] = 'W'.charCodeAt(0);
    writeFileSync(join(dir, 'tampered.cgpack'), gzipSync(tar));
    const verify = memoryIo({ cwd: dir });
    expect(await runCli(['pack', 'verify', 'tampered.cgpack'], verify.io)).not.toBe(0);
    expect(verify.stderr()).toMatch(/PACK_INVALID.*entry files\/[0-9a-f]{64} does not hash to its name/s);

    const evil = writeTarGz([{ path: 'pack.json', data: Buffer.from('{}') }], 0);
    const evilTar = Buffer.from(gunzipSync(evil));
    evilTar.write('../../escaped.txt\0', 0); // rename the entry after the writer's checks
    let sum = 0;
    evilTar.write('        ', 148);
    for (let i = 0; i < 512; i++) sum += evilTar[i]!;
    evilTar.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    writeFileSync(join(dir, 'evil.cgpack'), gzipSync(evilTar));
    const out = mkdtempSync(join(tmpdir(), 'citegeist-evil-'));
    const r = memoryIo({ cwd: out });
    expect(await runCli(['replay', join(dir, 'evil.cgpack'), '--dir', 'r'], r.io)).not.toBe(0);
    expect(r.stderr()).toMatch(/PACK_INVALID.*"\.\." or "\." segment/s);
    expect(existsSync(join(out, '..', 'escaped.txt'))).toBe(false);
    expect(readdirSync(out)).toEqual([]);
  }, 60_000);
});
