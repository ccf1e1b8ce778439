/*
 * perfreg/suite.h - running the built-in probes (perfreg/probe.h) with
 * adaptive repetition: the library behind `perfreg suite`.
 *
 * pr_suite_run runs each probe in turn: init, then samples until every
 * metric's 95% confidence interval of the mean (Student t) is within
 * +-target_pct percent of the mean, after at least min_samples samples,
 * or until the probe's share of the time budget is spent, then fini.
 * A probe's share is what is left of budget_s divided by the probes
 * left, measured from its init (which counts against it), so that one
 * probe's overrun shortens the others' shares; a sample is not begun
 * when the longest sample of that probe so far would end past the
 * share, once PR_SUITE_SAMPLES_FLOOR samples are taken (the budget
 * comes before min_samples, the floor before the budget).  The suite
 * thus ends within budget_s unless the floor and the probes' set-up
 * take longer.  A probe
 * that cannot run here (init fails with PR_ENOTFOUND or PR_EIO) is kept
 * in the results as skipped with the reason; the suite goes on.  A part
 * of a probe that fails while it samples (its sample gives PR_ENOTFOUND,
 * perfreg/probe.h) is left out: the probe's reason goes to its notes,
 * the figures that no longer have a value for every sample are dropped
 * from its result, and the probe and the suite go on.
 *
 * pr_suite_ab runs one probe's two variants (or two parameters) A and B
 * in one boot, interleaved: each round samples both, in an order
 * shuffled per round by a seeded xoshiro256** stream, so that drift of
 * the machine falls on both alike.  It runs exactly `rounds` rounds (or
 * fewer: a round is not begun when one as long as the last would end
 * past budget_s, counted from the set-up; at least one round is run) and
 * never looks at the results on the way, so that the comparison made
 * afterwards keeps its error rate.
 *
 * Ownership: results own their datasets and strings; release with
 * pr_suite_results_free.  The probes' hooks are called from the calling
 * thread.  The library never prints: progress goes through on_sample.
 */
#ifndef PERFREG_SUITE_H
#define PERFREG_SUITE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "perfreg/buf.h"
#include "perfreg/dataset.h"
#include "perfreg/env.h"
#include "perfreg/error.h"
#include "perfreg/moderated.h"
#include "perfreg/probe.h"

struct pr_monitor;

/* Samples a probe takes whatever the budget: a mean and its spread. */
#define PR_SUITE_SAMPLES_FLOOR 2
/* Processes a suite session (or suite ab) runs at most. */
#define PR_SUITE_PROCESSES_MAX 64

struct pr_suite_result;

struct pr_suite_opts {
	int quick;       /* passed to the probes */
	int cpu;         /* -1: no pinning */
	double budget_s; /* whole suite (pr_suite_run) or A/B run */
	/* Passed to the probes (perfreg/probe.h): the operating system's
	 * CPU flags, read by the caller; NULL: not known. */
	const char *cpu_flags;
	double target_pct;  /* interval half-width goal, percent; 0:
			       * none (the budget or max_samples ends) */
	size_t min_samples; /* before convergence is checked */
	size_t max_samples; /* per probe (0: no limit) */
	size_t rounds;      /* pr_suite_ab: rounds to run */
	uint64_t seed;      /* pr_suite_ab: order of each round */
	volatile sig_atomic_t *cancel;
	/* Called after every sample (probe name, samples so far of that
	 * probe, seconds since the suite began). */
	void (*on_sample)(const char *probe, size_t k, double elapsed_s,
	    void *arg);
	void *arg;
	/* pr_suite_run: called after each probe (but the last) while what
	 * the probes cannot be cut short of, measured (the mean floor_s of
	 * the probes run so far), times the probes left exceeds what is
	 * left of budget_s: need_s that estimate, left_s what is left
	 * (perhaps < 0).  The caller decides when to say it. */
	void (*on_late)(double need_s, double left_s, void *arg);
	/* pr_suite_run: called with each probe's result as soon as the
	 * probe is done (its set-up and samples, or skipped; not for a
	 * probe that failed or was interrupted): a worker hands it to its
	 * parent then. */
	void (*on_probe)(const struct pr_suite_result *r, void *arg);
	/* pr_suite_run's clock in seconds (called with arg); NULL:
	 * CLOCK_MONOTONIC.  For tests of the budget. */
	double (*now)(void *arg);
	/* --monitor: read around each sample (perfreg/monitor.h, made
	 * with PR_MON_OPT_SELF), its figures and the sample's wall time
	 * (PR_MON_WALL) into the result's monitors; NULL: none. */
	struct pr_monitor *monitor;
};

/* quick 0, cpu -1, budget 480 s, target 1%, min 5, max 1000 samples,
 * 20 rounds, seed 1, no cancel flag, no hook. */
void pr_suite_opts_init(struct pr_suite_opts *o);

