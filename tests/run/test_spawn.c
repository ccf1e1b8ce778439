/*
 * tests/run/test_spawn.c - running commands: outcomes and their reasons,
 * the timeout kill of the whole process group and of a command that
 * left it, output capture (each stream apart) and its cap, rusage
 * fields, the shell, cancelling, watching a running command (on_wait
 * sees its output as it comes and can stop it), no zombies left, and,
 * as a subreaper, the killing of processes that escaped the group, and
 * no output of one run in the next (a writer left behind in the group,
 * escaped from it, or outside the command's tree altogether, handed the
 * pipe over a Unix socket: review of s13, finding 6).
 * Timing checks are lower bounds that cannot fail (a 0.2 s sleep lasts
 * at least 0.2 s); nothing asserts that anything is fast.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfreg/spawn.h"

#ifndef PROGS_DIR
#error "PROGS_DIR must name the folder of the helper programs"
#endif

static void
run(char *const *argv, const struct pr_spawn_opts *o, struct pr_spawn_result *r)
{
	struct pr_error err;

	pr_spawn_result_init(r);
	assert_int_equal(pr_spawn_run(argv, o, r, &err), PR_OK);
}

static void
test_true(void **state)
{
	char *argv[] = { "true", NULL };
	struct pr_spawn_result r;

	(void)state;
	run(argv, NULL, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_int_equal(r.exit_status, 0);
	assert_string_equal(r.reason, "");
	assert_true(r.wall_s > 0);
	assert_true(r.maxrss_kib > 0);
	assert_int_equal(r.output_bytes, 0);
	assert_int_equal(r.truncated, 0);
	pr_spawn_result_release(&r);
}

static void
test_sleep(void **state)
{
	char *argv[] = { "sleep", "0.2", NULL };
	struct pr_spawn_result r;

	(void)state;
	run(argv, NULL, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_true(r.wall_s >= 0.2);
	/* Sleeping blocks: at least one voluntary context switch. */
	assert_true(r.ctxsw_vol >= 1);
	assert_true(r.user_s >= 0 && r.sys_s >= 0);
	assert_true(r.ctxsw_invol >= 0);
	pr_spawn_result_release(&r);
}

static void
test_exit3(void **state)
{
	char *argv[] = { PROGS_DIR "/prog_exit3", NULL };
	struct pr_spawn_result r;

	(void)state;
	run(argv, NULL, &r);
	assert_int_equal(r.outcome, PR_SPAWN_EXIT);
	assert_int_equal(r.exit_status, 3);
	assert_string_equal(r.reason, "exit status 3");
	/* Each stream lands in its own buffer. */
	assert_string_equal(r.output.data, "to stdout\n");
	assert_string_equal(r.errout.data, "to stderr\n");
	assert_int_equal(r.output_bytes, 10);
	assert_int_equal(r.errout_bytes, 10);
	pr_spawn_result_release(&r);
}

static void
test_crash(void **state)
{
	char *argv[] = { PROGS_DIR "/prog_crash", NULL };
	struct pr_spawn_result r;

	(void)state;
	run(argv, NULL, &r);
	assert_int_equal(r.outcome, PR_SPAWN_SIGNAL);
	assert_int_equal(r.signal, SIGSEGV);
	assert_int_equal(r.exit_status, -1);
	assert_non_null(strstr(r.reason, "killed by signal 11"));
	assert_string_equal(r.output.data, "about to crash\n");
	pr_spawn_result_release(&r);
}

static void
test_noexec(void **state)
{
	char *argv[] = { "perfreg-test-no-such-command", "x", NULL };
	char *argv2[] = { "/etc/passwd", NULL };
	struct pr_spawn_result r;

	(void)state;
	run(argv, NULL, &r);
	assert_int_equal(r.outcome, PR_SPAWN_NOEXEC);
	assert_int_equal(r.sys_errno, ENOENT);
	assert_string_equal(r.reason,
	    "cannot run "
	    "'perfreg-test-no-such-command': No such file or directory");
	pr_spawn_result_release(&r);
	run(argv2, NULL, &r);
	assert_int_equal(r.outcome, PR_SPAWN_NOEXEC);
	assert_int_equal(r.sys_errno, EACCES);
	pr_spawn_result_release(&r);
}

