/*
 * monitor/monitor.c - the monitor of a session: which sources it reads,
 * the readings before and after each run, and their deltas (see
 * perfreg/monitor.h).
 *
 * A reading is a list of named figures (struct pr_mon_snap); the delta
 * of a run pairs the figures of its two readings by name, which is
 * position by position when the files kept their shape, so that the
 * usual cost is linear.  A source that cannot be read is dropped at
 * pr_monitor_new with a note; one that fails in a single run gives no
 * figures for that run, which the explanation then sees as missing
 * values, never as zeros.
 *
 * The files are opened once, at pr_monitor_new, and read with pread
 * from offset 0 around each run (a /proc file is written anew by each
 * read from its start), so that a run costs no open or close.  The
 * default interrupts source takes its counts from /proc/stat, which is
 * read once a reading for both it and the stat source.  Where vmstat is
 * not read around each run, its memory pressure counters are read at
 * pr_monitor_new and pr_monitor_session_end, and a note names those that
 * moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor/internal.h"
#include "perfreg/monitor.h"

#include "core/banned.h"

#define SNAP_MAX 4096
#define FILE_MAX (4u << 20)
#define NOTES_MAX 8
#define NOTE_LEN 256

/* The /proc files read around each run: the sources that need them,
 * and the parser (NULL: /proc/stat's, which also takes the clock tick
 * and gives the default interrupts source its counts). */
static const struct procsrc {
	unsigned src;
	const char *file;
	enum pr_status (*parse)(const char *, size_t, struct pr_mon_snap *,
	    struct pr_error *);
} procsrcs[] = {
	{ PR_MON_STAT | PR_MON_INTERRUPTS, "stat", NULL },
	{ PR_MON_SOFTIRQS, "softirqs", pr_mon_parse_softirqs },
	{ PR_MON_INTERRUPTS_FULL, "interrupts", pr_mon_parse_interrupts },
	{ PR_MON_VMSTAT, "vmstat", pr_mon_parse_vmstat_explain },
	{ PR_MON_VMSTAT_FULL, "vmstat", pr_mon_parse_vmstat },
	{ PR_MON_SCHEDSTAT, "schedstat", pr_mon_parse_schedstat },
};
#define NPROCSRC (sizeof(procsrcs) / sizeof(procsrcs[0]))
#define NSOURCES 8

static const struct {
	const char *name;
	unsigned set;
} setnames[] = {
	/* The NSOURCES sources first, then the sets. */
	{ "perf", PR_MON_PERF },
	{ "stat", PR_MON_STAT },
	{ "softirqs", PR_MON_SOFTIRQS },
	{ "interrupts", PR_MON_INTERRUPTS },
	{ "vmstat", PR_MON_VMSTAT },
	{ "schedstat", PR_MON_SCHEDSTAT },
	{ "interrupts-full", PR_MON_INTERRUPTS_FULL },
	{ "vmstat-full", PR_MON_VMSTAT_FULL },
	{ "system", PR_MON_DEFAULT & ~(unsigned)PR_MON_PERF },
	{ "all", PR_MON_ALL },
	{ "default", PR_MON_DEFAULT },
	{ "none", 0 },
};

struct pr_monitor {
	unsigned active;
	char *root;
	struct pr_mon_perf *perf;
	struct pr_mon_snap before, after;
	struct pr_mon_irqnames irqs; /* PR_MON_INTERRUPTS' names */
	/* The memory pressure counters of /proc/vmstat at the session's
	 * start, where vmstat is not read around each run. */
	struct pr_mon_snap watch;
	int watching, watch_noted;
	int fd[NPROCSRC]; /* -1: not read */
	struct pr_buf file;
	double clk_tck;   /* USER_HZ */
	double max_scale; /* largest multiplexing scale seen */
	int scale_noted;
	int not_run, not_run_noted; /* a perf group enabled never ran */
	char notes[NOTES_MAX][NOTE_LEN];
	size_t nnotes;
};

void
pr_mon_snap_init(struct pr_mon_snap *s)
{
	memset(s, 0, sizeof(*s));
}

void
pr_mon_snap_release(struct pr_mon_snap *s)
{
	free(s->v);
	pr_mon_snap_init(s);
}

void
pr_mon_snap_clear(struct pr_mon_snap *s)
{
	s->n = 0;
}

