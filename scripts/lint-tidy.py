#!/usr/bin/env python3
"""scripts/lint-tidy.py - runs clang-tidy (the checks in .clang-tidy) on
every C file under src/, in parallel, with the flags the dev preset's
compile_commands.json gives each file, and fails when any file has a
finding.

A file whose result is known is skipped: its key is a hash of the
clang-tidy version, .clang-tidy, its compile command and its preprocessed
text (which holds every header it includes and every macro), so that a
change anywhere the file can see runs it again, and a run where nothing
changed takes seconds.  The keys of clean files are kept under
BUILD/lint-cache/tidy; a file with findings is never recorded.

usage: lint-tidy.py BUILD_DIR JOBS
"""
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys


def entry_args(e):
    if "arguments" in e:
        return list(e["arguments"])
    return shlex.split(e["command"])


def preprocess_args(args, src):
    """The compile command turned into one that preprocesses to stdout."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            continue
        out.append(a)
    return out + ["-E", "-o", "-"]


def main():
    build, jobs = sys.argv[1], int(sys.argv[2])
    root = os.getcwd()
    with open(os.path.join(build, "compile_commands.json")) as f:
        db = json.load(f)
    version = subprocess.run(["clang-tidy", "--version"], check=True,
                             capture_output=True, text=True).stdout
    with open(".clang-tidy", "rb") as f:
        config = f.read()
    cache = os.path.join(build, "lint-cache", "tidy")
    os.makedirs(cache, exist_ok=True)
    srcdir = os.path.join(root, "src") + os.sep
    entries = {}
    for e in db:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if path.startswith(srcdir) and path.endswith(".c"):
            entries[path] = e

    def key_of(path, e):
        args = entry_args(e)
        pp = subprocess.run(preprocess_args(args, path), cwd=e["directory"],
                            capture_output=True)
        h = hashlib.sha256()
        for part in (version.encode(), config, " ".join(args).encode(),
                     pp.stdout, pp.stderr):
            h.update(hashlib.sha256(part).digest())
        return h.hexdigest()

    def check(path):
        e = entries[path]
        key = key_of(path, e)
        stamp = os.path.join(cache, key)
        if os.path.exists(stamp):
            return path, True, "", True
        r = subprocess.run(["clang-tidy", "-p", build, "--quiet", path],
                           capture_output=True, text=True)
        # clang-tidy prints "N warnings generated." on stderr even for
        # warnings in system headers that it then suppresses.
        out = "\n".join(l for l in (r.stdout + r.stderr).splitlines()
                        if not l.endswith(" warnings generated.") and
                        not l.endswith(" warning generated.") and
                        not l.startswith("Suppressed ") and
                        not l.startswith("Use -header-filter") and
                        l.strip())
        ok = r.returncode == 0 and "warning:" not in out and \
            "error:" not in out
        if ok:
            open(stamp, "w").close()
        return path, ok, out, False

    bad = cached = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for path, ok, out, hit in ex.map(check, sorted(entries)):
            cached += hit
            if not ok:
                bad += 1
                print(out if out else "%s: clang-tidy failed" % path)
    print("clang-tidy: %d files, %d unchanged since a clean run, %d with "
          "findings" % (len(entries), cached, bad))
    return 1 if bad or not entries else 0


if __name__ == "__main__":
    sys.exit(main())