struct pr_suite_result {
	const struct pr_probe *probe;
	const char *label;      /* "A"/"B" in pr_suite_ab; else the name */
	struct pr_dataset data; /* one value per sample and metric */
	/* With pr_suite_opts.monitor: the monitors' figures, one value per
	 * sample each (a figure missing from a sample is left out: the
	 * values line up with the samples), apart from the probe's own
	 * figures, as a run's are (perfreg/runner.h). */
	struct pr_dataset monitors;
	char *notes;   /* the probe's notes; "" when none */
	char *skipped; /* NULL, or why the probe did not run */
	size_t samples;
	double elapsed_s;
	/* 1 when every metric reached the target, 0 when the budget or
	 * max_samples ended it. */
	int converged;
	int capped;       /* 1: max_samples ended it */
	int budget_cut;   /* 1: its share of the budget ended it */
	double worst_pct; /* widest half-width seen last, percent */
	/* Seconds its set-up and its first PR_SUITE_SAMPLES_FLOOR samples
	 * took (all of it when it took fewer): what the budget cannot cut,
	 * measured.  Merged: the largest of the processes'. */
	double floor_s;
	/* CPU seconds (user and system) its process and the children it
	 * reaped spent on it, its set-up and samples: with elapsed_s, the
	 * machine's pace (pr_suite_pace_of).  Merged: summed. */
	double cpu_s;
	/* Merged from processes (pr_suite_results_merge): the processes
	 * that took samples, and each sample's process index ([samples]);
	 * 0 and NULL for the results of one pr_suite_run. */
	size_t processes;
	size_t *process;
};

/*
 * Runs the n probes as described above; *out gets n results (the
 * caller's).  Errors: PR_ENOMEM, PR_EINVAL "interrupted" when *cancel
 * was set (the results so far are still in *out, with *nout of them
 * complete), or a probe's sample failing (its message, prefixed with
 * the probe's name; results so far kept).
 */
enum pr_status pr_suite_run(const struct pr_probe *const *probes, size_t n,
    const struct pr_suite_opts *o, struct pr_suite_result **out, size_t *nout,
    struct pr_error *err);

/*
 * Runs probe p's variants or parameters a and b interleaved as
 * described above.  Each side is selected as opts.variant when it names
 * one of p->variants, else as opts.param ("16" and "16B" both select
 * the parameter "16B").  *out gets 2 results (A then B).  Errors as
 * pr_suite_run; PR_ENOTFOUND when a side selects nothing.
 */
enum pr_status pr_suite_ab(const struct pr_probe *p, const char *a,
    const char *b, const struct pr_suite_opts *o, struct pr_suite_result **out,
    struct pr_error *err);

void pr_suite_results_free(struct pr_suite_result *r, size_t n);

/*
 * The suite in several processes (src/probes/process.c).  The samples of
 * one process share its placement in memory, its pages, the alignment
 * of its buffers and where it started, so they are not independent
 * replicates (issue 10: in one process of five, memcpy of 64 B ran 2-8
 * times slower throughout): `perfreg suite` and `suite ab` run their
 * probes in several fresh processes (workers), and the process is the
 * unit.
 *
 * pr_suite_results_write writes results r[0..n) as text (one record a
 * line, see process.c) into out: what a worker gives its parent, whole
 * (label, counts, notes, why skipped, every value bit-exactly).
 * pr_suite_results_read reads it back into *out (nout results, the
 * caller's; release with pr_suite_results_free), each probe found by
 * name among probes[0..np); PR_EPARSE with the line when the text is not
 * a worker's or ends inside a result, PR_ENOMEM.  Each result ends with
 * a line of its own, so that results written one at a time, as each
 * probe is done, read back as written all at once.
 */
enum pr_status pr_suite_results_write(const struct pr_suite_result *r, size_t n,
    struct pr_buf *out, struct pr_error *err);
enum pr_status pr_suite_results_read(const char *text, size_t len,
    const struct pr_probe *const *probes, size_t np,
    struct pr_suite_result **out, size_t *nout, struct pr_error *err);

/*
 * The length of the part of text[0..len) that holds whole results (up
 * to and with the last result's end line; 0 when none): what is kept of
 * a worker stopped or killed on the way.
 */
size_t pr_suite_results_whole(const char *text, size_t len);

/* What the parent of a running worker knows of its pace. */
struct pr_suite_pace_est {
	/* What the worker needs at the least to finish: the rest of the
	 * running probe's floor and the floors of the probes after it. */
	double need_s;
	int known; /* 1: some floor was measured */
	int late;  /* 1: need_s exceeds the time left */
};

/*
 * The pace of a worker running probes[0..np) of which `done` are done,
 * the next one for probe_s seconds, with left_s seconds of the budget
 * left (perhaps < 0): floor_s[i] is probe i's floor (its set-up and
 * PR_SUITE_SAMPLES_FLOOR samples, the largest measured so far in any
 * process, this one's finished probes included; 0 when not measured: a
 * probe not measured counts as the mean of those measured).  late is
 * set when the worker cannot finish within left_s even at its floors:
 * the budget will not be held, whatever is cut after this worker.
 */
