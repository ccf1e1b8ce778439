/*
 * perfreg/report_model.h - one report, many renderers.
 *
 * A command does not write its report: it fills a struct
 * pr_report_model, an ordered list of sections, and hands it to
 * pr_report_model_render, which turns any model into text, Markdown, CSV
 * or JSON without knowing which command made it.  The same model gives
 * the same content in every format; only the form differs.  An HTML
 * renderer, and sections for explanations, change points and bisection
 * results, are meant to be added here the same way: a new enum
 * pr_report_section_kind, a function that adds one, and a case in each
 * renderer (src/report/model.c).
 *
 * Sections, in the order they were added:
 *
 *   PR_SECTION_TEXT        words for people: an introduction, a heading,
 *                          a paragraph.  Written as given in text and
 *                          Markdown (the command supplies its newlines),
 *                          left out of CSV.
 *   PR_SECTION_HEADLINE    one sentence that sums the report up, on its
 *                          own line.
 *   PR_SECTION_WARNING     something the reader must not miss, said once:
 *                          "WARNING: ..." on its own line.
 *   PR_SECTION_COMPARISON  a table of comparisons (struct pr_report of
 *                          perfreg/report.h): per metric the summaries of
 *                          each side, the change and its interval, p and
 *                          adjusted p, verdict, method and notes; the
 *                          sentences, the notes said once with the
 *                          metrics they apply to, and the method footer.
 *   PR_SECTION_ENVDIFF     what differs between two environments
 *                          (struct pr_envdiff of perfreg/env.h).
 *   PR_SECTION_INTEGER,    values for programs (a session id, a campaign
 *   PR_SECTION_REAL,       name, a flag), or null: JSON only.
 *   PR_SECTION_BOOL,
 *   PR_SECTION_STRING
 *   PR_SECTION_GROUP       a nested model: one part of a larger report
 *                          (one pair of variants of a campaign), rendered
 *                          in place.
 *   PR_SECTION_LIST_HEAD   JSON only: the array of a PR_SECTION_LIST key
 *                          starts here, so that it is [] when no member
 *                          follows.
 *   PR_SECTION_WRITER      a section with its own writers in src/report
 *                          (report/internal.h: a text and Markdown form,
 *                          a JSON form, and what frees its data): the
 *                          sections of `perfreg run` (perfreg/report_run.h)
 *                          and, next, explanations and the like; adding
 *                          one such section needs no case in model.c.
 *
 * JSON: the document is one object.  A section with a key is the member
 * of that name (text kinds as a string, a comparison or an environment
 * diff as the object its own writer gives, a group as an object); with
 * PR_SECTION_LIST the members of one key gather in an array in the
 * order they were added ("warnings": [...], "comparisons": [...]).  With
 * PR_SECTION_INLINE a section whose JSON form is an object (a comparison,
 * a group) gives its members to the enclosing object instead, as `run`
 * of two variants gives compare's members at the top.  A section without
 * a key (and not inline) is not in JSON: it is words for people whose
 * content JSON carries otherwise.  Numbers keep every digit of the
 * double (17 significant digits).
 *
 * Text: every byte from outside (metric names, units, host names,
 * environment values, kernel log lines) reaches the output through
 * pr_report_escape (perfreg/report.h), so that no control byte reaches a
 * terminal; CSV cells go through pr_report_csv_cell, which also disarms
 * spreadsheet formulas.
 *
 * Ownership: the model owns its sections and the text given to the
 * adding functions (copied).  A comparison section copies the struct
 * pr_report but borrows what it points to (metrics, names, values), and
 * an environment diff section borrows the diff and its names: those must
 * live until the model is rendered for the last time.  A group's model
 * is owned by its parent.  pr_report_model_release frees what the model
 * owns; a released model is empty and can be filled again.
 *
 * Failure: the adding functions return PR_ENOMEM when out of memory and
 * leave the model as it was; the renderer returns PR_EINVAL for an
 * unknown format, PR_ENOMEM/PR_ELIMIT when the buffer cannot grow (the
 * buffer may then hold a partial report).  Nothing here prints, exits or
 * reads the environment.  Distinct models are independent: the
 * functions are thread-safe on distinct models and buffers.
 */
#ifndef PERFREG_REPORT_MODEL_H
#define PERFREG_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/buf.h"
#include "perfreg/env.h"
#include "perfreg/error.h"
#include "perfreg/report.h"

enum pr_report_section_kind {
	PR_SECTION_TEXT = 0,
	PR_SECTION_HEADLINE,
	PR_SECTION_WARNING,
	PR_SECTION_COMPARISON,
	PR_SECTION_ENVDIFF,
	PR_SECTION_INTEGER,
	PR_SECTION_REAL,
	PR_SECTION_BOOL,
	PR_SECTION_STRING,
	PR_SECTION_GROUP,
	PR_SECTION_LIST_HEAD,
	PR_SECTION_WRITER
};

