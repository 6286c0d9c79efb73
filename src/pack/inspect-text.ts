/** What `citegeist pack inspect` prints: the files, the replay steps, the replies and the notes. */
import { describeSubset } from './corpus-subset.js';
import type { PackManifest } from './pack-format.js';

export function renderPackContents(m: PackManifest): string {
  const lines = [
    `citegeist study pack, format ${m.citegeist_pack}, made by citegeist ${m.tool.version} on ${m.created_at}`,
    '',
    'files:',
    ...m.files.map(
      (f) =>
        `  ${f.role.padEnd(6)} ${String(f.size).padStart(10)}  ${f.sha256.slice(0, 12)}  ${f.path}${f.packed ? '' : '  (referenced only)'}`,
    ),
    '',
    'replay steps:',
    ...m.steps.map((s) => {
      const how =
        s.kind === 'report' ? 'citegeist report (from the report recipe)' : `citegeist ${s.argv!.join(' ')}`;
      return `  ${s.not_replayable ? 'NOT replayable' : 'replayable    '}  ${s.outputs.join(', ')}\n      ${how}`;
    }),
    '',
    `model replies: ${m.replies.count}`,
    ...m.corpus_subsets.map(describeSubset),
    ...m.notes.map((n) => `note: ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}