void pr_suite_pace(const double *floor_s, size_t np, size_t done,
    double probe_s, double left_s, struct pr_suite_pace_est *out);

/*
 * The part of the budget `perfreg suite` keeps for capturing the
 * environment, storing and comparing, at the machine's measured pace:
 * pace (pr_suite_pace_of; 0 when unknown) times the CPU time they take
 * with `earlier` sessions stored before this one (their count, at most
 * PR_SUITE_STORE_SESSIONS_MAX taken), PR_SUITE_STORE_CPU_S plus
 * PR_SUITE_STORE_CPU_EACH_S for each beyond PR_SUITE_STORE_SESSIONS_IN,
 * at least PR_SUITE_RESERVE_S plus PR_SUITE_RESERVE_SHARE of budget_s
 * (the reserve before the pace was measured) and at most
 * PR_SUITE_RESERVE_MAX_SHARE of it (unless that is below the least).
 * PR_SUITE_STORE_CPU_S is the CPU time storing and comparing a session
 * takes, with a margin: a full --quick session's 83 figures against 5
 * earlier sessions took 1.03 s (bench/README.md, "the reserve at the
 * measured pace").  Storing and comparing a --quick session took 5.1 s of wall
 * time under nice 19 beside three CPU hogs against the 1.5 s then kept
 * (bench/README.md, issue 16): it grows with the pace, not the budget.
 * And with the history: about 0.12 s of CPU more for each earlier
 * session (2026-12-03 review: 0.12, 0.71, 1.39, 1.99 and 2.53 s at 0, 5,
 * 10, 15 and 20 earlier sessions of 83 figures, debug build), so 1.5 s
 * covers 5 of them and PR_SUITE_STORE_CPU_EACH_S, 0.15 s with the same
 * margin as 1.5 s over 1.03 s, each one more; a comparison takes at
 * most 20 sessions a side (cmd_suite.c HISTORY_MAX), so the count stops
 * at PR_SUITE_STORE_SESSIONS_MAX, two sides' worth.
 */
#define PR_SUITE_RESERVE_S 0.3
#define PR_SUITE_RESERVE_SHARE 0.03
#define PR_SUITE_RESERVE_MAX_SHARE 0.25
#define PR_SUITE_STORE_CPU_S 1.5
#define PR_SUITE_STORE_CPU_EACH_S 0.15
#define PR_SUITE_STORE_SESSIONS_IN 5
#define PR_SUITE_STORE_SESSIONS_MAX 40
double pr_suite_reserve(double pace, double budget_s, size_t earlier);

/*
 * The pace of the machine results were measured on: their wall seconds
 * for each CPU second, both summed over the results that have both (1 on
 * an idle machine for a probe that computes; more for one that waits,
 * and on a loaded machine).  Adds the wall and CPU seconds of r[0..n) to
 * *wall_s and *cpu_s (start both at 0; call again to add more results)
 * and returns the pace of the sums, 0 while *cpu_s is 0.
 */
double pr_suite_pace_of(const struct pr_suite_result *r, size_t n,
    double *wall_s, double *cpu_s);

/*
 * The CPU seconds, user and system, this process (all its threads) and
 * its reaped children have used: the one clock of the pace and of the
 * reserve.  A probe's CPU (pr_suite_result.cpu_s) is its difference
 * across the probe in a worker, its threads and child processes
 * included; the CPU that storing and comparing took is its difference
 * in `perfreg suite` after every worker was reaped (they fork nothing),
 * so that the reserve, pace times that CPU, multiplies two figures of
 * one meaning.  0 when the system does not say.
 */
double pr_suite_cpu_s(void);

/*
 * Whether the calling thread may run on CPU cpu (its affinity mask, as
 * --cpu would pin the probes): PR_OK, or PR_EINVAL "CPU N is not one
 * this process may run on (0-1, 4)" with the mask's CPUs as ranges, so
 * that a CPU that does not exist or is not allowed is refused before any
 * probe runs.  PR_EIO when the mask cannot be read.
 */
enum pr_status pr_suite_cpu_check(int cpu, struct pr_error *err);

/*
 * Appends process `process`'s results from[0..n) (the same probes in
 * the same order as into[0..n)) to into, which starts zeroed (probe set,
 * data initialised) for process 0: the samples one after the other, each
 * with its process index in into[i].process; the counts summed; the
 * notes and whether it was skipped from the first process; converged
 * only when every process converged.  Errors: PR_EINVAL when the probes
 * differ, PR_ENOMEM.
 */
enum pr_status pr_suite_results_merge(struct pr_suite_result *into,
    const struct pr_suite_result *from, size_t n, size_t process,
    struct pr_error *err);

/* A session of one process cuts its samples into this many blocks for a
 * probe that takes the best sample: each block's best is a unit. */
#define PR_SUITE_BLOCKS 4

