#!/usr/bin/env bash
# Renders the finder's training scenes and trains it on one GPU, within a
# time budget: the recipe of candidates/finder-gpu.onnx (session 27).
#
#   models/train_finder_gpu.sh PONE ART OUT SECONDS [WORK]
#
# PONE: a release build of the pone binary; ART: the art cache of
# models/art/fetch_art.py; OUT: where the weights (finder.pt), the exported
# model (finder.onnx) and the log go; SECONDS: the whole run's budget
# (rendering, loading, training, export); WORK: scratch space (/tmp/finder).
# Run from the repository root with PyTorch, OpenCV, onnx and onnxruntime.
# Every stage is timed in the log, and the weights are saved every quarter of
# the training, so a run stopped early still leaves a model.
set -uo pipefail
pone=$1 art=$2 out=$3 budget=$4 work=${5:-/tmp/finder}
. "$(dirname "$0")/gpu_common.sh"

# The scenes: the training decks as the session-10 recipe had them (det-c,
# det-b), and the invented decks with invented backs (det-n); SCENES_C and
# SEED_C (and _B, _N) change how many and which.
render det-c "${SCENES_C:-4000}" "${SEED_C:-303}" --invented-designs 0
render det-b "${SCENES_B:-3000}" "${SEED_B:-202}" --invented-designs 0
render det-n "${SCENES_N:-3000}" "${SEED_N:-808}" --invented-backs 8

make_shared_memory

# Training gets what is left, less a minute for the last check and the export.
train() {
    local seconds=$1 workers=$2
    log "training for $seconds s with $workers workers (after loading the scenes)"
    OMP_NUM_THREADS=1 python3 models/train_detector.py --data "$work/det-c" "$work/det-b" "$work/det-n" \
        --out "$out/finder.onnx" --device "${DEVICE:-cuda}" --seconds "$seconds" \
        --batch "${BATCH:-64}" --lr "${LR:-4e-3}" --workers "$workers" --load-workers "$cores" ${EXTRA:-}
}
left() { echo $((budget - ($(date +%s) - begun) - ${RESERVE:-75} - ${LOAD_SECONDS:-45})); }
if ! train "$(left)" "$((cores - 1))"; then
    # Workers that cannot share memory here: one process makes the views.
    if [ ! -f "$out/finder.pt" ] && [ "$(left)" -gt 90 ]; then
        train "$(left)" 0
    fi
fi
log "done"
