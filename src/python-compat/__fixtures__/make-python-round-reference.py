"""Writes python-round-reference.json: [x, ndigits, round(x, ndigits)] from CPython (3.11 here).

Run: python3 src/python-compat/__fixtures__/make-python-round-reference.py
The cases: hand-picked ties and near-ties (0.0005, 0.6665, 0.0625, 2.675, ...), every k/n for
n <= 40 (the fractions the ResearchQA metrics produce), and seeded random values.
"""
import json
import os
import random

random.seed(7)
values = [0.0005, 2 / 3, 0.6665, 0.0625, -0.0625, 0.1875, 0.3125, 0.4375, 0.5625, 0.6875, 0.8125,
          0.9375, 0.0015, 0.0025, 0.5005, 1.0005, 0.0045, 1 / 3, 1.0, 0.0, -0.0, 5e-324, 2.675,
          -2.675, 0.125, 0.375, 1e-10, 123.4565, 2.5, 3.5, -2.5, 0.5, 1.5]
for n in range(1, 41):
    for k in range(0, n + 1):
        values.append(k / n)
for _ in range(200):
    values.append(random.random())
for _ in range(100):
    values.append(random.randint(0, 4000) / 4000 * random.choice([1, -1]))
cases = [[v, d, round(v, d)] for v in values for d in (0, 1, 3)]
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-round-reference.json")
with open(out, "w") as f:
    json.dump({"python": "CPython round(x, ndigits)", "cases": cases}, f, separators=(",", ":"))
print(len(cases), "cases →", out)