/*
 * The value one unit (a process, or a block of one) gives figure rule's
 * way: the mean of v[0..n) (PR_PROBE_FIGURE_MEAN), or its best value,
 * the smallest with better PR_BETTER_LOWER and the largest with
 * PR_BETTER_HIGHER (PR_PROBE_FIGURE_BEST).  NAN for n == 0.
 */
double pr_suite_unit_value(const double *v, size_t n, enum pr_better better,
    enum pr_probe_figure rule);

/*
 * The rule of figure `name` ("copy.memcpy.64B"): that of the probe among
 * probes[0..np) whose name is name's first part (before the first '.'),
 * PR_PROBE_FIGURE_MEAN when none is (the monitors' figures).
 */
enum pr_probe_figure pr_suite_figure_rule(const struct pr_probe *const *probes,
    size_t np, const char *name);

/*
 * One stored session's samples, grouped by unit (units[u] the samples of
 * process u, in the order taken), reduced to what pr_suite_compare takes
 * for the session, each figure by its probe's rule (pr_suite_figure_rule
 * with probes[0..np)):
 * - with n >= 2 units, one value a unit that has the figure
 *   (pr_suite_unit_value), so that the session's value is the mean of
 *   its process means or bests and its standard error comes from them;
 * - with one unit (a session of one process, or one stored before
 *   processes, each of whose samples is a round of its own, so that its
 *   unit values are its samples) a mean figure's samples as they are,
 *   and a best figure's samples cut into PR_SUITE_BLOCKS blocks in order
 *   (fewer when there are fewer samples; block b of k holds samples
 *   [b n / k, (b + 1) n / k)), each block's best one value.
 * Appends to out.  Errors: PR_ENOMEM.
 */
enum pr_status pr_suite_unit_values(const struct pr_dataset *units, size_t n,
    const struct pr_probe *const *probes, size_t np, struct pr_dataset *out,
    struct pr_error *err);

/*
 * One `suite ab` process's samples of one side (process) reduced by the
 * same rule as the suite's processes (pr_suite_figure_rule with
 * probes[0..np)), for pr_suite_compare with the process as the unit: a
 * best figure's best sample, one value (no error within the process); a
 * mean figure's samples as they are (their mean the process's value,
 * their spread its error).  Appends to out.  Errors: PR_ENOMEM.
 */
enum pr_status pr_suite_ab_values(const struct pr_dataset *process,
    const struct pr_probe *const *probes, size_t np, struct pr_dataset *out,
    struct pr_error *err);

/*
 * The half-width of the 95% Student interval of the mean of the n
 * values, in percent of |mean|: +inf for fewer than 2 values or a zero
 * mean.  What decides convergence.
 */
double pr_suite_halfwidth_pct(const double *v, size_t n);

/*
 * Configurations (src/probes/config.c).  A suite session's figures
 * depend on the machine's configuration: the environment items env diff
 * ranks as moving performance (pr_env_relevant_keys, perfreg/env.h) but
 * clocksource.available: kernel release, version and command line, CPU
 * model, microcode, flags, cores and SMT, governor and boost,
 * mitigations, clocksource, transparent hugepages, C library, compiler,
 * the OpenSSL library the crypto probe uses and the probes' own version.
 * Sessions whose snapshots agree on all of them share a configuration.
 * The process environment's variables (env.NAME, pr_env_process_vars:
 * OPENSSL_ia32cap, GLIBC_TUNABLES, LD_PRELOAD...) are relevant but not
 * configuration items either: a session run with OPENSSL_ia32cap masking
 * AES-NI is checked against its configuration's sessions and called, and
 * the one after it without the mask is not a change back; the report's
 * environment section names the variable (pr_env_diff).
 */

/* PR_SUITE_PROBES_VERSION, bumped whenever a probe is added or changes
 * what or how it measures, is kept beside the list of probes. */
#include "perfreg/probes.def"

/* 8 hexadecimal digits and the NUL. */
#define PR_SUITE_CONFIG_LEN 9

/* 1 when key is one of a configuration's items (above). */
int pr_suite_config_key(const char *key);

/* Adds to e the items only the suite knows, unless e has them:
 * perfreg.probes (PR_SUITE_PROBES_VERSION) and openssl.library (the
 * version of the library linked in).  Errors: PR_ENOMEM. */
enum pr_status pr_suite_env_add(struct pr_env *e, struct pr_error *err);

/* The configuration id of snapshot e: a hash of its configuration items
 * (key, value or unavailable, in e's order), as 8 hex digits.  Equal for
 * snapshots whose configuration items are all equal. */
void pr_suite_config_id(const struct pr_env *e, char out[PR_SUITE_CONFIG_LEN]);

/* An earlier suite session, as the plan sees it: only sessions that can
 * be compared (this host, finished, the same kind, the same probes). */
struct pr_suite_sess {
	int64_t id;
	const char *config; /* its configuration id */
	int chosen;         /* 1: --baseline named it */
	/* Its probes' pace stored with it (pr_suite_pace_of, the tag
	 * pace=); 0 or below, or not finite: not stored. */
	double pace;
	/* The figures its own stability check called (the tags
	 * regressions= and improvements= written after it): 0 and 0 when
	 * none was or nothing is stored (sessions stored before the tags
	 * were, or compared after a change of configuration). */
	size_t regressions, improvements;
};

