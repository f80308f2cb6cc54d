#!/usr/bin/env bash
# Ingest and analyze benchmark, two workloads made by tiling real captures
# (no value invented):
#   ncu    a ~100 MB ncu details page: fixtures/ncu/saxpy.full40.details.csv
#          (40 launches of --set full) repeated with renumbered launch IDs:
#          few launches, many rows each;
#   trace  a 600,000-launch nvprof gpu-trace: the public matrixMul trace
#          (internal/ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv, 301
#          launches) repeated with shifted start times and correlation IDs:
#          one row per launch.
# For each it times, in RUNS rounds that take the commands in turn (median
# of each), on this machine: profan ingest into
# a fresh database, profan analyze (--format json for ncu, the text summary
# for the trace, whose JSON would list 600,000 launches), and sqlite3's own
# ".import --csv" of the same table into a fresh database (which parses no
# value), with peak RSS; for ncu also pandas read_csv + to_sql (Debian's
# python3-pandas). Then it prints the ratios against sqlite3 measured in the
# same run.
# Needs: go and sqlite3; pandas is timed when python3 has it (apt-get install
# sqlite3 python3-pandas).
# WORKLOADS="ncu trace" (default both), RUNS=5, MB=100, LAUNCHES=600000.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
MB=${MB:-100}
LAUNCHES=${LAUNCHES:-600000}
WORKLOADS=${WORKLOADS:-ncu trace}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
go build -o "$W/profan" ./cmd/profan
go build -o "$W/measure" ./bench/measure
PY=${PYTHON:-/usr/bin/python3}
cat >"$W/pandas_import.py" <<'PYEOF'
import sqlite3, sys, pandas
con = sqlite3.connect(sys.argv[2])
pandas.read_csv(sys.argv[1], thousands=",").to_sql("t", con, index=False)
con.close()
PYEOF
# The commands of a workload take turns, RUNS rounds: this shared machine
# speeds up and slows down over minutes, and a ratio of two medians taken
# one after the other moved by a tenth with it.
M() { "$W/measure" -n 1 "$@" 2>/dev/null; }
rounds() { for _ in $(seq "$RUNS"); do "$@"; done; }
# median time and peak RSS of each command, in the order first seen
medians() {
  awk -F'\t' '{ if (!($1 in n)) order[k++] = $1; t[$1, ++n[$1]] = $2; if ($3 > r[$1]) r[$1] = $3 }
    END { for (i = 0; i < k; i++) { c = order[i]; m = n[c]
      for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (t[c, b] < t[c, a]) { x = t[c, a]; t[c, a] = t[c, b]; t[c, b] = x }
      printf "%s\t%.3f\t%.1f\n", c, t[c, int((m + 1) / 2)], r[c] } }'
}
show() { awk -F'\t' '{printf "%-22s %7.3f s  peak RSS %6.1f MB\n", $1, $2, $3}'; }
echo "$RUNS rounds, the commands of a workload in turn; median of each; $(nproc) cores"

if [[ " $WORKLOADS " == *" ncu "* ]]; then
  go run ./bench/tile -table -mb "$MB" -out "$W/ncu.csv" >/dev/null
  echo "ncu details page: $(du -m "$W/ncu.csv" | cut -f1) MB, $(wc -l <"$W/ncu.csv") rows"
  pandas=false
  "$PY" -c 'import pandas' 2>/dev/null && pandas=true
  ncu_round() {
    M -name "ncu: profan ingest" -before "rm -f $W/p.db*" -- "$W/profan" ingest --db "$W/p.db" "$W/ncu.csv"
    M -name "ncu: profan analyze" -- sh -c "'$W/profan' analyze --format json '$W/ncu.csv' >/dev/null"
    M -name "ncu: sqlite3 .import" -before "rm -f $W/s.db" -- sqlite3 "$W/s.db" ".import --csv $W/ncu.csv t"
    if $pandas; then
      M -name "ncu: pandas to_sql" -before "rm -f $W/d.db" -- "$PY" "$W/pandas_import.py" "$W/ncu.csv" "$W/d.db"
    fi
  }
  rounds ncu_round | medians | tee -a "$W/results.tsv" | show
  rm -f "$W/ncu.csv" "$W"/*.db*
fi

if [[ " $WORKLOADS " == *" trace "* ]]; then
  in=internal/ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv
  go run ./bench/tile -in "$in" -trace "$LAUNCHES" -out "$W/trace.csv" >/dev/null
  go run ./bench/tile -in "$in" -trace "$LAUNCHES" -table -out "$W/trace-table.csv" >/dev/null
  echo "nvprof gpu-trace: $(du -m "$W/trace.csv" | cut -f1) MB, $LAUNCHES launches"
  trace_round() {
    M -name "trace: profan ingest" -before "rm -f $W/p.db*" -- "$W/profan" ingest --db "$W/p.db" "$W/trace.csv"
    M -name "trace: profan analyze" -- sh -c "'$W/profan' analyze '$W/trace.csv' >/dev/null"
    M -name "trace: sqlite3 .import" -before "rm -f $W/s.db" -- sqlite3 "$W/s.db" ".import --csv $W/trace-table.csv t"
  }
  rounds trace_round | medians | tee -a "$W/results.tsv" | show
fi

awk -F'\t' '{t[$1]=$2} END {
  if ("ncu: profan ingest" in t) {
    printf "ncu:   ingest / sqlite3 .import  = %.2f (target <= 0.30)\n", t["ncu: profan ingest"]/t["ncu: sqlite3 .import"]
    printf "ncu:   analyze / sqlite3 .import = %.2f (target <= 0.25)\n", t["ncu: profan analyze"]/t["ncu: sqlite3 .import"]
    if ("ncu: pandas to_sql" in t)
      printf "ncu:   ingest / pandas           = %.2f (target <= 0.25)\n", t["ncu: profan ingest"]/t["ncu: pandas to_sql"]
  }
  if ("trace: profan ingest" in t) {
    printf "trace: ingest / sqlite3 .import  = %.2f (target <= 0.40)\n", t["trace: profan ingest"]/t["trace: sqlite3 .import"]
    printf "trace: analyze / sqlite3 .import = %.2f (target <= 0.25)\n", t["trace: profan analyze"]/t["trace: sqlite3 .import"]
  }
}' "$W/results.tsv"
