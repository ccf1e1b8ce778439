/*
 * parse/hyperfine.c - the JSON of `hyperfine --export-json`.
 *
 * {"results": [{"command": "sleep 0.1", "mean": ..., "times": [...],
 * "exit_codes": [...], "parameters": {...}}, ...]}: one metric per result,
 * named by "command" (hyperfine writes the --command-name there when one
 * was given, and the command with its parameters substituted otherwise),
 * with the wall-clock "times" of the runs in seconds, lower is better.
 * The summary members (mean, stddev, user, system, ...) are ignored: the
 * statistics are recomputed from the times.  Two results with the same
 * command are an error: they are different benchmarks (a parameter scan
 * whose values do not show in the command, say), and pooling their times
 * would describe neither; hyperfine's -n names them apart.  Runs with a
 * non-zero exit code are kept, because
 * hyperfine records them only when told to ignore failures (-i).
 */
#include <string.h>

#include <jansson.h>

#include "parse/readers.h"
#include "core/banned.h"

static enum pr_status
read_result(const struct pr_input *in, json_t *res, size_t idx,
    struct pr_dataset *out, struct pr_error *err)
{
	struct pr_jstep path[3] = { { "results", 0 }, { NULL, idx },
		{ NULL, 0 } };
	json_t *cmd, *times;
	struct pr_metric *m;
	const char *name;
	enum pr_status st;

	if (!json_is_object(res))
		return pr_json_fail(in, path, 2, PR_EPARSE, err,
		    "result %zu: expected an object", idx + 1);
	cmd = json_object_get(res, "command");
	if (!json_is_string(cmd) || json_string_length(cmd) == 0 ||
	    strlen(json_string_value(cmd)) != json_string_length(cmd)) {
		path[2].key = "command";
		return pr_json_fail(in, path, cmd != NULL ? 3 : 2, PR_EPARSE,
		    err, "result %zu: \"command\" must be a non-empty string",
		    idx + 1);
	}
	name = json_string_value(cmd);
	times = json_object_get(res, "times");
	if (times == NULL)
		return pr_json_fail(in, path, 2, PR_EPARSE, err,
		    "result %zu: no \"times\" (export with hyperfine 1.6 or "
		    "later, which records every run)",
		    idx + 1);
	if (pr_dataset_find(out, name) != NULL) {
		path[2].key = "command";
		return pr_json_fail(in, path, 3, PR_EPARSE, err,
		    "result %zu: a second result named '%s' (name each "
		    "command with hyperfine's -n)",
		    idx + 1, name);
	}
	if ((st = pr_dataset_get(out, name, "s", PR_BETTER_LOWER, &m, err)) !=
	    PR_OK)
		return st;
	path[2].key = "times";
	return pr_json_values(in, times, path, 3, &m->values, err);
}

enum pr_status
pr_read_hyperfine(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	return pr_json_each(in, "results", read_result, out, err);
}
