#!/usr/bin/env bash
# Game night's figures for the README: the time from a phone photo's upload to its result (a 12 MP
# photo: examples/photos/ann-table.jpg enlarged to 4000 x 3000), and the page's weight.
# Usage: scripts/serve_timing.sh [RUNS]   (run from the repository root after `make venv`)
set -euo pipefail
runs=${1:-3}
port=${PORT:-8790}
tmp=$(mktemp -d)
export YOLO_OFFLINE=1
.venv/bin/python - "$tmp/12mp.jpg" <<'PY'
import sys
from PIL import Image
Image.open("examples/photos/ann-table.jpg").resize((4000, 3000), Image.LANCZOS).save(sys.argv[1], quality=90)
PY
.venv/bin/handfoot serve --data "$tmp/data" --port "$port" > "$tmp/serve.log" 2>&1 &
server=$!
trap 'kill $server; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/api/games" > /dev/null && break; sleep 0.5; done
api="http://127.0.0.1:$port/api"
curl -sf -X POST -d '{"rules": "remastered-singles", "sides": ["Ann", "Bob"]}' "$api/games" > /dev/null
curl -sf -X POST "$api/games/1/rounds" > /dev/null
echo "photo: $(stat -c %s "$tmp/12mp.jpg") bytes, 4000 x 3000; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
# the first upload also loads the detector; the figure is the later ones (model warm, as during a game)
for k in $(seq 0 "$runs"); do
  t=$(curl -sf -o /dev/null -w '%{time_total}' -X POST -H 'Content-Type: image/jpeg' \
      --data-binary @"$tmp/12mp.jpg" "$api/games/1/rounds/1/sides/0/photos?role=table")
  if [ "$k" -eq 0 ]; then echo "upload to result, first (loads the model): ${t}s"; else echo "upload to result: ${t}s"; fi
  id=$(curl -sf "$api/games/1/rounds/1" | .venv/bin/python -c 'import json,sys; print(json.load(sys.stdin)["sides"][0]["photos"][0]["id"])')
  curl -sf -X DELETE "$api/games/1/rounds/1/photos/$id" > /dev/null
done
total=0; gz=0
for f in / /app.js /app.css; do
  n=$(curl -sf "http://127.0.0.1:$port$f" | wc -c); z=$(curl -sf "http://127.0.0.1:$port$f" | gzip -9 | wc -c)
  total=$((total + n)); gz=$((gz + z))
done
echo "page weight: $total bytes (index.html + app.js + app.css; $gz bytes gzipped), no other request"
