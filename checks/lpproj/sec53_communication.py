"""Sec. 5.3 (communication efficiency): the text's numbers recomputed from Table 1 (rows of Table 5).

Han, Li, Lin and Zhang (2024), JMLR 25, Sec. 5.3 (communication savings, Table 1 = the Synthetic(0,0) and EMNIST
rows of Table 5, App. C.4) with the model sizes d and d_sub of App. C. The referee of every claim is the
recomputation from the printed table cells. The data-volume-skew tables of App. C.7.1 are in
:mod:`.appendix_c_tables`.
"""
from __future__ import annotations

import math

from fedtheory import decide
from . import PAPER


# ----------------------------------------------------------------------------- tables, transcribed from the paper
#: Table 1 (= the Synthetic(0,0) and EMNIST rows of Table 5): test accuracy at the byte budget and bytes used to
#: reach the target accuracy; None = a star (budget exceeded in the first round / target never reached).
TABLE1 = {
    "Synthetic(0,0)": {"budget": 328020, "target": 0.6,
                       "acc": {"FedAvg": .625, "Sketch": .456, "lp-proj-1": .885, "lp-proj-2": .888, "LBGM": .815,
                               "QSGD": .115, "DGC": None},
                       "bytes": {"FedAvg": 597800, "Sketch": None, "lp-proj-1": 4620, "lp-proj-2": 4620,
                                 "LBGM": 12200, "QSGD": 923350, "DGC": 372000}},
    "EMNIST": {"budget": 4236900, "target": 0.7,
               "acc": {"FedAvg": None, "Sketch": None, "lp-proj-1": .906, "lp-proj-2": .906, "LBGM": None,
                       "QSGD": None, "DGC": None, "LG-FedAvg": .071},
               "bytes": {"FedAvg": 445851400, "Sketch": None, "lp-proj-1": 174720, "lp-proj-2": 196560,
                         "LBGM": 206307624, "QSGD": 173663720, "DGC": None, "LG-FedAvg": 230786010}},
}
#: lp-proj's used bytes in Tables 5 and 11 (both variants), and d (Table 3, App. C) and d_sub (App. C.2)
LPPROJ_BYTES = {"Synthetic(0,0)": (4620, 4620), "Synthetic(1,1)": (4620, 4620), "EMNIST": (174720, 196560),
                "CIFAR": (26400, 26400), "MNIST": (12000, 12000), "FASHIONMNIST": (144000, 144000),
                "Synthetic-unbalance (Table 11)": (4620, 4620)}
D_FULL = {"Synthetic": 610, "EMNIST": 94862, "CIFAR": 62006, "MNIST": 79510, "FASHIONMNIST": 678794}
D_SUB = {"Synthetic": 21, "EMNIST": 80, "CIFAR": 60, "MNIST": 50, "FASHIONMNIST": 600}
LP = ("lp-proj-1", "lp-proj-2")


def _ratio(a, b):
    """a / b (saving factors)."""
    return a / b


def _relative_gain(new, old):
    """Relative improvement new/old - 1 (test accuracy)."""
    return new / old - 1.0


# ----------------------------------------------------------------------------- Sec. 5.3 and Table 1
def _best_competitor(accs):
    """Name of the competitor (not lp-proj) with the highest accuracy at the budget (stars excluded)."""
    cand = {m: a for m, a in accs.items() if m not in LP and a is not None}
    return max(cand, key=cand.get)


@PAPER.claim("lpproj.sec53.savings", "Sec. 5.3, communication savings (Table 1; erratum 28 of the spec)",
             "Sec. 5.3 quotes from Table 1 '~26.3% and ~83.5% test accuracy improvement' (over FedAvg on "
             "Synthetic(0,0) and LG-FedAvg on EMNIST), communication savings of '1320x' (EMNIST) and '79x' "
             "(Synthetic(0,0)), and a compression d/d_sub >= 1000 on the neural-network data sets.",
             root_cause="sec53-79x-no-ratio",
             aliases=("lpproj.sec53.savings.erratum",),
             regime="Table 1's cells as printed in the paper (equal to Table 5's Synthetic(0,0) and EMNIST rows); "
                    "'improvement' read as lp-proj's better accuracy minus the competitor's, rounded to 0.1 point (the "
                    "relative reading fails); a saving factor X read as matching a ratio r of competitor bytes over "
                    "lp-proj bytes if |r - X| < 1; d from App. C and d_sub from App. C.2; referee: recomputation from "
                    "the table cells. The 26.3, 83.5, 1320 and 1000 hold under these readings; the 79x matches no ratio "
                    "and no typo-level correction is known (formerly lpproj.sec53.savings.erratum)")
