/*
 * probes/config.c - suite configurations: which environment a suite
 * session ran in, as a short id, and which earlier sessions a new one is
 * compared with (pr_suite_plan).  See perfreg/suite.h.
 *
 * A configuration is the values of the environment items that are known
 * to move the probes' figures (pr_env_relevant_keys but one: kernel, command
 * line, microcode, clocksource, mitigations, governor, C library,
 * OpenSSL, the probes' own version...).  Its id is the 64-bit FNV-1a
 * hash of "key=value\n" (or "key unavailable\n") for every such item,
 * in the order of the snapshot, shown as 8 hexadecimal digits: two
 * sessions share a configuration exactly when none of those items
 * differs (up to a hash collision, one in four billion).  The kind of a
 * session (--quick or not) is not part of the id: the caller keeps kinds
 * apart, as separate series that are never mixed.
 *
 * The plan is pure: it sees only ids and configurations, so that every
 * rule is tested without running a probe or opening a database.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "perfreg/env.h"
#include "perfreg/sample.h"
#include "perfreg/suite.h"
#include "core/banned.h"

/* The items env diff ranks as moving performance (perfreg/env.h), but
 * what the kernel could switch its clock to and the process environment's
 * variables (env.NAME: a session run with one set is the same
 * configuration, and its diff says what was set). */
int
pr_suite_config_key(const char *key)
{
	return pr_env_key_rank(key) >= 0 &&
	    strcmp(key, "clocksource.available") != 0 &&
	    strncmp(key, "env.", 4) != 0;
}

enum pr_status
pr_suite_env_add(struct pr_env *e, struct pr_error *err)
{
	enum pr_status st;

	if (pr_env_get(e, "perfreg.probes") == NULL &&
	    (st = pr_env_add(e, "perfreg.probes", "perfreg",
		 PR_SUITE_PROBES_VERSION, NULL, err)) != PR_OK)
		return st;
	if (pr_env_get(e, "openssl.library") == NULL &&
	    (st = pr_env_add(e, "openssl.library", "build",
		 OpenSSL_version(OPENSSL_VERSION), NULL, err)) != PR_OK)
		return st;
	return PR_OK;
}

static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void
pr_suite_config_id(const struct pr_env *e, char out[PR_SUITE_CONFIG_LEN])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; e != NULL && i < e->n; i++) {
		if (!pr_suite_config_key(e->items[i].key))
			continue;
		h = fnv(h, e->items[i].key);
		if (e->items[i].value != NULL) {
			h = fnv(h, "=");
			h = fnv(h, e->items[i].value);
		} else {
			h = fnv(h, " unavailable");
		}
		h = fnv(h, "\n");
	}
	/* 32 bits of the 64: the upper and lower halves folded. */
	snprintf(out, PR_SUITE_CONFIG_LEN, "%08x",
	    (unsigned)((h >> 32) ^ (h & 0xffffffffu)));
}

void
pr_suite_plan_release(struct pr_suite_plan *p)
{
	free(p->base);
	free(p->new_);
	free(p->left);
	free(p->left_pace);
	free(p->left_called);
	free(p->left_reg);
	memset(p, 0, sizeof(*p));
}

int
pr_suite_left_out(double pace, double median, double *limit)
{
	double lim = median > 0 && isfinite(median) &&
		PR_SUITE_PACE_FACTOR * median < PR_SUITE_PACE_LEVEL
	    ? PR_SUITE_PACE_FACTOR * median
	    : PR_SUITE_PACE_LEVEL;

	if (limit != NULL)
		*limit = lim;
	return isfinite(pace) && pace > 0 && pace > lim;
}

static int
pace_known(double pace)
{
	return isfinite(pace) && pace > 0;
}

/*
 * The starved sessions of s[0..n) whose configuration is a or b, into
 * out->left and out->left_pace (allocated for n) and out->nleft, and
 * gone[i] set for each: a session's peers are the other sessions of a
 * and b and the new session (pace), those with a pace stored; sorted is
 * scratch for n + 1 doubles.
 */
static void
starved_sessions(const struct pr_suite_sess *s, size_t n, const char *a,
    const char *b, double pace, double *sorted, char *gone,
    struct pr_suite_plan *out)
{
	size_t i, k = 0, r, m, h;
	double med;

