"""The reference side of `npm run bench -- grading`: grades a results file end to end with the
published ResearchQA grader's own functions, as scripts/parity/researchqa/make-reference.py does.

    python3 bench/researchqa-grader.py PUBLISHED.py DATASET.json RESULTS.json PAPERS_DIR OUT.json

PUBLISHED.py is khoj-ai/openpaper server/evals/run_benchmark.py's metric functions copied verbatim
into a module outside this repository (see make-reference.py's docstring for which). Each results
row gets `expected_references` and `expected_refusal` from its dataset row (as the harness's
`_run_single_row` does), is graded by `compute_citation_metrics` with its paper's text (read once
per paper from PAPERS_DIR/<paper_id>.txt), and `compute_summary` gives the means; graded rows and
summary are written to OUT.json. When BENCH_USAGE_FILE is set, this process's resource use (CPU
time, peak RSS) is written there as JSON when it ends, as bench/report-usage.mjs does for Node.
"""
import importlib.util
import json
import os
import resource
import sys


def load(path):
    spec = importlib.util.spec_from_file_location("published_metrics", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows_of(data):
    return data["rows"] if isinstance(data, dict) else data


def main(published_path, dataset_path, results_path, papers_dir, out_path):
    published = load(published_path)
    with open(dataset_path, encoding="utf-8") as f:
        dataset = {r["row_id"]: r for r in rows_of(json.load(f))}
    with open(results_path, encoding="utf-8") as f:
        results = rows_of(json.load(f))
    papers = {}

    def paper(pid):
        if pid not in papers:
            path = os.path.join(papers_dir, pid + ".txt")
            papers[pid] = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        return papers[pid]

    graded = []
    for answer in results:
        row = dataset[answer["row_id"]]
        r = dict(answer)
        r.update({
            "paper_id": row["paper_id"], "domain": row.get("domain"),
            "question_type": row["question_type"], "expected_references": row["expected_references"],
            "expected_refusal": row.get("expected_refusal"),
        })
        r.update(published.compute_citation_metrics(r, paper(row["paper_id"])))
        graded.append(r)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"rows": graded, "summary": published.compute_summary(graded)}, f)
    usage_file = os.environ.get("BENCH_USAGE_FILE")
    if usage_file:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        with open(usage_file, "w") as f:
            json.dump({"user_s": usage.ru_utime, "system_s": usage.ru_stime, "max_rss_kb": usage.ru_maxrss}, f)


if __name__ == "__main__":
    main(*sys.argv[1:6])
