# tests/stats/gen_primary.R - reference values for tests/stats/test_primary.c:
# the two families of perfreg/primary.h, Holm over the primary metrics and
# Benjamini-Hochberg over the side metrics, by R's own p.adjust.
# Run: Rscript tests/stats/gen_primary.R > tests/stats/data/primary.txt
primary <- c(0.01, 0.04, 0.03)
side <- c(0.01, 0.02, 0.03, 0.5)
cat("# family p adjusted (R", R.version.string, ")\n")
h <- p.adjust(primary, "holm")
for (i in seq_along(primary)) cat(sprintf("holm %.17g %.17g\n", primary[i], h[i]))
b <- p.adjust(side, "BH")
for (i in seq_along(side)) cat(sprintf("bh %.17g %.17g\n", side[i], b[i]))
