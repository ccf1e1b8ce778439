/*
 * cli/run_store.h - `perfreg run --campaign`: recording a session in the
 * results database as it runs, and finding the session --resume
 * continues.  Used by cmd_run.c only.
 */
#ifndef PERFREG_CLI_RUN_STORE_H
#define PERFREG_CLI_RUN_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "perfreg/runner.h"
#include "perfreg/store.h"

struct run_store {
	struct pr_store *st;
	int64_t session;
	int64_t *vid; /* store id of each session variant */
	size_t nv;
	int failed; /* a run could not be stored */
	char msg[PR_ERROR_MSG_MAX + 64];
};

/*
 * Opens the database (db, or the default), captures the environment and
 * records a session of campaign with the variants of s, the tags
 * ("key=value" strings; kernel=RELEASE is added unless given), the
 * --primary metrics (primary, nprimary; none: the rule of
 * perfreg/primary.h applies when it is compared) and perfreg's run
 * arguments (args, nargs) for --resume.  resumes: the session it
 * continues, or 0.  Prints errors; returns an exit status.
 */
int run_store_begin(struct run_store *rs, const char *db, const char *campaign,
    const struct pr_session *s, char *const *tags, size_t ntags,
    const char *const *primary, size_t nprimary, char *const *args,
    size_t nargs, int64_t resumes);

/* sr from the run r: its outcome, status, failure, output and metrics (sr
 * points into r); the variant id, round, sequence number and start time
 * are the caller's. */
void run_store_fill(struct pr_store_run *sr, const struct pr_run *r);

/* When r has monitor figures: its metrics, then those figures, copied
 * into all (initialised by the caller, who releases it), and sr->metrics
 * pointed at all, so that they are stored as metrics of the run beside
 * its own; nothing otherwise.  PR_ENOMEM. */
enum pr_status run_store_monitors(struct pr_store_run *sr,
    const struct pr_run *r, struct pr_dataset *all, struct pr_error *err);

/* Stores a finished run; on failure sets rs->failed and rs->msg (the
 * caller stops the session). */
void run_store_add(struct run_store *rs, const struct pr_session *s,
    const struct pr_run *r);

/*
 * After the session is stored: for each of its variants, the change the
 * session confirms or may start in the campaign's history of the
 * variant's figure (perfreg/history.h's default metric), one line each
 * on stderr ("run: history of ...").  Silent when there is nothing to
 * say, fewer than five sessions, or the history cannot be read.
 */
void run_store_note_history(struct run_store *rs, const char *campaign,
    const struct pr_session *s);

/* Marks the session finished with s's stop reason and closes.  Prints
 * errors; returns an exit status. */
int run_store_end(struct run_store *rs, const struct pr_session *s,
    int decided);

void run_store_close(struct run_store *rs);

/*
 * For --resume: finds the unfinished session of campaign on this host;
 * *args (the caller frees each and the array) gets its run arguments
 * and *done the counted rounds its variants completed (over the chain of
 * sessions it continues).  Prints errors; returns an exit status.
 */
int run_store_find_resume(const char *db, const char *campaign, char ***args,
    size_t *nargs, int64_t *session, size_t *done);

#endif /* PERFREG_CLI_RUN_STORE_H */
