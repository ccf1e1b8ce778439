#!/usr/bin/python3
"""tests/bisect/gen_bisect_fixtures.py - reference posteriors for
src/bisect/bisect.c, computed a second, independent way.

Writes tests/bisect/data/posterior.txt (run from the repository root:
/usr/bin/python3 tests/bisect/gen_bisect_fixtures.py; a few seconds).

The C code fits the t levels by EM and integrates the segmentations with a
Kalman filter over prefix sums.  Here the same model (perfreg/bisect.h) is
computed without either: the levels and the scale solve the fit's
estimating equations with scipy.optimize.fsolve, and each hypothesis'
marginal likelihood is the dense Gaussian integral

    m ~ N(1 a + X d, diag(v)),  d ~ N(0, tau^2 I),  a flat,
    => int N(m; 1 a, C) da with C = diag(v) + tau^2 X X^T,

tau = max(step_sd, |m_n - m_0|), the ends' change as fitted,

in closed form (numpy.linalg), X having one column per step (a step
column is 1 at the tested commits at or after it).  Two steps between the
same two tested commits are one column of variance 2 tau^2.

Samples in rounds (the "yr" lines: value, round pairs): every round of two
or more samples gets an effect u_r (used while n - T - R >= 1).  Random
effects (the default of perfreg/bisect.h; fit_random below): u_r ~ N(0,
t) with t estimated, solved nested (fsolve at a given t, brentq for t).
Fixed effects (`case` lines ending in 1, pr_bisect_opts.fixed_rounds):
the fit solves, besides the commits' equations, sum over the round's
samples of w (y - m_j - u_r) = 0 per round, with the scale's degrees of
freedom n - T - R; when every sample is in a round, the first round's
effect is fixed at 0 (levels and effects are known only up to a common
shift, which moves no difference of levels).

A second mode of the noise (`case` lines' last field 2,
pr_bisect_opts.modes; fit_modes below): (1 - p) t(0, s) + p t(d, s)
around each level, kept when its log-likelihood beats the one-mode fit's
by more than ln n.  Its likelihood has several roots (a round whose runs
all fall in the second mode reads as well as a round effect), so the
root is reached as the C reaches it, by EM from the same two starts
(vectorised numpy here, a loop there), and then checked and polished by
fsolve on the score equations, which share nothing with EM; the level's
variance is the inverse of the mixture's Fisher information of a
location, by scipy.integrate.quad on the line (the C: a trapezoid rule
after a change of variable).  Deterministic (fixed seeds).
"""
import math
import os

import numpy as np
from scipy.integrate import quad
from scipy.optimize import brentq, fsolve
from scipy.special import expit, gammaln, logsumexp

OUT = "tests/bisect/data/posterior.txt"


def fit(ys, nu, rds=None, full=False):
    """Levels and scale: sum_i w (y - m_j - u_r) = 0 per commit (and per
    round of two or more samples), and sum w r^2 = (n - T - R) s^2, with
    w = (nu + 1) / (nu + r^2 / s^2)."""
    T = len(ys)
    n = sum(len(y) for y in ys)
    if rds is None:
        rds = [[None] * len(y) for y in ys]
    rounds = round_sets(rds)
    if n - T - len(rounds) < 1:
        rounds = []
    R = len(rounds)
    df = n - T - R
    allin = all(r is not None for rd in rds for r in rd)
    free = rounds[1:] if (allin and R > 0) else rounds
    idx = {r: i for i, r in enumerate(free)}
    F = len(free)
    m0 = [float(np.mean(y)) for y in ys]
    s0 = math.sqrt(sum(float(np.sum((y - m) ** 2)) for y, m in zip(ys, m0)) / df)
    s0 = max(s0, 1e-7)

    def effects(x):
        us = x[T:T + F]
        return [np.array([us[idx[r]] if r in idx else 0.0 for r in rd])
                for rd in rds]

    def eqs(x):
        ms, ls = x[:T], x[T + F]
        s2 = math.exp(2 * ls)
        uu = effects(x)
        out = []
        racc = [0.0] * F
        tot = 0.0
        for y, m, u, rd in zip(ys, ms, uu, rds):
            r = y - m - u
            w = (nu + 1) / (nu + r * r / s2)
            out.append(float(np.sum(w * r)) / s0)
            tot += float(np.sum(w * r * r))
            for wi, ri, rr in zip(w, r, rd):
                if rr in idx:
                    racc[idx[rr]] += wi * ri
        out += [a / s0 for a in racc]
        out.append(tot / (df * s2) - 1)
        return out

    x = fsolve(eqs, m0 + [0.0] * F + [math.log(s0)], xtol=1e-14,
               maxfev=100000)
    res = max(abs(e) for e in eqs(x))
    assert res < 1e-10, res
    if full:
        return list(x[:T]), math.exp(x[T + F]), df, effects(x), R
    return list(x[:T]), math.exp(x[T + F]), df


