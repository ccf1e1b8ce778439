# round.awk - rounds every number with more than 10 significant digits in
# its input to 10, so that golden files of perfreg's CSV and JSON output
# (which carry 15 to 17 digits) do not change when a statistic moves in
# its last bits.  Figures are checked to full precision by the unit tests
# of the statistics; these golden files check the format.
{
	line = $0
	out = ""
	while (match(line, /-?[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?/)) {
		num = substr(line, RSTART, RLENGTH)
		digits = num
		sub(/[eE].*/, "", digits)
		gsub(/[^0-9]/, "", digits)
		sub(/^0+/, "", digits)
		if (length(digits) > 10)
			num = sprintf("%.10g", num + 0)
		out = out substr(line, 1, RSTART - 1) num
		line = substr(line, RSTART + RLENGTH)
	}
	print out line
}
