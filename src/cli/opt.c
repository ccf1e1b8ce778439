/*
 * cli/opt.c - the option parser, --help and synopsis writer of the CLI,
 * all driven by each command's table (cli/opt.h).
 *
 * The parser reads argv once, left to right, as GNU getopt_long does, and
 * then reorders it: options (with their arguments) first, then "--" when
 * it was given, then the operands in their order.  Every error is one
 * line naming the option, with "did you mean" when a long option is
 * misspelt, and ends with "see 'perfreg CMD --help'".  Help text is
 * wrapped at 79 columns; a table's help column is the width of its
 * longest option label of at most LABEL_MAX characters, and longer
 * labels put their help on the next line.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/opt.h"
#include "core/banned.h"

#define LINE_MAX_COLS 79
#define LABEL_MAX 22
#define NAME_MAX_LEN 96

void
opt_list_release(struct opt_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int
is_option(const struct opt *o)
{
	return o->kind != OPTK_GROUP && o->kind != OPTK_END;
}

/* Whether o is shown: in --help, the synopsis, suggestions, prefixes. */
static int
shown(const struct opt *o)
{
	return is_option(o) && !(o->flags & OPT_HIDDEN);
}

static int
takes_arg(const struct opt *o)
{
	return o->kind != OPTK_FLAG &&
	    !(o->kind == OPTK_CALL && (o->flags & OPT_NOARG));
}

const char *
opt_name(const struct opt *o, char *buf, size_t size)
{
	if (o->sname != 0 && o->lname != NULL)
		snprintf(buf, size, "-%c, --%s", o->sname, o->lname);
	else if (o->sname != 0)
		snprintf(buf, size, "-%c", o->sname);
	else
		snprintf(buf, size, "--%s", o->lname);
	return buf;
}

int
opt_index(const struct opt *tab, const char *name)
{
	int i;

	for (i = 0; tab[i].kind != OPTK_END; i++)
		if (tab[i].lname != NULL ? strcmp(tab[i].lname, name) == 0
					 : tab[i].sname != 0 &&
			    tab[i].sname == name[0] && name[1] == '\0')
			return i;
	return -1;
}

uint64_t
opt_bit(const struct opt *tab, const char *name)
{
	int i = opt_index(tab, name);

	return i < 0 ? 0 : (uint64_t)1 << i;
}

size_t
opt_distance(const char *a, const char *b, size_t cap)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d, best;
	size_t *mem, *prev2, *prev, *cur, *t;

	if (la > lb ? la - lb > cap : lb - la > cap)
		return cap + 1;
	if ((mem = calloc(3 * (lb + 1), sizeof(size_t))) == NULL)
		return cap + 1;
	prev2 = mem;
	prev = prev2 + lb + 1;
	cur = prev + lb + 1;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		best = cur[0];
		for (j = 1; j <= lb; j++) {
			d = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < best)
				best = d;
		}
		if (best > cap) {
			free(mem);
			return cap + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(mem);
	return d > cap ? cap + 1 : d;
}

int
opt_close_enough(size_t d, size_t len)
{
	return d > 0 && d <= (len < 3 ? 1 : len / 3);
}

/* "(did you mean '--x'?) " for the closest long names to word (without
 * its dashes), or "". */
static const char *
suggest(const struct opt *tab, const char *word, char *buf, size_t size)
{
	size_t best = (size_t)-1, d, len, used;
	const char *eq;
	char w[NAME_MAX_LEN];
	int i, n = 0;

	buf[0] = '\0';
	eq = strchr(word, '=');
	len = eq != NULL ? (size_t)(eq - word) : strlen(word);
	if (len == 0 || len >= sizeof(w))
		return buf;
	memcpy(w, word, len);
	w[len] = '\0';
	for (i = 0; tab[i].kind != OPTK_END; i++) {
		if (!shown(&tab[i]) || tab[i].lname == NULL)
			continue;
		d = opt_distance(w, tab[i].lname, len);
		if (opt_close_enough(d, len) && d < best)
			best = d;
	}
	if (best == (size_t)-1)
		return buf;
	used = (size_t)snprintf(buf, size, " (did you mean");
	for (i = 0; tab[i].kind != OPTK_END && used < size; i++) {
		if (!shown(&tab[i]) || tab[i].lname == NULL ||
		    opt_distance(w, tab[i].lname, len) != best)
			continue;
		used += (size_t)snprintf(buf + used, size - used, "%s '--%s'",
		    n++ == 0 ? "" : " or", tab[i].lname);
	}
	if (used < size)
		snprintf(buf + used, size - used, "?)");
	return buf;
}

