/*
 * run/split.c - splits a command line into words by the quoting rules of
 * the POSIX shell (XCU 2.2 "Quoting" and 2.3 "Token Recognition"), with
 * no expansion of any kind: what would need a shell (pipes, redirections,
 * $ and ` expansions) is refused with a pointer to --shell, so that a
 * command never silently runs with a literal "$HOME" or "|" argument.
 * Invariant: the words vector is always NULL-terminated and every word
 * is its own allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "perfreg/buf.h"
#include "perfreg/spawn.h"
#include "core/banned.h"

#define WORD_MAX ((size_t)1 << 20)

void
pr_split_free(char **words)
{
	size_t i;

	if (words == NULL)
		return;
	for (i = 0; words[i] != NULL; i++)
		free(words[i]);
	free(words);
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static enum pr_status
push(char ***v, size_t *n, size_t *cap, struct pr_buf *w, struct pr_error *err)
{
	char **nv, *s;
	size_t ncap;

	if (*n + 2 > *cap) {
		ncap = *cap ? *cap * 2 : 8;
		nv = realloc(*v, ncap * sizeof(*nv));
		if (nv == NULL)
			return pr_error_set(err, PR_ENOMEM, "out of memory");
		*v = nv;
		*cap = ncap;
		/* Terminated before the word is detached: if that fails,
		 * pr_split_free must not read the slot realloc left unset. */
		nv[*n] = NULL;
	}
	s = pr_buf_detach(w, NULL);
	if (s == NULL)
		return pr_error_set(err, PR_ENOMEM, "out of memory");
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
	return PR_OK;
}

enum pr_status
pr_split_words(const char *line, char ***out, size_t *n, struct pr_error *err)
{
	struct pr_buf w = PR_BUF_INIT(WORD_MAX);
	char **v = NULL;
	size_t nv = 0, cap = 0, i = 0, qstart = 0;
	enum pr_status st = PR_OK;
	int inword = 0;
	char c;

	*out = NULL;
	if (n != NULL)
		*n = 0;
	while ((c = line[i]) != '\0') {
		if (is_blank(c)) {
			if (inword &&
			    (st = push(&v, &nv, &cap, &w, err)) != PR_OK)
				goto fail;
			inword = 0;
			i++;
			continue;
		}
		if (c == '\\') {
			if (line[i + 1] == '\0') {
				st = pr_error_at(err, PR_EPARSE, NULL, 0,
				    (long)i + 1,
				    "trailing backslash in "
				    "'%s'",
				    line);
				goto fail;
			}
			if (line[i + 1] != '\n') {
				inword = 1;
				if ((st = pr_buf_addc(&w, line[i + 1], err)) !=
				    PR_OK)
					goto fail;
			}
			i += 2;
			continue;
		}
		if (c == '\'') {
			qstart = i++;
			inword = 1;
			while (line[i] != '\0' && line[i] != '\'') {
				if ((st = pr_buf_addc(&w, line[i], err)) !=
				    PR_OK)
					goto fail;
				i++;
			}
			if (line[i] == '\0')
				goto unterminated;
			i++;
			continue;
		}
		if (c == '"') {
			qstart = i++;
			inword = 1;
			while (line[i] != '\0' && line[i] != '"') {
				c = line[i];
				if (c == '\\' && line[i + 1] != '\0' &&
				    strchr("$`\"\\\n", line[i + 1]) != NULL) {
					c = line[++i];
					i++;
					if (c == '\n')
						continue;
				} else if (c == '$' || c == '`') {
					st = pr_error_at(err, PR_EINVAL, NULL,
					    0, (long)i + 1,
					    "'%c' needs a "
					    "shell (use --shell) in '%s'",
					    c, line);
					goto fail;
				} else
					i++;
				if ((st = pr_buf_addc(&w, c, err)) != PR_OK)
					goto fail;
			}
			if (line[i] == '\0')
				goto unterminated;
			i++;
			continue;
		}
		if (strchr("|&;<>()$`", c) != NULL) {
			st = pr_error_at(err, PR_EINVAL, NULL, 0, (long)i + 1,
			    "'%c' needs a shell (use --shell) in '%s'", c,
			    line);
			goto fail;
		}
		inword = 1;
		if ((st = pr_buf_addc(&w, c, err)) != PR_OK)
			goto fail;
		i++;
	}
	if (inword && (st = push(&v, &nv, &cap, &w, err)) != PR_OK)
		goto fail;
	if (nv == 0) {
		st = pr_error_set(err, PR_EINVAL, "empty command");
		goto fail;
	}
	pr_buf_release(&w);
	*out = v;
	if (n != NULL)
		*n = nv;
	return PR_OK;

unterminated:
	st = pr_error_at(err, PR_EPARSE, NULL, 0, (long)qstart + 1,
	    "unterminated %s quote in '%s'",
	    line[qstart] == '\'' ? "single" : "double", line);
fail:
	pr_buf_release(&w);
	pr_split_free(v);
	return st;
}
