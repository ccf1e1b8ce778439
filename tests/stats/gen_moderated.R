# Reference values for pr_moderated_compare, pr_moderated_squeeze,
# pr_moderated_prior_fit and pr_bh (src/stats/moderated.c, verdict.c),
# computed by limma itself (Debian's r-bioc-limma, 3.54; GPL, used here
# only to write the fixture, never linked).
#
# Run from the repository root (apt-get install r-base-core r-bioc-limma):
#   Rscript tests/stats/gen_moderated.R > tests/stats/data/moderated.txt
# Deterministic (set.seed); rerunning leaves git diff empty.
#
# Each comparison case scales the log session means of figure j by its
# within-session standard error w_j (the rms of its sessions' errors,
# floored at 1e-3; 1 when the case has none), fits lmFit(z ~ group) on the
# scaled matrix (NA where a figure has fewer sessions), then eBayes: s2 is
# sigma^2, df df.residual, s2.post, df.total, t and p.value of the group
# coefficient, and the interval of the log ratio is coef +- qt(0.975,
# df.total) * stdev.unscaled * sqrt(s2.post), times w_j.  p.adjust gives
# BH and Holm.  The one-session bound and a caller's prior are not limma
# functions: they are written out from their formulas (moderated.h) in R.
#
# Format, one item per line:
#   case NAME ADJUST CONF EQ MODE [ARG...]   MODE limma | bound RATIO |
#                                           prior DF VAR | capped D0MAX DFMAX |
#                                           trend | weighted | wtrend
#   (limma: perfreg's caps off; capped: limma's fit, then the caps)
#   fig BETTER KB KN B1..BKB N1..NKN SE|- [SB1..SBKB SN1..SNKN]
#   fit D0 S0 TESTED             (D0 inf for infinity; 0 0 for the bound)
#   want J TESTED S2 DF S2POST DFTOTAL LOGFC T P PADJ CHANGE LO HI VERDICT
#   squeeze N V1..VN D1..DN -> D0 S0 P1..PN
#   adjust N P1..PN -> BH1..BHN HOLM1..HOLMN
#   prior N (KB values ses)... -> D0 S0      (pr_moderated_prior_fit)
#   trend N V1..VN D1..DN C1..CN -> D0 P1..PN POST1..POSTN
#                                (squeezeVar with covariate C)
#
# The candidates of moderated.h, caps off: trend, squeezeVar(sigma^2,
# df.residual, covariate = log w) on lmFit's fit, then eBayes's t from
# it (eBayes's own trend = TRUE takes Amean as the covariate, so its
# steps are written out: s2.post, df.total capped at df.pooled, t =
# coef / (stdev.unscaled sqrt(s2.post))), the fit line's S0 the geometric
# mean of var.prior over the figures with df > 0; weighted, lmFit with
# weights (w_j / max(se_ij, 1e-3))^2 and eBayes's steps; wtrend both.
suppressMessages(library(limma))

f17 <- function(x) {
    ifelse(is.infinite(x), ifelse(x > 0, "inf", "-inf"),
        sprintf("%.17g", x))
}
cat(sprintf("# written by tests/stats/gen_moderated.R (limma %s, %s)\n",
    packageVersion("limma"), R.version.string))

SE_MIN <- 1e-3

verdict <- function(tested, better, padj, lo, hi, logfc, eq, alpha) {
    if (!tested) return("inconclusive")
    if (is.finite(lo) && lo >= -eq && hi <= eq) return("equivalent")
    dir <- sign(logfc)
    if (padj < alpha && dir != 0 && (lo > 0 || hi < 0)) {
        worse <- if (better == "higher") dir < 0 else dir > 0
        return(if (worse) "regression" else "improvement")
    }
    "inconclusive"
}

