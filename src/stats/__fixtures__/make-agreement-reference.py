"""Reference values for stats/agreement-measures.ts: Cohen's kappa (unweighted, linear, quadratic),
Krippendorff's alpha (nominal, ordinal, interval) from their textbook formulas in NumPy (written
out here, independent of the TypeScript), Pearson, Spearman and Kendall tau-b from SciPy.

Run: python3 src/stats/__fixtures__/make-agreement-reference.py > src/stats/__fixtures__/agreement-reference.json
(measured with Python 3, NumPy 2.4.6, SciPy 1.17.1)."""
import json
import numpy as np
from scipy import stats


def kappa(x, y, cats, weights):
    k = len(cats)
    pos = {c: i for i, c in enumerate(cats)}
    o = np.zeros((k, k))
    for a, b in zip(x, y):
        o[pos[a], pos[b]] += 1
    e = np.outer(o.sum(1), o.sum(0)) / o.sum()
    i, j = np.indices((k, k))
    w = {'unweighted': (i != j).astype(float), 'linear': np.abs(i - j), 'quadratic': (i - j) ** 2}[weights]
    return float(1 - (w * o).sum() / (w * e).sum())


def alpha(x, y, level):
    # Krippendorff (2011): coincidence matrix of two raters, every unit pairable (m_u = 2).
    values = sorted(set(x) | set(y))
    pos = {v: i for i, v in enumerate(values)}
    d = len(values)
    o = np.zeros((d, d))
    for a, b in zip(x, y):
        o[pos[a], pos[b]] += 1
        o[pos[b], pos[a]] += 1
    nc = o.sum(1)
    n = nc.sum()
    delta = np.zeros((d, d))
    for c in range(d):
        for k in range(d):
            if level == 'nominal':
                delta[c, k] = 0.0 if c == k else 1.0
            elif level == 'interval':
                delta[c, k] = (values[c] - values[k]) ** 2
            else:
                lo, hi = min(c, k), max(c, k)
                delta[c, k] = (nc[lo:hi + 1].sum() - (nc[lo] + nc[hi]) / 2) ** 2
    return float(1 - (n - 1) * (o * delta).sum() / (np.outer(nc, nc) * delta).sum())


def case(name, x, y, cats, levels):
    out = {'name': name, 'x': x, 'y': y, 'categories': cats}
    if cats is not None:
        out['accuracy'] = float(np.mean(np.array(x) == np.array(y)))
        for w in ('unweighted', 'linear', 'quadratic'):
            out['kappa_' + w] = kappa(x, y, cats, w)
    for lv in levels:
        out['alpha_' + lv] = alpha(x, y, lv)
    out['pearson'] = float(stats.pearsonr(x, y).statistic)
    out['spearman'] = float(stats.spearmanr(x, y).statistic)
    out['kendall_tau_b'] = float(stats.kendalltau(x, y, variant='b').statistic)
    return out


rng = np.random.default_rng(29)
cases = []
# nominal, 3 categories coded 0/1/2, a rater who agrees 60% of the time
h = rng.integers(0, 3, 200)
j = np.where(rng.random(200) < 0.6, h, rng.integers(0, 3, 200))
cases.append(case('nominal-3', j.tolist(), h.tolist(), [0, 1, 2], ['nominal']))
# ordinal 1..5 with off-by-one noise
h = rng.integers(1, 6, 300)
j = np.clip(h + rng.integers(-1, 2, 300) * (rng.random(300) < 0.5), 1, 5)
cases.append(case('ordinal-1-5', j.astype(int).tolist(), h.tolist(), [1, 2, 3, 4, 5], ['nominal', 'ordinal', 'interval']))
# a preference scale -2..2 with a skipped category (no 0 from the rater): kappa weights use positions
h = rng.integers(-2, 3, 120)
j = np.sign(h + rng.normal(0, 1.2, 120)).astype(int) * 2
cases.append(case('preference-gap', j.tolist(), h.tolist(), [-2, -1, 0, 1, 2], ['ordinal', 'interval']))
# binary
h = rng.integers(0, 2, 50)
j = np.where(rng.random(50) < 0.7, h, 1 - h)
cases.append(case('binary', j.tolist(), h.tolist(), [0, 1], ['nominal']))
# a continuous score against a 5-point preference (no categories: kappa not applicable)
h = rng.integers(-2, 3, 150)
j = np.round(h * 0.4 + rng.normal(0, 0.8, 150), 3)
cases.append(case('continuous-vs-ordinal', j.tolist(), h.tolist(), None, ['ordinal', 'interval']))
head = {'generator': 'make-agreement-reference.py', 'numpy': np.__version__, 'scipy': __import__('scipy').__version__}
print('{' + json.dumps(head)[1:-1] + ', "cases": [\n' + ',\n'.join(json.dumps(c) for c in cases) + '\n]}')
