/*
 * probes/registry.c - the table of built-in probes, in the order `perfreg
 * suite` runs them, made from perfreg/probes.def (which says why that
 * order), and the lookup by name.
 */
#include <stddef.h>
#include <string.h>

#include "perfreg/probe.h"
#include "core/banned.h"

const struct pr_probe *const pr_probes[] = {
#define PR_PROBE(name) &pr_probe_##name,
#include "perfreg/probes.def"
#undef PR_PROBE
	NULL
};

const struct pr_probe *
pr_probe_find(const char *name)
{
	size_t i;

	for (i = 0; pr_probes[i] != NULL; i++)
		if (strcmp(pr_probes[i]->name, name) == 0)
			return pr_probes[i];
	return NULL;
}
