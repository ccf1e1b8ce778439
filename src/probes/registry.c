/*
 * probes/registry.c - the list of built-in probes, in the order `perfreg
 * suite` runs them: the seeds' four classes first (copy: seed 001's rep
 * movsb; crypto: seed 000's ubsec; pipe-digest and handoff: seed 002's
 * caam pipeline and tasklet-versus-thread; random: seed 003's rdrand),
 * then system calls, page faults and loopback TCP.
 */
#include <stddef.h>
#include <string.h>

#include "perfreg/probe.h"
#include "core/banned.h"

const struct pr_probe *const pr_probes[] = { &pr_probe_copy, &pr_probe_crypto,
	&pr_probe_pipe_digest, &pr_probe_handoff, &pr_probe_random,
	&pr_probe_syscall, &pr_probe_fault, &pr_probe_tcp, NULL };

const struct pr_probe *
pr_probe_find(const char *name)
{
	size_t i;

	for (i = 0; pr_probes[i] != NULL; i++)
		if (strcmp(pr_probes[i]->name, name) == 0)
			return pr_probes[i];
	return NULL;
}
