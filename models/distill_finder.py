#!/usr/bin/env python3
"""Distils the card finder into a faster student.

The teacher is an exported finder (`models/finder.onnx`, run by onnxruntime);
the student is `Slim`: a 4x4 stride-4 patchify convolution straight to the
4-pixel cells (nothing else at that stride but a 1x1 lateral and the head),
separable blocks and the same feature pyramid at strides 8-32. Its output is
the teacher's, exactly: `maps` [1, 16, H/4, W/4], channels 0-1 sigmoid masks,
2-15 regressions (see `train_detector.py`), so the app loads it unchanged.

Each step draws training views as `train_detector.py --native` does
(`batch`, `random_view`, `photometric`), runs the teacher on the very views
the student sees and trains the student to answer as the teacher does:

- the masks: binary cross-entropy against the teacher's probabilities (shown
  as the divergence, so 0 is the teacher's answer), each mask on the
  teacher's count of object cells, the corners' twice;
- the regressions: L1 on the cells where either teacher mask is above 0.3
  (the window's 8 only where the corner mask is), each cell weighted by the
  teacher's object size as `loss_fn` weights by the labelled one;
- with --labels W: also W times the labels' loss (`loss_fn`);
- with --init-teacher (the default widths only): everything below the
  stem starts as the teacher's (its batch norms, folded by the export, stay
  frozen), and for --feature-steps the stem is also drawn towards the
  teacher's 4-pixel features.

    ./scripts/run synth --out /tmp/distill/data-a --scenes 2500 --seed 7101 --designs train --invented-designs 0 --art-cache ~/.cache/pone/art
    python3 models/distill_finder.py --data /tmp/distill/data-a --out /tmp/distill/finder.onnx --steps 8000
"""
import argparse
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_detector as td  # noqa: E402
from train_detector import Finder, Separable, batch, cbr, load_native, loss_fn, photometric  # noqa: E402

# The teacher's output of its 4-pixel stage (input of s8's first convolution).
TEACHER_S4 = "/s4/s4.3/Add_output_0"


class Slim(Finder):
    """Patchify stem straight to the 4-pixel cells; there, only the stem, the
    lateral and the head (optionally a depthwise 3x3 before the head);
    separable blocks and a feature pyramid at strides 8-32 (the finder's
    `features`, `raw` and `forward`)."""

    def __init__(self, widths=(32, 64, 96, 128), pyramid=32, outputs=16, k=4, dw=False, s8blocks=3, stem_ch=None):
        nn.Module.__init__(self)
        w = widths
        sc = stem_ch or w[0]
        self.s4 = nn.Sequential(nn.Conv2d(3, sc, k, 4, (k - 4) // 2, bias=False), nn.BatchNorm2d(sc), nn.ReLU(inplace=True))
        self.s8 = nn.Sequential(Separable(sc, w[1], 2), *[Separable(w[1], w[1]) for _ in range(s8blocks - 1)])
        self.s16 = nn.Sequential(Separable(w[1], w[2], 2), Separable(w[2], w[2]), Separable(w[2], w[2]))
        self.s32 = nn.Sequential(Separable(w[2], w[3], 2), Separable(w[3], w[3]), Separable(w[3], w[3]))
        self.l4 = cbr(sc, pyramid, 1)
        self.l8, self.l16, self.l32 = (cbr(c, pyramid, 1) for c in w[1:])
        self.m16, self.m8 = Separable(pyramid, pyramid), Separable(pyramid, pyramid)
        self.m4 = cbr(pyramid, pyramid, 3, 1, pyramid) if dw else nn.Identity()
        self.head = nn.Conv2d(pyramid, outputs, 1)
        with torch.no_grad():
            self.head.bias[:2].fill_(-4.0)


class Teacher:
    """The exported finder in onnxruntime, also answering its 4-pixel features."""

    def __init__(self, path, threads=1):
        import onnx
        import onnxruntime as ort

        model = onnx.load(path)
        model.graph.output.append(onnx.helper.make_tensor_value_info(TEACHER_S4, onnx.TensorProto.FLOAT, None))
        # Exported for one frame: let it take a batch of views.
        for value in list(model.graph.input) + list(model.graph.output)[:1]:
            value.type.tensor_type.shape.dim[0].dim_param = "n"
        del model.graph.value_info[:]
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        self.session = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])

    def __call__(self, x):
        maps, s4 = self.session.run(["maps", TEACHER_S4], {"image": np.ascontiguousarray(x.numpy())})
        return torch.from_numpy(maps), torch.from_numpy(s4)


