"""Makes reference.json, the published grader's own numbers on the frozen held-out set.

The published grader is khoj-ai/openpaper server/evals/run_benchmark.py. Its code is not kept in
this repository: copy, verbatim, into two modules outside it --

  PUBLISHED  (run_benchmark.py at commit 0db211cc11522d9124a2bed17efed038e8464105):
             fuzzy_match, SIMILARITY_THRESHOLD, _WHITESPACE_RE, _CITATION_EDGE_CHARS, _UNICODE_FOLD,
             _normalize_for_substring, _normalize_citation_ref, _PDF_HYPHEN_BREAK_RE,
             _strip_all_whitespace, _citation_appears_in, _evidence_groups,
             compute_citation_metrics, compute_summary (with their imports: difflib, re,
             unicodedata, typing.Optional)
  FLAT_ERA   (the version of run_benchmark.py that added refusal_correctness beside citation_recall,
             the last one before SectionEvidence groups): compute_citation_metrics, importing
             fuzzy_match and SIMILARITY_THRESHOLD from PUBLISHED

and run, with CPython 3.11 (no third-party packages):

  python3 scripts/parity/researchqa/make-reference.py PUBLISHED.py FLAT_ERA.py ../shared/data/qasper-dev/papers

Each results row gets the published harness's fields (`expected_references` and `expected_refusal`
copied from the dataset row, as `_run_single_row` does) and is graded with the paper's text as
`raw_content`; `compute_summary` gives the means. The flat layout is the same set with each row's
evidence flattened to a list of its quotes, graded by the earlier grader (which was never given
the paper text: its citation accuracy is replaced by the current rule, as citegeist does). The
last block counts the rows whose precision or coverage change when the two arguments of
fuzzy_match are swapped (citegeist's order before it followed the published one).
"""
import gzip
import importlib.util
import json
import os
import sys


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


published = load(sys.argv[1], "published_metrics")
flat_era = load(sys.argv[2], "flat_era_metrics")
papers_dir = sys.argv[3]
here = os.path.dirname(os.path.abspath(__file__))
heldout = json.load(gzip.open(os.path.join(here, "heldout.json.gz"), "rt", encoding="utf-8"))
rows = heldout["rows"]
papers = {}


def paper(pid):
    if pid not in papers:
        with open(os.path.join(papers_dir, pid + ".txt"), encoding="utf-8") as f:
            papers[pid] = f.read()
    return papers[pid]


KEYS = ["citation_precision", "section_coverage", "citation_accuracy", "refusal_correctness"]


def results_rows(run, flat):
    out = []
    for row, answer in zip(rows, run):
        assert row["row_id"] == answer["row_id"]
        refs = row["expected_references"]
        if flat:
            refs = [a for g in refs for a in g["alternatives"]]
        out.append({
            "row_id": row["row_id"], "paper_id": row["paper_id"], "domain": row["domain"],
            "question_type": row["question_type"], "expected_references": refs,
            "expected_refusal": row["expected_refusal"],
            "actual_answer": answer["actual_answer"], "actual_citations": answer["actual_citations"],
        })
    return out


def grade(run, flat):
    graded = results_rows(run, flat)
    for r in graded:
        raw = paper(r["paper_id"])
        if flat:
            m = flat_era.compute_citation_metrics(r, None)
            m["section_coverage"] = m.pop("citation_recall")
            refs = [c.get("reference", "") for c in r["actual_citations"]]
            if refs:  # the earlier grader's accuracy was always 1.0: the current rule instead
                raw_norm = published._normalize_for_substring(raw)
                raw_no_ws = published._strip_all_whitespace(raw_norm)
                found = sum(1 for ref in refs if published._citation_appears_in(
                    published._normalize_citation_ref(ref), raw_norm, raw_no_ws))
                m["citation_accuracy"] = round(found / len(refs), 3)
        else:
            m = published.compute_citation_metrics(r, raw)
        r.update(m)
    return {
        "per_row": {k: [r.get(k) for r in graded] for k in KEYS},
        "summary": published.compute_summary(graded),
    }


def swapped_order_changes(run):
    original = published.fuzzy_match
    normal = [published.compute_citation_metrics(r, None) for r in results_rows(run, False)]
    published.fuzzy_match = lambda a, b: original(b, a)
    try:
        swapped = [published.compute_citation_metrics(r, None) for r in results_rows(run, False)]
    finally:
        published.fuzzy_match = original
    keys = ("citation_precision", "section_coverage")
    return sum(1 for x, y in zip(normal, swapped) if any(x.get(k) != y.get(k) for k in keys))


reference = {
    "made_with": "scripts/parity/researchqa/make-reference.py: khoj-ai/openpaper server/evals/run_benchmark.py "
                 "(0db211cc) compute_citation_metrics and compute_summary, and the flat-list era's "
                 "compute_citation_metrics, on heldout.json.gz with ../shared/data/qasper-dev/papers, CPython "
                 + sys.version.split()[0],
    "row_ids": [r["row_id"] for r in rows],
    "groups": {name: grade(run, False) for name, run in heldout["runs"].items()},
    "flat": {name: grade(run, True) for name, run in heldout["runs"].items()},
    "swapped_order_rows_changed": {name: swapped_order_changes(run) for name, run in heldout["runs"].items()},
}
with open(os.path.join(here, "reference.json"), "w") as f:
    json.dump(reference, f, separators=(",", ":"))
print({name: reference["swapped_order_rows_changed"][name] for name in heldout["runs"]}, "rows change with the arguments swapped")
