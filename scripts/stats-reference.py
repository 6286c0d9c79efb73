"""Writes src/stats/__fixtures__/paired-comparison-reference.json: SciPy's figures for the paired
comparisons of src/stats, on paired samples with ties, zero differences and failed items.

Run: python3 scripts/stats-reference.py   (SciPy 1.17.1, NumPy 2.4 here; the versions are recorded)

A failed or not-applicable item is null on its side: the pair is dropped before any test (the
tri-state rule of src/stats/pair-items.ts), so SciPy sees only the pairs both sides scored.
Exact figures (t-test, Wilcoxon, sign test, exact permutation test, BCa bounds from given
replicates, corrections) are compared to 1e-12; Monte Carlo ones (permutation p from random sign
patterns, bootstrap bounds) within the error the test states.
"""
import json
import os

import numpy as np
import scipy
from scipy import stats
from scipy.special import ndtr, ndtri
from scipy.stats._resampling import _bca_interval

rng = np.random.default_rng(20261201)


def grid(n, levels, p_fail=0.0, shift=0.0):
    """Scores on a grid of `levels` values in [0, 1] (ties), b = a nudged (zeros), some failed."""
    a = rng.integers(0, levels, n) / (levels - 1)
    b = np.clip(a + rng.choice([-1, 0, 0, 1], n) / (levels - 1) + shift, 0, 1)
    b = np.round(b * (levels - 1)) / (levels - 1)
    xa = [None if rng.random() < p_fail else float(v) for v in a]
    xb = [None if rng.random() < p_fail else float(v) for v in b]
    return xa, xb


def continuous(n, shift):
    a = rng.random(n)
    b = a + rng.normal(shift, 0.2, n)
    return [float(v) for v in a], [float(v) for v in b]


cases = {}
cases["small ties zeros failed (n=12, 5 levels)"] = grid(12, 5, 0.1)
cases["small continuous (n=12)"] = continuous(12, 0.05)
cases["no ties n=30 (wilcoxon exact)"] = continuous(30, 0.1)
cases["ties zeros n=40 (wilcoxon normal, n <= 50)"] = grid(40, 4, 0.05, 0.0)
cases["ties zeros failed n=300 (3 levels)"] = grid(300, 3, 0.08, 0.0)
cases["continuous n=120 shifted"] = continuous(120, 0.03)
cases["all differences zero"] = ([0.5, 1.0, 0.0, 0.25, 0.5], [0.5, 1.0, 0.0, 0.25, 0.5])
cases["constant difference"] = ([0.5, 1.0, 0.75, 0.25, 0.5], [0.25, 0.75, 0.5, 0.0, 0.25])
cases["one pair"] = ([1.0], [0.0])
cases["eight pairs, every tie and zero kind"] = (
    [1.0, 0.5, 0.5, 0.0, 1.0, 0.25, None, 0.75, 0.75],
    [0.5, 1.0, 0.0, 0.0, 0.5, 0.75, 0.5, 0.25, None],
)


def nan_to_none(x):
    """JSON has no NaN or infinity: both become null (the test reads null as "not finite")."""
    x = float(x)
    return None if not np.isfinite(x) else x


def mean_stat(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


out_cases = []
for name, (xa, xb) in cases.items():
    keep = [i for i in range(len(xa)) if xa[i] is not None and xb[i] is not None]
    x = np.array([xa[i] for i in keep])
    y = np.array([xb[i] for i in keep])
    d = x - y
    n = len(d)
    rec = {"name": name, "a": xa, "b": xb, "n": n}
    if n >= 2:
        t = stats.ttest_rel(x, y)
        rec["ttest_rel"] = {"statistic": nan_to_none(t.statistic), "pvalue": nan_to_none(t.pvalue)}
    if np.any(d != 0):
        w = stats.wilcoxon(x, y)
        rec["wilcoxon"] = {"statistic": float(w.statistic), "pvalue": float(w.pvalue)}
        k = int(np.sum(d > 0))
        m = int(np.sum(d != 0))
        rec["binomtest"] = {"k": k, "n": m, "pvalue": float(stats.binomtest(k, m, 0.5).pvalue)}
    exact = 2**n <= 10000
    if n >= 2:  # SciPy's permutation_test needs two observations
        perm = stats.permutation_test(
            (x, y), mean_stat, permutation_type="samples", vectorized=True,
            n_resamples=10000 if exact else 100000, alternative="two-sided", rng=1,
        )
        rec["permutation_test"] = {"exact": exact, "n_resamples": 2**n if exact else 100000,
                                   "pvalue": float(perm.pvalue), "statistic": float(perm.statistic)}
    if n >= 2 and np.any(d != d[0]):
        sd = float(np.std(d, ddof=1))
        rec["cohens_dz"] = float(np.mean(d)) / sd
        rec["mdd"] = float((ndtri(0.975) + ndtri(0.8)) * sd / np.sqrt(n))
        ci = {}
        for method in ("percentile", "BCa"):
            res = stats.bootstrap((d,), np.mean, n_resamples=50000, method=method, rng=2,
                                  confidence_level=0.95)
            ci[method] = [float(res.confidence_interval.low), float(res.confidence_interval.high)]
            ci[method + "_se"] = float(res.standard_error)
        rec["bootstrap"] = ci
        # BCa from given replicates: the formula to the bit, without the random stream.
        reps = np.array([np.mean(d[rng.integers(0, n, n)]) for _ in range(999)])
        a1, a2, a_hat = _bca_interval((d,), lambda s, axis=-1: np.mean(s, axis=axis), -1, 0.025,
                                      reps, None, np)
        rec["bca_from_replicates"] = {
            "replicates": [float(v) for v in reps],
            "alpha": [float(a1), float(a2)],
            "bounds": [float(np.percentile(reps, a1 * 100)), float(np.percentile(reps, a2 * 100))],
        }
    out_cases.append(rec)

pvals = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04, 0.9, 0.0001, 0.5, 0.049]
m = len(pvals)
order = np.argsort(pvals, kind="stable")
holm = np.empty(m)
running = 0.0
for rank, i in enumerate(order):
    running = max(running, min(1.0, (m - rank) * pvals[i]))
    holm[i] = running
corrections = {
    "p": pvals,
    "bonferroni": [min(1.0, m * p) for p in pvals],
    "holm": [float(v) for v in holm],
    "bh": [float(v) for v in stats.false_discovery_control(pvals, method="bh")],
}
normal = {
    "x": [-8.0, -3.0, -1.959963984540054, -0.5, 0.0, 0.3, 1.0, 2.5, 6.0],
    "ndtr": [float(ndtr(v)) for v in [-8.0, -3.0, -1.959963984540054, -0.5, 0.0, 0.3, 1.0, 2.5, 6.0]],
    "p": [1e-12, 1e-6, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999, 1 - 1e-9],
    "ndtri": [float(ndtri(v)) for v in [1e-12, 1e-6, 0.001, 0.025, 0.2, 0.5, 0.8, 0.975, 0.999, 1 - 1e-9]],
}
doc = {
    "made_by": "scripts/stats-reference.py",
    "scipy": scipy.__version__,
    "numpy": np.__version__,
    "cases": out_cases,
    "corrections": corrections,
    "normal": normal,
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "stats", "__fixtures__",
                    "paired-comparison-reference.json")
with open(path, "w") as f:
    json.dump(doc, f, separators=(",", ":"), allow_nan=False)
print(len(out_cases), "cases →", os.path.normpath(path))
