import { resolve } from 'node:path';
import { CitegeistError, quoteValue } from '../../core/index.js';
import { asNuggetizerRecord } from '../../formats/index.js';
import {
  argueIntervals,
  formatArgueTsv,
  formatNuggetizerMetrics,
  type GroundingCounts,
  type GroundingTally,
  nuggetizerGlobal,
  nuggetizerScores,
  scoreInputs,
} from '../../grade/index.js';
import { parseJsonl, readTextFile, writeFileAtomic } from '../../io/index.js';
import { renderArgueTable } from '../../report/index.js';
import { VERSION } from '../../version.js';
import type { CliContext, RegisterCommand } from '../context.js';
import { collect, countOption, seedOption } from './option-parsers.js';
import { hashInputs, readBanks, readRequests, reportProblems, reportsCommand } from './reports-inputs.js';

interface ScoreFlags {
  judgments: string[];
  nuggets: string;
  requests?: string;
  penalizeMissingTopics: boolean;
  importanceWeights?: string;
  out: string;
  iterations: number;
  seed: number;
}

/** `vital=2,okay=1` → {vital: 2, okay: 1}. */
export function parseWeights(value: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pair of value.split(',').filter(Boolean)) {
    const [label, weight] = pair.split('=');
    const n = Number(weight);
    if (!label || weight === undefined || !Number.isFinite(n) || n < 0) {
      throw new CitegeistError(
        'BAD_OPTION',
        `--importance-weights ${quoteValue(value)}: ${quoteValue(pair)} is not label=weight.`,
        'Pass e.g. --importance-weights vital=2,okay=1.',
      );
    }
    out[label] = n;
  }
  return out;
}

function scoreArgue(flags: ScoreFlags, ctx: CliContext): void {
  const { io } = ctx;
  const labelWeights = flags.importanceWeights ? parseWeights(flags.importanceWeights) : {};
  const {
    runs,
    rows,
    superseded,
    problems,
    unweightedLabels: unweighted,
  } = scoreInputs({
    judgments: flags.judgments.map((file) => ({
      file,
      text: readTextFile(resolve(io.cwd, file), 'judgments file'),
    })),
    banks: readBanks(io.cwd, flags.nuggets),
    requests: flags.requests ? readRequests(io.cwd, flags.requests) : null,
    penalizeMissingTopics: flags.penalizeMissingTopics,
    labelWeights,
  });
  reportProblems(ctx, problems);
  if (runs.length === 0) {
    throw new CitegeistError(
      'NO_ROWS',
      `No judged report could be read from ${flags.judgments.join(', ')}.`,
      'Judge a run first: `citegeist reports judge …`.',
    );
  }
  const out = resolve(io.cwd, flags.out);
  writeFileAtomic(out, formatArgueTsv(rows));
  const meta = {
    tool: 'citegeist',
    version: VERSION,
    method: 'argue-score',
    inputs_sha256: hashInputs(io.cwd, [
      ...flags.judgments,
      flags.nuggets,
      ...(flags.requests ? [flags.requests] : []),
    ]),
    penalize_missing_topics: flags.penalizeMissingTopics,
    importance_weights: labelWeights,
    importance_labels_weighted_as_1: unweighted,
    ratio_with_zero_denominator: 0,
    superseded_lines: superseded,
    unreadable_lines: problems,
    runs: runs.map((r) => ({
      run_id: r.runId,
      topics_scored: r.topics.length,
      failed_topics: r.failedTopics,
      missing_topics: r.missingTopics,
      topics_without_nuggets: r.noBank,
      unknown_questions: r.unknownQuestions,
      unknown_answers: r.unknownAnswers,
      // Claims of support in the scored topics by grounding: located; unverified (left out);
      // trusted (unverified, counted: --trust-unlocated-evidence); ungrounded (no quote checked:
      // Auto-ARGUE's judgments, counted as judged).
      supporting_citations_grounding: r.grounding.citations,
      nugget_matches_grounding: r.grounding.nuggetMatches,
    })),
  };
  writeFileAtomic(`${out}.meta.json`, `${JSON.stringify(meta, null, 2)}\n`);
  const report = runs.map((r) => ({
    run: r,
    intervals:
      r.topics.length > 0
        ? argueIntervals(rows, r.runId, { iterations: flags.iterations, seed: flags.seed })
        : [],
  }));
  if (ctx.globals().json)
    io.out(
      `${JSON.stringify({ scores: flags.out, meta, intervals: report.map((x) => ({ run_id: x.run.runId, metrics: x.intervals })) }, null, 2)}\n`,
    );
  else {
    for (const { run, intervals } of report) {
      if (intervals.length > 0) io.out(renderArgueTable(run.runId, intervals));
      else io.out(`run ${run.runId}: no topic could be scored (no rows written)\n`);
      const notes = [
        run.failedTopics.length
          ? `${run.failedTopics.length} topics left out with failed judgments (${run.failedTopics.map((t) => t.topicId).join(', ')}): rerun \`reports judge\``
          : '',
        run.missingTopics.length
          ? `${run.missingTopics.length} topics without a report${flags.penalizeMissingTopics ? ' (scored 0)' : ''}: ${run.missingTopics.slice(0, 10).join(', ')}`
          : '',
        run.noBank.length ? `${run.noBank.length} reports of topics without nuggets, not scored` : '',
        run.unknownQuestions ? `${run.unknownQuestions} matched questions not in the banks (ignored)` : '',
        ...groundingNotes(run.grounding),
      ].filter(Boolean);
      for (const n of notes) io.out(`  note: ${n}\n`);
      io.out('\n');
    }
    if (unweighted.length)
      io.out(`importance labels weighted as 1: ${unweighted.join(', ')} (set --importance-weights)\n`);
    io.out(`scores: ${flags.out} (Auto-ARGUE TSV), how they were made: ${flags.out}.meta.json\n`);
  }
  const incomplete = runs.some(
    (r) => r.failedTopics.length > 0 || r.noBank.length > 0 || r.topics.length === 0,
  );
  if (incomplete || problems.length > 0) ctx.setExitCode(1);
}

