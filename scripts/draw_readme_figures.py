#!/usr/bin/env python3
"""Redraws the lab READMEs' drawings (docs/figures/draw/) with `grader check --draw`.

Each drawing is a common mistake made from the course solution by one exact replacement (or the
solution itself, where the README shows a pattern rather than a fault), drawn beside the solution:
    scripts/draw_readme_figures.py [--grader build/bin/grader]
Stops with the replacement's text when a solution no longer contains it.
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# (lab folder, kernel file, kernel drawn, figure name, [(text in the solution, replacement)]); a
# kernel drawn as "NAME-group" takes the drawing of the first work-group that differs from the
# solution's (the mistake shows in a later work-group).
FIGURES = [
    ("03-array-mult-reduce", "ArrayMultReduce.cl", "ArrayMultReduce", "03-missing-barrier",
     [("barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods", "")]),
    ("04-tree-reductions", "TreeReductions.cl", "reduce2_interleaved_strided", "04-strided-tree", []),
    ("05-multipass-reductions", "MultipassReductions.cl", "pairwise_pass-group", "05-loose-guard",
     [("if (i < active - s)", "if (i < active)")]),
    ("06-cascade-reduction", "CascadeDot.cl", "DotCascade", "06-barrier-inside-if",
     [("""        if (tid < s)
            scratch[tid] += scratch[tid + s];
        barrier(CLK_LOCAL_MEM_FENCE);           // this level is done before the next one reads it""",
       """        if (tid < s) {
            scratch[tid] += scratch[tid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }""")]),
    ("08-atomics-and-scan", "AtomicsScan.cl", "scan_blocks", "08-scan-up-sweep", []),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grader", default=str(ROOT / "build" / "bin" / "grader"))
    args = parser.parse_args()
    out = ROOT / "docs" / "figures" / "draw"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        for lab, kernel_file, kernel, name, replacements in FIGURES:
            text = (ROOT / "solutions" / lab / kernel_file).read_text()
            for old, new in replacements:
                if old not in text:
                    sys.exit(f"draw_readme_figures: solutions/{lab}/{kernel_file} no longer contains {old!r}")
                text = text.replace(old, new, 1)
            (work / "labs" / lab).mkdir(parents=True)
            (work / "labs" / lab / kernel_file).write_text(text)
            drawings = work / "drawings" / lab
            run = subprocess.run([args.grader, "check", "--dir", str(work / "labs"), lab[:2], "--draw", str(drawings)],
                                 capture_output=True, text=True)
            found = sorted(drawings.glob(f"{lab}-{kernel}*.svg"))
            svg = found[0] if found else drawings / f"{lab}-{kernel}.svg"
            if not svg.exists():
                sys.exit(f"draw_readme_figures: no drawing of {kernel}:\n{run.stdout}{run.stderr}")
            shutil.copyfile(svg, out / f"{name}.svg")
            print(out / f"{name}.svg")


if __name__ == "__main__":
    main()
