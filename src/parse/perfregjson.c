/*
 * parse/perfregjson.c - perfreg's own JSON: {"metrics": [...]}, each
 * metric {"name", "unit", "better", "values": [...]} or with a single
 * "value" (what `perfreg parse --json` prints).
 *
 * Invariants kept: a metric name is a non-empty string; a name seen
 * twice accumulates values and must repeat the same unit and direction
 * (else the two would be compared as one by mistake); "better", when
 * absent or null, follows from the unit (perfreg/units.h).  Members this
 * reader does not know are ignored, so that later versions can add some.
 */
#include <string.h>

#include <jansson.h>

#include "perfreg/units.h"
#include "parse/bench.h"
#include "parse/readers.h"
#include "core/banned.h"

static enum pr_status
read_metric(const struct pr_input *in, json_t *obj, size_t idx,
    struct pr_dataset *out, struct pr_error *err)
{
	struct pr_jstep path[3] = { { "metrics", 0 }, { NULL, idx },
		{ NULL, 0 } };
	json_t *name, *unit, *better, *values, *value;
	const char *nm, *un;
	enum pr_better dir;
	struct pr_metric *m;
	char ex[64];
	enum pr_status st;

	if (!json_is_object(obj))
		return pr_json_fail(in, path, 2, PR_EPARSE, err,
		    "metric %zu: expected an object", idx + 1);
	name = json_object_get(obj, "name");
	unit = json_object_get(obj, "unit");
	better = json_object_get(obj, "better");
	values = json_object_get(obj, "values");
	value = json_object_get(obj, "value");

	if (!json_is_string(name) || json_string_length(name) == 0) {
		path[2].key = "name";
		return pr_json_fail(in, path, name != NULL ? 3 : 2, PR_EPARSE,
		    err, "metric %zu: \"name\" must be a non-empty string",
		    idx + 1);
	}
	nm = json_string_value(name);
	if (strlen(nm) != json_string_length(name)) {
		path[2].key = "name";
		return pr_json_fail(in, path, 3, PR_EPARSE, err,
		    "metric %zu: NUL character in \"name\"", idx + 1);
	}
	un = "";
	if (unit != NULL && !json_is_null(unit)) {
		path[2].key = "unit";
		if (!json_is_string(unit))
			return pr_json_fail(in, path, 3, PR_EPARSE, err,
			    "metric '%s': \"unit\" must be a string",
			    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));
		un = json_string_value(unit);
		if (strlen(un) != json_string_length(unit))
			return pr_json_fail(in, path, 3, PR_EPARSE, err,
			    "metric '%s': NUL character in \"unit\"",
			    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));
	}
	dir = pr_unit_direction(un);
	if (better != NULL && !json_is_null(better)) {
		path[2].key = "better";
		if (!json_is_string(better) ||
		    pr_better_from_str(json_string_value(better), &dir) != 0)
			return pr_json_fail(in, path, 3, PR_EPARSE, err,
			    "metric '%s': \"better\" must be \"higher\" or "
			    "\"lower\"",
			    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));
		if (dir == PR_BETTER_UNKNOWN)
			dir = pr_unit_direction(un);
	}
	if ((values == NULL) == (value == NULL))
		return pr_json_fail(in, path, 2, PR_EPARSE, err,
		    "metric '%s': needs exactly one of \"values\" and "
		    "\"value\"",
		    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));

	if ((m = pr_dataset_find(out, nm)) != NULL) {
		if (strcmp(m->unit, un) != 0)
			return pr_json_fail(in, path, 2, PR_EPARSE, err,
			    "metric '%s' appears again with unit '%s' "
			    "(was '%s')",
			    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)), un,
			    m->unit);
		if (m->better != PR_BETTER_UNKNOWN &&
		    dir != PR_BETTER_UNKNOWN && m->better != dir)
			return pr_json_fail(in, path, 2, PR_EPARSE, err,
			    "metric '%s' appears again with the other "
			    "direction",
			    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));
	}
	if ((st = pr_dataset_get(out, nm, un, dir, &m, err)) != PR_OK)
		return st;
	if (values != NULL) {
		path[2].key = "values";
		return pr_json_values(in, values, path, 3, &m->values, err);
	}
	path[2].key = "value";
	if (!json_is_number(value))
		return pr_json_fail(in, path, 3, PR_EPARSE, err,
		    "metric '%s': \"value\" must be a number",
		    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));
	if ((st = pr_sample_push(&m->values, json_number_value(value), err)) !=
	    PR_OK)
		return pr_json_fail(in, path, 3, st, err,
		    "metric '%s': value is not finite",
		    pr_read_excerpt(ex, sizeof(ex), nm, strlen(nm)));
	return PR_OK;
}

static enum pr_status
read_perfreg(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	return pr_json_each(in, "metrics", read_metric, out, err);
}

/* Certain when the document's first key of the two JSON formats is
 * "metrics" (hyperfine's has "results"). */
static unsigned
detect_perfreg(const struct pr_input *in)
{
	return pr_read_json_key_first(in, "metrics", "results")
	    ? PR_DETECT_CERTAIN
	    : 0;
}

const struct pr_bench_format pr_bench_perfreg = {
	.name = "perfreg",
	.description = "perfreg's JSON (perfreg parse --json)",
	.detect = detect_perfreg,
	.parse = read_perfreg,
	.max_bytes = PR_READ_JSON_MAX,
};