/* Finds the long option named by word ("name" or "name=value"): an exact
 * name, else the one name it is a prefix of.  NULL after the error. */
static const struct opt *
find_long(const struct cmd_entry *e, const char *word)
{
	const struct opt *tab = e->opts, *found = NULL;
	const char *eq = strchr(word, '=');
	size_t len = eq != NULL ? (size_t)(eq - word) : strlen(word), used;
	char names[256], hint[256];
	int i, n = 0;

	for (i = 0; tab[i].kind != OPTK_END; i++)
		if (is_option(&tab[i]) && tab[i].lname != NULL &&
		    strlen(tab[i].lname) == len &&
		    strncmp(tab[i].lname, word, len) == 0)
			return &tab[i];
	names[0] = '\0';
	used = 0;
	for (i = 0; tab[i].kind != OPTK_END; i++) {
		if (!shown(&tab[i]) || tab[i].lname == NULL ||
		    strncmp(tab[i].lname, word, len) != 0)
			continue;
		found = &tab[i];
		if (used < sizeof(names))
			used +=
			    (size_t)snprintf(names + used, sizeof(names) - used,
				"%s'--%s'", n == 0 ? "" : ", ", tab[i].lname);
		n++;
	}
	if (n == 1)
		return found;
	if (n > 1)
		cli_usage_error(e, "option '--%.*s' is ambiguous (%s)",
		    (int)len, word, names);
	else
		cli_usage_error(e, "unknown option '--%.*s'%s", (int)len, word,
		    suggest(tab, word, hint, sizeof(hint)));
	return NULL;
}

static const struct opt *
find_short(const struct cmd_entry *e, char c)
{
	const struct opt *tab = e->opts;
	int i;

	for (i = 0; tab[i].kind != OPTK_END; i++)
		if (is_option(&tab[i]) && tab[i].sname == c)
			return &tab[i];
	cli_usage_error(e, "unknown option '-%c'", c);
	return NULL;
}

static int
bad_value(const struct cmd_entry *e, const struct opt *o, const char *what,
    const char *arg)
{
	char name[NAME_MAX_LEN];

	cli_errorf("%s: %s: expected %s, got '%s'", e->name,
	    opt_name(o, name, sizeof(name)), what, arg);
	return -1;
}

static int
set_int(const struct cmd_entry *e, const struct opt *o, const char *arg,
    void *dst)
{
	unsigned long long x;
	char what[128], *end;

	errno = 0;
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): arg is argv[i], i < argc */
	if (arg[0] < '0' || arg[0] > '9' ||
	    (x = strtoull(arg, &end, 10), errno != 0) || *end != '\0' ||
	    x < o->min || x > o->max) {
		if (o->what == NULL)
			snprintf(what, sizeof(what),
			    "a whole number from %llu to %llu", o->min, o->max);
		return bad_value(e, o, o->what != NULL ? o->what : what, arg);
	}
	switch (o->size) {
	case 1:
		*(unsigned char *)dst = (unsigned char)x;
		break;
	case 2:
		*(uint16_t *)dst = (uint16_t)x;
		break;
	case 4:
		*(uint32_t *)dst = (uint32_t)x;
		break;
	default:
		*(uint64_t *)dst = (uint64_t)x;
		break;
	}
	return 0;
}

