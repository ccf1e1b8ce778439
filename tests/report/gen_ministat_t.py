#!/usr/bin/python3
"""Generates the Student t critical values that ministat prints with.

ministat uses a hard-coded table of two-sided critical values, rounded to
three decimals, indexed by df = n1 + n2 - 2 for df <= 100 and the normal
quantiles above.  Two quirks matter to anyone who wants to agree with its
printed figures: its "99.5%" column holds the 99.8% (one-sided 0.999)
values, and six entries of that column (df 7..12) are one unit off in the
third decimal.  This script does not copy the table: it computes the
quantiles with scipy, then measures the value the installed ministat
(Debian package ministat) actually uses for every df it can be made to
print (4 .. 100, and > 100) by running it on data of known pooled
standard deviation and dividing the printed "+/-" figure by the standard
error.  The measured value wins where the two disagree; df 1 .. 3 (which
ministat never uses, since it needs 3 values per file) take scipy's.

Output: tests/data/stat/ministat_t.txt, one line per df (1 .. 101, where
101 stands for every df above 100), six columns for 80 90 95 98 99 99.5,
and with --c the same as a C initialiser for src/report/stat.c.

Run: /usr/bin/python3 tests/report/gen_ministat_t.py [--c]
"""
import math
import os
import subprocess
import sys
import tempfile

from scipy.stats import norm, t as student

CONFS = [80, 90, 95, 98, 99, 99.5]


def upper_p(c):
    # ministat's 99.5 column is the 0.999 quantile (99.8% two-sided).
    return 0.999 if c == 99.5 else 1 - (1 - c / 100) / 2


def computed(df, c):
    if df > 100:
        return round(norm.ppf(upper_p(c)), 3)
    return round(student.ppf(upper_p(c), df), 3)


def var(x):
    m = sum(x) / len(x)
    return sum((v - m) ** 2 for v in x) / (len(x) - 1)


def measured(tmp, df, c):
    n1 = 3
    n2 = df + 2 - n1
    a = [0.0, 1.0, 2.0]
    b = [1000.0 + (i % 3) for i in range(n2)]
    pa, pb = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    with open(pa, "w") as f:
        f.write("".join("%r\n" % v for v in a))
    with open(pb, "w") as f:
        f.write("".join("%r\n" % v for v in b))
    out = subprocess.run(["ministat", "-A", "-c", str(c), pa, pb],
                         capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if "+/-" in l][0]
    e = float(line.split("+/-")[1])
    sp = math.sqrt(((n1 - 1) * var(a) + (n2 - 1) * var(b)) / (n1 + n2 - 2))
    t = e / (sp * math.sqrt(1 / n1 + 1 / n2))
    r = round(t, 3)
    assert abs(t - r) < 5e-5, (df, c, t)
    return r


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for df in range(1, 102):
            row = []
            for c in CONFS:
                v = computed(df, c)
                if df >= 4:
                    m = measured(tmp, 200 if df == 101 else df, c)
                    if m != v:
                        sys.stderr.write("df %d, %g%%: ministat uses %.3f, "
                                         "the quantile rounds to %.3f\n"
                                         % (df, c, m, v))
                    v = m
                row.append(v)
            rows.append(row)
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "..", "data", "stat", "ministat_t.txt")
    with open(out, "w") as f:
        f.write("# df t80 t90 t95 t98 t99 t99.5 (ministat's critical values;"
                " df 101 = above 100)\n")
        for df, row in enumerate(rows, 1):
            f.write("%d %s\n" % (df, " ".join("%.3f" % v for v in row)))
    if "--c" in sys.argv:
        for df, row in enumerate(rows, 1):
            print("\t{ %s }, /* %s */" % (", ".join("%.3f" % v for v in row),
                                         "df > 100" if df == 101 else
                                         "df %d" % df))


if __name__ == "__main__":
    main()
