/** One row of docs/fidelity.md: a published tool, what of it citegeist was compared with, and how. */
export interface ParityCheck {
  /** The published tool and version, e.g. "trec_eval 10.0". */
  reference: string;
  /** What was compared, e.g. "`-m all_trec -q` output, byte for byte". */
  compared: string;
  /** The reference's own files the comparison ran on. */
  files: string;
  /** The measured outcome, e.g. "15 of 15 byte-identical" or "1,005 rows, max |Δ| 0". */
  result: string;
  pass: boolean;
}
