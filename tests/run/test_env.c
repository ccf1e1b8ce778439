/*
 * tests/run/test_env.c - environment snapshots: capture from fixture
 * trees (tests/data/env/root-*, copied from a real machine, see
 * make-fixtures.sh), unavailable items, the kernel log normalisation, the
 * JSON round trip and its errors, and the ranked diff (seed 000's
 * vanished TSC timecounter first).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfreg/env.h"

#define DATA "tests/data/env/"

static int
fake_runner(void *ctx, char *const *argv, char **out, char *why, size_t whysize)
{
	(void)ctx;
	if (strcmp(argv[0], "openssl") == 0 && argv[1] != NULL &&
	    strcmp(argv[1], "version") == 0 && argv[2] == NULL) {
		*out = strdup("OpenSSL 9.9.9 1 Jan 2030\n");
		return *out ? 0 : -1;
	}
	snprintf(why, whysize, "unexpected command");
	return -1;
}

static int
missing_runner(void *ctx, char *const *argv, char **out, char *why,
    size_t whysize)
{
	(void)ctx;
	(void)argv;
	*out = NULL;
	snprintf(why, whysize, "not installed");
	return -1;
}

static void
capture(const char *root, const char *dmesg, struct pr_env *e)
{
	struct pr_env_opts o;
	struct pr_error err;

	pr_env_opts_init(&o);
	o.root = root;
	o.run = fake_runner;
	o.dmesg_text = dmesg;
	o.libc = "2.36";
	o.compiler = "12.2.0";
	pr_env_init(e);
	assert_int_equal(pr_env_capture(e, &o, &err), PR_OK);
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = '\0';
	fclose(f);
	return s;
}

static const char *
value(const struct pr_env *e, const char *key)
{
	const struct pr_env_item *it = pr_env_get(e, key);

	assert_non_null(it);
	return it->value;
}

static void
test_capture_base(void **state)
{
	struct pr_env e;
	const struct pr_env_item *it;

	(void)state;
	capture(DATA "root-base", NULL, &e);
	assert_string_equal(value(&e, "kernel.name"), "Linux");
	assert_string_equal(value(&e, "kernel.release"), "6.18.44-fc-v782");
	assert_string_equal(value(&e, "clocksource.current"), "kvm-clock");
	assert_string_equal(value(&e, "cpu.model"), "AMD EPYC");
	assert_non_null(strstr(value(&e, "cpu.flags"), " erms "));
	assert_non_null(strstr(value(&e, "cpu.flags"), " fsrm "));
	assert_string_equal(value(&e, "cpu.threads"), "2");
	assert_string_equal(value(&e, "cpu.cores"), "2");
	assert_string_equal(value(&e, "cpu.smt"), "notsupported");
	assert_string_equal(value(&e, "cpu.vulnerabilities.meltdown"),
	    "Mitigation: PTI");
	assert_string_equal(value(&e, "mem.total"), "24683620 kB");
	assert_string_equal(value(&e, "thp.enabled"), "always [madvise] never");
	assert_string_equal(value(&e, "modules"), "ext4 mbcache");
	assert_string_equal(value(&e, "sysctl.vm.swappiness"), "60");
	assert_string_equal(value(&e, "libc.version"), "2.36");
	assert_string_equal(value(&e, "tool.openssl"),
	    "OpenSSL 9.9.9 1 Jan 2030");
	/* A VM: no cpufreq, no microcode line: unavailable, with why. */
	it = pr_env_get(&e, "cpu.governor");
	assert_null(it->value);
	assert_string_equal(it->reason, "no cpufreq");
	it = pr_env_get(&e, "cpu.microcode");
	assert_null(it->value);
	assert_string_equal(it->reason, "not in /proc/cpuinfo");
	it = pr_env_get(&e, "cpu.boost");
	assert_null(it->value);
	assert_string_equal(it->reason, "not present");
	/* The log from ROOT/dmesg, normalised. */
	assert_non_null(strstr(value(&e, "kernel.log"),
	    "\ntimecounter: Timecounter \"TSC\" frequency # Hz quality "
	    "3000"));
	assert_null(strstr(value(&e, "kernel.log"), "[    0.000000]"));
	/* Items keep the capture's fixed order. */
	assert_string_equal(e.items[0].key, "kernel.name");
	assert_string_equal(e.items[e.n - 1].key, "kernel.log");
	pr_env_release(&e);

	capture(DATA "root-after", NULL, &e);
	assert_string_equal(value(&e, "clocksource.current"), "hpet");
	assert_null(strstr(value(&e, "cpu.flags"), "erms"));
	assert_string_equal(value(&e, "cpu.governor"), "performance");
	/* Not in cpuinfo, but in sysfs. */
	assert_string_equal(value(&e, "cpu.microcode"), "0xa0011d1");
	pr_env_release(&e);
}

