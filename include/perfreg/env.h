/*
 * perfreg/env.h - snapshots of the environment a benchmark ran in, and
 * the diff of two snapshots that explains a regression.
 *
 * A snapshot (struct pr_env) is an ordered list of items: a dotted key
 * ("clocksource.current"), a category ("clock") and a string value, or
 * no value and the reason it could not be read ("unavailable: permission
 * denied").  Lists (CPU flags, modules, available clocksources) are kept
 * as sorted, space-separated words; the kernel log is one item,
 * "kernel.log", whose value is the normalised log, one line per line.
 *
 * pr_env_capture reads /proc and /sys below a root prefix (so that tests
 * capture from fixture trees), runs tools through an injectable runner
 * and takes the kernel log from klogctl(2) or from text the caller gives.
 * Anything unreadable is recorded as unavailable with its reason; only
 * running out of memory is an error.  The keys, and which sysctls are
 * read, are listed in doc/perfreg.1 (ENVIRONMENT SNAPSHOTS).
 *
 * pr_env_to_json / pr_env_from_json give the file form
 * ({"format":"perfreg-env","version":1,"items":[...]}), which round-trips
 * exactly.
 *
 * pr_env_diff compares two snapshots: items added, removed and changed,
 * the ones known to move performance first (clocksource, mitigations,
 * governor and boost, microcode, CPU flags, kernel command line, SMT,
 * transparent hugepages), each with a one-line reason; then the rest;
 * then the kernel log lines found in only one of the two, lines about
 * clocks, timecounters, mitigations and microcode first.
 *
 * Ownership: every structure owns its strings; release with the
 * matching _release.  Thread-safety: no global state; the functions may
 * run in several threads on different objects, except that
 * pr_env_capture calls strerror(3) for its reasons.  The library never
 * prints.
 */
#ifndef PERFREG_ENV_H
#define PERFREG_ENV_H

#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"

struct pr_env_item {
	char *key;      /* "cpu.flags" */
	char *category; /* "cpu" */
	char *value;    /* NULL when unavailable */
	char *reason;   /* why unavailable; NULL when value is set */
};

struct pr_env {
	struct pr_env_item *items;
	size_t n, cap;
};

/*
 * Runs a tool for the snapshot (argv NULL-terminated).  Returns 0 with
 * *out a malloc'd string (its whole output), or -1 with a one-line
 * reason in why ("not installed", "exit status 1").
 */
typedef int pr_env_runner(void *ctx, char *const *argv, char **out, char *why,
    size_t whysize);

struct pr_env_opts {
	/* Prefix of /proc and /sys ("" or NULL: the real ones). */
	const char *root;
	/* Runs tools; NULL: pr_spawn_run with a 10 s timeout. */
	pr_env_runner *run;
	void *run_ctx;
	/* The raw kernel log to use; NULL: klogctl(2) when root is the real
	 * one, else the file ROOT/dmesg (absent: unavailable). */
	const char *dmesg_text;
	/* Values for libc.version and compiler; NULL: this process's C
	 * library and the compiler perfreg was built with. */
	const char *libc;
	const char *compiler;
	int no_tools; /* 1: do not run tools (tool.* are left out) */
	/* The caller's process environment, "NAME=value" strings as in
	 * environ(7), NULL-terminated: the variables of
	 * pr_env_process_vars that are set in it are recorded.  NULL:
	 * none is.  The library never reads the environment itself. */
	const char *const *process_env;
};

/*
 * The process environment variables a snapshot records, each that is set
 * as the item env.NAME (category "process"; one that is not set is not
 * recorded, and env diff shows that side as "(unset)"): those that choose
 * which code the libraries under a benchmark run or how they hand out
 * memory, so that a run's figures can move with them while nothing on the
 * machine changed.  OpenSSL's capability masks (OPENSSL_ia32cap and the
 * other architectures'), glibc's tunables (GLIBC_TUNABLES: CPU features
 * that select memcpy and strlen, malloc, pthread spinning) and the malloc
 * settings glibc also reads under their older names (MALLOC_ARENA_MAX and
 * the like: the same tunables, so that a setting cannot hide under its
 * alias), and the dynamic loader's LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT
 * and LD_HWCAP_MASK (another library, or code interposed on its calls).
 * They are relevant (env diff ranks them, pr_env_relevant_keys) but not
 * part of a suite configuration (perfreg/suite.h): a session run with one
 * for a test and the next without are one configuration.
 */
extern const char *const pr_env_process_vars[];

void pr_env_opts_init(struct pr_env_opts *o);

void pr_env_init(struct pr_env *e);
void pr_env_release(struct pr_env *e);

/* Appends an item (copies the strings).  value NULL: unavailable with
 * reason.  Bytes of the value that are not valid UTF-8 become '?' (a
 * kernel log may hold anything; JSON holds only UTF-8). */
enum pr_status pr_env_add(struct pr_env *e, const char *key,
    const char *category, const char *value, const char *reason,
    struct pr_error *err);

