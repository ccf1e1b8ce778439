/*
 * cli/opt.h - a command's options, declared once, in a table.
 *
 * Each command declares its options in one array of struct opt (as git's
 * parse-options does): the long name, the short name, the kind of
 * argument, the argument's name and help line, and where the value goes,
 * as an offset into the command's own options structure.  One parser
 * (opt_parse) reads the command line with it; the synopsis, --help, the
 * usage errors ("did you mean ...") and `perfreg --dump-options`, which
 * the man page test compares with doc/perfreg.1, are all written from
 * the same table.  Nothing else states an option.
 *
 * The parser follows GNU getopt_long: options and operands may come in
 * any order (operands are moved after the options, in their order), "--"
 * ends the options, short options bundle (-An, -n5), a long option's
 * argument is the next word or follows '=', and a long option may be
 * abbreviated to any prefix that is not ambiguous.
 */
#ifndef PERFREG_CLI_OPT_H
#define PERFREG_CLI_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cmd_entry;

enum opt_kind {
	OPTK_END = 0, /* ends a table */
	OPTK_GROUP,   /* not an option: a blank line in --help */
	OPTK_FLAG,    /* no argument: the int at .offset becomes .ival */
	OPTK_STRING,  /* the const char * at .offset points to the argument */
	OPTK_INT,     /* a whole number in [.min, .max], .size bytes unsigned */
	OPTK_DOUBLE,  /* a finite number in [.lo, .hi] (see OPT_LO_OPEN...) */
	OPTK_LIST,    /* repeatable: appended to the struct opt_list */
	OPTK_CALL     /* .call(base, opt, argument) */
};

/* Flags of struct opt. */
#define OPT_NOARG 0x01    /* OPTK_CALL: takes no argument (arg is NULL) */
#define OPT_NONEMPTY 0x02 /* OPTK_STRING, OPTK_LIST: '' is refused */
#define OPT_LO_OPEN 0x04  /* OPTK_DOUBLE: lo itself is refused */
#define OPT_HI_OPEN 0x08  /* OPTK_DOUBLE: hi itself is refused */
#define OPT_PCT_SIGN 0x10 /* OPTK_DOUBLE: a trailing '%' is allowed */
#define OPT_REPEAT 0x20   /* OPTK_CALL: repeatable ("..." in the synopsis) */
/* OPT_INSYN: a required option that the entry's synopsis names itself,
 * left out of "[options]".  OPT_HIDDEN: internal; only its exact name is
 * read, and neither --help, the synopsis nor --dump-options shows it. */
#define OPT_INSYN 0x40
#define OPT_HIDDEN 0x80

struct opt {
	enum opt_kind kind;
	char sname;        /* short name, or 0 */
	const char *lname; /* long name without "--", or NULL */
	const char *arg;   /* the argument's name, NULL for none */
	const char *help;  /* one sentence; '\n' forces a line break */
	size_t offset;     /* where the value goes in the options struct */
	size_t size;       /* OPTK_INT: sizeof the member */
	unsigned flags;
	int ival;               /* OPTK_FLAG: the value; OPTK_CALL: free use */
	unsigned long long min; /* OPTK_INT bounds */
	unsigned long long max; /* OPTK_INT bounds */
	double lo, hi;          /* OPTK_DOUBLE bounds */
	const char *what;       /* what a bad value's message expects */
	/* OPTK_CALL: applies arg; prints its error and returns -1. */
	int (*call)(void *base, const struct opt *o, const char *arg);
};

/* The values of an OPTK_LIST, in the order given; opt_list_release frees
 * the array (the strings are argv's). */
struct opt_list {
	const char **v;
	size_t n;
};

void opt_list_release(struct opt_list *l);

/* Member size of type's member, for OPTK_INT. */
#define OPT_SIZEOF(type, member) sizeof(((type *)0)->member)

