#!/usr/bin/env python3
"""What the pdf-gold figures could reach: every gold body paragraph citegeist does not reproduce
contiguously, and every gold body token it misses, classified as a citegeist error or a gold-side
difference, with the figures each split would have if every citegeist error were fixed.

    npm run measure:ingest -- --out DIR        # writes DIR/<stem>.json (with furnitureKinds)
    python3 scripts/ingest-ceiling.py DIR [--split dev] [--paragraphs] [--json]

It imports `../shared/tools/score_ingest.py` (gold readers, normalisation, tokens) and repeats its
alignment of each gold paragraph in the predicted stream (asserting the same contiguous verdicts),
then compares with the PDF's own text: pdftotext's output plus all text citegeist read (body and
furniture), so a token counts as printed when either engine finds it.

Classes of a gold paragraph scored (>= 5 tokens) and not contiguous (tolerant rule):
  not-in-pdf      over 5% of its tokens are printed nowhere in the PDF (the gold's source and the
                  typeset PDF diverge, or the gold renders mathematics differently): no extractor
                  can reach the 95% coverage the rule asks for.
  gold-word-break  the same, but the missing tokens are words the gold broke in two ("scib ert").
  gold-omits      citegeist's span holds a run of more than 3 tokens the gold paragraph lacks, and
                  pdftotext prints that run between the same gold words too (with the gold's words
                  on either side): the gold left out printed text (mostly citations).
  gold-splices    the gold tokens citegeist's span lacks are text citegeist keeps apart as a
                  footnote, caption, table, float, formula or code (the kind is named), i.e. the gold
                  joined text the page sets apart into the paragraph, or (whole paragraph) the gold
                  counts a caption as body.
  citegeist       everything else: a reading-order split, a wrong insertion, missing text.
A paragraph can fail for several reasons; the first class that alone explains the failure wins,
in the order above, and `citegeist` is what no gold-side class explains.

Body recall: the missing gold body tokens (gold bag minus citegeist's body bag) split into
  not printed (gold bag minus the PDF's bag), kept apart by citegeist (in its furniture), and the rest.
"""
import argparse
import collections
import difflib
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCORER = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'tools', 'score_ingest.py'))
GOLD_DIR = os.path.normpath(os.path.join(HERE, '..', '..', 'shared', 'data', 'pdf-gold'))


