#!/usr/bin/python3
"""Writes tests/stats/data/distrib.txt: reference values for the special
functions of src/stats/distrib.c, computed with scipy.

Run from the repository root with Debian's python3-scipy:

    /usr/bin/python3 tests/stats/gen_distrib_fixtures.py

Each line is `FUNC ARG... EXPECTED`, numbers printed with repr() (the
shortest string that reads back as the same double), so that strtod in the
C test gets exactly the arguments scipy saw:

    norm_cdf X P          scipy.special.ndtr
    norm_sf X P           scipy.stats.norm.sf
    norm_ppf P X          scipy.special.ndtri
    t_cdf T DF P          scipy.special.stdtr
    t_sf T DF P           scipy.stats.t.sf
    t_ppf P DF T          scipy.special.stdtrit
    betainc A B X I       scipy.special.betainc
    betainc_c A B X 1-I   scipy.special.betainc(B, A, 1 - X), with 1 - X exact
    betaincinv A B P X    scipy.special.betaincinv
    lbeta A B L           scipy.special.betaln

When mpmath (Debian python3-mpmath) is installed, every value is also
computed with mpmath at 40 digits, as an independent check of scipy: where
the two differ by more than 1e-13 relative, the mpmath value is written and
a comment line before the case says so (scipy 1.10's cephes routines lose
digits in a few corners, e.g. the t distribution at df >= 1e5).  Without
mpmath the scipy values are written as they are.

Cases whose reference is subnormal (0 < |v| < 1e-300) are left out: there
no routine can promise relative accuracy.  A reference of exactly 0 (an
underflow) is kept: the C test then wants a result below 1e-300.
"""

import math
import os
import sys
from fractions import Fraction

import numpy as np
import scipy
import scipy.special as sc
import scipy.stats as st

try:
    import mpmath
    mpmath.mp.dps = 40
except ImportError:  # pragma: no cover
    mpmath = None

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                   "distrib.txt")
TOL = 1e-13

lines = []
nfixed = 0


def fmt(v):
    return repr(float(v))


def same(u, v, tol):
    return math.isclose(u, v, rel_tol=tol, abs_tol=0) or (
        abs(u) < 1e-300 and abs(v) < 1e-300)


def emit(func, args, scipy_val, mp_val=None, verify=None):
    """Writes one case; prefers the mpmath value when scipy is off.  Such
    an mpmath value must then agree with verify() (an independent method,
    quadrature) to 1e-13, or the script stops."""
    global nfixed
    v = float(scipy_val)
    if mp_val is not None:
        m = float(mp_val)
        if not same(v, m, TOL):
            if verify is not None:
                q = float(verify())
                if not same(q, m, 1e-13):
                    raise SystemExit("%s %r: scipy %r, mpmath %r, "
                                     "quadrature %r" % (func, args, v, m, q))
            lines.append("# %s %s: scipy %s, mpmath %s (used)" % (
                func, " ".join(fmt(a) for a in args), fmt(v), fmt(m)))
            nfixed += 1
            v = m
    if v != 0 and abs(v) < 1e-300:
        return
    if math.isnan(v):
        raise SystemExit("NaN reference for %s %r" % (func, args))
    lines.append("%s %s %s" % (func, " ".join(fmt(a) for a in args), fmt(v)))


def mpf(x):
    if isinstance(x, mpmath.mpf):
        return x
    return mpmath.mpf(float(x))


# ---- mpmath references --------------------------------------------------

def mp_cf(a, b, x):
    """I_x(a, b) for an exact mpf x; see mp_cf_log."""
    with mpmath.workdps(60):
        return mp_cf_log(a, b, mpmath.log(x), mpmath.log1p(-x))


def mp_cf_log(a, b, lx, ly):
    """I_x(a, b) given lx = log x and ly = log(1 - x) (so that x within
    1e-100 of 1 is still exact), by the continued fraction of A&S 26.5.8,
    evaluated by Lentz's method in 60-digit arithmetic on the side where
    it converges (x < (a + 1) / (a + b + 2)), with I_x(a, b) = 1 -
    I_{1-x}(b, a) on the other side.  mpmath.betainc is not used: its
    hypergeometric series silently returns wrong values for a = b = 1e4."""
    with mpmath.workdps(60):
        x = mpmath.exp(lx)
        if x > (a + 1) / (a + b + 2):
            return 1 - mp_cf_log(b, a, ly, lx)
        tiny = mpmath.mpf(10) ** -300
        eps = mpmath.mpf(10) ** -50
        g, c, d = mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(0)
        for j in range(1, 10 ** 7):
            m = j // 2
            if j % 2 == 0:
                num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            else:
                num = -(a + m) * (a + b + m) * x / ((a + 2 * m) *
                                                     (a + 2 * m + 1))
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            g *= c * d
            if abs(c * d - 1) < eps:
                break
        else:
            raise SystemExit("no convergence for I_%s(%s, %s)" % (x, a, b))
        lp = a * lx + b * ly - mp_lbeta(a, b)
        return +(mpmath.exp(lp) / (a * g))


