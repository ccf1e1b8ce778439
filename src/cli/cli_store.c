/*
 * cli/cli_store.c - what the subcommands that use the results database
 * share: opening it from --db or the default (perfreg/store.h), and the
 * facts a session records about where it runs (host name, boot id).
 */
#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "perfreg/env.h"
#include "perfreg/store.h"
#include "core/banned.h"

/* $PERFREG_DB_BUSY_MS, the busy timeout in milliseconds (for tests and
 * for users who prefer to fail fast); the default when unset or not a
 * number from 0 to an hour. */
static int
busy_ms(void)
{
	const char *s = getenv("PERFREG_DB_BUSY_MS");
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return PR_STORE_BUSY_MS_DEFAULT;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0 || v > 3600000)
		return PR_STORE_BUSY_MS_DEFAULT;
	return (int)v;
}

/*
 * A measurement of wall_s seconds about to be stored: unless
 * $PERFREG_DB_BUSY_MS chose the wait, wait for another writer's lock as
 * long as the measurement took (at least the default, at most 10
 * minutes), since what was measured is worth more than the wait.
 */
void
cli_store_wait_for(struct pr_store *st, double wall_s)
{
	const char *s = getenv("PERFREG_DB_BUSY_MS");
	double ms = wall_s * 1e3;

	if (st == NULL || (s != NULL && *s != '\0'))
		return;
	if (!(ms > PR_STORE_BUSY_MS_DEFAULT))
		ms = PR_STORE_BUSY_MS_DEFAULT;
	if (ms > 600e3)
		ms = 600e3;
	pr_store_set_busy(st, (int)ms);
}

int
cli_store_open(const char *cmd, const char *db, enum pr_store_mode mode,
    struct pr_store **out)
{
	struct pr_store_opts o;
	struct pr_error err;
	enum pr_status st;
	char *def = NULL;
	char eb[PR_ERROR_MSG_MAX + PR_ERROR_FILE_MAX + 8];

	*out = NULL;
	pr_error_clear(&err);
	if (db == NULL) {
		st = pr_store_default_target(getenv("PERFREG_DB"),
		    getenv("XDG_DATA_HOME"), getenv("HOME"), &def, &err);
		if (st != PR_OK) {
			cli_errorf("%s: no database: %s (give --db or set "
				   "PERFREG_DB)",
			    cmd, err.msg);
			return cli_exit_for(st);
		}
		db = def;
	}
	pr_store_opts_init(&o);
	o.busy_ms = busy_ms();
	st = pr_store_open_opts(db, mode, &o, out, &err);
	if (st != PR_OK) {
		if (st == PR_ENOTFOUND && mode != PR_STORE_CREATE)
			cli_errorf("%s: %s: no such database (nothing stored "
				   "yet?)",
			    cmd, db);
		else
			cli_errorf("%s: %s", cmd,
			    pr_error_format(&err, eb, sizeof(eb)));
		free(def);
		return st == PR_ENOMEM ? PR_EXIT_INTERNAL : PR_EXIT_USAGE;
	}
	free(def);
	return PR_EXIT_OK;
}

extern char **environ;

void
cli_env_opts(struct pr_env_opts *o)
{
	pr_env_opts_init(o);
	o->process_env = (const char *const *)environ;
}

void
cli_hostname(char *buf, size_t size)
{
	if (gethostname(buf, size) != 0 || buf[0] == '\0')
		snprintf(buf, size, "unknown");
	buf[size - 1] = '\0';
}

void
cli_boot_id(char *buf, size_t size)
{
	const char *env;
	ssize_t n;
	int fd;

	/* For tests, and for containers that share a boot id. */
	if ((env = getenv("PERFREG_BOOT_ID")) != NULL && env[0] != '\0') {
		snprintf(buf, size, "%s", env);
		return;
	}
	snprintf(buf, size, "unknown");
	if ((fd = open("/proc/sys/kernel/random/boot_id",
		 O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0) {
		snprintf(buf, size, "unknown");
		return;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

enum pr_status
cli_str_escape(struct pr_buf *b, struct pr_str s, struct pr_error *err)
{
	enum pr_status st = PR_OK;
	unsigned char c;
	size_t i;

	for (i = 0; i < s.n && st == PR_OK; i++) {
		c = (unsigned char)s.p[i];
		if (c == '\\')
			st = pr_buf_adds(b, "\\\\", err);
		else if (c < 0x20 || c >= 0x7f)
			st = pr_buf_addf(b, err, "\\x%02x", c);
		else
			st = pr_buf_addc(b, (char)c, err);
	}
	return st;
}

char *
cli_time(double t, char *buf, size_t size)
{
	struct tm tm;
	time_t s = (time_t)t;

	if (!(t > 0) || gmtime_r(&s, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm) == 0)
		snprintf(buf, size, "-");
	return buf;
}

json_t *
cli_str_json(struct pr_str s)
{
	struct pr_buf b = PR_BUF_INIT(8 << 20);
	const char *p = s.p != NULL ? s.p : "";
	json_t *j;

	if (memchr(p, '\0', s.n) == NULL && (j = json_stringn(p, s.n)) != NULL)
		return j;
	if (cli_str_escape(&b, s, NULL) != PR_OK) {
		pr_buf_release(&b);
		return NULL;
	}
	j = json_stringn(b.data != NULL ? b.data : "", b.len);
	pr_buf_release(&b);
	return j;
}

int
cli_db_json_opts(int argc, char **argv, const struct cmd_entry *e,
    const char **db, int *json)
{
	struct cli_db_json o = { NULL, 0 };
	int first;

	if ((first = opt_parse(e, argc, argv, &o, NULL)) < 0)
		return -1;
	*db = o.db;
	*json = o.json;
	return first;
}