/* Runs prog with a 1 s timeout: it must time out, having printed
 * printed first. */
static void
assert_times_out(const char *prog, const char *printed)
{
	char *argv[] = { (char *)prog, NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;

	pr_spawn_opts_init(&o);
	/* Long enough for the program to have printed, even on a loaded
	 * machine. */
	o.timeout_s = 1;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_TIMEOUT);
	assert_string_equal(r.reason, "timed out after 1 s");
	assert_true(r.wall_s >= 1);
	/* Output written before the kill is kept. */
	assert_string_equal(r.output.data, printed);
	pr_spawn_result_release(&r);
}

static void
test_timeout(void **state)
{
	(void)state;
	assert_times_out(PROGS_DIR "/prog_hang", "hanging\n");
}

/* Is pid gone (or only a zombie waiting for its new parent)? */
static int
gone(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	if (kill(pid, 0) != 0)
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (p == NULL || (p = strrchr(buf, ')')) == NULL)
		return 1;
	return p[2] == 'Z' || p[2] == 'X';
}

/* Waits for pid to be gone (SIGKILL is delivered asynchronously: 10 s at
 * most; this bounds a wait, it does not time anything); fails naming
 * what survived. */
static void
assert_gone(long pid, const char *what)
{
	struct timespec ts = { 0, 10000000 };
	int i;

	for (i = 0; i < 1000 && !gone((pid_t)pid); i++)
		nanosleep(&ts, NULL);
	if (!gone((pid_t)pid)) {
		kill((pid_t)pid, SIGKILL);
		fail_msg("%s %ld survived", what, pid);
	}
}

static void
test_timeout_group(void **state)
{
	char pidfile[] = "/tmp/perfreg-test-spawn-XXXXXX";
	char *argv[] = { PROGS_DIR "/prog_forkhang", pidfile, NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	long gpid = 0;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(pidfile);
	assert_true(fd >= 0);
	close(fd);
	pr_spawn_opts_init(&o);
	o.timeout_s = 2;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_TIMEOUT);
	assert_string_equal(r.output.data, "forked\n");
	f = fopen(pidfile, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &gpid), 1);
	fclose(f);
	unlink(pidfile);
	assert_true(gpid > 1);
	assert_gone(gpid, "grandchild");
	pr_spawn_result_release(&r);
}

static void
test_setpgid_timeout(void **state)
{
	/* The command moves into this process's group: killing the group
	 * made for it misses it, so it must be killed by its pid (issue 12:
	 * this waited forever in wait4). */
	(void)state;
	assert_times_out(PROGS_DIR "/prog_setpgid_hang", "moved\n");
}