# figs: list of list(better, b, n, sb, sn) (sb, sn NULL when none).
emit <- function(name, figs, adjust = "BH", conf = 0.95, eq = 1,
    mode = "limma", ratio = 20, prior = NULL, caps = c(1.5, 3)) {
    m <- length(figs)
    scaled <- all(sapply(figs, function(f) !is.null(f$sb)))
    hdr <- sprintf("case %s %s %s %s %s", name, adjust, f17(conf), f17(eq),
        mode)
    if (mode == "bound") hdr <- paste(hdr, f17(ratio))
    if (mode == "prior") hdr <- paste(hdr, f17(prior[1]), f17(prior[2]))
    if (mode == "capped") hdr <- paste(hdr, f17(caps[1]), f17(caps[2]))
    cat(hdr, "\n", sep = "")
    for (f in figs) {
        line <- sprintf("fig %s %d %d %s %s", f$better, length(f$b),
            length(f$n), paste(f17(f$b), collapse = " "),
            paste(f17(f$n), collapse = " "))
        if (is.null(f$sb)) line <- paste(line, "-")
        else line <- paste(line, "se", paste(f17(c(f$sb, f$sn)),
            collapse = " "))
        cat(line, "\n", sep = "")
    }
    ok <- sapply(figs, function(f) all(f$b > 0) && all(f$n > 0))
    w <- sapply(figs, function(f) if (scaled) max(sqrt(mean(c(f$sb,
        f$sn)^2)), SE_MIN) else 1)
    kb <- max(sapply(figs, function(f) length(f$b)))
    kn <- max(sapply(figs, function(f) length(f$n)))
    z <- matrix(NA_real_, m, kb + kn)
    for (j in seq_len(m)) if (ok[j]) {
        f <- figs[[j]]
        z[j, seq_along(f$b)] <- log(f$b) / w[j]
        z[j, kb + seq_along(f$n)] <- log(f$n) / w[j]
    }
    zt <- z[ok, , drop = FALSE]
    group <- factor(c(rep("b", kb), rep("n", kn)), levels = c("b", "n"))
    design <- model.matrix(~group)
    alpha <- 1 - conf
    res <- vector("list", m)
    nb <- sapply(figs, function(f) length(f$b))
    nn <- sapply(figs, function(f) length(f$n))
    logfc <- rep(NA, m)
    for (j in which(ok))
        logfc[j] <- mean(log(figs[[j]]$n)) - mean(log(figs[[j]]$b))
    unit <- sqrt(1 / nb + 1 / nn)
    s2 <- dfr <- s2p <- dft <- tt <- pp <- rep(NA, m)
    if (mode == "limma") {
        fit <- suppressWarnings(eBayes(lmFit(zt, design)))
        d0 <- fit$df.prior
        s0 <- fit$s2.prior
        s2[ok] <- fit$sigma^2
        dfr[ok] <- fit$df.residual
        s2[ok][dfr[ok] == 0] <- 0
        s2p[ok] <- fit$s2.post
        dft[ok] <- fit$df.total
        tt[ok] <- fit$t[, 2]
        pp[ok] <- fit$p.value[, 2]
        # stdev.unscaled of the coefficient is sqrt(1/kb + 1/kn).
        stopifnot(all(abs(fit$stdev.unscaled[, 2] - unit[ok]) < 1e-12))
        q <- qt(1 - alpha / 2, dft)
        half <- q * unit * sqrt(s2p) * w
    } else if (mode %in% c("trend", "weighted", "wtrend")) {
        wt <- NULL
        if (mode != "trend") {
            wt <- matrix(NA_real_, m, kb + kn)
            for (j in seq_len(m)) {
                f <- figs[[j]]
                wt[j, seq_along(f$b)] <- (w[j] / pmax(f$sb, SE_MIN))^2
                wt[j, kb + seq_along(f$n)] <- (w[j] / pmax(f$sn, SE_MIN))^2
            }
            wt <- wt[ok, , drop = FALSE]
        }
        fit <- lmFit(zt, design, weights = wt)
        sg2 <- fit$sigma^2
        sg2[fit$df.residual == 0] <- 0
        if (mode == "weighted") {
            sq <- squeezeVar(sg2, fit$df.residual)
        } else {
            sq <- squeezeVar(sg2, fit$df.residual, covariate = log(w[ok]))
        }
        d0 <- sq$df.prior
        vp <- rep_len(sq$var.prior, sum(ok))
        s0 <- if (mode == "weighted") sq$var.prior else
            exp(mean(log(vp[fit$df.residual > 0])))
        s2[ok] <- sg2
        dfr[ok] <- fit$df.residual
        s2p[ok] <- sq$var.post
        dft[ok] <- pmin(fit$df.residual + d0, sum(fit$df.residual))
        unit[ok] <- fit$stdev.unscaled[, 2]
        logfc[ok] <- fit$coefficients[, 2] * w[ok]
        tt[ok] <- fit$coefficients[, 2] / (unit[ok] * sqrt(s2p[ok]))
        pp[ok] <- 2 * pt(-abs(tt[ok]), dft[ok])
        half <- qt(1 - alpha / 2, dft) * unit * sqrt(s2p) * w
    } else if (mode == "capped") {
        # limma's fit, then perfreg's caps on d0 and on the test's df.
        fit <- suppressWarnings(eBayes(lmFit(zt, design)))
        d0 <- min(fit$df.prior, caps[1])
        s0 <- fit$s2.prior
        s2[ok] <- fit$sigma^2
        dfr[ok] <- fit$df.residual
        s2[ok][dfr[ok] == 0] <- 0
        s2p <- (dfr * s2 + d0 * s0) / (dfr + d0)
        dft <- pmin(dfr + d0, sum(dfr[ok]), caps[2])
        tt <- logfc / (w * sqrt(s2p) * unit)
        pp <- 2 * pt(-abs(tt), dft)
        half <- qt(1 - alpha / 2, dft) * unit * sqrt(s2p) * w
    } else if (mode == "prior") {
        d0 <- prior[1]
        s0 <- prior[2]
        for (j in which(ok)) {
            d <- nb[j] + nn[j] - 2
            zb <- log(figs[[j]]$b) / w[j]
            zn <- log(figs[[j]]$n) / w[j]
            ss <- sum((zb - mean(zb))^2) + sum((zn - mean(zn))^2)
            s2[j] <- if (d > 0) ss / d else 0
            dfr[j] <- d
        }
        s2p <- if (is.finite(d0)) (dfr * s2 + d0 * s0) / (dfr + d0)
            else rep(s0, m)
        dft <- dfr + d0
        tt <- logfc / (w * sqrt(s2p) * unit)
        pp <- 2 * pt(-abs(tt), dft)
        q <- qt(1 - alpha / 2, dft)
        half <- q * unit * sqrt(s2p) * w
    } else {
        d0 <- 0
        s0 <- 0
        s2 <- rep(0, m)
        dfr <- rep(0, m)
        s2p <- rep(0, m)
        dft <- rep(Inf, m)
        sd <- ratio * w * unit
        tt <- logfc / sd
        pp <- 2 * pnorm(-abs(tt))
        half <- qnorm(1 - alpha / 2) * sd
    }
    padj <- rep(1, m)
    padj[ok] <- p.adjust(pp[ok], if (adjust == "BH") "BH" else "holm")
    cat(sprintf("fit %s %s %d\n", f17(d0), f17(s0), sum(ok)))
    for (j in seq_len(m)) {
        if (!ok[j]) {
            cat(sprintf("want %d 0\n", j - 1))
            next
        }
        lo <- 100 * expm1(logfc[j] - half[j])
        hi <- 100 * expm1(logfc[j] + half[j])
        v <- verdict(TRUE, figs[[j]]$better, padj[j], lo, hi, logfc[j],
            eq, alpha)
        cat(sprintf("want %d 1 %s %s %s %s %s %s %s %s %s %s %s %s\n",
            j - 1, f17(s2[j]), f17(dfr[j]), f17(s2p[j]), f17(dft[j]),
            f17(logfc[j]), f17(tt[j]), f17(pp[j]), f17(padj[j]),
            f17(100 * expm1(logfc[j])), f17(lo), f17(hi), v))
    }
}

