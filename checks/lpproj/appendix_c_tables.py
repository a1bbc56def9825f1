"""App. C (experimental details): the parameter counts of Table 3 and the data-volume-skew text of App. C.7.1.

Han, Li, Lin and Zhang (2024), JMLR 25: the parameter counts of Table 3 recomputed by forward passes through the
models App. C describes, and the text on Tables 10 and 11 (App. C.7.1, data-volume skew) recomputed from the printed
cells. The communication numbers of Sec. 5.3 (Table 1) are in :mod:`.sec53_communication`.
"""
from __future__ import annotations

import math

import numpy as np

from fedtheory import decide
from fedtheory.random import as_generator
from fedtheory.lpproj.extras import layer_parameter_count
from fedtheory.linalg import blas_single_thread
from .sec53_communication import LP, _best_competitor, _relative_gain
from . import PAPER


# ----------------------------------------------------------------------------- Table 3 parameter counts
def _conv(x, w, b, stride=1, pad=0):
    """2-D convolution (cross-correlation) of x (C, H, W) with w (O, C, k, k) and bias b (O,)."""
    from numpy.lib.stride_tricks import sliding_window_view

    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    k = w.shape[-1]
    win = sliding_window_view(x, (k, k), axis=(1, 2))[:, ::stride, ::stride]  # (C, H', W', k, k)
    out = np.einsum("chwij,ocij->ohw", win, w)
    return out + (0 if b is None else b[:, None, None])


def _pool(x, k, stride, pad=0, kind="max"):
    from numpy.lib.stride_tricks import sliding_window_view

    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad)), constant_values=-np.inf if kind == "max" else 0)
    win = sliding_window_view(x, (k, k), axis=(1, 2))[:, ::stride, ::stride]
    return win.max(axis=(-1, -2))


class _Net:
    """A forward pass that allocates every trainable array it uses and counts their entries (the referee)."""

    def __init__(self, g):
        self.g, self.count = g, 0

    def param(self, *shape):
        a = self.g.standard_normal(shape) * 0.1
        self.count += a.size
        return a

    def linear(self, x, n_out):
        return self.param(n_out, x.size) @ x.ravel() + self.param(n_out)

    def conv(self, x, c_out, k, stride=1, pad=0):
        return _conv(x, self.param(c_out, x.shape[0], k, k), self.param(c_out), stride, pad)

    def bn(self, x):
        gamma, beta = self.param(x.shape[0]), self.param(x.shape[0])
        m, v = x.mean(axis=(1, 2), keepdims=True), x.var(axis=(1, 2), keepdims=True)
        return gamma[:, None, None] * (x - m) / np.sqrt(v + 1e-5) + beta[:, None, None]

    def residual(self, x, c_out, stride):
        """ResNet basic residual (He et al. 2016, as in the d2l implementation): conv3x3-BN-ReLU-conv3x3-BN plus a
        1x1-conv shortcut when the shape changes."""
        yv = np.maximum(self.bn(self.conv(x, c_out, 3, stride, 1)), 0)
        yv = self.bn(self.conv(yv, c_out, 3, 1, 1))
        sc = self.conv(x, c_out, 1, stride, 0) if (c_out != x.shape[0] or stride != 1) else x
        return np.maximum(yv + sc, 0)


def _forward_count(model, g):
    """Run App. C's model on one input of the data set's shape; return (parameter count, output size)."""
    net = _Net(g)
    relu = lambda v: np.maximum(v, 0)  # noqa: E731
    if model == "Synthetic":  # multinomial logistic regression on x in R^60, 10 classes
        out = net.linear(g.standard_normal(60), 10)
    elif model in ("MNIST", "EMNIST"):  # 1 / 2 hidden layers of 100 ReLU units on 28 x 28 images
        h = g.standard_normal(784)
        for _ in range(1 if model == "MNIST" else 2):
            h = relu(net.linear(h, 100))
        out = net.linear(h, 10 if model == "MNIST" else 62)
    elif model == "CIFAR":  # conv(3->6, 5), conv(6->16, 5), each ReLU + maxpool 2/2; FC 400-120-84-10
        h = g.standard_normal((3, 32, 32))
        h = _pool(relu(net.conv(h, 6, 5)), 2, 2)
        h = _pool(relu(net.conv(h, 16, 5)), 2, 2)
        h = relu(net.linear(h, 120))
        h = relu(net.linear(h, 84))
        out = net.linear(h, 10)
    elif model == "FASHIONMNIST":  # conv 1->64 k7 s2 p3 + BN + ReLU + maxpool(3,2,1); 2 res blocks; avgpool; FC
        h = g.standard_normal((1, 28, 28))
        h = _pool(relu(net.bn(net.conv(h, 64, 7, 2, 3))), 3, 2, 1)
        for c_out, first_stride in ((64, 1), (128, 2)):
            for i in range(2):
                h = net.residual(h, c_out, first_stride if i == 0 else 1)
        out = net.linear(h.mean(axis=(1, 2)), 10)
    else:  # pragma: no cover
        raise ValueError(model)
    return net.count, out.size


