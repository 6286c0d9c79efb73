/**
 * The official QASPER `paragraph_f1_score`: set overlap of evidence paragraphs (exact strings).
 * Both empty → 1 (an unanswerable question with no evidence predicted). Precision divides by the
 * length of the predicted and gold *lists* (duplicates count), as the official code does.
 */
export function evidenceF1(prediction: readonly string[], groundTruth: readonly string[]): number {
  if (groundTruth.length === 0 && prediction.length === 0) return 1.0;
  const gold = new Set(groundTruth);
  let same = 0;
  for (const p of new Set(prediction)) if (gold.has(p)) same++;
  if (same === 0) return 0.0;
  const precision = same / prediction.length;
  const recall = same / groundTruth.length;
  return (2 * precision * recall) / (precision + recall);
}
