#!/bin/sh
# Builds the optimised perfreg binary as build/release/perfreg.
set -eu
cd "$(dirname "$0")/.."
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" >/dev/null
