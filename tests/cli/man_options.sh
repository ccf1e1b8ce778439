#!/bin/sh
# tests/cli/man_options.sh PERFREG MANPAGE - the man page's option lists
# agree with the option tables of the binary.
#
# `perfreg --dump-options` prints every command's options ("suite ab\t-n"),
# from the same tables that parse them and write --help.  For every
# `.Ss perfreg CMD` section of the man page, the options its `.It Fl`
# items describe must be exactly those of CMD and its sub-commands (CMD
# diff, CMD run...), and every option of its synopsis (`.Op Fl`, `.Fl`
# lines) must be one of them.  A difference is printed, one line each,
# and fails the test.
set -u
PERFREG=$1
MAN=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

"$PERFREG" --dump-options >"$tmp/dump" || { echo "--dump-options failed"; exit 1; }
[ -s "$tmp/dump" ] || { echo "--dump-options printed nothing"; exit 1; }
# The table's options: "CMD OPTION", CMD the top-level command.
awk -F '\t' '{ split($1, w, " "); print w[1], $2 }' "$tmp/dump" |
    sort -u >"$tmp/table"

# The man page's: "CMD OPTION" for each .It Fl item (described) and
# each .Op Fl / .Fl line of the synopsis (named).
awk -v described="$tmp/described" -v named="$tmp/named" '
function opts(line, out,    n, w, i, j, f) {
	n = split(line, w, /[ \t]+/)
	for (i = 1; i < n; i++) {
		if (w[i] != "Fl")
			continue
		f = w[i + 1]
		gsub(/[,|]$/, "", f)
		if (f ~ /^-[A-Za-z0-9-]+$/)
			print cmd, "-" f > out
		else if (f ~ /^[A-Za-z0-9]+$/)
			for (j = 1; j <= length(f); j++)
				print cmd, "-" substr(f, j, 1) > out
	}
}
/^\.Sh / { cmd = ""; insyn = 0; next }
/^\.Ss perfreg / { cmd = $3; insyn = 1; next }
/^\.Ss / { cmd = ""; next }
cmd == "" { next }
/^\.It .*Fl / { insyn = 0; opts($0, described); next }
/^\.(Nm|Op|Fl|Cm|Ar|Oo|Oc|Ek|Bk)( |$)/ && insyn { opts($0, named); next }
/^\.Nm$/ && !insyn { next }
/^[^.]/ || /^\.(Pp|Bl|Ss)/ { insyn = 0 }
' "$MAN"
sort -u "$tmp/described" >"$tmp/man"
sort -u "$tmp/named" >"$tmp/syn"

fail=0
comm -23 "$tmp/table" "$tmp/man" | while read -r c o; do
	echo "man_options: perfreg $c $o is not described in $MAN"
done | tee "$tmp/missing"
comm -13 "$tmp/table" "$tmp/man" | while read -r c o; do
	echo "man_options: $MAN describes perfreg $c $o, which perfreg $c does not take"
done | tee "$tmp/extra"
comm -13 "$tmp/table" "$tmp/syn" | while read -r c o; do
	echo "man_options: the synopsis of perfreg $c in $MAN names $o, which it does not take"
done | tee "$tmp/synextra"
[ -s "$tmp/missing" ] || [ -s "$tmp/extra" ] || [ -s "$tmp/synextra" ] || exit 0
exit 1
