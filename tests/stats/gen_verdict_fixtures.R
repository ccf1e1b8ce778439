#!/usr/bin/Rscript
# Writes tests/stats/data/verdict.txt: reference values for pr_compare and
# pr_holm (src/stats/verdict.c), computed independently with R.
#
# Run from the repository root with Debian's r-base-core:
#
#     /usr/bin/Rscript tests/stats/gen_verdict_fixtures.R
#
# Numbers are printed with 17 significant digits (they read back as the
# same doubles).  Line kinds, one case a line, tokens KEY=VALUE, lists
# comma-separated:
#
#   case name=N better=lower|higher|unknown method=auto|student|welch|mwu
#        base=V,.. new=V,..  then the expected figures:
#        tested=0|1 used=none|student|welch|mwu verdict=V
#        change=PCT [lo=PCT hi=PCT] [p=P ptol=T] runs=R [skew=Q1 tail=Q2]
#        notes=NAME,...   (a subset of the notes that must be set)
#        nonotes=NAME,... (notes that must not be set)
#   base=@big / new=@big are the formula data of big_data() below, which
#   the C test computes with the same IEEE operations.
#   ptol is the absolute tolerance of p: 1e-9 p for exact references; for
#   the maximum test's Monte Carlo p (2000 permutations), four binomial
#   standard errors plus 2/2001.
#   holm p=P,.. adj=A,..
#
# What the rule is (perfreg/verdict.h) is re-implemented here from its
# description, not from the C code:
# - resolution: the largest 10^-k, k = 0..9, with every value of both
#   sides a multiple of it; a side's variance is raised to at least h^2/12;
# - t branch: Student (equal sizes) or Welch on raw values with those
#   variances; p = 2 pt(-|t|, df); checked against t.test() where no
#   variance was raised; change = 100 (mean_new / mean_base - 1); the
#   interval is Fieller's, found here as the roots of the quadratic
#   (m_b - r m_a)^2 - q^2 (v_b + r^2 v_a) with polyroot();
# - Mann-Whitney (forced): p from wilcox.test(new, base) (exact = NULL,
#   correct = TRUE); estimate and interval from wilcox.test(log(new),
#   log(base), conf.int = TRUE), change = 100 (exp(.) - 1); for large
#   samples the interval of the normal approximation is computed here
#   from the sorted pairwise differences with the convention of mwu.h;
# - selector: Hogg's Q1 and Q2 of the pooled sample, with fractional
#   order statistics; Q1 > 1.8 or < 1/1.8 or Q2 > 3.0 switch to the
#   maximum test;
# - maximum test: S = max(|t|, |z_r|), t = Student's pooled t, z_r the
#   rank sum of the new side (mid-ranks) standardised by its permutation
#   variance; p = the share of all choose(n, nb) splits with S at least
#   the observed one (enumerated), or for large samples the bivariate
#   normal limit with the correlation of values and ranks, integrated
#   with integrate(); the winner gives the change and interval;
# - runs: the fixed point of n = 2 s^2 (qt(1 - alpha/2, 2n - 2) +
#   qt(0.8, 2n - 2))^2 / D^2 (see verdict.c); the generator also checks
#   with the noncentral t that n runs give about 80% power.
# - Holm: p.adjust(p, "holm"), and by hand from the definition.

out <- character(0)
emit <- function(...) out <<- c(out, paste0(...))
f17 <- function(x) sprintf("%.17g", x)
lst <- function(x) paste(f17(x), collapse = ",")

grid_step <- function(x) {
	for (k in 0:9) {
		y <- x * 10^k
		if (any(abs(y) > 1e12)) return(0)
		if (all(abs(y - round(y)) <= 1e-6 + 1e-14 * abs(y)))
			return(10^-k)
	}
	0
}

# Mean of the order statistics r (sorted) over rank range [lo, hi).
frac_mean <- function(r, lo, hi) {
	j <- seq_along(r) - 1
	w <- pmax(0, pmin(j + 1, hi) - pmax(j, lo))
	sum(w * r) / (hi - lo)
}

