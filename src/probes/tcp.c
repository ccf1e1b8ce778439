/*
 * probes/tcp.c - the tcp probe: loopback TCP throughput with one stream
 * ("1stream") and two ("2streams"), a built-in iperf3-style sender and
 * receiver on 127.0.0.1 (seed 001 measured its copy routine with iperf3).
 *
 * init opens a listener on an ephemeral port and connects the streams
 * once (kept for every sample, closed in fini).  Each sample moves 256 MiB
 * (64 MiB quick), split evenly between the streams, from a sender thread
 * writing 128 KiB buffers (iperf3's default length) to a receiver thread
 * reading 128 KiB at a time; each thread serves all its streams with
 * poll(2) and non-blocking calls, as iperf3 up to 3.15 does (one thread
 * per stream would win CPU share from other processes that iperf3 does
 * not).  Every stream must receive exactly the bytes sent.  Time runs
 * from the first byte received to the last (CLOCK_MONOTONIC), not
 * counting that first read's bytes; throughput is decimal MB/s (10^6
 * bytes per second), higher is better.  A stream idle for 10 s (poll's
 * timeout) is an error, not a hang.  With a CPU given, both threads
 * inherit the calling thread's pin and share that CPU.
 *
 * Not measured: connection setup, real network paths (no NIC, offloads or
 * congestion), retransmits, UDP, socket buffer tuning (the kernel's
 * defaults are kept, as iperf3 keeps them).
 */
#define _GNU_SOURCE /* cpu_set_t, for probes/probeutil.h */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
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
#include "probes/probeutil.h"
#include "core/banned.h"

#define LEN (128 * 1024)
#define NCONN 3 /* one for 1stream, two for 2streams */

static const char *const variants[] = { "1stream", "2streams", NULL };

/* One side of a transfer: the sender or the receiver of every stream. */
struct side {
	int n, fd[2], recv;
	long long bytes, got[2], first_bytes;
	double first, last;
	char *buf;
	char err[96];
};

struct state {
	int listener, snd[NCONN], rcv[NCONN], on[2];
	long long total;
	char *mem; /* a LEN buffer for the sender, one for the receiver */
	char names[2][32];
	struct pr_probe_pin pin;
	volatile sig_atomic_t *cancel;
};

/*
 * Sends or receives side->bytes on each stream, polling them all from one
 * thread, as iperf3 (up to 3.15) serves all its streams from one thread.
 */
static void *
pump(void *arg)
{
	struct side *e = arg;
	struct pollfd p[2];
	long long left;
	size_t n;
	ssize_t r;
	int i, j, k, idx[2];

	for (;;) {
		for (i = k = 0; i < e->n; i++)
			if (e->got[i] < e->bytes) {
				idx[k] = i;
				p[k].fd = e->fd[i];
				p[k++].events = e->recv ? POLLIN : POLLOUT;
			}
		if (k == 0)
			return NULL;
		if ((r = poll(p, (nfds_t)k, 10000)) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			snprintf(e->err, sizeof(e->err), "poll: %s",
			    r == 0 ? "timed out after 10 s" : strerror(errno));
			return NULL;
		}
		for (j = 0; j < k; j++) {
			if (p[j].revents == 0)
				continue;
			i = idx[j];
			left = e->bytes - e->got[i];
			n = left < LEN ? (size_t)left : LEN;
			r = e->recv ? recv(e->fd[i], e->buf, n, MSG_DONTWAIT)
				    : send(e->fd[i], e->buf, n,
					  MSG_DONTWAIT | MSG_NOSIGNAL);
			if (r > 0 && e->recv) {
				e->last = pr_probe_now_s();
				e->first = e->first_bytes ? e->first : e->last;
				e->first_bytes += e->first_bytes ? 0 : r;
			}
			if (r > 0)
				e->got[i] += r;
			else if (r == 0 ||
			    (errno != EAGAIN && errno != EINTR)) {
				snprintf(e->err, sizeof(e->err), "%s: %s",
				    e->recv ? "recv" : "send",
				    r == 0 ? "connection closed early"
					   : strerror(errno));
				return NULL;
			}
		}
	}
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
	pr_probe_unpin(&s->pin);
	free(s);
}

/* Opens the listener and connects the streams; the failing call or NULL. */
static const char *
connect_all(struct state *s)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int i;

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
		    o->param ? "parameter" : "variant",
		    o->param ? o->param : o->variant,
		    o->param ? "it has none" : "1stream, 2streams");
	else if ((s->mem = malloc(2 * LEN)) == NULL)
		st = pr_error_set(err, PR_ENOMEM, "tcp: out of memory");
	else if ((call = connect_all(s)) != NULL)
		st = pr_error_set(err, PR_EIO, "tcp: %s: %s", call,
		    strerror(errno));
	if (st == PR_OK)
		st = pr_probe_pin(&s->pin, "tcp", o->cpu, err);
	if (st != PR_OK) {
		tcp_fini(s);
		return st;
	}
	memset(s->mem, 'x', 2 * LEN);
	*state = s;
	return PR_OK;
}

/* Moves s->total bytes over n streams starting at connection c0. */
static enum pr_status
transfer(struct state *s, int c0, int n, double *mbps, struct pr_error *err)
{
	struct side e[2];
	pthread_t t[2];
	int i, k, rc, started = 0, pending;

	memset(e, 0, sizeof(e));
	for (i = 0; i < 2; i++) {
		e[i].n = n;
		e[i].recv = i;
		e[i].bytes = s->total / n;
		e[i].buf = s->mem + (size_t)LEN * (size_t)i;
		for (k = 0; k < n; k++)
			e[i].fd[k] = i ? s->rcv[c0 + k] : s->snd[c0 + k];
		if ((rc = pthread_create(&t[i], NULL, pump, &e[i])) != 0) {
			snprintf(e[i].err, sizeof(e[i].err),
			    "pthread_create: "
			    "%s",
			    strerror(rc));
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 2; i++)
		if (e[i].err[0] != '\0')
			return pr_error_set(err, PR_EIO,
			    "tcp: %s after %lld "
			    "of %lld bytes",
			    e[i].err, e[i].got[0] + e[i].got[1], s->total);
	for (k = 0; k < n; k++)
		if (ioctl(e[1].fd[k], FIONREAD, &pending) != 0 || pending != 0)
			return pr_error_set(err, PR_EIO,
			    "tcp: stream %d: "
			    "more bytes arrived than were sent (FIONREAD)",
			    k + 1);
	*mbps = (double)(s->total - e[1].first_bytes) /
	    (e[1].last - e[1].first > 1e-9 ? e[1].last - e[1].first : 1e-9) /
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
	tcp_fini, PR_PROBE_FIGURE_MEAN };
