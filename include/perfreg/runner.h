/*
 * perfreg/runner.h - a benchmark session: several variants (commands)
 * run repeatedly, interleaved, each run measured (perfreg/spawn.h) and
 * its output parsed (perfreg/parse.h), the library behind `perfreg run`.
 *
 * A session runs, in this order:
 * 1. each variant's setup command, once;
 * 2. the warm-up runs: `warmup` rounds in which every variant runs once,
 *    in the order the variants were added; they are recorded (with
 *    warmup set) but never counted;
 * 3. the counted rounds.  With PR_ORDER_SHUFFLED (the default) every
 *    round runs every variant once, in an order shuffled per round by a
 *    xoshiro256** stream seeded with `seed` (perfreg/rng.h; the same
 *    seed gives the same orders), so that drift of the machine's speed
 *    falls on all variants alike and each round gives one pair per
 *    variant against the baseline (the first variant) for
 *    pr_session_paired.  With PR_ORDER_SEQUENTIAL every run of the
 *    first variant comes first, then every run of the second, and so on:
 *    the habit of the seed reports, which mistakes drift for a change
 *    (pairs are then formed by run index and are not protected against
 *    drift; a report must say so);
 * 4. each variant's cleanup command, once, even after a stop.
 * A variant's prepare command runs before each of its runs (warm-ups
 * included) and is not timed.  Setup, prepare and cleanup commands run
 * with the same shell setting, timeout and output limit as the variant.
 *
 * Each run records the metrics wall_s, user_s, sys_s (s), maxrss_kib
 * (KiB), ctxsw_vol and ctxsw_invol (count), all lower-is-better, and, when
 * a parser is given, the metrics parsed from its output (and the
 * parser's derived metrics, which may use wall_s and the others).  A run
 * fails when its command could not start, exited non-zero, was killed,
 * timed out, its prepare command failed, or its output could not be
 * parsed; a failed run keeps its reason and its output and is not
 * counted.  After max_failures failed runs (0: no limit) the session
 * stops.  The session also stops, between runs or by killing the
 * running command, when *spawn.cancel becomes non-zero (Ctrl-C), and
 * after a round when the optional `should_stop` hook says so: this is
 * where a sequential method (--until-decided) plugs in.
 *
 * Ownership: the session owns its variants, runs and datasets; the
 * pointers the hooks receive are borrowed for the duration of the call.
 * Lifecycle: pr_session_init -> pr_session_add_variant... ->
 * pr_session_run -> read -> pr_session_release.  Not thread-safe.  The
 * library never prints: progress goes through the on_run hook.
 */
#ifndef PERFREG_RUNNER_H
#define PERFREG_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/dataset.h"
#include "perfreg/error.h"
#include "perfreg/monitor.h"
#include "perfreg/paired.h"
#include "perfreg/parse.h"
#include "perfreg/seq.h"
#include "perfreg/spawn.h"

/* The built-in metrics of every run, in this order. */
#define PR_RUN_NBUILTIN 6
extern const char *const pr_run_builtin[PR_RUN_NBUILTIN];

/* Most variants a session takes. */
#define PR_RUNNER_VARIANTS_MAX 4096

enum pr_order { PR_ORDER_SHUFFLED = 0, PR_ORDER_SEQUENTIAL };

enum pr_stop {
	PR_STOP_NONE = 0,    /* not run, or still running */
	PR_STOP_DONE,        /* every round ran */
	PR_STOP_FAILURES,    /* max_failures reached */
	PR_STOP_INTERRUPTED, /* *cancel was set */
	PR_STOP_HOOK,        /* should_stop said so: decided */
	PR_STOP_BUDGET       /* with should_stop: the rounds ran out, or it
			      * returned < 0 (another budget), first:
			      * undecided within budget */
};

