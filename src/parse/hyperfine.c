/*
 * parse/hyperfine.c - the JSON of `hyperfine --export-json`.
 *
 * {"results": [{"command": "sleep 0.1", "mean": ..., "times": [...],
 * "exit_codes": [...], "parameters": {...}}, ...]}: one metric per result,
 * named by "command" (hyperfine writes the --command-name there when one
 * was given, and the command with its parameters substituted otherwise),
 * with the wall-clock "times" of the runs in seconds, lower is better.
 * The summary members (mean, stddev, ...) are ignored: the statistics are
 * recomputed from the times.  hyperfine records no user and system time
 * per run, only their means over the runs ("user", "system"): those are
 * reported as "COMMAND user" and "COMMAND system" (s, lower), one value
 * each, so that a change in CPU time shows beside the wall time.  Two results with the same
 * command are an error: they are different benchmarks (a parameter scan
 * whose values do not show in the command, say), and pooling their times
 * would describe neither; hyperfine's -n names them apart.  Runs with a
 * non-zero exit code are kept, because
 * hyperfine records them only when told to ignore failures (-i).
 */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "perfreg/buf.h"

#include "parse/bench.h"
#include "parse/readers.h"
#include "core/banned.h"

/*
 * Adds the result's mean CPU time key ("user", "system") as the metric
 * "NAME key"; a result without it (an old hyperfine) adds nothing.
 */
static enum pr_status
cpu_mean(const struct pr_input *in, json_t *res, size_t idx, const char *name,
    const char *key, struct pr_dataset *out, struct pr_error *err)
{
	struct pr_jstep path[3] = { { "results", 0 }, { NULL, idx },
		{ key, 0 } };
	json_t *v = json_object_get(res, key);
	struct pr_buf full = PR_BUF_INIT(4096);
	enum pr_status st;

	if (v == NULL)
		return PR_OK;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
	    json_number_value(v) < 0)
		return pr_json_fail(in, path, 3, PR_EPARSE, err,
		    "result %zu: \"%s\" must be a number of seconds", idx + 1,
		    key);
	if (pr_buf_addf(&full, NULL, "%s %s", name, key) != PR_OK)
		return pr_json_fail(in, path, 2, PR_ELIMIT, err,
		    "result %zu: command too long", idx + 1);
	if (pr_dataset_find(out, full.data) != NULL)
		st = pr_json_fail(in, path, 3, PR_EPARSE, err,
		    "result %zu: a second metric named '%s'", idx + 1,
		    full.data);
	else
		st = pr_dataset_add(out, full.data, "s", PR_BETTER_LOWER,
		    json_number_value(v), err);
	pr_buf_release(&full);
	return st;
}

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
	/* The command's wall time is hyperfine's result; the CPU means
	 * below are side figures. */
	m->flags |= PR_METRIC_RESULT;
	path[2].key = "times";
	if ((st = pr_json_values(in, times, path, 3, &m->values, err)) !=
		PR_OK ||
	    (st = cpu_mean(in, res, idx, name, "user", out, err)) != PR_OK)
		return st;
	return cpu_mean(in, res, idx, name, "system", out, err);
}

static enum pr_status
read_hyperfine(const struct pr_input *in, struct pr_dataset *out,
    struct pr_error *err)
{
	return pr_json_each(in, "results", read_result, out, err);
}

/* Certain when the document's first key of the two JSON formats is
 * hyperfine's "results" (perfreg's own JSON has "metrics"). */
static unsigned
detect_hyperfine(const struct pr_input *in)
{
	return pr_read_json_key_first(in, "results", "metrics")
	    ? PR_DETECT_CERTAIN
	    : 0;
}

/* An input of `compare` and a format of `parse` alike. */
const struct pr_bench_format pr_bench_hyperfine = {
	.name = "hyperfine",
	.description = "hyperfine --export-json",
	.detect = detect_hyperfine,
	.parse = read_hyperfine, /* marks its results itself */
	.max_bytes = PR_READ_JSON_MAX,
};
