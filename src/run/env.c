/*
 * run/env.c - capturing an environment snapshot, normalising the kernel
 * log, and the snapshot's text form (the snapshot itself and its JSON
 * form are core/envsnap.c's, which the store and the diff share).
 *
 * The capture reads plain files below a root prefix (/proc/sys/kernel/
 * ostype, osrelease and version rather than uname(2), so that a fixture
 * tree gives the whole kernel identity), in a fixed order, so two
 * snapshots list their items alike.  A file that cannot be read gives an
 * unavailable item with strerror's reason; a directory that is absent
 * (no cpufreq in a VM) likewise.  Tools are run through the caller's
 * runner or pr_spawn_run; the kernel log comes from klogctl(2)
 * (SYSLOG_ACTION_READ_ALL), which needs no blocking read and tells
 * EPERM apart when kernel.dmesg_restrict forbids it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "perfreg/env.h"
#include "perfreg/report.h"
#include "perfreg/spawn.h"
#include "core/banned.h"

#define FILE_MAX ((size_t)4 << 20)
#define LOG_MAX ((size_t)16 << 20)

/* The sysctls recorded, as paths below /proc/sys. */
static const char *const sysctls[] = { "kernel/sched_autogroup_enabled",
	"kernel/sched_child_runs_first", "kernel/sched_rt_period_us",
	"kernel/sched_rt_runtime_us", "kernel/numa_balancing",
	"kernel/randomize_va_space", "kernel/perf_event_paranoid",
	"kernel/nmi_watchdog", "vm/swappiness", "vm/overcommit_memory",
	"vm/dirty_ratio", "vm/dirty_background_ratio", "vm/zone_reclaim_mode",
	"net/core/somaxconn", "net/core/rmem_max", "net/core/wmem_max",
	"net/core/busy_poll", "net/core/default_qdisc", NULL };

const char *const pr_env_process_vars[] = { "OPENSSL_ia32cap", "OPENSSL_armcap",
	"OPENSSL_ppccap", "OPENSSL_s390xcap", "OPENSSL_riscvcap",
	"GLIBC_TUNABLES", "MALLOC_ARENA_MAX", "MALLOC_ARENA_TEST",
	"MALLOC_CHECK_", "MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_",
	"MALLOC_PERTURB_", "MALLOC_TOP_PAD_", "MALLOC_TRIM_THRESHOLD_",
	"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "LD_HWCAP_MASK", NULL };

void
pr_env_opts_init(struct pr_env_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* Reads ROOT/path into b (reset first); 0, or an errno. */
static int
slurp(const char *root, const char *path, struct pr_buf *b)
{
	struct pr_buf p = PR_BUF_INIT(8192);
	char chunk[8192];
	ssize_t n;
	int fd, e = 0;

	pr_buf_reset(b);
	if (pr_buf_addf(&p, NULL, "%s%s", root, path) != PR_OK)
		return ENAMETOOLONG;
	fd = open(p.data, O_RDONLY | O_CLOEXEC);
	pr_buf_release(&p);
	if (fd < 0)
		return errno;
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			break;
		}
		if (n == 0)
			break;
		if (pr_buf_add(b, chunk, (size_t)n, NULL) != PR_OK) {
			e = EFBIG;
			break;
		}
	}
	close(fd);
	if (e == 0 && b->data == NULL && pr_buf_adds(b, "", NULL) != PR_OK)
		e = ENOMEM;
	return e;
}

/* Strips trailing blanks and newlines in place. */
static void
chomp(struct pr_buf *b)
{
	while (b->len > 0 && isspace((unsigned char)b->data[b->len - 1]))
		b->data[--b->len] = '\0';
}

static const char *
why(int e)
{
	return e == ENOENT ? "not present" : strerror(e);
}