static int
set_double(const struct cmd_entry *e, const struct opt *o, const char *arg,
    double *dst)
{
	char what[128], *end;
	double x;

	errno = 0;
	/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): arg is argv[i], i < argc */
	x = strtod(arg, &end);
	if (end != arg && *end == '%' && (o->flags & OPT_PCT_SIGN))
		end++;
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(x) ||
	    ((o->flags & OPT_LO_OPEN) ? !(x > o->lo) : !(x >= o->lo)) ||
	    ((o->flags & OPT_HI_OPEN) ? !(x < o->hi) : !(x <= o->hi))) {
		if (o->what == NULL)
			snprintf(what, sizeof(what), "a number from %g to %g",
			    o->lo, o->hi);
		return bad_value(e, o, o->what != NULL ? o->what : what, arg);
	}
	*dst = x;
	return 0;
}

static int
apply(const struct cmd_entry *e, const struct opt *o, const char *arg,
    void *base)
{
	char *p = (char *)base + o->offset;
	struct opt_list *l;
	const char **nv;
	char name[NAME_MAX_LEN];

	if ((o->flags & OPT_NONEMPTY) && arg != NULL && arg[0] == '\0') {
		cli_errorf("%s: %s: expected %s, got ''", e->name,
		    opt_name(o, name, sizeof(name)),
		    o->what != NULL ? o->what : "a value");
		return -1;
	}
	switch (o->kind) {
	case OPTK_FLAG:
		*(int *)(void *)p = o->ival;
		return 0;
	case OPTK_STRING:
		*(const char **)(void *)p = arg;
		return 0;
	case OPTK_INT:
		return set_int(e, o, arg, p);
	case OPTK_DOUBLE:
		return set_double(e, o, arg, (double *)(void *)p);
	case OPTK_LIST:
		l = (struct opt_list *)(void *)p;
		if ((nv = realloc(l->v, (l->n + 1) * sizeof(*nv))) == NULL) {
			cli_errorf("out of memory");
			return -1;
		}
		l->v = nv;
		l->v[l->n++] = arg;
		return 0;
	case OPTK_CALL:
		return o->call(base, o, arg);
	default:
		return 0;
	}
}

static void
mark(const struct cmd_entry *e, const struct opt *o, uint64_t *seen)
{
	if (seen != NULL)
		*seen |= (uint64_t)1 << (o - e->opts);
}

int
opt_parse(const struct cmd_entry *e, int argc, char **argv, void *base,
    uint64_t *seen)
{
	const struct opt *o;
	char **ops;
	const char *a, *arg;
	char name[NAME_MAX_LEN];
	int i, k, nopt = 1, nops = 0, dashdash = 0, rc = -1;

	if (seen != NULL)
		*seen = 0;
	if ((ops = calloc((size_t)argc + 1, sizeof(*ops))) == NULL) {
		cli_errorf("out of memory");
		return -1;
	}
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (strcmp(a, "--") == 0) {
			dashdash = i;
			break;
		}
		if (a[0] != '-' || a[1] == '\0') {
			ops[nops++] = argv[i];
			continue;
		}
		argv[nopt++] = argv[i];
		if (a[1] == '-') {
			if ((o = find_long(e, a + 2)) == NULL)
				goto out;
			arg = strchr(a, '=');
			if (arg != NULL && !takes_arg(o)) {
				cli_usage_error(e,
				    "option '--%s' takes no argument",
				    o->lname);
				goto out;
			}
			if (arg != NULL)
				arg++;
			else if (takes_arg(o)) {
				if (i + 1 >= argc) {
					cli_usage_error(e,
					    "option '--%s' needs an argument",
					    o->lname);
					goto out;
				}
				arg = argv[++i];
				argv[nopt++] = argv[i];
			}
			mark(e, o, seen);
			if (apply(e, o, arg, base) != 0)
				goto out;
			continue;
		}
		for (k = 1; a[k] != '\0'; k++) {
			if ((o = find_short(e, a[k])) == NULL)
				goto out;
			arg = NULL;
			if (takes_arg(o)) {
				if (a[k + 1] != '\0')
					arg = a + k + 1;
				else if (i + 1 < argc) {
					arg = argv[++i];
					argv[nopt++] = argv[i];
				} else {
					cli_usage_error(e,
					    "option '%s' needs an argument",
					    opt_name(o, name, sizeof(name)));
					goto out;
				}
			}
			mark(e, o, seen);
			if (apply(e, o, arg, base) != 0)
				goto out;
			if (arg != NULL)
				break;
		}
	}
	k = nopt;
	if (dashdash != 0)
		argv[k++] = "--";
	rc = k;
	/* The operands before "--" go first, then those after it. */
	if (dashdash != 0) {
		char **rest = argv + dashdash + 1;
		int nrest = argc - dashdash - 1;
		char **tmp =
		    calloc((size_t)nops + (size_t)nrest + 1, sizeof(*tmp));

		if (tmp == NULL) {
			cli_errorf("out of memory");
			rc = -1;
			goto out;
		}
		memcpy(tmp, ops, (size_t)nops * sizeof(*tmp));
		memcpy(tmp + nops, rest, (size_t)nrest * sizeof(*tmp));
		memcpy(argv + k, tmp, (size_t)(nops + nrest) * sizeof(*tmp));
		free(tmp);
	} else
		memcpy(argv + k, ops, (size_t)nops * sizeof(*ops));
