#!/usr/bin/env bash
# Ingest benchmark (issue: GB-scale exports). Builds a ~100 MB ncu details
# export by tiling a real capture (fixtures/ncu/saxpy.full40.details.csv,
# 40 launches of --set full, launch IDs renumbered), then times, median of
# RUNS runs each, on this machine:
#   profan ingest into a fresh database,
#   profan analyze --format json,
#   sqlite3 DB ".import --csv FILE t" of the same file,
#   pandas read_csv(FILE, thousands=",").to_sql(...) (Debian's python3-pandas),
# and prints seconds, peak RSS and the ratios.
# Needs: go, sqlite3, python3 with pandas (apt-get install sqlite3 python3-pandas).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
MB=${MB:-100}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
go build -o "$W/profan" ./cmd/profan
go build -o "$W/measure" ./bench/measure
go run ./bench/tile -table -mb "$MB" -out "$W/big.csv" >/dev/null
PY=${PYTHON:-/usr/bin/python3}
cat >"$W/pandas_import.py" <<'PYEOF'
import sqlite3, sys, pandas
con = sqlite3.connect(sys.argv[2])
pandas.read_csv(sys.argv[1], thousands=",").to_sql("t", con, index=False)
con.close()
PYEOF
echo "file: $(du -m "$W/big.csv" | cut -f1) MB, $(wc -l <"$W/big.csv") rows; $RUNS runs each; $(nproc) cores"
{
  "$W/measure" -n "$RUNS" -name "profan ingest" -before "rm -f $W/p.db*" -- "$W/profan" ingest --db "$W/p.db" "$W/big.csv"
  "$W/measure" -n "$RUNS" -name "profan analyze" -- sh -c "'$W/profan' analyze --format json '$W/big.csv' >/dev/null"
  "$W/measure" -n "$RUNS" -name "sqlite3 .import" -before "rm -f $W/s.db" -- sqlite3 "$W/s.db" ".import --csv $W/big.csv t"
  "$W/measure" -n "$RUNS" -name "pandas to_sql" -before "rm -f $W/d.db" -- "$PY" "$W/pandas_import.py" "$W/big.csv" "$W/d.db"
} 2>/dev/null | tee "$W/results.tsv" | awk -F'\t' '{printf "%-16s %7.3f s  peak RSS %6.1f MB\n", $1, $2, $3}'
awk -F'\t' '{t[$1]=$2} END {
  printf "profan ingest / sqlite3 .import = %.2f (target <= 0.50)\n", t["profan ingest"]/t["sqlite3 .import"]
  printf "profan ingest / pandas          = %.2f (target <= 0.25)\n", t["profan ingest"]/t["pandas to_sql"]
  printf "profan analyze / profan ingest  = %.2f (target < 1)\n", t["profan analyze"]/t["profan ingest"]
}' "$W/results.tsv"
