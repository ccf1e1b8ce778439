/*
 * perfreg/spawn.h - running one benchmark command and measuring it, and
 * splitting a command line into words as a shell would.
 *
 * pr_spawn_run starts a command (an argument vector, no shell; or
 * `/bin/sh -c LINE` when the caller asks for a shell) with posix_spawn.
 * The program is looked up in PATH as execvp would, before spawning, so
 * that a missing or non-executable command is reported as such even
 * where posix_spawnp cannot report a failed exec; a caller that runs one
 * program many times looks it up once (pr_spawn_which) and passes it as
 * opts.path.  The command runs in a process group of its own, with
 * standard input from /dev/null, and its standard output and standard
 * error each into a pipe of their own, so that lines written to the two
 * never mix (a tool that reports on stderr, such as time(1), and the
 * benchmark it times, writing to stdout, are read apart).  pr_spawn_run
 * reads both pipes into capped buffers (beyond the cap the output is
 * read and thrown away, so the command never blocks on a full pipe, and
 * `truncated` is set), and waits for the command with wait4.  It
 * records:
 * - wall_s: CLOCK_MONOTONIC from just before posix_spawn to the moment
 *   the command's exit is seen (its pidfd becomes readable; without
 *   pidfd, within a 5 ms tick), before it is reaped; so it includes the
 *   cost of starting the process, as every spawning benchmark tool's
 *   does (bench/run-overhead.sh measures it);
 * - user_s, sys_s, maxrss_kib, ctxsw_vol, ctxsw_invol: wait4's rusage
 *   (ru_maxrss is KiB on Linux);
 * - the outcome: exited 0, exited non-zero, killed by a signal, timed
 *   out, could not be started, or interrupted by the caller.
 *
 * Killing: on a timeout or a cancel, the command itself (by its process
 * id, which stays its own until it is reaped, so that a command that
 * moved to another process group, even perfreg's, is still killed) and
 * its process group (grandchildren included) get SIGKILL.  When the
 * command exits, whatever it left running in its process group is killed
 * as well, so that no leftover process disturbs the next run.  Processes
 * that left the group (setsid, setpgid) are reached only when the
 * caller has made itself a child subreaper (pr_spawn_subreaper) and sets
 * opts.reap_orphans: they are then re-parented to the caller when the
 * command dies, and every child the caller has left after the run is
 * killed and reaped.  Output still in the pipes is read for at most
 * PR_SPAWN_DRAIN_MS more (when a process that escaped keeps a pipe open
 * longer, `truncated` is set).
 *
 * Every wait is bounded: the run by the timeout (none by default), the
 * death of a killed command by PR_SPAWN_REAP_MS (beyond it, a process
 * that SIGKILL cannot end, stuck in the kernel, is an error), the drain
 * by PR_SPAWN_DRAIN_MS.  No zombie is left behind but such a process,
 * EINTR is retried, and the caller's signal handlers are not touched
 * (the child gets default dispositions and an empty signal mask).
 *
 * Cancelling: when opts.cancel is not NULL and *cancel becomes non-zero
 * (for example set by the caller's SIGINT or SIGTERM handler, which
 * interrupts the wait; a signal that comes just before the wait is seen
 * within PR_SPAWN_CANCEL_MS), the command is killed as on a timeout,
 * reaped, and the outcome is PR_SPAWN_INTERRUPTED.
 *
 * Preparing: the spawn attributes (process group, signal mask and
 * dispositions, /dev/null, the file actions) can be made once for many
 * runs (struct pr_spawner, opts.spawner); without one, each call makes
 * and frees its own.  perfreg run prepares one per session.
 *
 * The library never prints.  Thread-safety: pr_spawn_run may be called
 * from several threads at once with distinct spawners (a spawner is not
 * thread-safe), but spawning from threads inherits every thread's open
 * descriptors without O_CLOEXEC: the usual caveat of fork.  reap_orphans
 * assumes one caller.
 */
#ifndef PERFREG_SPAWN_H
#define PERFREG_SPAWN_H

#include <signal.h>
#include <stddef.h>

#include "perfreg/buf.h"
#include "perfreg/error.h"

/* Default cap of captured output (--output-limit), each stream; the
 * longest the pipes are drained after the command exited; the longest a
 * killed command is waited for; the longest a cancel can go unseen. */