# m figures like a suite's: levels from 10 to 1e5, between-session sd
# of the log from 0.2% to 100%, within-session errors 1 to 10 times
# smaller; shift (a log ratio) on the figures in `which`.
suite_figs <- function(m, kb, kn, shift = 0, which = integer(0), se = TRUE) {
    lev <- exp(runif(m, log(10), log(1e5)))
    bsd <- exp(runif(m, log(0.002), log(1)))
    wsd <- bsd / runif(m, 1, 10)
    lapply(seq_len(m), function(j) {
        kbj <- if (length(kb) > 1) kb[j] else kb
        knj <- if (length(kn) > 1) kn[j] else kn
        d <- if (j %in% which) shift else 0
        f <- list(better = c("higher", "lower", "unknown")[1 + j %% 3],
            b = lev[j] * exp(rnorm(kbj, 0, bsd[j])),
            n = lev[j] * exp(d + rnorm(knj, 0, bsd[j])))
        if (se) {
            f$sb <- wsd[j] * exp(rnorm(kbj, 0, 0.2))
            f$sn <- wsd[j] * exp(rnorm(knj, 0, 0.2))
        }
        f
    })
}

# The candidates (moderated.h, opts.trend and opts.weighted), their own
# stream so that the cases above keep theirs; squeezeVar with a
# covariate alone, n from 2 (no trend: limma's plain prior) to 90.
emit_trend_cases <- function() {
    old <- .Random.seed
    set.seed(20261204)
    emit("trend_k2", suite_figs(83, 2, 1, log(0.9), 1:15), mode = "trend")
    emit("trend_k3", suite_figs(83, 3, 1), mode = "trend")
    emit("trend_k5_holm", suite_figs(30, 5, 1, log(0.8), 1:4),
        adjust = "holm", mode = "trend")
    emit("trend_small", suite_figs(5, 2, 2, log(0.7), 1), mode = "trend")
    emit("trend_missing", suite_figs(60, sample(1:3, 60, TRUE),
        sample(1:2, 60, TRUE), log(0.5), 1:10), mode = "trend")
    emit("weighted_k2", suite_figs(83, 2, 1, log(0.9), 1:15),
        mode = "weighted")
    emit("weighted_k3", suite_figs(83, 3, 2), mode = "weighted")
    emit("wtrend_k3", suite_figs(83, 3, 1, log(0.9), 1:15), mode = "wtrend")
    for (n in c(2, 3, 5, 6, 12, 29, 30, 90)) {
        df <- sample(c(0, 1, 2, 4), n, TRUE, prob = c(1, 4, 3, 2))
        df[1:2] <- 1
        cv <- rnorm(n)
        if (n == 12) cv <- rep(c(-1, 2), 6)   # two distinct values
        if (n == 6) cv <- c(0, 0, 0, 1, 1, 2) # three
        v <- exp(rnorm(n, 2 * cv, 1)) * rchisq(n, pmax(df, 1)) / pmax(df, 1)
        v[df == 0] <- 0
        sq <- squeezeVar(v, df, covariate = cv)
        cat(sprintf("trend %d %s %s %s -> %s %s %s\n", n,
            paste(f17(v), collapse = " "), paste(f17(df), collapse = " "),
            paste(f17(cv), collapse = " "), f17(sq$df.prior),
            paste(f17(rep_len(sq$var.prior, n)), collapse = " "),
            paste(f17(sq$var.post), collapse = " ")))
    }
    .Random.seed <<- old
}

