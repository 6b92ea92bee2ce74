#!/usr/bin/env bash
# The grader's verdicts on the kit's mutants, line by line, in a form two machines can compare
# (Debian 12 with PoCL 3.1 and Debian's Oclgrind against Debian 13 with PoCL 6.0 and PyPI's Oclgrind).
# Usage:
#   scripts/compare-verdicts.sh grade OUT [LAB ...]   (default labs: 03 04 05 06)
#       makes the mutants (`grader mutants --max-per-lab N`), then grades each lab's mutants and its
#       solution (the control) with every check: hidden cases, memory safety and the algorithm
#       check under Oclgrind, and the drawing (`grader grade --draw`). Writes OUT/verdicts.tsv, one
#       row per mutant and line: lab, mutant, kind, line, status, points, message (a check whose
#       points follow the case points, status `scaled`, has its own verdict added); the drawing's
#       row holds its summary note (the "took N s" part left out) and the SHA-256 of the SVG.
#       MAX_PER_LAB=N (default 12): at most N mutants per lab, evenly spread, the same N mutants on
#       every machine (they are made from the solution's text). MUTANTS=DIR: grade the mutants
#       already made in DIR (an earlier OUT/made) instead of making them again. JOBS=n (default 2).
#   scripts/compare-verdicts.sh diff A/verdicts.tsv B/verdicts.tsv
#       prints every row whose status or points differ, then (apart) rows whose message alone
#       differs; exits 1 when a status or points differ.
set -euo pipefail
kit=$(cd "$(dirname "$0")/.." && pwd)

to_tsv() {  # journal.jsonl and the reports' folders of one graded lab -> rows
  python3 - "$@" <<'EOF'
import hashlib, json, os, re, sys
graded, lab = sys.argv[1], sys.argv[2]
def clean(s):
    s = re.sub(r'\s+', ' ', s or '').strip()
    s = re.sub(r'\b\d+(\.\d+)? s\b', 'N s', s)        # durations
    return s.replace('\t', ' ')
rows = []
for line in open(os.path.join(graded, 'journal.jsonl')):
    r = json.loads(line)
    who = r['student']
    rows.append((lab, who, 'total', '-', r['status'], f"{r['points']:g}", clean(r.get('message', ''))))
    for c in r['cases']:
        status = c['status']
        # A check whose points follow the case points: its own verdict is in the message.
        own = re.search(r'the check itself (\w+)', c['message'] or '')
        if status == 'scaled' and own:
            status += ' (' + own.group(1) + ')'
        rows.append((lab, who, c['kind'], clean(c['name']), status, f"{c['points']:g}", clean(c['message'])))
    for n in r.get('notes', []):
        if n.startswith('drawing ') and not n.startswith('drawing took'):
            svg = re.match(r'drawing (\S+\.svg)', n)
            digest = '-'
            if svg and os.path.exists(svg.group(1)):
                digest = hashlib.sha256(open(svg.group(1), 'rb').read()).hexdigest()[:16]
            note = re.sub(r'^drawing \S+ ', '', n)
            rows.append((lab, who, 'drawing', 'svg', digest, '-', clean(note)))
for row in sorted(rows, key=lambda t: (t[0], t[1], t[2], t[3])):
    print('\t'.join(row))
EOF
}

case "${1:-}" in
  grade)
    out=${2:?usage: $0 grade OUT [LAB ...]}
    shift 2
    labs=("$@")
    [ ${#labs[@]} -gt 0 ] || labs=(03 04 05 06)
    n=${MAX_PER_LAB:-12}
    jobs=${JOBS:-2}
    grader=$kit/build/bin/grader
    [ -x "$grader" ] || { echo "compare-verdicts: build the kit first (make build): no $grader" >&2; exit 1; }
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    made=${MUTANTS:-$out/made}
    if [ -z "${MUTANTS:-}" ]; then
      "$grader" mutants "${labs[@]}" --max-per-lab "$n" --jobs "$jobs" --out "$made" > "$out/mutants.log" 2>&1 ||
        { tail -20 "$out/mutants.log" >&2; exit 1; }
    fi
    : > "$out/verdicts.tsv"
    for lab in "${labs[@]}"; do
      dir=$(ls -d "$made"/mutants-"$lab"* 2>/dev/null | head -1)
      [ -n "$dir" ] || { echo "compare-verdicts: no mutants of lab $lab in $made" >&2; exit 1; }
      name=${dir##*/mutants-}
      subs=$out/submissions-$name
      rm -rf "$subs"; mkdir -p "$subs"
      cp -r "$dir"/mutants/* "$subs"/
      cp -r "$dir"/control/solution "$subs"/control
      start=$(date +%s)
      "$grader" grade --submissions "$subs" --labs "$lab" --draw --jobs "$jobs" --no-deadline \
        --out "$out/graded-$name" > "$out/grade-$name.log" 2>&1 ||
        { tail -20 "$out/grade-$name.log" >&2; exit 1; }
      to_tsv "$out/graded-$name" "$name" >> "$out/verdicts.tsv"
      echo "compare-verdicts: $name: $(ls "$subs" | wc -l) kernels (the control and $(( $(ls "$subs" | wc -l) - 1 )) mutants) graded in $(( $(date +%s) - start )) s"
    done
    {
      echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(. /etc/os-release && echo "$PRETTY_NAME"), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
      echo "# $(dpkg-query -W -f='${Package} ${Version}' pocl-opencl-icd 2>/dev/null); $(oclgrind --version 2>/dev/null | grep -m1 -i oclgrind)"
      echo "# at most $n mutants per lab"
    } > "$out/machine.txt"
    cat "$out/machine.txt"
    echo "compare-verdicts: $(wc -l < "$out/verdicts.tsv") rows in $out/verdicts.tsv"
    ;;
  diff)
    a=${2:?usage: $0 diff A/verdicts.tsv B/verdicts.tsv}
    b=${3:?usage: $0 diff A/verdicts.tsv B/verdicts.tsv}
    python3 - "$a" "$b" <<'EOF'
import sys
def load(p):
    d = {}
    for line in open(p):
        f = line.rstrip('\n').split('\t')
        d[tuple(f[:4])] = f[4:]
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
verdict, message = [], []
for key in sorted(set(a) | set(b)):
    x, y = a.get(key), b.get(key)
    if x is None or y is None:
        verdict.append((key, x, y))
    elif x[:2] != y[:2]:
        verdict.append((key, x, y))
    elif x[2] != y[2]:
        message.append((key, x, y))
print(f"{len(set(a) | set(b))} rows; {len(verdict)} differ in status or points, {len(message)} in the message alone")
for title, rows in (("status or points differ:", verdict), ("the message alone differs:", message)):
    if rows:
        print(title)
    for key, x, y in rows:
        print('  ' + ' | '.join(key))
        print('    A: ' + (' | '.join(x) if x else '(no such row)'))
        print('    B: ' + (' | '.join(y) if y else '(no such row)'))
sys.exit(1 if verdict else 0)
EOF
    ;;
  *) echo "usage: $0 grade OUT [LAB ...] | $0 diff A/verdicts.tsv B/verdicts.tsv" >&2; exit 2 ;;
esac
