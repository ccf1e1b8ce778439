/*
 * probes/crypto.c - the crypto probe: throughput of AES-128-GCM,
 * ChaCha20-Poly1305, DES-EDE3-CBC and SHA-256 through OpenSSL's EVP at
 * block sizes 16 B to 16 KiB, what `openssl speed -evp ALG` prints (seed
 * 000).  Method, that of apps/speed.c as Debian's OpenSSL 3 ships it
 * (without -aead): AES-GCM, an AE mode there, is one message per block
 * (set the IV length, key and IV, EVP_EncryptUpdate, EVP_EncryptFinal_ex
 * making the tag); ChaCha20-Poly1305 and DES-EDE3-CBC are keyed once, then
 * EVP_EncryptUpdate runs in place on the same buffer, block after block,
 * as one long message; a digest is one EVP_Digest call per block.  Each
 * (algorithm, size) runs a number of blocks calibrated in init to take
 * about 3 ms (1 ms quick), timed on the CPU time of the calling thread
 * (clock_gettime(CLOCK_THREAD_CPUTIME_ID), ns resolution) as openssl speed
 * times on user CPU time unless given -elapsed, so that other processes
 * taking the CPU do not count.  Throughput is decimal MB/s (10^6 bytes per
 * CPU second): openssl speed's "1000s of bytes per second" over 1000.
 * Not measured: speed -aead's 13 bytes of AAD, decryption, providers but
 * the default, -mb, -multi.  Before any timing, init runs the timed path
 * on known answers (NIST GCM test case 2 with its tag, SHA-256("abc") of
 * FIPS 180-2), fails if they differ, and notes them.
 */
#define _GNU_SOURCE /* cpu_set_t, for probes/probeutil.h */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "perfreg/probe.h"
#include "probes/probeutil.h"
#include "core/banned.h"

enum { AES_GCM, CHACHA, DES3, SHA256, NALG };
#define NSIZE 6

static const char *const variants[] = { "aes-128-gcm", "chacha20-poly1305",
	"des-ede3-cbc", "sha256", NULL };
static const int sizes[NSIZE] = { 16, 64, 256, 1024, 8192, 16384 };

struct job {
	int alg, size;
	long blocks;
	char name[48];
};

struct state {
	EVP_CIPHER *cipher[NALG];
	EVP_MD *md;
	EVP_CIPHER_CTX *ctx;
	unsigned char *mem, *buf; /* buf: mem aligned to 64 bytes */
	unsigned char digest[EVP_MAX_MD_SIZE];
	const unsigned char *k, *iv; /* the key and IV of the context */
	struct job jobs[NALG * NSIZE];
	int njobs;
	struct pr_probe_pin pin;
	volatile sig_atomic_t *cancel;
	volatile unsigned sink;
};

/* Keys the context for alg (key and iv long enough for every cipher). */
static int
key(struct state *s, int alg, const unsigned char *k, const unsigned char *iv)
{
	s->k = k;
	s->iv = iv;
	return EVP_EncryptInit_ex2(s->ctx, s->cipher[alg], k, iv, NULL) &&
		EVP_CIPHER_CTX_set_padding(s->ctx, 0)
	    ? 0
	    : -1;
}

/* The timed path: n blocks of size bytes. */
static int
run(struct state *s, int alg, int size, long n)
{
	int outl;
	long i;

	if (alg == SHA256) {
		for (i = 0; i < n; i++)
			if (!EVP_Digest(s->buf, (size_t)size, s->digest, NULL,
				s->md, NULL))
				return -1;
		return 0;
	}
	for (i = 0; i < n; i++)
		if ((alg == AES_GCM &&
			(!EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_SET_IVLEN,
			     12, NULL) ||
			    !EVP_CipherInit_ex(s->ctx, NULL, NULL, s->k, s->iv,
				-1))) ||
		    !EVP_EncryptUpdate(s->ctx, s->buf, &outl, s->buf, size) ||
		    (alg == AES_GCM &&
			!EVP_EncryptFinal_ex(s->ctx, s->buf, &outl)))
			return -1;
	return 0;
}

