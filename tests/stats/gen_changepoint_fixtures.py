#!/usr/bin/python3
"""Reference values for the change-point detector (src/stats/changepoint.c).

Writes tests/stats/data/changepoint.txt, computed independently of the C
code:

  segment cases: the exact penalised segmentation (step 2 of
      perfreg/changepoint.h) by a plain exhaustive search: every
      segmentation of a short series (all 2^(n-1) sets of boundaries)
      whose segments hold at least MIN points, its weighted cost summed
      in exact rational arithmetic, the minimum taken.  A case is kept only
      when the best segmentation is unique (the second best is worse by a
      clear margin), so that the C code's answer is the one answer.
  detect cases: the whole detector (spikes, candidates, confirmation, the
      possible change at the end, the intervals) written again here with
      numpy: the running median and MAD scale, the optimal partitioning
      by brute-force dynamic programming over every last change (no
      pruning), the trend-adjusted step test by numpy.linalg.lstsq and an
      explicit inverse of X'WX, the normal quantile from scipy.

Run from the repository root with /usr/bin/python3 (numpy, scipy):
  /usr/bin/python3 tests/stats/gen_changepoint_fixtures.py \\
      > tests/stats/data/changepoint.txt
Line formats:
  segment NAME MIN PENALTY N Y1..YN [w W1..WN]
  want-segment COST K C1..CK
  detect NAME ALPHA MIN BETTER N Y1..YN [v V1..VN]
  want-detect CANDIDATES NCHANGES (INDEX STEP LO HI Z VERDICT)... \\
      NSPIKES INDEX... TAIL INDEX|- NEEDS|-
"""
import itertools
from fractions import Fraction

import numpy as np
from scipy.stats import norm

MAD_SCALE = 1.482602218505602
MEANABS_SCALE = 1.2533141373155003
RUNMED_HALF = 3
CLIP_S = 3.0
PENALTY_K = 2.0
RHO_MAX = 0.98


def robust_scale(v):
    v = np.asarray(v, float)
    if len(v) == 0:
        return 0.0
    d = np.abs(v - np.median(v))
    s = MAD_SCALE * np.median(d)
    if s == 0:
        s = MEANABS_SCALE * np.mean(d)
    return s


# ---- exhaustive segmentation (exact rationals) ----

def seg_cost_exact(y, w, a, b):
    sw = sum(w[a:b])
    sy = sum(wi * yi for wi, yi in zip(w[a:b], y[a:b]))
    syy = sum(wi * yi * yi for wi, yi in zip(w[a:b], y[a:b]))
    return syy - sy * sy / sw


def exhaustive(y, w, pen, m):
    n = len(y)
    yq = [Fraction(v) for v in y]
    wq = [Fraction(v) for v in w]
    penq = Fraction(pen)
    results = []
    for k in range(0, n):
        for cps in itertools.combinations(range(1, n), k):
            b = [0] + list(cps) + [n]
            if any(b[i + 1] - b[i] < m for i in range(len(b) - 1)):
                continue
            c = sum(seg_cost_exact(yq, wq, b[i], b[i + 1])
                    for i in range(len(b) - 1)) + penq * k
            results.append((c, cps))
    results.sort()
    return results


# ---- the detector, again ----

def runmed(y):
    n = len(y)
    out = np.empty(n)
    for i in range(n):
        a = max(0, i - RUNMED_HALF)
        b = min(n, i + RUNMED_HALF + 1)
        out[i] = np.median(y[a:b])
    return out


def op_bruteforce(y, w, pen, m):
    """Optimal partitioning over every last change, no pruning."""
    n = len(y)
    F = [float('inf')] * (n + 1)
    last = [0] * (n + 1)
    F[0] = -pen
    for t in range(m, n + 1):
        best, arg = float('inf'), 0
        for s in range(0, t - m + 1):
            if F[s] == float('inf'):
                continue
            ww = w[s:t]
            mu = np.sum(ww * y[s:t]) / np.sum(ww)
            c = np.sum(ww * (y[s:t] - mu) ** 2)
            v = F[s] + c + pen
            if v < best:
                best, arg = v, s
        F[t], last[t] = best, arg
    cps = []
    t = n
    while t > 0:
        s = last[t]
        if s > 0:
            cps.append(s)
        t = s
    return sorted(cps)