/* Adds the item KEY from file PATH (first line, or all with whole). */
static enum pr_status
add_file(struct pr_env *e, const char *root, const char *key, const char *cat,
    const char *path, struct pr_buf *b, struct pr_error *err)
{
	int r = slurp(root, path, b);

	if (r == ENOMEM)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if (r != 0)
		return pr_env_add(e, key, cat, NULL, why(r), err);
	chomp(b);
	return pr_env_add(e, key, cat, b->data, NULL, err);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Splits s (modified) into words, sorts them, drops duplicates and
 * appends them space-separated to out. */
static enum pr_status
sorted_words(char *s, struct pr_buf *out, struct pr_error *err)
{
	char **w = NULL;
	size_t n = 0, cap = 0, i;
	enum pr_status st = PR_OK;

	pr_buf_reset(out);
	while (*s != '\0') {
		while (isspace((unsigned char)*s))
			*s++ = '\0';
		if (*s == '\0')
			break;
		if (n == cap) {
			char **p;

			cap = cap ? cap * 2 : 64;
			if ((p = realloc(w, cap * sizeof(*w))) == NULL) {
				free(w);
				return pr_error_set(err, PR_ENOMEM,
				    "out of memory");
			}
			w = p;
		}
		w[n++] = s;
		while (*s != '\0' && !isspace((unsigned char)*s))
			s++;
	}
	if (n > 0)
		qsort(w, n, sizeof(*w), cmpstr);
	for (i = 0; i < n && st == PR_OK; i++) {
		if (i > 0 && strcmp(w[i], w[i - 1]) == 0)
			continue;
		if (out->len > 0)
			st = pr_buf_addc(out, ' ', err);
		if (st == PR_OK)
			st = pr_buf_adds(out, w[i], err);
	}
	if (st == PR_OK && out->data == NULL)
		st = pr_buf_adds(out, "", err);
	free(w);
	return st;
}

/* The value of "field\t: value" in cpuinfo's first processor, or NULL. */
static char *
cpuinfo_field(const char *text, const char *field)
{
	size_t fl = strlen(field);
	const char *p = text, *colon, *end;

	while (p != NULL && *p != '\0') {
		end = strchr(p, '\n');
		if (end == NULL)
			end = p + strlen(p);
		if (strncmp(p, field, fl) == 0 &&
		    (p[fl] == '\t' || p[fl] == ' ' || p[fl] == ':') &&
		    (colon = memchr(p, ':', (size_t)(end - p))) != NULL) {
			colon++;
			while (colon < end && isspace((unsigned char)*colon))
				colon++;
			return strndup(colon, (size_t)(end - colon));
		}
		p = *end ? end + 1 : end;
	}
	return NULL;
}

/* Counts processors and distinct (physical id, core id) pairs. */
static void
cpuinfo_counts(const char *text, long *threads, long *cores)
{
	const char *p = text;
	long phys = 0, ids[4096][2];
	size_t nid = 0, i;
	int have_core = 0;

	*threads = 0;
	while (*p != '\0') {
		const char *end = strchr(p, '\n');
		long v;

		if (end == NULL)
			end = p + strlen(p);
		if (strncmp(p, "processor", 9) == 0)
			(*threads)++;
		else if (strncmp(p, "physical id", 11) == 0 &&
		    strchr(p, ':') != NULL)
			phys = strtol(strchr(p, ':') + 1, NULL, 10);
		else if (strncmp(p, "core id", 7) == 0 &&
		    strchr(p, ':') != NULL) {
			v = strtol(strchr(p, ':') + 1, NULL, 10);
			have_core = 1;
			for (i = 0; i < nid; i++)
				if (ids[i][0] == phys && ids[i][1] == v)
					break;
			if (i == nid && nid < 4096) {
				ids[nid][0] = phys;
				ids[nid][1] = v;
				nid++;
			}
		}
		p = *end ? end + 1 : end;
	}
	*cores = have_core ? (long)nid : -1;
}

static enum pr_status
cap_cpu(struct pr_env *e, const char *root, struct pr_buf *b, struct pr_buf *t,
    struct pr_error *err)
{
	static const struct {
		const char *key, *field;
	} fields[] = {
		{ "cpu.model", "model name" },
		{ "cpu.microcode", "microcode" },
		{ "cpu.flags", "flags" },
	};
	enum pr_status st = PR_OK;
	long threads, cores;
	size_t i;
	int r;

	r = slurp(root, "/proc/cpuinfo", b);
	if (r == ENOMEM)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]) && st == PR_OK;
	     i++) {
		char *v = r ? NULL : cpuinfo_field(b->data, fields[i].field);

		if (v == NULL && r == 0 && i == 1 &&
		    slurp(root,
			"/sys/devices/system/cpu/cpu0/microcode/"
			"version",
			t) == 0) {
			/* Not in cpuinfo (some kernels): sysfs has it. */
			chomp(t);
			v = strdup(t->data);
			if (v == NULL)
				return pr_error_set(err, PR_ENOMEM,
				    "out of memory");
		}
		if (v != NULL && i == 2) {
			st = sorted_words(v, t, err);
			if (st == PR_OK)
				st = pr_env_add(e, fields[i].key, "cpu",
				    t->data, NULL, err);
		} else
			st = pr_env_add(e, fields[i].key, "cpu", v,
			    r ? why(r) : "not in /proc/cpuinfo", err);
		free(v);
	}
	if (st != PR_OK)
		return st;
	if (r != 0) {
		if ((st = pr_env_add(e, "cpu.cores", "cpu", NULL, why(r),
			 err)) != PR_OK)
			return st;
		return pr_env_add(e, "cpu.threads", "cpu", NULL, why(r), err);
	}
	cpuinfo_counts(b->data, &threads, &cores);
	pr_buf_reset(t);
	if (cores >= 0) {
		if ((st = pr_buf_addf(t, err, "%ld", cores)) != PR_OK ||
		    (st = pr_env_add(e, "cpu.cores", "cpu", t->data, NULL,
			 err)) != PR_OK)
			return st;
	} else if ((st = pr_env_add(e, "cpu.cores", "cpu", NULL,
			"not in /proc/cpuinfo", err)) != PR_OK)
		return st;
	pr_buf_reset(t);
	if ((st = pr_buf_addf(t, err, "%ld", threads)) != PR_OK)
		return st;
	return pr_env_add(e, "cpu.threads", "cpu", t->data, NULL, err);
}