def round_sets(rds):
    """The rounds of two or more samples."""
    cnt = {}
    for rd in rds:
        for r in rd:
            if r is not None:
                cnt[r] = cnt.get(r, 0) + 1
    rounds = sorted(r for r, c in cnt.items() if c >= 2)
    return rounds


def fit_random(ys, nu, rds):
    """The random round effect (perfreg/bisect.h, the default): u_r ~
    N(0, t), t estimated.  With w = (nu + 1) / (nu + r^2 / s^2) and r = y
    - m_j - u_r, the solution of
        sum_j w (y - m_j - u_r) = 0                      per commit,
        sum_r w (y - m_j - u_r) = u_r s^2 / t            per round,
        sum w r^2 = s^2 (n - T - sum_r h_r),  h_r = W_r t / (W_r t + s^2),
        sum_r (z_r^2 - t - c_r) / (t + c_r)^2 = 0,
    W_r = sum_r w, z_r = sum_r w (y - m_j) / W_r, c_r = s^2 / W_r (the
    likelihood equation of t for z_r ~ N(0, t + c_r)); t = 0 (the unpaired
    fit) when that equation's left side is <= 0 at t = 0.  Solved here
    nested: fsolve for the rest at a given t, brentq for the root in t
    (the C iterates: EM steps, one Fisher scoring step of t each)."""
    T = len(ys)
    n = sum(len(y) for y in ys)
    rounds = round_sets(rds)
    R = len(rounds)
    ms0, s_un, _ = fit(ys, nu)          # the unpaired fit (t = 0)

    def pieces(ms, us, s2):
        W = np.zeros(R)
        S = np.zeros(R)
        tot = 0.0
        ceq = []
        idx = {r: i for i, r in enumerate(rounds)}
        for y, m, rd in zip(ys, ms, rds):
            u = np.array([us[idx[r]] if r in idx else 0.0 for r in rd])
            res = y - m - u
            w = (nu + 1) / (nu + res * res / s2)
            ceq.append(float(np.sum(w * res)))
            tot += float(np.sum(w * res * res))
            for wi, yi, rr in zip(w, y - m, rd):
                if rr in idx:
                    W[idx[rr]] += wi
                    S[idx[rr]] += wi * yi
        return W, S, tot, ceq

    if R == 0 or n - T - R < 1:
        return ms0, s_un, n - T, 0.0
    W, S, _, _ = pieces(ms0, np.zeros(R), s_un * s_un)
    z, c = S / W, s_un * s_un / W
    if float(np.sum((z * z - c) / (c * c))) <= 0:
        return ms0, s_un, n - T, 0.0
    ms1, s1, _ = fit(ys, nu, rds)       # the paired fit, as a start
    W, S, _, _ = pieces(ms1, np.zeros(R), s1 * s1)
    start = [list(ms1) + list(S / W) + [math.log(s1)]]

    def inner(t):
        """The levels, effects and scale at round variance t."""
        def eqs(x):
            ms, us, s2 = x[:T], x[T:T + R], math.exp(2 * x[T + R])
            W, S, tot, ceq = pieces(ms, us, s2)
            out = [e / s1 for e in ceq]
            out += [((S[i] - W[i] * us[i]) - us[i] * s2 / t) / s1
                    for i in range(R)]
            h = W * t / (W * t + s2)
            out.append(tot / (s2 * (n - T - float(np.sum(h)))) - 1)
            return out

        x = fsolve(eqs, start[0], xtol=1e-14, maxfev=200000)
        res = max(abs(e) for e in eqs(x))
        assert res < 1e-10, res
        start[0] = list(x)
        return x

    def score(lt):
        t = math.exp(lt)
        x = inner(t)
        s2 = math.exp(2 * x[T + R])
        W, S, _, _ = pieces(x[:T], x[T:T + R], s2)
        z, c = S / W, s2 / W
        return float(np.sum((z * z - t - c) / (t + c) ** 2)) * t

    # The likelihood equation's root in log t, bracketed from the noise's
    # variance down and up.
    lo = hi = math.log(s1 * s1)
    while score(lo) <= 0:
        lo -= 2
    while score(hi) >= 0:
        hi += 2
    lt = brentq(score, lo, hi, xtol=1e-15, rtol=1e-15, maxiter=500)
    t = math.exp(lt)
    x = inner(t)
    s2 = math.exp(2 * x[T + R])
    W, S, _, _ = pieces(x[:T], x[T:T + R], s2)
    df = n - T - float(np.sum(W * t / (W * t + s2)))
    return list(x[:T]), math.sqrt(s2), df, t


