#!/bin/sh
# stat_vs_ministat.sh PERFREG - runs ministat (Debian package ministat) and
# `perfreg stat` on the same inputs and compares their first blocks.
#
# Compared, per case: the N, Min, Max, Avg and Stddev of every file (the
# Median too when N is odd: for an even N perfreg averages the middle pair
# where ministat takes the upper value), ministat's verdict lines
# ("Difference at C% confidence" with its three lines of figures, or "No
# difference proven at C% confidence"), and for one or two files the plot:
# the frame, the bar line(s) when every N is odd (the M marker follows the
# median), and the rows of symbols, where ministat's rows must be the
# bottom rows of perfreg's (ministat cuts a stack off at the height of the
# last file's tallest one; perfreg does not).
#
# Inputs: the seeds' numbers (tests/data/stat), ministat's manual example,
# and random data sets written here with fixed seeds: normal noise at
# several means, spreads and sizes (3 to 70 values, so the degrees of
# freedom reach past ministat's table of 100), every confidence level, and
# two- and three-column files read with -C and -d.
set -u
PERFREG=$1
DATA=tests/data/stat
export LC_ALL=C

if ! command -v ministat >/dev/null 2>&1; then
	echo "stat_vs_ministat: ministat is not installed" \
	    "(apt-get install ministat)" >&2
	exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
cases=0
rounding=0
scaled=0

# figures FILE: the first block's figures, one per line, from a report.
figures() {
	awk '
	/^$/ { exit }			# perfreg'"'"'s own lines follow
	/^    N +Min +Max +Median +Avg +Stddev$/ { table = 1; next }
	table && /^. +[0-9]+ / {
		med = ($2 % 2 == 1) ? $5 : "(even)"
		print "file", $1, "N=" $2, "min=" $3, "max=" $4, \
		    "median=" med, "avg=" $6, "stddev=" $7
		next
	}
	table && /^(Difference at|No difference proven at)/ { print; next }
	table && /^\t/ { print; next }
	' "$1"
}

# plot FILE: the plot, each line tagged with its kind (frame, row, bar).
plot() {
	awk '
	/^\+-*\+$/ { n++; print "frame", $0; if (n == 2) exit; next }
	n == 1 && /[AM]/ && /\|.*[|_AM].*\|/ && !/[^|_AM ]/ { print "bar", $0; next }
	n == 1 { print "row", $0 }
	' "$1"
}

# values FILE COLUMN DELIMS: the numbers ministat reads from FILE, one a
# line (strtok's rules: runs of delimiters separate, '#' ends the line).
values() {
	awk -v col="$2" -v delims="$3" '
	BEGIN { re = "[" delims "]+" }
	{
		n = split($0, f, re)
		k = 0
		for (i = 1; i <= n; i++) {
			if (f[i] == "")
				continue
			if (substr(f[i], 1, 1) == "#")
				break
			if (++k == col) {
				print f[i]
				break
			}
		}
	}' "$1"
}