/* One timed pass of job j: its time in seconds, or -1 on failure. */
static double
pass(struct state *s, const struct job *j, long blocks)
{
	static const unsigned char k[32] = "perfreg crypto probe key 0123456";
	struct timespec t0, t1;
	unsigned char tag[16];
	int outl;

	if (j->alg != SHA256 && key(s, j->alg, k, k + 16) != 0)
		return -1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	if (run(s, j->alg, j->size, blocks) != 0)
		return -1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	if ((j->alg == CHACHA || j->alg == DES3) &&
	    !EVP_EncryptFinal_ex(s->ctx, s->buf, &outl))
		return -1;
	if (j->alg != SHA256 && j->alg != DES3 &&
	    EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag))
		s->sink += tag[0];
	s->sink += s->buf[j->size - 1] + s->digest[0];
	return pr_probe_ns_between(&t0, &t1) * 1e-9;
}

/* Known answers through the timed path: NIST GCM case 2, FIPS 180-2. */
static enum pr_status
check(struct state *s, int alg, struct pr_buf *notes, struct pr_error *err)
{
	static const unsigned char zero[16];
	const char *want = alg == SHA256 ? "ba7816bf8f01cfea414140de5dae2223"
					   "b00361a396177a9cb410ff61f20015ad"
					 : "0388dace60b6a392f328c2b971b2fe78ab6"
					   "e47d42cec13bdf53a67b21257bddf";
	const unsigned char *got = alg == SHA256 ? s->digest : s->buf;
	char h[65];
	int i;

	memset(s->buf, 0, 16);
	memcpy(s->buf, alg == SHA256 ? "abc" : "", alg == SHA256 ? 3 : 0);
	if ((alg != SHA256 && key(s, alg, zero, zero) != 0) ||
	    run(s, alg, alg == SHA256 ? 3 : 16, 1) != 0 ||
	    (alg == AES_GCM &&
		!EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_GET_TAG, 16,
		    s->buf + 16)))
		return pr_error_set(err, PR_EIO, "crypto: EVP %s failed",
		    variants[alg]);
	for (i = 0; i < 32; i++)
		snprintf(h + 2 * i, 3, "%02x", got[i]);
	if (strcmp(h, want) != 0)
		return pr_error_set(err, PR_EIO,
		    "crypto: %s known answer "
		    "wrong through the timed path: %s",
		    variants[alg], h);
	return notes == NULL
	    ? PR_OK
	    : pr_buf_addf(notes, err,
		  "crypto: "
		  "known answer through the timed path: %s %s (%s)\n",
		  variants[alg], h,
		  alg == SHA256 ? "of \"abc\", FIPS 180-2"
				: "NIST GCM case 2, "
				  "ciphertext and tag");
}

static void
crypto_fini(void *state)
{
	struct state *s = state;
	int a;

	if (s == NULL)
		return;
	pr_probe_unpin(&s->pin);
	for (a = 0; a < SHA256; a++)
		EVP_CIPHER_free(s->cipher[a]);
	EVP_MD_free(s->md);
	EVP_CIPHER_CTX_free(s->ctx);
	free(s->mem);
	free(s);
}

/* Adds the jobs of alg (for the selected sizes) and calibrates them. */
static enum pr_status
add_jobs(struct state *s, int alg, const struct pr_probe_opts *o,
    struct pr_error *err)
{
	double target = o->quick ? 1e-3 : 3e-3, t;
	struct job *j;
	long n;
	int i;
	char p[16];

	for (i = 0; i < NSIZE; i++) {
		j = &s->jobs[s->njobs];
		snprintf(p, sizeof(p), "%dB", sizes[i]);
		if (o->param != NULL && strcmp(o->param, p) != 0)
			continue;
		snprintf(j->name, sizeof(j->name), "crypto%s%s%s%s",
		    o->variant ? "" : ".", o->variant ? "" : variants[alg],
		    o->param ? "" : ".", o->param ? "" : p);
		j->alg = alg;
		j->size = sizes[i];
		for (n = 1;
		     (t = pass(s, j, n)) >= 0 && t < target / 8 && n < 1L << 40;
		     n *= 2)
			;
		if (t < 0)
			return pr_error_set(err, PR_EIO,
			    "crypto: EVP %s "
			    "failed",
			    variants[alg]);
		j->blocks = (long)((double)n * target / (t > 0 ? t : 1e-9)) + 1;
		s->njobs++;
	}
	return PR_OK;
}

