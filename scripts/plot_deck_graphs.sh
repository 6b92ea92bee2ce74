#!/usr/bin/env bash
# Draws the deck's graphs (the PoCL and the GPU sweep it shows) from slides/data/ into OUT.
#   scripts/plot_deck_graphs.sh OUT
# The one place that names the sweeps the deck shows: `make graph-slides` and build-slides.sh call it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: plot_deck_graphs.sh OUT}"
python="${PYTHON:-/usr/bin/python3}"
for sweep in sweep-PoCL-2core-EPYC-2026-11-25.csv sweep-NVIDIA-H100-2026-11-26.csv; do
  "$python" "$root/scripts/plot_benchmark.py" "$root/slides/data/$sweep" --out "$out"
done