def mp_quad(a, b, x):
    """I_x(a, b) by tanh-sinh quadrature of the beta density, split around
    its mode: an independent check of mp_cf where scipy disagrees.  For
    a < 1 the singularity t^(a-1) at 0 is removed by t = u^(1/a)."""
    a, b, x = mpf(a), mpf(b), mpf(x)
    if x > a / (a + b):
        return 1 - mp_quad(b, a, 1 - x)
    lb = mp_lbeta(a, b)
    mode = (a - 1) / (a + b - 2) if a > 1 and b > 1 else x / 2
    sd = mpmath.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    pts = [mpmath.mpf(0)]
    for k in range(-40, 41):
        t = mode + k * sd / 2
        if pts[-1] < t < x:
            pts.append(t)
    pts.append(x)
    if a < 1:
        # dt t^(a-1) = du / a with u = t^a.
        def lf(u):
            return (b - 1) * mpmath.log1p(-u ** (1 / a)) - lb - mpmath.log(a)
        pts = [t ** a for t in pts]
    else:
        def lf(t):
            return (a - 1) * mpmath.log(t) + (b - 1) * mpmath.log1p(-t) - lb
    # quad's tolerance is absolute: integrate exp(lf - c), with c the
    # largest log density at the breakpoints, and scale back.
    c = max(lf(t) for t in pts[1:])
    return mpmath.exp(c) * mpmath.quad(lambda t: mpmath.exp(lf(t) - c), pts)


def mp_ibeta(a, b, x):
    """I_x(a, b) with x an exact mpf; both ends accurate."""
    a, b = mpf(a), mpf(b)
    if x <= 0:
        return mpmath.mpf(0)
    if x >= 1:
        return mpmath.mpf(1)
    return mp_cf(a, b, x)


def mp_ibetac(a, b, x):
    """1 - I_x(a, b) as I_{1-x}(b, a); 1 - x is exact in mpmath."""
    return mp_ibeta(b, a, 1 - x)


def mp_lbeta(a, b):
    """log B(a, b), with enough digits for the cancellation of huge
    log Gamma terms."""
    a, b = mpf(a), mpf(b)
    extra = int(mpmath.log10(a + b + 10)) + 10
    with mpmath.workdps(mpmath.mp.dps + extra):
        return mpmath.loggamma(a) + mpmath.loggamma(b) - \
            mpmath.loggamma(a + b)


def mp_t_sf(t, df):
    t, df = mpf(t), mpf(df)
    if t == 0:
        return mpmath.mpf(0.5)
    x = df / (df + t * t)
    tail = mp_ibeta(df / 2, mpmath.mpf(0.5), x) / 2
    return tail if t > 0 else 1 - tail


def mp_norm_sf(x):
    return mpmath.erfc(mpf(x) / mpmath.sqrt(2)) / 2


def polish_t_ppf(p, df, t0):
    """Newton steps in mpmath on cdf(t) = p from scipy's t0."""
    if not math.isfinite(t0) or t0 == 0:
        return t0
    t, dfm, pm = mpf(t0), mpf(df), mpf(p)
    lb = mp_lbeta(dfm / 2, mpmath.mpf(0.5))
    for _ in range(6):
        cdf = 1 - mp_t_sf(t, df) if t > 0 else mp_t_sf(-t, df)
        # Work in the smaller tail for relative accuracy.
        if pm < 0.5:
            g, target = cdf, pm
        else:
            g, target = 1 - cdf, 1 - pm
        pdf = mpmath.exp(-lb - (dfm + 1) / 2 * mpmath.log1p(t * t / dfm)) \
            / mpmath.sqrt(dfm)
        step = (g - target) / pdf
        t = t - step if pm < 0.5 else t + step
        if abs(step) < abs(t) * mpmath.mpf(10) ** -30:
            break
    return t