/* Names in ROOT/dir matching prefix, sorted, into a malloc'd vector. */
static int
list_dir(const char *root, const char *dir, const char *prefix, char ***out,
    size_t *n)
{
	struct pr_buf p = PR_BUF_INIT(8192);
	struct dirent *d;
	char **v = NULL;
	size_t cap = 0;
	DIR *dp;

	*out = NULL;
	*n = 0;
	if (pr_buf_addf(&p, NULL, "%s%s", root, dir) != PR_OK)
		return ENAMETOOLONG;
	dp = opendir(p.data);
	pr_buf_release(&p);
	if (dp == NULL)
		return errno;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.' ||
		    strncmp(d->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (*n == cap) {
			char **q;

			cap = cap ? cap * 2 : 32;
			if ((q = realloc(v, cap * sizeof(*v))) == NULL)
				goto nomem;
			v = q;
		}
		if ((v[*n] = strdup(d->d_name)) == NULL)
			goto nomem;
		(*n)++;
	}
	closedir(dp);
	if (*n > 0)
		qsort(v, *n, sizeof(*v), cmpstr);
	*out = v;
	return 0;
nomem:
	closedir(dp);
	while (*n > 0)
		free(v[--*n]);
	free(v);
	return ENOMEM;
}

static void
free_list(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

/* cpu.governor: the distinct governors of all CPUs, sorted. */
static enum pr_status
cap_governor(struct pr_env *e, const char *root, struct pr_buf *b,
    struct pr_buf *t, struct pr_error *err)
{
	struct pr_buf all = PR_BUF_INIT(FILE_MAX);
	struct pr_buf path = PR_BUF_INIT(4096);
	enum pr_status st = PR_OK;
	char **cpus;
	size_t n, i;
	int r, seen = 0, last = ENOENT;

	r = list_dir(root, "/sys/devices/system/cpu", "cpu", &cpus, &n);
	if (r == ENOMEM)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if (r != 0)
		return pr_env_add(e, "cpu.governor", "cpu", NULL, why(r), err);
	for (i = 0; i < n && st == PR_OK; i++) {
		if (!isdigit((unsigned char)cpus[i][3]))
			continue;
		pr_buf_reset(&path);
		if ((st = pr_buf_addf(&path, err,
			 "/sys/devices/system/cpu/%s/cpufreq/scaling_governor",
			 cpus[i])) != PR_OK)
			break;
		if ((r = slurp(root, path.data, b)) != 0) {
			last = r;
			continue;
		}
		seen = 1;
		chomp(b);
		if ((st = pr_buf_addf(&all, err, "%s ", b->data)) != PR_OK)
			break;
	}
	free_list(cpus, n);
	pr_buf_release(&path);
	if (st == PR_OK) {
		if (!seen)
			st = pr_env_add(e, "cpu.governor", "cpu", NULL,
			    last == ENOENT ? "no cpufreq" : why(last), err);
		else if ((st = sorted_words(all.data, t, err)) == PR_OK)
			st = pr_env_add(e, "cpu.governor", "cpu", t->data, NULL,
			    err);
	}
	pr_buf_release(&all);
	return st;
}

static enum pr_status
cap_dir_items(struct pr_env *e, const char *root, const char *dir,
    const char *keyprefix, const char *cat, struct pr_buf *b,
    struct pr_error *err)
{
	struct pr_buf key = PR_BUF_INIT(4096), path = PR_BUF_INIT(4096);
	enum pr_status st = PR_OK;
	char **names;
	size_t n, i;
	int r;

	r = list_dir(root, dir, "", &names, &n);
	if (r == ENOMEM)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if (r != 0)
		return pr_env_add(e, keyprefix, cat, NULL, why(r), err);
	for (i = 0; i < n && st == PR_OK; i++) {
		pr_buf_reset(&key);
		pr_buf_reset(&path);
		if ((st = pr_buf_addf(&key, err, "%s.%s", keyprefix,
			 names[i])) == PR_OK &&
		    (st = pr_buf_addf(&path, err, "%s/%s", dir, names[i])) ==
			PR_OK)
			st =
			    add_file(e, root, key.data, cat, path.data, b, err);
	}
	free_list(names, n);
	pr_buf_release(&key);
	pr_buf_release(&path);
	return st;
}

/* mem.total from MemTotal, numa.nodes from the online node list. */
static enum pr_status
cap_mem(struct pr_env *e, const char *root, struct pr_buf *b,
    struct pr_error *err)
{
	enum pr_status st;
	char *v;
	int r;

	r = slurp(root, "/proc/meminfo", b);
	if (r == ENOMEM)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	v = r ? NULL : cpuinfo_field(b->data, "MemTotal");
	st = pr_env_add(e, "mem.total", "memory", v,
	    r ? why(r) : "not in /proc/meminfo", err);
	free(v);
	if (st != PR_OK)
		return st;
	return add_file(e, root, "numa.nodes", "memory",
	    "/sys/devices/system/node/online", b, err);
}

/* modules: the names in /proc/modules, sorted. */
static enum pr_status
cap_modules(struct pr_env *e, const char *root, struct pr_buf *b,
    struct pr_buf *t, struct pr_error *err)
{
	char *p, *q;
	int r;

	r = slurp(root, "/proc/modules", b);
	if (r == ENOMEM)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	if (r != 0)
		return pr_env_add(e, "modules", "modules", NULL, why(r), err);
	/* Keep the first word of each line. */
	for (p = b->data; *p != '\0'; p = q) {
		q = strchr(p, '\n');
		q = q ? q + 1 : p + strlen(p);
		while (p < q && *p != ' ' && *p != '\n')
			p++;
		while (p < q && *p != '\n')
			*p++ = ' ';
	}
	if (sorted_words(b->data, t, err) != PR_OK)
		return PR_ENOMEM;
	return pr_env_add(e, "modules", "modules", t->data, NULL, err);
}

static int
spawn_runner(void *ctx, char *const *argv, char **out, char *w, size_t wsize)
{
	struct pr_spawn_opts o;
	struct pr_spawn_result r;
	struct pr_error err;
	char *path = NULL;
	int rc = -1;

	(void)ctx;
	*out = NULL;
	if (pr_spawn_which(argv[0], NULL, &path) != 0) {
		snprintf(w, wsize, "not installed");
		return -1;
	}
	pr_spawn_opts_init(&o);
	o.path = path;
	o.timeout_s = 10;
	o.output_limit = 65536;
	pr_spawn_result_init(&r);
	if (pr_spawn_run(argv, &o, &r, &err) != PR_OK)
		snprintf(w, wsize, "%s", err.msg);
	else if (r.outcome != PR_SPAWN_OK)
		snprintf(w, wsize, "%s", r.reason);
	else if ((*out = strdup(r.output.data ? r.output.data : "")) == NULL)
		snprintf(w, wsize, "out of memory");
	else
		rc = 0;
	pr_spawn_result_release(&r);
	free(path);
	return rc;
}

static enum pr_status
cap_tools(struct pr_env *e, const struct pr_env_opts *o, struct pr_buf *t,
    struct pr_error *err)
{
	static char *const openssl[] = { "openssl", "version", NULL };
	pr_env_runner *run = o->run ? o->run : spawn_runner;
	char w[256] = "", *out = NULL;
	enum pr_status st;

	if (run(o->run_ctx, openssl, &out, w, sizeof(w)) != 0)
		return pr_env_add(e, "tool.openssl", "tools", NULL,
		    w[0] ? w : "failed", err);
	pr_buf_reset(t);
	st = pr_buf_adds(t, out, err);
	free(out);
	if (st != PR_OK)
		return st;
	chomp(t);
	return pr_env_add(e, "tool.openssl", "tools", t->data ? t->data : "",
	    NULL, err);
}

static enum pr_status
cap_log(struct pr_env *e, const struct pr_env_opts *o, const char *root,
    struct pr_buf *b, struct pr_buf *t, struct pr_error *err)
{
	enum pr_status st;
	const char *text;
	int r;

	if (o->dmesg_text != NULL)
		text = o->dmesg_text;
	else if (root[0] != '\0') {
		if ((r = slurp(root, "/dmesg", b)) == ENOMEM)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		if (r != 0)
			return pr_env_add(e, "kernel.log", "log", NULL, why(r),
			    err);
		text = b->data;
	} else {
		int size = klogctl(10, NULL, 0), n;

		if (size < 0)
			return pr_env_add(e, "kernel.log", "log", NULL,
			    errno == EPERM ? "permission denied "
					     "(kernel.dmesg_restrict)"
					   : strerror(errno),
			    err);
		pr_buf_reset(b);
		if (size <= 0 || (size_t)size > LOG_MAX)
			size = (int)LOG_MAX;
		if ((st = pr_buf_grow(b, (size_t)size, err)) != PR_OK)
			return st;
		n = klogctl(3, b->data, size);
		if (n < 0)
			return pr_env_add(e, "kernel.log", "log", NULL,
			    errno == EPERM ? "permission denied "
					     "(kernel.dmesg_restrict)"
					   : strerror(errno),
			    err);
		b->len = (size_t)n;
		b->data[n] = '\0';
		text = b->data;
	}
	if ((st = pr_env_normalise_log(text, t, err)) != PR_OK)
		return st;
	return pr_env_add(e, "kernel.log", "log", t->data, NULL, err);
}

/* The variables of pr_env_process_vars set in env (the first of a name,
 * as getenv(3) takes it), as env.NAME items; k is scratch. */
static enum pr_status
cap_process_env(struct pr_env *e, const char *const *env, struct pr_buf *k,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i, j, l;

	for (i = 0;
	     env != NULL && pr_env_process_vars[i] != NULL && st == PR_OK;
	     i++) {
		l = strlen(pr_env_process_vars[i]);
		for (j = 0; env[j] != NULL; j++)
			if (strncmp(env[j], pr_env_process_vars[i], l) == 0 &&
			    env[j][l] == '=')
				break;
		if (env[j] == NULL)
			continue;
		pr_buf_reset(k);
		if ((st = pr_buf_addf(k, err, "env.%s",
			 pr_env_process_vars[i])) == PR_OK)
			st = pr_env_add(e, k->data, "process", env[j] + l + 1,
			    NULL, err);
	}
	return st;
}

enum pr_status
pr_env_capture(struct pr_env *e, const struct pr_env_opts *o,
    struct pr_error *err)
{
	static const struct {
		const char *key, *cat, *path;
	} files1[] = {
		{ "kernel.name", "kernel", "/proc/sys/kernel/ostype" },
		{ "kernel.release", "kernel", "/proc/sys/kernel/osrelease" },
		{ "kernel.version", "kernel", "/proc/sys/kernel/version" },
		{ "kernel.cmdline", "kernel", "/proc/cmdline" },
		{ "clocksource.current", "clock",
		  "/sys/devices/system/clocksource/clocksource0/"
		  "current_clocksource" },
		{ "clocksource.available", "clock",
		  "/sys/devices/system/clocksource/clocksource0/"
		  "available_clocksource" },
	}, files2[] = {
		{ "cpu.smt", "cpu", "/sys/devices/system/cpu/smt/control" },
		{ "cpu.boost", "cpu", "/sys/devices/system/cpu/cpufreq/boost" },
		{ "cpu.no_turbo", "cpu",
		  "/sys/devices/system/cpu/intel_pstate/no_turbo" },
		{ "cpu.pstate", "cpu",
		  "/sys/devices/system/cpu/intel_pstate/status" },
	}, thp[] = {
		{ "thp.enabled", "memory",
		  "/sys/kernel/mm/transparent_hugepage/enabled" },
		{ "thp.defrag", "memory",
		  "/sys/kernel/mm/transparent_hugepage/defrag" },
	};
	struct pr_env_opts defaults;
	struct pr_buf b = PR_BUF_INIT(LOG_MAX), t = PR_BUF_INIT(LOG_MAX);
	struct pr_buf p = PR_BUF_INIT(4096);
	enum pr_status st = PR_OK;
	const char *root;
	size_t i;

	if (o == NULL) {
		pr_env_opts_init(&defaults);
		o = &defaults;
	}
	root = o->root ? o->root : "";
	for (i = 0; i < 6 && st == PR_OK; i++)
		st = add_file(e, root, files1[i].key, files1[i].cat,
		    files1[i].path, &b, err);
	/* available_clocksource as sorted words. */
	if (st == PR_OK && e->items[e->n - 1].value != NULL) {
		char *v = e->items[e->n - 1].value;

		if ((st = sorted_words(v, &t, err)) == PR_OK) {
			char *s = strdup(t.data);

			if (s == NULL)
				st = pr_error_set(err, PR_ENOMEM,
				    "out of memory");
			else {
				free(v);
				e->items[e->n - 1].value = s;
			}
		}
	}
	if (st == PR_OK)
		st = cap_cpu(e, root, &b, &t, err);
	for (i = 0; i < 4 && st == PR_OK; i++)
		st = add_file(e, root, files2[i].key, files2[i].cat,
		    files2[i].path, &b, err);
	if (st == PR_OK)
		st = cap_governor(e, root, &b, &t, err);
	if (st == PR_OK)
		st = cap_dir_items(e, root,
		    "/sys/devices/system/cpu/vulnerabilities",
		    "cpu.vulnerabilities", "mitigations", &b, err);
	if (st == PR_OK)
		st = cap_mem(e, root, &b, err);
	for (i = 0; i < 2 && st == PR_OK; i++)
		st = add_file(e, root, thp[i].key, thp[i].cat, thp[i].path, &b,
		    err);
	if (st == PR_OK)
		st = cap_modules(e, root, &b, &t, err);
	for (i = 0; sysctls[i] != NULL && st == PR_OK; i++) {
		char *c;

		pr_buf_reset(&p);
		pr_buf_reset(&t);
		if ((st = pr_buf_addf(&p, err, "/proc/sys/%s", sysctls[i])) !=
			PR_OK ||
		    (st = pr_buf_addf(&t, err, "sysctl.%s", sysctls[i])) !=
			PR_OK)
			break;
		for (c = t.data; *c != '\0'; c++)
			if (*c == '/')
				*c = '.';
		st = add_file(e, root, t.data, "sysctl", p.data, &b, err);
	}
	if (st == PR_OK)
		st = pr_env_add(e, "libc.version", "build",
		    o->libc ? o->libc : gnu_get_libc_version(), NULL, err);
	if (st == PR_OK)
		st = pr_env_add(e, "compiler", "build",
		    o->compiler ? o->compiler : __VERSION__, NULL, err);
	if (st == PR_OK)
		st = cap_process_env(e, o->process_env, &p, err);
	if (st == PR_OK && !o->no_tools)
		st = cap_tools(e, o, &t, err);
	if (st == PR_OK)
		st = cap_log(e, o, root, &b, &t, err);
	pr_buf_release(&b);
	pr_buf_release(&t);
	pr_buf_release(&p);
	return st;
}

/* Normalisation of the kernel log. */

static int
ishex(int c)
{
	return isxdigit((unsigned char)c);
}

static int
isword(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int
isdig(int c)
{
	return isdigit((unsigned char)c);
}

static const char *
skip_digits(const char *p, const char *end)
{
	while (p < end && isdig(*p))
		p++;
	return p;
}

/* Rule 1: the end of a leading syslog priority "<6>" and timestamp
 * "[ 3448.810416]", or line when there is none. */
static const char *
skip_prefix(const char *line, const char *end)
{
	const char *p = line, *q;

	if (p < end && *p == '<') {
		q = skip_digits(p + 1, end);
		if (q < end && *q == '>' && q > p + 1)
			p = q + 1;
	}
	if (p < end && *p == '[') {
		for (q = p + 1; q < end && *q == ' '; q++)
			;
		while (q < end && (isdig(*q) || *q == '.'))
			q++;
		if (q < end && *q == ']')
			p = q + 1;
	}
	return p;
}

/*
 * Rule 2, at the start of a word: "0x" and hex digits (an address when
 * 5 digits or more: "0x#"; kept otherwise), or a bare hex word of 8 or
 * more digits with a decimal digit in it ("#").  Returns the end of the
 * token and sets *repl (NULL: kept), or NULL when the rule does not
 * apply.
 */
static const char *
rule_hex(const char *p, const char *end, const char **repl)
{
	const char *q;
	int digit = 0;

	if (p + 2 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    ishex(p[2])) {
		for (q = p + 2; q < end && ishex(*q); q++)
			;
		*repl = q - p - 2 >= 5 ? "0x#" : NULL;
		return q;
	}
	for (q = p; q < end && ishex(*q); q++)
		digit |= isdig(*q);
	if (q - p >= 8 && digit && (q == end || !isword(*q))) {
		*repl = "#";
		return q;
	}
	return NULL;
}

/* Rule 3: is the number p..q (digits) a process id, by what came before
 * it in out ("pid ", "pid=", "PID: ", "comm[") and after it ("]:")? */
static int
is_pid(const struct pr_buf *out, const char *p, const char *q, const char *end)
{
	const char *d = out->data;
	size_t l = out->len;

	if (l == 0 || (d[l - 1] != '[' && d[l - 1] != '=' && d[l - 1] != ' ') ||
	    (q < end && isalpha((unsigned char)*q)))
		return 0;
	return (d[l - 1] == '[' && l >= 2 && islower((unsigned char)d[l - 2]) &&
		   q - p >= 2 && q + 1 < end && *q == ']' && q[1] == ':') ||
	    (l >= 4 && strncasecmp(d + l - 4, "pid", 3) == 0) ||
	    (l >= 5 && strncasecmp(d + l - 5, "pid:", 4) == 0);
}

/*
 * Rules 4 and 3, at a decimal digit that starts a word: a dotted version
 * (two dots or more) is kept; a number with a fractional part, or a
 * whole number of 7 digits or more not followed by a letter, is "#"; a
 * process id is "N"; other numbers are kept.  Returns the end of the
 * token and sets *repl (NULL: kept).
 */
static const char *
rule_number(const char *p, const char *end, const struct pr_buf *out,
    const char **repl)
{
	const char *q = skip_digits(p, end);
	int frac = 0;

	*repl = NULL;
	if (q + 1 < end && *q == '.' && isdig(q[1])) {
		frac = 1;
		q = skip_digits(q + 1, end);
	}
	if (frac && q + 1 < end && *q == '.' && isdig(q[1])) {
		while (q < end && (*q == '.' || isdig(*q)))
			q++;
		return q;
	}
	if (frac || (q - p >= 7 && (q == end || !isalpha((unsigned char)*q))))
		*repl = "#";
	else if (is_pid(out, p, q, end))
		*repl = "N";
	return q;
}

/* The token of the line at p (not a blank) and its replacement by the
 * rules (*repl; NULL: the token is kept as it is).  Returns its end. */
static const char *
token(const char *line, const char *p, const char *end,
    const struct pr_buf *out, const char **repl)
{
	int wordstart = p == line || !isword(p[-1]);
	const char *q;

	*repl = NULL;
	if (wordstart && (q = rule_hex(p, end, repl)) != NULL)
		return q;
	if (wordstart && isdig(*p))
		return rule_number(p, end, out, repl);
	if (!isword(*p))
		return p + 1;
	for (q = p; q < end && isword(*q); q++)
		;
	return q;
}

enum pr_status
pr_env_normalise_line(const char *line, size_t len, struct pr_buf *out,
    struct pr_error *err)
{
	const char *p, *end = line + len, *q, *repl;
	enum pr_status st = PR_OK;
	int space = 0;

	pr_buf_reset(out);
	p = skip_prefix(line, end);
	while (p < end && st == PR_OK) {
		/* Rule 5: a run of blanks is one space, none at the ends. */
		if (isspace((unsigned char)*p)) {
			space = 1;
			p++;
			continue;
		}
		if (space && out->len > 0 &&
		    (st = pr_buf_addc(out, ' ', err)) != PR_OK)
			break;
		space = 0;
		q = token(line, p, end, out, &repl);
		st = repl != NULL ? pr_buf_adds(out, repl, err)
				  : pr_buf_add(out, p, (size_t)(q - p), err);
		p = q;
	}
	if (st == PR_OK && out->data == NULL)
		st = pr_buf_adds(out, "", err);
	return st;
}

enum pr_status
pr_env_normalise_log(const char *text, struct pr_buf *out, struct pr_error *err)
{
	struct pr_buf line = PR_BUF_INIT(LOG_MAX);
	enum pr_status st = PR_OK;
	const char *p = text, *end;

	pr_buf_reset(out);
	while (*p != '\0' && st == PR_OK) {
		end = strchr(p, '\n');
		if (end == NULL)
			end = p + strlen(p);
		st = pr_env_normalise_line(p, (size_t)(end - p), &line, err);
		if (st == PR_OK && line.len > 0) {
			if (out->len > 0)
				st = pr_buf_addc(out, '\n', err);
			if (st == PR_OK)
				st = pr_buf_add(out, line.data, line.len, err);
		}
		p = *end ? end + 1 : end;
	}
	if (st == PR_OK && out->data == NULL)
		st = pr_buf_adds(out, "", err);
	pr_buf_release(&line);
	return st;
}

/* s escaped (pr_report_escape), padded with blanks to w columns. */
static enum pr_status
escaped(struct pr_buf *out, const char *s, size_t w, struct pr_error *err)
{
	size_t start = out->len;
	enum pr_status st = pr_report_escape(out, s, strlen(s), 0, err);

	while (st == PR_OK && out->len - start < w)
		st = pr_buf_addc(out, ' ', err);
	return st;
}

enum pr_status
pr_env_format_text(const struct pr_env *e, struct pr_buf *out,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	const char *cat = NULL;
	size_t i, w = 0, l;

	for (i = 0; i < e->n; i++)
		if ((l = strlen(e->items[i].key)) > w &&
		    strcmp(e->items[i].key, "kernel.log") != 0)
			w = l;
	for (i = 0; i < e->n && st == PR_OK; i++) {
		const struct pr_env_item *x = &e->items[i];

		if (cat == NULL || strcmp(cat, x->category) != 0) {
			cat = x->category;
			st = pr_buf_adds(out, i ? "\n[" : "[", err);
			if (st == PR_OK)
				st = escaped(out, cat, 0, err);
			if (st == PR_OK)
				st = pr_buf_adds(out, "]\n", err);
			if (st != PR_OK)
				break;
		}
		/* Keys and values come from outside (a snapshot file, the
		 * process environment, the kernel log): control bytes are
		 * shown, not sent (pr_report_escape). */
		if (x->value != NULL && strcmp(x->key, "kernel.log") == 0) {
			const char *p = x->value, *q;
			size_t n = 0;

			for (q = p; *q; q++)
				n += *q == '\n';
			st = pr_buf_addf(out, err,
			    "  %-*s  %zu lines, "
			    "normalised\n",
			    (int)w, x->key, *p ? n + 1 : 0);
			while (*p && st == PR_OK) {
				q = strchr(p, '\n');
				if (q == NULL)
					q = p + strlen(p);
				st = pr_buf_adds(out, "    ", err);
				if (st == PR_OK)
					st = pr_report_escape(out, p,
					    (size_t)(q - p), 0, err);
				if (st == PR_OK)
					st = pr_buf_addc(out, '\n', err);
				p = *q ? q + 1 : q;
			}
			continue;
		}
		st = pr_buf_adds(out, "  ", err);
		if (st == PR_OK)
			st = escaped(out, x->key, w, err);
		if (st == PR_OK)
			st = pr_buf_adds(out,
			    x->value == NULL ? "  unavailable: " : "  ", err);
		if (st == PR_OK)
			st = escaped(out,
			    x->value != NULL ? x->value : x->reason, 0, err);
		if (st == PR_OK)
			st = pr_buf_addc(out, '\n', err);
	}
	return st;
}
