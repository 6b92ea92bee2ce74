#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (choose the Ubuntu 24.04 base
# image): install the kit's packages and build the grader. The kit lies in /autograder/source.
set -euo pipefail
cd /autograder/source
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
cmake --build build -j "$(nproc)" --target grader