def _closed_form_count(model):
    """Table 3 models' parameter counts from :func:`layer_parameter_count`."""
    lin = lambda i, o: layer_parameter_count("linear", i, o)  # noqa: E731
    conv = lambda i, o, k: layer_parameter_count("conv", i, o, k)  # noqa: E731
    bn = lambda c: layer_parameter_count("batchnorm", c, c)  # noqa: E731
    if model == "Synthetic":
        return lin(60, 10)
    if model == "MNIST":
        return lin(784, 100) + lin(100, 10)
    if model == "EMNIST":
        return lin(784, 100) + lin(100, 100) + lin(100, 62)
    if model == "CIFAR":
        return conv(3, 6, 5) + conv(6, 16, 5) + lin(400, 120) + lin(120, 84) + lin(84, 10)
    res = lambda i, o: conv(i, o, 3) + bn(o) + conv(o, o, 3) + bn(o) + (conv(i, o, 1) if i != o else 0)  # noqa: E731
    return conv(1, 64, 7) + bn(64) + 2 * res(64, 64) + res(64, 128) + res(128, 128) + lin(128, 10)


@PAPER.claim("lpproj.table3.parameter-counts", "Table 3 and App. C ('Total Number of Parameters for the Full Model')",
             "The models described in App. C have 610 (Synthetic), 79510 (MNIST), 62006 (CIFAR), 94862 (EMNIST) and "
             "678794 (FASHIONMNIST) parameters.",
             regime="PyTorch conventions: linear and conv layers with biases, batch norm with 2 trainable vectors (running "
                    "statistics not counted); App. C's FASHIONMNIST ResNet read as the d2l ResNet (basic residuals "
                    "conv3x3-BN-conv3x3-BN, a 1x1-conv shortcut without BN where channels change, stride 2 in the first "
                    "residual of block 2); referee: a numpy forward pass through each model on one input of the data "
                    "set's shape, counting the entries of every trainable array it allocates (this also checks the "
                    "shapes, e.g. CIFAR's 400 = 16 x 5 x 5 features)")
def _table3(full: bool, seed):
    with blas_single_thread():  # small matrices: BLAS threads only contend
        return _table3_body(full, seed)


def _table3_body(full: bool, seed):
    printed = {"Synthetic": 610, "MNIST": 79510, "CIFAR": 62006, "EMNIST": 94862, "FASHIONMNIST": 678794}
    g = as_generator(seed)
    got = {}
    for m in printed:
        cnt, out_size = _forward_count(m, g)
        got[m] = (cnt, _closed_form_count(m), out_size)
    bad = {m: v for m, v in got.items() if not (v[0] == v[1] == printed[m])}
    ok = not bad
    counted = np.array([[v[0], v[1]] for v in got.values()], float)
    return decide.bound(np.abs(counted - np.array([[printed[m]] * 2 for m in got], float)), 0.5, of="tolerance",
                observed_value={m: {"forward_pass": v[0], "layer_formula": v[1]} for m, v in got.items()},
                bound_value=printed,
                what="forward-pass counts " + ", ".join(f"{m} {v[0]}" for m, v in got.items())
                         + (" all equal Table 3 / App. C" if ok else f"; mismatches {bad}")
                         + "; a ResNet without conv biases would have 678090 (FASHIONMNIST)",
                params={"conventions": "conv/linear biases, BN affine, d2l residuals"})


# ----------------------------------------------------------------------------- App. C.7.1, Tables 10 and 11
#: Table 10 (Synthetic(0,0)-unbalance): train loss, train-loss variance, test accuracy, test-accuracy variance
TABLE10 = {"Ditto": (.3860, .1027, .8576, .0230), "pFedMe": (.3875, .1213, .8587, .0257),
           "Per-FedAvg": (.6141, .2197, .7732, .0498), "FedAvg": (.7502, .3246, .7522, .0655),
           "local": (.3070, .0806, .8733, .0206), "lp-proj-1": (.1556, .0095, .9253, .0122),
           "lp-proj-2": (.1664, .0131, .9230, .0122), "RSA": (.4440, .1328, .8374, .0314)}
#: Table 11: test accuracy at the 194700-byte budget
TABLE11_ACC = {"FedAvg": .566, "Sketch": .484, "lp-proj-1": .899, "lp-proj-2": .898, "LBGM": .457, "QSGD": .587,
               "DGC": .735}


def _reduction(new, old):
    """Relative reduction 1 - new/old (train loss, variances)."""
    return 1.0 - new / old