# exact CONF COLUMN DELIMS FILE...: the figures computed exactly (bc, 40
# decimals) and formatted as ministat formats them, as figures() lists them.
exact() {
	conf=$1 col=$2 delims=$3
	shift 3
	tcol=$(awk -v c="$conf" 'BEGIN {
		split("80 90 95 98 99 99.5", l, " ")
		for (i = 1; i <= 6; i++) if (l[i] + 0 == c + 0) print i + 1 }')
	k=0
	for f in "$@"; do
		k=$((k + 1))
		values "$f" "$col" "$delims" | sort -g >"$tmp/v$k"
		n=$(wc -l <"$tmp/v$k")
		# mean and variance, exactly, then their roots to 40 places.
		{
			echo "scale=40; s=0; q=0"
			sed 's/^/s+=/' "$tmp/v$k"
			echo "m=s/$n"
			sed 's/.*/q+=(&-m)^2/' "$tmp/v$k"
			echo "m; q/($n-1); sqrt(q/($n-1))"
		} | BC_LINE_LENGTH=0 bc >"$tmp/e$k"
		eval "n$k=$n"
		eval "m$k=$(sed -n 1p "$tmp/e$k")"
		eval "q$k=$(sed -n 2p "$tmp/e$k")"
		min=$(head -n 1 "$tmp/v$k")
		max=$(tail -n 1 "$tmp/v$k")
		if [ $((n % 2)) -eq 1 ]; then
			med=$(printf '%.8g' "$(sed -n "$((n / 2 + 1))p" "$tmp/v$k")")
		else
			med="(even)"
		fi
		sym=$(echo "x + * % # @ O" | cut -d ' ' -f $k)
		printf 'file %s N=%d min=%.8g max=%.8g median=%s avg=%.8g stddev=%.8g\n' \
		    "$sym" "$n" "$min" "$max" "$med" "$(sed -n 1p "$tmp/e$k")" \
		    "$(sed -n 3p "$tmp/e$k")"
		[ $k -gt 1 ] || continue
		df=$((n1 + n - 2))
		[ $df -le 100 ] || df=101
		t=$(awk -v df=$df -v c=$tcol '$1 == df { print $c }' \
		    "$DATA/ministat_t.txt")
		eval "mk=\$m$k qk=\$q$k"
		echo "scale=40; d=$mk-($m1); sp=sqrt((($n1-1)*($q1)+($n-1)*($qk))/($n1+$n-2))
		    e=$t*sp*sqrt(1/$n1+1/$n); d; e; d*100/($m1); e*100/($m1); sp
		    if (d < 0) d=-d; d > e" | BC_LINE_LENGTH=0 bc >"$tmp/r"
		if [ "$(sed -n 6p "$tmp/r")" = 1 ]; then
			printf 'Difference at %.1f%% confidence\n' "$conf"
			printf '\t%g +/- %g\n' "$(sed -n 1p "$tmp/r")" \
			    "$(sed -n 2p "$tmp/r")"
			printf '\t%g%% +/- %g%%\n' "$(sed -n 3p "$tmp/r")" \
			    "$(sed -n 4p "$tmp/r")"
			printf "\t(Student's t, pooled s = %g)\n" \
			    "$(sed -n 5p "$tmp/r")"
		else
			printf 'No difference proven at %.1f%% confidence\n' \
			    "$conf"
		fi
	done
}

# agree M P X: every figure of perfreg's (P) is ministat's (M) or the exact
# one (X) as printed, and, as a check that the same figure is compared,
# ministat's lies within 1e-5 (table) or 1e-4 (verdict lines) of perfreg's:
# ministat's running sum of squares loses more than the last digit when
# the values share a large offset.  Lines and words must match one for
# one.
agree() {
	paste -d '\n' "$1" "$2" "$3" | awk '
	function abs(v) { return v < 0 ? -v : v }
	NR % 3 == 1 { m = $0; next }
	NR % 3 == 2 { p = $0; next }
	{
		x = $0
		gsub(/[=%()]/, " ", m); gsub(/[=%()]/, " ", p)
		gsub(/[=%()]/, " ", x)
		nm = split(m, fm, /[ \t]+/); np = split(p, fp, /[ \t]+/)
		nx = split(x, fx, /[ \t]+/)
		if (nm != np || np != nx) exit 1
		tol = (m ~ /^file/) ? 1e-5 : 1e-4
		for (i = 1; i <= np; i++) {
			if (fp[i] == fm[i]) continue
			if (fp[i] != fx[i]) exit 1
			a = fm[i] + 0; b = fp[i] + 0
			big = abs(a) > abs(b) ? abs(a) : abs(b)
			if (abs(a - b) > tol * big) exit 1
		}
	}
	END { if (NR % 3 != 0) exit 1 }'
}

# check NAME ARGS...: one case.  The figures must be ministat's or, where
# the last digits of either are off (ministat's mean is a plain running
# sum, its variance the one-pass sum of squares; both programs round a
# difference of rounded means), each figure that differs must be the
# exact one (bc), as agree() says.
check() {
	name=$1
	shift
	cases=$((cases + 1))
	if ! ministat "$@" >"$tmp/m.out" 2>"$tmp/m.err"; then
		echo "FAIL $name: ministat failed: $(cat "$tmp/m.err")" >&2
		fail=1
		return
	fi
	if ! "$PERFREG" stat "$@" >"$tmp/p.out" 2>"$tmp/p.err"; then
		echo "FAIL $name: perfreg stat failed: $(cat "$tmp/p.err")" >&2
		fail=1
		return
	fi
	figures "$tmp/m.out" >"$tmp/m.fig"
	figures "$tmp/p.out" >"$tmp/p.fig"
	if ! [ -s "$tmp/m.fig" ]; then
		echo "FAIL $name: no figures found in ministat's output" >&2
		fail=1
		return
	fi
	if ! cmp -s "$tmp/m.fig" "$tmp/p.fig"; then
		conf=95 col=1 delims=' 	'
		while getopts AC:c:d:nsw: opt; do
			case $opt in
			C) col=$OPTARG ;;
			c) conf=$OPTARG ;;
			d) delims=$OPTARG ;;
			esac
		done
		shift $((OPTIND - 1))
		OPTIND=1
		if ! command -v bc >/dev/null 2>&1; then
			echo "FAIL $name: figures differ, and bc is needed to" \
			    "tell which is exact (apt-get install bc)" >&2
			diff -u "$tmp/m.fig" "$tmp/p.fig" >&2
			fail=1
			return
		fi
		exact "$conf" "$col" "$delims" "$@" >"$tmp/x.fig"
		if [ "$(wc -l <"$tmp/m.fig")" -eq "$(wc -l <"$tmp/x.fig")" ] &&
		    agree "$tmp/m.fig" "$tmp/p.fig" "$tmp/x.fig"; then
			rounding=$((rounding + 1))
		else
			echo "FAIL $name: figures differ (ministat $*):" >&2
			diff -u "$tmp/m.fig" "$tmp/p.fig" >&2
			echo "exact:" >&2
			cat "$tmp/x.fig" >&2
			fail=1
		fi
		set -- -c "$conf" "$@"
	fi
	compare_plots "$name" "$@"
}