/* The item with that key, or NULL. */
const struct pr_env_item *pr_env_get(const struct pr_env *e, const char *key);

/* Fills e (initialised, empty) with the current snapshot.  Errors:
 * PR_ENOMEM only. */
enum pr_status pr_env_capture(struct pr_env *e, const struct pr_env_opts *o,
    struct pr_error *err);

/*
 * Normalises one kernel log line into out (reset first) so that lines
 * from two boots compare equal unless something really changed.  Rules,
 * in order:
 *  1. a leading syslog priority "<6>" and timestamp "[ 3448.810416]" go;
 *  2. hexadecimal numbers with 0x and at least 5 digits become "0x#"
 *     (addresses; short ones such as vendor ids stay), bare hex words of
 *     8 or more digits with a digit in them become "#";
 *  3. "pid N", "pid=N", "PID: N" and "comm[NN]:" (a lowercase name,
 *     2 digits or more) get their number as "N";
 *  4. numbers with one fractional part ("2394.454 MHz", "3.2 ms") and
 *     whole numbers of 7 or more digits (frequencies, counters, lpj)
 *     become "#"; dotted versions with two dots or more (6.18.44) stay;
 *  5. runs of blanks become one space; leading/trailing blanks go.
 * Returns the empty string for a line that is empty after that.
 */
enum pr_status pr_env_normalise_line(const char *line, size_t len,
    struct pr_buf *out, struct pr_error *err);

/* Normalises a whole log (lines separated by \n); empty lines dropped. */
enum pr_status pr_env_normalise_log(const char *text, struct pr_buf *out,
    struct pr_error *err);

/* Appends the JSON form (one object, newline-terminated) to out. */
enum pr_status pr_env_to_json(const struct pr_env *e, struct pr_buf *out,
    struct pr_error *err);

/* Parses the JSON form from text (len bytes); name is the file name for
 * messages ("before.json:3: ...").  PR_EPARSE for malformed JSON or a
 * foreign file; e is left empty then. */
enum pr_status pr_env_from_json(struct pr_env *e, const char *text, size_t len,
    const char *name, struct pr_error *err);

/* Appends aligned text, grouped by category, to out. */
enum pr_status pr_env_format_text(const struct pr_env *e, struct pr_buf *out,
    struct pr_error *err);

/* The diff (src/report/envdiff.c). */
enum pr_envdiff_kind {
	PR_ENVDIFF_CHANGED = 0,
	PR_ENVDIFF_ADDED,  /* only in B */
	PR_ENVDIFF_REMOVED /* only in A */
};

struct pr_envdiff_item {
	enum pr_envdiff_kind kind;
	char *key, *category;
	char *a, *b;  /* values ("unavailable: why" when unreadable);
			    NULL when the item is absent there */
	char *detail; /* lists: "+word -word"; NULL otherwise */
	char *reason; /* one line */
	int relevant; /* 1: known to move performance */
};

struct pr_envdiff {
	struct pr_envdiff_item *items; /* relevant first, ranked */
	size_t n;
	/* Normalised kernel log lines only in A / only in B, relevant ones
	 * (clock, timecounter, mitigation, microcode...) first; each list
	 * holds a line once per extra occurrence. */
	char **log_a, **log_b;
	size_t nlog_a, nlog_b;
	size_t nrel_a, nrel_b; /* how many of them are relevant */
	int log_compared;      /* 0: a log was unavailable on a side */
};

void pr_envdiff_release(struct pr_envdiff *d);

/* Fills d (need not be initialised) with the diff from a to b. */
enum pr_status pr_env_diff(const struct pr_env *a, const struct pr_env *b,
    struct pr_envdiff *d, struct pr_error *err);

/* 1: the kernel log line (normalised) is known to bear on performance. */
int pr_env_log_line_relevant(const char *line);

/*
 * The one table of the environment items known to move performance,
 * most telling first (a key ending in '.' stands for every key with that
 * prefix): env diff lists their changes first, in this order, and a
 * suite configuration (perfreg/suite.h) is made of the same items but
 * clocksource.available (what the kernel could switch to, not what it
 * uses).  pr_env_key_rank gives a key's place in it, or -1.
 */
extern const char *const pr_env_relevant_keys[];
int pr_env_key_rank(const char *key);

/* Appends the diff as text; at most log_max kernel log lines per side
 * (the rest counted).  "A" and "B" are named name_a and name_b. */
enum pr_status pr_envdiff_format_text(const struct pr_envdiff *d,
    const char *name_a, const char *name_b, size_t log_max, struct pr_buf *out,
    struct pr_error *err);

/* Appends the diff as one JSON object: {"changes":[{"key","category",
 * "kind","relevant","a","b","detail","reason"}...],"log":{"compared",
 * "only_a":[...],"only_b":[...]}}. */
enum pr_status pr_envdiff_to_json(const struct pr_envdiff *d,
    struct pr_buf *out, struct pr_error *err);

#endif /* PERFREG_ENV_H */
