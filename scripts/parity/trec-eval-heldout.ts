/**
 * Held-out inputs for comparing `citegeist trec-eval` with a trec_eval 10.0 binary: files nobody
 * tuned to. Seeded synthetic judgements and runs built to hit the edges (score ties, unjudged and
 * unpooled documents, graded levels, topics missing from the run, preference sub-groups, judgment
 * groups), plus real runs citegeist itself produces over QASPER dev when ../shared has it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bm25Index, chunkDocument } from '../../src/retrieve/index.js';
import { createRandom } from '../../src/stats/index.js';
import { sharedDataPath } from '../../src/testing/index.js';
import { loadQasperDev } from '../qasper-corpus.js';

export interface HeldOutCase {
  name: string;
  args: string[];
}

interface Judged {
  qid: string;
  docno: string;
  grade: number;
}

/** Synthetic qrels, runs, prefs and judgment groups; returns the command lines to compare. */
function synthetic(dir: string): HeldOutCase[] {
  const rnd = createRandom(20261201);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T;
  const judged: Judged[] = [];
  const runLines: string[] = [];
  const tiedRunLines: string[] = [];
  /** Topics left out of the "-trunc" runs, to test -c. */
  const missing = new Set<string>();
  for (let t = 0; t < 40; t++) {
    const qid = `t${String(t).padStart(2, '0')}`;
    const pool = 20 + Math.floor(rnd() * 120);
    const docs = Array.from({ length: pool }, (_, i) => `D${t}-${i}`);
    const relShare = t % 9 === 0 ? 0 : rnd() * 0.4;
    for (const d of docs) {
      if (rnd() < 0.25) continue; // not judged: retrieved documents outside the pool
      const r = rnd();
      const grade = r < 0.06 ? -1 : r < relShare ? 1 + Math.floor(rnd() * 3) : 0;
      judged.push({ qid, docno: d, grade });
    }
    if (t % 13 === 5) missing.add(qid);
    const depth = t % 7 === 3 ? 3 : Math.floor(pool * (0.3 + rnd()));
    const ranked = [...docs].sort(() => rnd() - 0.5).slice(0, depth);
    ranked.forEach((d, i) => {
      const score = 100 - i + rnd();
      runLines.push(`${qid} Q0 ${d} ${i + 1} ${score.toFixed(6)} synth`);
      // Coarse scores: many ties, broken by docno as trec_eval does.
      tiedRunLines.push(`${qid} Q0 ${d} ${i + 1} ${Math.round(score / 10)} tied`);
    });
  }
  runLines.push('zz-only-in-run Q0 X 1 1 synth');
  const trunc = (lines: string[]) => lines.filter((l) => !missing.has(l.slice(0, l.indexOf(' '))));
  const qrelsLine = (j: Judged) => `${j.qid} 0 ${j.docno} ${j.grade}`;
  writeFileSync(join(dir, 'synth.qrels'), `${judged.map(qrelsLine).join('\n')}\n`);
  // Preferences read from qrels (-R qrels_prefs) without the negative grades: with a class below
  // 0, m_prefs_avgjg_Rnonrel.c reads past the end of its nonrelevant class (undefined in C).
  writeFileSync(
    join(dir, 'synth-prefs.qrels'),
    `${judged
      .filter((j) => j.grade >= 0)
      .map(qrelsLine)
      .join('\n')}\n`,
  );
  writeFileSync(join(dir, 'synth.run'), `${runLines.join('\n')}\n`);
  writeFileSync(join(dir, 'synth-tied.run'), `# a comment line\n${tiedRunLines.join('\n')}\n`);
  writeFileSync(join(dir, 'synth-trunc.run'), `${trunc(runLines).join('\n')}\n`);
  writeFileSync(join(dir, 'synth-tied-trunc.run'), `${trunc(tiedRunLines).join('\n')}\n`);
  // Where trec_eval 10.0 stops part way: a document listed twice in a later topic (t20), and a run
  // without the first judged topic (t00). Both programs must print the same lines before stopping.
  const dupAt = runLines.findIndex((l) => l.startsWith('t20 '));
  const dupLine = (runLines[dupAt] as string).replace(/ (\S+) synth$/, ' 0.5 synth');
  writeFileSync(join(dir, 'synth-dup.run'), `${[...runLines, dupLine].join('\n')}\n`);
  writeFileSync(
    join(dir, 'synth-nofirst.run'),
    `${runLines.filter((l) => !l.startsWith('t00 ')).join('\n')}\n`,
  );

  // Judgment groups: three users grading the same pool differently.
  const jg: string[] = [];
  for (const j of judged) {
    for (const user of ['u1', 'u2', 'u3']) {
      if (rnd() < 0.3) continue;
      const grade = j.grade < 0 ? j.grade : Math.max(0, j.grade + (rnd() < 0.3 ? pick([-1, 1]) : 0));
      jg.push(`${j.qid} ${user} ${j.docno} ${grade}`);
    }
  }
  writeFileSync(join(dir, 'synth.qrels_jg'), `${jg.join('\n')}\n`);

  // Preferences with several sub-groups per group, consistent with one hidden utility per
  // document (so no cycles) and with nonrelevant documents at 0 in every sub-group of a group.
  const prefs: string[] = [];
  const byTopic = new Map<string, Judged[]>();
  for (const j of judged) byTopic.set(j.qid, [...(byTopic.get(j.qid) ?? []), j]);
  for (const [qid, list] of byTopic) {
    const utility = new Map(list.map((j) => [j.docno, rnd()]));
    for (const group of ['g1', 'g2']) {
      const threshold = 0.3 + rnd() * 0.3;
      const subs = 1 + Math.floor(rnd() * 3);
      for (let s = 0; s < subs; s++) {
        for (const j of list) {
          if (rnd() < 0.6) continue;
          const u = utility.get(j.docno) as number;
          const level = u < threshold ? 0 : 1 + Math.floor((u - threshold) * (3 + s) * 4);
          prefs.push(`${qid} ${group} s${s} ${j.docno} ${level}`);
        }
      }
    }
  }
  writeFileSync(join(dir, 'synth.prefs'), `${prefs.join('\n')}\n`);

  const z: string[] = [];
  // Every topic, each with the alphabetically last measure name (utility): convert_zscores.c
  // binary-searches with end = n, one past the last entry, and would read past it otherwise.
  for (const qid of byTopic.keys()) {
    for (const m of ['map', 'P_10', 'num_ret', 'ndcg', 'relstring', 'Rprec', 'bpref', 'utility']) {
      z.push(`${qid} ${m} ${(rnd() * 0.5).toFixed(4)} ${m === 'Rprec' ? 0 : (rnd() * 0.3).toFixed(4)}`);
    }
  }
  writeFileSync(join(dir, 'synth.zscores'), `${z.join('\n')}\n`);

  const q = join(dir, 'synth.qrels');
  const runs = [join(dir, 'synth.run'), join(dir, 'synth-tied.run')];
  const cases: HeldOutCase[] = [];
  for (const run of runs) {
    const tag = run.endsWith('tied.run') ? 'tied scores' : 'distinct scores';
    const truncated = run.replace(/\.run$/, '-trunc.run');
    for (const [label, flags] of [
      ['all_trec -q -c, topics missing', ['-m', 'all_trec', '-q', '-c']],
      ['all_trec -q -c -l2, topics missing', ['-m', 'all_trec', '-q', '-c', '-l2']],
      ['all_trec -q -c -M20, topics missing', ['-m', 'all_trec', '-q', '-c', '-M20']],
      ['qrels_jg -q -c -R qrels_jg, topics missing', ['-m', 'qrels_jg', '-q', '-c', '-R', 'qrels_jg']],
    ] as const) {
      const rel = (flags as readonly string[]).includes('qrels_jg') ? join(dir, 'synth.qrels_jg') : q;
      cases.push({ name: `synthetic, ${tag}: ${label}`, args: [...flags, rel, truncated] });
    }
    // Without -c, trec_eval 10.0 stops at the first judged topic missing from the run (trec_eval.c,
    // commit 9812815), after printing the topics before it: same stdout, both exit non-zero.
    for (const [label, flags] of [
      ['all_trec -q without -c, topics missing', ['-m', 'all_trec', '-q']],
      ['all_trec -q -l2 -J without -c, topics missing', ['-m', 'all_trec', '-q', '-l2', '-J']],
      ['qrels_jg -q -R qrels_jg without -c, topics missing', ['-m', 'qrels_jg', '-q', '-R', 'qrels_jg']],
      ['prefs -q -R prefs without -c, topics missing', ['-m', 'prefs', '-q', '-R', 'prefs']],
    ] as const) {
      const flagList = flags as readonly string[];
      const rel = flagList.includes('qrels_jg')
        ? join(dir, 'synth.qrels_jg')
        : flagList.includes('prefs')
          ? join(dir, 'synth.prefs')
          : q;
      cases.push({ name: `synthetic, ${tag}: ${label}`, args: [...flags, rel, truncated] });
    }
    for (const [label, flags] of [
      ['all_trec -q', ['-m', 'all_trec', '-q']],
      ['all_trec -q -c', ['-m', 'all_trec', '-q', '-c']],
      ['all_trec -q -l2', ['-m', 'all_trec', '-q', '-l2']],
      ['all_trec -q -c -l2', ['-m', 'all_trec', '-q', '-c', '-l2']],
      ['all_trec -q -M20', ['-m', 'all_trec', '-q', '-M20']],
      ['all_trec -q -J', ['-m', 'all_trec', '-q', '-J']],
      [
        'parameters',
        [
          '-q',
          '-m',
          'P.1,3,7',
          '-m',
          'recall.2,50',
          '-m',
          'ndcg.0=1,1=2,3=7',
          '-m',
          'rbp.p=0.5',
          '-m',
          'rbp_resid.p=0.7',
          '-m',
          'Rprec_mult.0.3,1.7',
          '-m',
          'relstring.15',
          '-m',
          'set_F.0.5',
          '-m',
          'iprec_at_recall.0.05,0.33,0.5',
          '-m',
          '11pt_avg.0.1,0.9',
          '-m',
          'map_cut.3,12',
          '-m',
          'success.2',
          '-m',
          'unj.3,7',
          '-m',
          'G.1=4,2=1',
          '-m',
          'ndcg_rel.2=5',
          '-m',
          'Rndcg.1=0.5',
          '-m',
          'relative_P.4',
          '-m',
          'ndcg_cut.4,9',
          '-m',
          'utility.2,-1,-0.5,0.01',
          '-N',
          '100000',
          '-m',
          'dcg',
          '-m',
          'ideal_dcg',
          '-m',
          'yaap',
          '-m',
          'set',
        ],
      ],
      ['all_trec -q -Z', ['-m', 'all_trec', '-q', '-Z', join(dir, 'synth.zscores')]],
    ] as const) {
      cases.push({ name: `synthetic, ${tag}: ${label}`, args: [...flags, q, run] });
    }
    cases.push({
      name: `synthetic, ${tag}: all_prefs -q -R qrels_prefs`,
      args: ['-m', 'all_prefs', '-q', '-R', 'qrels_prefs', join(dir, 'synth-prefs.qrels'), run],
    });
    cases.push({
      name: `synthetic, ${tag}: all_prefs -q -R prefs`,
      args: ['-m', 'all_prefs', '-q', '-R', 'prefs', join(dir, 'synth.prefs'), run],
    });
    cases.push({
      name: `synthetic, ${tag}: qrels_jg -q -R qrels_jg`,
      args: ['-m', 'qrels_jg', '-q', '-R', 'qrels_jg', join(dir, 'synth.qrels_jg'), run],
    });
  }
  for (const [label, flags, file] of [
    ['all_trec -q, a document twice in topic t20', ['-m', 'all_trec', '-q'], 'synth-dup.run'],
    ['official -q -c, a document twice in topic t20', ['-q', '-c'], 'synth-dup.run'],
    [
      'all_trec -q -M20 -J, a document twice in topic t20',
      ['-m', 'all_trec', '-q', '-M20', '-J'],
      'synth-dup.run',
    ],
    ['map -q, first judged topic missing', ['-m', 'map', '-q'], 'synth-nofirst.run'],
  ] as const) {
    cases.push({ name: `synthetic, stops: ${label}`, args: [...flags, q, join(dir, file)] });
  }
  return cases;
}