# ----------------------------------------------------------------------------- App. C.7.1 text claims
def _skew_improvements(exclude):
    """Smallest improvement of lp-proj-1/2 over the best competitor per Table 10 metric (competitors minus
    ``exclude``): relative train-loss reduction, accuracy gain (relative and in points), variance reductions."""
    comp = {m: v for m, v in TABLE10.items() if m not in LP and m not in exclude}
    best = [min(v[0] for v in comp.values()), min(v[1] for v in comp.values()), max(v[2] for v in comp.values()),
            min(v[3] for v in comp.values())]
    lp = [TABLE10[m] for m in LP]
    return {"train_loss_reduction": min(_reduction(v[0], best[0]) for v in lp),
            "train_loss_var_reduction": min(_reduction(v[1], best[1]) for v in lp),
            "test_acc_gain_relative": min(_relative_gain(v[2], best[2]) for v in lp),
            "test_acc_gain_points": min(v[2] - best[2] for v in lp),
            "test_acc_var_reduction": min(_reduction(v[3], best[3]) for v in lp)}


@PAPER.claim("lpproj.appC71.table10-text", "App. C.7.1, text on Table 10 (data-volume skew)",
             "Against the state-of-the-art methods of Table 10, lp-proj-1 and lp-proj-2 have train loss lower by at "
             "least 50%, test accuracy higher by at least 6% and train-loss and test-accuracy variances lower by at "
             "least 40%.",
             regime="Table 10 as printed; 'state-of-the-art methods' read as the federated methods Ditto, pFedMe, "
                    "Per-FedAvg, FedAvg and RSA (local training is a baseline, not a SOTA method); for each metric the "
                    "best such method is the comparator and both lp-proj variants must clear the bar; the 6% holds "
                    "whether read relative or in points; referee: recomputation from the cells. With local training "
                    "included the train-loss and accuracy statements fail (reported in the evidence)")
def _table10_text(full: bool, seed):
    sota = _skew_improvements(exclude=("local",))
    with_local = _skew_improvements(exclude=())
    def fmt(r):
        return (f"train loss -{100 * r['train_loss_reduction']:.1f}%, accuracy "
                f"+{100 * r['test_acc_gain_points']:.2f} points ({100 * r['test_acc_gain_relative']:.2f}% relative), "
                f"variances -{100 * r['train_loss_var_reduction']:.1f}% / -{100 * r['test_acc_var_reduction']:.1f}%")
    return decide.bound([sota["train_loss_reduction"], min(sota["test_acc_gain_relative"], sota["test_acc_gain_points"]),
                         sota["train_loss_var_reduction"], sota["test_acc_var_reduction"]], [0.5, 0.06, 0.4, 0.4],
                        sense=">=", observed_value={"vs_sota": sota, "vs_all_incl_local": with_local},
                bound_value={"train_loss_reduction": 0.5, "test_acc_gain": 0.06, "variance_reduction": 0.4},
                what=f"worst lp-proj variant vs the best SOTA method per metric: {fmt(sota)}; with local training "
                         f"as a competitor: {fmt(with_local)} (the 50% and 6% would fail)",
                params={"comparators": "Ditto, pFedMe, Per-FedAvg, FedAvg, RSA"})


@PAPER.claim("lpproj.appC71.table11-text.erratum", "App. C.7.1, text on Table 11 (data-volume skew)",
             "At the 194700-byte budget lp-proj's test accuracy exceeds the best state-of-the-art method's by 22% "
             "(relative; 16.3 points over DGC's 0.735), not by the printed 'at least 32%'.",
             root_cause="appc71-32-for-22",
             regime="Table 11 as printed; the best SOTA method = the highest accuracy at the budget among FedAvg, "
                    "Sketch, LBGM, QSGD and DGC; both lp-proj variants must clear the bar; the printed 32% is tested "
                    "both as a relative gain and in points; corrected: at least 22% relative; referee: recomputation "
                    "from the cells")
def _table11_text(full: bool, seed):
    best = _best_competitor(TABLE11_ACC)
    rel = min(_relative_gain(TABLE11_ACC[m], TABLE11_ACC[best]) for m in LP)
    pts = min(TABLE11_ACC[m] - TABLE11_ACC[best] for m in LP)
    vs_all = {m: round(100 * min(TABLE11_ACC[l] - a for l in LP), 1) for m, a in TABLE11_ACC.items() if m not in LP}
    return decide.erratum(
        decide.bound(max(rel, pts), 0.32, sense=">=", what="printed: gain >= 32% (relative or in points)"),
        decide.identity(math.floor(100 * rel), 22.0, atol=0.5, what="corrected: the relative gain is 22%"),
        root_cause="appc71-32-for-22", what="App. C.7.1, Table 11 text",
        printed_value={"claimed_min_gain": 0.32}, corrected_value={"best_sota": best, "relative_gain": rel, "points": pts,
                                                       "points_vs_each": vs_all},
        evidence=f"best competitor at the budget {best} ({TABLE11_ACC[best]}): lp-proj gains {100 * rel:.1f}% relative, "
                 f"{100 * pts:.1f} points; points over each method {vs_all} (32 is cleared only against FedAvg, "
                 f"Sketch and LBGM)",
        params={"budget_bytes": 194700}, referee="recomputation from the printed table cells")