static void
test_capture_unavailable(void **state)
{
	struct pr_env_opts o;
	struct pr_env e;
	struct pr_error err;
	size_t i, n = 0;

	(void)state;
	pr_env_opts_init(&o);
	o.root = DATA "root-missing";
	o.run = missing_runner;
	pr_env_init(&e);
	assert_int_equal(pr_env_capture(&e, &o, &err), PR_OK);
	for (i = 0; i < e.n; i++) {
		if (strcmp(e.items[i].category, "build") == 0)
			continue;
		assert_null(e.items[i].value);
		assert_non_null(e.items[i].reason);
		n++;
	}
	assert_true(n > 20);
	assert_string_equal(pr_env_get(&e, "tool.openssl")->reason,
	    "not installed");
	assert_string_equal(pr_env_get(&e, "kernel.log")->reason,
	    "not present");
	assert_string_equal(pr_env_get(&e, "kernel.release")->reason,
	    "not present");
	pr_env_release(&e);

	/* no_tools leaves the tools out. */
	o.no_tools = 1;
	pr_env_init(&e);
	assert_int_equal(pr_env_capture(&e, &o, &err), PR_OK);
	assert_null(pr_env_get(&e, "tool.openssl"));
	pr_env_release(&e);
}

static void
norm(const char *in, const char *want)
{
	struct pr_buf b = PR_BUF_INIT(1 << 20);
	struct pr_error err;

	assert_int_equal(pr_env_normalise_line(in, strlen(in), &b, &err),
	    PR_OK);
	assert_string_equal(b.data, want);
	pr_buf_release(&b);
}

static void
test_normalise(void **state)
{
	(void)state;
	/* Rule 1: timestamps and priorities. */
	norm("[ 3448.810416] usb 1-1: new device", "usb 1-1: new device");
	norm("<6>[    0.000000] Linux version 6.18.44-fc-v782 (gcc 15.3.0)",
	    "Linux version 6.18.44-fc-v782 (gcc 15.3.0)");
	norm("<4>plain", "plain");
	/* Rule 2: addresses; short hex (ids) stays. */
	norm("BIOS-e820: [mem 0x0000000000100000-0x00000000bfffffff] usable",
	    "BIOS-e820: [mem 0x#-0x#] usable");
	norm("uhub0 at usb0: vendor 0x8086 EHCI root hub",
	    "uhub0 at usb0: vendor 0x8086 EHCI root hub");
	norm("RIP: 0010:ffffffff81234567 code", "RIP: 0010:# code");
	norm("kvm-clock: Using msrs 4b564d01 and 4b564d00",
	    "kvm-clock: Using msrs # and #");
	/* Rule 3: pids. */
	norm("systemd[1234]: started", "systemd[N]: started");
	norm("Out of memory: Killed process 4242 (x) pid=4242",
	    "Out of memory: Killed process 4242 (x) pid=N");
	norm("audit: pid 77 comm x", "audit: pid N comm x");
	norm("IOAPIC[0]: apic_id 0", "IOAPIC[0]: apic_id 0");
	norm("xstate_offset[2]: 576", "xstate_offset[2]: 576");
	/* Rule 4: fractions and long counters; versions stay. */
	norm("tsc: Detected 2394.454 MHz processor",
	    "tsc: Detected # MHz processor");
	norm("Calibrating delay loop 4788.90 BogoMIPS (lpj=9577816)",
	    "Calibrating delay loop # BogoMIPS (lpj=#)");
	norm("timecounter: Timecounter \"TSC\" frequency 2394079440 Hz "
	     "quality 3000",
	    "timecounter: Timecounter \"TSC\" frequency # Hz quality 3000");
	norm("total memory = 32759 MB", "total memory = 32759 MB");
	norm("NetBSD 6.99.24 (GENERIC) #4", "NetBSD 6.99.24 (GENERIC) #4");
	norm("acpicpu0: T5: FFH, lat   1 us, pow   285 mW,  38 %",
	    "acpicpu0: T5: FFH, lat 1 us, pow 285 mW, 38 %");
	/* Rule 5: blanks. */
	norm("   a \t b   ", "a b");
	norm("[    1.000000]   ", "");
	norm("", "");
}