/* Flags of a section. */
enum {
	/* JSON: this key's members gather in an array. */
	PR_SECTION_LIST = 1 << 0,
	/* Not in text or Markdown (JSON and CSV only). */
	PR_SECTION_NO_TEXT = 1 << 1,
	/* Not in CSV. */
	PR_SECTION_NO_CSV = 1 << 2,
	/* JSON: an object's members go into the enclosing object. */
	PR_SECTION_INLINE = 1 << 3
};

struct pr_report_model;
struct report_writer;

/* One section.  Read it, do not fill it by hand: the adding functions
 * below keep its invariants. */
struct pr_report_section {
	enum pr_report_section_kind kind;
	int flags;
	char *key;  /* JSON member; NULL: not in JSON (owned) */
	char *text; /* TEXT, HEADLINE, WARNING, STRING (owned; a
		       STRING's NULL is JSON null) */
	/* COMPARISON: a copy; what it points to is borrowed. */
	struct pr_report comparison;
	/*
	 * COMPARISON in CSV: extra leading columns (headers and this
	 * section's values, ncsv of each, borrowed), as when several pairs
	 * make one table ("base,new,metric,...").  The header line is
	 * written once per document, by the first comparison.
	 */
	const char *const *csv_head, *const *csv_cell;
	size_t ncsv;
	/* ENVDIFF: borrowed. */
	const struct pr_envdiff *envdiff;
	const char *name_a, *name_b;
	size_t log_max;
	/* INTEGER, REAL, BOOL: have 0 is JSON null. */
	int64_t integer;
	double real;
	int have;
	/* GROUP (owned) */
	struct pr_report_model *group;
	/* WRITER: its writers (static) and their data (owned, freed by
	 * the writer's free function). */
	const struct report_writer *writer;
	void *data;
};

struct pr_report_model {
	struct pr_report_section *sec;
	size_t n, cap;
};

#define PR_REPORT_MODEL_INIT \
	{ \
		NULL, 0, 0 \
	}

void pr_report_model_init(struct pr_report_model *m);
void pr_report_model_release(struct pr_report_model *m);

/*
 * Adds a section of kind TEXT, HEADLINE or WARNING with the text printf
 * would make of fmt.  key may be NULL (not in JSON).  A HEADLINE or
 * WARNING gets its newline from the renderer; a TEXT is written as given.
 */
enum pr_status pr_report_model_textf(struct pr_report_model *m,
    enum pr_report_section_kind kind, const char *key, int flags,
    struct pr_error *err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Adds a comparison table (see the ownership note above).  r->n may be
 * 0 only with PR_SECTION_NO_TEXT: a report needs a metric. */
enum pr_status pr_report_model_comparison(struct pr_report_model *m,
    const char *key, int flags, const struct pr_report *r,
    struct pr_error *err);

/* Sets the CSV columns of the last section added, which must be a
 * comparison (PR_EINVAL otherwise). */
enum pr_status pr_report_model_csv_columns(struct pr_report_model *m,
    const char *const *head, const char *const *cell, size_t n,
    struct pr_error *err);

/* Adds an environment diff of A = name_a and B = name_b, with at most
 * log_max kernel log lines per side in text. */
enum pr_status pr_report_model_envdiff(struct pr_report_model *m,
    const char *key, int flags, const struct pr_envdiff *d, const char *name_a,
    const char *name_b, size_t log_max, struct pr_error *err);

/* Add values for programs (JSON only): v when have, else null; a NULL
 * string is null. */
enum pr_status pr_report_model_integer(struct pr_report_model *m,
    const char *key, int flags, int have, int64_t v, struct pr_error *err);
enum pr_status pr_report_model_real(struct pr_report_model *m, const char *key,
    int flags, int have, double v, struct pr_error *err);
enum pr_status pr_report_model_bool(struct pr_report_model *m, const char *key,
    int flags, int v, struct pr_error *err);
enum pr_status pr_report_model_string(struct pr_report_model *m,
    const char *key, int flags, const char *s, struct pr_error *err);

/* Adds a nested, empty model and sets *group to it (owned by m, valid
 * until m is released). */
enum pr_status pr_report_model_group(struct pr_report_model *m, const char *key,
    int flags, struct pr_report_model **group, struct pr_error *err);

/* Adds a PR_SECTION_LIST_HEAD for key. */
enum pr_status pr_report_model_list(struct pr_report_model *m, const char *key,
    int flags, struct pr_error *err);

/*
 * Appends the model in format f to out.  An empty model gives nothing in
 * text, Markdown and CSV and "{}" in JSON.  The JSON form ends with a
 * newline.
 */
enum pr_status pr_report_model_render(struct pr_buf *out,
    const struct pr_report_model *m, enum pr_report_format f,
    struct pr_error *err);

#endif /* PERFREG_REPORT_MODEL_H */
