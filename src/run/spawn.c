/*
 * run/spawn.c - runs one benchmark command and measures it: posix_spawn
 * in a new process group, standard output and error through a pipe each
 * into capped buffers, a poll loop bounded by the timeout, wait4 for the
 * rusage.
 *
 * The child's exit is seen through a pidfd (pidfd_open, Linux 5.3) polled
 * together with the pipes, so that a command which closes its output, or
 * leaves a grandchild holding a pipe, is still seen to exit at once;
 * without pidfd the loop falls back to waitid(WNOWAIT) every few
 * milliseconds.  The child and its process group are killed while the
 * child is still a zombie or running (not yet reaped), so that neither
 * its process id nor its group id can have been reused by then.  The
 * attributes of posix_spawn are made once per spawner; the per-run cost
 * is two pipes, the spawn, a pidfd, a poll, the reads, one kill of the
 * group and wait4 (bench/run-overhead.sh measures it).  The parent holds
 * the pipes' write ends until the exit is seen, so that a run wakes it
 * once (the pidfd) and not first on the pipes' hang-up.
 *
 * Invariants: every path out of pr_spawn_run after a successful spawn
 * reaps the child (or reports the one that SIGKILL cannot end) and
 * closes every descriptor it opened; the descriptors given to the child
 * are all above 2, so that the file actions' dup2 calls cannot clobber
 * one another.
 */
#define _GNU_SOURCE /* pipe2, F_DUPFD_CLOEXEC */
#include <ctype.h>
#include <dirent.h>
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
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "perfreg/spawn.h"
#include "core/banned.h"

extern char **environ;

#define CHUNK 65536
#define FALLBACK_TICK_MS 5
/* The most passes over the children a run left behind, each killing
 * those it finds (a process that forks as fast as it is killed cannot
 * hold perfreg forever). */
#define ORPHAN_PASSES 100

struct pr_spawner {
	posix_spawnattr_t attr;
	posix_spawn_file_actions_t fa;
	int fa_ready;  /* fa holds the actions for fa_fds */
	int fa_fds[3]; /* stdin, stdout and stderr descriptors of fa */
	int nullfd;    /* /dev/null, read-only */
};

/* One running command: its process, pidfd, and the two pipes (index 0
 * standard output, 1 standard error).  -1 marks what is not open. */
struct child {
	pid_t pid;
	int pidfd;
	int rd[2], wr[2];
	int exited; /* its exit was seen (not yet reaped) */
	double t0, t1;
};

/* The search path of pr_spawn_set_search. */
static const char *default_search = PR_SPAWN_SEARCH_DEFAULT;

void
pr_spawn_set_search(const char *search)
{
	default_search = search != NULL ? search : PR_SPAWN_SEARCH_DEFAULT;
}

void
pr_spawn_opts_init(struct pr_spawn_opts *o)
{
	o->shell = 0;
	o->path = NULL;
	o->search = default_search;
	o->timeout_s = 0;
	o->output_limit = PR_SPAWN_OUTPUT_DEFAULT;
	o->cancel = NULL;
	o->reap_orphans = 0;
	o->spawner = NULL;
	o->on_wait = NULL;
	o->wait_arg = NULL;
	o->wait_every_s = 0;
}

void
pr_spawn_result_init(struct pr_spawn_result *r)
{
	memset(r, 0, sizeof(*r));
	pr_buf_init(&r->output, 0);
	pr_buf_init(&r->errout, 0);
	r->exit_status = -1;
}

