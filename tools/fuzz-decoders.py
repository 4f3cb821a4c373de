#!/usr/bin/python3
"""Structure-aware fuzzing of the decoder path: valid protobuf, broken graphs.

Debian has no libprotobuf-mutator, so the mutations are made with Debian's
python3-onnx: each case loads one of a bundle's decoders (trunk, geom, appr),
applies one to three mutations to the graph's structure - an initialiser's
shape, element type or bytes, a node's attributes, op type or inputs, a
graph input's or output's shape, the opset - writes it back as a well-formed
model into a copy of the bundle, and runs `riglens-cli character splats` on
it. Every case must end in one of two ways: a decoded frame (exit 0) or a
refusal that names the mutated file (exit 1). A signal, a hang past the
timeout, or a refusal that does not say which file is a finding: its graph
is kept under OUT/findings/ with the command that reproduces it.

  tools/fuzz-decoders.py BUNDLE OUT [--cases N] [--seed S] [--cli PATH]

BUNDLE is a decodable bundle, e.g. `riglens-cli character make-sample --out
DIR` (DIR/sample-bundle); make-sample refuses to write one its decoders
cannot decode (another --uv-res than theirs, --schema1 without fused
graphs). Deterministic: the same seed makes the same graphs. Prints one
line per finding and a summary; exits 1 when there is a finding.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys

import onnx
from onnx import TensorProto

GRAPHS = ["trunk_head.onnx", "geom_head.onnx", "appr_head.onnx"]
OP_TYPES = ["Conv", "ConvTranspose", "Gemm", "Add", "Reshape", "Resize", "LeakyRelu", "Relu", "Transpose",
            "Concat", "MatMul", "Identity", "NoSuchOp"]
EDGE_INTS = [-(2**31), -1, 0, 1, 2, 3, 7, 2**31 - 1, 2**40]


def pick_initializer(model, rng):
    inits = list(model.graph.initializer)
    return rng.choice(inits) if inits else None


def mutate_initializer_dims(model, rng):
    t = pick_initializer(model, rng)
    if t is None:
        return "no initialiser"
    if not t.dims:
        t.dims.append(rng.choice(EDGE_INTS))
        return f"initialiser {t.name}: a dim added"
    i = rng.randrange(len(t.dims))
    t.dims[i] = rng.choice(EDGE_INTS + [t.dims[i] * 2, t.dims[i] + 1])
    return f"initialiser {t.name}: dim {i} = {t.dims[i]}"


def mutate_initializer_bytes(model, rng):
    t = pick_initializer(model, rng)
    if t is None:
        return "no initialiser"
    if t.raw_data:
        keep = rng.randrange(len(t.raw_data))
        t.raw_data = t.raw_data[:keep]
        return f"initialiser {t.name}: raw data cut to {keep} bytes"
    del t.float_data[rng.randrange(len(t.float_data) + 1):]
    return f"initialiser {t.name}: float data cut"


def mutate_initializer_type(model, rng):
    t = pick_initializer(model, rng)
    if t is None:
        return "no initialiser"
    t.data_type = rng.choice([TensorProto.UNDEFINED, TensorProto.UINT8, TensorProto.INT64, TensorProto.DOUBLE,
                              TensorProto.FLOAT16, TensorProto.STRING, TensorProto.BOOL, 99])
    return f"initialiser {t.name}: type {t.data_type}"


def mutate_attribute(model, rng):
    nodes = [n for n in model.graph.node if n.attribute]
    if not nodes:
        return "no attribute"
    node = rng.choice(nodes)
    attr = rng.choice(list(node.attribute))
    if rng.random() < 0.2:
        node.attribute.remove(attr)
        return f"{node.op_type}: attribute {attr.name} dropped"
    if attr.type == onnx.AttributeProto.INT:
        attr.i = rng.choice(EDGE_INTS)
    elif attr.type == onnx.AttributeProto.INTS and len(attr.ints):
        attr.ints[rng.randrange(len(attr.ints))] = rng.choice(EDGE_INTS)
        if rng.random() < 0.3:
            attr.ints.append(rng.choice(EDGE_INTS))
    elif attr.type == onnx.AttributeProto.FLOAT:
        attr.f = rng.choice([float("nan"), float("inf"), -float("inf"), 0.0, 1e38, -1.0])
    elif attr.type == onnx.AttributeProto.STRING:
        attr.s = rng.choice([b"", b"nearest", b"cubic", b"\xff\xfe", b"x" * 300])
    else:
        attr.type = onnx.AttributeProto.INT
        attr.i = rng.choice(EDGE_INTS)
    return f"{node.op_type}: attribute {attr.name} changed"


def mutate_node(model, rng):
    nodes = list(model.graph.node)
    if not nodes:
        return "no node"
    node = rng.choice(nodes)
    kind = rng.randrange(4)
    if kind == 0:
        node.op_type = rng.choice(OP_TYPES)
        return f"node {node.name or node.output[0]}: op {node.op_type}"
    if kind == 1 and node.input:
        names = [n for other in nodes for n in other.output] + ["", "no_such_edge"]
        i = rng.randrange(len(node.input))
        node.input[i] = rng.choice(names)
        return f"node {node.op_type}: input {i} = '{node.input[i]}'"
    if kind == 2:
        model.graph.node.remove(node)
        return f"node {node.op_type} removed"
    model.graph.node.append(node)  # the same outputs written twice
    return f"node {node.op_type} duplicated"


def mutate_io_shape(model, rng):
    values = list(model.graph.input) + list(model.graph.output)
    value = rng.choice(values)
    dims = value.type.tensor_type.shape.dim
    if not dims:
        return f"{value.name}: no shape"
    d = dims[rng.randrange(len(dims))]
    if rng.random() < 0.3:
        d.dim_param = "n"
    else:
        d.dim_value = rng.choice([0, 1, 3, 100000, 2**31 - 1])
    return f"{value.name}: a dim changed"


def mutate_opset(model, rng):
    for opset in model.opset_import:
        opset.version = rng.choice([1, 6, 7, 9, 11, 13, 99])
    return "opset changed"


MUTATIONS = [mutate_initializer_dims, mutate_initializer_bytes, mutate_initializer_type, mutate_attribute,
             mutate_node, mutate_io_shape, mutate_opset]


def run_case(cli, bundle, graph, timeout):
    out = os.path.join(bundle, "frame.ply")
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "vkkhrdisplay"))
    try:
        done = subprocess.run([cli, "character", "splats", bundle, "--out", out], capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "hang", ""
    message = (done.stdout + done.stderr).strip()
    if done.returncode == 0:
        return "decoded", message
    if done.returncode == 1:
        return ("refused" if graph in message else "refused without the file's name"), message
    return f"exit {done.returncode}", message


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bundle")
    p.add_argument("out")
    p.add_argument("--cases", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("--cli", default=os.path.join(os.path.dirname(__file__), "..", "build", "app", "riglens-cli"))
    args = p.parse_args()
    rng = random.Random(args.seed)
    work = os.path.join(args.out, "bundle")
    findings = os.path.join(args.out, "findings")
    os.makedirs(findings, exist_ok=True)
    originals = {g: onnx.load(os.path.join(args.bundle, g)) for g in GRAPHS}
    counts = {}
    for case in range(args.cases):
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(args.bundle, work)
        graph = rng.choice(GRAPHS)
        model = onnx.ModelProto()
        model.CopyFrom(originals[graph])
        what = [rng.choice(MUTATIONS)(model, rng) for _ in range(rng.randint(1, 3))]
        with open(os.path.join(work, graph), "wb") as f:
            f.write(model.SerializeToString())
        outcome, message = run_case(args.cli, work, graph, args.timeout)
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome not in ("decoded", "refused"):
            kept = os.path.join(findings, f"case{case}-{graph}")
            shutil.copy(os.path.join(work, graph), kept)
            print(f"case {case}: {outcome}: {graph}: {'; '.join(what)} -> {kept}\n  {message[-300:]}")
    print(f"{args.cases} cases (seed {args.seed}): " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0 if set(counts) <= {"decoded", "refused"} else 1


if __name__ == "__main__":
    sys.exit(main())