	for (i = 0; i < n; i++)
		if ((strcmp(s[i].config, a) == 0 ||
			strcmp(s[i].config, b) == 0) &&
		    pace_known(s[i].pace))
			sorted[k++] = s[i].pace;
	if (pace_known(pace))
		sorted[k++] = pace;
	pr_sort_doubles(sorted, k);
	for (i = 0; i < n; i++) {
		if (strcmp(s[i].config, a) != 0 && strcmp(s[i].config, b) != 0)
			continue;
		med = 0;
		if (pace_known(s[i].pace) && k > 1) {
			/* The low median of sorted[] without one entry r
			 * equal to this session's pace: of m = k - 1
			 * values, the j-th is sorted[j < r ? j : j + 1],
			 * and the low median is the ((m + 1) / 2)-th. */
			for (r = 0; sorted[r] != s[i].pace; r++)
				;
			m = k - 1;
			h = (m + 1) / 2 - 1;
			med = sorted[h < r ? h : h + 1];
		} else if (!pace_known(s[i].pace)) {
			continue;
		}
		if (!pr_suite_left_out(s[i].pace, med,
			&out->left_limit[out->nleft]))
			continue;
		gone[i] = 1;
		out->left[out->nleft] = s[i].id;
		out->left_pace[out->nleft] = s[i].pace;
		out->left_peers[out->nleft] = med;
		out->nleft++;
	}
}

/*
 * The sessions of s[0..n) of configuration a or b, not gone, whose own
 * stability check called a figure, as pr_suite_plan leaves them out
 * (perfreg/suite.h): into out's list (left_pace their pace), gone[i] set
 * for each.  The list stays oldest first.
 */
static void
called_sessions(const struct pr_suite_sess *s, size_t n, const char *a,
    const char *b, char *gone, struct pr_suite_plan *out)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		if (gone[i] ||
		    (strcmp(s[i].config, a) != 0 &&
			strcmp(s[i].config, b) != 0) ||
		    s[i].regressions + s[i].improvements == 0)
			continue;
		gone[i] = 2; /* an incident; 1 is starved */
		/* Its place among the starved, by the order of s[]. */
		for (k = out->nleft; k > 0; k--) {
			for (j = 0; j < n && s[j].id != out->left[k - 1]; j++)
				;
			if (j < i)
				break;
			out->left[k] = out->left[k - 1];
			out->left_pace[k] = out->left_pace[k - 1];
			out->left_peers[k] = out->left_peers[k - 1];
			out->left_limit[k] = out->left_limit[k - 1];
			out->left_called[k] = out->left_called[k - 1];
			out->left_reg[k] = out->left_reg[k - 1];
			out->left_imp[k] = out->left_imp[k - 1];
		}
		out->left[k] = s[i].id;
		out->left_pace[k] = pace_known(s[i].pace) ? s[i].pace : 0;
		out->left_peers[k] = 0;
		out->left_limit[k] = 0;
		out->left_called[k] = 1;
		out->left_reg[k] = s[i].regressions;
		out->left_imp[k] = s[i].improvements;
		out->nleft++;
	}
}

/* Appends the ids of s[] with configuration config (the latest max), not
 * gone, oldest first, to v. */
static size_t
pick(const struct pr_suite_sess *s, size_t n, const char *config, size_t max,
    const char *gone, int64_t *v)
{
	size_t i, k = 0, skip = 0;

	for (i = 0; i < n; i++)
		if (!gone[i] && strcmp(s[i].config, config) == 0)
			k++;
	if (max != 0 && k > max)
		skip = k - max;
	for (i = 0, k = 0; i < n; i++) {
		if (gone[i] || strcmp(s[i].config, config) != 0)
			continue;
		if (skip > 0) {
			skip--;
			continue;
		}
		v[k++] = s[i].id;
	}
	return k;
}

/* Takes the sessions --baseline chose off the list of those left out
 * (and clears their gone[]): the user's choice. */
static void
unchoose(const struct pr_suite_sess *s, size_t n, char *gone,
    struct pr_suite_plan *out)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++)
		if (s[i].chosen)
			gone[i] = 0;
	for (j = 0; j < out->nleft; j++) {
		for (i = 0; i < n && s[i].id != out->left[j]; i++)
			;
		if (i < n && s[i].chosen)
			continue;
		out->left[k] = out->left[j];
		out->left_pace[k] = out->left_pace[j];
		out->left_peers[k] = out->left_peers[j];
		out->left_limit[k] = out->left_limit[j];
		out->left_called[k] = out->left_called[j];
		out->left_reg[k] = out->left_reg[j];
		out->left_imp[k] = out->left_imp[j];
		k++;
	}
	out->nleft = k;
}

/* The sessions --baseline chose as the base, the others of this
 * configuration not gone as the new side. */