hogg <- function(a, b) {
	r <- sort(c(a, b))
	N <- length(r)
	l05 <- frac_mean(r, 0, 0.05 * N); u05 <- frac_mean(r, 0.95 * N, N)
	l50 <- frac_mean(r, 0, 0.5 * N); u50 <- frac_mean(r, 0.5 * N, N)
	m50 <- frac_mean(r, 0.25 * N, 0.75 * N)
	c(q1 = (u05 - m50) / (m50 - l05), q2 = (u05 - l05) / (u50 - l50))
}

runs_for <- function(s, D, alpha) {
	if (!(D > 0) || !(s > 0)) return(Inf)
	n <- ceiling(2 * s^2 * (qnorm(1 - alpha / 2) + qnorm(0.8))^2 / D^2)
	for (it in 1:50) {
		df <- if (n < 2) 2 else 2 * n - 2
		m <- max(2, ceiling(2 * s^2 * (qt(1 - alpha / 2, df) +
		    qt(0.8, df))^2 / D^2))
		if (m == n) break
		n <- m
	}
	n
}

runs_needed <- function(s, d, e, alpha, have) {
	n <- runs_for(s, abs(d), alpha)
	if (abs(d) < e) n <- min(n, runs_for(s, e - abs(d), alpha))
	if (!is.finite(n) || n > 1e9) return(0)
	max(n, have + 1)
}

fieller <- function(ma, mb, va, vb, q) {
	# (m_b - r m_a)^2 - q^2 (v_b + r^2 v_a) = c0 + c1 r + c2 r^2
	c0 <- mb^2 - q^2 * vb
	c1 <- -2 * ma * mb
	c2 <- ma^2 - q^2 * va
	if (c2 <= 0) return(NULL)
	r <- sort(Re(polyroot(c(c0, c1, c2))))
	r
}

# The t branch; returns a list of expected figures.
tcase <- function(a, b, method, conf, eq) {
	alpha <- 1 - conf
	ha <- hb <- grid_step(c(a, b))
	va0 <- var(a); vb0 <- var(b)
	fa <- max(va0, ha^2 / 12); fb <- max(vb0, hb^2 / 12)
	quant <- fa > va0 || fb > vb0
	na <- length(a); nb <- length(b)
	ma <- mean(a); mb <- mean(b)
	if (method == "student") {
		df <- na + nb - 2
		sp2 <- ((na - 1) * fa + (nb - 1) * fb) / df
		va <- sp2 / na; vb <- sp2 / nb
	} else {
		va <- fa / na; vb <- fb / nb
		df <- (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1))
	}
	se <- sqrt(va + vb)
	t <- (mb - ma) / se
	p <- 2 * pt(-abs(t), df)
	if (!quant) {
		tt <- t.test(b, a, var.equal = method == "student",
		    conf.level = conf)
		stopifnot(abs(tt$p.value - p) <= 1e-12 * max(p, 1e-300))
	}
	q <- qt(1 - alpha / 2, df)
	r <- fieller(ma, mb, va, vb, q)
	res <- list(p = p, change = 100 * (mb - ma) / ma, quant = quant,
	    dir = sign(mb - ma))
	if (!is.null(r)) {
		res$lo <- 100 * (r[1] - 1); res$hi <- 100 * (r[2] - 1)
	}
	res$rel_sd <- se / abs(ma) / sqrt(1 / na + 1 / nb)
	res
}

# The Hodges-Lehmann ratio (shift of logs) with the interval of mwu.h.
hl_log <- function(a, b, conf) {
	la <- log(a); lb <- log(b)
	m <- length(la); n <- length(lb)
	ties <- anyDuplicated(c(a, b)) > 0
	if (!ties && m < 50 && n < 50) {
		w <- wilcox.test(lb, la, conf.int = TRUE, conf.level = conf)
		est <- w$estimate[[1]]; ci <- w$conf.int
	} else {
		d <- sort(as.vector(outer(lb, la, "-")))
		mn <- length(d)
		tt <- function(v) { r <- table(v); sum(r^3 - r) }
		N <- m + n
		sig <- sqrt(mn / 12 * ((N + 1) - (tt(la) + tt(lb)) / (N * (N - 1))))
		k <- ceiling(mn / 2 - 0.5 - qnorm((1 + conf) / 2) * sig)
		est <- median(d); ci <- c(d[k], d[mn + 1 - k])
	}
	list(change = 100 * expm1(est), lo = 100 * expm1(ci[1]),
	    hi = 100 * expm1(ci[2]), dir = sign(est))
}

