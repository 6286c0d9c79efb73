"""Independent Python recomputation of the two published judge-human agreement figures that
src/grade/judge-card/published-figures.test.ts pins (NumPy + SciPy only; no pandas, no krippendorff).

1. RAGChecker (Ru et al., NeurIPS 2024 D&B, arXiv 2408.08067, Table 2 "correlation with human
   judgment"): Pearson and Spearman (x100, Python round to 2 decimals) of RAGChecker's score
   difference model2 - model1 (missing -> median, min-max rescaled to [-2, 2], each of the 280
   differences paired with both annotators' labels = 560 pairs), and annotator 1 vs annotator 2.
   Protocol: data/meta_evaluation/meta_eval.py in amazon-science/RAGChecker @ 6091f08.
2. CrowdRAG-25 (Gienapp et al., SIGIR 2025, arXiv 2504.15689): ordinal Krippendorff alpha of the
   LLM's pairwise judgments with the crowd's gold labels, by notebooks/9-llm-as-judge.ipynb in
   webis-de/sigir25-rag-crowdsourcing @ 03ec5b4, with and without turning a/b round when a pair is
   put in canonical order (see crowdrag-llm-agreement.ts).

Run: python3 published-figures.py <human-labels dir> > published-figures.json"""
import collections
import gzip
import json
import sys

import numpy as np
from scipy import stats

root = sys.argv[1]


def ragchecker():
    h = json.load(open(f'{root}/ragchecker/human_labeled_data.json'))
    b = json.load(open(f'{root}/ragchecker/baseline_ragchecker.json'))
    rows = {}
    for dim in ('correctness', 'completeness', 'overall'):
        m = dim + '_label'
        labels = np.array([r[m] for r in h], dtype=float)
        d = np.array([np.nan if r['model1']['ragchecker'][m] is None or r['model2']['ragchecker'][m] is None
                      else r['model2']['ragchecker'][m] - r['model1']['ragchecker'][m] for r in b])
        lo, hi, med = np.nanmin(d), np.nanmax(d), np.nanmedian(d)
        d[np.isnan(d)] = med
        scaled = ((d - lo) / (hi - lo) - 0.5) * 4
        x = np.array([scaled[i // 2] for i in range(len(labels))])
        pct = lambda v: round(float(v) * 100, 2)
        rows[dim] = {
            'pearson': pct(stats.pearsonr(x, labels)[0]), 'spearman': pct(stats.spearmanr(x, labels)[0]),
            'human_pearson': pct(stats.pearsonr(labels[0::2], labels[1::2])[0]),
            'human_spearman': pct(stats.spearmanr(labels[0::2], labels[1::2])[0]),
        }
    return rows


DIMS = ['correctness_topical', 'coherence_logical', 'coherence_stylistic', 'coverage_broad',
        'coverage_deep', 'consistency_internal', 'quality_overall']
CODE = {'a': 0, 'n': 1, 'b': 2}


def alpha_ordinal(units):
    o = np.zeros((3, 3))
    for u in units:
        vs = [CODE[v] for v in u if v in CODE]
        if len(vs) < 2:
            continue
        for i in range(len(vs)):
            for j in range(len(vs)):
                if i != j:
                    o[vs[i], vs[j]] += 1 / (len(vs) - 1)
    nc = o.sum(1)
    n = nc.sum()
    delta = np.array([[(nc[min(c, k):max(c, k) + 1].sum() - (nc[c] + nc[k]) / 2) ** 2 for k in range(3)]
                      for c in range(3)])
    return float(1 - (n - 1) * (o * delta).sum() / (np.outer(nc, nc) * delta).sum())


def crowdrag(flip):
    llm = [json.loads(line) for line in gzip.open(f'{root}/crowdrag25/artifacts__llm_ratings.jsonl.gz', 'rt')]
    hum = [json.loads(line) for line in gzip.open(f'{root}/crowdrag25/artifacts__ratings.jsonl.gz', 'rt')]
    ordered = {(r['response_a'], r['response_b']) for r in hum}
    hum = [{**{d: r[d + '_gold'] for d in DIMS}, 'query_id': r['query_id'], 'response_a': r['response_a'],
            'response_b': r['response_b'], 'inference': 'human'}
           for r in hum if (r['response_b'], r['response_a']) in ordered]

    def canon(rows):
        out = []
        for r in rows:
            a, b = sorted([r['response_a'], r['response_b']])
            nr = dict(r, response_a=a, response_b=b)
            if flip and a != r['response_a']:
                for d in DIMS:
                    nr[d] = {'a': 'b', 'b': 'a'}.get(r[d], r[d])
            out.append(nr)
        return out

    def first_two(rows):
        key = lambda r: (r['inference'], r['query_id'], r['response_a'], r['response_b'])
        seen = collections.Counter()
        out = []
        for r in sorted(rows, key=key):  # stable, like pandas' multi-column sort
            seen[key(r)] += 1
            if seen[key(r)] <= 2:
                out.append(r)
        return out

    llm, hum = first_two(canon(llm)), first_two(canon(hum))

    def alpha(rows, d):
        units = collections.defaultdict(list)
        for r in rows:
            units[r['response_a'] + '_' + r['response_b']].append(r[d])
        return alpha_ordinal(units.values())

    out = {}
    for d in DIMS:
        comb = [r for r in llm if r['inference'] == 'combined']
        ind = [r for r in llm if r['inference'] == 'individual']
        out[d] = {'llm_combined_with_crowd': alpha(comb + hum, d), 'llm_individual_with_crowd': alpha(ind + hum, d),
                  'llm_combined': alpha(comb, d), 'llm_individual': alpha(ind, d)}
    return out


print(json.dumps({'ragchecker': ragchecker(), 'crowdrag_flipped': crowdrag(True),
                  'crowdrag_as_released': crowdrag(False)}, indent=1))
