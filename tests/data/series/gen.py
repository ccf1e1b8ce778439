#!/usr/bin/python3
"""Writes the series of tests/data/series (fixed seed), for
tests/cli/cli_changepoints.sh and the fuzz target's seeds.
Run from the repository root: /usr/bin/python3 tests/data/series/gen.py"""
import numpy as np

r = np.random.default_rng(14)
d = 'tests/data/series/'
y = r.normal(250, 2, 80)
y[50:] *= 1.06
open(d + 'step.txt', 'w').write(
    '# wall time (ms) of 80 nightly runs; 6% slower from run 51\n' +
    ''.join('%.3f\n' % v for v in y))
y = r.normal(1.8e9, 1.5e7, 60)
y[35:] *= 0.9
y[20] = 2.6e9
open(d + 'throughput.csv', 'w').write(
    'date,commit,bytes_per_s\n' +
    ''.join('2026-%02d-%02d,c%04x,%.0f\n' % (1 + i // 28, 1 + i % 28,
                                             0x1000 + i, v)
            for i, v in enumerate(y)))
y = r.normal(40, 0.4, 100)
open(d + 'flat.txt', 'w').write(''.join('%.4f\n' % v for v in y))
y = r.normal(12, 0.05, 42)
y[40:] += 0.6
open(d + 'tail.txt', 'w').write(''.join('%.4f\n' % v for v in y))
y = r.normal(5, 0.05, 30)
y[15:] += 1
labs = ['=cmd|\' /C calc\'!A0', '\x1b[2Jclear', 'a|b', '+1', 'ok'] * 6
open(d + 'hostile.csv', 'w').write(
    'label,value\n' + ''.join('%s,%.4f\n' % (lab, v)
                              for lab, v in zip(labs, y)))