# The maximum test's statistic for one split (inb: logical, new side).
max_stat <- function(x, r, inb) {
	n <- length(x); nb <- sum(inb); na <- n - nb
	f <- na * nb / (n * (n - 1))
	zx <- sum(x[inb] - mean(x)) / sqrt(f * sum((x - mean(x))^2))
	zr <- sum(r[inb] - mean(r)) / sqrt(f * sum((r - mean(r))^2))
	list(zx = zx, zr = zr)
}

maxtest <- function(a, b) {
	x <- c(a, b); inb <- c(rep(FALSE, length(a)), rep(TRUE, length(b)))
	r <- rank(x)
	n <- length(x); nb <- length(b); na <- length(a)
	tt <- t.test(b, a, var.equal = TRUE)$statistic[[1]]
	z <- max_stat(x, r, inb)
	# t from the permutation z, the identity verdict.c uses, checked.
	stopifnot(abs(z$zx * sqrt((n - 2) / (n - 1 - z$zx^2)) - tt) <=
	    1e-9 * abs(tt))
	s0 <- max(abs(tt), abs(z$zr))
	which <- if (abs(z$zr) > abs(tt)) "ranks" else "means"
	if (n <= 4000) {
		cb <- combn(n, nb)
		f <- na * nb / (n * (n - 1))
		cx <- x - mean(x); cr <- r - mean(r)
		zx <- colSums(matrix(cx[cb], nrow = nb)) / sqrt(f * sum(cx^2))
		zr <- colSums(matrix(cr[cb], nrow = nb)) / sqrt(f * sum(cr^2))
		tx <- zx * sqrt((n - 2) / pmax(n - 1 - zx^2, 0))
		s <- pmax(abs(tx), abs(zr))
		p <- mean(s >= s0 * (1 - 1e-12))
		tol <- 4 * sqrt(p * (1 - p) / 2000) + 2 / 2001
	} else {
		rho <- cor(x, r)
		w <- sqrt(1 - rho^2)
		g <- function(z) dnorm(z) * (pnorm((-s0 - rho * z) / w) +
		    pnorm((s0 - rho * z) / w, lower.tail = FALSE))
		p <- 2 * pnorm(s0, lower.tail = FALSE) +
		    integrate(g, -s0, s0, rel.tol = 1e-12)$value
		tol <- 1e-8 * p
	}
	list(p = p, tol = tol, which = which)
}

verdict_of <- function(res, better, alpha, eq) {
	if (!is.null(res$lo) && res$lo >= -eq && res$hi <= eq)
		return("equivalent")
	if (res$p < alpha && res$dir != 0 &&
	    (is.null(res$lo) || res$lo > 0 || res$hi < 0)) {
		worse <- if (better == "higher") res$dir < 0 else res$dir > 0
		return(if (worse) "regression" else "improvement")
	}
	"inconclusive"
}