enum pr_suite_plan_kind {
	PR_SUITE_PLAN_NONE = 0,  /* no earlier session: the first */
	PR_SUITE_PLAN_STABILITY, /* the configuration never changed */
	PR_SUITE_PLAN_CHANGE,    /* after a change of configuration */
	PR_SUITE_PLAN_CHOSEN     /* --baseline chose the base */
};

struct pr_suite_plan {
	enum pr_suite_plan_kind kind;
	const char *config;      /* the new session's (borrowed) */
	const char *base_config; /* the base's (borrowed from the list) */
	int64_t *base, *new_;    /* session ids, oldest first */
	size_t nbase, nnew;
	/* The earlier sessions of the two configurations left out as
	 * starved (pr_suite_plan), oldest first: nleft ids, each one's
	 * pace, the median pace of its peers (0: none stored) and the
	 * limit its pace exceeded. */
	int64_t *left;
	double *left_pace, *left_peers, *left_limit;
	size_t nleft;
	/* Why each was left out: 0 starved, 1 called (its own stability
	 * check called left_reg regressions and left_imp improvements). */
	int *left_called;
	size_t *left_reg, *left_imp;
	/* A stability plan in a configuration that began with a change
	 * (more than PR_SUITE_CHANGE_SESSIONS sessions ago): since, the
	 * first session of this configuration after it, since_prev the
	 * latest session of the configuration before, since_config
	 * (borrowed); 0, 0 and NULL otherwise. */
	int64_t since, since_prev;
	const char *since_config;
};

/*
 * How many sessions of a configuration after a change are compared with
 * the previous configuration (PR_SUITE_PLAN_CHANGE), the new one among
 * them: from the next one on, the configuration is checked against its
 * own sessions (PR_SUITE_PLAN_STABILITY).  The change's verdict is then
 * replicated on the new side, and a regression within the new
 * configuration is still called against that configuration.  Chosen by
 * the change comparison's power against nn new sessions
 * (bench/suite-sim -N, bench/README.md, "The plan after a configuration
 * change"): on the suite's fitted model (4 processes, the carried rule)
 * a 10% shift of one probe, k sessions before the change: the power
 * rises with nn and levels off, and PR_SUITE_CHANGE_SESSIONS is the
 * smallest nn that reaches 95% of the power at nn = 8 (the mean over the
 * probes) at k = 2 and at k = 3, the bases issue 10 and the README speak
 * of: k = 2 46.0% at nn = 2 of 46.2%, k = 3 47.4% at nn = 2 (93%) and
 * 49.0% at nn = 3 (96%) of 51.1%.  At nn = 3 the probes it finds at all
 * (copy, crypto, random) are found in 99.3-100% at k = 2, 3 and 5, and
 * no change is called in A/A in 0.1% or less.  A longer base gains
 * more from more sessions (k = 5: 50.4% at nn = 3, 58.9% at 8):
 * `--baseline` compares the change again at any time.
 */
#define PR_SUITE_CHANGE_SESSIONS 3

/*
 * Which sessions the new session `session`, of configuration `config`
 * and pace `pace` (0: not known), is compared with; s[0..n) are the
 * earlier sessions, oldest first.
 * - When some are chosen (--baseline), the base is the chosen sessions
 *   and the new side this configuration's other sessions and `session`
 *   (PR_SUITE_PLAN_CHOSEN).
 * - Else, when an earlier session has another configuration, the
 *   previous configuration is that of the latest such session; while
 *   this configuration's sessions after it that are not left out
 *   (below, as the change plan leaves them out), with `session`, number
 *   at most PR_SUITE_CHANGE_SESSIONS, the base is the previous
 *   configuration's sessions (wherever they lie in the history), the
 *   new side this configuration's sessions and `session`
 *   (PR_SUITE_PLAN_CHANGE): the second session after an update is still
 *   compared with the sessions from before it, never with a mix.
 * - Else the base is this configuration's earlier sessions (wherever
 *   they lie: a configuration that comes back has its old ones), the new
 *   side `session` alone (PR_SUITE_PLAN_STABILITY), or nothing at all
 *   (PR_SUITE_PLAN_NONE).  After a change (more than
 *   PR_SUITE_CHANGE_SESSIONS sessions before), since, since_prev and
 *   since_config say where this configuration began, so that the report
 *   can say how to compare that change again (--baseline
 *   since_config).
 * Starved earlier sessions are left out of both sides (not of a side
 * --baseline chose): an earlier session of the base's or the new
 * configuration whose stored pace exceeds PR_SUITE_PACE_FACTOR times the
 * median of its peers' paces (the other earlier sessions of those two
 * configurations and the new session, those with a pace stored; the low
 * median: of an even number the lower of the two middle ones), or
 * above PR_SUITE_PACE_LEVEL in any case (pr_suite_left_out).  Its
 * figures measured the scheduler, not the code (see "Starved sessions"
 * below): in the base it would widen the spread or shift the level of
 * every figure for as long as it stays among the latest sessions.  The
 * low median, not the largest, so that one starved session cannot hide
 * another (two starved base sessions and the new one: each starved one's
 * peers are the other and the new session, and the lower is the new).  A stability plan whose every base session was
 * left out is PR_SUITE_PLAN_NONE with nleft > 0 (nothing to compare
 * with); a change plan whose base was is PR_SUITE_PLAN_NONE too.  The
 * new session itself is never left out: pr_suite_cmp_pace decides it.
 * Sessions that were incidents are left out of both sides too (not of a
 * side --baseline chose): an earlier session of the two configurations
 * whose own stability check called any figure (regressions or
 * improvements above 0).  In the base its called figures would widen
 * those figures' between-session spread, and a regression that comes
 * back would not be called; a regression that persists is still called
 * against the sessions before it, session after session, as a stability
 * check should.  A session both starved and called is left out as
 * starved.
 * Each side keeps its latest max sessions (0: all; 1 counts as 2) of
 * those not left out.  The plan borrows the configuration strings;
 * release it with pr_suite_plan_release.  Errors: PR_ENOMEM (*out is
 * then empty).
 */
