#!/usr/bin/env bash
# PyTorch trace benchmark: a ~1 GB torch.profiler trace made by tiling the
# events of a real one (fixtures/timeline/decode_sync.json.gz, a batch-1
# decode traced with with_stack=True: kernels, runtime calls, aten ops and
# Python frames; every repetition shifted past the previous one in time
# and in its correlation IDs, see internal/tile), read by profan analyze
# (the text summary: the timeline and the kernel groups). It prints the
# throughput by wall time and by CPU time (user + system: this machine is
# shared, its wall time moves with the load, printed with it) and the peak
# resident set size. The trace is written to a temporary directory and
# removed; nothing goes into git.
# MB=1000 (size), RUNS=3, IN=fixtures/timeline/decode_sync.json.gz.
set -euo pipefail
cd "$(dirname "$0")/.."
MB=${MB:-1000}
RUNS=${RUNS:-3}
IN=${IN:-fixtures/timeline/decode_sync.json.gz}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
go build -o "$W/profan" ./cmd/profan
go run ./bench/tile -in "$IN" -torch -mb "$MB" -out "$W/trace.json"
size=$(stat -c %s "$W/trace.json")
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$RUNS"); do
  /usr/bin/time -f "%e %U %S %M" -o "$W/time" "$W/profan" analyze "$W/trace.json" >"$W/out.txt"
  read -r wall user sys rss <"$W/time"
  awk -v b="$size" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN {
    mb = b / 1e6
    printf "run: %.0f MB in %.2f s wall (%.0f MB/s), %.2f s CPU (%.0f MB/s of CPU), peak RSS %.1f MB\n", mb, w, mb / w, u + s, mb / (u + s), r / 1024 }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
head -3 "$W/out.txt"