MODE_MAX_ITER = 1000
MODE_GIVE_UP_ITER = 50
MODE_MIN_DF = 10


def fit_modes(ys, nu, rds):
    """The two-mode fit (perfreg/bisect.h): EM from the C's two starts,
    polished by fsolve on the score equations.  Returns (levels, scale,
    df, p, d) when BIC keeps it, else None."""
    T = len(ys)
    ms1, s1, df1, uu1, R = fit(ys, nu, rds, full=True)
    n = sum(len(y) for y in ys)
    df = n - T - R - 1
    if df < MODE_MIN_DF:
        return None
    y = np.concatenate(ys)
    kk = np.concatenate([np.full(len(v), k) for k, v in enumerate(ys)])
    u0 = np.concatenate(uu1)
    # Round membership of each value (-1: none, or not used).
    if R > 0:
        rounds = round_sets(rds)
        ri = {r: i for i, r in enumerate(rounds)}
        rr = np.array([ri.get(r, -1) for rd in rds for r in rd])
    else:
        rr = np.full(n, -1)
    allin = R > 0 and all(r is not None for rd in rds for r in rd)

    def one_ll():
        x = y - np.array(ms1)[kk] - u0
        return float(np.sum(-0.5 * (nu + 1) * np.log1p(x * x / (nu * s1 * s1))
                            - math.log(s1)))

    def estep(x, p, d, s2):
        q0, q1 = x * x / s2, (x - d) ** 2 / s2
        a0 = math.log1p(-p) - 0.5 * (nu + 1) * np.log1p(q0 / nu)
        a1 = math.log(p) - 0.5 * (nu + 1) * np.log1p(q1 / nu)
        z = expit(a1 - a0)
        ll = float(np.sum(np.logaddexp(a0, a1) - 0.5 * math.log(s2)))
        return z, (nu + 1) / (nu + q0), (nu + 1) / (nu + q1), ll

    def uvec(u):
        if R == 0:
            return np.zeros(n)
        return np.where(rr >= 0, u[np.maximum(rr, 0)], 0.0)

    def em(m, u, p, d, s2, ll1):
        prev = s2
        for it in range(MODE_MAX_ITER):
            moved = 0.0
            x = y - m[kk] - uvec(u)
            z, w0, w1, _ = estep(x, p, d, s2)
            a = (1 - z) * w0 + z * w1
            yu = y - uvec(u)
            mn = (np.bincount(kk, (1 - z) * w0 * yu + z * w1 * (yu - d), T)
                  / np.bincount(kk, a, T))
            moved = max(moved, float(np.max(np.abs(mn - m))))
            m = mn
            if R > 0:
                ym = y - m[kk]
                z, w0, w1, _ = estep(ym - uvec(u), p, d, s2)
                a = (1 - z) * w0 + z * w1
                sel = rr >= 0
                num = np.bincount(rr[sel], ((1 - z) * w0 * ym +
                                            z * w1 * (ym - d))[sel], R)
                den = np.bincount(rr[sel], a[sel], R)
                un = num / den
                moved = max(moved, float(np.max(np.abs(un - u))))
                u = un
                if allin:
                    ub = float(np.mean(u))
                    u = u - ub
                    m = m + ub
            x = y - m[kk] - uvec(u)
            z, w0, w1, _ = estep(x, p, d, s2)
            dn = float(np.sum(z * w1 * x) / np.sum(z * w1))
            ss = float(np.sum((1 - z) * w0 * x * x + z * w1 * (x - dn) ** 2))
            pn = float(np.sum(z)) / n
            moved = max(moved, abs(dn - d), abs(pn - p) * math.sqrt(s2))
            d, p, s2 = dn, pn, max(ss / df, 1e-14)
            if not (1e-9 < p < 1 - 1e-9):
                return None
            if it + 1 == MODE_GIVE_UP_ITER:
                _, _, _, ll = estep(y - m[kk] - uvec(u), p, d, s2)
                if ll - ll1 < 0.5 * math.log(n):
                    return None
            if abs(s2 - prev) <= 1e-12 * prev and moved <= 1e-12 * math.sqrt(s2):
                break
            prev = s2
        _, _, _, ll = estep(y - m[kk] - uvec(u), p, d, s2)
        return m, u, p, d, s2, ll, it + 1

    ll1 = one_ll()
    # The one-mode fit's effects per round (the first fixed at 0 there,
    # centred in the C: either start gives the C's residuals).
    u1 = np.zeros(R)
    for i in range(n):
        if rr[i] >= 0:
            u1[rr[i]] = u0[i]
    m1 = np.array(ms1)
    if allin:
        ub = float(np.mean(u1))
        u1, m1 = u1 - ub, m1 + ub
    best = None
    for sign in (2, -2):
        r = em(m1.copy(), u1.copy(), 0.2, sign * s1, s1 * s1 / 4, ll1)
        if r is not None and (best is None or r[5] > best[5]):
            best = r
    if best is None or not best[5] - ll1 > math.log(n):
        print("  two modes: not kept")
        return None
    m, u, p, d, s2, ll, its = best
    if p > 0.5:
        m, d, p = m + d, -d, 1 - p
    if p * n < 2:
        return None
    print("  two modes: p %.4f, d %.4f, s %.4g, ll gain %.1f, %d EM iterations"
          % (p, d, math.sqrt(s2), ll - ll1, its))
    # fsolve on the score equations from EM's root: levels, the rounds'
    # effects (the first fixed at 0 when every value is in a round), d,
    # p (as logit) and log s; the scale's equation has df degrees of
    # freedom.
    free = list(range(1, R)) if allin else list(range(R))
    if allin:
        m, u = m + u[0], u - u[0]
    F = len(free)

    def unpack(xx):
        uu = np.zeros(R)
        for i, r in enumerate(free):
            uu[r] = xx[T + i]
        return (np.asarray(xx[:T]), uu, xx[T + F], expit(xx[T + F + 1]),
                math.exp(2 * xx[T + F + 2]))

    def eqs(xx):
        mm, uu, dd, pp, ss2 = unpack(xx)
        x = y - mm[kk] - uvec(uu)
        z, w0, w1, _ = estep(x, pp, dd, ss2)
        g = (1 - z) * w0 * x + z * w1 * (x - dd)
        out = list(np.bincount(kk, g, T) / s1)
        if R > 0:
            sel = rr >= 0
            gr = np.bincount(rr[sel], g[sel], R)
            out += [gr[r] / s1 for r in free]
        out.append(float(np.sum(z * w1 * (x - dd))) / s1)
        out.append(float(np.sum(z)) / n - pp)
        out.append(float(np.sum((1 - z) * w0 * x * x + z * w1 * (x - dd) ** 2))
                   / (df * ss2) - 1)
        return out

    x0 = list(m) + [u[r] for r in free] + [d, math.log(p / (1 - p)),
                                           0.5 * math.log(s2)]
    assert max(abs(e) for e in eqs(x0)) < 1e-8, max(abs(e) for e in eqs(x0))
    xx = fsolve(eqs, x0, xtol=1e-14, maxfev=100000)
    res = max(abs(e) for e in eqs(xx))
    assert res < 1e-12, res
    assert max(abs(a - b) for a, b in zip(xx, x0)) < 1e-8
    mm, uu, dd, pp, ss2 = unpack(xx)
    return list(mm), math.sqrt(ss2), df, pp, dd