out:
	free(ops);
	return rc;
}

/* The synopsis word of o: "[-C column]", "[--json]", "[--tag k=v]...". */
static size_t
syn_word(const struct opt *o, char *buf, size_t size)
{
	int rep = o->kind == OPTK_LIST || (o->flags & OPT_REPEAT);
	int n;

	if (o->sname != 0)
		n = snprintf(buf, size, "[-%c%s%s]%s", o->sname,
		    takes_arg(o) ? " " : "", takes_arg(o) ? o->arg : "",
		    rep ? "..." : "");
	else
		n = snprintf(buf, size, "[--%s%s%s]%s", o->lname,
		    takes_arg(o) ? " " : "", takes_arg(o) ? o->arg : "",
		    rep ? "..." : "");
	return n < 0 ? 0 : (size_t)n;
}

/* Writes word after a space, or on a new line indented by indent when
 * it would pass the last column; *col is the current column. */
static void
put_word(FILE *f, const char *word, size_t len, size_t indent, size_t *col)
{
	if (*col > indent && *col + 1 + len > LINE_MAX_COLS) {
		fprintf(f, "\n%*s", (int)indent, "");
		*col = indent;
	} else if (*col != indent) {
		fputc(' ', f);
		(*col)++;
	}
	fwrite(word, 1, len, f);
	*col += len;
}

/* The options of e in synopsis form, wrapped under indent. */
static void
syn_options(const struct cmd_entry *e, FILE *f, size_t indent, size_t *col)
{
	const struct opt *o;
	char buf[160];
	size_t n = 0;

	buf[n++] = '[';
	buf[n++] = '-';
	for (o = e->opts; o->kind != OPTK_END; o++)
		if (shown(o) && o->sname != 0 && o->lname == NULL &&
		    !takes_arg(o) && n < sizeof(buf) - 2)
			buf[n++] = o->sname;
	if (n > 2) {
		buf[n++] = ']';
		put_word(f, buf, n, indent, col);
	}
	for (o = e->opts; o->kind != OPTK_END; o++) {
		if (!shown(o) || (o->flags & OPT_INSYN) ||
		    (o->sname != 0 && o->lname == NULL && !takes_arg(o)))
			continue;
		n = syn_word(o, buf, sizeof(buf));
		put_word(f, buf, n < sizeof(buf) ? n : sizeof(buf) - 1, indent,
		    col);
	}
}

