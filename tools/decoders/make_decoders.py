#!/usr/bin/python3
"""Writes a branch's ONNX decoders (contract/DECODERS.md A2) with Debian's
python3-onnx: trunk_<b>.onnx (rig_params [1,D] -> code [1,C,8,8], and zpack
[1,Z] when --zpack), geom_<b>.onnx (code[, zpack] -> geom_uv [1,11,H,W]; with
--fused it takes rig_params and also emits code) and appr_<b>.onnx (code,
plucker [1,6,1,H,W][, zpack] -> color_uv [1,3,H,W]), plus _fp16 siblings
(fp16 weights, fp32 I/O) with --fp16.

The graphs use the ops real decoders use (Gemm, Reshape, ConvTranspose,
Resize, Conv, LeakyRelu, Add), and every kind but `realistic` has outputs known
in closed form, so tests can check the lift against them:

  analytic   geom_uv = the constants of --geom (offset xyz, quaternion wxyz,
             log-scales xyz, opacity logit) at every texel: the convolution
             that produces it has zero weights and those constants as bias;
             color_uv = 0.5 + 0.4 * d (d = the plucker ray direction).
  sample     as analytic, with constants that cover the sample face, and a
             skin tone shaded by the view (0.12 d) for colour.
  realistic  random weights (fixed seed) of a decoder's size, for benchmarks:
             use --code-channels 256 (the contract's [1,256,8,8] code); the
             upsampling halves the channels at each doubling.

--break makes a graph the chain must refuse: missing-output (geom emits
`geom` instead of `geom_uv`), wrong-channels (10 geom channels), wrong-shape
(color_uv at half resolution), missing-input (appr without `plucker`),
huge-initializer (geom's first weight declares 2^28 floats over its 16
bytes: OpenCV 4.6's importer reads a gigabyte past them and crashes).

Deterministic: the same arguments write the same bytes.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
CODE_RES = 8


class Graph:
    def __init__(self, name, fp16):
        self.name, self.fp16 = name, fp16
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.count = 0

    def tmp(self, stem):
        self.count += 1
        return f"{stem}_{self.count}"

    def weight(self, arr):
        name = self.tmp("w")
        dtype = np.float16 if self.fp16 else np.float32
        self.inits.append(numpy_helper.from_array(np.asarray(arr, dtype=dtype), name))
        return name

    def ints(self, arr):
        name = self.tmp("shape")
        self.inits.append(numpy_helper.from_array(np.asarray(arr, dtype=np.int64), name))
        return name

    def floats(self, arr):  # Resize scales stay float32 in any precision
        name = self.tmp("scales")
        self.inits.append(numpy_helper.from_array(np.asarray(arr, dtype=np.float32), name))
        return name

    def node(self, op, inputs, out=None, **attrs):
        out = out or self.tmp(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def input(self, name, shape):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
        if self.fp16:  # fp32 I/O, fp16 inside
            return self.node("Cast", [name], to=TensorProto.FLOAT16)
        return name

    def output(self, value, name, shape):
        if self.fp16:
            value = self.node("Cast", [value], to=TensorProto.FLOAT)
        self.node("Identity", [value], out=name)
        self.outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))

    def save(self, path):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="riglens make_decoders.py")
        onnx.checker.check_model(model)
        onnx.save(model, path)


def conv(g, x, cin, cout, k, rng, scale, zero=False, bias=None):
    w = np.zeros((cout, cin, k, k)) if zero else rng.standard_normal((cout, cin, k, k)) * scale
    b = np.zeros(cout) if bias is None else np.asarray(bias)
    pad = k // 2
    return g.node("Conv", [x, g.weight(w), g.weight(b)], kernel_shape=[k, k], pads=[pad] * 4)


def upsample(g, x, cin, cout, res_from, res_to, rng, scale, halve=False):
    """ConvTranspose doublings (halving the channels each time when `halve`,
    as image decoders do), then one Resize for any remaining factor."""
    while res_from * 2 <= res_to:
        if halve:
            cout = max(cin // 2, 8)
        x = g.node("ConvTranspose", [x, g.weight(rng.standard_normal((cin, cout, 2, 2)) * scale)],
                   kernel_shape=[2, 2], strides=[2, 2])
        x = g.node("LeakyRelu", [x], alpha=0.1)
        cin, res_from = cout, res_from * 2
    if res_from != res_to:
        f = res_to / res_from
        x = g.node("Resize", [x, "", g.floats([1, 1, f, f])], mode="nearest",
                   coordinate_transformation_mode="asymmetric")
    return x, cin


def trunk_graph(a, rng, fp16=False):
    g = Graph("trunk", fp16)
    rig = g.input("rig_params", [1, a.rig_dim])
    c = a.code_channels
    h = g.node("Gemm", [rig, g.weight(rng.standard_normal((c * CODE_RES * CODE_RES, a.rig_dim)) * 0.1),
                        g.weight(np.zeros(c * CODE_RES * CODE_RES))], transB=1)
    h = g.node("LeakyRelu", [h], alpha=0.1)
    g.output(g.node("Reshape", [h, g.ints([1, c, CODE_RES, CODE_RES])]), "code", [1, c, CODE_RES, CODE_RES])
    if a.zpack:
        z = g.node("Gemm", [rig, g.weight(rng.standard_normal((a.zpack, a.rig_dim)) * 0.1),
                            g.weight(np.zeros(a.zpack))], transB=1)
        g.output(z, "zpack", [1, a.zpack])
    return g


def zpack_term(g, a, channels, rng, zero):
    """A per-channel bias from zpack: Gemm then Reshape to [1,C,1,1] (broadcast add)."""
    z = g.input("zpack", [1, a.zpack])
    w = np.zeros((channels, a.zpack)) if zero else rng.standard_normal((channels, a.zpack)) * 0.01
    t = g.node("Gemm", [z, g.weight(w), g.weight(np.zeros(channels))], transB=1)
    return g.node("Reshape", [t, g.ints([1, channels, 1, 1])])


def geom_graph(a, rng, fp16=False):
    g = Graph("geom", fp16)
    c, res = a.code_channels, a.uv_res
    closed = a.kind != "realistic"
    channels = 10 if a.broken == "wrong-channels" else 11
    if a.fused:
        rig = g.input("rig_params", [1, a.rig_dim])
        h = g.node("Gemm", [rig, g.weight(rng.standard_normal((c * CODE_RES * CODE_RES, a.rig_dim)) * 0.1),
                            g.weight(np.zeros(c * CODE_RES * CODE_RES))], transB=1)
        code = g.node("Reshape", [h, g.ints([1, c, CODE_RES, CODE_RES])])
        g.output(code, "code", [1, c, CODE_RES, CODE_RES])
    else:
        code = g.input("code", [1, c, CODE_RES, CODE_RES])
    x, width = upsample(g, code, c, max(c // 2, 4), CODE_RES, res, rng, 0.2, halve=not closed)
    bias = np.resize(np.asarray(a.geom, dtype=np.float64), channels) if closed else rng.standard_normal(channels) * 0.1
    y = conv(g, x, width, channels, 3, rng, 0.05, zero=closed, bias=bias)
    if a.zpack and not a.fused:
        y = g.node("Add", [y, zpack_term(g, a, channels, rng, zero=closed)])
    name = "geom" if a.broken == "missing-output" else "geom_uv"
    g.output(y, name, [1, channels, res, res])
    return g


def appr_graph(a, rng, fp16=False):
    g = Graph("appr", fp16)
    c, res = a.code_channels, a.uv_res
    closed = a.kind != "realistic"
    code = g.input("code", [1, c, CODE_RES, CODE_RES])
    x, width = upsample(g, code, c, max(c // 2, 4), CODE_RES, res, rng, 0.2, halve=not closed)
    from_code = conv(g, x, width, 3, 1, rng, 0.1, zero=closed)
    if a.broken != "missing-input":
        rays = g.input("plucker", [1, 6, 1, res, res])
        rays = g.node("Reshape", [rays, g.ints([1, 6, res, res])])
        if closed:  # analytic: 0.5 + 0.4 d; sample: a skin tone lit a little by the view
            gain, base = (0.12, [0.80, 0.62, 0.52]) if a.kind == "sample" else (0.4, [0.5, 0.5, 0.5])
            w = np.zeros((3, 6, 1, 1))
            for k in range(3):
                w[k, 3 + k, 0, 0] = gain
            from_rays = g.node("Conv", [rays, g.weight(w), g.weight(base)], kernel_shape=[1, 1])
        else:
            from_rays = conv(g, rays, 6, 3, 1, rng, 0.3)
        y = g.node("Add", [from_code, from_rays])
    else:
        y = from_code
    if a.zpack:
        y = g.node("Add", [y, zpack_term(g, a, 3, rng, zero=closed)])
    out_res = res // 2 if a.broken == "wrong-shape" else res
    if out_res != res:
        y = g.node("Resize", [y, "", g.floats([1, 1, 0.5, 0.5])], mode="nearest",
                   coordinate_transformation_mode="asymmetric")
    g.output(y, "color_uv", [1, 3, out_res, out_res])
    return g


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--branch", default="head")
    p.add_argument("--uv-res", type=int, default=64)
    p.add_argument("--rig-dim", type=int, required=True)
    p.add_argument("--code-channels", type=int, default=16)
    p.add_argument("--kind", choices=["analytic", "sample", "realistic"], default="analytic")
    p.add_argument("--geom", type=float, nargs="+",
                   help="the 11 geom_uv constants of the closed-form kinds")
    p.add_argument("--zpack", type=int, default=0, help="zpack width (0: none)")
    p.add_argument("--fused", action="store_true")
    p.add_argument("--fp16", action="store_true", help="also write _fp16 siblings of geom and appr")
    p.add_argument("--break", dest="broken",
                   choices=["missing-output", "wrong-channels", "wrong-shape", "missing-input",
                            "huge-initializer"])
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    if a.geom is None:
        a.geom = ([0, 0, 0, 1, 0, 0, 0, -0.7, -0.7, -2.0, 4.0] if a.kind == "sample"
                  else [0, 0, 0, 1, 0, 0, 0, -3.0, -3.5, -4.0, 2.0])
    if len(a.geom) != 11:
        p.error("--geom takes 11 numbers")
    os.makedirs(a.out, exist_ok=True)
    b = a.branch
    rng = np.random.default_rng(a.seed)
    if not a.fused:
        trunk_graph(a, rng).save(os.path.join(a.out, f"trunk_{b}.onnx"))
    state = rng.bit_generator.state
    geom_graph(a, rng).save(os.path.join(a.out, f"geom_{b}.onnx"))
    appr_graph(a, rng).save(os.path.join(a.out, f"appr_{b}.onnx"))
    if a.broken == "huge-initializer":  # written past the checker, as a corrupt file would be
        path = os.path.join(a.out, f"geom_{b}.onnx")
        model = onnx.load(path)
        weight = model.graph.initializer[0]
        raw = numpy_helper.to_array(weight).astype(np.float32).tobytes()[:16]
        weight.ClearField("float_data")
        weight.data_type = TensorProto.FLOAT
        weight.raw_data = raw
        del weight.dims[:]
        weight.dims.extend([1 << 10, 1 << 10, 1 << 8])
        onnx.save(model, path)
    if a.fp16:  # the same weights, rounded to fp16
        rng.bit_generator.state = state
        geom_graph(a, rng, fp16=True).save(os.path.join(a.out, f"geom_{b}_fp16.onnx"))
        appr_graph(a, rng, fp16=True).save(os.path.join(a.out, f"appr_{b}_fp16.onnx"))


if __name__ == "__main__":
    main()
