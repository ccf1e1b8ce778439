/*
 * run/spawn.c - runs one benchmark command and measures it: posix_spawn
 * in a new process group, output through one pipe into a capped buffer,
 * a poll loop bounded by the timeout, wait4 for the rusage.
 *
 * The child's exit is seen through a pidfd (pidfd_open, Linux 5.3) polled
 * together with the pipe, so that a command which closes its output, or
 * leaves a grandchild holding the pipe, is still seen to exit at once;
 * without pidfd the loop falls back to waitid(WNOWAIT) every few
 * milliseconds.  The process group is killed while the child is still a
 * zombie (not yet reaped), so its id cannot have been reused by then.
 * Invariants: every path out of pr_spawn_run after a successful spawn
 * reaps the child and closes every descriptor it opened.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfreg/spawn.h"
#include "core/banned.h"

extern char **environ;

#define CHUNK 65536
#define FALLBACK_TICK_MS 5

void
pr_spawn_opts_init(struct pr_spawn_opts *o)
{
	o->shell = 0;
	o->path = NULL;
	o->timeout_s = 0;
	o->output_limit = PR_SPAWN_OUTPUT_DEFAULT;
	o->cancel = NULL;
}

void
pr_spawn_result_init(struct pr_spawn_result *r)
{
	memset(r, 0, sizeof(*r));
	pr_buf_init(&r->output, 0);
	r->exit_status = -1;
}

void
pr_spawn_result_release(struct pr_spawn_result *r)
{
	pr_buf_release(&r->output);
}

const char *
pr_spawn_outcome_str(enum pr_spawn_outcome o)
{
	switch (o) {
	case PR_SPAWN_OK:
		return "ok";
	case PR_SPAWN_EXIT:
		return "exit";
	case PR_SPAWN_SIGNAL:
		return "signal";
	case PR_SPAWN_TIMEOUT:
		return "timeout";
	case PR_SPAWN_NOEXEC:
		return "noexec";
	case PR_SPAWN_INTERRUPTED:
		return "interrupted";
	}
	return "?";
}

/* CLOCK_MONOTONIC's time (get) or resolution (!get) in seconds, 0 when
 * the clock cannot be read. */
static double
mono(int get)
{
	struct timespec ts;

	if ((get ? clock_gettime(CLOCK_MONOTONIC, &ts)
		 : clock_getres(CLOCK_MONOTONIC, &ts)) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
pr_spawn_now(void)
{
	return mono(1);
}

double
pr_spawn_clock_resolution(void)
{
	return mono(0);
}

static double
tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec * 1e-6;
}

static int
open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	long fd = syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0) {
		(void)fcntl((int)fd, F_SETFD, FD_CLOEXEC);
		return (int)fd;
	}
#else
	(void)pid;
#endif
	return -1;
}

/* Reads what the pipe has: keeps up to the cap, counts and drops the
 * rest.  Returns 1 at end of file, 0 when more may come, -1 on error. */
static int
read_some(int fd, struct pr_spawn_result *r)
{
	char chunk[CHUNK];
	ssize_t got;
	size_t room, keep;

	got = read(fd, chunk, sizeof(chunk));
	if (got < 0)
		return (errno == EINTR || errno == EAGAIN) ? 0 : -1;
	if (got == 0)
		return 1;
	r->output_bytes += (size_t)got;
	room = r->output.max - r->output.len;
	keep = (size_t)got < room ? (size_t)got : room;
	if (keep < (size_t)got)
		r->truncated = 1;
	/* The buffer's growth cannot fail for want of cap here; out of
	 * memory drops the chunk and says so through `truncated`. */
	if (keep > 0 && pr_buf_add(&r->output, chunk, keep, NULL) != PR_OK)
		r->truncated = 1;
	return 0;
}

/* Has the child exited (without reaping it)? */
static int
exited_nowait(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
		return errno != EINTR;
	return si.si_pid == pid;
}

static int
reap(pid_t pid, int *status, struct rusage *ru)
{
	pid_t w;

	do {
		w = wait4(pid, status, 0, ru);
	} while (w < 0 && errno == EINTR);
	return w == pid ? 0 : -1;
}

/* Reads the rest of the output for at most PR_SPAWN_DRAIN_MS.  Output
 * that could not be read by then (a process that escaped the group
 * still holds the pipe) counts as truncated. */
static void
drain(int fd, struct pr_spawn_result *r)
{
	double end = pr_spawn_now() + PR_SPAWN_DRAIN_MS * 1e-3;
	struct pollfd p;
	double left;
	int rc;

	for (;;) {
		left = end - pr_spawn_now();
		if (left <= 0)
			break;
		p.fd = fd;
		p.events = POLLIN;
		p.revents = 0;
		rc = poll(&p, 1, (int)ceil(left * 1e3));
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			break;
		rc = read_some(fd, r);
		if (rc > 0)
			return;
		if (rc < 0)
			break;
	}
	r->truncated = 1;
}

