#!/usr/bin/python3
"""Draws the kit's performance graphs from the reduction benchmark's CSV (and thrust's rows).

  scripts/plot_benchmark.py SWEEP.csv [--thrust THRUST.csv] --out DIR

Writes four graphs, each as PNG and SVG, named <device>-<date>-<graph>:
  slide-wg32  the lecture's graph: ArrayMultReduce at work-group size 32, GNum/s vs MegaNumbers (the
              kernel as the slide times it, and to the total on the host where the sweep has it), with
              the best any reduction can do at each N, min(roof, N / floor), where the sweep has the
              "Latency floor" (an empty launch and a 4-byte read) and "StreamRead roof" rows
  by-wg       one curve per work-group size
  vs-wg       GNum/s vs work-group size, one curve per array size
  kernels     the kit's kernels against the streaming roof and the CPU (and CUDA) baselines, each to
              its total (lab 03 with its partials read back and added, where the sweep has that row),
              and the roof followed by reading one result back, where the sweep has that row
"""
import argparse
import collections
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "reduction-kit"  # the same data draws the same SVG, byte for byte
import matplotlib.pyplot as plt  # noqa: E402

# Lab 03's kernel with the partials read back and added on the host (the benchmark's second lab 03 row).
WHOLE_LAB03 = "ArrayMultReduce + host sum"
COLUMNS = ["device", "platform", "driver", "compute_units", "date", "kernel", "elements", "local", "groups",
           "best_s", "median_s", "gnums_best", "gnums_median", "gbytes_per_s"]


def read_rows(path):
    with open(path, newline="") as f:
        text = f.read().splitlines()
    if not text:
        sys.exit(f"{path}: empty file")
    if text[0].startswith("device,"):
        text = text[1:]
    rows = []
    for number, fields in enumerate(csv.reader(text), start=2):
        if len(fields) != len(COLUMNS):
            sys.exit(f"{path}:{number}: expected {len(COLUMNS)} fields, found {len(fields)}")
        row = dict(zip(COLUMNS, fields))
        for key in ("elements", "local", "groups", "compute_units"):
            row[key] = int(row[key])
        for key in ("best_s", "median_s", "gnums_best", "gnums_median", "gbytes_per_s"):
            row[key] = float(row[key])
        rows.append(row)
    return rows


def mega(n):
    return n / 1e6


def best_possible(rows):
    """[(N, GNum/s)] drawing min(roof, N / floor), with the roof and the floor; the roof is the best
    StreamRead rate of the sweep, the floor the best empty launch + 4-byte read. [] without them."""
    roof = max((r["gnums_best"] for r in rows if r["kernel"] == "StreamRead roof"), default=0)
    floor = min((r["best_s"] for r in rows if r["kernel"] == "Latency floor"), default=0)
    if roof <= 0 or floor <= 0:
        return [], 0, 0
    # A straight line from the origin to the corner, where N / floor meets the roof, then flat.
    corner = roof * 1e9 * floor
    largest = max(r["elements"] for r in rows)
    sizes = [0, corner] + ([largest] if largest > corner else [])
    return [(n, min(roof, n / floor / 1e9)) for n in sizes], roof, floor


def draw_best_possible(ax, rows):
    points, roof, floor = best_possible(rows)
    if points:
        ax.plot([mega(n) for n, _ in points], [g for _, g in points], "k:", linewidth=1.5,
                label=f"best possible: min(roof {roof:.0f}, N / floor {floor * 1e6:.1f} us)")
    return bool(points)