def load_scorer(path):
    spec = importlib.util.spec_from_file_location('score_ingest', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def align(S, E, g):
    """The scorer's alignment of gold tokens g in stream E (score_ingest.score, reading order)."""
    sm = difflib.SequenceMatcher(None, E, g, autojunk=False)
    n = len(g)
    a, b, size = sm.find_longest_match(0, len(E), 0, n)
    if size == 0:
        return None
    W = max(20, n)
    w0, w1 = max(0, a - b - W), min(len(E), a + (n - b) + W)
    sub = difflib.SequenceMatcher(None, E[w0:w1], g, autojunk=False)
    blocks = [blk for blk in sub.get_matching_blocks() if blk.size > 0]
    big = [blk for blk in blocks if blk.size >= 2] or blocks
    start, end = big[0].a, big[-1].a + big[-1].size
    inside = [blk for blk in blocks if blk.a >= start and blk.a + blk.size <= end]
    matched = sum(blk.size for blk in inside)
    gaps, gap_starts = [], {}  # (inserted stream tokens, gold index before, gold index after)
    for x, y in zip(inside, inside[1:]):
        if y.a - (x.a + x.size) > 0:
            gap = (E[w0 + x.a + x.size: w0 + y.a], x.b + x.size, y.b)
            gaps.append(gap)
            gap_starts[(tuple(gap[0]), gap[1], gap[2])] = w0 + x.a + x.size
    covered = set()
    for blk in inside:
        covered.update(range(blk.b, blk.b + blk.size))
    return {'cov': matched / n, 'gaps': gaps, 'gap_starts': gap_starts, 'uncovered': [i for i in range(n) if i not in covered]}


def contains(hay, needle):
    return (' ' + ' '.join(needle) + ' ') in hay


SET_APART = ('footnote', 'caption', 'table', 'float', 'formula', 'code', 'toc', 'title')


def tolerant(S, al):
    return bool(al) and al['cov'] >= S.TOL_COVERAGE and max([len(r) for r, _, _ in al['gaps']] or [0]) <= S.TOL_MAX_GAP


def printed_between(pdf_tokens, pdf_index, left, run, right):
    """Whether the PDF's text (pdftotext) prints the tokens of `run` (in any order: inline
    mathematics comes out in different orders) right after `left` and before `right`."""
    if not left:
        return False
    want = collections.Counter(run)
    for i in pdf_index.get(left[-1], ()):
        if pdf_tokens[i - len(left) + 1:i + 1] != left:
            continue
        mid = pdf_tokens[i + 1:i + 1 + len(run)]
        after = pdf_tokens[i + 1 + len(run):i + 1 + len(run) + len(right)]
        if collections.Counter(mid) == want and after == right:
            return True
    return False


def spliced_runs(g, furn_bags, min_len=4):
    """Maximal runs of >= min_len gold tokens that occur verbatim in a set-apart kind's text."""
    out, i = [], 0
    while i < len(g):
        best, kind = i, None
        for k in SET_APART:
            # the title only where a gold paragraph starts with it (its words recur in the text)
            if k not in furn_bags or (k == 'title' and i > 0):
                continue
            j = i + min_len
            if j > len(g) or not contains(furn_bags[k], g[i:j]):
                continue
            while j < len(g) and contains(furn_bags[k], g[i:j + 1]):
                j += 1
            if j > best:
                best, kind = j, k
        if kind:
            out.append((i, best, kind))
            i = best
        else:
            i += 1
    return out


def repair(S, g, E, E_set, E_pairs, pdf, furn_bags, gold_furn_bi):
    """The gold paragraph corrected for each gold-side difference found, and the repairs made."""
    done = []
    word = re.compile(r'^[^\W\d_]{2,}$')
    # 1. words the gold broke in two or joined where citegeist (and the PDF) print them otherwise
    out, i = [], 0
    while i < len(g):
        t = g[i]
        if t not in E_set and i + 1 < len(g) and t + g[i + 1] in E_set and word.match(t) and word.match(g[i + 1]):
            out.append(t + g[i + 1])
            done.append('gold-word-break')
            i += 2
            continue
        if t not in E_set and t in E_pairs:
            out.extend(E_pairs[t])
            done.append('gold-word-break')
        else:
            out.append(t)
        i += 1
    g = out
    # 2. runs of the gold paragraph that citegeist keeps apart as a footnote, caption, table, ...
    runs = spliced_runs(g, furn_bags)
    if runs:
        drop = {i for a, b, _ in runs for i in range(a, b)}
        kinds = sorted({k for _, _, k in runs})
        if len(drop) >= S.TOL_COVERAGE * len(g) or len(g) - len(drop) < S.MIN_PARA_TOKENS:
            return [], ['gold-body-is:' + '+'.join(kinds)]
        done.extend(f'gold-splices:{k}' for k in kinds)
        g = [t for i, t in enumerate(g) if i not in drop]
    # 3. runs citegeist prints inside the paragraph that pdftotext prints there too (between the
    #    same words): the gold left them out (citations, inline mathematics)
    al = align(S, E, g)
    if al:
        for run, b0, b1 in reversed(al['gaps']):
            if len(run) <= S.TOL_MAX_GAP:
                continue
            bi = list(zip(run, run[1:]))
            if sum(1 for q in bi if q in gold_furn_bi) * 3 >= len(bi):
                continue
            e0 = al['gap_starts'][(tuple(run), b0, b1)]
            left, right = E[max(0, e0 - 2):e0], E[e0 + len(run):e0 + len(run) + 2]
            if printed_between(pdf['tokens'], pdf['index'], left, run, right):
                g = g[:b0] + run + g[b0:]
                done.append('gold-omits')
    return g, done


def classify(S, g, E, E_set, E_pairs, pdf, furn_bags, gold_furn_bi):
    n = len(g)
    present = sum((collections.Counter(g) & pdf['bag']).values())
    if present < S.TOL_COVERAGE * n:
        absent = [t for t in g if t not in pdf['set']]
        joined = sum(1 for i, t in enumerate(g) if t not in pdf['set'] and (
            (i + 1 < n and t + g[i + 1] in pdf['set']) or (i > 0 and g[i - 1] + t in pdf['set'])))
        if absent and joined * 2 >= len(absent):
            return 'gold-word-break', ' '.join(absent[:8])
        return 'not-in-pdf', ' '.join(absent[:8])
    fixed, done = repair(S, g, E, E_set, E_pairs, pdf, furn_bags, gold_furn_bi)
    if not fixed and done:
        return done[0], 'whole paragraph'
    al = align(S, E, fixed) if fixed else None
    if done and tolerant(S, al):
        kinds = sorted(set(done))
        return kinds[0].split(':')[0], ', '.join(kinds)
    if al is None:
        return 'citegeist', 'not found'
    why = []
    if al['cov'] < S.TOL_COVERAGE:
        why.append('lacks: ' + ' '.join(fixed[i] for i in al['uncovered'][:10]))
    for run, _, _ in al['gaps']:
        if len(run) > S.TOL_MAX_GAP:
            why.append('inserts: ' + ' '.join(run[:10]))
    if done:
        why.append('after repairs ' + ', '.join(sorted(set(done))))
    return 'citegeist', '; '.join(why) or 'unexplained'


def pdftotext_tokens(S, pdf):
    out = subprocess.run(['pdftotext', '-enc', 'UTF-8', pdf, '-'], capture_output=True, text=True, check=True).stdout
    return S.toks(out.replace('\f', '\n'))


def analyse(S, row, pred_dir):
    stem = os.path.splitext(os.path.basename(row['file']))[0]
    gold = S.load_gold(os.path.join(GOLD_DIR, row['gold_primary']))
    pred_raw = json.load(open(os.path.join(pred_dir, stem + '.json'), encoding='utf-8'))
    pred = S.load_pred(os.path.join(pred_dir, stem + '.json'))
    official = S.score(gold, pred, per_paragraph=True)
    # the prediction's stream and body bag, as the scorer builds them
    E, body_texts = [], []
    for s in pred['sections']:
        is_ref = bool(s.get('heading')) and bool(S.REF_HEADING.match(S.norm_heading(s['heading'])))
        if s.get('heading'):
            E.extend(S.toks(s['heading']))
            if not is_ref:
                body_texts.append(s['heading'])
        for p in s['paragraphs']:
            E.extend(S.toks(p))
            if not is_ref:
                body_texts.append(p)
    furn = pred_raw.get('furniture', [])
    kinds = pred_raw.get('furnitureKinds') or ['furniture'] * len(furn)
    furn_bags = collections.defaultdict(list)
    for text, kind in zip(furn, kinds):
        furn_bags[kind].append(' '.join(S.toks(text)))
    furn_bags = {k: ' ' + ' | '.join(v) + ' ' for k, v in furn_bags.items()}
    pdf_tokens = pdftotext_tokens(S, os.path.join(GOLD_DIR, row['file']))
    pdf_bag = collections.Counter(pdf_tokens)
    pdf_bag |= collections.Counter(E) + S.bag(furn)
    pdf_index = collections.defaultdict(list)
    for i, t in enumerate(pdf_tokens):
        pdf_index[t].append(i)
    pdf = {'tokens': pdf_tokens, 'index': pdf_index, 'bag': pdf_bag, 'set': set(pdf_bag)}
    E_set = set(E)
    # words printed apart that the gold joins (a hyphen at a line end it dropped): words only, as
    # letters and digits set apart in mathematics ("n 0" for n with subscript 0) are citegeist's doing
    word = re.compile(r'^[^\W\d_]{2,}$')
    E_pairs = {a + b: [a, b] for a, b in zip(E, E[1:]) if word.match(a) and word.match(b)}
    gold_furn_bi = set()
    for t in gold['furniture'] + [gold['title']]:
        gold_furn_bi |= S.bigrams(S.toks(t))

    body_secs = [s for s in gold['sections'] if s['kind'] != 'references']
    gold_paras = [p for s in body_secs for p in s['paragraphs']]
    E_str = ' ' + ' '.join(E) + ' '
    verdicts = {pp['i']: pp for pp in official.get('per_paragraph', [])}
    paragraphs, counts = [], collections.Counter()
    scored = ok = 0
    for gi, para in enumerate(gold_paras):
        g = S.toks(para)
        if len(g) < S.MIN_PARA_TOKENS:
            continue
        scored += 1
        al = align(S, E, g) if E else None
        tol = tolerant(S, al)
        off = verdicts[gi]
        off_tol = off['coverage'] >= S.TOL_COVERAGE and off['max_inserted_run'] <= S.TOL_MAX_GAP
        assert tol == off_tol, (row['file'], gi, tol, off)
        if tol:
            ok += 1
            continue
        cls, why = classify(S, g, E, E_set, E_pairs, pdf, furn_bags, gold_furn_bi)
        counts[cls.split(':')[0]] += 1
        paragraphs.append({'i': gi, 'start': ' '.join(para.split()[:8]), 'tokens': len(g),
                           'coverage': round(al['cov'], 3) if al else 0, 'class': cls, 'why': why})
    # body recall
    G = S.bag([h for s in gold['sections'] if s['heading'] and s['kind'] != 'references'
               for h in [s['heading']] if not S.REF_HEADING.match(S.norm_heading(h))] + gold_paras)
    P = S.bag(body_texts)
    missing = G - P
    unprinted = G - pdf_bag
    kept_apart = (missing - unprinted) & S.bag(furn)
    n_g = sum(G.values())
    recall = official['body_tokens']['recall']
    contiguous = official['reading_order']['contiguous_tolerant']
    fixable = counts['citegeist']
    return {
        'file': row['file'], 'split': row['split'], 'scored': scored, 'contiguous': contiguous,
        'contiguous_ceiling': (ok + fixable) / scored if scored else None,
        'classes': dict(counts), 'paragraphs': paragraphs,
        'recall': recall, 'gold_tokens': n_g, 'missing': sum(missing.values()),
        'unprinted': sum(unprinted.values()), 'kept_apart': sum(kept_apart.values()),
        'recall_ceiling': 1 - sum(unprinted.values()) / n_g if n_g else None,
        'recall_ceiling_kinds': 1 - (sum(unprinted.values()) + sum(kept_apart.values())) / n_g if n_g else None,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('pred_dir')
    ap.add_argument('--split', action='append')
    ap.add_argument('--paragraphs', action='store_true', help='list every non-contiguous paragraph')
    ap.add_argument('--json', action='store_true')
    args = ap.parse_args()
    S = load_scorer(SCORER)
    with open(os.path.join(GOLD_DIR, 'MANIFEST.tsv'), encoding='utf-8') as fh:
        header = fh.readline().rstrip('\n').split('\t')
        rows = [dict(zip(header, line.rstrip('\n').split('\t'))) for line in fh]
    splits = args.split or ['dev', 'validation']
    results = [analyse(S, r, args.pred_dir) for r in rows
               if r['split'] in splits and not r['gold_kind'].startswith('unit')]
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        return
    f3 = lambda v: '–' if v is None else f'{v:.3f}'
    classes = ['citegeist', 'not-in-pdf', 'gold-word-break', 'gold-omits', 'gold-splices', 'gold-body-is']
    for split in splits:
        rs = [r for r in results if r['split'] == split]
        print(f'\n### {split}\n')
        print('| file | scored | not contiguous | ' + ' | '.join(classes) +
              ' | contiguous | ceiling | recall | ceiling (unprinted) | ceiling (+ kept apart) |')
        print('|---|' + '---:|' * (len(classes) + 7))
        for r in rs:
            c = r['classes']
            print(f"| {r['file']} | {r['scored']} | {sum(c.values())} | " +
                  ' | '.join(str(c.get(k, 0)) for k in classes) +
                  f" | {f3(r['contiguous'])} | {f3(r['contiguous_ceiling'])} | {f3(r['recall'])}"
                  f" | {f3(r['recall_ceiling'])} | {f3(r['recall_ceiling_kinds'])} |")
        mean = lambda k: sum(r[k] for r in rs if r[k] is not None) / max(1, sum(1 for r in rs if r[k] is not None))
        tot = collections.Counter()
        for r in rs:
            tot.update(r['classes'])
        print(f"| **macro / total** | {sum(r['scored'] for r in rs)} | {sum(tot.values())} | " +
              ' | '.join(str(tot.get(k, 0)) for k in classes) +
              f" | {f3(mean('contiguous'))} | {f3(mean('contiguous_ceiling'))} | {f3(mean('recall'))}"
              f" | {f3(mean('recall_ceiling'))} | {f3(mean('recall_ceiling_kinds'))} |")
        if args.paragraphs:
            for r in rs:
                for p in r['paragraphs']:
                    print(f"  {r['file']} #{p['i']} ({p['tokens']} tok, cov {p['coverage']}) "
                          f"{p['class']}: {p['why']} — “{p['start']}…”")


if __name__ == '__main__':
    main()
