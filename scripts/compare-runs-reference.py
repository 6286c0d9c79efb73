"""SciPy's paired randomization p for the TREC-run comparison of src/retrieve/eval/compare-runs.test.ts.

Run: python3 scripts/compare-runs-reference.py   (SciPy 1.17.1, NumPy 2.4 when the figures were made)

Twelve topics, one relevant document each; runs A and B retrieve it at the ranks below (0 = not
retrieved), so recip_rank per topic is 1/rank (0 when absent). `compare` tests B − A.
"""
import numpy as np
import scipy
from scipy import stats

RANK_A = [1, 2, 0, 1, 3, 1, 2, 0, 1, 4, 1, 2]
RANK_B = [1, 1, 2, 1, 1, 2, 1, 3, 1, 1, 1, 1]


def rr(ranks):
    return np.array([1 / r if r else 0.0 for r in ranks])


a, b = rr(RANK_A), rr(RANK_B)
res = stats.permutation_test(
    (b, a),
    lambda x, y, axis: np.mean(x - y, axis=axis),
    permutation_type="samples",
    alternative="two-sided",
    n_resamples=10_000,
)
t = stats.ttest_rel(b, a)
print(f"scipy {scipy.__version__} numpy {np.__version__}")
print(f"permutation p {res.pvalue!r} (exact: 2^12 = 4096 <= 10000), statistic {res.statistic!r}")
print(f"ttest_rel t {t.statistic!r} p {t.pvalue!r}")

# Forty topics: 2^40 sign patterns, so a Monte Carlo p (SciPy with 10^6 random patterns here; the
# test allows 4 standard errors of citegeist's 10,000-pattern p).
RANK_A40 = [(i * 7) % 5 for i in range(40)]
RANK_B40 = [(i * 3) % 4 for i in range(40)]
a, b = rr(RANK_A40), rr(RANK_B40)
res = stats.permutation_test(
    (b, a),
    lambda x, y, axis: np.mean(x - y, axis=axis),
    permutation_type="samples",
    alternative="two-sided",
    n_resamples=1_000_000,
    rng=np.random.default_rng(28),
)
print(f"40 topics: permutation p {res.pvalue!r} (Monte Carlo, 10^6 patterns), statistic {res.statistic!r}")
