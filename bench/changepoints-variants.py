#!/usr/bin/python3
"""bench/changepoints-variants.py: principled extensions of perfreg's
change-point detector, tried on the benchmark's series before adopting
any (issue 14: the covering target, 0.7496 against 0.75 before the
parabola).

usage: /usr/bin/python3 bench/changepoints-variants.py PERFREG [DATA]
       /usr/bin/python3 bench/changepoints-variants.py --aa N PERFREG
  PERFREG  the perfreg binary (build/release/perfreg)
  DATA     the Turing Change Point Dataset half, by default
           ../shared/data/changepoints
  --aa N   instead, false alarms: N series of 200 points without change
           each of white noise, Student t3, AR(1) 0.5, 0.7 and 0.9, a
           random walk, a parabola and a sine under white noise (seed 1);
           the share with any change for perfreg, "numpy" and
           "numpy+parabola"

1. seasonal: a seasonal term whose period comes from the series' own
   autocorrelation.  The period P is the lag from 2 to n/4 at which the
   first differences (centred) are most autocorrelated; it is taken only
   when that autocorrelation is strong (>= 0.3; with n >= 58 that is also
   beyond 2 standard errors of white noise).  The seasonal profile is that
   of the classical decomposition (R's decompose: the residuals from a
   centred moving average of P points, averaged by phase, centred to sum
   0), subtracted from the series, and `perfreg changepoints` with its
   defaults runs on the adjusted series.
2. slope: slope changes as a second kind of change.  A re-implementation
   in numpy of steps 2 and 3 of the detector (perfreg/changepoint.h; no
   spike clipping, so its baseline differs from perfreg's on series with
   outliers) in which a candidate is kept when either its level step or a
   change of slope at it (y = level + slope t + kink (t - c)+ over the
   same window, the same AR(1) long-run variance and Bonferroni
   threshold) is significant.  Printed beside the same re-implementation
   without the slope test, so the two differ in that alone.

3. parabola (adopted, in perfreg since 2026-12-02): the same
   re-implementation with a second test of each candidate's step, against
   a local parabola (level + slope t + curvature t^2 + step over the same
   window; the residual variance over the points less 4), the stronger of
   the two tests counted, at the Bonferroni threshold over the points and
   both tests (alpha / (4 n)).

Prints per series and on average F1 and covering (the scorer of
bench/changepoints.py) for perfreg as it is, the seasonal variant, and the
re-implementation alone, with slope changes, and with the parabola.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.stats import norm

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "changepoints", os.path.join(HERE, "changepoints.py"))
cp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cp)

ACF_MIN = 0.3


def run_perfreg(perfreg, y):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join("%r\n" % v for v in y))
        path = f.name
    try:
        out = subprocess.run([perfreg, "changepoints", "--json", path],
                             capture_output=True, text=True, check=True)
    finally:
        os.unlink(path)
    return [c["point"] - 1 for c in json.loads(out.stdout)["series"][0]
            ["changes"]]


def deseason(y):
    """The series less its seasonal profile, and the period (None: no
    strong seasonality, the series as given)."""
    n = len(y)
    d = np.diff(y)
    d = d - d.mean()
    den = (d * d).sum()
    best, period = 0.0, None
    for p in range(2, n // 4 + 1):
        r = (d[p:] * d[:-p]).sum() / den
        if r > best:
            best, period = r, p
    if period is None or best < ACF_MIN:
        return y, None
    if period % 2:
        k = np.ones(period) / period
    else:
        k = np.r_[0.5, np.ones(period - 1), 0.5] / period
    ma = np.convolve(y, k, mode="valid")
    h = len(k) // 2
    det = y[h:h + len(ma)] - ma
    phase = (np.arange(len(ma)) + h) % period
    s = np.array([det[phase == q].mean() for q in range(period)])
    s -= s.mean()
    return y - s[np.arange(n) % period], period


def segment(y, pen, m):
    """Optimal partitioning of the mean-shift cost, segments >= m."""
    n = len(y)
    S = np.r_[0, np.cumsum(y)]
    SS = np.r_[0, np.cumsum(y * y)]
    F = np.full(n + 1, np.inf)
    F[0] = -pen
    last = np.zeros(n + 1, int)
    for t in range(m, n + 1):
        s = np.arange(0, t - m + 1)
        c = SS[t] - SS[s] - (S[t] - S[s]) ** 2 / (t - s)
        v = F[s] + c + pen
        j = int(np.argmin(v))
        F[t], last[t] = v[j], s[j]
    cps, t = [], n
    while t > 0:
        if last[t] > 0:
            cps.append(int(last[t]))
        t = last[t]
    return sorted(cps)


def z2(y, a, c, b, kind):
    """z^2 of the last column: "step" or "kink" against a line, "parabola"
    a step against a parabola."""
    t = np.arange(a, b)
    u = (t - (a + b - 1) / 2) / (b - a)
    col = (t >= c) * 1.0 if kind != "kink" else np.maximum(t - c, 0) / (b - a)
    X = np.c_[np.ones(b - a), u, u * u, col] if kind == "parabola" else \
        np.c_[np.ones(b - a), u, col]
    k = X.shape[1] - 1
    if b - a <= k + 1:
        return 0.0
    beta = np.linalg.lstsq(X, y[a:b], rcond=None)[0]
    r = y[a:b] - X @ beta
    ss = (r * r).sum()
    num = sum(r[i] * r[i - 1] for i in range(1, b - a) if i != c - a)
    rho = min(max(num / ss, 0), 0.98) if ss > 0 else 0
    dof = b - a - (4 if kind == "parabola" else 0)
    var = ss / dof * (1 + rho) / (1 - rho) * np.linalg.inv(X.T @ X)[k, k]
    return beta[k] ** 2 / var if var > 0 else np.inf


def detect(y, slope, parabola=False):
    n = len(y)
    d = np.diff(y)
    sigma = 1.482602218505602 * np.median(np.abs(d - np.median(d))) / \
        np.sqrt(2)
    if sigma == 0:
        return []
    thr = norm.isf(0.01 / ((4 if parabola else 2) * n)) ** 2
    cps = segment(y, 2 * sigma * sigma * np.log(n), 5)
    while cps:
        bb = [0] + cps + [n]
        z = []
        for i, c in enumerate(cps):
            v = z2(y, bb[i], c, bb[i + 2], "step")
            if slope:
                v = max(v, z2(y, bb[i], c, bb[i + 2], "kink"))
            if parabola:
                v = max(v, z2(y, bb[i], c, bb[i + 2], "parabola"))
            z.append(v)
        j = int(np.argmin(z))
        if z[j] >= thr:
            break
        cps.pop(j)
    return cps


def false_alarms(count, perfreg):
    rng = np.random.default_rng(1)
    n = 200
    i = np.arange(n)

    def ar(phi):
        e = rng.normal(0, 1, n)
        x = np.empty(n)
        x[0] = e[0] / np.sqrt(1 - phi * phi)
        for j in range(1, n):
            x[j] = phi * x[j - 1] + e[j]
        return x
    kinds = (
        ("white", lambda: rng.normal(0, 1, n)),
        ("t3", lambda: rng.standard_t(3, n)),
        ("ar0.5", lambda: ar(0.5)), ("ar0.7", lambda: ar(0.7)),
        ("ar0.9", lambda: ar(0.9)),
        ("random walk", lambda: np.cumsum(rng.normal(0, 1, n))),
        ("parabola 5 sd", lambda: 5 * ((i - n / 2) / (n / 2)) ** 2 +
         rng.normal(0, 1, n)),
        ("sine 3 sd", lambda: 3 * np.sin(2 * np.pi * i / n) +
         rng.normal(0, 1, n)))
    print("false alarms: series of %d points without change, %d each; "
          "the share with any change" % (n, count))
    print("%-14s %10s %10s %15s" % ("noise", "perfreg", "numpy",
                                     "numpy+parabola"))
    for name, make in kinds:
        hits = [0, 0, 0]
        for _ in range(count):
            y = 100 + make()
            hits[0] += bool(run_perfreg(perfreg, y))
            hits[1] += bool(detect(y, False))
            hits[2] += bool(detect(y, False, True))
        print("%-14s %9.1f%% %9.1f%% %14.1f%%" % (
            name, *(100.0 * h / count for h in hits)))


def main():
    if sys.argv[1] == "--aa":
        false_alarms(int(sys.argv[2]), sys.argv[3])
        return
    perfreg = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.join(HERE, "..", "..", "shared", "data", "changepoints")
    ann = json.load(open(os.path.join(data, "annotations.json")))
    cols = ("perfreg", "seasonal", "numpy", "numpy+slope", "numpy+parabola")
    print("%-20s %4s | %s" % ("series", "P", " | ".join(
        "%-13s" % c for c in cols)))
    tot = {c: [0.0, 0.0] for c in cols}
    for name in sorted(ann):
        d = json.load(open(os.path.join(data, "series", name + ".json")))
        raw = d["series"][0]["raw"]
        idx = [i for i, v in enumerate(raw) if v is not None]
        y = np.array([raw[i] for i in idx], float)
        ya, period = deseason(y)
        found = {"perfreg": run_perfreg(perfreg, y),
                 "seasonal": run_perfreg(perfreg, ya) if period else None,
                 "numpy": detect(y, False), "numpy+slope": detect(y, True),
                 "numpy+parabola": detect(y, False, True)}
        if found["seasonal"] is None:
            found["seasonal"] = found["perfreg"]
        cells = []
        for c in cols:
            cps = [idx[i] for i in found[c]]
            f = cp.f_measure(ann[name], cps)
            cov = cp.covering(ann[name], cps, len(raw))
            tot[c][0] += f
            tot[c][1] += cov
            cells.append("%.3f / %.3f" % (f, cov))
        print("%-20s %4s | %s" % (name, period or "-", " | ".join(cells)))
    k = len(ann)
    print("%-20s %4s | %s" % ("mean", "", " | ".join(
        "%.4f/%.4f" % (tot[c][0] / k, tot[c][1] / k) for c in cols)))


if __name__ == "__main__":
    main()