def step_test(y, w, a, c, b, quad=False):
    """The step at c over [a, b) against a local line (or with quad a
    parabola), by weighted least squares; None where it cannot be made."""
    if b - a < (5 if quad else 3) or c <= a or c >= b:
        return None
    idx = np.arange(a, b, dtype=float)
    t = (idx - 0.5 * (a + b - 1)) / (b - a)
    s = (np.arange(a, b) >= c).astype(float)
    cols = [np.ones(b - a), t] + ([t * t] if quad else []) + [s]
    X = np.column_stack(cols)
    k = X.shape[1] - 1
    ww = w[a:b]
    sq = np.sqrt(ww)
    beta = np.linalg.lstsq(X * sq[:, None], y[a:b] * sq, rcond=None)[0]
    r = (y[a:b] - X @ beta) * sq
    rl, rr = r[:c - a], r[c - a:]
    num = np.sum(rl[1:] * rl[:-1]) + np.sum(rr[1:] * rr[:-1])
    den = np.sum(r * r)
    rho = min(max(num / den if den > 0 else 0.0, 0.0), RHO_MAX)
    # The parabola's residual variance over its degrees of freedom.
    s2 = np.sum(r * r) / (b - a - (4 if quad else 0))
    inv = np.linalg.inv(X.T @ (X * ww[:, None]))
    var = s2 * (1 + rho) / (1 - rho) * inv[k, k]
    z2 = beta[k] ** 2 / var if var > 0 else (float('inf') if beta[k] else 0)
    before = np.sum(ww[:c - a] * y[a:c]) / np.sum(ww[:c - a])
    return dict(step=beta[k], var=var, z2=z2, before=before)


def confirm_test(y, w, a, c, b):
    """The stronger of the line's and the parabola's tests."""
    lin = step_test(y, w, a, c, b)
    quad = step_test(y, w, a, c, b, quad=True)
    if lin is None or (quad is not None and quad['z2'] > lin['z2']):
        return quad
    return lin


def detect(y, var=None, alpha=0.01, m=5, better='unknown', conf=0.95,
           eq=1.0):
    y = np.asarray(y, float)
    n = len(y)
    zstar = norm.isf(alpha / (2 * n))
    zconf = norm.isf((1 - conf) / 2)
    med = runmed(y)
    r = y - med
    s = robust_scale(r)
    yc = y.copy()
    if s > 0:
        for i in range(n):
            if abs(r[i]) > CLIP_S * s:
                yc[i] = med[i] + (CLIP_S if r[i] > 0 else -CLIP_S) * s
    # Spikes: the smaller residual against either side's neighbours,
    # when both agree in sign, over the scale of all one-sided residuals.
    e = np.empty(n)
    allres = []
    for i in range(n):
        res = [y[i] - np.median(y[j0:j1]) for j0, j1 in
               ((max(0, i - RUNMED_HALF), i),
                (i + 1, min(n, i + 1 + RUNMED_HALF))) if j1 > j0]
        allres += res
        if len(res) == 1:
            e[i] = 0  # first and last points: maybe a change, not a spike
        elif (res[0] > 0) != (res[1] > 0):
            e[i] = 0
        else:
            e[i] = res[0] if abs(res[0]) <= abs(res[1]) else res[1]
    se = robust_scale(allres)
    spikes = [i for i in range(n) if se > 0 and abs(e[i]) > zstar * se]
    d = np.diff(yc)
    sigma = robust_scale(d) / np.sqrt(2)
    if sigma == 0:
        sigma = np.std(d) / np.sqrt(2)
    out = dict(candidates=0, changes=[], spikes=spikes, tail=None)
    if sigma == 0:
        return out
    w = np.ones(n)
    if var is not None:
        var = np.asarray(var, float)
        tau2 = sigma * sigma - np.mean(var)
        if not tau2 > 0:
            tau2 = 0.1 * sigma * sigma
        w = 1 / (tau2 + var)
        w = w * n / np.sum(w)
    cps = []
    if n >= 2 * m:
        cps = op_bruteforce(yc, w, PENALTY_K * sigma * sigma * np.log(n), m)
    out['candidates'] = len(cps)
    thr = zstar * zstar
    # Confirmation by either of two tests: Bonferroni over both.
    thr2 = norm.isf(alpha / (4 * n)) ** 2
    while cps:
        b = [0] + cps + [n]
        z = [confirm_test(yc, w, b[i], b[i + 1], b[i + 2])['z2']
             for i in range(len(cps))]
        j = int(np.argmin(z))
        if z[j] >= thr2:
            break
        del cps[j]

    def best_tail(a):
        best = None
        for c in range(n - m + 1, n):
            if c <= a + 1:
                continue
            st = step_test(y, w, a, c, n)
            if st['z2'] >= thr and (best is None or st['z2'] > best[1]):
                best = (c, st['z2'])
        return best

    if cps:
        a = cps[-2] if len(cps) > 1 else 0
        last = confirm_test(y, w, a, cps[-1], n)['z2']
        bt = best_tail(a)
        if bt is not None and bt[1] > last:
            del cps[-1]
    bt = best_tail(cps[-1] if cps else 0)
    if bt is not None:
        out['tail'] = (bt[0], m - (n - bt[0]))
    b = [0] + cps + [n]
    for i, c in enumerate(cps):
        st = confirm_test(yc, w, b[i], c, b[i + 2])
        se = np.sqrt(st['var'])
        lo, hi = st['step'] - zconf * se, st['step'] + zconf * se
        verdict = None
        if st['before'] > 0:
            plo, phi = 100 * lo / st['before'], 100 * hi / st['before']
            if plo >= -eq and phi <= eq:
                verdict = 'equivalent'
        if verdict is None:
            if better == 'unknown':
                verdict = 'inconclusive'
            elif (st['step'] > 0) == (better == 'lower'):
                verdict = 'regression'
            else:
                verdict = 'improvement'
        if verdict != 'equivalent':
            out['changes'].append((c, st['step'], lo, hi,
                                   st['step'] / se, verdict))
    return out


