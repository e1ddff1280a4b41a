# Sourced by the scripts that render scenes and train on a lent GPU
# (train_finder_gpu.sh, distill_finder_gpu.sh), with `pone`, `art`, `out`
# and `work` set: the clock and its log, the cores, the scenes rendered
# (once: a set rendered before is kept), and room in shared memory for the
# DataLoader's workers.
# shellcheck shell=bash
begun=$(date +%s)
mkdir -p "$out" "$work"
log() { printf '[%4d s] %s\n' $(($(date +%s) - begun)) "$*"; }
cores=$(nproc)
log "cores $cores; $(nvidia-smi -L 2>/dev/null | head -1)"

# render DIR SCENES SEED [synth's arguments...]: the training decks'
# scenes into $work/DIR.
render() {
    local dir=$1 scenes=$2 seed=$3
    shift 3
    if [ "$(ls "$work/$dir/images" 2>/dev/null | wc -l)" -ge "$scenes" ]; then
        log "$dir: rendered before"
        return
    fi
    "$pone" synth --out "$work/$dir" --scenes "$scenes" --seed "$seed" --designs train --art-cache "$art" "$@" >/dev/null 2>"$work/$dir.err" \
        || { log "render $dir failed:"; tail -5 "$work/$dir.err"; }
    log "rendered $dir: $(ls "$work/$dir/images" 2>/dev/null | wc -l) scenes"
}

# The training views are made by DataLoader workers and passed through
# shared memory: make room for them where the machine allows it.
make_shared_memory() {
    mount -o remount,size=32G /dev/shm 2>/dev/null
    log "shared memory: $(df -h /dev/shm | tail -1)"
}
