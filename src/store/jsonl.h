/*
 * store/jsonl.h - the hand-written JSON reader under `perfreg import`:
 * one line of JSON Lines at a time, into an array of nodes.
 *
 * pr_jsonl_parse parses one line, which must hold exactly one JSON
 * object (RFC 8259), into j->v: node 1 is the object, each array or
 * object lists its elements through kid and next.  Decoded strings are
 * in j->sc, NUL-terminated; member names (k, kn) point into the line
 * when they hold no escape, else into j->sc, and are compared by length
 * (never NUL-terminated).  Nodes and strings are borrowed until the next
 * pr_jsonl_parse or pr_jsonl_release of j, and the line must outlive
 * them.  The nodes and the scratch buffer are reused from line to line,
 * so that the steady state allocates nothing.
 *
 * Limits, so that no input exhausts the stack or memory: nesting of at
 * most PR_JSONL_DEPTH_MAX arrays and objects; the scratch buffer is
 * 3 len + 64 bytes for a line of len bytes (a decoded string is never
 * longer than its text, and base64 decoding of a string by the caller
 * fits too); one node per value.  The length of a line is the caller's
 * to bound (import refuses lines over PR_STORE_EXPORT_LINE_MAX before
 * parsing them).  Strings: \u escapes decode to UTF-8 (surrogate pairs
 * joined, lone surrogates refused), and a string holding \u0000 is
 * flagged nul; raw control bytes are refused.  Numbers are checked
 * against the JSON grammar and kept as their text (the caller converts
 * them with pr_parse_double or strtoll).  Not thread-safe per parser.
 */
#ifndef PERFREG_STORE_JSONL_H
#define PERFREG_STORE_JSONL_H

#include <stddef.h>

/* The deepest nesting of arrays and objects a line may have. */
#define PR_JSONL_DEPTH_MAX 64

enum pr_jsonl_type {
	PR_JSONL_NULL,
	PR_JSONL_FALSE,
	PR_JSONL_TRUE,
	PR_JSONL_NUM,
	PR_JSONL_STR,
	PR_JSONL_ARR,
	PR_JSONL_OBJ
};

/* A node.  Index 0 is never used, so that 0 means "none". */
struct pr_jsonl_node {
	enum pr_jsonl_type t;
	/* PR_JSONL_STR: the decoded bytes, NUL-terminated; PR_JSONL_NUM,
	 * PR_JSONL_ARR, PR_JSONL_OBJ: the text in the line */
	const char *s;
	size_t n;      /* its length */
	const char *k; /* its name, as a member of an object */
	size_t kn;
	size_t kid;   /* PR_JSONL_ARR, PR_JSONL_OBJ: the first element */
	size_t next;  /* the next element of the parent */
	size_t count; /* PR_JSONL_ARR, PR_JSONL_OBJ: how many elements */
	int nul;      /* PR_JSONL_STR: s holds a NUL byte (from \\u0000) */
};

/* The parser: zero it before the first line; the nodes and the scratch
 * buffer are reused from line to line. */
struct pr_jsonl {
	struct pr_jsonl_node *v;
	size_t nv, cap;
	char *sc; /* decoded strings; never moves during a line */
	size_t sn, scap;
	const char *line, *p, *end;
	const char *why; /* the parse error, a constant */
	const char *at;  /* where it happened */
};

/*
 * Parses the line [p, end) into j.  Returns the index of its root (1),
 * or 0 on error with j->why (a constant message: "unexpected byte",
 * "nested too deeply", "out of memory"...) and j->at (where in the line
 * it happened) set.
 */
size_t pr_jsonl_parse(struct pr_jsonl *j, const char *p, const char *end);

/* Frees the nodes and the scratch buffer; j may be parsed into again
 * after it is zeroed. */
void pr_jsonl_release(struct pr_jsonl *j);

#endif /* PERFREG_STORE_JSONL_H */