def fmt(v):
    return repr(float(v))


def main():
    rng = np.random.default_rng(20261201)
    print('# generated by tests/stats/gen_changepoint_fixtures.py; '
          'do not edit')
    # Exhaustive segmentations.
    kept = 0
    tries = 0
    while kept < 40:
        tries += 1
        n = int(rng.integers(4, 13))
        m = int(rng.integers(1, 4))
        if n < m:
            continue
        shape = rng.integers(0, 3)
        y = rng.normal(0, 1, n)
        if shape == 1:
            y[n // 2:] += rng.uniform(1, 4)
        elif shape == 2:
            y = y * 10 + 1000
        y = np.round(y, 3)
        weighted = rng.random() < 0.3
        w = np.round(rng.uniform(0.2, 2.0, n), 2) if weighted else np.ones(n)
        pen = float(np.round(rng.uniform(0.1, 6.0) *
                             (100 if shape == 2 else 1), 3))
        res = exhaustive(list(y), list(w), pen, m)
        if len(res) > 1 and res[1][0] - res[0][0] < Fraction(1, 10**6):
            continue
        c, cps = res[0]
        line = 'segment s%d %d %s %d %s' % (
            kept, m, fmt(pen), n, ' '.join(fmt(v) for v in y))
        if weighted:
            line += ' w ' + ' '.join(fmt(v) for v in w)
        print(line)
        print('want-segment %s %d %s' % (fmt(float(c)), len(cps),
                                         ' '.join(str(v) for v in cps)))
        kept += 1
    # Whole detector on synthetic series of known structure.
    cases = []

    def add(name, y, **kw):
        cases.append((name, np.round(np.asarray(y, float), 6), kw))

    add('flat_white', rng.normal(100, 1, 120))
    y = rng.normal(100, 1, 150)
    y[90:] += 4
    add('one_step_up', y, better='lower')
    y = rng.normal(50, 0.5, 200)
    y[60:] -= 3
    y[140:] += 5
    add('two_steps', y, better='higher')
    y = rng.normal(10, 0.2, 100)
    y[40] += 5
    add('spike', y)
    add('trend', 5 + 0.05 * np.arange(160) + rng.normal(0, 0.3, 160))
    e = rng.normal(0, 1, 200)
    ar = np.empty(200)
    ar[0] = e[0]
    for i in range(1, 200):
        ar[i] = 0.9 * ar[i - 1] + e[i]
    add('ar09', 100 + ar)
    y = rng.normal(20, 0.3, 80)
    y[77:] += 4
    add('tail_step', y)
    y = rng.standard_t(3, 150) + 30
    y[75:] += 6
    add('t3_step', y, better='lower')
    add('constant', np.full(30, 7.0))
    y = rng.normal(1000, 2, 60)
    y[30:] *= 1.004
    add('tiny_step', y, better='lower')
    y = rng.normal(100, 1, 120)
    y[60:] += 3
    v = np.where(np.arange(120) % 2 == 0, 0.01, 4.0)
    add('weighted_step', y, var=np.round(v, 6), better='lower')
    for name, y, kw in cases:
        var = kw.get('var')
        better = kw.get('better', 'unknown')
        res = detect(y, var=var, better=better)
        line = 'detect %s 0.01 5 %s %d %s' % (
            name, better, len(y), ' '.join(fmt(v) for v in y))
        if var is not None:
            line += ' v ' + ' '.join(fmt(v) for v in var)
        print(line)
        parts = ['want-detect', str(res['candidates']),
                 str(len(res['changes']))]
        for c, step, lo, hi, z, verdict in res['changes']:
            parts += [str(c), fmt(step), fmt(lo), fmt(hi), fmt(z), verdict]
        parts.append(str(len(res['spikes'])))
        parts += [str(i) for i in res['spikes']]
        if res['tail']:
            parts += ['tail', str(res['tail'][0]), str(res['tail'][1])]
        else:
            parts += ['tail', '-', '-']
        print(' '.join(parts))


if __name__ == '__main__':
    main()