def save(fig, out, stem):
    for ext in ("png", "svg"):
        # No creation date or software version in the files: redrawing unchanged data changes nothing.
        metadata = {"Date": None} if ext == "svg" else {"Software": None}
        fig.savefig(os.path.join(out, f"{stem}.{ext}"), dpi=150, bbox_inches="tight", metadata=metadata)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sweep")
    parser.add_argument("--thrust", help="thrust::inner_product rows from bench/thrust_dot.cu")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rows = read_rows(args.sweep)
    thrust = read_rows(args.thrust) if args.thrust else []
    os.makedirs(args.out, exist_ok=True)
    device, date = rows[0]["device"], rows[0]["date"]
    label = f"{device} ({rows[0]['platform']}), {date}"
    stem = re.sub(r"[^A-Za-z0-9]+", "-", f"{device}-{date}").strip("-")

    lab03 = collections.defaultdict(list)  # work-group size -> [(N, GNum/s)], the kernel as the slide times it
    lab03_whole = collections.defaultdict(list)  # the same runs to the total on the host
    for r in rows:
        if r["kernel"] == "ArrayMultReduce":
            lab03[r["local"]].append((r["elements"], r["gnums_best"]))
        if r["kernel"] == WHOLE_LAB03:
            lab03_whole[r["local"]].append((r["elements"], r["gnums_best"]))
    if 32 not in lab03:
        sys.exit(f"{args.sweep}: no ArrayMultReduce rows at work-group size 32 (the lecture's graph)")

    # 1. The slide's graph.
    fig, ax = plt.subplots(figsize=(7, 4.5))
    points = sorted(lab03[32])
    ax.plot([mega(n) for n, _ in points], [g for _, g in points], "o-", color="tab:blue", label="ArrayMultReduce, L = 32")
    whole = sorted(lab03_whole.get(32, []))
    if whole:
        ax.plot([mega(n) for n, _ in whole], [g for _, g in whole], "o--", markersize=3, color="tab:cyan",
                label="the same, + reading the partials back and adding them")
    if draw_best_possible(ax, rows) or whole:
        ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"Reduction Performance, Work-Group Size = 32\n{label}", fontsize=10)
    ax.set_xlabel("Array Size (MegaNumbers)")
    ax.set_ylabel("GigaNumbers Multiplied and Reduced Per Second")
    ax.set_xlim(0, max(300, mega(points[-1][0]) * 1.05))
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    save(fig, args.out, f"{stem}-slide-wg32")

    # 2. One curve per work-group size.
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for local in sorted(lab03):
        points = sorted(lab03[local])
        ax.plot([mega(n) for n, _ in points], [g for _, g in points], "o-", markersize=3, label=f"L = {local}")
    ax.set_title(f"ArrayMultReduce by work-group size\n{label}", fontsize=10)
    ax.set_xlabel("Array Size (MegaNumbers)")
    ax.set_ylabel("GigaNumbers Multiplied and Reduced Per Second")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, args.out, f"{stem}-by-wg")

    # 3. Against the work-group size, one curve per array size.
    by_size = collections.defaultdict(list)
    for local, points in lab03.items():
        for n, g in points:
            by_size[n].append((local, g))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for n in sorted(by_size):
        points = sorted(by_size[n])
        ax.plot([l for l, _ in points], [g for _, g in points], "o-", markersize=3, label=f"{mega(n):.0f} M")
    ax.set_xscale("log", base=2)
    ax.set_title(f"ArrayMultReduce against the work-group size\n{label}", fontsize=10)
    ax.set_xlabel("Work-Group Size")
    ax.set_ylabel("GigaNumbers Multiplied and Reduced Per Second")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2, title="array size", title_fontsize=8)
    save(fig, args.out, f"{stem}-vs-wg")

    # 4. The kit's kernels against the roof and the baselines.
    series = collections.defaultdict(list)
    for r in rows:
        if r["kernel"] in ("ArrayMultReduce", WHOLE_LAB03, "Latency floor"):
            continue
        series[r["kernel"]].append((r["elements"], r["gnums_best"]))
    # The other kernels hand back the total, so lab 03 is drawn to its total too where the sweep has it.
    best_lab03 = {}
    for points in (lab03_whole or lab03).values():
        for n, g in points:
            best_lab03[n] = max(best_lab03.get(n, 0), g)
    series["ArrayMultReduce (best L)"] = sorted(best_lab03.items())
    for r in thrust:
        series["thrust::inner_product (CUDA)"].append((r["elements"], r["gnums_best"]))
    styles = {"StreamRead roof": ("k--", "memory roof (StreamRead)"),
              "StreamRead roof + result read": ("-.", "roof + reading one result (a one-launch reduction's best)"),
              "CascadeDot": ("o-", "CascadeDot (lab 06)"),
              "SinglePassDot": ("v-", "single launch (lab 08, dot_single_pass)"),
              "ArrayMultReduce (best L)": ("s-", "ArrayMultReduce (lab 03, best L" +
                                           (", + host sum)" if lab03_whole else ")")),
              "OpenMP simd (host CPU)": ("^-", "OpenMP simd dot (host CPU)"),
              "thrust::inner_product (CUDA)": ("d-", "thrust::inner_product (CUDA)")}
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, points in series.items():
        style, legend = styles.get(name, ("x-", name))
        points = sorted(points)
        ax.plot([mega(n) for n, _ in points], [g for _, g in points], style, markersize=4, label=legend)
    draw_best_possible(ax, rows)
    ax.set_title(f"The kit's kernels against the memory roof and the baselines\n{label}", fontsize=10)
    ax.set_xlabel("Array Size (MegaNumbers)")
    ax.set_ylabel("GigaNumbers Multiplied and Reduced Per Second")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, args.out, f"{stem}-kernels")
    print(f"wrote {args.out}/{stem}-{{slide-wg32,by-wg,vs-wg,kernels}}.{{png,svg}}")


if __name__ == "__main__":
    main()
