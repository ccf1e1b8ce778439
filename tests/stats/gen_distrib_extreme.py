#!/usr/bin/python3
"""Reference values at extreme arguments (issue 12), from mpmath only.

Writes tests/stats/data/distrib_extreme.txt, read by test_distrib.c with
the format of distrib.txt (`FUNC ARG... EXPECTED`):

  t_sf_x T DF P, t_cdf_x T DF P
        Student's t at subnormal, tiny and huge degrees of freedom (df from
        the smallest subnormal, 5e-324, to 1e31) and t from 1e-300 to the
        largest double (issue 12: pr_t_cdf(3, 2.8e-310) was -inf);
  t_ppf_x P DF T
        its quantiles at the small df, by bisection on the incomplete beta in
        log(-log x) (x = df / (df + t^2)) to 40 digits; inf where the
        quantile is beyond the largest double;
  betainc_x A B X I, betainc_c_x A B X I
        I_x(a, b) and its complement with a or b subnormal or tiny;
  lbeta_x A B V   log B(a, b) there;
  norm_cdf_x X P, norm_ppf_x P X
        the normal's far tails down to subnormal probabilities;
  digamma_x X V, trigamma_x X V, tetragamma_x X V
        polygamma at subnormal and huge x (+-inf where the value is
        beyond the largest double).

With --tails it writes tests/stats/data/distrib_tails.txt instead (about a
minute):

  betainc_t A B X I, betainc_c_t A B X I
        I_x(a, b) and its complement with a from 1e-3 down to 1e-20 and b
        from 1e-20 to 1e6, at x on both sides of the continued fraction's
        limit (a + 1) / (a + b + 2): the value near 1 and the small
        complement, which 1 - I loses (perfreg's series for a tiny a);
  t_sf_h T DF P, t_cdf_h T DF P
        Student's t above df 1e31, where the incomplete beta's series
        does not converge within mpmath's limits: by quadrature of the
        density (1 + s^2/df)^(-(df+1)/2) itself, normalised by its
        integral over [0, inf), checked against the incomplete beta at
        df 1e6 and 1e12 (the script stops if they differ beyond 1e-20;
        they agree to 3e-27).

mpmath gives up on a few cases (a huge df with t beyond about 10, where its
series needs millions of terms): they are left out and named on stderr.
The grid is fixed, so rerunning it leaves `git diff` empty.  Run from the
repository root (about 15 minutes):
  /usr/bin/python3 tests/stats/gen_distrib_extreme.py > tests/stats/data/distrib_extreme.txt
  /usr/bin/python3 tests/stats/gen_distrib_extreme.py --tails > tests/stats/data/distrib_tails.txt
"""
import sys
import mpmath as mp

mp.mp.dps = 60
HALF = mp.mpf(1) / 2


def D(s):
    """The double that the test reads for s, exactly (5e-324 is
    4.94e-324, 0.999999 is not 1 - 1e-6)."""
    return mp.mpf(float(s))


def fmt(v):
    return repr(float(v))


def ibeta(a, b, x, y):
    """I_x(a, b) and 1 - I_x(a, b), y = 1 - x: the hypergeometric series
    on the side below 1/2, where it converges fast, and the other side as
    its complement, recomputed with as many more digits as the complement
    is small (values down to 1e-330 keep 40 digits)."""
    a, b, x, y = mp.mpf(a), mp.mpf(b), mp.mpf(x), mp.mpf(y)
    swap = x > HALF
    if swap:
        a, b, x = b, a, y
    i = mp.betainc(a, b, 0, x, regularized=True)
    c = 1 - i
    if c < mp.mpf(10) ** -20:
        digits = int(-mp.log10(c)) + 60 if c > 0 else 400
        with mp.workdps(digits):
            c = 1 - mp.betainc(a, b, 0, x, regularized=True)
    return (c, i) if swap else (i, c)


def betainc(a, b, x):
    return ibeta(a, b, x, 1 - mp.mpf(x))[0]


def betainc_c(a, b, x):
    return ibeta(a, b, x, 1 - mp.mpf(x))[1]


def t_sf(t, df):
    """P(T > t) = I_x(df/2, 1/2) / 2, x = df / (df + t^2), y = 1 - x."""
    t = D(t)
    df = D(df)
    x = df / (df + t * t)
    y = t * t / (df + t * t)
    half = ibeta(df / 2, HALF, x, y)[0] / 2
    return half if t >= 0 else 1 - half


