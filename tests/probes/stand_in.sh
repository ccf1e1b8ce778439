# tests/probes/stand_in.sh - sourced by the suite's CLI tests (cli_suite.sh,
# cli_suite_change.sh), after they set $tmp.
#
# A stand-in worker that hands back syscall's two figures, 8 samples
# each, the same in every session but for a factor (block F G: getppid's
# times F, clock_gettime's G), so that the tests check plans and formats
# on sessions whose values and paces do not depend on the machine.
block() {
	awk -v f="$1" -v g="$2" 'BEGIN { OFS = "\t"
		print "R", "syscall", "syscall", 8, 0.29, 0, 0, 1, 23.09, 0.0117, 0.174
		printf "M\tsyscall.getppid\tns/call\tlower"
		for (i = 0; i < 8; i++) printf "%s%.6g", (i ? " " : "\t"), 62 * f * (1 + 0.01 * i)
		print ""
		printf "M\tsyscall.clock_gettime\tns/call\tlower"
		for (i = 0; i < 8; i++) printf "%s%.6g", (i ? " " : "\t"), 16 * g * (1 + 0.01 * i)
		print ""
		print "E" }' > "$tmp/iblock"
}
printf '#!/bin/sh\ncat "%s"\n' "$tmp/iblock" > "$tmp/iworker"
chmod +x "$tmp/iworker"