enum pr_status pr_suite_plan(const struct pr_suite_sess *s, size_t n,
    int64_t session, const char *config, double pace, size_t max,
    struct pr_suite_plan *out, struct pr_error *err);

/*
 * 1 when an earlier session of pace `pace` whose peers' paces have the
 * median `median` (0: none stored) is starved, as pr_suite_plan leaves
 * it out: pace > 0, finite and above PR_SUITE_PACE_FACTOR times median,
 * or above PR_SUITE_PACE_LEVEL whatever the median.  *limit (NULL allowed)
 * gets the limit.
 */
int pr_suite_left_out(double pace, double median, double *limit);

void pr_suite_plan_release(struct pr_suite_plan *p);

/*
 * Comparing sessions (src/probes/compare.c): the figures a report shows,
 * in its order.
 */
struct pr_suite_figure {
	const char *name, *unit;
	enum pr_better better;
};

struct pr_suite_cmp {
	size_t n;      /* figures compared (found on both sides) */
	size_t *index; /* [n]: each one's index in the figures given */
	struct pr_comparison *cmp; /* [n]: the verdicts */
	size_t *kb, *kn;           /* [n]: sessions that had it, base and new */
	/* Figure j's base session means are values[j * base_stride], its
	 * new ones follow them at + nb (kb and kn of them), then the
	 * standard errors of their log means. */
	double *values;
	size_t base_stride, nb, nn;
	struct pr_moderated_fit fit; /* what the moderated t did */
	/* pr_suite_cmp_pace: 1 when the new session was starved (its
	 * figures then not called), with its pace, the largest stored
	 * pace of its base sessions (0: none stored) and the limit. */
	int starved;
	double pace, base_pace, pace_limit;
	/* pr_suite_cmp_gate: NULL, or [n]: 1 for a figure not gated, 2 for
	 * one not gated that its test would have called (its verdict, now
	 * inconclusive, in would[i]). */
	unsigned char *ungated;
	enum pr_verdict *would;
	/* PR_SUITE_VALUE_BOTH or _CARRIED: how many figures the mean's
	 * test called that the rule did not (now inconclusive), and NULL
	 * (none) or [n]: each figure's verdict by the mean's test when the
	 * rule did not make it (PR_VERDICT_REGRESSION or _IMPROVEMENT),
	 * else PR_VERDICT_INCONCLUSIVE (0). */
	size_t uncarried;
	enum pr_verdict *apart;
};

/*
 * Compares, figure by figure, the new sessions nd[0..nn) with the base
 * sessions bd[0..nb), each a dataset of one session's (or process's)
 * samples: each figure of each session is one value, its mean, with the
 * standard error of its log mean (sd / sqrt(n) / mean; 0 for one
 * sample), and all figures found on both sides are decided together by
 * pr_moderated_compare with options mo (NULL: its defaults), which also
 * adjusts for their number.  A figure missing on a side is left out.
 * out is the caller's; release with pr_suite_cmp_release.  Errors:
 * PR_EINVAL (nothing to compare, or pr_moderated_compare's), PR_ENOMEM;
 * out is then empty.
 */
enum pr_status pr_suite_compare(struct pr_dataset *bd, size_t nb,
    struct pr_dataset *nd, size_t nn, const struct pr_suite_figure *fig,
    size_t nfig, const struct pr_moderated_opts *mo, struct pr_suite_cmp *out,
    struct pr_error *err);

void pr_suite_cmp_release(struct pr_suite_cmp *c);