static void
describe(struct pr_spawn_result *r, const char *name, double timeout_s)
{
	switch (r->outcome) {
	case PR_SPAWN_OK:
		r->reason[0] = '\0';
		break;
	case PR_SPAWN_EXIT:
		snprintf(r->reason, sizeof(r->reason), "exit status %d",
		    r->exit_status);
		break;
	case PR_SPAWN_SIGNAL:
		snprintf(r->reason, sizeof(r->reason),
		    "killed by signal %d (%s)", r->signal,
		    strsignal(r->signal));
		break;
	case PR_SPAWN_TIMEOUT:
		snprintf(r->reason, sizeof(r->reason), "timed out after %g s",
		    timeout_s);
		break;
	case PR_SPAWN_NOEXEC:
		snprintf(r->reason, sizeof(r->reason), "cannot run '%s': %s",
		    name, strerror(r->sys_errno));
		break;
	case PR_SPAWN_INTERRUPTED:
		snprintf(r->reason, sizeof(r->reason), "interrupted");
		break;
	}
}

/* Is path an executable regular file?  0, or the errno execve would
 * give. */
static int
executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		return EACCES;
	if (access(path, X_OK) != 0)
		return errno;
	return 0;
}

/*
 * Finds name as execvp would (a name with a slash as it is, otherwise
 * the first executable in PATH), so that a missing command is known
 * before spawning: not every posix_spawnp can report a failed exec (it
 * cannot under valgrind, where the child just exits 127).  Returns 0 or
 * an errno (ENOENT, EACCES, ENAMETOOLONG).
 */
static int
resolve(const char *name, char *out, size_t size)
{
	const char *path, *p, *end;
	size_t dlen, nlen = strlen(name);
	int rc, seen_eacces = 0;

	if (nlen == 0)
		return ENOENT;
	if (strchr(name, '/') != NULL) {
		if (nlen >= size)
			return ENAMETOOLONG;
		memcpy(out, name, nlen + 1);
		return executable(out);
	}
	path = getenv("PATH");
	if (path == NULL)
		path = "/bin:/usr/bin";
	for (p = path;; p = end + 1) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		dlen = (size_t)(end - p);
		if (dlen == 0) {
			p = ".";
			dlen = 1;
		}
		if (dlen + 1 + nlen < size) {
			memcpy(out, p, dlen);
			out[dlen] = '/';
			memcpy(out + dlen + 1, name, nlen + 1);
			rc = executable(out);
			if (rc == 0)
				return 0;
			if (rc == EACCES)
				seen_eacces = 1;
		}
		if (*end == '\0')
			break;
	}
	return seen_eacces ? EACCES : ENOENT;
}

int
pr_spawn_which(const char *name, char **out)
{
	char buf[PATH_MAX];
	int rc;

	*out = NULL;
	if ((rc = resolve(name, buf, sizeof(buf))) != 0)
		return rc;
	*out = strdup(buf);
	return *out == NULL ? ENOMEM : 0;
}

static int
setup_attr(posix_spawnattr_t *attr, posix_spawn_file_actions_t *fa, int wfd)
{
	static const int defsigs[] = { SIGINT, SIGQUIT, SIGPIPE, SIGTERM,
		SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN,
		SIGTTOU, SIGXFSZ };
	sigset_t def, none;
	size_t i;
	int rc;

	sigemptyset(&def);
	for (i = 0; i < sizeof(defsigs) / sizeof(defsigs[0]); i++)
		sigaddset(&def, defsigs[i]);
	sigemptyset(&none);
	if ((rc = posix_spawnattr_setflags(attr,
		 POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
		     POSIX_SPAWN_SETSIGMASK)) != 0 ||
	    (rc = posix_spawnattr_setpgroup(attr, 0)) != 0 ||
	    (rc = posix_spawnattr_setsigdefault(attr, &def)) != 0 ||
	    (rc = posix_spawnattr_setsigmask(attr, &none)) != 0)
		return rc;
	if ((rc = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY,
		 0)) != 0 ||
	    (rc = posix_spawn_file_actions_adddup2(fa, wfd, 1)) != 0 ||
	    (rc = posix_spawn_file_actions_adddup2(fa, wfd, 2)) != 0)
		return rc;
	return 0;
}

enum pr_status
pr_spawn_run(char *const *argv, const struct pr_spawn_opts *o,
    struct pr_spawn_result *r, struct pr_error *err)
{
	struct pr_spawn_opts defaults;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	char *shargv[4];
	char *const *av;
	struct pollfd pfd[2];
	struct rusage ru;
	double t0, t1 = 0, deadline = 0, left;
	int pipefd[2], pidfd = -1, pipe_open, status = 0, rc, npfd, tmo;
	int exited = 0, killed = 0;
	enum pr_spawn_outcome killed_as = PR_SPAWN_TIMEOUT;
	pid_t pid;
	char exe[PATH_MAX];