write_case <- function(name, better, method, a, b, conf = 0.95, eq = 1,
    notes = character(0), nonotes = character(0), big = FALSE) {
	a <- sort(a); b <- sort(b)
	alpha <- 1 - conf
	na <- length(a); nb <- length(b)
	line <- sprintf("case name=%s better=%s method=%s base=%s new=%s",
	    name, better, method, if (big) "@big" else lst(a),
	    if (big) "@big" else lst(b))
	if (min(na, nb) < 2) {
		ch <- 100 * (mean(b) - mean(a)) / mean(a)
		two <- if (na >= 2) a else if (nb >= 2) b else NULL
		runs <- 0
		if (!is.null(two))
			runs <- runs_needed(sd(two) / abs(mean(a)), ch / 100,
			    eq / 100, alpha, max(na, nb))
		emit(line, sprintf(
		    " tested=0 used=none verdict=inconclusive change=%s runs=%d notes=%s",
		    f17(ch), runs, paste(c("untested", notes), collapse = ",")))
		return(invisible())
	}
	used <- method
	extra <- ""
	positive <- min(a) > 0 && min(b) > 0
	if (method == "auto") {
		used <- if (na == nb) "student" else "welch"
		if (positive && min(na, nb) >= 10) {
			q <- hogg(a, b)
			extra <- sprintf(" skew=%s tail=%s", f17(q[["q1"]]),
			    f17(q[["q2"]]))
			if (q[["q1"]] > 1.8 || q[["q1"]] < 1 / 1.8 ||
			    q[["q2"]] > 3.0)
				used <- "max"
		}
	}
	ptol <- NULL
	if (used == "max") {
		mt <- maxtest(a, b)
		if (mt$which == "ranks") {
			used <- "mwu"
			res <- hl_log(a, b, conf)
		} else {
			used <- if (na == nb) "student" else "welch"
			res <- tcase(a, b, used, conf, eq)
		}
		res$p <- mt$p
		ptol <- mt$tol
		notes <- c(notes, "maxtest")
	} else if (used == "mwu") {
		w <- suppressWarnings(wilcox.test(b, a))
		wl <- suppressWarnings(wilcox.test(log(b), log(a),
		    conf.int = TRUE, conf.level = conf))
		res <- list(p = w$p.value, change = 100 * expm1(wl$estimate[[1]]),
		    lo = 100 * expm1(wl$conf.int[1]),
		    hi = 100 * expm1(wl$conf.int[2]),
		    dir = sign(wl$estimate[[1]]))
		# The exact interval of a too small sample does not exist (R
		# returns the extreme differences, perfreg no interval); then
		# no spread is known for runs_needed either.
		if (suppressWarnings(wilcox.test(log(b), log(a),
		    conf.int = TRUE, conf.level = conf))$conf.int[1] ==
		    min(outer(log(b), log(a), "-")) &&
		    1 - 2 * pwilcox(0, na, nb) < conf) {
			res$lo <- NULL
			res$hi <- NULL
			res$rel_sd <- 0
		}
	} else {
		res <- tcase(a, b, used, conf, eq)
		if (res$quant) notes <- c(notes, "quantised")
	}
	v <- verdict_of(res, better, alpha, eq)
	if (v == "equivalent" && res$p < alpha)
		notes <- c(notes, "negligible")
	else
		nonotes <- c(nonotes, "negligible")
	runs <- 0
	if (v == "inconclusive" && is.null(res$rel_sd))
		stop("runs_needed of a rank-based case is not modelled here")
	if (v == "inconclusive") {
		runs <- runs_needed(res$rel_sd, res$change / 100, eq / 100,
		    alpha, max(na, nb))
		# n runs give about 80% power by the noncentral t.
		if (runs > 0 && abs(res$change) >= eq) {
			dfr <- 2 * runs - 2
			ncp <- abs(res$change / 100) /
			    (res$rel_sd * sqrt(2 / runs))
			pw <- 1 - pt(qt(1 - alpha / 2, dfr), dfr, ncp)
			stopifnot(pw > 0.75, pw < 0.9)
		}
	}
	ci <- if (is.null(res$lo)) "" else
		sprintf(" lo=%s hi=%s", f17(res$lo), f17(res$hi))
	# The t and normal distribution functions promise 1e-9 relative.
	if (is.null(ptol)) ptol <- 1e-9 * res$p
	emit(line, sprintf(" tested=1 used=%s verdict=%s change=%s%s p=%s ptol=%s runs=%d%s notes=%s nonotes=%s",
	    used, v, f17(res$change), ci, f17(res$p), f17(ptol), runs, extra,
	    paste(c("", unique(notes)), collapse = ","),
	    paste(c("", nonotes), collapse = ",")))
}

# The seeds (../shared/seeds): elapsed and user seconds, three runs each.
write_case("seed002", "lower", "auto", c(4.83, 5.16, 4.87),
    c(5.30, 5.18, 5.61), nonotes = "quantised")