/*
 * A session's figure from its units' values (its processes' means or
 * bests, pr_suite_unit_values).  The mean lets one unit move the session:
 * one stalled process of four, every sample of which had a p99 of 2.4 ms
 * against 4.8 us in the other three, made `handoff.futex.p99` +9185% in
 * an A/A comparison (bench/README.md, "The suite's verdicts").
 * - PR_SUITE_VALUE_MEAN: the mean of the n values, the standard error of
 *   its log sd / sqrt(n) / mean (0 for n < 2).
 * - PR_SUITE_VALUE_MEDIAN: the median of the n values (of an even number
 *   the mean of the two middle ones: of 4 processes, 1 stalled moves it
 *   no further than the others' range), the standard error of its log
 *   c_n sd / sqrt(n) / mean, the mean's (sd the standard deviation, n - 1,
 *   of all n values) times c_n, the ratio of the standard deviation of
 *   the median of n normal values to that of their mean (1.0922 for 4,
 *   1.1602 for 3, sqrt(pi / 2) in the limit; c_n^2 sd^2 / n is unbiased
 *   for the median's variance there), so that a session whose processes
 *   disagree still says so in its error (relative to the mean, it stays
 *   below c_n however far one process is); for n < 3 the mean rule.  c_n
 *   comes from tests/probes/gen_suite_median.py (scipy, the order
 *   statistics integrated), which also checks the variance by simulation.
 */
enum pr_suite_value {
	PR_SUITE_VALUE_MEAN = 0,
	PR_SUITE_VALUE_MEDIAN,
	/* The mean's comparison; a figure called only when the median's
	 * comparison calls it the same way. */
	PR_SUITE_VALUE_BOTH,
	/* The mean's comparison; a figure called only when the new
	 * sessions' process values differ from the base's level by a
	 * one-sample t (n - 1 df) at p < 1 - conf. */
	PR_SUITE_VALUE_CARRIED
};
/* The rule `perfreg suite` takes for its sessions, in its comparisons and
 * its probe lines (pr_suite_result_stats): the mean of the processes as
 * the value, a call only when the new session's processes carry it
 * (PR_SUITE_VALUE_CARRIED).  Measured (bench/README.md, "A change carried
 * by the processes"): on the ten sessions of real10.db the mean alone
 * called one stalled process of four in A/A comparisons (handoff.futex
 * +850%) and in the slowed session; the median called the machine's 1-5%
 * drifts between sessions at k = 2 and 3 (7.1% of the comparisons at
 * k = 2); with the check nothing is called in any A/A comparison at k =
 * 1 to 7, and the slowed session exactly its 19 regressions and one
 * improvement at k = 3; on ten sessions under a load of 7-9 (real11.db)
 * 2.4% at k = 2 and 3, the mean 12.7% at k = 3.  PR_SUITE_VALUE_BOTH (the median's comparison
 * must call it too) did as well on the store and costs a second
 * comparison and some power at k = 1: kept for the replay and the sim.
 * suite ab's processes take the mean of their samples
 * (pr_suite_compare). */
#define PR_SUITE_VALUE_SESSIONS PR_SUITE_VALUE_CARRIED

/*
 * PR_SUITE_VALUE_CARRIED's check: 1 when the process values v[0..n)
 * (every process of the new sessions) differ from `level` (the base's
 * geometric mean of its session values) by a one-sample Student t with
 * n - 1 df, two-sided p < 1 - conf (unadjusted: a necessary condition
 * beside the moderated t, not a second test of the family), or when it
 * cannot say (n < 2, the values all equal, level not finite); 0 when
 * the change is not carried by the processes.  One process of n apart
 * from n - 1 that sit at the level gives t = 1 exactly, however far it
 * is: one stalled process cannot make a call.
 */
int pr_suite_carried(const double *v, size_t n, double level, double conf);

/* The session value of v[0..n) (n >= 1) by rule into *value, the
 * standard error of its log into *se.  Errors: PR_ENOMEM (n above
 * PR_SUITE_PROCESSES_MAX needs scratch memory). */
enum pr_status pr_suite_session_value(const double *v, size_t n,
    enum pr_suite_value rule, double *value, double *se, struct pr_error *err);

/* pr_suite_compare with each session's value by rule (pr_suite_compare
 * itself: PR_SUITE_VALUE_MEAN). */
enum pr_status pr_suite_compare_value(struct pr_dataset *bd, size_t nb,
    struct pr_dataset *nd, size_t nn, const struct pr_suite_figure *fig,
    size_t nfig, const struct pr_moderated_opts *mo, enum pr_suite_value rule,
    struct pr_suite_cmp *out, struct pr_error *err);

/*
 * Starved sessions.  A suite figure is wall time, so a session whose
 * probes got a sliver of a CPU (nice 19 beside busy processes) measures
 * the scheduler: at nice 19 on the shared machine of bench/README.md the
 * pace (pr_suite_pace_of) was 15.8-31.4 wall s a CPU s against 1.3-1.7
 * at nice 0, and an A/A session called 3 false regressions.  The new
 * session is starved when its pace exceeds PR_SUITE_PACE_FACTOR times
 * the largest pace stored with its base sessions, or PR_SUITE_PACE_LEVEL
 * whatever theirs (none stored, sessions stored before the pace was, or a
 * series starved alike: review of s12, finding 1), the level above the
 * 1.3-4 measured at nice 0 under a load of 5-10, below the 16 of the
 * least starved session.  A pace of 0 or
 * below (not known) is never starved, and a base pace of 0 or below (or
 * not finite) counts as not stored.
 */