static void
test_normalise_real_logs(void **state)
{
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_error err;

	(void)state;
	/* root-after's log is root-base's with every timestamp changed,
	 * the TSC line gone and one line added: only those differ. */
	capture(DATA "root-base", NULL, &a);
	capture(DATA "root-after", NULL, &b);
	assert_int_equal(pr_env_diff(&a, &b, &d, &err), PR_OK);
	assert_true(d.log_compared);
	assert_int_equal(d.nlog_a, 1);
	assert_int_equal(d.nlog_b, 1);
	assert_string_equal(d.log_b[0],
	    "coretemp0 at cpu0: thermal sensor, 1 C resolution");
	pr_envdiff_release(&d);
	pr_env_release(&a);
	pr_env_release(&b);
}

static void
test_json_round_trip(void **state)
{
	struct pr_buf j1 = PR_BUF_INIT(1 << 24), j2 = PR_BUF_INIT(1 << 24);
	struct pr_env e, f;
	struct pr_error err;
	size_t i;

	(void)state;
	capture(DATA "root-base", NULL, &e);
	/* Values with quotes, newlines and UTF-8 survive. */
	assert_int_equal(pr_env_add(&e, "x.odd", "test",
			     "a \"quoted\"\n\ttab \xc3\xa9", NULL, &err),
	    PR_OK);
	/* Bytes that are not UTF-8 (a kernel log may hold any) become '?',
	 * so that the snapshot can still be written. */
	assert_int_equal(pr_env_add(&e, "x.bin", "test",
			     "a\xff b \xc3\xa9 \xed\xa0\x80 \xe2\x82", NULL,
			     &err),
	    PR_OK);
	assert_string_equal(pr_env_get(&e, "x.bin")->value,
	    "a? b \xc3\xa9 ??? ??");
	assert_int_equal(pr_env_to_json(&e, &j1, &err), PR_OK);
	pr_env_init(&f);
	assert_int_equal(pr_env_from_json(&f, j1.data, j1.len, "x.json", &err),
	    PR_OK);
	assert_int_equal(f.n, e.n);
	for (i = 0; i < e.n; i++) {
		assert_string_equal(f.items[i].key, e.items[i].key);
		assert_string_equal(f.items[i].category, e.items[i].category);
		if (e.items[i].value == NULL) {
			assert_null(f.items[i].value);
			assert_string_equal(f.items[i].reason,
			    e.items[i].reason);
		} else
			assert_string_equal(f.items[i].value, e.items[i].value);
	}
	assert_int_equal(pr_env_to_json(&f, &j2, &err), PR_OK);
	assert_string_equal(j1.data, j2.data);
	pr_env_release(&e);
	pr_env_release(&f);
	pr_buf_release(&j1);
	pr_buf_release(&j2);
}

static void
bad_json(const char *text, long line, const char *msg)
{
	struct pr_env e;
	struct pr_error err;

	pr_env_init(&e);
	assert_int_equal(pr_env_from_json(&e, text, strlen(text), "bad.json",
			     &err),
	    PR_EPARSE);
	assert_string_equal(err.file, "bad.json");
	assert_int_equal(err.line, line);
	assert_non_null(strstr(err.msg, msg));
	assert_int_equal(e.n, 0);
	assert_null(e.items);
}

static void
test_json_bad(void **state)
{
	(void)state;
	bad_json("{\n\"format\": \"perfreg-env\",\n\"version\": 1,\n\"items\": "
		 "[\n{\"key\": \"a\" \"category\": \"b\"}]}",
	    5, "not valid JSON");
	bad_json("", 1, "not valid JSON");
	bad_json("{\"metrics\": []}", 0, "not a perfreg environment");
	bad_json("{\"format\": \"perfreg-env\", \"version\": 2, \"items\": []}",
	    0, "version 2");
	bad_json("{\"format\": \"perfreg-env\", \"version\": 1, \"items\": "
		 "[{\"key\": \"a\", \"category\": \"c\"}]}",
	    0, "item 1");
	bad_json("{\"format\": \"perfreg-env\", \"version\": 1, \"items\": "
		 "[{\"key\": \"a\", \"category\": \"c\", \"value\": \"1\"}, "
		 "{\"key\": \"a\", \"category\": \"c\", \"value\": \"2\"}]}",
	    0, "appears twice");
	bad_json("{\"format\": \"perfreg-env\", \"version\": 1, \"items\": "
		 "[{\"key\": \"a\", \"category\": \"c\", \"value\": 1}]}",
	    0, "item 1");
}