def t_pdf(x, s, nu):
    return math.exp(gammaln((nu + 1) / 2) - gammaln(nu / 2)) / \
        (math.sqrt(nu * math.pi) * s) * (1 + x * x / (nu * s * s)) ** (-(nu + 1) / 2)


def mix_info(p, d, s, nu):
    """int g'(x)^2 / g(x) dx for g = (1 - p) t(0, s) + p t(d, s)."""
    def f(x):
        f0, f1 = (1 - p) * t_pdf(x, s, nu), p * t_pdf(x - d, s, nu)
        gp = -f0 * (nu + 1) * x / (nu * s * s + x * x) - \
            f1 * (nu + 1) * (x - d) / (nu * s * s + (x - d) ** 2)
        g = f0 + f1
        return gp * gp / g if g > 0 else 0.0
    lo, hi = min(0.0, d) - 50 * s, max(0.0, d) + 50 * s
    kw = dict(epsabs=0, epsrel=1e-13, limit=1000)
    return quad(f, -np.inf, lo, **kw)[0] + \
        quad(f, lo, hi, points=sorted({0.0, d}), **kw)[0] + \
        quad(f, hi, np.inf, **kw)[0]


def lml(mc, v, cols):
    """log of int N(m; 1 a + X d, diag v) N(d; 0, diag var) dd da, a flat;
    cols is a list of (indicator vector, variance)."""
    T = len(mc)
    C = np.diag(v)
    for ind, var in cols:
        C = C + var * np.outer(ind, ind)
    Ci = np.linalg.inv(C)
    one = np.ones(T)
    A = one @ Ci @ one
    B = one @ Ci @ mc
    _, logdet = np.linalg.slogdet(C)
    q = mc @ Ci @ mc - B * B / A
    # Drop the factor prod (2 pi v_j)^(-1/2) that the C code drops too (it
    # is common to every hypothesis), so that the two are comparable
    # only after normalisation; the fixture holds normalised values.
    return -0.5 * (T - 1) * math.log(2 * math.pi) - 0.5 * logdet \
        - 0.5 * math.log(A) - 0.5 * q