#define PR_SUITE_PACE_FACTOR 4.0
#define PR_SUITE_PACE_LEVEL 8.0

/* 1 when a session of pace `pace` against base sessions of paces
 * base_pace[0..nb) is starved, as above; *limit (when not NULL) gets
 * the limit and *largest the largest base pace stored (0: none). */
int pr_suite_starved(double pace, const double *base_pace, size_t nb,
    double *limit, double *largest);

/*
 * Records in c the pace rule for the new session (pace) against base
 * sessions of paces base_pace[0..nb): when starved, every figure's
 * verdict becomes inconclusive (not called), so that the counts, the
 * gate and the report say what is shown; c->starved, pace, base_pace
 * and pace_limit say why.
 */
void pr_suite_cmp_pace(struct pr_suite_cmp *c, double pace,
    const double *base_pace, size_t nb);

/*
 * Figures not gated.  A figure that measures the scheduler rather than the
 * code is shown with its change and interval but never called a
 * regression or an improvement: a busy-polling hand-off's (handoff.spin.*).
 * Its round trip is what the code costs only while both threads hold a
 * CPU at once; on a shared machine whether they do is the scheduler's
 * choice: in session 12's A/A sessions at nice 0 a process's median round
 * trip was about 130 ns in some processes and 2,000-8,000 ns in others
 * (the two on one CPU, the poller yielding), and its 99th percentile from
 * 2.4 us to 4.6 ms; session 11's A/A session called handoff.spin.p99
 * +13077% (1.64 ms against 9.7-20 us in its 5 base sessions).  Fixing the
 * two threads on two CPUs did not help: a pinned thread cannot leave a
 * busy CPU (bench/README.md).  The other hand-offs sleep and are woken, and
 * their best samples moved 0.04-0.18 (log) between sessions: gated.
 * pr_suite_ungated lists the figures as "PREFIX*SUFFIX" patterns (a name
 * that starts with PREFIX and ends with SUFFIX), NULL-terminated.
 */
extern const char *const pr_suite_ungated[];

/* 0 when figure name matches a pattern of pr_suite_ungated, else 1. */
int pr_suite_gated(const char *name);

/*
 * Sets c->ungated (and c->would) for the figures fig[c->index[i]] that are
 * not gated: each one's regression or improvement becomes inconclusive
 * (not called), so that the counts, the gate and the report say what is
 * shown.  Errors: PR_ENOMEM (c unchanged).
 */
enum pr_status pr_suite_cmp_gate(struct pr_suite_cmp *c,
    const struct pr_suite_figure *fig, struct pr_error *err);

/*
 * The figures of the results r[0..n), in their order (a skipped probe
 * has none), into *fig (the caller's, free(); names borrowed from r)
 * and *nfig.  Errors: PR_ENOMEM.
 */
enum pr_status pr_suite_figures(const struct pr_suite_result *r, size_t n,
    struct pr_suite_figure **fig, size_t *nfig, struct pr_error *err);

/* The mean of a figure's samples in one session and the half-width of
 * its 95% Student interval in percent of the mean (+inf for fewer than
 * two samples or a zero mean): what a probe's line shows. */
void pr_suite_figure_stats(const struct pr_metric *m, double *mean,
    double *halfwidth_pct);

/* The same for figure m of result r, by its probe's rule (r->probe's
 * figure), as pr_suite_unit_values takes a stored session: with samples
 * from two or more processes (r->processes, r->process) the session's
 * value of its process means or bests by PR_SUITE_VALUE_SESSIONS (their
 * mean, pr_suite_session_value) and the half-width t(0.975, n - 1)
 * times the standard error of its log, the process the unit; with one
 * process, a mean figure's pr_suite_figure_stats and a best figure's the
 * same from its PR_SUITE_BLOCKS blocks' bests. */
void pr_suite_result_stats(const struct pr_suite_result *r,
    const struct pr_metric *m, double *mean, double *halfwidth_pct);

/* What a comparison found, figure by figure. */
struct pr_suite_counts {
	size_t figures;      /* compared */
	size_t regressions;  /* verdict regression */
	size_t improvements; /* verdict improvement */
	size_t unchanged;    /* equivalent: the interval inside the band */
	size_t inconclusive; /* the rest, the untested among them */
};

void pr_suite_count(const struct pr_suite_cmp *c, struct pr_suite_counts *out);

/* 1 when figure i of c is shown by default: a regression or an
 * improvement. */
int pr_suite_changed(const struct pr_suite_cmp *c, size_t i);

#endif /* PERFREG_SUITE_H */