void
opt_synopsis(const struct cmd_entry *e, FILE *f, int full)
{
	const char *p = e->synopsis, *eol, *w, *we, *opts;
	size_t indent, col;
	int expanded = !full, depth;

	do {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		fprintf(f, "%s perfreg %s",
		    p == e->synopsis ? "usage:" : "      ", e->name);
		indent = 15 + strlen(e->name) + 1;
		col = indent - 1;
		opts = NULL;
		if (!expanded) {
			opts = strstr(p, "[options]");
			if (opts != NULL && opts >= eol)
				opts = NULL;
		}
		for (w = p; w < eol; w = we) {
			while (w < eol && *w == ' ')
				w++;
			if (w >= eol)
				break;
			/* A word ends at a space outside brackets. */
			for (we = w, depth = 0;
			     we < eol && (*we != ' ' || depth > 0); we++)
				depth += (*we == '[') - (*we == ']');
			if (w == opts) {
				syn_options(e, f, indent, &col);
				expanded = 1;
				continue;
			}
			put_word(f, w, (size_t)(we - w), indent, &col);
		}
		fputc('\n', f);
		p = *eol == '\n' ? eol + 1 : eol;
	} while (*p != '\0');
}

/* The help label of o: "-n, --runs n", "-C column", "--json". */
static size_t
label(const struct opt *o, char *buf, size_t size)
{
	int n;

	if (o->sname != 0 && o->lname != NULL)
		n = snprintf(buf, size, "-%c, --%s%s%s", o->sname, o->lname,
		    takes_arg(o) ? " " : "", takes_arg(o) ? o->arg : "");
	else if (o->sname != 0)
		n = snprintf(buf, size, "-%c%s%s", o->sname,
		    takes_arg(o) ? " " : "", takes_arg(o) ? o->arg : "");
	else
		n = snprintf(buf, size, "--%s%s%s", o->lname,
		    takes_arg(o) ? " " : "", takes_arg(o) ? o->arg : "");
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* Writes text from column col (where the caller is), wrapped under
 * indent; '\n' in text breaks the line. */
static void
wrap(FILE *f, const char *text, size_t indent, size_t col)
{
	const char *w = text, *we;

	while (*w != '\0') {
		if (*w == '\n') {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			w++;
			continue;
		}
		if (*w == ' ') {
			w++;
			continue;
		}
		for (we = w; *we != '\0' && *we != ' ' && *we != '\n'; we++)
			;
		put_word(f, w, (size_t)(we - w), indent, &col);
		w = we;
	}
	fputc('\n', f);
}

void
opt_help(const struct cmd_entry *e, FILE *f)
{
	const struct opt *o;
	char buf[160];
	size_t n, width = 0;
	int any = 0;

	opt_synopsis(e, f, 1);
	if (e->about != NULL)
		fprintf(f, "\n%s", e->about);
	for (o = e->opts; o->kind != OPTK_END; o++) {
		any |= shown(o);
		if (shown(o) && (n = label(o, buf, sizeof(buf))) > width &&
		    n <= LABEL_MAX)
			width = n;
	}
	if (any)
		fprintf(f, "\noptions:\n");
	for (o = e->opts; o->kind != OPTK_END; o++) {
		if (o->kind == OPTK_GROUP) {
			fputc('\n', f);
			continue;
		}
		if (!shown(o))
			continue;
		n = label(o, buf, sizeof(buf));
		fprintf(f, "  %s", buf);
		if (n > width) {
			fprintf(f, "\n%*s", (int)(width + 4), "");
			n = width;
		} else
			fprintf(f, "%*s", (int)(width - n + 2), "");
		wrap(f, o->help, width + 4, width + 4);
	}
	if (e->epilogue != NULL)
		fprintf(f, "\n%s", e->epilogue);
}

void
opt_dump(const struct cmd_entry *e, FILE *f)
{
	const struct opt *o;

	for (o = e->opts; o->kind != OPTK_END; o++) {
		if (!is_option(o))
			continue;
		if (o->sname != 0)
			fprintf(f, "%s\t-%c\n", e->name, o->sname);
		if (o->lname != NULL)
			fprintf(f, "%s\t--%s\n", e->name, o->lname);
	}
}