def mp_inv_lower(a, b, p, u0):
    """The u = log x with I_x(a, b) = p (p <= 0.5), in mpmath: bracketed
    Newton steps in u from u0, scipy's answer (or a rough guess when u0 is
    None), the bracket grown outwards until the sign of the residual
    changes.  Returns an mpf."""
    am, bm, lp = mpf(a), mpf(b), mpmath.log(mpf(p))
    lb = mp_lbeta(am, bm)

    def g(u):
        with mpmath.workdps(60):
            ly = mpmath.log(-mpmath.expm1(u))
            li = mpmath.log(mp_cf_log(am, bm, u, ly))
            dl = mpmath.exp(am * u + (bm - 1) * ly - lb - li)
        return li - lp, dl

    if u0 is not None and u0 < 0:
        u = u0
    else:
        u = (lp + mpmath.log(am) + lb) / am
        if u >= 0:
            u = mpmath.mpf(-1)
    fu, dl = g(u)
    # Grow a bracket [lo, hi] around the root.
    d = mpmath.mpf(10) ** -9 * max(1, abs(u))
    lo = hi = u
    flo = fhi = fu
    while flo > 0:
        lo = lo - d
        d *= 4
        flo, _ = g(lo)
    d = mpmath.mpf(10) ** -9 * max(1, abs(u))
    while fhi < 0:
        # Towards u = 0 (x = 1) geometrically once a step would reach it.
        hi = hi + d if hi + d < 0 else hi / 16
        d *= 4
        fhi, _ = g(hi)
    for _ in range(200):
        if fu == 0:
            return u
        step = fu / dl
        un = u - step
        if not lo < un < hi:
            un = (lo + hi) / 2
        if abs(un - u) < mpmath.mpf(10) ** -35 * max(1, abs(u)):
            return un
        u = un
        fu, dl = g(u)
        if fu < 0:
            lo = u
        else:
            hi = u
    raise SystemExit("betaincinv(%r, %r, %r): no convergence" % (a, b, p))


def mp_betaincinv(a, b, p, x0):
    """x with I_x(a, b) = p, solving for the smaller tail side."""
    if p <= 0.5:
        u0 = mpmath.log(mpf(x0)) if 0 < x0 < 1 else None
        return mpmath.exp(mp_inv_lower(a, b, p, u0))
    # Solve for y = 1 - x, starting from log(1 - x0) computed exactly.
    u0 = mpmath.log1p(-mpf(x0)) if 0 < x0 < 1 else None
    return -mpmath.expm1(mp_inv_lower(b, a, 1 - mpf(p), u0))


# ---- the grids ------------------------------------------------------------

def gen_norm():
    xs = [0.0, 1e-300, 1e-10, 0.1, 0.5, 1.0, 1.2815515655446004,
          1.6448536269514722, 1.959963984540054, 2.5, 3.0, 4.0, 5.0, 6.5,
          8.0, 10.0, 12.5, 15.0, 20.0, 26.0, 30.0, 35.0, 37.0]
    for x in xs + [-x for x in xs if x != 0]:
        m = None
        if mpmath:
            m = 1 - mp_norm_sf(x) if x > 0 else mp_norm_sf(-x)
        emit("norm_cdf", [x], sc.ndtr(x), m)
        emit("norm_sf", [x], st.norm.sf(x), mp_norm_sf(x) if mpmath else None)
    ps = [1e-300, 1e-200, 1e-100, 1e-50, 1e-20, 1e-15, 1e-12, 1e-10, 1e-8,
          1e-6, 1e-4, 1e-3, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3,
          0.35, 0.4, 0.45, 0.49, 0.4999999, 0.5]
    ps = ps + [1 - p for p in ps if p >= 1e-15 and p != 0.5]
    for p in ps:
        v = sc.ndtri(p)
        m = None
        if mpmath and p != 0.5:
            m = float(polish_norm_ppf(p, v))
        emit("norm_ppf", [p], v, m)


def polish_norm_ppf(p, x0):
    x, pm = mpf(x0), mpf(p)
    for _ in range(6):
        if pm < 0.5:
            g = mp_norm_sf(-x) - pm
        else:
            g = (1 - pm) - mp_norm_sf(x)
        pdf = mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)
        step = g / pdf
        x -= step
        if abs(step) < abs(x) * mpmath.mpf(10) ** -30:
            break
    return x


