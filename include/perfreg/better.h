/*
 * perfreg/better.h - a metric's direction: whether higher or lower
 * values are better.  Core (datasets, parsers and the store carry it);
 * the statistics API (perfreg/verdict.h) decides with it.
 */
#ifndef PERFREG_BETTER_H
#define PERFREG_BETTER_H

enum pr_better {
	PR_BETTER_UNKNOWN = 0, /* direction not known: treated as lower */
	PR_BETTER_HIGHER,      /* throughput: higher is better */
	PR_BETTER_LOWER        /* time: lower is better */
};

#endif /* PERFREG_BETTER_H */