static void
test_truncate(void **state)
{
	char *argv[] = { PROGS_DIR "/prog_spew", "50", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	size_t i;

	(void)state;
	pr_spawn_opts_init(&o);
	o.output_limit = (size_t)1 << 20;
	run(argv, &o, &r);
	/* The command was never blocked: it ran to its end. */
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_int_equal(r.truncated, 1);
	assert_int_equal(r.output_bytes, (size_t)50 << 20);
	assert_int_equal(r.output.len, (size_t)1 << 20);
	/* Memory stays within the cap. */
	assert_true(r.output.cap <= ((size_t)1 << 20) + 1);
	for (i = 0; i < 64; i++)
		assert_int_equal(r.output.data[i], i == 63 ? '\n' : 'x');
	pr_spawn_result_release(&r);

	/* A cap of 0 keeps nothing. */
	o.output_limit = 0;
	argv[1] = "1";
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_int_equal(r.truncated, 1);
	assert_int_equal(r.output.len, 0);
	assert_int_equal(r.output_bytes, (size_t)1 << 20);
	pr_spawn_result_release(&r);
}

static void
test_shell(void **state)
{
	char *argv[] = { "echo hi; echo err >&2; exit 4", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;

	(void)state;
	pr_spawn_opts_init(&o);
	o.shell = 1;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_EXIT);
	assert_int_equal(r.exit_status, 4);
	assert_string_equal(r.output.data, "hi\n");
	assert_string_equal(r.errout.data, "err\n");
	pr_spawn_result_release(&r);
}

static void
test_stdin_null(void **state)
{
	char *argv[] = { "cat", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;

	(void)state;
	pr_spawn_opts_init(&o);
	o.timeout_s = 60; /* only so that a failure cannot hang the suite */
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_int_equal(r.output_bytes, 0);
	pr_spawn_result_release(&r);
}

static void
test_cancel(void **state)
{
	/* A command that left its process group for this process's is
	 * killed too. */
	static const char *const progs[] = { PROGS_DIR "/prog_hang",
		PROGS_DIR "/prog_setpgid_hang" };
	char *argv[2];
	volatile sig_atomic_t cancel = 1;
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	size_t i;

	(void)state;
	pr_spawn_opts_init(&o);
	o.cancel = &cancel;
	for (i = 0; i < 2; i++) {
		argv[0] = (char *)progs[i];
		argv[1] = NULL;
		run(argv, &o, &r);
		assert_int_equal(r.outcome, PR_SPAWN_INTERRUPTED);
		assert_string_equal(r.reason, "interrupted");
		pr_spawn_result_release(&r);
	}
}

/* on_wait: what the command wrote so far; stops it once it wrote its
 * line. */
struct seen {
	volatile sig_atomic_t cancel;
	int calls, saw;
	double last_s;
};

static void
on_wait(const struct pr_spawn_result *r, double elapsed_s, void *arg)
{
	struct seen *s = arg;

	s->calls++;
	assert_true(elapsed_s >= s->last_s);
	s->last_s = elapsed_s;
	if (r->output.len >= 6 && memcmp(r->output.data, "ready\n", 6) == 0) {
		s->saw = 1;
		s->cancel = 1;
	}
}

/*
 * A command that writes a line and then hangs: on_wait sees the line
 * while the command runs and stops it there (by the cancel flag), the
 * line kept in the output.  Without the hook's cancel the command would
 * run until the 60 s timeout; nothing here depends on timing.
 */
static void
test_on_wait(void **state)
{
	char *argv[] = { "echo ready; exec sleep 60", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	struct seen s;

	(void)state;
	memset(&s, 0, sizeof(s));
	pr_spawn_opts_init(&o);
	assert_null(o.on_wait);
	o.shell = 1;
	o.timeout_s = 60;
	o.cancel = &s.cancel;
	o.on_wait = on_wait;
	o.wait_arg = &s;
	o.wait_every_s = 0.05;
	run(argv, &o, &r);
	assert_int_equal(s.saw, 1);
	assert_true(s.calls >= 1);
	assert_int_equal(r.outcome, PR_SPAWN_INTERRUPTED);
	assert_string_equal(r.output.data, "ready\n");
	pr_spawn_result_release(&r);
}

static void
test_leftover_killed(void **state)
{
	/* The command exits at once and leaves a sleeper holding the pipe:
	 * the run ends when the command does, and the sleeper is killed. */
	char *argv[] = { "sleep 1000 & echo $! ; exit 0", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	long spid = 0;

	(void)state;
	pr_spawn_opts_init(&o);
	o.shell = 1;
	o.timeout_s = 60;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_int_equal(sscanf(r.output.data, "%ld", &spid), 1);
	assert_gone(spid, "leftover");
	pr_spawn_result_release(&r);
}

static void
test_escaped(void **state)
{
	/* A process that leaves the group (setsid) and keeps the pipe open
	 * cannot hold the run: the output is read for a bounded time and
	 * marked truncated.  The command waits until the escaped process
	 * has written its file, so that it has left the group by then. */
	char flag[] = "/tmp/perfreg-test-escaped-XXXXXX";
	char line[512];
	char *argv[] = { line, NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	int fd;

	(void)state;
	if (system("command -v setsid > /dev/null") != 0)
		skip();
	fd = mkstemp(flag);
	assert_true(fd >= 0);
	close(fd);
	snprintf(line, sizeof(line),
	    "setsid sh -c 'echo up > %s; exec "
	    "sleep 3' & while [ ! -s %s ]; do sleep 0.01; done; echo x",
	    flag, flag);
	pr_spawn_opts_init(&o);
	o.shell = 1;
	o.timeout_s = 60;
	run(argv, &o, &r);
	unlink(flag);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "x\n");
	assert_int_equal(r.truncated, 1);
	pr_spawn_result_release(&r);
}

static void
test_which_path(void **state)
{
	char *argv[] = { "not-echo", "hi", NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	char *path;
	size_t n;

	(void)state;
	assert_int_equal(pr_spawn_which("true", NULL, &path), 0);
	n = strlen(path);
	assert_true(n > 5 && path[0] == '/');
	assert_string_equal(path + n - 5, "/true");
	free(path);
	assert_int_equal(pr_spawn_which("perfreg-test-no-such-command", NULL,
			     &path),
	    ENOENT);
	assert_null(path);
	assert_int_equal(pr_spawn_which("/etc/passwd", NULL, &path), EACCES);
	assert_int_equal(pr_spawn_which("", NULL, &path), ENOENT);

	/* With a path, argv[0] is only the name the program sees. */
	pr_spawn_opts_init(&o);
	assert_int_equal(pr_spawn_which("echo", NULL, &path), 0);
	o.path = path;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "hi\n");
	pr_spawn_result_release(&r);
	free(path);
}

/*
 * The program is looked up in the search path the caller gives (the
 * options, or the default of pr_spawn_set_search), never in the
 * environment's PATH: a tool only in a directory of PATH is not found,
 * and one only in the search path is.
 */
static void
test_search_path(void **state)
{
	char dir[] = "/tmp/perfreg-test-search-XXXXXX";
	char *argv[] = { "perfreg-test-tool", NULL };
	char tool[64], *path, *old, *saved = NULL;
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(tool, sizeof(tool), "%s/perfreg-test-tool", dir);
	assert_non_null(f = fopen(tool, "w"));
	fputs("#!/bin/sh\necho found\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(tool, 0755), 0);
	if ((old = getenv("PATH")) != NULL)
		assert_non_null(saved = strdup(old));

	/* PATH names the tool's directory, the search path does not. */
	assert_int_equal(setenv("PATH", dir, 1), 0);
	pr_spawn_opts_init(&o);
	assert_string_equal(o.search, PR_SPAWN_SEARCH_DEFAULT);
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_NOEXEC);
	assert_int_equal(r.sys_errno, ENOENT);
	pr_spawn_result_release(&r);
	assert_int_equal(pr_spawn_which(argv[0], NULL, &path), ENOENT);

	/* The search path names it, PATH does not. */
	assert_int_equal(setenv("PATH", "/nonexistent", 1), 0);
	o.search = dir;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "found\n");
	pr_spawn_result_release(&r);
	assert_int_equal(pr_spawn_which(argv[0], dir, &path), 0);
	assert_string_equal(path, tool);
	free(path);

	/* The default the CLI sets, taken by pr_spawn_opts_init. */
	pr_spawn_set_search(dir);
	pr_spawn_opts_init(&o);
	assert_string_equal(o.search, dir);
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	pr_spawn_result_release(&r);
	assert_int_equal(pr_spawn_which(argv[0], NULL, &path), 0);
	free(path);
	pr_spawn_set_search(NULL);
	assert_int_equal(pr_spawn_which(argv[0], NULL, &path), ENOENT);

	if (saved != NULL)
		assert_int_equal(setenv("PATH", saved, 1), 0);
	else
		unsetenv("PATH");
	free(saved);
	assert_int_equal(unlink(tool), 0);
	assert_int_equal(rmdir(dir), 0);
}

static void
test_no_zombies(void **state)
{
	(void)state;
	/* Every test above reaped its child: none is left to wait for. */
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* Reads the pid that prog_escape's grandchild wrote to path. */
static long
read_pid(const char *path)
{
	long pid = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	unlink(path);
	assert_true(pid > 1);
	return pid;
}

static void
test_orphans(void **state)
{
	/* A grandchild that left the process group (setsid) is found and
	 * killed when this process is a subreaper and asks for it: when the
	 * command exits, and when it times out.  This test makes the test
	 * process a subreaper, so it runs after the tests that count on
	 * leftovers going to init. */
	char pidfile[] = "/tmp/perfreg-test-orphan-XXXXXX";
	char *argv[] = { PROGS_DIR "/prog_escape", pidfile, NULL, NULL };
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	int fd;

	(void)state;
	if (pr_spawn_subreaper() != 0)
		skip();
	pr_spawn_opts_init(&o);
	o.reap_orphans = 1;
	o.timeout_s = 60; /* only so that a failure cannot hang the suite */
	fd = mkstemp(pidfile);
	assert_true(fd >= 0);
	close(fd);
	unlink(pidfile);
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "escaped\n");
	assert_gone(read_pid(pidfile), "escaped grandchild");
	pr_spawn_result_release(&r);

	argv[2] = "hang";
	o.timeout_s = 1;
	run(argv, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_TIMEOUT);
	assert_gone(read_pid(pidfile), "escaped grandchild after a timeout");
	pr_spawn_result_release(&r);
	/* Both were reaped, not only killed. */
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* Options with a spawner of their own (*sp, the caller frees it) and
 * reap_orphans, in this subreaper process. */
static void
kept_opts(struct pr_spawn_opts *o, struct pr_spawner **sp)
{
	struct pr_error err;

	assert_int_equal(pr_spawner_new(sp, &err), PR_OK);
	pr_spawn_opts_init(o);
	o->spawner = *sp;
	o->reap_orphans = 1;
	o->timeout_s = 60; /* only so that a failure cannot hang the suite */
}

/* Runs line with o, then "sleep 1; echo second" in the same spawner:
 * what the first left behind must not reach the second's output. */
static void
assert_no_leak(const char *line, struct pr_spawn_opts *o)
{
	char *first[] = { (char *)line, NULL };
	char *second[] = { "sleep 1; echo second", NULL };
	struct pr_spawn_result r;
	int status;

	o->shell = 1;
	run(first, o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "first\n");
	pr_spawn_result_release(&r);
	run(second, o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "second\n");
	assert_int_equal(r.errout.len, 0);
	pr_spawn_result_release(&r);
	/* This process is a subreaper: reap what escaped the first run. */
	while (waitpid(-1, &status, 0) > 0)
		;
}

static void
test_no_leak_into_next(void **state)
{
	/* A command leaves a process behind that writes to the inherited
	 * pipes half a second later, during the next run: in its process
	 * group, or escaped from it (setsid), with and without
	 * reap_orphans.  The next run's output is its own either way. */
	struct pr_spawner *sp;
	struct pr_spawn_opts o;

	(void)state;
	if (pr_spawn_subreaper() != 0 ||
	    system("command -v setsid > /dev/null") != 0)
		skip();
	kept_opts(&o, &sp);
	assert_no_leak("(sleep 0.5; echo leaked; echo leaked >&2) & echo first",
	    &o);
	assert_no_leak("setsid sh -c 'sleep 0.5; echo leaked; echo leaked >&2' "
		       "& echo first",
	    &o);
	o.reap_orphans = 0;
	assert_no_leak("setsid sh -c 'sleep 0.5; echo leaked; echo leaked >&2' "
		       "& echo first",
	    &o);
	pr_spawner_free(sp);
}

/* The fd that arrived on the listening socket l (SCM_RIGHTS), or -1. */
static int
received_fd(int l)
{
	char byte, ctl[CMSG_SPACE(sizeof(int))];
	struct msghdr m;
	struct iovec iov;
	struct cmsghdr *c;
	int s, fd = -1;

	if ((s = accept(l, NULL, NULL)) < 0)
		return -1;
	memset(&m, 0, sizeof(m));
	iov.iov_base = &byte;
	iov.iov_len = 1;
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = ctl;
	m.msg_controllen = sizeof(ctl);
	if (recvmsg(s, &m, 0) == 1 && (c = CMSG_FIRSTHDR(&m)) != NULL &&
	    c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	close(s);
	return fd;
}

static void
test_no_leak_foreign(void **state)
{
	/* The command hands its stdout to a process outside its tree (this
	 * one, over a Unix socket), which writes to it after the run: the
	 * next run's output is its own (review of s13, finding 6: with the
	 * pipes kept across runs, "leaked" was the next run's output). */
	char path[] = "/tmp/perfreg-test-sendfd-XXXXXX", sock[64];
	char *first[] = { PROGS_DIR "/prog_sendfd", sock, NULL };
	char *second[] = { "echo", "second", NULL };
	struct sockaddr_un a;
	struct pr_spawner *sp;
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	int l, fd;

	(void)state;
	if (pr_spawn_subreaper() != 0)
		skip();
	assert_non_null(mkdtemp(path));
	assert_true(
	    snprintf(sock, sizeof(sock), "%s/s", path) < (int)sizeof(sock));
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path, sock, strlen(sock) + 1);
	assert_true((l = socket(AF_UNIX, SOCK_STREAM, 0)) >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(l, 1), 0);
	signal(SIGPIPE, SIG_IGN);
	kept_opts(&o, &sp);
	run(first, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "first\n");
	pr_spawn_result_release(&r);
	assert_true((fd = received_fd(l)) >= 0);
	/* Into a pipe no run reads any more (EPIPE), never the next's. */
	(void)!write(fd, "leaked\n", 7);
	run(second, &o, &r);
	assert_int_equal(r.outcome, PR_SPAWN_OK);
	assert_string_equal(r.output.data, "second\n");
	pr_spawn_result_release(&r);
	(void)!write(fd, "leaked\n", 7);
	run(second, &o, &r);
	assert_string_equal(r.output.data, "second\n");
	pr_spawn_result_release(&r);
	signal(SIGPIPE, SIG_DFL);
	close(fd);
	close(l);
	unlink(sock);
	rmdir(path);
	pr_spawner_free(sp);
}

static void
test_empty(void **state)
{
	char *argv[] = { NULL };
	struct pr_spawn_result r;
	struct pr_error err;

	(void)state;
	pr_spawn_result_init(&r);
	assert_int_equal(pr_spawn_run(argv, NULL, &r, &err), PR_EINVAL);
	pr_spawn_result_release(&r);
	assert_true(pr_spawn_clock_resolution() > 0);
	assert_true(pr_spawn_clock_resolution() < 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true),
		cmocka_unit_test(test_sleep),
		cmocka_unit_test(test_exit3),
		cmocka_unit_test(test_crash),
		cmocka_unit_test(test_noexec),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_timeout_group),
		cmocka_unit_test(test_setpgid_timeout),
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_shell),
		cmocka_unit_test(test_stdin_null),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_on_wait),
		cmocka_unit_test(test_leftover_killed),
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_which_path),
		cmocka_unit_test(test_search_path),
		cmocka_unit_test(test_no_zombies),
		cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_no_leak_into_next),
		cmocka_unit_test(test_no_leak_foreign),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