	if (o == NULL) {
		pr_spawn_opts_init(&defaults);
		o = &defaults;
	}
	if (argv == NULL || argv[0] == NULL)
		return pr_error_set(err, PR_EINVAL, "empty command");
	pr_buf_release(&r->output);
	pr_spawn_result_init(r);
	pr_buf_init(&r->output, o->output_limit);
	if (o->shell) {
		shargv[0] = (char *)"sh";
		shargv[1] = (char *)"-c";
		shargv[2] = argv[0];
		shargv[3] = NULL;
		av = shargv;
	} else
		av = argv;
	if ((rc = resolve(o->shell     ? "/bin/sh"
		     : o->path != NULL ? o->path
				       : av[0],
		 exe, sizeof(exe))) != 0) {
		r->outcome = PR_SPAWN_NOEXEC;
		r->sys_errno = rc;
		describe(r, o->shell ? "/bin/sh" : av[0], o->timeout_s);
		return PR_OK;
	}

	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return pr_error_set(err, PR_EIO, "cannot make a pipe: %s",
		    strerror(errno));
	if ((rc = posix_spawnattr_init(&attr)) != 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return pr_error_set(err, PR_ENOMEM, "posix_spawnattr_init: %s",
		    strerror(rc));
	}
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0) {
		posix_spawnattr_destroy(&attr);
		close(pipefd[0]);
		close(pipefd[1]);
		return pr_error_set(err, PR_ENOMEM,
		    "posix_spawn_file_actions_init: %s", strerror(rc));
	}
	rc = setup_attr(&attr, &fa, pipefd[1]);
	if (rc != 0) {
		posix_spawn_file_actions_destroy(&fa);
		posix_spawnattr_destroy(&attr);
		close(pipefd[0]);
		close(pipefd[1]);
		return pr_error_set(err, PR_ENOMEM, "posix_spawn setup: %s",
		    strerror(rc));
	}

	t0 = pr_spawn_now();
	rc = posix_spawn(&pid, exe, &fa, &attr, av, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(pipefd[1]);
	if (rc != 0) {
		r->wall_s = pr_spawn_now() - t0;
		close(pipefd[0]);
		r->outcome = PR_SPAWN_NOEXEC;
		r->sys_errno = rc;
		describe(r, o->shell ? "/bin/sh" : av[0], o->timeout_s);
		return PR_OK;
	}
	if (o->timeout_s > 0)
		deadline = t0 + o->timeout_s;
	pidfd = open_pidfd(pid);
	pipe_open = 1;

	while (!exited) {
		if (o->cancel != NULL && *o->cancel) {
			killed = 1;
			killed_as = PR_SPAWN_INTERRUPTED;
			break;
		}
		tmo = -1;
		if (deadline > 0) {
			left = deadline - pr_spawn_now();
			if (left <= 0) {
				killed = 1;
				killed_as = PR_SPAWN_TIMEOUT;
				break;
			}
			tmo = left * 1e3 >= INT_MAX ? INT_MAX
						    : (int)ceil(left * 1e3);
		}
		npfd = 0;
		if (pipe_open) {
			pfd[npfd].fd = pipefd[0];
			pfd[npfd].events = POLLIN;
			pfd[npfd++].revents = 0;
		}
		if (pidfd >= 0) {
			pfd[npfd].fd = pidfd;
			pfd[npfd].events = POLLIN;
			pfd[npfd++].revents = 0;
		} else if (tmo < 0 || tmo > FALLBACK_TICK_MS)
			tmo = FALLBACK_TICK_MS; /* no pidfd: look every tick */
		rc = poll(pfd, (nfds_t)npfd, tmo);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			killed = 1; /* cannot watch it: stop it */
			killed_as = PR_SPAWN_INTERRUPTED;
			break;
		}
		if (pipe_open && pfd[0].revents != 0) {
			rc = read_some(pipefd[0], r);
			if (rc != 0)
				pipe_open = 0;
		}
		if (pidfd >= 0) {
			if (pfd[npfd - 1].revents != 0)
				exited = 1;
		} else
			exited = exited_nowait(pid);
		if (exited)
			t1 = pr_spawn_now();
	}

	/* The child is exited-but-unreaped or still running: its group id
	 * is still ours, so the group can be killed safely. */
	(void)kill(-pid, SIGKILL);
	if (reap(pid, &status, &ru) != 0) {
		/* Only possible if someone else reaped it. */
		memset(&ru, 0, sizeof(ru));
		status = 0;
	}
	if (!exited)
		t1 = pr_spawn_now();
	if (pidfd >= 0)
		close(pidfd);
	if (pipe_open)
		drain(pipefd[0], r);
	close(pipefd[0]);

	r->wall_s = t1 - t0;
	r->user_s = tv_s(&ru.ru_utime);
	r->sys_s = tv_s(&ru.ru_stime);
	r->maxrss_kib = (double)ru.ru_maxrss;
	r->ctxsw_vol = (double)ru.ru_nvcsw;
	r->ctxsw_invol = (double)ru.ru_nivcsw;
	if (killed)
		r->outcome = killed_as;
	else if (WIFEXITED(status)) {
		r->exit_status = WEXITSTATUS(status);
		r->outcome = r->exit_status == 0 ? PR_SPAWN_OK : PR_SPAWN_EXIT;
	} else if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
		r->outcome = PR_SPAWN_SIGNAL;
	} else
		r->outcome = PR_SPAWN_SIGNAL;
	describe(r, av[0], o->timeout_s);
	return PR_OK;
}