def t_ppf(p, df):
    """The t with P(T <= t) = p: solves I_x(df/2, 1/2) = 2q for x."""
    p = D(p)
    df = D(df)
    q = p if p < HALF else 1 - p
    if q == HALF:
        return mp.mpf(0)
    target = 2 * q

    def low(s):
        # Whether I_x < target at log x = -exp(s).
        lx = -mp.exp(s)
        return ibeta(df / 2, HALF, mp.exp(lx), -mp.expm1(lx))[0] < target

    lo, hi = mp.mpf(-8), mp.mpf(1)
    while low(lo):
        lo *= 2
    while not low(hi):
        hi *= 2
    for _ in range(300):
        mid = (lo + hi) / 2
        if low(mid):
            hi = mid
        else:
            lo = mid
        if hi - lo < mp.mpf(10) ** -45 * max(1, abs(mid)):
            break
    lx = -mp.exp((lo + hi) / 2)
    x = mp.exp(lx)
    t = mp.sqrt(df) * mp.sqrt(-mp.expm1(lx)) / mp.sqrt(x)
    return t if p > HALF else -t


def case(out, fmtline, *args):
    """Appends one case, or leaves it out (said on stderr) where mpmath's
    series does not converge within its default number of terms."""
    import sys
    try:
        out.append(fmtline % tuple(a() if callable(a) else a for a in args))
    except (mp.libmp.libhyper.NoConvergence, ZeroDivisionError) as e:
        sys.stderr.write("left out: %s %r: %s\n" % (fmtline.split()[0],
                         [a for a in args if not callable(a)], e))


def main():
    out = []
    tiny = ["5e-324", "1e-320", "2.8e-310", "1e-308",
            "2.2250738585072014e-308", "1e-300", "1e-200", "1e-100",
            "1e-30", "1e-10"]
    # Beyond 1e31 mpmath loses the tail (x rounds to 1 at 60 digits).
    huge = ["1e15", "1e20", "1e29", "1e31"]
    ts = ["1e-300", "1e-100", "1e-10", "0.5", "3", "1000", "1e10", "1e100",
          "1e200", "1e300", "1.7976931348623157e308"]
    for df in tiny + huge:
        # At a huge df the series for t beyond 10 needs millions of terms
        # (mpmath gives up); perfreg takes the normal there from 1e30.
        for t in (ts if df in tiny else ts[:5]):
            case(out, "t_sf_x %s %s %s", t, df,
                 lambda: fmt(t_sf(t, df)))
            case(out, "t_cdf_x -%s %s %s", t, df,
                 lambda: fmt(t_sf(t, df)))
            case(out, "t_cdf_x %s %s %s", t, df,
                 lambda: fmt(1 - t_sf(t, df)))
    ps = ["1e-300", "1e-20", "0.01", "0.3", "0.49", "0.51", "0.9",
          "0.999999"]
    for df in ["5e-324", "2.8e-310", "1e-300", "1e-30", "1e-3", "0.1"]:
        for p in ps:
            case(out, "t_ppf_x %s %s %s", p, df,
                 lambda: fmt(t_ppf(p, df)))
    ab = ["5e-324", "1e-310", "1e-300", "1e-100", "1e-10", "0.5", "1", "3",
          "30"]
    xs = ["1e-300", "1e-10", "0.1", "0.5", "0.9", "0.9999999999"]
    for a in ab:
        for b in ab:
            out.append("lbeta_x %s %s %s" % (
                a, b, fmt(mp.log(mp.beta(D(a), D(b))))))
            if float(a) >= 1 and float(b) >= 1:
                continue
            for x in xs:
                am, bm, xm = D(a), D(b), D(x)
                case(out, "betainc_x %s %s %s %s", a, b, x,
                     lambda: fmt(betainc(am, bm, xm)))
                case(out, "betainc_c_x %s %s %s %s", a, b, x,
                     lambda: fmt(betainc_c(am, bm, xm)))
    for x in ["-38.4", "-38", "-37.5", "-30", "38.4"]:
        out.append("norm_cdf_x %s %s" % (x, fmt(mp.ncdf(D(x)))))
    for p in ["5e-324", "1e-320", "1e-310", "2.2250738585072014e-308",
              "1e-300"]:
        pm = D(p)
        x = mp.findroot(lambda z: mp.log(mp.ncdf(z)) - mp.log(pm), -37)
        out.append("norm_ppf_x %s %s" % (p, fmt(x)))
    for x in ["5e-324", "1e-320", "1e-310", "1e-300", "1e-200", "1e100",
              "1e200", "1e300", "1.7976931348623157e308"]:
        xm = D(x)
        out.append("digamma_x %s %s" % (x, fmt(mp.digamma(xm))))
        out.append("trigamma_x %s %s" % (x, fmt(mp.psi(1, xm))))
        out.append("tetragamma_x %s %s" % (x, fmt(mp.psi(2, xm))))
    print("# written by tests/stats/gen_distrib_extreme.py (mpmath %s, 60 "
          "digits and more)" % mp.__version__)
    print("\n".join(out))


