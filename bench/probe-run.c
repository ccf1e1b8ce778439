/*
 * bench/probe-run.c - runs one built-in probe N times outside the suite
 * and prints each metric's median with its unit, for
 * bench/probes-vs-tools.sh to set against the real tools.
 *
 * usage: probe-run [-q] [-c CPU] [-n N] [-p PARAM] PROBE [VARIANT]
 * PROBE is any built-in probe (perfreg suite list); -q is the suite's
 * --quick, -c its --cpu, -p a parameter as suite ab selects one.  Prints
 * one line per metric, "NAME MEDIAN UNIT" (%.6g), and the probe's notes
 * on stderr.  Exit 0 done, 1 the probe failed, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfreg/dataset.h"
#include "perfreg/probe.h"

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
usage(void)
{
	fprintf(stderr,
	    "usage: probe-run [-q] [-c CPU] [-n N] [-p PARAM] "
	    "PROBE [VARIANT]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	struct pr_probe_opts o = { 0, -1, NULL, NULL, NULL, NULL };
	const struct pr_probe *p;
	struct pr_buf notes = PR_BUF_INIT(1 << 16);
	struct pr_dataset d;
	struct pr_error err;
	struct pr_metric *m;
	void *state;
	long n = 5, i;
	size_t k;
	int c, rc = 0;
	char msg[600], *end;

	while ((c = getopt(argc, argv, "c:n:p:q")) != -1) {
		switch (c) {
		case 'c':
			o.cpu = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || o.cpu < 0)
				return usage();
			break;
		case 'n':
			n = strtol(optarg, &end, 10);
			if (*end != '\0' || n < 1 || n > 100000)
				return usage();
			break;
		case 'p':
			o.param = optarg;
			break;
		case 'q':
			o.quick = 1;
			break;
		default:
			return usage();
		}
	}
	if (optind >= argc || argc - optind > 2)
		return usage();
	if ((p = pr_probe_find(argv[optind])) == NULL) {
		fprintf(stderr, "probe-run: no probe '%s'\n", argv[optind]);
		return 2;
	}
	o.variant = argc - optind == 2 ? argv[optind + 1] : NULL;
	if (p->init(&o, &state, &notes, &err) != PR_OK) {
		fprintf(stderr, "probe-run: %s\n",
		    pr_error_format(&err, msg, sizeof(msg)));
		pr_buf_release(&notes);
		return 1;
	}
	pr_dataset_init(&d);
	for (i = 0; i < n && rc == 0; i++)
		if (p->sample(state, &d, &err) != PR_OK) {
			fprintf(stderr, "probe-run: %s\n",
			    pr_error_format(&err, msg, sizeof(msg)));
			rc = 1;
		}
	p->fini(state);
	for (k = 0; k < d.n && rc == 0; k++) {
		m = &d.metrics[k];
		qsort(m->values.v, m->values.n, sizeof(double), cmp);
		printf("%s %.6g %s\n", m->name,
		    m->values.n % 2 ? m->values.v[m->values.n / 2]
				    : (m->values.v[m->values.n / 2 - 1] +
					  m->values.v[m->values.n / 2]) /
			    2,
		    m->unit);
	}
	if (notes.len > 0)
		fputs(notes.data, stderr);
	pr_dataset_release(&d);
	pr_buf_release(&notes);
	return rc;
}
