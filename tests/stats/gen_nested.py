#!/usr/bin/python3
"""Writes tests/stats/data/nested.txt: reference values for the two-level
(boot, run) comparison of src/stats/nested.c.

Run from the repository root with Debian's python3-scipy and
python3-mpmath:

    /usr/bin/python3 tests/stats/gen_nested.py

Everything is computed independently of the C code: the boot means
(exact, then rounded once to doubles) and the variance components exactly
(fractions of those doubles and of the input), Welch's t,
its Welch-Satterthwaite df, the two-sided p-value and the t quantile with
mpmath at 50 digits (p cross-checked with scipy.stats.ttest_ind(...,
equal_var=False) to 1e-9), and Fieller's interval as the two roots of
its quadratic in rho,
    rho^2 (m_a^2 - q^2 v_a) - 2 rho m_a m_b + (m_b^2 - q^2 v_b) = 0,
solved at 50 digits (v the squared standard errors of the two means).
The verdict follows perfreg/verdict.h (equivalent when the interval lies
in the band, regression / improvement when p < 1 - conf and the interval
excludes 0%, else inconclusive), including its resolution floor (each
side's variance raised to h^2 / 12 when all units lie on a 10^-k grid);
the generator stops when a verdict is within 1e-6 of a boundary.

Data sets are listed as GROUP:VALUE pairs, or given by a recipe that C
and Python evaluate to the same doubles (integer arithmetic, one
correctly rounded division, then the products and sums in this order):

    form N G K SCALE OFF BK BSCALE: for i = 0 .. N-1, boot
        g = (i * G) // N and
        x = OFF + BSCALE * (((g * BK) % 101) / 101.0)
                + SCALE * (((i * K) % 10007) / 10007.0)

One block per case (numbers printed with repr(), the shortest string that
reads back as the same double; '-' for a figure that is not defined):

    case NAME BETTER CONF EQ_PCT BOOT_COST
    side base list N G:X ...   |   side base form N G K SCALE OFF BK BSCALE
    side new ...
    desc base N NGROUPS RUNS_MIN RUNS_MAX MEAN VAR_MEANS VAR_WITHIN
         VAR_BETWEEN ICC RUNS_OPT
    desc new ...
    cmp SINGLE_BOOT TESTED MEAN_BASE MEAN_NEW T DF P CHANGE LO HI VERDICT
    end

MEAN_BASE and MEAN_NEW are the means of the units (boot means, or all
runs when SINGLE_BOOT is 1); CHANGE, LO and HI are percentages.
"""
import math
import os
from fractions import Fraction

import mpmath
import numpy as np
from scipy import stats

mpmath.mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "nested.txt")
RUNS_MAX = 1000000


def form(n, g, k, scale, off, bk, bscale):
    grp, x = [], []
    for i in range(n):
        b = (i * g) // n
        grp.append(b)
        x.append(off + bscale * (((b * bk) % 101) / 101.0)
                 + scale * (((i * k) % 10007) / 10007.0))
    return grp, x


def boots(grp, x):
    """The values of each boot, in order (a boot is a run of equal
    indices)."""
    out = []
    for i, (g, v) in enumerate(zip(grp, x)):
        if i == 0 or g != grp[i - 1]:
            out.append([])
        out[-1].append(v)
    return out


def fmean(vals):
    return sum((Fraction(v) for v in vals), Fraction(0)) / len(vals)


def fvar(vals):
    m = fmean(vals)
    return sum(((Fraction(v) - m) ** 2 for v in vals),
               Fraction(0)) / (len(vals) - 1)