/* Table rows.  s is a character or 0, l a string or NULL. */
#define OPT_FLAG(s, l, h, type, member, v) \
	{ \
		.kind = OPTK_FLAG, .sname = (s), .lname = (l), .help = (h), \
		.offset = offsetof(type, member), .ival = (v) \
	}
#define OPT_STRING(s, l, a, h, type, member, fl, w) \
	{ \
		.kind = OPTK_STRING, .sname = (s), .lname = (l), .arg = (a), \
		.help = (h), .offset = offsetof(type, member), .flags = (fl), \
		.what = (w) \
	}
#define OPT_INT(s, l, a, h, type, member, lo_, hi_, w) \
	{ \
		.kind = OPTK_INT, .sname = (s), .lname = (l), .arg = (a), \
		.help = (h), .offset = offsetof(type, member), \
		.size = OPT_SIZEOF(type, member), .min = (lo_), .max = (hi_), \
		.what = (w) \
	}
#define OPT_DOUBLE(s, l, a, h, type, member, lo_, hi_, fl, w) \
	{ \
		.kind = OPTK_DOUBLE, .sname = (s), .lname = (l), .arg = (a), \
		.help = (h), .offset = offsetof(type, member), .lo = (lo_), \
		.hi = (hi_), .flags = (fl), .what = (w) \
	}
#define OPT_LIST(s, l, a, h, type, member, fl, w) \
	{ \
		.kind = OPTK_LIST, .sname = (s), .lname = (l), .arg = (a), \
		.help = (h), .offset = offsetof(type, member), .flags = (fl), \
		.what = (w) \
	}
#define OPT_CALL(s, l, a, h, fn, fl, v) \
	{ \
		.kind = OPTK_CALL, .sname = (s), .lname = (l), .arg = (a), \
		.help = (h), .call = (fn), .flags = (fl), .ival = (v) \
	}
#define OPT_GROUP() \
	{ \
		.kind = OPTK_GROUP \
	}
#define OPT_END() \
	{ \
		.kind = OPTK_END \
	}

/* Tables hold at most this many rows, so that a 64-bit mask says which
 * were given. */
#define OPT_MAX 64

/*
 * Parses argv[1..argc) (argv[0] is the command's name) with e->opts into
 * base, the command's options structure, which the caller has set to
 * its defaults.  argv is reordered: options first, then "--" if given,
 * then the operands.  Returns the index of the first operand; on a bad
 * option or value prints one line ("perfreg: CMD: ...") and returns -1.
 * When seen is not NULL, bit i of *seen is set when row i was given.
 */
int opt_parse(const struct cmd_entry *e, int argc, char **argv, void *base,
    uint64_t *seen);

/* The index of the row of tab called name: its long name, or for an
 * option without one its short name as a string ("w"); -1 if none. */
int opt_index(const struct opt *tab, const char *name);

/* The bit of opt_parse's *seen for the row called name (0 if none). */
uint64_t opt_bit(const struct opt *tab, const char *name);

/* The name of row o as in messages: "-n, --runs", "--json", "-C". */
const char *opt_name(const struct opt *o, char *buf, size_t size);

/* The synopsis of e: each form on its own line after "usage: perfreg
 * NAME ", its first "[options]" written out from the table when full. */
void opt_synopsis(const struct cmd_entry *e, FILE *f, int full);

/* The --help of e: synopsis, about, the option list, epilogue. */
void opt_help(const struct cmd_entry *e, FILE *f);

/* One line "NAME\t-x" or "NAME\t--long" for every option of e. */
void opt_dump(const struct cmd_entry *e, FILE *f);

/*
 * The optimal-string-alignment distance between a and b (insertions,
 * deletions, substitutions and transpositions of neighbours each count
 * one), capped at cap + 1 for speed.  For "did you mean".
 */
size_t opt_distance(const char *a, const char *b, size_t cap);

/* Whether a misspelling of len characters is close enough to suggest a
 * word at distance d (git's rule of thumb: a third of the word). */
int opt_close_enough(size_t d, size_t len);

#endif /* PERFREG_CLI_OPT_H */
