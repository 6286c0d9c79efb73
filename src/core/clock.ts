/**
 * The time citegeist writes into what it makes (manifests' `created_at`, a report's "generated").
 * `CITEGEIST_CLOCK=<ISO time>` fixes it: `citegeist replay` sets it to the time a packed output
 * records, so a re-derived file is byte-identical to the original (the role SOURCE_DATE_EPOCH plays
 * in reproducible builds, with the millisecond precision manifests keep).
 */
export function citegeistNow(): Date {
  const fixed = process.env.CITEGEIST_CLOCK;
  if (fixed) {
    const t = new Date(fixed);
    if (!Number.isNaN(t.getTime())) return t;
  }
  return new Date();
}