static int
namechar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	    c == '+' || c == '-' || c == '#';
}

enum pr_status
pr_mon_snap_add(struct pr_mon_snap *s, const char *prefix, const char *name,
    size_t namelen, const char *unit, double value, int gauge,
    struct pr_error *err)
{
	struct pr_mon_value *v;
	size_t i, pl, room;

	if (!isfinite(value))
		return PR_OK;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		if (s->n >= SNAP_MAX)
			return pr_error_set(err, PR_ELIMIT,
			    "more than %d monitor figures", SNAP_MAX);
		if ((v = realloc(s->v, cap * sizeof(*v))) == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		s->v = v;
		s->cap = cap;
	}
	v = &s->v[s->n++];
	pl = strlen(PR_MON_PREFIX);
	memcpy(v->name, PR_MON_PREFIX, pl);
	room = sizeof(v->name) - 1 - pl;
	for (i = 0; i < room && prefix[i] != '\0'; i++)
		v->name[pl + i] = prefix[i];
	pl += i;
	room = sizeof(v->name) - 1 - pl;
	for (i = 0; i < namelen && i < room; i++)
		v->name[pl + i] =
		    namechar((unsigned char)name[i]) ? name[i] : '_';
	v->name[pl + i] = '\0';
	v->unit = unit;
	v->value = value;
	v->gauge = gauge;
	return PR_OK;
}

enum pr_status
pr_mon_snap_delta(const struct pr_mon_snap *before,
    const struct pr_mon_snap *after, struct pr_dataset *out,
    struct pr_error *err)
{
	enum pr_status st;
	size_t i, j;