static const struct pr_envdiff_item *
find(const struct pr_envdiff *d, const char *key, size_t *pos)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->items[i].key, key) == 0) {
			*pos = i;
			return &d->items[i];
		}
	fail_msg("no change of %s", key);
	return NULL;
}

static void
test_diff_ranking(void **state)
{
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_error err;
	const struct pr_envdiff_item *x;
	size_t i, pos, pflags, pgov, pmit, prel;
	int seen_other = 0;

	(void)state;
	capture(DATA "root-base", NULL, &a);
	capture(DATA "root-after", NULL, &b);
	assert_int_equal(pr_env_diff(&a, &b, &d, &err), PR_OK);
	assert_int_equal(d.n, 8);
	/* A new kernel first (review of session 15, finding 12: it was
	 * among the other changes, while the suite's configuration counts
	 * it), then the clock. */
	assert_string_equal(d.items[0].key, "kernel.release");
	assert_true(d.items[0].relevant);
	assert_string_equal(d.items[1].key, "clocksource.current");
	assert_string_equal(d.items[1].reason,
	    "clocksource changed from "
	    "kvm-clock to hpet: reading the time becomes a slow I/O access; "
	    "timing-heavy code slows down");
	x = find(&d, "cpu.flags", &pflags);
	assert_string_equal(x->detail, "-erms");
	assert_string_equal(x->reason,
	    "erms disappeared: the kernel's and "
	    "libc's copy routines take another path");
	x = find(&d, "cpu.vulnerabilities.spec_store_bypass", &pmit);
	assert_string_equal(x->reason,
	    "mitigation for spec_store_bypass "
	    "enabled: system calls and context switches cost more");
	x = find(&d, "cpu.microcode", &pos);
	assert_true(x->relevant);
	assert_true(pos > pmit);
	x = find(&d, "cpu.governor", &pgov);
	assert_string_equal(x->a, "unavailable: no cpufreq");
	assert_string_equal(x->b, "performance");
	x = find(&d, "kernel.release", &prel);
	assert_true(x->relevant);
	assert_int_equal(x->kind, PR_ENVDIFF_CHANGED);
	x = find(&d, "modules", &pos);
	assert_string_equal(x->detail, "+kvm");
	x = find(&d, "clocksource.available", &pos);
	assert_string_equal(x->detail, "+acpi_pm +hpet");
	assert_true(prel < pmit && pmit < pgov && pgov < pflags);
	/* Every relevant change before every other. */
	for (i = 0; i < d.n; i++) {
		if (!d.items[i].relevant)
			seen_other = 1;
		else
			assert_false(seen_other);
	}
	assert_string_equal(d.log_a[0],
	    "timecounter: Timecounter \"TSC\" "
	    "frequency # Hz quality 3000");
	pr_envdiff_release(&d);

	/* The command line: its performance options are named. */
	{
		struct pr_env c, e2;

		pr_env_init(&c);
		pr_env_init(&e2);
		assert_int_equal(pr_env_add(&c, "kernel.cmdline", "kernel",
				     "quiet root=/dev/sda1 mitigations=auto",
				     NULL, &err),
		    PR_OK);
		assert_int_equal(pr_env_add(&e2, "kernel.cmdline", "kernel",
				     "quiet root=/dev/sda1 mitigations=off "
				     "splash",
				     NULL, &err),
		    PR_OK);
		assert_int_equal(pr_env_diff(&c, &e2, &d, &err), PR_OK);
		assert_int_equal(d.n, 1);
		assert_true(d.items[0].relevant);
		assert_false(d.log_compared);
		assert_string_equal(d.items[0].detail,
		    "+mitigations=off +splash -mitigations=auto");
		assert_string_equal(d.items[0].reason,
		    "kernel command line "
		    "changed (+mitigations=off -mitigations=auto): boot "
		    "options (mitigations=, clocksource=, isolcpus=, "
		    "nohz...) change behaviour");
		pr_envdiff_release(&d);
		pr_env_release(&c);
		pr_env_release(&e2);
	}

	/* A snapshot against itself: nothing. */
	assert_int_equal(pr_env_diff(&a, &a, &d, &err), PR_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.nlog_a + d.nlog_b, 0);
	pr_envdiff_release(&d);

	/* Added and removed items. */
	assert_int_equal(pr_env_add(&b, "x.new", "test", "1", NULL, &err),
	    PR_OK);
	assert_int_equal(pr_env_add(&a, "x.old", "test", "1", NULL, &err),
	    PR_OK);
	assert_int_equal(pr_env_diff(&a, &b, &d, &err), PR_OK);
	assert_int_equal(find(&d, "x.new", &pos)->kind, PR_ENVDIFF_ADDED);
	assert_null(d.items[pos].a);
	assert_int_equal(find(&d, "x.old", &pos)->kind, PR_ENVDIFF_REMOVED);
	assert_null(d.items[pos].b);
	assert_int_equal(pos, d.n - 1);
	pr_envdiff_release(&d);
	pr_env_release(&a);
	pr_env_release(&b);
}