struct pr_variant {
	char *name;    /* unique in the session */
	char *command; /* the command line */
	char **argv;   /* its words (pr_split_words); NULL with a shell */
	char *exe;     /* argv[0] found in PATH at its first run, or NULL */
	char *setup, *prepare, *cleanup; /* command lines or NULL */
	/* The counted runs' metrics, in the order of the runs. */
	struct pr_dataset data;
	size_t runs_ok, runs_failed;
};

struct pr_run {
	size_t variant; /* index in the session */
	size_t round;   /* 0-based round (warm-up rounds counted apart) */
	size_t seq;     /* 0-based position in the whole session */
	int warmup;
	int ok; /* succeeded (counted unless warmup) */
	enum pr_spawn_outcome outcome;
	int exit_status, signal;
	char *reason; /* "" when ok; never NULL */
	/* NULL when ok; else where it failed: "prepare" (the command did
	 * not run; outcome is the prepare command's), "command" (outcome
	 * says how) or "parse" (the command succeeded, its output could
	 * not be read).  A static string. */
	const char *failed_in;
	/* The run's standard output followed by its standard error, each
	 * whole (they are captured apart: a line of one never cuts a line
	 * of the other); this is also what the parser reads. */
	char *output; /* kept for failed runs (NUL-terminated), and
			   * for successful ones with keep_output while
			   * on_run sees them; else NULL */
	size_t output_len;
	int truncated;  /* output went over output_limit */
	double start_s; /* when it started, seconds after the session */
	struct pr_dataset metrics; /* this run's metrics, one value each */
	/* The monitors' figures of this run (perfreg/monitor.h), one
	 * value each, kept apart from metrics; empty without a monitor. */
	struct pr_dataset monitors;
};

struct pr_session;

struct pr_runner_opts {
	size_t runs;   /* counted rounds; with should_stop, the most */
	size_t warmup; /* warm-up rounds */
	enum pr_order order;
	uint64_t seed;
	size_t max_failures; /* 0: no limit */
	/* Shell, timeout, limit, cancel, reap_orphans; without a spawner,
	 * the session prepares one for all its runs. */
	struct pr_spawn_opts spawn;
	/* Parsing: when parse_output, each run's output is read with
	 * pr_parse_buffer (format and --metric of the parser); when parser
	 * is not NULL its derived metrics are computed over the run's
	 * metrics.  The parser is borrowed for the session. */
	const struct pr_parser *parser;
	int parse_output;
	/* 1: successful runs keep their output for on_run too (a store
	 * records it); it is freed when on_run returns. */
	int keep_output;
	/* Called after every run, warm-ups and failures included. */
	void (*on_run)(const struct pr_session *s, const struct pr_run *r,
	    void *arg);
	/* Called after every complete shuffled round; > 0 stops the
	 * session as decided (PR_STOP_HOOK), < 0 as undecided within a
	 * budget (PR_STOP_BUDGET), which is also how a session with this
	 * hook ends when its rounds run out first.  Not called in
	 * sequential order. */
	int (*should_stop)(const struct pr_session *s, void *arg);
	void *arg; /* given to both hooks */
	/* Read around each run (warm-ups included), just before the spawn
	 * and just after the reap, into pr_run.monitors; borrowed; NULL:
	 * none. */
	struct pr_monitor *monitor;
};

/* runs 10, warmup 1, shuffled, seed 1, max_failures 0, spawn defaults,
 * no parser, no hooks. */
void pr_runner_opts_init(struct pr_runner_opts *o);

struct pr_session {
	struct pr_variant *v;
	size_t nv, vcap;
	struct pr_run *runs;
	size_t nruns, rcap;
	struct pr_runner_opts opts; /* as given to pr_session_run */
	size_t rounds_done; /* counted rounds completed by every variant */
	size_t failures;    /* failed runs, warm-ups included */
	enum pr_stop stop;
	double elapsed_s; /* whole session, setup to cleanup */
	/* perfreg's own time per run: the time of a run's step in the
	 * loop (spawn, wait, record, parse, on_run hook) minus the
	 * command's wall time, averaged over the runs; prepare commands
	 * excluded. */
	double overhead_s;
	double clock_res_s; /* clock_getres(CLOCK_MONOTONIC) */
};