set.seed(20261201)
emit("aa_k2", suite_figs(83, 2, 1))
emit("shift_k2", suite_figs(83, 2, 1, log(0.9), 1:15))
emit("shift_k3_holm", suite_figs(83, 3, 2, log(0.9), 1:15), adjust = "holm")
emit("k5_noscale", suite_figs(40, 5, 5, log(1.5), 1:5, se = FALSE))
emit("missing", suite_figs(60, sample(1:3, 60, TRUE), sample(1:2, 60, TRUE),
    log(0.5), 1:10))
emit("conf90_eq5", suite_figs(30, 3, 3, log(1.02), 1:30), conf = 0.9,
    eq = 5)
g <- suite_figs(20, 3, 3)
g[[4]]$b[2] <- 0
g[[7]]$n[1] <- -3
emit("nonpositive", g)
# Equal spread in every figure: fitFDist finds no extra spread, d0 = inf.
eqs <- lapply(1:12, function(j) list(better = "lower",
    b = 100 * j * c(1, 1.01, 1.02), n = 100 * j * c(1.03, 1.04, 1.05)))
emit("d0_inf_noscale", eqs)
emit("capped_k2", suite_figs(83, 2, 1, log(0.9), 1:15), mode = "capped")
emit("capped_k5", suite_figs(83, 5, 1, log(0.9), 1:15), mode = "capped",
    adjust = "holm")