# compare_plots NAME ARGS...: for one or two files with a plot.
compare_plots() {
	name=$1
	shift
	grep -q '^+-' "$tmp/m.out" || return 0
	nfiles=$(grep -c '^. +[0-9]* ' "$tmp/m.out")
	[ "$nfiles" -le 2 ] || return 0
	plot "$tmp/m.out" >"$tmp/m.plot"
	plot "$tmp/p.out" >"$tmp/p.plot"
	grep '^frame' "$tmp/m.plot" >"$tmp/m.part"
	grep '^frame' "$tmp/p.plot" >"$tmp/p.part"
	if ! cmp -s "$tmp/m.part" "$tmp/p.part"; then
		echo "FAIL $name: plot frames differ (ministat $*)" >&2
		fail=1
	fi
	# ministat's rows are the bottom rows of perfreg's, unless perfreg
	# scaled a stack taller than its limit (it says so under the plot).
	if grep -q '^(one symbol stands for up to [0-9]* values)$' \
	    "$tmp/p.out"; then
		scaled=$((scaled + 1))
		return 0
	fi
	grep '^row' "$tmp/m.plot" >"$tmp/m.part"
	grep '^row' "$tmp/p.plot" >"$tmp/p.part"
	mr=$(wc -l <"$tmp/m.part")
	if [ "$mr" -eq 0 ] ||
	    ! tail -n "$mr" "$tmp/p.part" | cmp -s - "$tmp/m.part"; then
		echo "FAIL $name: plot rows differ (ministat $*):" >&2
		tail -n "$mr" "$tmp/p.part" | diff -u "$tmp/m.part" - >&2
		fail=1
	fi
	grep -q '(even)' "$tmp/m.fig" && return 0
	grep '^bar' "$tmp/m.plot" >"$tmp/m.part"
	grep '^bar' "$tmp/p.plot" >"$tmp/p.part"
	if ! [ -s "$tmp/m.part" ] || ! cmp -s "$tmp/m.part" "$tmp/p.part"
	then
		echo "FAIL $name: plot bars differ (ministat $*):" >&2
		diff -u "$tmp/m.part" "$tmp/p.part" >&2
		fail=1
	fi
}

# gen FILE SEED N MEAN SD [COLUMNS DELIM]: normal values, 4 decimals; with
# COLUMNS > 1 the value is in column 2 of COLUMNS, split by DELIM.
gen() {
	awk -v seed="$2" -v n="$3" -v mean="$4" -v sd="$5" \
	    -v cols="${6:-1}" -v delim="${7:- }" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) {
			u = rand(); v = rand()
			if (u < 1e-12)
				u = 1e-12
			x = mean + sd * sqrt(-2 * log(u)) * cos(6.283185307179586 * v)
			if (cols == 1) {
				printf "%.10g\n", x
				continue
			}
			if (i % 7 == 3)
				print "# a comment"
			printf "%d%s%.10g", i + 1, delim, x
			for (c = 3; c <= cols; c++)
				printf "%s%d", delim, i * c
			printf "\n"
		}
	}' >"$1"
}

# The seeds and ministat's manual example.
check iguana -s -w 60 "$DATA/iguana.txt" "$DATA/chameleon.txt"
check iguana-80 -c 80 -w 60 "$DATA/iguana.txt" "$DATA/chameleon.txt"
check seed002-sys "$DATA/002-sys-threaded.txt" "$DATA/002-sys-tasklet.txt"
check seed002-elapsed "$DATA/002-elapsed-threaded.txt" \
    "$DATA/002-elapsed-tasklet.txt"