#define PR_SPAWN_OUTPUT_DEFAULT ((size_t)16 << 20)
#define PR_SPAWN_DRAIN_MS 200
#define PR_SPAWN_REAP_MS 10000
#define PR_SPAWN_CANCEL_MS 250

enum pr_spawn_outcome {
	PR_SPAWN_OK = 0,     /* exited with status 0 */
	PR_SPAWN_EXIT,       /* exited with a non-zero status */
	PR_SPAWN_SIGNAL,     /* killed by a signal it did not get from us */
	PR_SPAWN_TIMEOUT,    /* killed by us after timeout_s */
	PR_SPAWN_NOEXEC,     /* could not be started (errno in sys_errno) */
	PR_SPAWN_INTERRUPTED /* killed by us because *cancel was set */
};

struct pr_spawner;
struct pr_spawn_result;

struct pr_spawn_opts {
	int shell; /* 1: run `/bin/sh -c argv[0]` */
	/* The program to run, found beforehand (pr_spawn_which); argv[0]
	 * is then only the name the program sees, and the path is not
	 * checked again (a program removed since gives PR_SPAWN_NOEXEC
	 * from posix_spawn).  NULL: argv[0] is looked up in PATH on every
	 * call.  Ignored with shell. */
	const char *path;
	/* The directories argv[0] is looked up in when path is NULL,
	 * ':'-separated as PATH is (an empty entry is the current
	 * directory).  pr_spawn_opts_init sets the process's default
	 * (pr_spawn_set_search).  The library never reads PATH itself. */
	const char *search;
	double timeout_s; /* 0: no timeout */
	/* Bytes kept of each of standard output and error; 0: keep none. */
	size_t output_limit;
	volatile sig_atomic_t *cancel; /* may be NULL */
	/* 1: the caller is a child subreaper (pr_spawn_subreaper) and
	 * has no children but those of pr_spawn_run: every child left
	 * after a run is a process the run left behind, and is killed and
	 * reaped. */
	int reap_orphans;
	/* Prepared attributes (pr_spawner_new), borrowed; NULL: each call
	 * prepares its own. */
	struct pr_spawner *spawner;
	/* Called while the command runs (from the calling thread): after
	 * each read of its output and at least every wait_every_s seconds
	 * (0: only after reads), with what it wrote so far (r->output and
	 * r->errout) and the seconds since it started.  It may set
	 * *cancel to stop the command.  NULL: none. */
	void (*on_wait)(const struct pr_spawn_result *r, double elapsed_s,
	    void *arg);
	void *wait_arg;
	double wait_every_s;
};

/* Fills o: no shell, no path, the default search path, no timeout,
 * PR_SPAWN_OUTPUT_DEFAULT, no cancel, no orphan reaping, no spawner, no
 * on_wait. */
void pr_spawn_opts_init(struct pr_spawn_opts *o);

/* The search path when nobody set one: execvp's default without PATH. */
#define PR_SPAWN_SEARCH_DEFAULT "/bin:/usr/bin"

/*
 * Sets the search path that pr_spawn_opts_init puts in the options and
 * pr_spawn_which uses when given none: search (kept, not copied; it must
 * stay valid), or PR_SPAWN_SEARCH_DEFAULT for NULL.  The CLI passes its
 * PATH once at start, before any thread: the library decides nothing
 * from the environment.  Not thread-safe against concurrent spawns.
 */
void pr_spawn_set_search(const char *search);

/*
 * Prepares the spawn attributes once for many runs: the new process
 * group, the empty signal mask and default dispositions, /dev/null open
 * for standard input, and the file actions (remade only when the pipes
 * of a run get other descriptor numbers than the last).  The caller
 * frees it with pr_spawner_free (NULL is a no-op).  PR_EIO when
 * /dev/null cannot be opened, PR_ENOMEM.  Not thread-safe: one spawner
 * per thread.
 */
enum pr_status pr_spawner_new(struct pr_spawner **out, struct pr_error *err);
void pr_spawner_free(struct pr_spawner *sp);

/*
 * Makes the calling process a child subreaper (Linux's
 * PR_SET_CHILD_SUBREAPER, process-wide and inherited by nothing): the
 * descendants of its children that lose their parent become its
 * children rather than init's, so that pr_spawn_run with reap_orphans
 * can kill what a command left behind in other process groups.  Returns
 * 0, or an errno (ENOSYS where there is no such thing).
 */
