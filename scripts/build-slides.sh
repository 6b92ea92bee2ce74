#!/usr/bin/env bash
# Builds the lecture deck slides/lecture.tex into a PDF.
#   scripts/build-slides.sh [OUT]      (OUT: default build/slides/, as make slides, relative to the kit's root)
# 1. checks for latexmk and pdflatex, 2. extracts the marked code regions into OUT/listings/,
# 3. redraws the graphs from slides/data/ into OUT/figures/, 4. draws the solutions of labs 03 and 04
# as they ran (grader check --draw) into OUT/drawings/, 5. runs latexmk; prints the PDF's path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-build/slides}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
python="${PYTHON:-/usr/bin/python3}"

for tool in latexmk pdflatex; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "build-slides: '$tool' is not installed. Run 'scripts/setup.sh slides' (as root), or:" >&2
    echo "  sudo apt-get install latexmk texlive-latex-base texlive-latex-recommended texlive-latex-extra" >&2
    exit 1
  fi
done

mkdir -p "$out/listings" "$out/figures"
"$python" "$root/scripts/extract_slide_listings.py" --out "$out/listings"
PYTHON="$python" "$root/scripts/plot_deck_graphs.sh" "$out/figures"

# The drawings of the solutions as they ran (grader check --draw: lab 03's kernel at L = 16, lab
# 04's five rungs), as TikZ into OUT/drawings/. They need the built grader and Oclgrind.
grader="${GRADER:-$root/build/bin/grader}"
if [ ! -x "$grader" ]; then
  echo "build-slides: the deck's drawings need the grader: build the kit first (cmake --build --preset default)" >&2
  exit 1
fi
rm -rf "$out/drawings"
# Its exit status says whether every visible case passed; the drawings are checked below instead.
"$grader" check --dir "$root/solutions" 03 04 --draw "$out/drawings" >"$out/drawings.log" 2>&1 || true
for drawing in 03-array-mult-reduce-ArrayMultReduce 04-tree-reductions-reduce{1_interleaved_mod,2_interleaved_strided,3_sequential,4_first_add,5_unrolled}; do
  if [ ! -f "$out/drawings/$drawing.tex" ]; then
    grep -i "drawing" "$out/drawings.log" >&2 || tail -n 20 "$out/drawings.log" >&2
    echo "build-slides: grader check --draw did not draw $drawing; its output is $out/drawings.log" >&2
    exit 1
  fi
done

# The deck finds listings/ and figures/ through TEXINPUTS (OUT first), its parts in slides/.
cd "$root/slides"
export TEXINPUTS="$out:$root/slides:${TEXINPUTS:-}"
if ! latexmk -pdf -interaction=nonstopmode -halt-on-error -file-line-error \
      -outdir="$out" lecture.tex >"$out/latexmk.out" 2>&1; then
  tail -n 40 "$out/latexmk.out" >&2
  echo "build-slides: latexmk failed; the whole log is $out/lecture.log" >&2
  exit 1
fi
echo "$out/lecture.pdf"
