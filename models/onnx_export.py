"""Exports a PyTorch model to ONNX and checks it against PyTorch with onnxruntime.

Shared by the training scripts (train_detector.py, train_reader.py, train_cardnet.py, train_backs.py).
"""
import os
import sys

import numpy as np
import torch


def export_checked(model, sample, out, input_name, output_name, dynamic_axes, tolerance, classes=None, half=False):
    """Writes `out` (and `NAME.classes.txt` when `classes` is given), then exits
    with an error if onnxruntime's output differs from PyTorch's by more than
    `tolerance`. With `half`, the weights are kept in 16 bits (see `halved`)."""
    import onnxruntime as ort

    model.eval()
    torch.onnx.export(
        model, sample, out, input_names=[input_name], output_names=[output_name],
        dynamic_axes=dynamic_axes, opset_version=17, dynamo=False,
    )
    if half:
        halved(out)
    if classes is not None:
        with open(os.path.splitext(out)[0] + ".classes.txt", "w") as f:
            f.write("\n".join(classes) + "\n")
    session = ort.InferenceSession(out, providers=["CPUExecutionProvider"])
    got = session.run(None, {input_name: sample.numpy()})[0]
    with torch.no_grad():
        want = model(sample).numpy()
    diff = float(np.abs(got - want).max())
    print(f"exported {out} ({os.path.getsize(out) // 1024} KiB); onnxruntime vs PyTorch: max difference {diff:.2e}")
    if diff > tolerance:
        sys.exit("the exported model does not match PyTorch")


def halved(path):
    """Keeps the model's large float weights in 16 bits, each followed by a
    Cast back to 32: half the file, and the same float32 network once
    onnxruntime folds the casts away as it loads the model."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(path)
    graph = model.graph
    casts = []
    for init in graph.initializer:
        if init.data_type != onnx.TensorProto.FLOAT or np.prod(init.dims) < 1024:
            continue
        value = numpy_helper.to_array(init).astype(np.float16)
        name = init.name
        init.CopyFrom(numpy_helper.from_array(value, name + "_half"))
        casts.append(helper.make_node("Cast", [name + "_half"], [name], to=onnx.TensorProto.FLOAT))
    for node in reversed(casts):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    onnx.save(model, path)
