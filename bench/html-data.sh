#!/bin/sh
# bench/html-data.sh DIR [METRICS [RUNS]] - the data of the HTML benches
# (html-page.sh, html-write.sh): DIR/b.csv and DIR/n.csv, METRICS columns
# (default 1000) named metric_NNNN_ns and RUNS rows (default 10) each,
# values about 1000 +- 20 (a sum of 12 uniforms, seeded, so the same
# files every time), a third of the metrics (every third) 5% slower in
# n.csv.
set -eu
awk -v m="${2:-1000}" -v r="${3:-10}" -v out="$1" 'BEGIN {
	srand(17);
	for (j = 1; j <= m; j++) {
		printf "%smetric_%04d_ns", (j > 1 ? "," : ""), j > (out "/b.csv");
		printf "%smetric_%04d_ns", (j > 1 ? "," : ""), j > (out "/n.csv");
	}
	print "" > out "/b.csv"; print "" > out "/n.csv";
	for (i = 0; i < r; i++) {
		for (j = 1; j <= m; j++) {
			u = 0; for (k = 0; k < 12; k++) u += rand();
			v = 1000 + 20 * (u - 6);
			u = 0; for (k = 0; k < 12; k++) u += rand();
			w = (1000 + 20 * (u - 6)) * (j % 3 == 0 ? 1.05 : 1);
			printf "%s%.2f", (j > 1 ? "," : ""), v > (out "/b.csv");
			printf "%s%.2f", (j > 1 ? "," : ""), w > (out "/n.csv");
		}
		print "" > out "/b.csv"; print "" > out "/n.csv";
	}
}'