def desc(grp, x, cost):
    bs = boots(grp, x)
    g = len(bs)
    # The boot means rounded to doubles, as any program holds them (at
    # 1e9 the rounding moves their variance in the 9th digit); every
    # figure below is exact for those.
    means = [Fraction(float(fmean(b))) for b in bs]
    d = {"n": len(x), "g": g, "rmin": min(len(b) for b in bs),
         "rmax": max(len(b) for b in bs)}
    d["mean"] = sum(means, Fraction(0)) / g
    d["means"] = [float(m) for m in means]
    d["var_means"] = d["var_within"] = d["var_between"] = None
    d["icc"] = d["ropt"] = None
    if g >= 2:
        d["var_means"] = sum(((m - d["mean"]) ** 2 for m in means),
                             Fraction(0)) / (g - 1)
    dfw = sum(len(b) - 1 for b in bs)
    if dfw > 0:
        ssw = sum((sum(((Fraction(v) - m) ** 2 for v in b), Fraction(0))
                   for b, m in zip(bs, means)), Fraction(0))
        d["var_within"] = ssw / dfw
    if g >= 2 and dfw > 0:
        hm = sum((Fraction(1, len(b)) for b in bs), Fraction(0)) / g
        vb = d["var_means"] - d["var_within"] * hm
        d["var_between"] = vb
        r = vb if vb > 0 else Fraction(0)
        if r + d["var_within"] > 0:
            d["icc"] = r / (r + d["var_within"])
        if cost > 0 and vb > 0:
            q = Fraction(cost) * d["var_within"] / vb
            ropt = math.ceil(mpmath.sqrt(mpmath.mpf(q.numerator) /
                                         q.denominator))
            s = mpmath.sqrt(mpmath.mpf(q.numerator) / q.denominator)
            assert abs(s - round(s)) > 1e-9 or q == 0, "ropt on an integer"
            d["ropt"] = min(max(ropt, 1), RUNS_MAX)
    return d


def grid_step(x):
    """verdict.c's grid: the largest 10^-k, k = 0..9, of all values."""
    scale = 1.0
    for _ in range(10):
        ok = True
        for v in x:
            y = v * scale
            if abs(y) > 1e12:
                return 0.0
            if abs(y - round(y)) > 1e-14 * abs(y):
                ok = False
                break
        if ok:
            return 1 / scale
        scale *= 10
    return 0.0


def mp(fr):
    return mpmath.mpf(fr.numerator) / fr.denominator


def t_sf(t, df):
    t = mpmath.mpf(t)
    x = df / (df + t * t)
    p = mpmath.betainc(df / 2, mpmath.mpf(1) / 2, 0, x,
                       regularized=True) / 2
    return p if t >= 0 else 1 - p


def t_quantile_upper(alpha2, df):
    """The q with P(T > q) = alpha2."""
    q0 = stats.t.isf(float(alpha2), float(df))
    return mpmath.findroot(lambda q: t_sf(q, df) - alpha2, mpmath.mpf(q0))


def welch_fieller(ua, ub, conf, eq, better):
    """Welch's t and Fieller's interval on units ua and ub (floats)."""
    na, nb = len(ua), len(ub)
    ma, mb = fmean(ua), fmean(ub)
    res = {"mean_a": ma, "mean_b": mb}
    if na < 2 or nb < 2:
        res["tested"] = 0
        return res
    res["tested"] = 1
    va, vb = fvar(ua), fvar(ub)
    h = min(grid_step(ua), grid_step(ub))
    if h > 0:
        fl = Fraction(h) * Fraction(h) / 12
        va = max(va, fl)
        vb = max(vb, fl)
    ea, eb = va / na, vb / nb
    assert ea + eb > 0, "degenerate case"
    diff = mp(mb - ma)
    se = mpmath.sqrt(mp(ea + eb))
    t = diff / se
    df = mp((ea + eb) ** 2 / (ea ** 2 / (na - 1) + eb ** 2 / (nb - 1)))
    p = 2 * t_sf(abs(t), df)
    if h == 0:
        sp = stats.ttest_ind(np.array(ub), np.array(ua), equal_var=False)
        assert abs(float(p) - sp.pvalue) <= 1e-9 * max(sp.pvalue, 1e-300) \
            + 1e-15, (float(p), sp.pvalue)
        assert abs(float(t) - sp.statistic) <= 1e-9 * abs(float(t)) + 1e-12
    alpha = 1 - mpmath.mpf(conf)
    q = t_quantile_upper(alpha / 2, df)
    assert abs(float(q) - stats.t.ppf(0.5 + conf / 2, float(df))) < 1e-8 * q
    mam, mbm = mp(ma), mp(mb)
    a2 = mam * mam - q * q * mp(ea)
    a1 = -2 * mam * mbm
    a0 = mbm * mbm - q * q * mp(eb)
    assert a2 > 0, "unbounded interval"
    disc = a1 * a1 - 4 * a2 * a0
    r1 = (-a1 - mpmath.sqrt(disc)) / (2 * a2)
    r2 = (-a1 + mpmath.sqrt(disc)) / (2 * a2)
    change = 100 * (mbm / mam - 1)
    lo, hi = 100 * (r1 - 1), 100 * (r2 - 1)
    res.update(t=t, df=df, p=p, change=change, lo=lo, hi=hi)
    # The verdict, away from every boundary.
    for edge in (lo + eq, hi - eq, lo, hi):
        assert abs(edge) > 1e-6, "verdict on a boundary"
    assert abs(p - alpha) > 1e-9
    if lo >= -eq and hi <= eq:
        v = "equivalent"
    elif p < alpha and (lo > 0 or hi < 0):
        worse = diff < 0 if better == "higher" else diff > 0
        v = "regression" if worse else "improvement"
    else:
        v = "inconclusive"
    res["verdict"] = v
    return res


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, int):
        return str(v)
    return repr(float(v))


