#!/usr/bin/python3
"""bench/changepoints.py: perfreg's change-point detector against Apache
Otava and the "no change point" answer on real annotated series.

usage: /usr/bin/python3 bench/changepoints.py PERFREG [DATA [OTAVA]]
  PERFREG  the perfreg binary (build/release/perfreg)
  DATA     the Turing Change Point Dataset half, by default
           ../shared/data/changepoints (series/NAME.json, annotations.json)
  OTAVA    the folder holding Otava's package, by default ../shared/peers/otava

Every method runs with its defaults: `perfreg changepoints --json` on each
series, Otava's compute_change_points (window 50, max p-value 0.001,
min magnitude 0, its command line's defaults), and the empty answer.
Scores are those of the dataset's paper (van den Burg and Williams 2020,
analysis/scripts/metrics.py): F1 with a margin of 5 points (precision
over the union of the annotators' points, recall averaged over
annotators, index 0 a change on both sides), and covering (each
annotator's partition covered by the predicted one, averaged).  Missing
values are left out of the series handed to the detectors and their
indices mapped back.  Then speed: perfreg and Otava on synthetic series of
10^3 to 10^5 points, with a step every 1000 points and a random walk,
each timed in the same run (Otava's next size skipped once one takes
more than 6 s: it grows at least tenfold).  Prints tables; the
numbers go into bench/README.md with the load average.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def true_positives(T, X, margin=5):
    X = set(X)
    TP = set()
    for tau in T:
        close = sorted((abs(tau - x), x) for x in X if abs(tau - x) <= margin)
        if close:
            TP.add(tau)
            X.remove(close[0][1])
    return TP


def f_measure(annotations, predictions, margin=5, alpha=0.5):
    Tks = {k: set(v) | {0} for k, v in annotations.items()}
    X = set(predictions) | {0}
    Tstar = set().union(*Tks.values())
    P = len(true_positives(Tstar, X, margin)) / len(X)
    R = sum(len(true_positives(Tk, X, margin)) / len(Tk)
            for Tk in Tks.values()) / len(Tks)
    return P * R / (alpha * R + (1 - alpha) * P)


def partition(cps, n):
    parts, cur, cps, j = [], set(), sorted(set(cps)), 0
    for i in range(n):
        if j < len(cps) and i == cps[j]:
            if cur:
                parts.append(cur)
            cur, j = set(), j + 1
        cur.add(i)
    parts.append(cur)
    return parts


def covering(annotations, predictions, n):
    pred = partition(predictions, n)

    def cover(S):
        return sum(len(R) * max(len(R & Rp) / len(R | Rp) for Rp in pred)
                   for R in S) / n
    return sum(cover(partition(a, n)) for a in annotations.values()) / \
        len(annotations)


def run_perfreg(perfreg, y):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write(''.join('%r\n' % v for v in y))
        path = f.name
    try:
        t0 = time.perf_counter()
        out = subprocess.run([perfreg, 'changepoints', '--json', path],
                             capture_output=True, text=True, check=True)
        dt = time.perf_counter() - t0
    finally:
        os.unlink(path)
    doc = json.loads(out.stdout)['series'][0]
    return [c['point'] - 1 for c in doc['changes']], dt


def run_otava(y):
    from otava.analysis import compute_change_points
    t0 = time.perf_counter()
    cps, _ = compute_change_points(list(y))
    return [c.index for c in cps], time.perf_counter() - t0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    perfreg = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.join(here, '..', '..', 'shared', 'data', 'changepoints')
    otava = sys.argv[3] if len(sys.argv) > 3 else \
        os.path.join(here, '..', '..', 'shared', 'peers', 'otava')
    sys.path.insert(0, otava)
    ann = json.load(open(os.path.join(data, 'annotations.json')))
    print('load average at start: %.2f %.2f %.2f' % os.getloadavg())
    print('%-20s %5s | %-13s | %-13s | %-13s | %8s %8s' % (
        'series', 'n', 'perfreg F1/cov', 'otava F1/cov', 'zero F1/cov',
        'perfreg', 'otava'))
    tot = {k: [0, 0] for k in ('perfreg', 'otava', 'zero')}
    worst = 1.0
    names = sorted(ann)
    for name in names:
        d = json.load(open(os.path.join(data, 'series', name + '.json')))
        raw = d['series'][0]['raw']
        idx = [i for i, v in enumerate(raw) if v is not None]
        y = np.array([raw[i] for i in idx], float)
        n = len(raw)
        pc, pt = run_perfreg(perfreg, y)
        oc, ot = run_otava(y)
        row = {}
        for k, cps in (('perfreg', [idx[c] for c in pc]),
                       ('otava', [idx[c] for c in oc]), ('zero', [])):
            row[k] = (f_measure(ann[name], cps), covering(ann[name], cps, n))
            tot[k][0] += row[k][0]
            tot[k][1] += row[k][1]
        worst = min(worst, row['perfreg'][0] - row['zero'][0],
                    row['perfreg'][1] - row['zero'][1])
        print('%-20s %5d | %.3f / %.3f | %.3f / %.3f | %.3f / %.3f | '
              '%6.1fms %6.1fms' % (
                  name, n, *row['perfreg'], *row['otava'], *row['zero'],
                  pt * 1e3, ot * 1e3))
    k = len(names)
    print('%-20s %5s | %.4f/%.4f | %.4f/%.4f | %.4f/%.4f |' % (
        'mean', '', tot['perfreg'][0] / k, tot['perfreg'][1] / k,
        tot['otava'][0] / k, tot['otava'][1] / k,
        tot['zero'][0] / k, tot['zero'][1] / k))
    print('perfreg against "no change point", worst series: %+.3f '
          '(target: no series below by more than 0.1)' % worst)

    rng = np.random.default_rng(1)
    series = (
        ('a step every 1000 points, noise sd 1',
         lambda n: rng.normal(100, 1, n) + 3 * ((np.arange(n) // 1000) % 2)),
        ('a random walk, steps sd 1 (thousands of candidates)',
         lambda n: 1000 + np.cumsum(rng.normal(0, 1, n))))
    for what, make in series:
        print('\nspeed (%s; perfreg the best of 3 whole commands):' % what)
        print('%8s %12s %12s %10s' % ('points', 'perfreg', 'otava', 'ratio'))
        otava_ok = True
        for n in (1000, 10000, 100000):
            y = make(n)
            # The whole command (process start, the file, the JSON): an
            # upper bound of the detector's time.
            pt = min(run_perfreg(perfreg, y)[1] for _ in range(3))
            if otava_ok:
                t0 = time.perf_counter()
                _, ot = run_otava(y)
                if time.perf_counter() - t0 > 6:
                    otava_ok = False
                print('%8d %10.3f s %10.3f s %9.1fx' % (n, pt, ot, ot / pt))
            else:
                print('%8d %10.3f s %12s %10s' % (n, pt, '(skipped)', '-'))
    print('load average at end: %.2f %.2f %.2f' % os.getloadavg())


if __name__ == '__main__':
    main()