emit("capped_mixed", suite_figs(60, sample(1:4, 60, TRUE),
    sample(1:2, 60, TRUE), log(0.7), 1:10), mode = "capped", caps = c(3, 5))
emit("one_session", suite_figs(83, 1, 1, log(0.1), 1:5), mode = "bound",
    ratio = 20)
emit("one_session_r5", suite_figs(40, 1, 1, log(1.5), 1:10), mode = "bound",
    ratio = 5, adjust = "holm")
emit("prior_k1", suite_figs(50, 1, 1, log(0.8), 1:8), mode = "prior",
    prior = c(4, 2.5))
emit("prior_k3", suite_figs(50, 3, 1, log(0.8), 1:8), mode = "prior",
    prior = c(3.5, 1.7))
emit("prior_inf", suite_figs(20, 2, 2, log(0.8), 1:3), mode = "prior",
    prior = c(Inf, 2))

# squeezeVar on its own, with zeros, df 0 and equal variances.
sq <- function(v, d) {
    out <- suppressWarnings(squeezeVar(v, d))
    cat(sprintf("squeeze %d %s %s -> %s %s %s\n", length(v),
        paste(f17(v), collapse = " "), paste(f17(d), collapse = " "),
        f17(out$df.prior), f17(out$var.prior),
        paste(f17(out$var.post), collapse = " ")))
}
sq(rchisq(50, 3) / 3 * 0.7, rep(3, 50))
sq(exp(rnorm(80, 0, 2)) * rchisq(80, 2) / 2, rep(2, 80))
sq(c(0, 0, 0.5, 1.2, 0.3, 2, 0.01), c(1, 1, 1, 2, 2, 3, 4))
sq(c(0, 0, 0, 0, 0.5, 1), rep(1, 6))
sq(c(1, 1, 1, 1), c(5, 5, 5, 5))
sq(c(0.2, 5, 1, 0.7, 3), c(0, 1, 2, 0, 4))

# p.adjust with ties, ones and zeros.
adj <- function(p) {
    cat(sprintf("adjust %d %s -> %s %s\n", length(p),
        paste(f17(p), collapse = " "),
        paste(f17(p.adjust(p, "BH")), collapse = " "),
        paste(f17(p.adjust(p, "holm")), collapse = " ")))
}
adj(c(0.01, 0.02, 0.03, 0.04, 0.05))
adj(c(0.05, 0.01, 0.01, 0.2, 1, 0, 0.049, 0.5))
adj(runif(83)^3)
adj(c(0.3))

# The prior from a host's history: series of sessions, fitFDist on their
# scaled sample variances (kb - 1 df).
pf <- function(series) {
    v <- d <- numeric(0)
    parts <- character(0)
    for (s in series) {
        w <- max(sqrt(mean(s$se^2)), SE_MIN)
        z <- log(s$x) / w
        v <- c(v, var(z))
        d <- c(d, length(z) - 1)
        parts <- c(parts, sprintf("%d %s %s", length(s$x),
            paste(f17(s$x), collapse = " "),
            paste(f17(s$se), collapse = " ")))
    }
    fit <- fitFDist(v, d)
    cat(sprintf("prior %d %s -> %s %s\n", length(series),
        paste(parts, collapse = " "), f17(fit$df2), f17(fit$scale)))
}
hist <- lapply(1:40, function(j) {
    k <- sample(2:5, 1)
    lev <- exp(runif(1, 1, 10))
    bsd <- exp(runif(1, log(0.002), log(0.5)))
    list(x = lev * exp(rnorm(k, 0, bsd)), se = bsd / runif(k, 1, 8))
})
pf(hist)
emit_trend_cases()