	for (i = 0; i < after->n; i++) {
		const struct pr_mon_value *a = &after->v[i], *b = NULL;
		double d;

		if (i < before->n && strcmp(before->v[i].name, a->name) == 0)
			b = &before->v[i];
		else
			for (j = 0; j < before->n && b == NULL; j++)
				if (strcmp(before->v[j].name, a->name) == 0)
					b = &before->v[j];
		if (b == NULL)
			continue;
		if (a->gauge)
			d = (a->value + b->value) / 2;
		else if ((d = a->value - b->value) < 0)
			continue;
		if ((st = pr_dataset_add(out, a->name, a->unit, PR_BETTER_LOWER,
			 d, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

int
pr_mon_line(const char *buf, size_t len, size_t *pos, const char **ls,
    const char **le)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	*ls = buf + *pos;
	nl = memchr(*ls, '\n', len - *pos);
	*le = nl != NULL ? nl : buf + len;
	*pos = (size_t)(*le - buf) + (nl != NULL);
	return 1;
}

int
pr_mon_word(const char **p, const char *e, const char **ws, const char **we)
{
	const char *q = *p;

	while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
		q++;
	if (q == e)
		return 0;
	*ws = q;
	while (q < e && *q != ' ' && *q != '\t' && *q != '\r')
		q++;
	*we = q;
	*p = q;
	return 1;
}

int
pr_mon_uint(const char *ws, const char *we, double *v)
{
	double x = 0;

	if (ws == we || we - ws > 20)
		return 0;
	for (; ws < we; ws++) {
		if (*ws < '0' || *ws > '9')
			return 0;
		x = x * 10 + (*ws - '0');
	}
	*v = x;
	return 1;
}

int
pr_mon_read_file(const char *root, const char *name, struct pr_buf *b)
{
	char path[4096];
	int fd, n;
	ssize_t got;

	pr_buf_reset(b);
	n = snprintf(path, sizeof(path), "%s/%s", root, name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	for (;;) {
		if (pr_buf_grow(b, 16384, NULL) != PR_OK) {
			close(fd);
			return -1;
		}
		got = read(fd, b->data + b->len, b->cap - 1 - b->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		b->len += (size_t)got;
	}
	close(fd);
	return got < 0 ? -1 : 0;
}

/* Reads the whole of the open file fd from its start into b (cleared
 * first), at most its cap.  0, or -1. */
static int
pread_file(int fd, struct pr_buf *b)
{
	ssize_t got;

	pr_buf_reset(b);
	for (;;) {
		if (pr_buf_grow(b, 16384, NULL) != PR_OK)
			return -1;
		got = pread(fd, b->data + b->len, b->cap - 1 - b->len,
		    (off_t)b->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		b->len += (size_t)got;
	}
	return got < 0 ? -1 : 0;
}

static void
note(struct pr_monitor *m, const char *text)
{
	if (m->nnotes == NOTES_MAX)
		return;
	snprintf(m->notes[m->nnotes++], NOTE_LEN, "%s", text);
}

enum pr_status
pr_monitor_parse_set(const char *spec, unsigned *set, struct pr_error *err)
{
	const char *p = spec, *e;
	size_t i;

	*set = 0;
	for (;;) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		for (i = 0; i < sizeof(setnames) / sizeof(setnames[0]); i++)
			if ((size_t)(e - p) == strlen(setnames[i].name) &&
			    strncmp(p, setnames[i].name, (size_t)(e - p)) == 0)
				break;
		if (i == sizeof(setnames) / sizeof(setnames[0]))
			return pr_error_set(err, PR_EINVAL,
			    "unknown monitor '%.*s' (perf, stat, softirqs, "
			    "interrupts, interrupts-full, vmstat, vmstat-full, "
			    "schedstat, system, all, default or none)",
			    (int)(e - p > 64 ? 64 : e - p), p);
		*set |= setnames[i].set;
		if (*e == '\0')
			return PR_OK;
		p = e + 1;
	}
}

const char *
pr_monitor_source_name(enum pr_monitor_source src)
{
	size_t i;

	for (i = 0; i < NSOURCES; i++)
		if (setnames[i].set == (unsigned)src)
			return setnames[i].name;
	return "?";
}

enum pr_status
pr_monitor_new(unsigned set, const char *proc_root, struct pr_monitor **out,
    struct pr_error *err)
{
	struct pr_monitor *m;
	long tck;
	size_t i;

	*out = NULL;
	if ((m = calloc(1, sizeof(*m))) == NULL ||
	    (m->root = strdup(proc_root ? proc_root : "/proc")) == NULL) {
		free(m);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	pr_buf_init(&m->file, FILE_MAX);
	pr_mon_snap_init(&m->before);
	pr_mon_snap_init(&m->after);
	pr_mon_snap_init(&m->watch);
	m->clk_tck = (tck = sysconf(_SC_CLK_TCK)) > 0 ? (double)tck : 100;
	m->active = set & PR_MON_ALL;
	if (m->active & PR_MON_INTERRUPTS_FULL)
		m->active &= ~(unsigned)PR_MON_INTERRUPTS;
	if (m->active & PR_MON_VMSTAT_FULL)
		m->active &= ~(unsigned)PR_MON_VMSTAT;
	m->max_scale = 1;
	pr_mon_irqnames_init(&m->irqs);
	for (i = 0; i < NPROCSRC; i++)
		m->fd[i] = -1;
	if ((m->active & PR_MON_INTERRUPTS) &&
	    (pr_mon_read_file(m->root, "interrupts", &m->file) != 0 ||
		pr_mon_irqnames_parse(m->file.data, m->file.len, &m->irqs,
		    err) != PR_OK)) {
		m->active &= ~(unsigned)PR_MON_INTERRUPTS;
		pr_mon_irqnames_release(&m->irqs);
		note(m,
		    "monitor interrupts absent: /proc/interrupts cannot be "
		    "read");
	}
	for (i = 0; i < NPROCSRC; i++) {
		char path[4096], t[NOTE_LEN];
		unsigned lost;
		int n;

		if (!(m->active & procsrcs[i].src))
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", m->root,
		    procsrcs[i].file);
		if (n >= 0 && (size_t)n < sizeof(path))
			m->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (m->fd[i] >= 0 && pread_file(m->fd[i], &m->file) == 0)
			continue;
		if (m->fd[i] >= 0)
			close(m->fd[i]);
		m->fd[i] = -1;
		lost = m->active & procsrcs[i].src;
		m->active &= ~procsrcs[i].src;
		for (n = 0; n < NSOURCES; n++) {
			if (!(lost & setnames[n].set))
				continue;
			snprintf(t, sizeof(t),
			    "monitor %s absent: /proc/%s cannot be read",
			    setnames[n].name, procsrcs[i].file);
			note(m, t);
		}
	}
	if ((set & PR_MON_ALL) != 0 &&
	    !(set & (PR_MON_VMSTAT | PR_MON_VMSTAT_FULL)) &&
	    pr_mon_read_file(m->root, "vmstat", &m->file) == 0) {
		enum pr_status st = pr_mon_parse_vmstat_explain(m->file.data,
		    m->file.len, &m->watch, err);

		if (st != PR_OK) {
			pr_monitor_free(m);
			return st;
		}
		m->watching = 1;
	}
	if (m->active & PR_MON_PERF) {
		char n1[NOTE_LEN] = "", n2[NOTE_LEN] = "";

		m->perf = pr_mon_perf_open(n1, sizeof(n1), n2, sizeof(n2));
		if (m->perf == NULL)
			m->active &= ~(unsigned)PR_MON_PERF;
		else
			pr_mon_perf_set_self(m->perf,
			    (set & PR_MON_OPT_SELF) != 0);
		if (n1[0] != '\0')
			note(m, n1);
		if (n2[0] != '\0')
			note(m, n2);
	}
	*out = m;
	return PR_OK;
}

void
pr_monitor_free(struct pr_monitor *m)
{
	size_t i;

	if (m == NULL)
		return;
	pr_mon_perf_close(m->perf);
	for (i = 0; i < NPROCSRC; i++)
		if (m->fd[i] >= 0)
			close(m->fd[i]);
	pr_mon_irqnames_release(&m->irqs);
	pr_mon_snap_release(&m->before);
	pr_mon_snap_release(&m->after);
	pr_mon_snap_release(&m->watch);
	pr_buf_release(&m->file);
	free(m->root);
	free(m);
}

unsigned
pr_monitor_active(const struct pr_monitor *m)
{
	return m->active;
}

size_t
pr_monitor_nnotes(const struct pr_monitor *m)
{
	return m->nnotes;
}

const char *
pr_monitor_note(const struct pr_monitor *m, size_t i)
{
	return i < m->nnotes ? m->notes[i] : NULL;
}

static enum pr_status
read_proc(struct pr_monitor *m, struct pr_mon_snap *s, struct pr_error *err)
{
	enum pr_status st = PR_OK;
	size_t i;

	for (i = 0; i < NPROCSRC; i++) {
		if (m->fd[i] < 0 || pread_file(m->fd[i], &m->file) != 0)
			continue;
		if (procsrcs[i].parse != NULL) {
			st = procsrcs[i].parse(m->file.data, m->file.len, s,
			    err);
		} else {
			if (m->active & PR_MON_STAT)
				st = pr_mon_parse_stat(m->file.data,
				    m->file.len, m->clk_tck, s, err);
			if (st == PR_OK && (m->active & PR_MON_INTERRUPTS))
				st = pr_mon_parse_stat_intr(m->file.data,
				    m->file.len, &m->irqs, s, err);
		}
		if (st != PR_OK)
			return st;
	}
	return PR_OK;
}

enum pr_status
pr_monitor_begin(struct pr_monitor *m, struct pr_error *err)
{
	enum pr_status st;

	pr_mon_snap_clear(&m->before);
	if ((st = read_proc(m, &m->before, err)) != PR_OK)
		return st;
	if (m->perf != NULL)
		pr_mon_perf_start(m->perf);
	return PR_OK;
}

enum pr_status
pr_monitor_end(struct pr_monitor *m, struct pr_dataset *out,
    struct pr_error *err)
{
	enum pr_status st;
	size_t i;

	pr_mon_snap_clear(&m->after);
	if (m->perf != NULL) {
		/* The counters are stopped first, so that reading /proc
		 * is not counted as the child's. */
		struct pr_mon_snap perf;

		pr_mon_snap_init(&perf);
		st = pr_mon_perf_stop(m->perf, &perf, &m->max_scale,
		    &m->not_run, err);
		for (i = 0; st == PR_OK && i < perf.n; i++)
			st = pr_dataset_add(out, perf.v[i].name, perf.v[i].unit,
			    PR_BETTER_LOWER, perf.v[i].value, err);
		pr_mon_snap_release(&perf);
		if (st != PR_OK)
			return st;
		if (m->max_scale > 1.0001 && !m->scale_noted) {
			char t[NOTE_LEN];

			snprintf(t, sizeof(t),
			    "hardware counters multiplexed: counts scaled by "
			    "time enabled / time running (up to x%.2f)",
			    m->max_scale);
			note(m, t);
			m->scale_noted = 1;
		}
		if (m->not_run && !m->not_run_noted) {
			note(m,
			    "perf counters enabled but never scheduled in "
			    "a run (another perf user held the PMU): "
			    "their figures left out of that run, not "
			    "zero");
			m->not_run_noted = 1;
		}
	}
	if ((st = read_proc(m, &m->after, err)) != PR_OK)
		return st;
	return pr_mon_snap_delta(&m->before, &m->after, out, err);
}

enum pr_status
pr_monitor_session_end(struct pr_monitor *m, struct pr_error *err)
{
	struct pr_mon_snap now;
	char list[128] = "", t[NOTE_LEN];
	size_t i, j, len = 0, pl = strlen(PR_MON_PREFIX "vm.");
	int n, cut = 0;
	enum pr_status st;

	if (!m->watching || m->watch_noted ||
	    pr_mon_read_file(m->root, "vmstat", &m->file) != 0)
		return PR_OK;
	pr_mon_snap_init(&now);
	if ((st = pr_mon_parse_vmstat_explain(m->file.data, m->file.len, &now,
		 err)) != PR_OK) {
		pr_mon_snap_release(&now);
		return st;
	}
	for (i = 0; i < now.n && !cut; i++) {
		const char *name = now.v[i].name + pl;
		double d = -1;

		if (!pr_mon_vmstat_pressure(name, strlen(name)))
			continue;
		for (j = 0; j < m->watch.n; j++)
			if (strcmp(m->watch.v[j].name, now.v[i].name) == 0)
				d = now.v[i].value - m->watch.v[j].value;
		if (d <= 0)
			continue;
		n = snprintf(list + len, sizeof(list) - len, "%s %s +%.0f",
		    len > 0 ? "," : "", name, d);
		if (n < 0 || (size_t)n >= sizeof(list) - len - 4) {
			/* What does not fit is said to be there. */
			snprintf(list + len, sizeof(list) - len, " ...");
			cut = 1;
		} else {
			len += (size_t)n;
		}
	}
	pr_mon_snap_release(&now);
	if (list[0] == '\0' || (len == 0 && !cut))
		return PR_OK;
	snprintf(t, sizeof(t),
	    "memory pressure in the session (system-wide, /proc/vmstat at "
	    "start and end):%s; add vmstat to --monitor to attribute it to "
	    "runs",
	    list);
	note(m, t);
	m->watch_noted = 1;
	return PR_OK;
}

enum pr_status
pr_monitor_keep_complete(struct pr_dataset *d, size_t n, struct pr_error *err)
{
	struct pr_dataset keep;
	struct pr_metric *m;
	size_t i, k, left = 0;

	for (i = 0; i < d->n; i++)
		left += d->metrics[i].values.n == n;
	if (left == d->n)
		return PR_OK;
	pr_dataset_init(&keep);
	for (i = 0; i < d->n; i++) {
		if (d->metrics[i].values.n != n)
			continue;
		for (k = 0; k < n; k++)
			if (pr_dataset_add(&keep, d->metrics[i].name,
				d->metrics[i].unit, d->metrics[i].better,
				d->metrics[i].values.v[k], err) != PR_OK) {
				pr_dataset_release(&keep);
				return PR_ENOMEM;
			}
		m = pr_dataset_find(&keep, d->metrics[i].name);
		if (m != NULL)
			m->flags = d->metrics[i].flags;
	}
	pr_dataset_release(d);
	/* The new dataset is moved in whole; keep is not used again. */
	*d = keep;
	return PR_OK;
}

int
pr_monitor_is_metric(const char *name)
{
	return strncmp(name, PR_MON_PREFIX, strlen(PR_MON_PREFIX)) == 0;
}

int
pr_monitor_is_rate(const char *name)
{
	static const char *const not [] = { PR_MON_PREFIX "perf.",
		PR_MON_PREFIX "stat.procs_", PR_MON_PREFIX "vm.nr_",
		PR_MON_WALL };
	size_t i;

	if (!pr_monitor_is_metric(name))
		return 0;
	for (i = 0; i < sizeof(not ) / sizeof(not [0]); i++)
		if (strncmp(name, not [i], strlen(not [i])) == 0)
			return 0;
	return 1;
}
