/*
 * probes/tcp.c - the tcp probe: loopback TCP throughput with one stream
 * ("1stream") and two ("2streams"), a built-in iperf3-style sender and
 * receiver on 127.0.0.1 (seed 001 measured its copy routine with iperf3).
 *
 * init opens a listener on an ephemeral port and connects the streams
 * once (kept for every sample, closed in fini).  Each sample moves 256 MiB
 * (64 MiB quick), split evenly between the streams, from sender threads
 * writing 128 KiB buffers (iperf3's default length) with send(2) to
 * receiver threads reading 128 KiB at a time, and checks that every
 * stream received exactly the bytes sent.  Time runs from the first byte
 * received on any stream to the last byte received on all
 * (clock_gettime(CLOCK_MONOTONIC)), not counting that first read's bytes;
 * throughput is decimal MB/s (10^6 bytes per second), higher is better.
 * Sockets time out after 10 s (SO_RCVTIMEO, SO_SNDTIMEO): a stalled peer
 * gives an error, not a hang.  With a CPU given, the threads inherit the
 * calling thread's pin: senders and receivers then share that CPU.
 *
 * Not measured: connection setup, real network paths (no NIC, offloads or
 * congestion), retransmits, UDP, socket buffer tuning (the kernel's
 * defaults are kept, as iperf3 keeps them).
 */
#define _GNU_SOURCE /* sched_setaffinity */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "perfreg/probe.h"
#include "core/banned.h"

#define LEN (128 * 1024)
#define NCONN 3 /* one for 1stream, two for 2streams */

static const char *const variants[] = { "1stream", "2streams", NULL };

struct end {
	int fd;
	long long bytes, got, first_bytes;
	double first, last;
	char *buf;
	char err[96];
};

struct state {
	int listener, snd[NCONN], rcv[NCONN], on[2], pinned;
	long long total;
	char *mem; /* a LEN buffer per sender, then per receiver */
	char names[2][32];
	cpu_set_t oldmask;
	volatile sig_atomic_t *cancel;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *
sender(void *arg)
{
	struct end *e = arg;
	size_t n;
	ssize_t w;

	for (e->got = 0; e->got < e->bytes; e->got += w > 0 ? w : 0) {
		n = e->bytes - e->got < LEN ? (size_t)(e->bytes - e->got) : LEN;
		if ((w = send(e->fd, e->buf, n, MSG_NOSIGNAL)) < 0 &&
		    errno != EINTR) {
			snprintf(e->err, sizeof(e->err), "send: %s",
			    errno == EAGAIN ? "timed out after 10 s" :
			    strerror(errno));
			break;
		}
	}
	return NULL;
}

static void *
receiver(void *arg)
{
	struct end *e = arg;
	size_t n;
	ssize_t r;

	for (e->got = 0; e->got < e->bytes; e->got += r > 0 ? r : 0) {
		n = e->bytes - e->got < LEN ? (size_t)(e->bytes - e->got) : LEN;
		if ((r = recv(e->fd, e->buf, n, 0)) > 0) {
			e->last = now();
			e->first_bytes = e->got == 0 ? r : e->first_bytes;
			e->first = e->got == 0 ? e->last : e->first;
		} else if (r == 0 || errno != EINTR) {
			snprintf(e->err, sizeof(e->err), "recv: %s", r == 0 ?
			    "connection closed early" : errno == EAGAIN ?
			    "timed out after 10 s" : strerror(errno));
			break;
		}
	}
	return NULL;
}

static void
tcp_fini(void *state)
{
	struct state *s = state;
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < NCONN; i++) {
		if (s->snd[i] >= 0)
			close(s->snd[i]);
		if (s->rcv[i] >= 0)
			close(s->rcv[i]);
	}
	free(s->mem);
	if (s->listener >= 0)
		close(s->listener);
	if (s->pinned)
		sched_setaffinity(0, sizeof(s->oldmask), &s->oldmask);
	free(s);
}