static void
plan_chosen(const struct pr_suite_sess *s, size_t n, int64_t session,
    const char *config, size_t max, const char *gone, struct pr_suite_plan *out)
{
	size_t i, k = 0, skip = 0;

	out->kind = PR_SUITE_PLAN_CHOSEN;
	for (i = 0; i < n; i++)
		k += s[i].chosen != 0;
	if (max != 0 && k > max)
		skip = k - max;
	for (i = 0; i < n; i++) {
		if (!s[i].chosen)
			continue;
		if (skip > 0) {
			skip--;
			continue;
		}
		out->base[out->nbase++] = s[i].id;
		out->base_config = s[i].config;
	}
	for (i = 0, k = 0; i < n; i++)
		k += !s[i].chosen && !gone[i] &&
		    strcmp(s[i].config, config) == 0;
	skip = max != 0 && k > max - 1 ? k - (max - 1) : 0;
	for (i = 0; i < n; i++) {
		if (s[i].chosen || gone[i] || strcmp(s[i].config, config) != 0)
			continue;
		if (skip > 0) {
			skip--;
			continue;
		}
		out->new_[out->nnew++] = s[i].id;
	}
	out->new_[out->nnew++] = session;
}

enum pr_status
pr_suite_plan(const struct pr_suite_sess *s, size_t n, int64_t session,
    const char *config, double pace, size_t max, struct pr_suite_plan *out,
    struct pr_error *err)
{
	size_t i, prev = n, run;
	int chosen = 0;
	double *sorted = NULL;
	char *gone = NULL;

	memset(out, 0, sizeof(*out));
	out->config = config;
	if (max == 1)
		max = 2;
	for (i = 0; i < n; i++)
		chosen |= s[i].chosen != 0;
	for (i = n; i-- > 0;) {
		if (strcmp(s[i].config, config) != 0) {
			prev = i;
			break;
		}
	}
	if ((out->base = calloc(n + 1, sizeof(*out->base))) == NULL ||
	    (out->new_ = calloc(n + 1, sizeof(*out->new_))) == NULL ||
	    (out->left = calloc(n + 1, sizeof(*out->left))) == NULL ||
	    (out->left_pace = calloc(3 * (n + 1), sizeof(*out->left_pace))) ==
		NULL ||
	    (out->left_called = calloc(n + 1, sizeof(*out->left_called))) ==
		NULL ||
	    (out->left_reg = calloc(2 * (n + 1), sizeof(*out->left_reg))) ==
		NULL ||
	    (sorted = calloc(n + 1, sizeof(*sorted))) == NULL ||
	    (gone = calloc(n + 1, 1)) == NULL) {
		free(sorted);
		pr_suite_plan_release(out);
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	}
	out->left_peers = out->left_pace + (n + 1);
	out->left_limit = out->left_pace + 2 * (n + 1);
	out->left_imp = out->left_reg + (n + 1);
	if (chosen) {
		/* The side --baseline did not choose leaves out its starved
		 * sessions and incidents as any plan does. */
		starved_sessions(s, n, config, config, pace, sorted, gone, out);
		called_sessions(s, n, config, config, gone, out);
		unchoose(s, n, gone, out);
		plan_chosen(s, n, session, config, max, gone, out);
		goto done;
	}
	out->base_config = prev < n ? s[prev].config : config;
	starved_sessions(s, n, out->base_config, config, pace, sorted, gone,
	    out);
	called_sessions(s, n, out->base_config, config, gone, out);
	if (prev < n) {
		/* This configuration's sessions since the change that
		 * the change plan keeps, and the new one: at
		 * PR_SUITE_CHANGE_SESSIONS the change is replicated, and
		 * from the next session on the configuration is checked
		 * against itself. */
		for (i = prev + 1, run = 1; i < n; i++)
			run += !gone[i];
		if (run > PR_SUITE_CHANGE_SESSIONS) {
			out->since = s[prev + 1].id;
			out->since_config = s[prev].config;
			out->since_prev = s[prev].id;
			out->base_config = config;
			out->nleft = 0;
			memset(gone, 0, n + 1);
			starved_sessions(s, n, config, config, pace, sorted,
			    gone, out);
			called_sessions(s, n, config, config, gone, out);
			prev = n;
		}
	}
	if (prev < n) {
		/* The configuration changed: this configuration's sessions
		 * against the previous configuration's. */
		out->kind = PR_SUITE_PLAN_CHANGE;
		out->nbase = pick(s, n, s[prev].config, max, gone, out->base);
		out->nnew =
		    pick(s, n, config, max == 0 ? 0 : max - 1, gone, out->new_);
		out->new_[out->nnew++] = session;
	} else {
		out->nbase = pick(s, n, config, max, gone, out->base);
		out->new_[0] = session;
		out->nnew = 1;
		out->kind = PR_SUITE_PLAN_STABILITY;
	}
	/* Nothing left to compare with. */
	if (out->nbase == 0)
		out->kind = PR_SUITE_PLAN_NONE;
done:
	free(sorted);
	free(gone);
	return PR_OK;
}
