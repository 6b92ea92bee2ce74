#!/usr/bin/python3
"""Copy the marked code regions the lecture deck shows into a build folder.

  scripts/extract_slide_listings.py [--manifest slides/listings.txt] --out DIR

Every line "NAME SOURCE" of the manifest names a region of SOURCE that starts after a comment
line "// slide: NAME" and ends before the next "// slide-end". The region, with its common
indentation removed, goes to DIR/NAME<ext of SOURCE>. Markers are comment lines only, so the
listings on the slides are the code that runs (less the "// student" region markers). A missing, repeated, nested or unclosed marker
stops the script with a message naming the file, the line and the marker.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = re.compile(r"^\s*//\s*slide:\s*(\S+)\s*$")
END = re.compile(r"^\s*//\s*slide-end\s*$")
# The student-region markers of the solutions ("// student: NAME", "// student-end") mark what the
# starter leaves to students; the slides show the code without them.
STUDENT = re.compile(r"^\s*//\s*student(:\s*\S+|-end)\s*$")


class MarkerError(Exception):
    pass


def regions(path):
    """Every marked region of one file: {name: [lines]}."""
    found, current, body, opened_at = {}, None, [], 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            start, end = START.match(line), END.match(line)
            if start:
                if current is not None:
                    raise MarkerError(f"{path}:{number}: marker '// slide: {start.group(1)}' opens inside "
                                      f"'{current}' (opened at line {opened_at}); close it with '// slide-end' first")
                current, body, opened_at = start.group(1), [], number
                if current in found:
                    raise MarkerError(f"{path}:{number}: marker '// slide: {current}' appears twice")
            elif end:
                if current is None:
                    raise MarkerError(f"{path}:{number}: '// slide-end' without a '// slide: NAME' before it")
                found[current], current = body, None
            elif current is not None and not STUDENT.match(line):
                body.append(line.expandtabs(4))
    if current is not None:
        raise MarkerError(f"{path}:{opened_at}: marker '// slide: {current}' is never closed by '// slide-end'")
    return found


def dedent(lines):
    indents = [len(l) - len(l.lstrip(" ")) for l in lines if l.strip()]
    cut = min(indents) if indents else 0
    return [l[cut:].rstrip() for l in lines]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", default=os.path.join(ROOT, "slides", "listings.txt"))
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    wanted = []
    with open(args.manifest, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                sys.exit(f"{args.manifest}:{number}: expected 'NAME SOURCE', got '{line}'")
            wanted.append(tuple(parts))

    os.makedirs(args.out, exist_ok=True)
    cache = {}
    try:
        for name, source in wanted:
            path = os.path.join(ROOT, source)
            if not os.path.isfile(path):
                raise MarkerError(f"{source}: no such file (listing '{name}' in {args.manifest})")
            if path not in cache:
                cache[path] = regions(path)
            if name not in cache[path]:
                raise MarkerError(f"{source}: marker '// slide: {name}' not found "
                                  f"(add '// slide: {name}' ... '// slide-end' comment lines around the code)")
            body = dedent(cache[path][name])
            if not any(l.strip() for l in body):
                raise MarkerError(f"{source}: region '{name}' is empty")
            target = os.path.join(args.out, name + os.path.splitext(source)[1])
            with open(target, "w", encoding="utf-8") as out:
                out.write("\n".join(body) + "\n")
    except MarkerError as e:
        sys.exit(f"extract_slide_listings: {e}")
    print(f"wrote {len(wanted)} listings to {args.out}")


if __name__ == "__main__":
    main()