/* Opens the listener and connects the streams; the failing call or NULL. */
static const char *
connect_all(struct state *s)
{
	struct timeval tv = { 10, 0 };
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int i, k, *fd;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((s->listener = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return "socket";
	if (bind(s->listener, (struct sockaddr *)&a, sizeof(a)) != 0)
		return "bind 127.0.0.1";
	if (listen(s->listener, NCONN) != 0)
		return "listen";
	if (getsockname(s->listener, (struct sockaddr *)&a, &len) != 0)
		return "getsockname";
	for (i = 0; i < NCONN; i++) {
		if ((s->snd[i] = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			return "socket";
		if (connect(s->snd[i], (struct sockaddr *)&a, sizeof(a)) != 0)
			return "connect 127.0.0.1";
		if ((s->rcv[i] = accept(s->listener, NULL, NULL)) < 0)
			return "accept";
		for (k = 0; k < 4; k++) {
			fd = k < 2 ? &s->snd[i] : &s->rcv[i];
			if (setsockopt(*fd, SOL_SOCKET, k % 2 ? SO_RCVTIMEO :
			    SO_SNDTIMEO, &tv, sizeof(tv)) != 0)
				return "setsockopt SO_RCVTIMEO/SO_SNDTIMEO";
		}
	}
	return NULL;
}

static enum pr_status
tcp_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	struct state *s;
	const char *call;
	cpu_set_t set;
	int i, v;

	*state = NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return pr_error_set(err, PR_ENOMEM, "tcp: out of memory");
	s->listener = -1;
	for (i = 0; i < NCONN; i++)
		s->snd[i] = s->rcv[i] = -1;
	s->total = (o->quick ? 64LL : 256LL) << 20;
	s->cancel = o->cancel;
	for (v = 0; v < 2; v++) {
		s->on[v] = !o->variant || strcmp(o->variant, variants[v]) == 0;
		snprintf(s->names[v], sizeof(s->names[v]), "tcp.%s%sthroughput",
		    o->variant ? "" : variants[v], o->variant ? "" : ".");
	}
	if ((!s->on[0] && !s->on[1]) || o->param != NULL)
		st = pr_error_set(err, PR_ENOTFOUND, "tcp: no %s '%s' (%s)",
		    o->param ? "parameter" : "variant", o->param ? o->param :
		    o->variant, o->param ? "it has none" : "1stream, 2streams");
	else if ((s->mem = malloc(2 * NCONN * LEN)) == NULL)
		st = pr_error_set(err, PR_ENOMEM, "tcp: out of memory");
	else if ((call = connect_all(s)) != NULL)
		st = pr_error_set(err, PR_EIO, "tcp: %s: %s", call,
		    strerror(errno));
	if (st == PR_OK && o->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(o->cpu, &set);
		if (sched_getaffinity(0, sizeof(s->oldmask), &s->oldmask) != 0
		    || sched_setaffinity(0, sizeof(set), &set) != 0)
			st = pr_error_set(err, PR_EIO, "tcp: "
			    "sched_setaffinity to CPU %d failed", o->cpu);
		s->pinned = st == PR_OK;
	}
	if (st != PR_OK) {
		tcp_fini(s);
		return st;
	}
	memset(s->mem, 'x', 2 * NCONN * LEN);
	*state = s;
	return PR_OK;
}

/* Moves s->total bytes over n streams starting at connection c0. */
static enum pr_status
transfer(struct state *s, int c0, int n, double *mbps, struct pr_error *err)
{
	struct end e[2 * 2];
	pthread_t t[2 * 2];
	double first = 0, last = 0;
	long long counted = s->total;
	int i, rc, started = 0, pending;

	memset(e, 0, sizeof(e));
	for (i = 0; i < 2 * n; i++) {
		e[i].fd = i < n ? s->snd[c0 + i] : s->rcv[c0 + i - n];
		e[i].buf = s->mem + (size_t)LEN * (size_t)(i < n ? c0 + i :
		    NCONN + c0 + i - n);
		e[i].bytes = s->total / n;
		if ((rc = pthread_create(&t[i], NULL, i < n ? sender : receiver,
		    &e[i])) != 0) {
			snprintf(e[i].err, sizeof(e[i].err), "pthread_create: "
			    "%s", strerror(rc));
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2 * n; i++)
		if (e[i].err[0] != '\0')
			return pr_error_set(err, PR_EIO, "tcp: stream %d: %s "
			    "after %lld of %lld bytes", i % n + 1, e[i].err,
			    e[i].got, e[i].bytes);
	for (i = n; i < 2 * n; i++)
		if (ioctl(e[i].fd, FIONREAD, &pending) != 0 || pending != 0)
			return pr_error_set(err, PR_EIO, "tcp: stream %d: "
			    "more bytes arrived than were sent (FIONREAD)",
			    i - n + 1);
	for (i = n; i < 2 * n; i++) {
		if (i == n || e[i].first < first) {
			first = e[i].first;
			counted = s->total - e[i].first_bytes;
		}
		last = e[i].last > last ? e[i].last : last;
	}
	*mbps = (double)counted / (last - first > 1e-9 ? last - first : 1e-9) /
	    1e6;
	return PR_OK;
}

static enum pr_status
tcp_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct state *s = state;
	enum pr_status st;
	double mbps;
	int v;

	for (v = 0; v < 2; v++) {
		if (!s->on[v])
			continue;
		if (s->cancel != NULL && *s->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		if ((st = transfer(s, v, v + 1, &mbps, err)) != PR_OK ||
		    (st = pr_dataset_add(out, s->names[v], "MB/s",
		    PR_BETTER_HIGHER, mbps, err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_tcp = { "tcp",
	"loopback TCP throughput, 1 and 2 streams (iperf3-style, 127.0.0.1)",
	"clock_gettime(CLOCK_MONOTONIC)", variants, tcp_init, tcp_sample,
	tcp_fini };
