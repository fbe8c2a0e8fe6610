#!/bin/bash
# Here, before a device call: put what a bare GPU machine lacks into .dev/ (git-ignored through
# .git/info/exclude), under the 64 MiB a call may carry: the deck cache as WebP (31 MB) and the
# ultralytics wheels (its image has torch, torchvision, opencv, pillow, typer and rich, not ultralytics).
# Then: run `bash scripts/gpu/train_leg.sh ...` on the device with carry [".dev"] (see that script).
set -e
cd "$(dirname "$0")/../.."
mkdir -p .git/info && touch .git/info/exclude
grep -qx "/.dev/" .git/info/exclude || echo "/.dev/" >> .git/info/exclude
# the deck cache, fetched or brought up to the current corner rules (cached decks found under older rules are
# rendered again; on a new machine this downloads and renders all of them, about 90 s)
.venv/bin/handfoot dataset fetch-decks
rm -rf .dev/hf && mkdir -p .dev/hf .dev/whl
.venv/bin/python scripts/gpu/pack_decks.py pack .dev/hf
version=$(.venv/bin/python -c "import importlib.metadata as m; print(m.version('ultralytics'))")
thop=$(.venv/bin/python -c "import importlib.metadata as m; print(m.version('ultralytics-thop'))")
.venv/bin/python -m pip download -q --no-deps --only-binary=:all: -d .dev/whl "ultralytics==$version" "ultralytics-thop==$thop"
du -sh .dev