check seed002-sys-90 -c 90 "$DATA/002-sys-threaded.txt" \
    "$DATA/002-sys-tasklet.txt"
check seed003-user "$DATA/003-user-before.txt" "$DATA/003-user-after.txt"
check seed003-user-99.5 -c 99.5 "$DATA/003-user-before.txt" \
    "$DATA/003-user-after.txt"
check seed003-elapsed "$DATA/003-elapsed-before.txt" \
    "$DATA/003-elapsed-after.txt"
check seed003-csv -C 2 -d , "$DATA/before.csv" "$DATA/after.csv"
check ties "$DATA/ties-400.txt"
check many -A "$DATA/many-1.txt" "$DATA/many-2.txt" "$DATA/many-3.txt" \
    "$DATA/many-4.txt" "$DATA/many-5.txt" "$DATA/many-6.txt" \
    "$DATA/many-7.txt"

# Random data sets: every confidence level, sizes on both sides of
# ministat's table (df <= 100 and above), some differences real, some not.
confs="80 90 95 98 99 99.5"
i=0
for sizes in "3 3" "4 4" "5 9" "7 7" "10 12" "33 31" "60 70" "6 40"; do
	set -- $sizes
	for c in $confs; do
		i=$((i + 1))
		shift_pct=$(( (i % 4) * 2 ))
		gen "$tmp/a" $((i * 7 + 1)) "$1" 100 3
		gen "$tmp/b" $((i * 7 + 2)) "$2" $((100 + shift_pct)) 3
		check "random-$i" -c "$c" "$tmp/a" "$tmp/b"
	done
done
# Other scales and spreads, -s, -w, -A.
gen "$tmp/a" 901 15 0.00123 0.00004
gen "$tmp/b" 902 17 0.00119 0.00004
check small-values -s "$tmp/a" "$tmp/b"
gen "$tmp/a" 903 9 2500000 40000
gen "$tmp/b" 904 11 2440000 40000
check large-values -w 100 "$tmp/a" "$tmp/b"
gen "$tmp/a" 905 25 -40 6
gen "$tmp/b" 906 25 -43 6
check negative -c 98 "$tmp/a" "$tmp/b"
gen "$tmp/a" 907 13 50 10
gen "$tmp/b" 908 13 50 10
gen "$tmp/c" 909 13 60 10
check three-files -A -c 90 "$tmp/a" "$tmp/b" "$tmp/c"
# Values with a large common offset: ministat's one-pass variance loses its
# last digits here, so these exercise the comparison with the exact
# figures.
for s in 38 39 40; do
	gen "$tmp/a" $((s * 2)) 20 10000 0.5
	gen "$tmp/b" $((s * 2 + 1)) 20 10000.3 0.5
	check "offset-$s" "$tmp/a" "$tmp/b"
done
# Columns and delimiters.
gen "$tmp/a" 911 21 10 1 3 ,
gen "$tmp/b" 912 19 11 1 3 ,
check csv-column -C 2 -d , "$tmp/a" "$tmp/b"
gen "$tmp/a" 913 15 10 1 2 :
gen "$tmp/b" 914 15 10.5 1 2 :
check colon-column -C 2 -d ': ' -c 80 "$tmp/a" "$tmp/b"
gen "$tmp/a" 915 11 3 0.2 3 "	"
gen "$tmp/b" 916 11 3.3 0.2 3 "	"
check tab-column -C 3 "$tmp/a" "$tmp/b"
# Standard input.
gen "$tmp/a" 917 9 5 1
cases=$((cases + 1))
ministat -n <"$tmp/a" >"$tmp/m.out"
"$PERFREG" stat -n <"$tmp/a" >"$tmp/p.out"
figures "$tmp/m.out" >"$tmp/m.fig"
figures "$tmp/p.out" >"$tmp/p.fig"
if ! [ -s "$tmp/m.fig" ] || ! cmp -s "$tmp/m.fig" "$tmp/p.fig" ||
    ! grep -q '^x <stdin>$' "$tmp/p.out"; then
	echo "FAIL stdin: figures or legend differ" >&2
	diff -u "$tmp/m.fig" "$tmp/p.fig" >&2
	fail=1
fi

if [ $fail -ne 0 ]; then
	echo "stat_vs_ministat: some of $cases cases differ" >&2
	exit 1
fi
echo "stat_vs_ministat: $cases cases agree with ministat" \
    "($rounding where the last digits differ and perfreg's are exact;" \
    "$scaled scaled plots)"
