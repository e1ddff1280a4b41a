#!/usr/bin/env python3
"""Two corner readers as one: an ONNX graph that runs both on the same crops
and gives the mean of their probabilities (input `crops`, output
`probabilities`, as `reader.onnx`), so the app reads with both unchanged.

    python3 models/mean_readers.py models/reader.onnx models/reader2.onnx /tmp/both/reader.onnx

Needs `onnx` (models/requirements.txt). Measured in session 73 (models/README.md).
Since session 77 the app itself reads a picture's corners with both
(`reader2.onnx` beside `reader.onnx`), and a camera's with the first alone;
this graph is for measuring other pairs with `pone eval --models`.
"""
import sys

import onnx
from onnx import compose, helper


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    a, b = (compose.add_prefix(onnx.load(p), f"{k}_") for k, p in zip("ab", sys.argv[1:3]))
    if a.opset_import != b.opset_import:
        sys.exit(f"{sys.argv[1]} and {sys.argv[2]} use different opsets: export them alike")
    half = helper.make_tensor("half", onnx.TensorProto.FLOAT, [], [0.5])
    graph = helper.make_graph(
        [helper.make_node("Identity", ["crops"], [f"{k}_crops"]) for k in "ab"]
        + list(a.graph.node)
        + list(b.graph.node)
        + [
            helper.make_node("Sum", ["a_probabilities", "b_probabilities"], ["sum"]),
            helper.make_node("Constant", [], ["half"], value=half),
            helper.make_node("Mul", ["sum", "half"], ["probabilities"]),
        ],
        "mean_of_two_readers",
        [onnx.ValueInfoProto(name="crops", type=a.graph.input[0].type)],
        [onnx.ValueInfoProto(name="probabilities", type=a.graph.output[0].type)],
        list(a.graph.initializer) + list(b.graph.initializer),
    )
    model = helper.make_model(graph, opset_imports=a.opset_import)
    model.ir_version = a.ir_version
    onnx.checker.check_model(model)
    onnx.save(model, sys.argv[3])
    print(f"wrote {sys.argv[3]}: the mean of {sys.argv[1]} and {sys.argv[2]}")


if __name__ == "__main__":
    main()