DFS = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.3, 10.0, 15.5, 30.0, 100.0,
       1000.0, 12345.6, 1e5, 1e6, 1e8, 1e12]
# The cdf also at a df far below 1, where t quantiles leave the doubles.
DFS_CDF = [0.05] + DFS


def gen_t():
    ts = [0.0, 1e-8, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.0, 10.0,
          20.0, 50.0, 100.0, 300.0, 1000.0]
    for df in DFS_CDF:
        for t in ts + [-t for t in ts if t != 0]:
            m = mp_t_sf(t, df) if mpmath else None
            emit("t_sf", [t, df], st.t.sf(t, df), m)
            mc = mp_t_sf(-t, df) if mpmath else None
            emit("t_cdf", [t, df], sc.stdtr(df, t), mc)
    ps = [1e-15, 1e-12, 1e-9, 1e-6, 1e-4, 1e-3, 0.005, 0.01, 0.025, 0.05,
          0.1, 0.2, 0.3, 0.4, 0.45, 0.4999]
    ps = ps + [1 - p for p in ps]
    for df in DFS:
        for p in ps:
            v = sc.stdtrit(df, p)
            m = float(polish_t_ppf(p, df, v)) if mpmath else None
            emit("t_ppf", [p, df], v, m)


ABS = [1e-3, 0.01, 0.1, 0.5, 1.0, 2.5, 10.0, 50.0, 100.0, 1000.0, 1e4]


def xs_for(a, b):
    xs = [1e-10, 1e-5, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999,
          1 - 1e-5, 1 - 1e-10]
    mean = a / (a + b)
    sd = math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    for k in (-5, -2, 0, 2, 5):
        x = mean + k * sd
        if 0 < x < 1:
            xs.append(x)
    return sorted(set(xs))


def exact_complement(x):
    return Fraction(1) - Fraction(x) == Fraction(1 - x)


def gen_betainc():
    for a in ABS:
        for b in ABS:
            for x in xs_for(a, b):
                m = mp_ibeta(a, b, mpf(x)) if mpmath else None
                emit("betainc", [a, b, x], sc.betainc(a, b, x), m,
                     lambda: mp_quad(a, b, x))
                if exact_complement(x):
                    m = mp_ibetac(a, b, mpf(x)) if mpmath else None
                    emit("betainc_c", [a, b, x], sc.betainc(b, a, 1 - x), m,
                         lambda: mp_quad(b, a, 1 - mpf(x)))
            for x in (0.0, 1.0):
                emit("betainc", [a, b, x], sc.betainc(a, b, x))
                emit("betainc_c", [a, b, x], 1 - sc.betainc(a, b, x))
            m = mp_lbeta(a, b) if mpmath else None
            emit("lbeta", [a, b], sc.betaln(a, b), m)
    for a, b in ((1e5, 1e5), (1e6, 3.0), (0.5, 1e7), (1e8, 1e8),
                 (123.4, 5678.9), (1e-5, 1e-5), (1e300, 2.0)):
        m = mp_lbeta(a, b) if mpmath else None
        emit("lbeta", [a, b], sc.betaln(a, b), m)


def gen_betaincinv():
    ps = [1e-12, 1e-6, 1e-3, 0.05, 0.3, 0.5, 0.7, 0.95, 1 - 1e-3, 1 - 1e-6,
          1 - 1e-12]
    for a in ABS:
        for b in ABS:
            for p in ps:
                v = float(sc.betaincinv(a, b, p))
                m = None
                if mpmath:
                    m = float(mp_betaincinv(a, b, p, v))
                emit("betaincinv", [a, b, p], v, m)


def main():
    gen_norm()
    gen_t()
    gen_betainc()
    gen_betaincinv()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("# Reference values for tests/stats/test_distrib.c, written"
                " by tests/stats/gen_distrib_fixtures.py\n")
        f.write("# scipy %s, numpy %s, mpmath %s; FUNC ARG... EXPECTED\n" % (
            scipy.__version__, np.__version__,
            mpmath.__version__ if mpmath else "absent"))
        for line in lines:
            f.write(line + "\n")
    ncases = sum(1 for x in lines if not x.startswith("#"))
    print("%s: %d cases, %d scipy values replaced by mpmath" % (
        OUT, ncases, nfixed), file=sys.stderr)


if __name__ == "__main__":
    main()