static enum pr_status
crypto_init(const struct pr_probe_opts *o, void **state, struct pr_buf *notes,
    struct pr_error *err)
{
	enum pr_status st = PR_OK;
	struct state *s;
	int a, any = 0;

	if ((*state = s = calloc(1, sizeof(*s))) == NULL ||
	    (s->mem = malloc(16384 + 64)) == NULL ||
	    (s->ctx = EVP_CIPHER_CTX_new()) == NULL) {
		st = pr_error_set(err, PR_ENOMEM, "crypto: out of memory");
		goto out;
	}
	s->buf = s->mem + (64 - (uintptr_t)s->mem % 64) % 64;
	memset(s->buf, 0x5a, 16384);
	s->cancel = o->cancel;
	st = pr_probe_pin(&s->pin, "crypto", o->cpu, err);
	for (a = 0; a < NALG && st == PR_OK; a++) {
		if (o->variant != NULL && strcmp(o->variant, variants[a]) != 0)
			continue;
		any = 1;
		s->md = a == SHA256 ? EVP_MD_fetch(NULL, "sha256", NULL) : NULL;
		if (a != SHA256) /* OpenSSL's algorithm names ignore case */
			s->cipher[a] =
			    EVP_CIPHER_fetch(NULL, variants[a], NULL);
		if (a == SHA256 ? s->md == NULL : s->cipher[a] == NULL) {
			if (o->variant != NULL)
				st = pr_error_set(err, PR_ENOTFOUND,
				    "crypto: "
				    "OpenSSL's default provider has no %s",
				    variants[a]);
			else if (notes != NULL)
				st = pr_buf_addf(notes, err,
				    "crypto: %s: not "
				    "in OpenSSL's default provider, left out\n",
				    variants[a]);
			continue;
		}
		if (a == AES_GCM || a == SHA256)
			st = check(s, a, notes, err);
		if (st == PR_OK)
			st = add_jobs(s, a, o, err);
	}
	if (st == PR_OK && !any)
		st = pr_error_set(err, PR_ENOTFOUND,
		    "crypto: no variant '%s' "
		    "(aes-128-gcm, chacha20-poly1305, des-ede3-cbc, sha256)",
		    o->variant);
	else if (st == PR_OK && s->njobs == 0)
		st = pr_error_set(err, PR_ENOTFOUND,
		    "crypto: no block size "
		    "'%s' (16B, 64B, 256B, 1024B, 8192B, 16384B)",
		    o->param ? o->param : "");
out:
	if (st != PR_OK) {
		crypto_fini(s);
		*state = NULL;
	}
	return st;
}

static enum pr_status
crypto_sample(void *state, struct pr_dataset *out, struct pr_error *err)
{
	struct state *s = state;
	const struct job *j;
	enum pr_status st;
	double t;
	int i;

	for (i = 0; i < s->njobs; i++) {
		j = &s->jobs[i];
		if (s->cancel != NULL && *s->cancel)
			return pr_error_set(err, PR_EINVAL, "interrupted");
		if ((t = pass(s, j, j->blocks)) < 0)
			return pr_error_set(err, PR_EIO,
			    "crypto: EVP %s "
			    "failed",
			    variants[j->alg]);
		if ((st = pr_dataset_add(out, j->name, "MB/s", PR_BETTER_HIGHER,
			 (double)j->blocks * j->size / (t > 1e-9 ? t : 1e-9) /
			     1e6,
			 err)) != PR_OK)
			return st;
	}
	return PR_OK;
}

const struct pr_probe pr_probe_crypto = { "crypto",
	"AES-GCM, ChaCha20-Poly1305, 3DES, SHA-256 throughput via OpenSSL EVP",
	"clock_gettime(CLOCK_THREAD_CPUTIME_ID)", variants, crypto_init,
	crypto_sample, crypto_fini, PR_PROBE_FIGURE_BEST };