class TorchTeacher:
    """The exported finder as a PyTorch network on the device (its batch norms
    folded into its convolutions, as exported): its maps, masks through the
    sigmoid, and its 4-pixel features."""

    def __init__(self, path, device):
        self.net = Finder()
        td.load_onnx(self.net, path)
        self.net = self.net.to(device).eval()

    @torch.no_grad()
    def __call__(self, x):
        a, y = self.net.features(x)
        return torch.cat([torch.sigmoid(y[:, :2]), y[:, 2:]], 1), a


class TeacherModule(nn.Module):
    """The teacher as a module, for `train_detector.validate`."""

    def __init__(self, teacher):
        super().__init__()
        self.teacher = teacher

    def forward(self, x):
        return self.teacher(x)[0]


FROZEN = set()  # the student's batch norms loaded from the teacher (folded: kept as they are)


def student_train_mode(model):
    model.train()
    for name, module in model.named_modules():
        if name in FROZEN:
            module.eval()


def init_from_teacher(student, path):
    """Everything the student shares with the teacher's architecture (all but
    the stem and the 3x3 at the cells) from the exported teacher."""
    teacher = Finder()
    td.load_onnx(teacher, path)
    theirs = teacher.state_dict()
    ours = student.state_dict()
    taken = 0
    for key, value in ours.items():
        if key.startswith("s4.") or key.startswith("m4."):
            continue
        if key in theirs and theirs[key].shape == value.shape:
            ours[key] = theirs[key].clone()
            taken += 1
    student.load_state_dict(ours)
    for name, module in student.named_modules():
        if isinstance(module, nn.BatchNorm2d) and not name.startswith("s4.") and not name.startswith("m4."):
            FROZEN.add(name)
    print(f"from the teacher: {taken} of {len(ours)} tensors, {len(FROZEN)} batch norms frozen", flush=True)


def distill_loss(out, tmaps):
    """The student's raw maps against the teacher's (masks already 0..1):
    (masks, centre, window, box)."""
    t = tmaps[:, :2].clamp(1e-6, 1 - 1e-6)
    z = out[:, :2]
    bce = F.binary_cross_entropy_with_logits(z, t, reduction="none")
    entropy = -(t * t.log() + (1 - t) * (1 - t).log())
    per = (bce - entropy).sum(dim=(0, 2, 3))
    mass = tmaps[:, :2].sum(dim=(0, 2, 3)).clamp(min=1.0)
    masks = 2.0 * per[0] / mass[0] + per[1] / mass[1]

    on = (tmaps[:, :2] > 0.3).float()  # [B, 2, h, w]
    anyon = on.amax(1, keepdim=True)
    treg = tmaps[:, 2:]
    l1 = (out[:, 2:] - treg).abs()
    # Per-cell weights from the teacher's own object, as loss_fn weighs by the labelled one.
    box = treg[:, 10:14] * 16
    diag = torch.sqrt((box[:, 2] - box[:, 0]) ** 2 + (box[:, 3] - box[:, 1]) ** 2).unsqueeze(1)
    wbox = 1.0 / (diag / 64.0).clamp(min=0.5)
    quad = treg[:, 2:10] * 16
    extent = torch.sqrt((quad[:, 4] - quad[:, 0]) ** 2 + (quad[:, 5] - quad[:, 1]) ** 2).unsqueeze(1)
    wquad = 1.0 / (extent / 16.0).clamp(min=0.5)
    ncells = anyon.sum().clamp(min=1.0)
    centre = (l1[:, 0:2] * wbox * anyon).sum() / ncells
    window = (l1[:, 2:10] * wquad * on[:, 0:1]).sum() / on[:, 0].sum().clamp(min=1.0)
    boxl = (l1[:, 10:14] * wbox * anyon).sum() / ncells
    return masks, centre, window, boxl


def feature_loss(a, ta, scale):
    """The student's stem against the teacher's 4-pixel features, each channel on its spread."""
    return (((a - ta) / scale) ** 2).mean()