static void
test_diff_seed000(void **state)
{
	char *ta = slurp(DATA "seed000-6.99.24.dmesg");
	char *tb = slurp(DATA "seed000-6.99.27.dmesg");
	struct pr_buf out = PR_BUF_INIT(1 << 20);
	struct pr_env a, b;
	struct pr_envdiff d;
	struct pr_error err;

	(void)state;
	capture(DATA "root-missing", ta, &a);
	capture(DATA "root-missing", tb, &b);
	assert_int_equal(pr_env_diff(&a, &b, &d, &err), PR_OK);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.nlog_a, 2);
	assert_int_equal(d.nlog_b, 7);
	assert_int_equal(d.nrel_a, 1);
	assert_int_equal(d.nrel_b, 0);
	/* The vanished TSC timecounter comes first, though in the log it
	 * comes after the version line. */
	assert_string_equal(d.log_a[0],
	    "timecounter: Timecounter \"TSC\" "
	    "frequency # Hz quality 3000");
	assert_string_equal(d.log_a[1],
	    "NetBSD 6.99.24 (GENERIC) #4: Mon Oct 28 18:58:32 CET 2013");
	assert_string_equal(d.log_b[1],
	    "coretemp0 at cpu0: thermal sensor, 1 C resolution");
	assert_true(pr_env_log_line_relevant("clocksource: Switched to "
					     "clocksource hpet"));
	assert_false(pr_env_log_line_relevant("coretemp0 at cpu0"));

	/* The text form, capped at 2 log lines a side. */
	assert_int_equal(pr_envdiff_format_text(&d, "a", "b", 2, &out, &err),
	    PR_OK);
	assert_non_null(strstr(out.data, "2 lines only in A, 7 only in B"));
	assert_non_null(strstr(out.data, "\n  - timecounter: Timecounter"));
	assert_non_null(strstr(out.data, "\n  + ... and 5 more\n"));
	pr_buf_reset(&out);
	assert_int_equal(pr_envdiff_to_json(&d, &out, &err), PR_OK);
	assert_non_null(strstr(out.data, "\"only_a\": ["));
	assert_non_null(strstr(out.data, "\"timecounter:"));
	assert_true(strstr(out.data, "\"timecounter:") <
	    strstr(out.data, "\"NetBSD 6.99.24"));
	pr_envdiff_release(&d);
	pr_env_release(&a);
	pr_env_release(&b);
	pr_buf_release(&out);
	free(ta);
	free(tb);
}

/*
 * The process environment's variables that choose the libraries' code
 * (pr_env_process_vars): recorded as env.NAME when set, from what the
 * caller hands in (never from getenv), ranked as moving performance,
 * shown as "(unset)" on the side that lacks one, and escaped in text.
 */
