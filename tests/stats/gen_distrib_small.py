#!/usr/bin/python3
"""Reference values at small degrees of freedom, and the polygamma functions.

Writes tests/stats/data/distrib_small.txt, read by test_distrib.c with the
format of distrib.txt (`FUNC ARG... EXPECTED`), every value from mpmath at
50 digits (no scipy: it is the reference itself that is checked here):

  t_sf_small T DF P          P(T > t) for df 1 to 6, 1.5, 2.5 and 0.5 on a
                             dense grid of t from 1e-3 to 1e3 (issue 12:
                             the continued fraction of the incomplete beta
                             never met its tolerance for about one t in
                             2000 at df = 2, and the t test gave NaN);
  t_cdf_small T DF P         the same, lower tail, at negative t;
  t_ppf_small P DF T         quantiles at the same df but 0.5 (by
                             bisection on the sf to 40 digits);
  betainc_small A B X I      I_x(a, b) for the (a, b) the t functions use at
                             small df, and a few more, on a dense x grid;
  digamma X V, trigamma X V, tetragamma X V
                             psi, psi' and psi'' (limma's squeezeVar and
                             fitFDist, src/stats/moderated.c), x from 1e-6
                             to 1e7 and the half-integers df / 2.

The grid is fixed, so rerunning it leaves `git diff` empty.  Run from the
repository root:
  /usr/bin/python3 tests/stats/gen_distrib_small.py > tests/stats/data/distrib_small.txt
"""
import mpmath as mp

mp.mp.dps = 50


def fmt(v):
    return repr(float(v))


def t_sf(t, df):
    t = mp.mpf(t)
    df = mp.mpf(df)
    x = df / (df + t * t)
    half = mp.betainc(df / 2, mp.mpf(1) / 2, 0, x, regularized=True) / 2
    return half if t >= 0 else 1 - half


def main():
    out = []
    dfs = [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6]
    ts = sorted(set([float(mp.mpf(10) ** (mp.mpf(i) / 60 - 3))
                     for i in range(0, 361)]))
    # The t of issue 12's repro (0.00065 0.000778 against 0.000636
    # 0.000623, Student's t, df 2).
    ts.append(1.313555257676698)
    for df in dfs:
        for t in ts:
            out.append("t_sf_small %s %s %s" % (fmt(t), fmt(df),
                                                 fmt(t_sf(t, df))))
        for t in ts[::7]:
            out.append("t_cdf_small %s %s %s" % (fmt(-t), fmt(df),
                                                  fmt(t_sf(t, df))))
    for df in dfs[1:]:
        for p in [1e-6, 1e-4, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2,
                  0.3, 0.4, 0.45, 0.55, 0.6, 0.7, 0.8, 0.9, 0.95, 0.975,
                  0.99, 0.995, 0.999, 0.9999]:
            pm = mp.mpf(p)
            # Solve P(T <= t) = p, starting from the right side of 0.
            f = lambda t: (1 - t_sf(t, df)) - pm
            lo, hi = mp.mpf(-1e12), mp.mpf(1e12)
            for _ in range(400):
                mid = (lo + hi) / 2
                if f(mid) < 0:
                    lo = mid
                else:
                    hi = mid
                if hi - lo < mp.mpf(10) ** -40 * max(1, abs(mid)):
                    break
            out.append("t_ppf_small %s %s %s" % (fmt(p), fmt(df),
                                                  fmt((lo + hi) / 2)))
    pairs = [(1, 0.5), (0.5, 1), (1, 1), (1.5, 0.5), (0.5, 1.5), (2, 0.5),
             (0.5, 0.5), (0.25, 0.5), (3, 0.5), (2.5, 0.5), (1, 2)]
    xs = [i / 997.0 for i in range(1, 997)]
    for a, b in pairs:
        for x in xs:
            v = mp.betainc(a, b, 0, x, regularized=True)
            out.append("betainc_small %s %s %s %s" % (fmt(a), fmt(b),
                                                       fmt(x), fmt(v)))
    xg = sorted(set([float(mp.mpf(10) ** (mp.mpf(i) / 20 - 6))
                     for i in range(0, 261)] +
                    [k / 2.0 for k in range(1, 41)] + [1.4616321449683622]))
    for x in xg:
        out.append("digamma %s %s" % (fmt(x), fmt(mp.digamma(x))))
        out.append("trigamma %s %s" % (fmt(x), fmt(mp.psi(1, x))))
        out.append("tetragamma %s %s" % (fmt(x), fmt(mp.psi(2, x))))
    print("# written by tests/stats/gen_distrib_small.py (mpmath %s, 50 "
          "digits)" % mp.__version__)
    print("\n".join(out))


main()
