#!/usr/bin/env bash
# Instructions and cache-line misses per call of paired targets' sides, counted by
# callgrind: what each side's code does on the process's own threads, the same whatever
# else the machine is doing (the kernel's work and the emulator's are not counted).
#
#   Benchmarks/callgrind-paired.sh TARGETS [SIDES] [SCALE]
#   Benchmarks/callgrind-paired.sh s7a,s4 curl,handoff,transport,client 0.25
#
# Each side of each target runs alone (`paired --side`) under callgrind, which writes one
# profile from each timed call's start to the next's; the table gives the median over the
# calls after the first tenth (the warm-up), with curl's way as the reference. Callgrind
# also simulates first-level caches of this machine's size (32 KiB each for code and data):
# a line a call misses there is one its previous run no longer left in them, so `misses`
# counts about the lines a call reads cold when something else ran between two calls, as
# the server does in `paired`. Needs the seeded emulator in FIRESTORE_EMULATOR_HOST and a
# release firestore-bench (FIRESTORE_BENCH, or .build/release/firestore-bench). The profiles
# stay in OUT (a fresh temporary folder unless set) for `callgrind_annotate`.
set -euo pipefail

targets=${1:?usage: $0 TARGETS [SIDES] [SCALE]}
sides=${2:-curl,handoff,transport,client}
scale=${3:-0.25}
bench=${FIRESTORE_BENCH:-.build/release/firestore-bench}
emulator=${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST to the seeded emulator}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

command -v valgrind > /dev/null || { echo "valgrind is missing: apt-get install -y valgrind" >&2; exit 2; }
[ -x "$bench" ] || { echo "no $bench: swift build -c release --product firestore-bench" >&2; exit 2; }

# The median of column $1 of the calls kept in "$prefix.calls".
median_of() { cut -d' ' -f"$1" "$prefix.calls" | sort -n | awk '{ w[NR] = $1 } END { printf "%d\n", (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2 }'; }

printf '%-6s %-10s %6s %12s %8s %8s %8s\n' target side calls instructions x_curl misses x_curl
for target in ${targets//,/ }; do
  curl_median=""
  curl_misses=""
  for side in ${sides//,/ }; do
    prefix="$out/$target.$side"
    rm -f "$prefix".*
    valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=524288,8,64 --dump-before='*timedCallStarts*' --callgrind-out-file="$prefix.%p" \
      "$bench" paired --emulator "$emulator" --target "$target" --side "$side" --scale "$scale" \
      > "$prefix.log" 2>&1 || { echo "$target $side failed: see $prefix.log" >&2; exit 1; }
    # Dump n (n >= 2) is call n-1 from its start to the next call's; dump 1 is the set-up
    # and the file without a number the end, both left out. A summary gives Ir Dr Dw I1mr
    # D1mr D1mw ..., trailing zeros left out.
    for dump in "$prefix".*.*; do
      [[ $dump =~ \.[0-9]+\.([0-9]+)$ ]] || continue
      index=${BASH_REMATCH[1]}
      ((index >= 2)) || continue
      echo "$index $(awk '/^(summary|totals):/ { print $2, $5 + $6 + $7; exit }' "$dump")"
    done | sort -n | awk '{ v[NR] = $0 } END { for (i = int(NR / 10) + 1; i <= NR; i++) print v[i] }' > "$prefix.calls"
    calls=$(wc -l < "$prefix.calls")
    median=$(median_of 2)
    misses=$(median_of 3)
    [ "$side" = curl ] && curl_median=$median && curl_misses=$misses
    ratio=-
    miss_ratio=-
    [ -n "$curl_median" ] && ratio=$(awk -v a="$median" -v b="$curl_median" 'BEGIN { printf "%.2f", a / b }')
    [ -n "$curl_misses" ] && miss_ratio=$(awk -v a="$misses" -v b="$curl_misses" 'BEGIN { printf "%.2f", a / b }')
    printf '%-6s %-10s %6d %12d %8s %8d %8s\n' "$target" "$side" "$calls" "$median" "$ratio" "$misses" "$miss_ratio"
  done
done
echo "# profiles: $out"
