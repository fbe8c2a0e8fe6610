#!/bin/bash
# On a lent GPU machine, in one call: unpack the decks, build a new set, train from our weights until
# BUDGET seconds after the start, and leave the weights, results.csv and logs in $OUT.
#   bash scripts/gpu/train_leg.sh IMAGES BUDGET_S BATCH WORKERS LR0 [SEED] [FROM] [NAME]
# e.g. (leg 14, 2026-11-26, H200): bash scripts/gpu/train_leg.sh 2500 540 64 14 0.001 30 models/cards.pt leg14
# WARMUP=EPOCHS sets the warm-up (0.5 unless set; 0 to go on from a trained leg at its rate). BUILD_FLAGS passes
# more options to `dataset build` (e.g. BUILD_FLAGS="--hard-designs --word-jokers", leg 33's recipe); FREEZE=N freezes the
# first N layers (`train --freeze`). DEVICE=cpu tries it on a machine without a GPU. Needs .dev/ from scripts/gpu/prepare.sh (name it in the call's carry). Sets and runs stay under /tmp there.
IMAGES=$1; BUDGET=$2; BATCH=$3; WORKERS=$4; LR0=$5; SEED=${6:-30}; FROM=${7:-models/cards.pt}; NAME=${8:-leg}
T0=$(date +%s); OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
log() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$OUT/steps.txt"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; nproc
mount -o remount,size=48G /dev/shm 2>/dev/null  # data-loader workers pass batches through shared memory
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .dev/whl/*.whl || exit 1
# ultralytics reads results.csv with polars inside a try (and plots with it: --no-plots below);
# where the image has no polars, a stand-in that fails to read keeps the import working
mkdir -p /tmp/stub/polars
python3 -c "import polars" 2>/dev/null || printf 'def read_csv(*a, **k):\n    raise RuntimeError("no polars")\n' > /tmp/stub/polars/__init__.py
export PYTHONPATH=$PWD:/tmp/site:/tmp/stub PYTHONUNBUFFERED=1 YOLO_OFFLINE=1 HANDFOOT_CACHE=/tmp/hf
hf=(python3 -c 'import sys; from handfoot.cli import main; sys.exit(main(sys.argv[1:]))')  # the CLI, uninstalled
python3 -c "import torch, ultralytics; print(torch.__version__, torch.cuda.is_available(), ultralytics.__version__)" || exit 1
python3 scripts/gpu/pack_decks.py unpack .dev/hf /tmp/hf || exit 1
log decks unpacked
"${hf[@]}" dataset build --out /tmp/synth --images "$IMAGES" --seed "$SEED" --val-fraction 0.02 --workers "$(nproc)" ${BUILD_FLAGS:-} > "$OUT/build.log" 2>&1 \
  || { tail -20 "$OUT/build.log"; exit 1; }
log "built: $(ls /tmp/synth/train/images | wc -l) tiles"
LEFT=$(( BUDGET - ($(date +%s) - T0) - 75 ))  # 75 s for the final validation and copying back
[ "$LEFT" -ge 60 ] || { log "only $LEFT s left for training: give a larger BUDGET_S or fewer IMAGES"; exit 1; }
log training for $LEFT s
timeout $(( LEFT + 60 )) "${hf[@]}" train --data /tmp/synth/data.yaml --model "$FROM" --batch "$BATCH" \
  --workers "$WORKERS" --lr0 "$LR0" --warmup-epochs "${WARMUP:-0.5}" --hours "$(python3 -c "print(round($LEFT / 3600, 4))")" \
  --freeze "${FREEZE:-0}" --project /tmp/runs --name "$NAME" --no-plots --device "${DEVICE:-0}" > "$OUT/train.log" 2>&1
log train rc $?
cp /tmp/runs/$NAME/weights/last.pt /tmp/runs/$NAME/weights/best.pt /tmp/runs/$NAME/results.csv /tmp/runs/$NAME/args.yaml "$OUT/" 2>/dev/null
cut -d, -f1-9 /tmp/runs/$NAME/results.csv
log done