static void
test_process_env(void **state)
{
	const char *const vars[] = { "PATH=/usr/bin",
		"OPENSSL_ia32cap=~0x200000200000000",
		"GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2_Usable\033[2J\nx",
		"OPENSSL_ia32cap=second", "LD_PRELOADX=1",
		"LD_PRELOAD=", "OPENSSL_armcap", NULL };
	struct pr_buf out = PR_BUF_INIT(1 << 20);
	const struct pr_env_item *it;
	struct pr_env_opts o;
	struct pr_env a, b, c;
	struct pr_envdiff d;
	struct pr_error err;
	size_t pos;

	(void)state;
	capture(DATA "root-base", NULL, &a);
	assert_null(pr_env_get(&a, "env.OPENSSL_ia32cap"));
	pr_env_opts_init(&o);
	o.root = DATA "root-base";
	o.run = fake_runner;
	o.libc = "2.36";
	o.compiler = "12.2.0";
	o.process_env = vars;
	pr_env_init(&b);
	assert_int_equal(pr_env_capture(&b, &o, &err), PR_OK);
	/* The first of a name, as getenv(3) takes it; set but empty is
	 * set; names are matched whole. */
	it = pr_env_get(&b, "env.OPENSSL_ia32cap");
	assert_non_null(it);
	assert_string_equal(it->value, "~0x200000200000000");
	assert_string_equal(it->category, "process");
	assert_string_equal(value(&b, "env.LD_PRELOAD"), "");
	assert_non_null(pr_env_get(&b, "env.GLIBC_TUNABLES"));
	assert_null(pr_env_get(&b, "env.PATH"));
	assert_null(pr_env_get(&b, "env.LD_PRELOADX"));
	assert_null(pr_env_get(&b, "env.OPENSSL_armcap"));
	assert_true(pr_env_key_rank("env.OPENSSL_ia32cap") >= 0);
	assert_true(pr_env_key_rank("env.GLIBC_TUNABLES") >= 0);

	/* Unset, then set: added, relevant, "(unset)" in its reason and
	 * its text. */
	assert_int_equal(pr_env_diff(&a, &b, &d, &err), PR_OK);
	assert_int_equal(d.n, 3);
	it = NULL;
	{
		const struct pr_envdiff_item *x =
		    find(&d, "env.OPENSSL_ia32cap", &pos);

		assert_int_equal(x->kind, PR_ENVDIFF_ADDED);
		assert_true(x->relevant);
		assert_null(x->a);
		assert_string_equal(x->reason,
		    "OPENSSL_ia32cap changed from (unset) to "
		    "~0x200000200000000: OpenSSL's capability mask chooses "
		    "which instructions (AES-NI, SHA, AVX...) its ciphers and "
		    "digests use");
		x = find(&d, "env.LD_PRELOAD", &pos);
		assert_string_equal(x->reason,
		    "LD_PRELOAD changed from (unset) to : code is interposed "
		    "on the program's library calls");
	}
	assert_int_equal(pr_envdiff_format_text(&d, "1", "2", 5, &out, &err),
	    PR_OK);
	assert_non_null(strstr(out.data,
	    "  env.OPENSSL_ia32cap  (unset) -> ~0x200000200000000\n"));
	/* The ESC and the newline from outside are shown, not sent. */
	assert_null(strchr(out.data, '\033'));
	assert_non_null(strstr(out.data, "-AVX2_Usable^[[2J^Jx"));
	pr_envdiff_release(&d);
	/* Set, then unset: removed, "(unset)" on B's side. */
	assert_int_equal(pr_env_diff(&b, &a, &d, &err), PR_OK);
	assert_int_equal(find(&d, "env.OPENSSL_ia32cap", &pos)->kind,
	    PR_ENVDIFF_REMOVED);
	pr_buf_reset(&out);
	assert_int_equal(pr_envdiff_format_text(&d, "2", "1", 5, &out, &err),
	    PR_OK);
	assert_non_null(strstr(out.data,
	    "  env.OPENSSL_ia32cap  ~0x200000200000000 -> (unset)\n"));
	pr_envdiff_release(&d);
	/* The snapshot's own text escapes them too; its JSON keeps them
	 * exactly. */
	pr_buf_reset(&out);
	assert_int_equal(pr_env_format_text(&b, &out, &err), PR_OK);
	assert_null(strchr(out.data, '\033'));
	assert_non_null(strstr(out.data, "[process]\n"));
	pr_buf_reset(&out);
	assert_int_equal(pr_env_to_json(&b, &out, &err), PR_OK);
	pr_env_init(&c);
	assert_int_equal(pr_env_from_json(&c, out.data, out.len, "b.json",
			     &err),
	    PR_OK);
	assert_string_equal(value(&c, "env.GLIBC_TUNABLES"),
	    "glibc.cpu.hwcaps=-AVX2_Usable\033[2J\nx");
	pr_env_release(&c);
	pr_env_release(&a);
	pr_env_release(&b);
	pr_buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture_base),
		cmocka_unit_test(test_capture_unavailable),
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_normalise_real_logs),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_bad),
		cmocka_unit_test(test_diff_ranking),
		cmocka_unit_test(test_diff_seed000),
		cmocka_unit_test(test_process_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