def posterior(n, data, skipped, nu, tau, pn, pm, rounds=None, model=0,
              modes=1):
    tested = sorted(data)
    ys = [np.log(np.array(data[p], dtype=float)) for p in tested]
    rds = None if rounds is None else [rounds[p] for p in tested]
    two = None
    if rds is not None and model == 0:
        ms, s, df, t = fit_random(ys, nu, rds)
        print("  round variance t = %.3g (sd %.3g), df %.4g" %
              (t, math.sqrt(t), df))
    else:
        ms, s, df = fit(ys, nu, rds)
        if modes == 2:
            if rds is None:
                rds2 = [[None] * len(y) for y in ys]
            else:
                rds2 = rds
            two = fit_modes(ys, nu, rds2)
    infl = df / (df - 2) if df > 3 else 3.0
    T = len(tested)
    v = np.array([s * s * (nu + 3) / ((nu + 1) * len(y)) * infl for y in ys])
    mode = (1, 0.0, 0.0)
    if two is not None:
        ms, s, df, mp, md = two
        infl = df / (df - 2)
        info = mix_info(mp, md, s, nu)
        v = np.array([infl / (info * len(y)) for y in ys])
        mode = (2, mp, md)
    mc = np.array(ms) - ms[0]
    G = T - 1
    cnt = [tested[g + 1] - tested[g] for g in range(G)]

    def col(g):
        return np.array([1.0 if j > g else 0.0 for j in range(T)])

    # The step prior's variance is at least the square of the ends'
    # change as fitted (perfreg/bisect.h): a huge step is not taken for
    # two.
    tau2 = max(tau * tau, float(mc[-1]) ** 2)
    l_none = math.log(pn) + lml(mc, v, [])
    l_single = [math.log((1 - pn - pm) / n) + math.log(cnt[g]) +
                lml(mc, v, [(col(g), tau2)]) for g in range(G)]
    l_pair = {}
    if pm > 0:
        lp = math.log(pm / (n * (n - 1) / 2))
        for g in range(G):
            for g2 in range(g, G):
                if g == g2:
                    if cnt[g] < 2:
                        continue
                    l_pair[(g, g2)] = lp + math.log(cnt[g] * (cnt[g] - 1) / 2) + \
                        lml(mc, v, [(col(g), 2 * tau2)])
                else:
                    l_pair[(g, g2)] = lp + math.log(cnt[g] * cnt[g2]) + \
                        lml(mc, v, [(col(g), tau2), (col(g2), tau2)])
    allv = [l_none] + l_single + list(l_pair.values())
    z = logsumexp(allv)
    p_none = math.exp(l_none - z)
    single = [0.0] * (n + 1)
    for g in range(G):
        for k in range(tested[g] + 1, tested[g + 1] + 1):
            single[k] = math.exp(l_single[g] - z) / cnt[g]
    multi = [0.0] * (n + 1)
    p_multi = 0.0
    for (g, g2), l in l_pair.items():
        p = math.exp(l - z)
        p_multi += p
        r1 = range(tested[g] + 1, tested[g + 1] + 1)
        r2 = range(tested[g2] + 1, tested[g2 + 1] + 1)
        if g == g2:
            for k in r1:
                multi[k] += 2 * p / cnt[g]
        else:
            for k in r1:
                multi[k] += p / cnt[g]
            for k in r2:
                multi[k] += p / cnt[g2]
    return s, p_none, p_multi, single, multi, mode