def side_line(name, spec):
    if spec[0] == "form":
        return "side %s form %s" % (name, " ".join(fmt(v) for v in spec[1:]))
    grp, x = spec[1], spec[2]
    return "side %s list %d %s" % (name, len(x), " ".join(
        "%d:%r" % (g, v) for g, v in zip(grp, x)))


def materialise(spec):
    if spec[0] == "form":
        return form(*spec[1:])
    return spec[1], spec[2]


def listed(sizes, values, ids=None):
    grp = []
    for j, r in enumerate(sizes):
        grp += [ids[j] if ids else j] * r
    assert len(grp) == len(values)
    return ("list", grp, [float(v) for v in values])


def simulated(rng, nboots, runs, mu, tau, sigma, ids=None):
    vals = []
    for j in range(nboots):
        r = runs[j] if isinstance(runs, list) else runs
        b = mu + tau * rng.standard_normal()
        vals += list(b + sigma * rng.standard_normal(r))
    sizes = runs if isinstance(runs, list) else [runs] * nboots
    return listed(sizes, vals, ids)


def cases():
    rng = np.random.default_rng(20261130)
    # Hand-made: 3 boots x 3 runs against 3 boots x 2 runs.
    yield ("hand", "lower", 0.95, 1.0, 10.0,
           listed([3, 3, 3], [10.1, 10.3, 10.2, 11.05, 10.95, 11.0,
                              10.52, 10.61, 10.49]),
           listed([2, 2, 2], [11.31, 11.42, 11.9, 11.83, 11.22, 11.18]))
    # Balanced, a 3% regression of a time, boot effect 1%, runs 0.3%.
    yield ("balanced", "lower", 0.95, 1.0, 20.0,
           simulated(rng, 6, 8, 100.0, 1.0, 0.3),
           simulated(rng, 6, 8, 103.0, 1.0, 0.3))
    # Unbalanced boots (1 to 9 runs), throughput, 99%.
    yield ("unbalanced", "higher", 0.99, 1.0, 5.0,
           simulated(rng, 5, [3, 7, 1, 5, 9], 5000.0, 40.0, 25.0),
           simulated(rng, 4, [2, 6, 4, 1], 4800.0, 40.0, 25.0))
    # Boot indices from a store: not from 0, with gaps.
    yield ("gaps", "lower", 0.90, 0.5, 3.0,
           simulated(rng, 4, [2, 3, 2, 4], 1.5, 0.02, 0.01,
                     ids=[3, 7, 8, 20]),
           simulated(rng, 3, [3, 3, 2], 1.45, 0.02, 0.01,
                     ids=[4, 5, 11]))
    # One side in a single boot: runs are the units.
    yield ("single_base", "lower", 0.95, 1.0, 10.0,
           simulated(rng, 1, 8, 7.2, 0.1, 0.02),
           simulated(rng, 3, 4, 7.0, 0.1, 0.02))
    yield ("single_both", "lower", 0.95, 1.0, 10.0,
           simulated(rng, 1, 10, 7.2, 0.1, 0.02),
           simulated(rng, 1, 12, 7.25, 0.1, 0.02))
    # No spread within boots: every run of a boot equal.
    zb = [float(v) for v in 3.0 + 0.05 * rng.standard_normal(4)]
    zn = [float(v) for v in 3.3 + 0.05 * rng.standard_normal(3)]
    yield ("zero_within", "lower", 0.95, 1.0, 10.0,
           listed([3, 2, 4, 3], [zb[0]] * 3 + [zb[1]] * 2 + [zb[2]] * 4 +
                  [zb[3]] * 3),
           listed([2, 2, 5], [zn[0]] * 2 + [zn[1]] * 2 + [zn[2]] * 5))
    # No spread between boots beyond the runs': T_2^2 < 0 is possible.
    yield ("no_boot_effect", "lower", 0.95, 2.0, 10.0,
           simulated(rng, 5, 6, 50.0, 0.0, 0.5),
           simulated(rng, 5, 6, 50.1, 0.0, 0.5))
    # One run per boot: within-boot variance undefined.
    yield ("one_run_each", "higher", 0.95, 1.0, 10.0,
           simulated(rng, 7, 1, 200.0, 3.0, 1.0),
           simulated(rng, 6, 1, 180.0, 3.0, 1.0))
    # Tight, tiny change: equivalent.
    yield ("equivalent", "lower", 0.95, 1.0, 10.0,
           simulated(rng, 12, 5, 1000.0, 0.5, 0.5),
           simulated(rng, 12, 5, 1000.2, 0.5, 0.5))
    # Printed to 0.01: the resolution floor of verdict.h applies to the
    # boot means when they all lie on the grid (one run per boot).
    yield ("grid", "lower", 0.95, 1.0, 10.0,
           listed([1, 1, 1], [7.02, 7.02, 7.02]),
           listed([1, 1, 1], [7.05, 7.05, 7.05]))
    # A large common offset: nanoseconds since some epoch.
    yield ("offset", "lower", 0.95, 1.0, 10.0,
           simulated(rng, 4, [5, 3, 6, 4], 1e9, 30.0, 10.0),
           simulated(rng, 5, [4, 4, 2, 5, 3], 1e9 + 120.0, 30.0, 10.0))
    # Large: 20 and 25 boots of 100000 runs in all, from the recipe.
    yield ("large", "lower", 0.95, 1.0, 50.0,
           ("form", 100000, 20, 7919, 0.5, 10.0, 37, 0.2),
           ("form", 100000, 25, 6007, 0.5, 10.2, 53, 0.2))
    yield ("large_single", "lower", 0.95, 1.0, 50.0,
           ("form", 100000, 1, 7919, 0.5, 10.0, 37, 0.2),
           ("form", 100001, 3, 6007, 0.5, 10.002, 53, 0.2))


