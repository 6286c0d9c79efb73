"""Writes difflib-reversed-ratios.json: for each pair (a, b) of the shared difflib reference
(../shared/data/stats/difflib_ratio_reference.json, which holds ratio(a.lower(), b.lower())), the
ratio the other way round, SequenceMatcher(None, b.lower(), a.lower()).ratio(), from CPython 3.11.
Only numbers are stored here (the texts stay in ../shared). Run from the project root:
    python3 src/text/__fixtures__/make-difflib-reversed-ratios.py
"""
import difflib
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
ref = json.load(open(os.path.join(here, "..", "..", "..", "..", "shared", "data", "stats", "difflib_ratio_reference.json")))
ratios = [difflib.SequenceMatcher(None, p["b"].lower(), p["a"].lower()).ratio() for p in ref["pairs"]]
with open(os.path.join(here, "difflib-reversed-ratios.json"), "w") as f:
    json.dump({"generated_with": "CPython 3.11 difflib.SequenceMatcher(None, b.lower(), a.lower()).ratio()", "ratios": ratios}, f)
print(len(ratios), "ratios")