def case(out, name, n, data, skipped=(), nu=4.0, tau=0.05, pn=0.1, pm=0.1,
         rounds=None, model=0, modes=1):
    """model: 0 the random round effect (the default), 1 the fixed one
    (pr_bisect_opts.fixed_rounds); modes: pr_bisect_opts.modes."""
    print(name)
    s, p_none, p_multi, single, multi, mode = posterior(
        n, data, skipped, nu, tau, pn, pm, rounds, model, modes)
    out.append("case %s %d %r %r %r %r %d %d" % (name, n, nu, tau, pn, pm,
                                                 model, modes))
    for p in sorted(data):
        if rounds is None:
            out.append("y %d %s" % (p, " ".join(repr(float(x))
                                                for x in data[p])))
        else:
            out.append("yr %d %s" % (p, " ".join(
                "%r %d" % (float(x), 0 if r is None else r)
                for x, r in zip(data[p], rounds[p]))))
    for p in skipped:
        out.append("skip %d" % p)
    out.append("scale %r" % s)
    out.append("modes %d %r %r" % mode)
    out.append("none %r" % p_none)
    out.append("multi %r" % p_multi)
    out.append("single %s" % " ".join(repr(x) for x in single[1:]))
    out.append("mmulti %s" % " ".join(repr(x) for x in multi[1:]))
    out.append("end")