/** What the scores rest on: claims of support whose evidence was not found, or never checked. */
function groundingNotes(g: GroundingCounts): string[] {
  const notes: string[] = [];
  const say = (t: GroundingTally, what: string, where: string) => {
    if (t.unverified > 0)
      notes.push(`${t.unverified} ${what} left out: the judge's quote is missing or not found in ${where}`);
    if (t.trusted > 0)
      notes.push(`${t.trusted} ${what} counted although unverified (--trust-unlocated-evidence when judged)`);
    if (t.ungrounded > 0)
      notes.push(
        `${t.ungrounded} ${what} counted as judged, with no evidence quote checked (judgments without grounding, such as Auto-ARGUE's)`,
      );
  };
  say(g.citations, 'attested citations', 'the cited document');
  say(g.nuggetMatches, 'nugget matches', 'the sentence');
  return notes;
}

export const registerReportsScore: RegisterCommand = (program, ctx) => {
  const reports = reportsCommand(program);
  reports
    .command('score')
    .description(
      "score judged reports with Auto-ARGUE's metrics (TSV: run_id request_id metric value) and bootstrap CIs over topics",
    )
    .requiredOption(
      '--judgments <file>',
      'judgments JSONL from `reports judge` or Auto-ARGUE (repeatable)',
      collect,
      [],
    )
    .requiredOption('--nuggets <path>', 'nugget banks (folder or file)')
    .option(
      '--requests <file>',
      'requests JSONL: the topics every run should cover (default: every topic with nuggets)',
    )
    .option(
      '--penalize-missing-topics',
      'score a topic without a report as 0 instead of leaving it out',
      false,
    )
    .option(
      '--importance-weights <label=w,…>',
      'weights of importance labels (numeric importances are used as they are)',
    )
    .requiredOption('--out <file>', 'scores TSV')
    .option('--iterations <n>', 'bootstrap resamples for the CIs', countOption('--iterations'), 2000)
    .option('--seed <n>', 'bootstrap seed', seedOption('--seed'), 42)
    .action((flags: ScoreFlags) => scoreArgue(flags, ctx));

  reports
    .command('nuggetizer-score')
    .description("nuggetizer's scores (strict_vital, strict_all, vital, all) from its assignment JSONL")
    .requiredOption(
      '--assignments <file>',
      'nuggetizer assignment output: {qid, nuggets: [{text, importance, assignment}]} per line',
    )
    .requiredOption(
      '--out <file>',
      'metrics JSONL as calculate_metrics.py writes it (per record, then "all")',
    )
    .action((flags: { assignments: string; out: string }) => {
      const path = resolve(ctx.io.cwd, flags.assignments);
      const scores = parseJsonl(readTextFile(path, 'assignments file')).map((line) => {
        if (!line.ok)
          throw new CitegeistError(
            'INVALID_JSON',
            `${flags.assignments} line ${line.line} is not JSON (${line.error}).`,
            'Fix the line.',
          );
        return nuggetizerScores(asNuggetizerRecord(line.value, `${flags.assignments} line ${line.line}`));
      });
      writeFileAtomic(resolve(ctx.io.cwd, flags.out), formatNuggetizerMetrics(scores));
      const all = nuggetizerGlobal(scores);
      if (ctx.globals().json) ctx.io.out(`${JSON.stringify(all, null, 2)}\n`);
      else {
        ctx.io.out(
          `${scores.length} answers: strict_vital ${all.strict_vital_score.toFixed(4)}, strict_all ${all.strict_all_score.toFixed(4)}, vital ${all.vital_score.toFixed(4)}, all ${all.all_score.toFixed(4)}\nmetrics: ${flags.out}\n`,
        );
      }
    });
};
