#!/bin/sh
# Builds the fixture trees of tests/run/test_env.c from this machine's /proc
# and /sys (run once; the trees are committed):
#  root-base/   the files pr_env_capture reads, copied as they were on the
#               machine that made them (a VM: no cpufreq, no /proc/modules,
#               so a small modules file is written by hand), and its dmesg;
#  root-after/  root-base edited: clocksource kvm-clock -> hpet, the
#               spec_store_bypass changed from Vulnerable to a mitigation,
#               erms removed from the CPU flags, cpufreq present with
#               governor performance, module 'kvm' added, a microcode
#               version in sysfs (none in cpuinfo), another kernel
#               release, and a kernel log without the TSC line;
set -eu
cd "$(dirname "$0")"
rm -rf root-base root-after
b=root-base
for f in /proc/sys/kernel/ostype /proc/sys/kernel/osrelease \
    /proc/sys/kernel/version /proc/cmdline /proc/cpuinfo /proc/meminfo \
    /sys/devices/system/clocksource/clocksource0/current_clocksource \
    /sys/devices/system/clocksource/clocksource0/available_clocksource \
    /sys/devices/system/cpu/smt/control /sys/devices/system/node/online \
    /sys/kernel/mm/transparent_hugepage/enabled \
    /sys/kernel/mm/transparent_hugepage/defrag \
    /sys/devices/system/cpu/vulnerabilities/*; do
	mkdir -p "$b$(dirname "$f")"
	cat "$f" >"$b$f"
done
for s in kernel/sched_autogroup_enabled kernel/sched_child_runs_first \
    kernel/sched_rt_period_us kernel/sched_rt_runtime_us \
    kernel/numa_balancing kernel/randomize_va_space \
    kernel/perf_event_paranoid kernel/nmi_watchdog vm/swappiness \
    vm/overcommit_memory vm/dirty_ratio vm/dirty_background_ratio \
    vm/zone_reclaim_mode net/core/somaxconn net/core/rmem_max \
    net/core/wmem_max net/core/busy_poll net/core/default_qdisc; do
	[ -r /proc/sys/$s ] || continue
	mkdir -p "$b/proc/sys/$(dirname $s)"
	cat /proc/sys/$s >"$b/proc/sys/$s"
done
mkdir -p $b/sys/devices/system/cpu/cpu0 $b/sys/devices/system/cpu/cpu1
printf 'ext4 1015808 2 - Live 0xffffffffc0a5d000\nmbcache 16384 1 ext4, Live 0x0000000000000000\n' >$b/proc/modules
dmesg | head -60 >$b/dmesg
printf '[    0.512345] clocksource: Switched to clocksource tsc\n[    0.612345] timecounter: Timecounter "TSC" frequency 2394079440 Hz quality 3000\n' >>$b/dmesg

cp -r root-base root-after
a=root-after
echo hpet >$a/sys/devices/system/clocksource/clocksource0/current_clocksource
echo 'acpi_pm hpet kvm-clock' >$a/sys/devices/system/clocksource/clocksource0/available_clocksource
echo 'Mitigation: Speculative Store Bypass disabled via prctl' \
    >$a/sys/devices/system/cpu/vulnerabilities/spec_store_bypass
sed -i 's/ erms / /' $a/proc/cpuinfo
for c in 0 1; do
	mkdir -p $a/sys/devices/system/cpu/cpu$c/cpufreq
	echo performance >$a/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor
done
printf 'kvm 1200000 0 - Live 0xffffffffc0b00000\n' >>$a/proc/modules
mkdir -p $a/sys/devices/system/cpu/cpu0/microcode
echo 0xa0011d1 >$a/sys/devices/system/cpu/cpu0/microcode/version
echo 6.19.0-test >$a/proc/sys/kernel/osrelease
grep -v 'Timecounter "TSC"' root-base/dmesg | sed 's/^\[ *\([0-9]*\)\.\([0-9]*\)\]/[    9.\2]/' >$a/dmesg
echo '[    1.000000] coretemp0 at cpu0: thermal sensor, 1 C resolution' >>$a/dmesg

# The snapshots of the golden cases tests/cli/cases/env-diff-*: made from
# the trees above (and from the two kernel logs of seed 000, the dmesg
# diff of its report split into its before and after sides), without
# tools, by a built perfreg ($PERFREG).
PERFREG=${PERFREG:-../../../build/dev/perfreg}
"$PERFREG" env --json --no-tools --root root-base >base.json
"$PERFREG" env --json --no-tools --root root-after >after.json
tmp=$(mktemp -d)
for v in 24 27; do
	mkdir -p "$tmp/$v"
	cp seed000-6.99.$v.dmesg "$tmp/$v/dmesg"
	"$PERFREG" env --json --no-tools --root "$tmp/$v" >seed000-6.99.$v.json
done
rm -rf "$tmp"