write_case("seed003_user", "lower", "auto", c(7.258, 7.222, 7.239),
    c(7.019, 7.019, 7.028))
write_case("seed003_user_higher", "higher", "auto", c(7.258, 7.222, 7.239),
    c(7.019, 7.019, 7.028))
write_case("seed003_user_unknown", "unknown", "auto",
    c(7.258, 7.222, 7.239), c(7.019, 7.019, 7.028),
    notes = "direction_assumed")
write_case("seed003_elapsed", "lower", "auto", c(7.69, 7.67, 7.69),
    c(7.02, 7.02, 7.02))
# Seed 000: one run per kernel (KB/s, higher is better), block 16 bytes.
write_case("seed000_16", "higher", "auto", 586.20, 564.75)
write_case("one_and_three", "lower", "auto", 5.0, c(5.30, 5.18, 5.61))
# Equal printed values: the rounding variance makes them equivalent.
write_case("equal_quantised", "lower", "auto", c(7.02, 7.02, 7.02),
    c(7.02, 7.02, 7.02), notes = "quantised")
write_case("step_quantised", "lower", "auto", c(7.02, 7.02, 7.02),
    c(7.03, 7.03, 7.03), notes = "quantised")
# Identical large samples, and a significant but negligible change.
z <- qnorm(ppoints(60))
base <- round(100 * (1 + 0.002 * z), 6)
write_case("identical", "lower", "auto", base, base)
write_case("negligible", "lower", "auto", base,
    round(100.3 * (1 + 0.002 * rev(z)), 6))
write_case("welch", "lower", "auto", c(10.1, 10.4, 9.9, 10.2),
    c(10.9, 11.3, 10.7, 11.8, 11.0, 10.6, 11.4))
write_case("welch_inconclusive", "higher", "auto", c(10.1, 10.4, 9.9, 10.2),
    c(10.3, 10.9, 9.8, 10.5, 10.1))
write_case("nonpositive", "lower", "auto", c(-1, 0.5, 1, 2),
    c(2, 3, 4, 5), notes = "no_ci")
write_case("student_forced", "lower", "student", c(1.01, 1.03, 0.99),
    c(1.02, 1.05, 1.04))
write_case("welch_forced", "lower", "welch", c(1.01, 1.03, 0.99),
    c(1.02, 1.05, 1.04))
# Adaptive: near-normal residuals keep the t test ...
zz <- qnorm(ppoints(12))
write_case("adaptive_normal", "lower", "auto", round(1 + 0.01 * zz, 9),
    round(1.02 * (1 + 0.01 * zz[c(2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11)]
    + 0.001), 9), notes = "adaptive", nonotes = "nonnormal")
# ... a bimodal sample (80% near 1.0, 20% near 1.1) switches.
main <- 1 + 0.01 * qnorm(ppoints(10))
bim <- round(c(main, 1.1 * c(0.995, 1.007)), 9)
bim2 <- round(1.03 * c(main[c(3, 1, 2, 6, 4, 5, 9, 7, 8, 10)] * 1.001,
    1.1 * c(1.004, 0.996)), 9)
write_case("bimodal", "lower", "auto", bim, bim2,
    notes = c("adaptive", "nonnormal"))
write_case("bimodal_higher", "higher", "auto", bim, bim2,
    notes = c("adaptive", "nonnormal"))
# 10 a side (the smallest adaptive size): the means win here ...
m10 <- 1 + 0.01 * qnorm(ppoints(8))
bb <- round(c(m10, 1.1 * c(1.002, 0.999)), 9)
bn <- round(1.08 * c(m10[c(2, 1, 4, 3, 6, 5, 8, 7)], 1.1 * c(0.998,
    1.003)), 9)
write_case("bimodal10_means", "lower", "auto", bb, bn,
    notes = c("adaptive", "nonnormal"))
# ... and the ranks here (a 2.5% change of the main mode).
bn2 <- round(1.025 * c(m10[c(2, 1, 4, 3, 6, 5, 8, 7)], 1.1 * c(0.998,
    1.003)), 9)
