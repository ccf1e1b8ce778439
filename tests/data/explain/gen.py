#!/usr/bin/python3
# tests/data/explain/gen.py - writes base.csv and new.csv, two sets of 12
# runs with a row a run, as `perfreg run --monitor` figures exported to
# CSV would be, with a planted cause: the child's context switches
# (mon.perf.context_switches) go from about 1,000 to about 3,000 a run
# and the wall time follows them run by run (wall_s = 0.5 + cs / 4000 +
# noise of sd 0.005 s: 0.75 s -> 1.25 s); user_s does not change; a
# timer (mon.irq.LOC) ticks 1,000 times a second of any run, so that its
# count follows the wall time without causing it; the machine's context
# switches (mon.stat.ctxt) are the child's plus 500 a second of other
# processes'.  Fixed seed; run it from this directory.
import random

rng = random.Random(13)
for name, cs_mean in (("base", 1000), ("new", 3000)):
    with open(name + ".csv", "w") as f:
        f.write("wall_s,user_s,mon.perf.context_switches,mon.irq.LOC,"
                "mon.stat.ctxt\n")
        for i in range(12):
            cs = round(cs_mean + rng.gauss(0, 100))
            wall = 0.5 + cs / 4000 + rng.gauss(0, 0.005)
            user = 0.3 + rng.gauss(0, 0.01)
            loc = round(1000 * wall + rng.gauss(0, 3))
            ctxt = cs + round(500 * wall + rng.gauss(0, 10))
            f.write("%.4f,%.4f,%d,%d,%d\n" % (wall, user, cs, loc, ctxt))

# runs-base.csv and runs-new.csv: the same shape as a plain CSV table of
# runs, a `run` column numbering the rows (src/parse/csv.c: a table of
# runs, so that compare explains wall_s by the other columns), without
# the monitors' names: the context switches (ctxsw) go from about 1,000
# to about 3,000 a run and the wall time follows them; user_s does not
# change; max_rss_kib is noise.  Its own seed, so that the files above
# stay as they were.
rng = random.Random(1313)
for name, cs_mean in (("runs-base", 1000), ("runs-new", 3000)):
    with open(name + ".csv", "w") as f:
        f.write("run,wall_s,user_s,ctxsw,max_rss_kib\n")
        for i in range(12):
            cs = round(cs_mean + rng.gauss(0, 100))
            wall = 0.5 + cs / 4000 + rng.gauss(0, 0.005)
            user = 0.3 + rng.gauss(0, 0.01)
            rss = round(20000 + rng.gauss(0, 50))
            f.write("%d,%.4f,%.4f,%d,%d\n" % (i + 1, wall, user, cs, rss))
