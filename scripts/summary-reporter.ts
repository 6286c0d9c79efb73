import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints why tests were skipped (grouped by the note passed to `ctx.skip(note)`, e.g. shared data
 * absent in a fresh clone, else by the file whose condition skipped them), then one plain closing line, `N passed, N failed, N skipped`, after
 * vitest's own report, so that tools reading CI logs can count the tests without parsing vitest's
 * coloured summary.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const reasons = new Map<string, number>();
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') failed++;
        else {
          skipped++;
          // A skip without a note (`describe.skipIf(…)`) is named by its file, so a reader can
          // find the condition that skipped it.
          const why =
            result.state === 'skipped' && result.note
              ? result.note
              : `marked ${test.options.mode === 'todo' ? 'todo' : 'skip'} in ${module.relativeModuleId}`;
          reasons.set(why, (reasons.get(why) ?? 0) + 1);
        }
      }
    }
    if (reasons.size > 0) {
      process.stdout.write(`\nskipped ${skipped} test(s):\n`);
      for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1]))
        process.stdout.write(`  ${n} ${why}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
