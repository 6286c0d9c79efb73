/**
 * The progress reporters started and not yet stopped, apart from `progress.ts` so that the
 * interrupt handler every command installs does not load the progress bar library at start-up.
 */
const running = new Set<{ stop(): void; onInterrupt: string | undefined }>();

/** Registers a running reporter; the returned function unregisters it. */
export function trackProgress(reporter: { stop(): void; onInterrupt: string | undefined }): () => void {
  running.add(reporter);
  return () => void running.delete(reporter);
}

/**
 * Stops every running reporter (a live bar gives back the cursor and line wrap it took; each prints
 * its counts) and returns what each said an interrupted run leaves.
 */
export function stopRunningProgress(): string[] {
  const notes: string[] = [];
  for (const reporter of [...running]) {
    reporter.stop();
    if (reporter.onInterrupt) notes.push(reporter.onInterrupt);
  }
  return notes;
}