write_case("bimodal10_ranks", "lower", "auto", bb, bn2,
    notes = c("adaptive", "nonnormal"))
# The selector's thresholds: samples whose skewness or tail weight lies
# just above or just below them.  The outer values are tuned with
# uniroot() until Q1 (or Q2) of the residuals hits the target.
edge_pair <- function(stat, target, symmetric) {
	q <- qnorm(ppoints(9))
	mk <- function(e) {
		if (symmetric) {
			core <- qnorm(ppoints(8))
			a <- c(-e, core, e)
			b <- c(-e, core[c(2, 1, 4, 3, 6, 5, 8, 7)], e)
		} else {
			a <- c(q, e)
			b <- c(q[c(2, 1, 4, 3, 6, 5, 8, 7, 9)], e)
		}
		list(a = round(1 + 0.01 * a, 12), b = round(1.03 * (1 +
		    0.01 * b), 12))
	}
	f <- function(e) { d <- mk(e); hogg(d$a, d$b)[[stat]] - target }
	e <- uniroot(f, c(2, 12), tol = 1e-12)$root
	mk(e)
}
for (tg in list(list("q1", 1.83, FALSE), list("q1", 1.77, FALSE),
    list("q2", 3.03, TRUE), list("q2", 2.97, TRUE))) {
	d <- edge_pair(tg[[1]], tg[[2]], tg[[3]])
	h <- hogg(d$a, d$b)
	above <- h[["q1"]] > 1.8 || h[["q1"]] < 1 / 1.8 || h[["q2"]] > 3.0
	# Only the tuned statistic may decide.
	other <- if (tg[[1]] == "q1") h[["q2"]] <= 3.0 else
		h[["q1"]] <= 1.8 && h[["q1"]] >= 1 / 1.8
	stopifnot(other, above == (tg[[2]] > if (tg[[1]] == "q1") 1.8 else
	    3.0))
	write_case(sprintf("edge_%s_%s", tg[[1]], if (above) "above" else
	    "below"), "lower", "auto", d$a, d$b,
	    notes = c("adaptive", if (above) "nonnormal"),
	    nonotes = if (above) character(0) else "nonnormal")
}

# Forced Mann-Whitney: 3 a side never reaches 5%, and has no interval.
write_case("mwu_forced_small", "lower", "mwu", c(1.01, 1.03, 0.99),
    c(1.12, 1.15, 1.14), notes = "no_ci")
write_case("mwu_forced", "lower", "mwu", bim, bim2)
# Large: the normal limit of the maximum test (5000 values in all).
big_data <- function(n, k, slow, scale) {
	i <- 0:(n - 1)
	scale * ifelse(i %% 5 == slow, 1.1, 1.0) *
	    (1 + 0.02 * (((i * k) %% 10007) / 10007 - 0.5))
}
write_case("big", "lower", "auto", big_data(2500, 7919, 0, 1.0),
    big_data(2500, 6007, 2, 1.001), notes = c("adaptive", "nonnormal"),
    big = TRUE)

holm_case <- function(p) {
	adj <- p.adjust(p, "holm")
	# By hand from the definition: sorted p, (m - j + 1) p_(j), running
	# maximum, capped at 1.
	m <- length(p)
	o <- order(p)
	h <- pmin(1, cummax((m - seq_len(m) + 1) * p[o]))
	h2 <- numeric(m); h2[o] <- h
	stopifnot(all(abs(h2 - adj) <= 1e-15))
	emit(sprintf("holm p=%s adj=%s", lst(p), lst(adj)))
}
holm_case(c(0.01, 0.04, 0.03))
holm_case(c(0.2))
holm_case(c(0.001, 0.001, 0.5, 0.04, 0.3, 0.0002))
holm_case(c(0.9, 0.8, 0.7, 0.6))
holm_case(c(0.04, 0.04, 0.04))
set.seed(20240601)
holm_case(signif(runif(25)^3, 6))

writeLines(c("# generated by tests/stats/gen_verdict_fixtures.R; do not edit",
    out), "tests/stats/data/verdict.txt")