def quad_fine(g, lo, step, k):
    """The integral of g over [lo, lo + k step] as k Gauss-Legendre pieces:
    tanh-sinh over a few long pieces was off by 1e-11 at t 30, df 1e6."""
    return mp.quad(g, [lo + i * step for i in range(k + 1)],
                   method="gauss-legendre")


def t_sf_quad(t, df):
    """P(T > t) by quadrature of the density's kernel, normalised by its
    integral over [0, inf): no incomplete beta, no gamma function.  The
    kernel is below exp(-s^2 / 2) times a constant near 1, so [0, 64] holds
    all of the integral but exp(-2048), and the tail from t > 1 (which falls
    off on a scale of 1 / t) all but exp(-256) within 256 / t of t."""
    t, df = D(t), D(df)
    e = (df + 1) / 2

    def g(s):
        return mp.exp(-e * mp.log1p(s * s / df))
    total = quad_fine(g, 0, mp.mpf(1) / 8, 512)
    if t <= 1:
        return (1 - quad_fine(g, 0, t / 8, 8) / total) / 2
    return quad_fine(g, t, 1 / (8 * t), 2048) / total / 2


def tails():
    out = []
    # The quadrature against the incomplete beta where both converge.
    for df in ["1e6", "1e12"]:
        for t in ["1e-10", "0.5", "3", "30"]:
            q, b = t_sf_quad(t, df), t_sf(t, df)
            if abs(q - b) > mp.mpf(10) ** -20 * b:
                sys.exit("quadrature and incomplete beta differ at t %s "
                         "df %s: %s %s" % (t, df, q, b))
    for df in ["1e32", "1e40", "1e100", "1e200", "1e300",
               "1.7976931348623157e308"]:
        for t in ["1e-300", "1e-10", "0.5", "3", "10", "30", "37"]:
            p = t_sf_quad(t, df)
            out.append("t_sf_h %s %s %s" % (t, df, fmt(p)))
            out.append("t_cdf_h -%s %s %s" % (t, df, fmt(p)))
            out.append("t_cdf_h %s %s %s" % (t, df, fmt(1 - p)))
    a_s = ["0.01", "2e-3", "1e-3", "3e-4", "1e-4", "5e-5", "2e-5", "1e-5",
           "3e-6", "1e-6", "1e-8", "1e-12",
           "1e-15", "1e-20"]
    b_s = ["1e-20", "1e-6", "0.01", "0.5", "1", "3", "30", "1000", "1e4",
           "1e6"]
    fr = ["1e-300", "1e-10", "0.001", "0.1", "0.5", "0.9", "0.999"]
    for a in a_s:
        for b in b_s:
            am, bm = D(a), D(b)
            if am > bm:
                continue
            lim = float((am + 1) / (am + bm + 2))
            for f in fr:
                x = repr(lim * float(f))
                xm = D(x)
                # x on the series' side, and the mirror 1 - x with a and
                # b swapped (the same pair of values, the other way).
                out.append("betainc_t %s %s %s %s" % (
                    a, b, x, fmt(betainc(am, bm, xm))))
                out.append("betainc_c_t %s %s %s %s" % (
                    a, b, x, fmt(betainc_c(am, bm, xm))))
                xr = repr(1 - float(xm))
                xrm = D(xr)
                out.append("betainc_t %s %s %s %s" % (
                    b, a, xr, fmt(betainc(bm, am, xrm))))
                out.append("betainc_c_t %s %s %s %s" % (
                    b, a, xr, fmt(betainc_c(bm, am, xrm))))
    print("# written by tests/stats/gen_distrib_extreme.py --tails (mpmath "
          "%s, 60 digits and more)" % mp.__version__)
    print("\n".join(out))


if sys.argv[1:] == ["--tails"]:
    tails()
else:
    main()
