#!/usr/bin/env bash
# Renders training scenes and distils the card finder into the faster
# student (`distill_finder.py`) on one GPU, within a time budget.
#
#   models/distill_finder_gpu.sh PONE ART OUT SECONDS [WORK]
#
# PONE: a release build of the pone binary; ART: the art cache of
# models/art/fetch_art.py (or models/pack_finder_art.py's quantized copy);
# OUT: where the weights (finder.pt), the exported model (finder.onnx) and
# the log go; SECONDS: the whole run's budget (rendering, training, checks,
# export); WORK: scratch space (/tmp/distill). Run from the repository root
# with PyTorch, OpenCV, onnx and onnxruntime. VARIANTS (default 1) runs that
# many students side by side, sharing the cores: the n-th takes ARGS_n
# (default ARGS: `--dw --init-teacher --labels 0.5`) and writes OUT/n/.
set -uo pipefail
pone=$1 art=$2 out=$3 budget=$4 work=${5:-/tmp/distill}
. "$(dirname "$0")/gpu_common.sh"
render data-a "${SCENES_A:-4000}" "${SEED_A:-7101}" --invented-designs 0
render data-n "${SCENES_N:-1500}" "${SEED_N:-7808}" --invented-backs 8

make_shared_memory
variants=${VARIANTS:-1}
workers=$(((cores - 1) / variants)); [ "$workers" -ge 1 ] || workers=1
seconds=$((budget - ($(date +%s) - begun) - ${RESERVE:-70}))
log "training $variants student(s) for $seconds s, $workers workers each"
for n in $(seq 1 "$variants"); do
    var="ARGS_$n"
    mkdir -p "$out/$n"
    # shellcheck disable=SC2086
    OMP_NUM_THREADS=1 python3 models/distill_finder.py --data "$work/data-a" "$work/data-n" --out "$out/$n/finder.onnx" \
        --device "${DEVICE:-cuda}" --seconds "$seconds" --workers "$workers" --batch "${BATCH:-64}" --lr "${LR:-3e-3}" \
        ${!var:-${ARGS:---dw --init-teacher --labels 0.5}} >"$out/$n/log" 2>&1 &
done
wait
for n in $(seq 1 "$variants"); do log "student $n:"; grep -E "teacher at|student at|steps of|Error|error" "$out/$n/log" | tail -8; done
log "done"