def main():
    out = ["# generated by tests/stats/gen_nested.py; do not edit"]
    for name, better, conf, eq, cost, sa, sb in cases():
        ga, xa = materialise(sa)
        gb, xb = materialise(sb)
        da, db = desc(ga, xa, cost), desc(gb, xb, cost)
        single = int(da["g"] < 2 or db["g"] < 2)
        if single:
            ua, ub = xa, xb
        else:
            ua, ub = da["means"], db["means"]
        c = welch_fieller(ua, ub, conf, eq, better)
        out.append("case %s %s %r %r %r" % (name, better, conf, eq, cost))
        out.append(side_line("base", sa))
        out.append(side_line("new", sb))
        for nm, d in (("base", da), ("new", db)):
            out.append("desc %s %d %d %d %d %s %s %s %s %s %s" % (
                nm, d["n"], d["g"], d["rmin"], d["rmax"], fmt(d["mean"]),
                fmt(d["var_means"]), fmt(d["var_within"]),
                fmt(d["var_between"]), fmt(d["icc"]), fmt(d["ropt"])))
        if c["tested"]:
            out.append("cmp %d 1 %s %s %s %s %s %s %s %s %s" % (
                single, fmt(c["mean_a"]), fmt(c["mean_b"]), fmt(c["t"]),
                fmt(c["df"]), fmt(c["p"]), fmt(c["change"]), fmt(c["lo"]),
                fmt(c["hi"]), c["verdict"]))
        else:
            out.append("cmp %d 0 %s %s - - - - - - inconclusive" % (
                single, fmt(c["mean_a"]), fmt(c["mean_b"])))
        out.append("end")
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