def _sec53(full: bool, seed):
    syn, em = TABLE1["Synthetic(0,0)"], TABLE1["EMNIST"]
    lp_syn = max(syn["acc"][m] for m in LP)
    lp_em = max(em["acc"][m] for m in LP)
    gain_syn_fedavg = round(100 * (lp_syn - syn["acc"]["FedAvg"]), 1)
    gain_em_lg = round(100 * (lp_em - em["acc"]["LG-FedAvg"]), 1)
    rel_syn = 100 * _relative_gain(lp_syn, syn["acc"]["FedAvg"])
    best_syn, best_em = _best_competitor(syn["acc"]), _best_competitor(em["acc"])
    ratios_syn = {f"{m}/{l}": _ratio(bt, syn["bytes"][l]) for m, bt in syn["bytes"].items() if m not in LP and bt
                  for l in LP}
    ratio_em = _ratio(em["bytes"]["LG-FedAvg"], em["bytes"]["lp-proj-1"])
    closest79 = min(ratios_syn.items(), key=lambda kv: abs(kv[1] - 79))
    compression = {k: D_FULL[k] / D_SUB[k] for k in D_FULL}
    saving_best_syn = _ratio(syn["bytes"][best_syn], syn["bytes"]["lp-proj-2"])
    return decide.combine([
        decide.identity([gain_syn_fedavg, gain_em_lg], [26.3, 83.5], atol=1e-9, what="accuracy gains in points"),
        decide.identity(ratio_em, 1320.0, atol=1.0, what="EMNIST LG-FedAvg/lp-proj-1 bytes vs 1320x"),
        decide.bound([compression[k] for k in D_FULL if k != "Synthetic"], 1000.0, sense=">=",
                     what="d/d_sub >= 1000 on the neural-network data sets"),
        decide.identity(closest79[1], 79.0, atol=1.0, what="closest Synthetic(0,0) byte ratio vs 79x")],
        observed={"79x_closest_ratio": closest79, "synthetic_ratios": {k: round(v, 2) for k, v in ratios_syn.items()},
                  "gain_points_vs_FedAvg_syn": gain_syn_fedavg, "gain_points_vs_LG-FedAvg_emnist": gain_em_lg,
                  "relative_gain_vs_FedAvg_syn_%": rel_syn, "emnist_LG-FedAvg_ratio": ratio_em,
                  "best_competitor_at_budget": {"Synthetic(0,0)": best_syn, "EMNIST": best_em},
                  "synthetic_saving_vs_best_competitor": saving_best_syn, "d/d_sub": compression},
        bound={"gains": [26.3, 83.5], "savings": [1320, 79], "d/d_sub": 1000},
        what=f"Table 1: {100 * lp_syn:.1f} - {100 * syn['acc']['FedAvg']:.1f} = {gain_syn_fedavg} points "
                 f"(relative {rel_syn:.1f}%), {100 * lp_em:.1f} - {100 * em['acc']['LG-FedAvg']:.1f} = {gain_em_lg} "
                 f"points; EMNIST LG-FedAvg/lp-proj-1 bytes = {ratio_em:.1f}; no Synthetic byte ratio is within 1 of "
                 f"79 (closest {closest79[0]} = {closest79[1]:.2f}; FedAvg 129.4, best competitor at the budget "
                 f"{best_syn}: {saving_best_syn:.2f}); d/d_sub = "
                 + ", ".join(f"{k} {v:.0f}" for k, v in compression.items()),
        params={"source": "Table 1 / Table 5 as printed"},
        referee="recomputation from the printed table cells")


@PAPER.claim("lpproj.table1.byte-accounting", "Table 1 / Table 5, Synthetic(0,0) bytes (spec claim 49)",
             "lp-proj reaches 0.6 test accuracy on Synthetic(0,0) with 4620 bytes against FedAvg's 597800 (about 129x); "
             "a message is d_sub = 21 floats against d = 610 (610/21 = 29x), and both byte counts are whole numbers of "
             "4-byte-float messages (4620 = 55 x 4 x 21, 597800 = 245 x 4 x 610).",
             regime="Table 1's Synthetic(0,0) cells as printed, 4-byte floats, d and d_sub from App. C; referee: exact "
                    "integer arithmetic (divisibility and the factorisation 597800/4620 = (245/55)(610/21)); the other "
                    "data sets' lp-proj byte counts are reported, not judged (they are means over 10 repeats)")
def _table1_bytes(full: bool, seed):
    syn = TABLE1["Synthetic(0,0)"]
    b_lp, b_fa = syn["bytes"]["lp-proj-1"], syn["bytes"]["FedAvg"]
    d, ds = D_FULL["Synthetic"], D_SUB["Synthetic"]
    m_lp, r_lp = divmod(b_lp, 4 * ds)
    m_fa, r_fa = divmod(b_fa, 4 * d)
    ratio = _ratio(b_fa, b_lp)
    factor = (m_fa / m_lp) * (d / ds) if m_lp else math.nan
    others = {}
    for key, pair in LPPROJ_BYTES.items():
        dsk = D_SUB["Synthetic" if key.startswith("Synthetic") else key]
        others[key] = [p / (4 * dsk) for p in pair]
    non_integer = {k: v for k, v in others.items() if any(abs(x - round(x)) > 1e-9 for x in v)}
    return decide.combine([
        decide.identity([r_lp, r_fa, syn["bytes"]["lp-proj-2"] - b_lp], 0.0, atol=0.5,
                        what="whole messages (remainders) and equal lp-proj-1/2 bytes"),
        decide.identity(ratio, factor, rtol=1e-9, what="597800/4620 = (m_FedAvg/m_lp) (d/d_sub)"),
        decide.identity([ratio, d / ds], [129.0, 29.0], atol=0.5, what="~129x and ~29x")],
                observed={"ratio": ratio, "messages_lpproj": m_lp, "messages_FedAvg": m_fa, "d/d_sub": d / ds,
                          "lpproj_bytes_in_4d_sub_units": others},
                bound={"ratio_printed": "~129", "d/d_sub_printed": "~29"},
                what=f"4620 = {m_lp} x 4 x {ds} (remainder {r_lp}), 597800 = {m_fa} x 4 x {d} (remainder {r_fa}); "
                         f"597800/4620 = {ratio:.2f} = ({m_fa}/{m_lp}) x ({d}/{ds}); d/d_sub = {d / ds:.2f}; lp-proj byte "
                         f"counts not a whole number of 4 d_sub-byte messages: "
                         + (", ".join(f"{k} {v}" for k, v in non_integer.items()) or "none"),
                params={"float_bytes": 4})