def levels(rng, n, tested, steps, cv, runs, tails=None, slow=None):
    """slow (share, factor): that share of the runs, drawn apiece, is
    slower by the factor (a second mode)."""
    data = {}
    for p in tested:
        lev = 1.0
        for k, f in steps:
            if p >= k:
                lev *= f
        if tails is None:
            e = rng.normal(0, cv, runs)
        else:
            e = rng.standard_t(tails, runs) * cv
        if slow is not None:
            e = e + np.where(rng.uniform(size=runs) < slow[0],
                             math.log(slow[1]), 0.0)
        data[p] = list(lev * np.exp(e))
    return data


def rounds_case(rng, n, batches, steps, cv, runs, tails=None,
                burst=(0.03, 0.08), share=1 / 3, drift=0.0, slow=None):
    """Each batch of commits runs `runs` rounds, one value of each commit a
    round; a share of the rounds (a third) is slowed as a whole by a
    factor drawn from `burst` (3-8%); each value is slowed by 1 + drift
    times the number of values before it (a slow drift)."""
    data, rds = {}, {}
    rid = 0
    taken = 0
    for batch in batches:
        for _ in range(runs):
            rid += 1
            burst_f = 1.0
            if rng.uniform() < share and burst[1] > 0:
                burst_f += rng.uniform(burst[0], burst[1])
            one = levels(rng, n, batch, steps, cv, 1, tails, slow)
            for p in batch:
                data.setdefault(p, []).append(one[p][0] * burst_f *
                                              (1 + drift * taken))
                rds.setdefault(p, []).append(rid)
                taken += 1
    return data, rds