int pr_spawn_subreaper(void);

struct pr_spawn_result {
	enum pr_spawn_outcome outcome;
	int exit_status; /* PR_SPAWN_OK / _EXIT: the status, else -1 */
	int signal;      /* PR_SPAWN_SIGNAL: the signal, else 0 */
	int sys_errno;   /* PR_SPAWN_NOEXEC: why */
	double wall_s, user_s, sys_s;
	double maxrss_kib;
	double ctxsw_vol, ctxsw_invol;
	/* Standard output and standard error, each at most output_limit
	 * bytes; the result owns them. */
	struct pr_buf output, errout;
	int truncated; /* 1: a stream went over output_limit, or a pipe
			* was still open after the drain */
	size_t output_bytes, errout_bytes; /* all bytes read, kept or not */
	/* One line for a report: "exit status 3", "killed by signal 11
	 * (Segmentation fault)", "timed out after 2 s", "cannot run 'x':
	 * No such file or directory", "interrupted"; "" for PR_SPAWN_OK. */
	char reason[PR_ERROR_MSG_MAX];
};

/* Zeroes r with empty output buffers. */
void pr_spawn_result_init(struct pr_spawn_result *r);
/* Frees the outputs; r may be reused after pr_spawn_result_init. */
void pr_spawn_result_release(struct pr_spawn_result *r);

/*
 * Runs argv (argv[0] looked up in o->search; NULL-terminated) or, with
 * o->shell, `/bin/sh -c argv[0]`, and fills r (initialised by the
 * caller; its previous outputs are released).  o may be NULL for the
 * defaults.
 *
 * A command that fails in any way (cannot be started, exits non-zero,
 * is killed, times out) is not an error of this function: it returns
 * PR_OK with the outcome and reason in r.  It returns an error only when
 * perfreg itself cannot do its job: PR_EIO when a pipe, /dev/null or the
 * clock cannot be had, or when a killed command does not die within
 * PR_SPAWN_REAP_MS (it is then left unreaped), PR_ENOMEM, PR_EINVAL for
 * an empty argv.  On any other error no child is left running.
 */
enum pr_status pr_spawn_run(char *const *argv, const struct pr_spawn_opts *o,
    struct pr_spawn_result *r, struct pr_error *err);

/*
 * Finds the program name as execvp would: a name with a slash as it is,
 * otherwise the first executable regular file of that name in the
 * directories of search (':'-separated; NULL: the default of
 * pr_spawn_set_search).  Returns 0 with *out the path (the caller frees
 * it), or an errno: ENOENT, EACCES (found, not executable),
 * ENAMETOOLONG, ENOMEM.  Looking a program up once and passing it as
 * opts.path saves a walk of the search path per run.
 */
int pr_spawn_which(const char *name, const char *search, char **out);

/* A static name of an outcome: "ok", "exit", "signal", "timeout",
 * "noexec", "interrupted". */
const char *pr_spawn_outcome_str(enum pr_spawn_outcome o);

/* The resolution of CLOCK_MONOTONIC in seconds (clock_getres), 0 when
 * unknown. */
double pr_spawn_clock_resolution(void);

/* The current CLOCK_MONOTONIC time in seconds. */
double pr_spawn_now(void);

/*
 * Splits a command line into words as a POSIX shell does, without any
 * expansion: blanks (space, tab, newline) separate words; 'single
 * quotes' keep everything literally; "double quotes" keep everything
 * but a backslash before $ ` " \ or newline; outside quotes a backslash
 * keeps the next character literally and backslash-newline is removed.
 * '' gives an empty word.  Glob characters (* ? [) and ~ are kept as
 * they are: no file names are matched.
 *
 * What only a shell can do is refused rather than passed on literally:
 * an unquoted | & ; < > ( ) $ or ` gives PR_EINVAL ("'|' needs a shell
 * (use --shell)", with its 1-based column).  An unterminated quote or a
 * trailing backslash is PR_EPARSE with its column.  A line with no words
 * is PR_EINVAL.
 *
 * On success *out is a NULL-terminated vector of *n words; free it with
 * pr_split_free.  On failure *out is NULL.
 */
enum pr_status pr_split_words(const char *line, char ***out, size_t *n,
    struct pr_error *err);
void pr_split_free(char **words);

#endif /* PERFREG_SPAWN_H */