void
pr_spawn_result_release(struct pr_spawn_result *r)
{
	pr_buf_release(&r->output);
	pr_buf_release(&r->errout);
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
 * the first executable in the directories of path, the caller's search
 * path, never the environment's PATH), so that a missing command is
 * known before spawning: not every posix_spawnp can report a failed exec
 * (it cannot under valgrind, where the child just exits 127).  Returns 0
 * or an errno (ENOENT, EACCES, ENAMETOOLONG).
 */
static int
resolve(const char *name, const char *path, char *out, size_t size)
{
	const char *p, *end;
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
	if (path == NULL)
		path = default_search;
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
pr_spawn_which(const char *name, const char *search, char **out)
{
	char buf[PATH_MAX];
	int rc;

	*out = NULL;
	if ((rc = resolve(name, search, buf, sizeof(buf))) != 0)
		return rc;
	*out = strdup(buf);
	return *out == NULL ? ENOMEM : 0;
}

/* Moves *fd above the standard descriptors (keeping O_CLOEXEC), so that
 * the child's dup2 onto 0, 1 and 2 cannot overwrite it.  0 or -1. */
static int
above_stdio(int *fd)
{
	int nfd;

	if (*fd > 2)
		return 0;
	if ((nfd = fcntl(*fd, F_DUPFD_CLOEXEC, 3)) < 0)
		return -1;
	close(*fd);
	*fd = nfd;
	return 0;
}

static int
open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	/* A pidfd is always close-on-exec. */
	long fd = syscall(SYS_pidfd_open, pid, 0);

	if (fd >= 0)
		return (int)fd;
#else
	(void)pid;
#endif
	return -1;
}

enum pr_status
pr_spawner_new(struct pr_spawner **out, struct pr_error *err)
{
	static const int defsigs[] = { SIGINT, SIGQUIT, SIGPIPE, SIGTERM,
		SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN,
		SIGTTOU, SIGXFSZ };
	struct pr_spawner *sp;
	sigset_t def, none;
	size_t i;
	int rc;

	*out = NULL;
	if ((sp = calloc(1, sizeof(*sp))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if ((rc = posix_spawnattr_init(&sp->attr)) != 0) {
		free(sp);
		return pr_error_set(err, PR_ENOMEM, "posix_spawnattr_init: %s",
		    strerror(rc));
	}
	sigemptyset(&def);
	for (i = 0; i < sizeof(defsigs) / sizeof(defsigs[0]); i++)
		sigaddset(&def, defsigs[i]);
	sigemptyset(&none);
	if ((rc = posix_spawnattr_setflags(&sp->attr,
		 POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
		     POSIX_SPAWN_SETSIGMASK)) != 0 ||
	    (rc = posix_spawnattr_setpgroup(&sp->attr, 0)) != 0 ||
	    (rc = posix_spawnattr_setsigdefault(&sp->attr, &def)) != 0 ||
	    (rc = posix_spawnattr_setsigmask(&sp->attr, &none)) != 0) {
		posix_spawnattr_destroy(&sp->attr);
		free(sp);
		return pr_error_set(err, PR_ENOMEM, "posix_spawn setup: %s",
		    strerror(rc));
	}
	sp->nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (sp->nullfd < 0 || above_stdio(&sp->nullfd) != 0) {
		rc = errno;
		if (sp->nullfd >= 0)
			close(sp->nullfd);
		posix_spawnattr_destroy(&sp->attr);
		free(sp);
		return pr_error_set(err, PR_EIO, "cannot open /dev/null: %s",
		    strerror(rc));
	}
	*out = sp;
	return PR_OK;
}

void
pr_spawner_free(struct pr_spawner *sp)
{
	if (sp == NULL)
		return;
	if (sp->fa_ready)
		posix_spawn_file_actions_destroy(&sp->fa);
	posix_spawnattr_destroy(&sp->attr);
	close(sp->nullfd);
	free(sp);
}

/* The file actions for a child writing to out and errfd; made again only
 * when the descriptors differ from the last run's (pipe2 takes the
 * lowest free numbers, so a loop of runs gets the same ones).  0 or an
 * errno. */
static int
actions(struct pr_spawner *sp, int out, int errfd)
{
	int rc;

	if (sp->fa_ready && sp->fa_fds[1] == out && sp->fa_fds[2] == errfd)
		return 0;
	if (sp->fa_ready)
		posix_spawn_file_actions_destroy(&sp->fa);
	sp->fa_ready = 0;
	if ((rc = posix_spawn_file_actions_init(&sp->fa)) != 0)
		return rc;
	if ((rc = posix_spawn_file_actions_adddup2(&sp->fa, sp->nullfd, 0)) !=
		0 ||
	    (rc = posix_spawn_file_actions_adddup2(&sp->fa, out, 1)) != 0 ||
	    (rc = posix_spawn_file_actions_adddup2(&sp->fa, errfd, 2)) != 0) {
		posix_spawn_file_actions_destroy(&sp->fa);
		return rc;
	}
	sp->fa_fds[0] = sp->nullfd;
	sp->fa_fds[1] = out;
	sp->fa_fds[2] = errfd;
	sp->fa_ready = 1;
	return 0;
}

int
pr_spawn_subreaper(void)
{
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
	return ENOSYS;
#endif
}

static void
close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static void
child_init(struct child *c)
{
	memset(c, 0, sizeof(*c));
	c->pid = -1;
	c->pidfd = c->rd[0] = c->rd[1] = c->wr[0] = c->wr[1] = -1;
}

static void
child_close(struct child *c)
{
	int i;

	close_fd(&c->pidfd);
	for (i = 0; i < 2; i++) {
		close_fd(&c->rd[i]);
		close_fd(&c->wr[i]);
	}
}

static enum pr_status
open_pipes(struct child *c, struct pr_error *err)
{
	int p[2], i;

	for (i = 0; i < 2; i++) {
		if (pipe2(p, O_CLOEXEC) != 0)
			return pr_error_set(err, PR_EIO,
			    "cannot make a pipe: %s", strerror(errno));
		c->rd[i] = p[0];
		c->wr[i] = p[1];
		if (above_stdio(&c->rd[i]) != 0 || above_stdio(&c->wr[i]) != 0)
			return pr_error_set(err, PR_EIO,
			    "cannot make a pipe: %s", strerror(errno));
	}
	return PR_OK;
}

/* Stream i's buffer and byte count in r. */
static struct pr_buf *
stream(struct pr_spawn_result *r, int i, size_t **bytes)
{
	*bytes = i == 0 ? &r->output_bytes : &r->errout_bytes;
	return i == 0 ? &r->output : &r->errout;
}

/* Reads what pipe i has: keeps up to the cap, counts and drops the rest.
 * Returns 1 at end of file, 0 when more may come, -1 on error. */
static int
read_some(struct child *c, int i, struct pr_spawn_result *r)
{
	char chunk[CHUNK];
	struct pr_buf *b;
	size_t *bytes, room, keep;
	ssize_t got;

	got = read(c->rd[i], chunk, sizeof(chunk));
	if (got < 0)
		return (errno == EINTR || errno == EAGAIN) ? 0 : -1;
	if (got == 0)
		return 1;
	b = stream(r, i, &bytes);
	*bytes += (size_t)got;
	room = b->max - b->len;
	keep = (size_t)got < room ? (size_t)got : room;
	if (keep < (size_t)got)
		r->truncated = 1;
	/* The buffer's growth cannot fail for want of cap here; out of
	 * memory drops the chunk and says so through `truncated`. */
	if (keep > 0 && pr_buf_add(b, chunk, keep, NULL) != PR_OK)
		r->truncated = 1;
	return 0;
}

/* Polls the open pipes (and the pidfd when watch_pid) for at most tmo
 * ms (-1: no limit) and reads what came, closing a pipe at its end.
 * Returns poll's result, with revents of the pidfd in *pid_ready. */
static int
poll_once(struct child *c, int watch_pid, int tmo, struct pr_spawn_result *r,
    int *pid_ready)
{
	struct pollfd pfd[3];
	int npfd = 0, which[2], i, rc;

	for (i = 0; i < 2; i++)
		if (c->rd[i] >= 0) {
			pfd[npfd].fd = c->rd[i];
			pfd[npfd].events = POLLIN;
			pfd[npfd].revents = 0;
			which[npfd++] = i;
		}
	if (watch_pid) {
		pfd[npfd].fd = c->pidfd;
		pfd[npfd].events = POLLIN;
		pfd[npfd].revents = 0;
		npfd++;
	}
	*pid_ready = 0;
	if (npfd == 0)
		return poll(NULL, 0, tmo); /* only sleeps */
	rc = poll(pfd, (nfds_t)npfd, tmo);
	if (rc <= 0)
		return rc;
	/* A pipe whose writers are all gone and that holds nothing more
	 * has POLLHUP without POLLIN: at its end without a read. */
	for (i = 0; i < npfd - watch_pid; i++)
		if (pfd[i].revents == POLLHUP ||
		    (pfd[i].revents != 0 && read_some(c, which[i], r) != 0))
			close_fd(&c->rd[which[i]]);
	if (watch_pid && pfd[npfd - 1].revents != 0)
		*pid_ready = 1;
	return rc;
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
ms_until(double end)
{
	double left = end - pr_spawn_now();

	if (left <= 0)
		return 0;
	return left * 1e3 >= INT_MAX ? INT_MAX : (int)ceil(left * 1e3);
}

/*
 * Watches the running command until it exits, reading its output.
 * Returns 1 when it exited (c->t1 is when), 0 when it must be killed,
 * with *why the outcome to report: a timeout, a cancel, or a poll that
 * failed (reported as interrupted).
 */
static int
watch(struct child *c, const struct pr_spawn_opts *o, struct pr_spawn_result *r,
    enum pr_spawn_outcome *why)
{
	double deadline = o->timeout_s > 0 ? c->t0 + o->timeout_s : 0;
	double next = 0, now;
	size_t seen = 0, got;
	int tmo, rc, ready, every;

	every = o->on_wait != NULL && o->wait_every_s > 0
	    ? (int)ceil(o->wait_every_s * 1e3)
	    : -1;
	if (every > 0)
		next = c->t0 + o->wait_every_s;
	for (;;) {
		if (o->cancel != NULL && *o->cancel) {
			*why = PR_SPAWN_INTERRUPTED;
			return 0;
		}
		tmo = -1;
		if (deadline > 0 && (tmo = ms_until(deadline)) == 0) {
			*why = PR_SPAWN_TIMEOUT;
			return 0;
		}
		/* A cancel whose signal came between the test above and the
		 * poll does not interrupt it: look again now and then. */
		if (o->cancel != NULL && (tmo < 0 || tmo > PR_SPAWN_CANCEL_MS))
			tmo = PR_SPAWN_CANCEL_MS;
		if (c->pidfd < 0 && (tmo < 0 || tmo > FALLBACK_TICK_MS))
			tmo = FALLBACK_TICK_MS; /* no pidfd: look every tick */
		if (every > 0 && (tmo < 0 || tmo > every))
			tmo = every;
		rc = poll_once(c, c->pidfd >= 0, tmo, r, &ready);
		if (rc < 0 && errno != EINTR) {
			*why = PR_SPAWN_INTERRUPTED; /* cannot watch it */
			return 0;
		}
		/* The caller's look at the command: when it wrote, and now
		 * and then. */
		got = r->output_bytes + r->errout_bytes;
		now = o->on_wait != NULL ? pr_spawn_now() : 0;
		if (o->on_wait != NULL &&
		    (got != seen || (every > 0 && now >= next))) {
			seen = got;
			if (every > 0)
				next = now + o->wait_every_s;
			o->on_wait(r, now - c->t0, o->wait_arg);
		}
		if (c->pidfd >= 0 ? ready : exited_nowait(c->pid)) {
			c->t1 = pr_spawn_now();
			c->exited = 1;
			return 1;
		}
	}
}

/* Waits at most PR_SPAWN_REAP_MS for the killed child to die; 0 when it
 * did (and is ready to be reaped). */
static int
await_death(struct child *c)
{
	double end = pr_spawn_now() + PR_SPAWN_REAP_MS * 1e-3;
	struct pollfd p;
	int tmo;

	for (;;) {
		if (c->pidfd >= 0) {
			p.fd = c->pidfd;
			p.events = POLLIN;
			p.revents = 0;
			if (poll(&p, 1, ms_until(end)) > 0)
				return 0;
		} else {
			if (exited_nowait(c->pid))
				return 0;
			tmo = ms_until(end);
			(void)poll(NULL, 0,
			    tmo < FALLBACK_TICK_MS ? tmo : FALLBACK_TICK_MS);
		}
		if (ms_until(end) == 0)
			return -1;
	}
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

/* SIGKILLs every child of this process (found in /proc by its parent
 * process id); how many were found. */
static int
kill_children(void)
{
	char path[300], buf[512], *p;
	struct dirent *de;
	pid_t self = getpid();
	long pid, ppid;
	DIR *d;
	FILE *f;
	int n = 0;

	if ((d = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		/* "pid (comm) state ppid ...": comm may hold anything, so
		 * the fields are read after its last ')'. */
		if (p == NULL || (p = strrchr(buf, ')')) == NULL ||
		    /* NOLINTNEXTLINE(cert-err34-c): the kernel's number */
		    sscanf(p + 1, " %*c %ld", &ppid) != 1 || ppid != self)
			continue;
		pid = strtol(de->d_name, NULL, 10);
		/* Only this process reaps its children, so the id cannot
		 * have been reused since it was read. */
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* Kills and reaps every child this process has (reap_orphans): the
 * processes the run left behind in other process groups, re-parented to
 * this subreaper.  Without children, one wait4 that fails with ECHILD. */
static void
reap_orphans(void)
{
	int passes = 0, status;
	pid_t w;

	for (;;) {
		w = waitpid(-1, &status, WNOHANG);
		if (w > 0 || (w < 0 && errno == EINTR))
			continue;
		if (w < 0 || passes++ >= ORPHAN_PASSES)
			return; /* ECHILD: none left */
		/* Children still running: kill them, then wait a little for
		 * the kills to land before reaping. */
		if (kill_children() == 0)
			return;
		(void)poll(NULL, 0, 1);
	}
}

/* Reads the rest of the output for at most PR_SPAWN_DRAIN_MS.  Output
 * that could not be read by then (a process that escaped the group
 * still holds a pipe) counts as truncated. */
static void
drain(struct child *c, struct pr_spawn_result *r)
{
	double end = pr_spawn_now() + PR_SPAWN_DRAIN_MS * 1e-3;
	int rc, ready, tmo;

	while (c->rd[0] >= 0 || c->rd[1] >= 0) {
		if ((tmo = ms_until(end)) == 0)
			break;
		rc = poll_once(c, 0, tmo, r, &ready);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			break;
	}
	if (c->rd[0] >= 0 || c->rd[1] >= 0)
		r->truncated = 1;
}

/*
 * Ends a started command: kills it (unless it exited) and its process
 * group, reaps it for its status and rusage within PR_SPAWN_REAP_MS,
 * reaps what it left behind (reap_orphans), reads the rest of the
 * output, and fills r's outcome.
 */
static enum pr_status
finish(struct child *c, const struct pr_spawn_opts *o, int killed,
    enum pr_spawn_outcome why, struct pr_spawn_result *r, struct pr_error *err)
{
	struct rusage ru;
	int status = 0;

	/* The child is exited-but-unreaped or still running: its process
	 * id and group id are still its own, so both can be killed
	 * safely; the group may be gone (the child left it). */
	(void)kill(-c->pid, SIGKILL);
	if (!c->exited) {
		(void)kill(c->pid, SIGKILL);
		if (await_death(c) != 0)
			return pr_error_set(err, PR_EIO,
			    "process %ld does not die after SIGKILL",
			    (long)c->pid);
		c->t1 = pr_spawn_now();
	}
	memset(&ru, 0, sizeof(ru));
	if (reap(c->pid, &status, &ru) != 0) {
		/* Only possible if someone else reaped it. */
		memset(&ru, 0, sizeof(ru));
		status = 0;
	}
	if (o->reap_orphans)
		reap_orphans();
	/* Only now can the pipes reach their end (or a process that
	 * escaped the group holds them). */
	close_fd(&c->wr[0]);
	close_fd(&c->wr[1]);
	drain(c, r);

	r->wall_s = c->t1 - c->t0;
	r->user_s = tv_s(&ru.ru_utime);
	r->sys_s = tv_s(&ru.ru_stime);
	r->maxrss_kib = (double)ru.ru_maxrss;
	r->ctxsw_vol = (double)ru.ru_nvcsw;
	r->ctxsw_invol = (double)ru.ru_nivcsw;
	if (killed)
		r->outcome = why;
	else if (WIFEXITED(status)) {
		r->exit_status = WEXITSTATUS(status);
		r->outcome = r->exit_status == 0 ? PR_SPAWN_OK : PR_SPAWN_EXIT;
	} else if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
		r->outcome = PR_SPAWN_SIGNAL;
	} else
		r->outcome = PR_SPAWN_SIGNAL;
	return PR_OK;
}

enum pr_status
pr_spawn_run(char *const *argv, const struct pr_spawn_opts *o,
    struct pr_spawn_result *r, struct pr_error *err)
{
	struct pr_spawn_opts defaults;
	struct pr_spawner *own = NULL, *sp;
	struct child c;
	char *shargv[4];
	char *const *av;
	const char *exe, *name;
	char found[PATH_MAX];
	enum pr_spawn_outcome why = PR_SPAWN_OK;
	enum pr_status st = PR_OK;
	int rc, exited;

	if (o == NULL) {
		pr_spawn_opts_init(&defaults);
		o = &defaults;
	}
	if (argv == NULL || argv[0] == NULL)
		return pr_error_set(err, PR_EINVAL, "empty command");
	pr_spawn_result_release(r);
	pr_spawn_result_init(r);
	pr_buf_init(&r->output, o->output_limit);
	pr_buf_init(&r->errout, o->output_limit);
	child_init(&c);
	if (o->shell) {
		shargv[0] = (char *)"sh";
		shargv[1] = (char *)"-c";
		shargv[2] = argv[0];
		shargv[3] = NULL;
		av = shargv;
		exe = name = "/bin/sh";
	} else {
		av = argv;
		name = av[0];
		exe = o->path;
		if (exe == NULL) {
			if ((rc = resolve(av[0], o->search, found,
				 sizeof(found))) != 0) {
				r->sys_errno = rc;
				r->outcome = PR_SPAWN_NOEXEC;
				goto out;
			}
			exe = found;
		}
	}
	if ((sp = o->spawner) == NULL) {
		if ((st = pr_spawner_new(&own, err)) != PR_OK)
			goto out;
		sp = own;
	}
	if ((st = open_pipes(&c, err)) != PR_OK)
		goto out;
	if ((rc = actions(sp, c.wr[0], c.wr[1])) != 0) {
		st = pr_error_set(err, PR_ENOMEM, "posix_spawn setup: %s",
		    strerror(rc));
		goto out;
	}

	c.t0 = pr_spawn_now();
	rc = posix_spawn(&c.pid, exe, &sp->fa, &sp->attr, av, environ);
	/* The write ends stay open here until the exit is seen (finish):
	 * the child's exit then gives the pipes no hang-up, and the parent
	 * wakes once, on the pidfd, not on the pipes first. */
	if (rc != 0) {
		r->wall_s = pr_spawn_now() - c.t0;
		r->sys_errno = rc;
		r->outcome = PR_SPAWN_NOEXEC;
		goto out;
	}
	c.pidfd = open_pidfd(c.pid);
	exited = watch(&c, o, r, &why);
	st = finish(&c, o, !exited, why, r, err);
out:
	if (st == PR_OK)
		describe(r, name, o->timeout_s);
	child_close(&c);
	pr_spawner_free(own);
	return st;
}