def main():
    rng = np.random.default_rng(20261201)
    out = ["# tests/bisect/data/posterior.txt: written by",
           "# tests/bisect/gen_bisect_fixtures.py (scipy fsolve for the fit,",
           "# dense Gaussian integrals for the hypotheses); read by",
           "# tests/bisect/test_bisect.c.  Values are the measurements;",
           "# single and mmulti list commits 1 .. n."]
    # Only the ends, a clear step and none.
    case(out, "ends_step", 8, levels(rng, 8, [0, 8], [(5, 1.05)], 0.02, 5))
    case(out, "ends_same", 8, levels(rng, 8, [0, 8], [], 0.02, 6))
    # Every commit tested: one step, two steps, no step.
    case(out, "all_one", 10,
         levels(rng, 10, range(11), [(6, 1.04)], 0.02, 3))
    case(out, "all_two", 10,
         levels(rng, 10, range(11), [(3, 1.06), (8, 1.06)], 0.01, 4))
    case(out, "all_none", 10, levels(rng, 10, range(11), [], 0.02, 3))
    # A bisection's footprint: a few tested commits, unequal runs.
    d = levels(rng, 64, [0, 64, 32, 16, 24], [(21, 1.03)], 0.02, 4)
    d[16] += list(levels(rng, 64, [16], [], 0.02, 5)[16])
    case(out, "sparse", 64, d)
    # Heavy tails (t2 noise) and one wild outlier.
    d = levels(rng, 16, [0, 4, 8, 12, 16], [(9, 1.05)], 0.01, 6, tails=2)
    d[4][2] *= 1.5
    case(out, "outlier", 16, d, nu=3.0)
    # A skipped commit next to the step, other priors, tau.
    d = levels(rng, 12, [0, 12, 6, 5, 8], [(7, 1.08)], 0.02, 5)
    case(out, "skipped", 12, d, skipped=(7,), tau=0.1, pn=0.2, pm=0.05)
    # No multi prior.
    case(out, "nomulti", 6, levels(rng, 6, [0, 6, 3], [(2, 1.1)], 0.03, 4),
         pm=0.0)
    # Interleaved rounds with bursts: batches of (commit, bracket ends)
    # run in rounds, some rounds slowed as a whole by 3-8%.
    d, rd = rounds_case(rng, 32, [[0, 32], [0, 16, 32], [0, 8, 16],
                                  [8, 12, 16]], [(11, 1.03)], 0.01, 4)
    case(out, "rounds_burst", 32, d, rounds=rd)
    case(out, "rounds_burst_fixed", 32, d, rounds=rd, model=1)
    # Rounds beside values without a round (earlier, unpaired), a round
    # of one value (its pair failed), t noise.
    d, rd = rounds_case(rng, 20, [[0, 20], [0, 10, 20], [10, 15, 20]],
                        [(13, 1.05)], 0.02, 3, tails=3)
    d[0] += list(levels(rng, 20, [0], [], 0.02, 3)[0])
    rd[0] += [None, None, None]
    d[15].append(float(np.exp(rng.normal(0, 0.02)) * 1.05))
    rd[15].append(999)
    case(out, "rounds_mixed", 20, d, rounds=rd, nu=3.0)
    case(out, "rounds_mixed_fixed", 20, d, rounds=rd, nu=3.0, model=1)
    # Rounds that do not differ (no burst, normal noise): t = 0, the
    # unpaired fit; and bursts of 1-2%, about the noise: t between.
    d, rd = rounds_case(rng, 32, [[0, 32], [0, 16, 32], [0, 8, 16],
                                  [8, 12, 16]], [(11, 1.03)], 0.01, 4,
                        burst=(0.0, 0.0))
    case(out, "rounds_calm", 32, d, rounds=rd)
    d, rd = rounds_case(rng, 32, [[0, 32], [0, 16, 32], [16, 24, 32],
                                  [16, 20, 24]], [(21, 1.03)], 0.01, 5,
                        burst=(0.01, 0.02), share=0.5)
    case(out, "rounds_mild", 32, d, rounds=rd)
    # A slow drift (+0.05% a value, 4.2% over the 84 values) under a
    # bisection's batches, no burst: the command's fixed effects
    # (perfreg/bisect_job.h, PR_BISECT_JOB_FIXED_ROUNDS) and the random
    # ones.
    d, rd = rounds_case(rng, 32, [[0, 32], [0, 16, 32], [16, 24, 32],
                                  [16, 20, 24], [20, 22, 24],
                                  [20, 21, 22]], [(21, 1.02)], 0.01, 5,
                        burst=(0.0, 0.0), drift=0.0005)
    case(out, "rounds_drift_fixed", 32, d, rounds=rd, model=1)
    case(out, "rounds_drift", 32, d, rounds=rd)
    # Two modes (bench/bisect-sim's bimodal noise: a fifth of the runs
    # 10% slower, each mode 1% wide): without rounds, and in a
    # bisection's batches of interleaved rounds with the fixed round
    # effects; and normal noise, where one mode must be kept.
    d = levels(rng, 16, [0, 16, 8, 12, 10], [(11, 1.03)], 0.01, 8,
               slow=(0.2, 1.10))
    case(out, "bimodal", 16, d, modes=2)
    d, rd = rounds_case(rng, 32, [[0, 32], [0, 16, 32], [16, 24, 32],
                                  [16, 20, 24], [20, 22, 24]], [(21, 1.02)],
                        0.01, 5, burst=(0.0, 0.0), slow=(0.2, 1.10))
    case(out, "bimodal_fixed", 32, d, rounds=rd, model=1, modes=2)
    d = levels(rng, 16, [0, 16, 8, 12, 10], [(11, 1.03)], 0.01, 8)
    case(out, "normal_modes", 16, d, modes=2)
    # A huge step (x16) at 5 of 8 (bench/bisect-sim -S 15): the prior's
    # sd is the ends' change, not 5%, and the one step holds the mass.
    d = levels(rng, 8, [0, 2, 4, 5, 6, 8], [(5, 16.0)], 0.02, 4)
    case(out, "huge_step", 8, d)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")


main()
