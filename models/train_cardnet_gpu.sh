#!/usr/bin/env bash
# Trains the whole-card reader (train_cardnet.py) on one GPU within a time
# budget: the full Lite0 trunk (seven stages) at 224 pixels, from ImageNet.
#
#   models/train_cardnet_gpu.sh ART_TAR PHOTOS_ZIP INIT OUT SECONDS [WORK]
#
# ART_TAR: a tar of the art cache's training designs; PHOTOS_ZIP: a zip of
# the folder `train_cardnet.py --pack` writes (the training photos only);
# INIT: the starting weights (`CardNet(True, 7)`'s state, ImageNet's trunk);
# OUT: where the log, the weights (cardnet.pt, and each quarter's
# cardnet.qN.pt) and the exported model go; SECONDS: the training's length.
# Run from the repository root with PyTorch, OpenCV, Pillow, onnx and
# onnxruntime. EXTRA: more arguments for train_cardnet.py (session 32:
# "--invented-designs 34", with INIT session 31's weights in 16 bits).
set -euo pipefail
art=$1 photos=$2 init=$3 out=$4 seconds=$5 work=${6:-/tmp/cardnet}
mkdir -p "$work/art" "$out"
[ -d "$work/photos" ] || python3 -m zipfile -e "$photos" "$work"
tar xf "$art" -C "$work/art"
# The training pictures pass from the DataLoader's workers through shared memory.
mount -o remount,size=32G /dev/shm 2>/dev/null || true
nvidia-smi -L || true
PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 python3 models/train_cardnet.py --art "$work/art" --photos "$work/photos" \
    --out "$out/cardnet.onnx" --size 224 --stages 7 --photo-share 0.6 --strong --init "$init" \
    --device cuda --workers $(($(nproc) - 1)) --batch "${BATCH:-128}" --lr "${LR:-3e-3}" --seconds "$seconds" --half ${EXTRA:-} \
    2>&1 | grep -v Warning | tee "$out/log.txt"