void pr_session_init(struct pr_session *s);
void pr_session_release(struct pr_session *s);

/*
 * Adds a variant.  name must be non-empty and unique (PR_EINVAL);
 * command is split into words (pr_split_words: its errors) unless
 * shell is set, in which case it is given to /bin/sh -c.  setup,
 * prepare and cleanup may be NULL.  Strings are copied.
 */
enum pr_status pr_session_add_variant(struct pr_session *s, const char *name,
    const char *command, int shell, const char *setup, const char *prepare,
    const char *cleanup, struct pr_error *err);

/* The variant called name, or NULL. */
struct pr_variant *pr_session_find(struct pr_session *s, const char *name);

/*
 * Runs the session as described above with o (copied into s->opts).
 * Failed runs are not errors.  Returns PR_OK when the session ran (see
 * s->stop for how it ended), or an error when it could not: a setup
 * command failed (PR_EINVAL, with its reason and the start of its
 * output), no variants, runs of 0 (PR_EINVAL), or perfreg itself
 * failed (PR_EIO, PR_ENOMEM).  What ran before an error stays in s.
 */
enum pr_status pr_session_run(struct pr_session *s,
    const struct pr_runner_opts *o, struct pr_error *err);

/*
 * The paired analysis of variant vi against the baseline (variant 0) on
 * the metric called name: the rounds in which both succeeded and both
 * have a value of the metric give one pair each.  resolution is the
 * grid of the values (for wall_s the clock's; 0 for unknown).
 * PR_ENOTFOUND when no round has such a pair, PR_EINVAL when values are
 * not positive (pr_paired_compare); *npairs (may be NULL) gets the
 * number of pairs.
 */
enum pr_status pr_session_paired(const struct pr_session *s, size_t vi,
    const char *name, double conf, double resolution, struct pr_paired *out,
    size_t *npairs, struct pr_error *err);

/*
 * The grid a built-in metric's values lie on: the clock's resolution for
 * wall_s, 1 us for user_s and sys_s (rusage), 1 for maxrss_kib and the
 * context switch counts; 0 (unknown) for any other metric.
 */
double pr_session_resolution(const struct pr_session *s, const char *name);

/*
 * The sequential decision (perfreg/seq.h) for variant vi against the
 * baseline on metric name after the rounds so far: the log-ratios of
 * the pairs of pr_session_paired, in round order, fed to a fresh
 * sequence with the options o.  When o->sd_floor is 0 and the metric's
 * grid is known (pr_session_resolution), the floor is the spread of a
 * log-ratio that rounding to that grid can hide.  The decision keeps
 * its error rate however often it is asked, which is what
 * `perfreg run --until-decided` does after every round.  PR_ENOTFOUND
 * when there is no pair yet; PR_EINVAL for values that are not > 0
 * (a log-ratio needs them) or bad options.
 */
enum pr_status pr_session_decide(const struct pr_session *s, size_t vi,
    const char *name, const struct pr_seq_opts *o, struct pr_seq_result *out,
    struct pr_error *err);

/* One -L parameter: a name and its values. */
struct pr_param {
	const char *name;
	const char *const *values;
	size_t n;
};

/*
 * Replaces every {NAME} in tmpl by the value choice[i] of params[i]
 * (choice[i] < params[i].n); other braces are kept.  *out is the
 * caller's (free()).  PR_ENOMEM only.
 */
enum pr_status pr_param_expand(const char *tmpl, const struct pr_param *params,
    size_t np, const size_t *choice, char **out, struct pr_error *err);

/* "shuffled" / "sequential"; "done", "max-failures", "interrupted",
 * "decided", "undecided". */
const char *pr_order_str(enum pr_order o);
const char *pr_stop_str(enum pr_stop s);

#endif /* PERFREG_RUNNER_H */