/** BM25 runs citegeist produces over QASPER dev (passage and paper level), when ../shared has it. */
function qasper(dir: string): HeldOutCase[] {
  let loaded: ReturnType<typeof loadQasperDev>;
  try {
    loaded = loadQasperDev(sharedDataPath('qasper-dev'));
  } catch {
    return [];
  }
  const { documents, questions } = loaded;
  const passages = documents.flatMap((d) => chunkDocument(d, { maxTokens: Number.MAX_SAFE_INTEGER }));
  const byPaper = new Map<string, typeof passages>();
  for (const p of passages) byPaper.set(p.docId, [...(byPaper.get(p.docId) ?? []), p]);
  const qrels: string[] = [];
  const paperQrels: string[] = [];
  for (const q of questions) {
    let any = false;
    for (const p of byPaper.get(q.paperId) ?? []) {
      const gold = q.goldParagraphs.includes(p.text);
      if (gold) any = true;
      // Non-gold paragraphs of the question's paper are judged non-relevant, so bpref, infAP and
      // the unjudged measures have judged negatives to work with.
      qrels.push(`${q.id} 0 ${p.id} ${gold ? 1 : 0}`);
    }
    paperQrels.push(`${q.id} 0 ${q.paperId} ${any ? 2 : 1}`);
  }
  const bm25 = Bm25Index.build(passages);
  const run: string[] = [];
  const paperRun: string[] = [];
  for (const q of questions) {
    const hits = bm25.search(q.question, 100);
    run.push(...hits.map((h, i) => `${q.id} Q0 ${h.id} ${i + 1} ${h.score} bm25`));
    const best = new Map<string, number>();
    for (const h of hits) {
      const doc = h.id.slice(0, h.id.lastIndexOf('#'));
      best.set(doc, Math.max(best.get(doc) ?? Number.NEGATIVE_INFINITY, h.score));
    }
    paperRun.push(...[...best].map(([doc, s], i) => `${q.id} Q0 ${doc} ${i + 1} ${s} bm25-paper`));
  }
  writeFileSync(join(dir, 'qasper.qrels'), `${qrels.join('\n')}\n`);
  writeFileSync(join(dir, 'qasper-paper.qrels'), `${paperQrels.join('\n')}\n`);
  writeFileSync(join(dir, 'qasper-bm25.run'), `${run.join('\n')}\n`);
  writeFileSync(join(dir, 'qasper-bm25-paper.run'), `${paperRun.join('\n')}\n`);
  const q = join(dir, 'qasper.qrels');
  const r = join(dir, 'qasper-bm25.run');
  return [
    { name: 'QASPER dev, citegeist BM25 passages: all_trec -q', args: ['-m', 'all_trec', '-q', q, r] },
    {
      name: 'QASPER dev, citegeist BM25 passages: all_trec -q -c',
      args: ['-m', 'all_trec', '-q', '-c', q, r],
    },
    {
      name: 'QASPER dev, citegeist BM25 passages: all_trec -q -M10',
      args: ['-m', 'all_trec', '-q', '-M10', q, r],
    },
    {
      name: 'QASPER dev, citegeist BM25 rolled up to papers: all_trec -q -c -l2',
      args: [
        '-m',
        'all_trec',
        '-q',
        '-c',
        '-l2',
        join(dir, 'qasper-paper.qrels'),
        join(dir, 'qasper-bm25-paper.run'),
      ],
    },
  ];
}

export function heldOutCases(dir: string): HeldOutCase[] {
  mkdirSync(dir, { recursive: true });
  return [...synthetic(dir), ...qasper(dir)];
}