def produce(args, train, queue, seed):
    """Forever: a batch of training views, photometric changes made, with the
    teacher's answers on them."""
    torch.set_num_threads(1)
    td.NATIVE = True
    td.CROP = args.crop
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    teacher = Teacher(args.teacher, int(os.environ.get("PONE_ORT_THREADS", "1")))
    frames, objects = load_native(args.data)
    frames = td.Reuse(frames)
    while True:
        idx = np.repeat(rng.choice(train, (args.batch + 1) // 2), 2)[: args.batch]
        x, heat, weight, reg, regw, _ = batch(frames, objects, idx, rng)
        x = photometric(x)
        tmaps, ts4 = teacher(x)
        queue.put(tuple(np.ascontiguousarray(t.numpy()) for t in (x, heat, weight, reg, regw, tmaps, ts4)))


def export(model, out):
    from onnx_export import export_checked

    export_checked(
        model, torch.rand(1, 3, 384, 640), out, "image", "maps",
        {"image": {2: "h", 3: "w"}, "maps": {2: "gh", 3: "gw"}}, 1e-3,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", nargs="+", required=True, help="pone synth folders (images/, labels/), designs train only")
    parser.add_argument("--teacher", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "finder.onnx"))
    parser.add_argument("--out", default="/tmp/distill/finder.onnx")
    parser.add_argument("--steps", type=int, default=8000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--crop", type=int, default=256)
    parser.add_argument("--lr", type=float, default=2e-3, help="peak learning rate (the stem's: 3 times it with --init-teacher)")
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--labels", type=float, default=0.0, help="weight of the labels' loss (loss_fn) beside the teacher's")
    parser.add_argument("--stem-ch", type=int, default=None)
    parser.add_argument("--pyramid", type=int, default=32)
    parser.add_argument("--init-teacher", action="store_true", help="start all but the stem from the teacher (default widths)")
    parser.add_argument("--feature-weight", type=float, default=1.0)
    parser.add_argument("--feature-steps", type=int, default=2000, help="steps the stem is drawn towards the teacher's features (fading out)")
    parser.add_argument("--resume", default=None)
    parser.add_argument("--export-only", action="store_true")
    parser.add_argument("--validate-every", type=int, default=1000)
    parser.add_argument("--time-only", type=int, default=0, help="time this many steps and stop")
    parser.add_argument("--dw", action="store_true", help="a depthwise 3x3 at the 4-pixel cells before the head")
    parser.add_argument("--device", default="cpu", help="with --seconds: cuda (or cpu, to try it), the teacher in PyTorch beside the student")
    parser.add_argument("--seconds", type=float, default=None, help="train this long on --device, the teacher in PyTorch beside the student and the views made by --workers (the learning rate following the time)")
    parser.add_argument("--workers", type=int, default=8, help="with --seconds: processes making the views")
    parser.add_argument("--reuse", type=int, default=4, help="with --seconds: views made of each frame read")
    parser.add_argument("--feature-share", type=float, default=0.2, help="with --seconds: the share of the run the stem is drawn towards the teacher's features")
    args = parser.parse_args()
    td.NATIVE = True
    td.CROP = args.crop
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(int(os.environ.get("PONE_THREADS", "1")))

    model = Slim(pyramid=args.pyramid, stem_ch=args.stem_ch, dw=args.dw)
    if args.export_only:
        model.load_state_dict(torch.load(args.resume, map_location="cpu"))
        export(model, args.out)
        return
    if args.init_teacher:
        init_from_teacher(model, args.teacher)
    if args.resume:
        model.load_state_dict(torch.load(args.resume, map_location="cpu"))
    print(f"student: {sum(p.numel() for p in model.parameters())} parameters", flush=True)
    if args.seconds is not None:
        return train_on_device(args, model)
    teacher = Teacher(args.teacher, int(os.environ.get("PONE_ORT_THREADS", "1")))

    images, objects = load_native(args.data)
    order = rng.permutation(len(images))
    held = order[: max(1, len(images) // 20)]
    train = order[len(held):]
    print(f"{len(train)} training scenes, {len(held)} held back", flush=True)
    if args.validate_every and not args.time_only:
        t0 = time.time()
        print(f"teacher at 1280: {td.validate(TeacherModule(teacher), images, objects, held[:60], np.random.default_rng(7), side=1280)} ({time.time() - t0:.0f} s)", flush=True)

    model = model.to(memory_format=torch.channels_last)
    student_train_mode(model)
    stem = [p for n, p in model.named_parameters() if n.startswith("s4.")]
    rest = [p for n, p in model.named_parameters() if not n.startswith("s4.")]
    stem_lr = args.lr * (3.0 if args.init_teacher else 1.0)
    opt = torch.optim.AdamW([{"params": stem, "lr": stem_lr}, {"params": rest, "lr": args.lr}], weight_decay=1e-4)
    peaks = [stem_lr, args.lr]

    def lr_at(step):
        if step < args.warmup:
            return (step + 1) / args.warmup
        t = (step - args.warmup) / max(1, args.steps - args.warmup)
        return 0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * t))

    base = os.path.splitext(args.out)[0]
    fscale = None
    start = time.time()
    timing = np.zeros(2)
    running = np.zeros(6)
    # The views and the teacher's answers are made by a second process while
    # this one trains (each on one thread).
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    queue = ctx.Queue(maxsize=3)
    worker = ctx.Process(target=produce, args=(args, train, queue, args.seed + 1000), daemon=True)
    worker.start()
    for step in range(1, args.steps + 1):
        for g, peak in zip(opt.param_groups, peaks):
            g["lr"] = peak * lr_at(step - 1)
        t0 = time.time()
        x, heat, weight, reg, regw, tmaps, ts4 = (torch.from_numpy(a) for a in queue.get())
        t2 = time.time()
        a, out = model.features(x.contiguous(memory_format=torch.channels_last))
        masks, centre, window, boxl = distill_loss(out, tmaps)
        loss = masks + centre + window + 0.5 * boxl
        fw = args.feature_weight * max(0.0, 1.0 - step / args.feature_steps) if args.init_teacher and args.feature_steps else 0.0
        if fscale is None:
            fscale = ts4.std(dim=(0, 2, 3), keepdim=True).clamp(min=1e-3)
        feat = feature_loss(a, ts4, fscale)
        if fw > 0:
            loss = loss + fw * feat
        if args.labels > 0:
            parts = loss_fn(out, heat, weight, reg, regw)
            lab = parts[0] + parts[1] + parts[2] + 0.5 * parts[3]
            loss = loss + args.labels * lab
        else:
            with torch.no_grad():
                parts = loss_fn(out, heat, weight, reg, regw)
                lab = parts[0] + parts[1] + parts[2] + 0.5 * parts[3]
        opt.zero_grad()
        loss.backward()
        opt.step()
        t3 = time.time()
        timing += [t2 - t0, t3 - t2]
        vals = np.array([masks.item(), centre.item(), window.item(), boxl.item(), feat.item(), lab.item()])
        running = vals if step == 1 else 0.98 * running + 0.02 * vals
        if args.time_only and step == args.time_only:
            n = args.time_only
            print(f"per step: waiting for views {timing[0] / n * 1000:.0f} ms, student {timing[1] / n * 1000:.0f} ms, {(time.time() - start) / n * 1000:.0f} ms in all", flush=True)
            worker.terminate()
            return
        if step % 100 == 0:
            print(f"step {step}: distil masks {running[0]:.4f} centre {running[1]:.4f} window {running[2]:.4f} box {running[3]:.4f}"
                  f" | features {running[4]:.3f} (w {fw:.2f}) | labels' loss {running[5]:.3f} | lr {opt.param_groups[1]['lr']:.2e}, {time.time() - start:.0f} s", flush=True)
        if step % 500 == 0 or step == args.steps:
            torch.save(model.state_dict(), base + ".pt")
        if args.validate_every and (step % args.validate_every == 0 or step == args.steps):
            t0 = time.time()
            text = td.validate(model, images, objects, held[:60], np.random.default_rng(7), side=1280)
            student_train_mode(model)
            print(f"step {step}: student at 1280: {text} ({time.time() - t0:.0f} s); waiting for views {timing[0]:.0f} s in all", flush=True)
    worker.terminate()
    torch.save(model.state_dict(), base + ".pt")
    export(model, args.out)
    print(f"done: {args.steps} steps in {time.time() - start:.0f} s", flush=True)


def train_on_device(args, model):
    """The distillation on a GPU for --seconds: the teacher run in PyTorch on
    the device on the very views the student sees, the views made by
    --workers processes, the student in bfloat16; checked on the held-back
    frames at 1280 every quarter and exported at the end."""
    device = torch.device(args.device)
    torch.backends.cudnn.benchmark = True
    rng = np.random.default_rng(args.seed)
    frames, objects = load_native(args.data)
    order = rng.permutation(len(frames))
    held = order[: max(1, len(frames) // 20)]
    train = order[len(held):]
    print(f"{len(train)} training scenes, {len(held)} held back, on {device}", flush=True)
    teacher = TorchTeacher(args.teacher, device)
    t0 = time.time()
    print(f"teacher at 1280: {td.validate(teacher.net, frames, objects, held[:60], np.random.default_rng(7), side=1280)} ({time.time() - t0:.0f} s)", flush=True)
    teacher.net.eval()  # validate leaves a network training

    model = model.to(device, memory_format=torch.channels_last)
    student_train_mode(model)
    stem = [p for n, p in model.named_parameters() if n.startswith("s4.")]
    rest = [p for n, p in model.named_parameters() if not n.startswith("s4.")]
    peaks = [args.lr * (3.0 if args.init_teacher else 1.0), args.lr]
    opt = torch.optim.AdamW([{"params": stem, "lr": peaks[0]}, {"params": rest, "lr": peaks[1]}], weight_decay=1e-4)
    loader = iter(torch.utils.data.DataLoader(
        td.Views(frames, objects, train, args.batch, args.seed, args.reuse, native=True, crop=args.crop), batch_size=None,
        num_workers=args.workers, pin_memory=device.type == "cuda",
        **({"prefetch_factor": 4, "persistent_workers": True} if args.workers > 0 else {})))
    base = os.path.splitext(args.out)[0]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)

    def check(when):
        torch.save(model.state_dict(), base + ".pt")
        t0 = time.time()
        print(f"{when}: student at 1280: {td.validate(model, frames, objects, held[:60], np.random.default_rng(7), side=1280)} ({time.time() - t0:.0f} s)", flush=True)
        student_train_mode(model)

    fscale = None
    running = np.zeros(6)
    start = time.time()
    next_check = args.seconds / 4
    step = 0
    while True:
        fraction = (time.time() - start) / args.seconds
        if fraction >= 1.0:
            break
        for group, peak in zip(opt.param_groups, peaks):
            group["lr"] = td.rate(fraction, peak)
        step += 1
        x, heat, weight, reg, regw = td.widen(*(t.to(device, non_blocking=True) for t in next(loader)))
        x = photometric(x).contiguous(memory_format=torch.channels_last)
        tmaps, ts4 = teacher(x)
        with torch.autocast(device.type, dtype=torch.bfloat16):
            a, out = model.features(x)
        a, out = a.float(), out.float()
        masks, centre, window, boxl = distill_loss(out, tmaps)
        loss = masks + centre + window + 0.5 * boxl
        if fscale is None:
            fscale = ts4.std(dim=(0, 2, 3), keepdim=True).clamp(min=1e-3)
        # A stem of another width than the teacher's is not drawn towards its features.
        same = a.shape[1] == ts4.shape[1]
        feat = feature_loss(a, ts4, fscale) if same else torch.zeros((), device=device)
        fw = args.feature_weight * max(0.0, 1.0 - fraction / args.feature_share) if same and args.init_teacher and args.feature_share > 0 else 0.0
        if fw > 0:
            loss = loss + fw * feat
        parts = loss_fn(out, heat, weight, reg, regw)
        lab = parts[0] + parts[1] + parts[2] + 0.5 * parts[3]
        if args.labels > 0:
            loss = loss + args.labels * lab
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 200 == 0:
            vals = np.array([v.item() for v in (masks, centre, window, boxl, feat, lab)])
            running = vals if step == 200 else 0.8 * running + 0.2 * vals
            spent = time.time() - start
            print(f"step {step}: distil masks {running[0]:.4f} centre {running[1]:.4f} window {running[2]:.4f} box {running[3]:.4f}"
                  f" | features {running[4]:.3f} (w {fw:.2f}) | labels' loss {running[5]:.3f} | lr {opt.param_groups[1]['lr']:.2e},"
                  f" {spent:.0f} s ({step * args.batch / spent:.0f} views/s)", flush=True)
        if time.time() - start >= next_check and next_check < args.seconds:
            next_check += args.seconds / 4
            check(f"step {step}")
    print(f"{step} steps of {args.batch} in {time.time() - start:.0f} s", flush=True)
    check(f"step {step} (the last)")
    export(model.cpu().float(), args.out)


if __name__ == "__main__":
    main()
