import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  type AnswerGrade,
  type CorrelationWithCi,
  DEFAULT_HARM_EXPONENT,
  type HarmAggregator,
  type MetaEvalReport,
  metaEvaluateFaithfulness,
  readAnnotations,
} from '../../grade/index.js';
import { parseJsonl, readTextFile, takeManifest } from '../../io/index.js';
import type { RegisterCommand } from '../context.js';
import { numberOption } from './option-parsers.js';

interface Options {
  auto: string[];
  human: string;
  format: 'csv' | 'jsonl' | 'auto';
  p: number;
  iterations: number;
}

/** The `meta-eval` command, found if another module registered it, else created. */
export function metaEvalCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'meta-eval') ??
    program.command('meta-eval').description('validate automatic graders against human annotations')
  );
}

/** Reads a `grade faithfulness --out` file (after its manifest): the last row per answer id (bad lines are reported). */
export function readGradeFile(path: string, warn: (s: string) => void, label = path): AnswerGrade[] {
  const byId = new Map<string, AnswerGrade>();
  const { rows } = takeManifest(parseJsonl(readTextFile(path, 'faithfulness output')), path, false);
  for (const line of rows) {
    const row = line.ok ? (line.value as AnswerGrade) : null;
    if (!row || typeof row.id !== 'string' || !Array.isArray(row.segments)) {
      warn(`skipped [INVALID_INPUT] ${label} line ${line.line}: not a grade faithfulness row\n`);
      continue;
    }
    byId.set(row.id, row);
  }
  return [...byId.values()];
}

export function metaEvalFaithfulnessCommand(harm?: HarmAggregator): RegisterCommand {
  return (program, ctx) => {
    metaEvalCommand(program)
      .command('faithfulness')
      .description('VETSCORE judge vs experts: Spearman, Krippendorff alpha, consistency, rater severity')
      .requiredOption(
        '--auto <file>',
        'grade faithfulness output (repeat for run-to-run consistency)',
        (v, acc: string[]) => [...acc, v],
        [],
      )
      .requiredOption(
        '--human <file>',
        'annotations: answer, segment, claim, annotator, verified, harm (CSV or JSONL)',
      )
      .option('--format <format>', 'annotations format: csv, jsonl or auto', 'auto')
      .option(
        '--p <number>',
        'harm exponent for the combined segment score',
        numberOption('--p', { min: 0 }),
        DEFAULT_HARM_EXPONENT,
      )
      .option(
        '--iterations <n>',
        'bootstrap resamples for the CIs',
        numberOption('--iterations', { integer: true, min: 1 }),
        2000,
      )
      .exitOverride()
      .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) })
      .action((o: Options) => {
        const { io } = ctx;
        const warn = (s: string) => io.err(s);
        const runs = o.auto.map((f) => readGradeFile(resolve(io.cwd, f), warn, f));
        const path = resolve(io.cwd, o.human);
        const { annotations, problems } = readAnnotations(
          readTextFile(path, 'annotations file'),
          o.human,
          o.format,
        );
        for (const p of problems) warn(`skipped [INVALID_INPUT] ${o.human} line ${p.line}: ${p.problem}\n`);
        const report = metaEvaluateFaithfulness(runs, annotations, {
          p: o.p,
          iterations: o.iterations,
          ...(harm ? { harm } : {}),
        });
        if (ctx.globals().json)
          io.out(`${JSON.stringify({ ...report, annotation_problems: problems.length }, null, 2)}\n`);
        else io.out(renderMetaEval(report, problems.length));
        if (problems.length > 0) ctx.setExitCode(1);
      });
  };
}

const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? 'n/a' : x.toFixed(d));
const corr = (c: CorrelationWithCi) => `ρ = ${f(c.spearman)}  [${f(c.lower)}, ${f(c.upper)}]  n = ${c.n}`;

/** The meta-evaluation report as text. */
export function renderMetaEval(r: MetaEvalReport, skipped = 0): string {
  const a = r.alignment;
  const lines = [
    `annotators: ${a.annotators.join(', ') || 'none'}; matched claims ${a.matched_claims} in ${a.matched_segments} segments`,
    `  annotated but not in the judge output: ${a.human_only}; judged but not annotated: ${a.auto_only}; annotation rows skipped: ${skipped}`,
    '',
    'segment-level Spearman, judge vs humans (95% bootstrap CI):',
    `  verification  ${corr(r.segment_spearman.verification)}`,
    `  harm          ${corr(r.segment_spearman.harm)}`,
    `  combined      ${corr(r.segment_spearman.combined)}   (p = ${r.p})`,
    '',
    "Krippendorff's α            humans   humans+judge",
    `  verification (nominal)  ${f(r.alpha.verification_nominal.humans).padStart(6)}   ${f(r.alpha.verification_nominal.humans_and_judge)}`,
    `  harm (ordinal)          ${f(r.alpha.harm_ordinal.humans).padStart(6)}   ${f(r.alpha.harm_ordinal.humans_and_judge)}`,
    `  harm (interval)         ${f(r.alpha.harm_interval.humans).padStart(6)}   ${f(r.alpha.harm_interval.humans_and_judge)}`,
    '',
    `human harm aggregated by: ${r.human_harm.method}`,
  ];
  for (const rep of r.consistency.repeats) {
    lines.push(
      `run ${rep.run} repeats (k = ${rep.k}): verdict identical ${f(rep.verification.identical)}, pairwise ${f(rep.verification.meanPairwise)}; harm identical ${f(rep.harm.identical)}, pairwise ${f(rep.harm.meanPairwise)} (${rep.verification.claims} claims)`,
    );
  }
  if (r.consistency.pairs.length === 0) lines.push('run-to-run consistency: give --auto more than once');
  for (const pair of r.consistency.pairs) {
    lines.push(
      `runs ${pair.runs[0]}–${pair.runs[1]}: ${pair.claims} claims, verdict identical ${f(pair.verdict_identical)}, harm identical ${f(pair.harm_identical)}, segment-score ρ ${f(pair.segment_score_spearman)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export const registerMetaEvalFaithfulness = metaEvalFaithfulnessCommand();
