"""Tests of :mod:`fedtheory.cli`: ``fedtheory list``, ``verify``, ``reproduce`` and the calculators, one-line errors
with exit status 2, every option's help and default, NaN/inf rejected, broken pipes, Ctrl-C during a sweep or
``verify``, and lines cut at a word boundary."""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from fedtheory import Paper, register_paper, unregister_paper
from fedtheory.claims import FAILS
from fedtheory.cli import _cut, build_parser, calc_parser, main

CLI = [sys.executable, "-m", "fedtheory"]


def run(*args, env=None, cwd=None, timeout=300):
    full_env = None if env is None else {**os.environ, **env}
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True, env=full_env, cwd=cwd,
                          timeout=timeout)


def assert_usage_error(r, *words):
    """Exit 2, exactly one stderr line ``fedtheory: error: ...`` containing ``words``, no traceback,
    nothing on stdout (no work started)."""
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("fedtheory: error: "), r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    assert r.stdout == "", r.stdout


@pytest.fixture
def afile(tmp_path):
    """A regular file: a path under it cannot be created."""
    f = tmp_path / "a-file"
    f.write_text("x")
    return f


# ----------------------------------------------------------------------------- 1. output paths
@pytest.mark.parametrize("args, words", [
    (["verify", "--claim", "fedrep.def1.dist-identities", "--json", "{afile}/out.json"], ["--json", "not a folder"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--json", "{tmp}"], ["--json", "is a folder"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--json", "/proc/version"], ["--json"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--json", "/proc/fedtheory-no/out.json"], ["--json"]),
    (["ledger", "--paper", "fedrep", "--json", "{afile}/sub/ledger.json"], ["--json", "not a folder"]),
    (["ledger", "--paper", "fedrep", "--json", "{tmp}"], ["--json", "is a folder"]),
    (["bench", "--quick", "--json", "{afile}/b.json"], ["--json", "not a folder"]),
    (["bench", "--quick", "--json", "/proc/bench.json"], ["--json"]),
    (["reproduce", "fedrep", "--figure", "fedrep.fig4", "--out", "{afile}"], ["--out", "is a file"]),
    (["reproduce", "fedrep", "--figure", "fedrep.fig4", "--out", "{afile}/figs"], ["--out", "not a folder"]),
    (["reproduce", "fedrep", "--figure", "fedrep.fig4", "--out", "/proc/fedtheory-figs"], ["--out"]),
    (["report", "--paper", "fedrep", "--out", "{afile}"], ["--out", "is a file"]),
    (["report", "--paper", "fedrep", "--out", "{tmp}/rep"], ["--out", "index.html", "folder"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--cache", "{afile}"], ["--cache", "is a file"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--cache", "{afile}/c"], ["--cache", "not a folder"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--cache", "/proc/fedtheory-cache"], ["--cache"]),
    (["explore", "lowrank-theorem1", "--save", "{afile}/x.png"], ["--save", "not a folder"]),
    (["explore", "lowrank-theorem1", "--save", "{tmp}"], ["--save", "is a folder"]),
])
def test_unusable_output_path_is_one_line_before_any_work(tmp_path, afile, args, words):
    (tmp_path / "rep" / "index.html").mkdir(parents=True)  # a folder where report writes a file
    args = [a.format(afile=afile, tmp=tmp_path) for a in args]
    assert_usage_error(run(*args, cwd=tmp_path), *words)


@pytest.mark.parametrize("value, words", [("{afile}", ["$FEDTHEORY_CACHE", "is a file"]),
                                          ("/proc/fedtheory-env-cache", ["$FEDTHEORY_CACHE"])])
def test_unusable_cache_from_the_environment(tmp_path, afile, value, words):
    r = run("verify", "--claim", "fedrep.def1.dist-identities", env={"FEDTHEORY_CACHE": value.format(afile=afile)})
    assert_usage_error(r, *words)
    # --no-cache does not use it, so it is not checked
    r = run("verify", "--claim", "fedrep.def1.dist-identities", "--no-cache",
            env={"FEDTHEORY_CACHE": value.format(afile=afile)})
    assert "Traceback" not in r.stderr and "holds" in r.stdout


def test_missing_parent_folders_are_created(tmp_path):
    out = tmp_path / "a" / "b" / "ledger.json"
    r = run("ledger", "--paper", "fedrep", "--json", out)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["papers"]["fedrep"]["rows"]
    out = tmp_path / "c" / "d" / "verdicts.json"
    cache = tmp_path / "e" / "f" / "cache"
    r = run("verify", "--paper", "fedrep", "--claim", "fedrep.def1.dist-identities", "--json", out, "--cache", cache)
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["verdicts"][0]["status"] == "holds" and cache.is_dir()


# ----------------------------------------------------------------------------- 2. NaN and inf
@pytest.mark.parametrize("args", [
    ["calc", "lpproj", "--lam", "1e-3", "nan"], ["calc", "lpproj", "--tau", "inf"], ["calc", "lpproj", "--Sigma=-inf"],
    ["calc", "srpfl", "--c-hat", "nan"], ["calc", "srpfl", "--c", "inf"], ["calc", "fedlrgd", "--eta", "inf"],
    ["calc", "fedlrgd", "--b", "3", "--q", "NaN"],
    ["verify", "--scheduler", "tcp://127.0.0.1:1", "--scheduler-timeout", "inf"],
])  # every float option of every calculator: the next test, in-process
def test_nan_and_inf_are_rejected(args):
    opt = [a.split("=")[0] for a in args if a.startswith("--")][-1]
    assert_usage_error(run(*args), opt, "finite")


def test_every_float_option_of_every_calculator_rejects_nan_and_inf(capsys):
    from fedtheory.plugins import load_papers

    papers = [p for p in load_papers(strict=False)[0] if p.calc is not None]
    assert {"srpfl", "lpproj", "fedlrgd"} <= {p.key for p in papers}
    checked = 0
    for p in papers:
        parser = calc_parser(p)
        for action in parser._actions:
            if action.type is not float:
                continue
            for bad in ("nan", "inf", "-inf"):
                with pytest.raises(SystemExit) as exc:
                    parser.parse_args([f"{action.option_strings[0]}={bad}"])
                assert exc.value.code == 2
                err = capsys.readouterr().err
                assert err.count("\n") == 1 and action.option_strings[0] in err and "finite" in err
                checked += 1
    assert checked >= 3 * 15


# ----------------------------------------------------------------------------- 3. ignored options
@pytest.mark.parametrize("args, words", [
    (["calc", "lpproj", "--attack", "none", "--N-a", "20"], ["--N-a", "--attack none"]),
    (["calc", "lpproj", "--attack", "none", "--tau", "3"], ["--tau", "--attack none"]),
    (["calc", "lpproj", "--attack", "none", "--M0", "1"], ["--M0", "--attack none"]),
    (["calc", "lpproj", "--M0", "1"], ["--M0", "sign-flip"]),
    (["calc", "lpproj", "--attack", "gaussian", "--M0", "1"], ["--M0", "sign-flip"]),
    (["calc", "lpproj", "--attack", "sign-flip", "--M0", "1", "--tau", "5"], ["--tau", "sign-flip"]),
    (["calc", "lpproj", "--attack", "sign-flip"], ["--M0", "required"]),
    (["calc", "fedlrgd", "--q", "10"], ["--q", "--b"]),
    (["calc", "fedlrgd", "--alpha", "2"], ["--alpha", "--kappa", "--eps"]),
    (["calc", "fedlrgd", "--B", "2", "--mu", "0.5", "--p", "3"], ["--B", "--mu", "--p", "--kappa"]),
    (["verify", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], ["--workers", "--scheduler"]),
    (["reproduce", "fedrep", "--cache", "x", "--no-cache"], ["--cache", "--no-cache"]),
    (["report", "--scheduler-timeout", "5"], ["--scheduler-timeout", "scheduler"]),
    (["verify", "--claim", "fedrep.def1.dist-identities", "--paper", "srpfl"], ["fedrep", "--paper"]),
    (["calc", "--N", "5"], ["--N"]),
])
def test_options_that_would_be_ignored_are_errors(args, words):
    assert_usage_error(run(*args), *words)


def test_workers_with_a_scheduler_from_the_environment_is_an_error():
    r = run("verify", "--workers", "2", env={"FEDTHEORY_SCHEDULER": "tcp://127.0.0.1:1"})
    assert_usage_error(r, "--workers", "$FEDTHEORY_SCHEDULER")


def test_the_same_options_where_they_apply_still_work():
    r = run("calc", "lpproj", "--attack", "sign-flip", "--M0", "1", "--N-a", "5")
    assert r.returncode == 0 and "'M0': 1.0" in r.stdout, r.stderr
    r = run("calc", "lpproj", "--attack", "none")
    assert r.returncode == 0 and "'N_a': 0" in r.stdout and "'tau': 100.0" in r.stdout, r.stderr
    r = run("calc", "lpproj", "--attack", "gaussian", "--tau", "3", "--N-a", "4")
    assert r.returncode == 0 and "'tau': 3.0" in r.stdout, r.stderr
    r = run("calc", "fedlrgd", "--d", "1", "--eta", "50", "--b", "5", "--q", "10", "--kappa", "2", "--alpha", "1.0")
    assert r.returncode == 0 and "Proposition 2 (b=5, q=10.0)" in r.stdout and "Theorem 2" in r.stdout, r.stderr
    r = run("calc", "fedlrgd", "--b", "5")
    assert r.returncode == 0 and "q=100.0" in r.stdout, r.stderr


def test_calculator_numbers_are_unchanged():
    r = run("calc", "lpproj")  # Figure 1 parameters
    assert r.returncode == 0 and "0.000246269" in r.stdout
    r = run("calc", "srpfl", "--N", "256")
    assert r.returncode == 0 and "0.474" in r.stdout
    r = run("calc", "fedlrgd", "--d", "1", "--eta", "50", "--kappa", "2", "--eps", "0.01")
    assert r.returncode == 0 and "r = 278" in r.stdout


def test_srpfl_calculator_with_a_zero_time_has_no_division_by_zero():
    r = run("calc", "srpfl", "--N", "4", "256")
    assert r.returncode == 0 and "Traceback" not in r.stderr and r.stderr == ""
    assert "already meets the target" in r.stdout and "0.474" in r.stdout


# ----------------------------------------------------------------------------- 4. broken pipe
def _closed_pipe(args, read_lines=0, timeout=300):
    """Run with stdout on a pipe whose reader goes away after ``read_lines`` lines."""
    p = subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    got = [p.stdout.readline() for _ in range(read_lines)]
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=timeout)
    return p.returncode, got, err


@pytest.mark.parametrize("args, read", [(["list", "--paper", "fedrep", "--paper", "srpfl"], 0),
                                        (["list", "--paper", "fedrep"], 1),
                                        (["ledger", "--paper", "srpfl", "--verbose"], 1),
                                        (["cite", "fedrep"], 0), (["--help"], 0),
                                        (["calc", "srpfl", "--N", "256", "1024"], 0),
                                        (["verify", "--paper", "fedrep", "--no-cache", "--workers", "1"], 1)])
def test_broken_pipe_is_silent(args, read):
    code, got, err = _closed_pipe(args, read)
    assert err == "", err
    assert code == 0
    if read:
        assert got[0].strip()


def test_broken_pipe_in_a_shell_pipeline_is_silent():
    for cmd in ("list", "ledger", "verify --paper fedrep --no-cache --workers 1"):
        r = subprocess.run(f"{sys.executable} -m fedtheory {cmd} | head -1", shell=True, capture_output=True,
                           text=True, timeout=300)
        assert r.stdout.count("\n") == 1
        assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr and "BrokenPipe" not in r.stderr
        # only a paper plugin that fails to load may speak (one line each), nothing else
        assert all(ln.startswith("fedtheory: error: paper plugin") for ln in r.stderr.splitlines()), r.stderr


# ----------------------------------------------------------------------------- 5. Ctrl-C
def _group(pgid: int) -> list[int]:
    """Processes still alive in a process group."""
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(d))
    return out


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return fh.read().split()
    except OSError:
        return []


def _interrupt(args, ready):
    """Start the command in its own process group, wait until ``ready(proc, stdout_lines)``, let it
    work two more seconds, then send SIGINT to the whole group (as Ctrl-C in a terminal does)."""
    # a terminal's Ctrl-C reaches a command whose SIGINT is at its default; a test run started in the
    # background (`cmd &` in a script) inherits SIGINT ignored, so the child restores the default first
    p = subprocess.Popen(CLI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(p.stdout), daemon=True)
    reader.start()
    deadline = time.time() + 240
    while time.time() < deadline and p.poll() is None and not ready(p, lines):
        time.sleep(0.05)
    assert p.poll() is None, "the command ended before it could be interrupted"
    was_ready = ready(p, lines)
    time.sleep(2)
    t0 = time.time()
    os.killpg(p.pid, signal.SIGINT)
    err = p.stderr.read()
    p.wait(timeout=120)
    reader.join(5)
    stopped = time.time() - t0
    time.sleep(0.5)
    left = _group(p.pid)
    if left:  # pragma: no cover - clean up before failing
        os.killpg(p.pid, signal.SIGKILL)
    return p.returncode, err, stopped, left, was_ready


@pytest.mark.slow
def test_ctrl_c_during_a_multiprocess_sweep(tmp_path):
    code, err, stopped, left, ready = _interrupt(
        ["reproduce", "fedrep", "--figure", "fedrep.fig3", "--no-cache", "--workers", "2", "--out", str(tmp_path)],
        lambda p, lines: len(_children(p.pid)) >= 2)
    assert ready, "the worker processes never started"
    assert err == "fedtheory: interrupted\n", err
    assert code == 130
    assert not left, f"processes left running: {left}"
    assert stopped < 30
    assert not list(tmp_path.glob("*.png"))


@pytest.mark.slow
def test_ctrl_c_during_verify():
    code, err, stopped, left, ready = _interrupt(["verify", "--paper", "srpfl", "--no-cache", "--workers", "2"],
                                                 lambda p, lines: len(lines) >= 1)
    assert ready
    assert err == "fedtheory: interrupted\n", err
    assert code == 130 and not left


# ----------------------------------------------------------------------------- 6. unreachable scheduler
def test_unreachable_scheduler_is_one_line_within_its_timeout():
    pytest.importorskip("distributed")
    from fedtheory import parallel
    from fedtheory.cli import SCHEDULER_TIMEOUT

    assert SCHEDULER_TIMEOUT == parallel.SCHEDULER_TIMEOUT == 10.0
    t0 = time.time()
    r = run("verify", "--claim", "fedrep.def1.dist-identities", "--scheduler", "tcp://127.0.0.1:1",
            "--scheduler-timeout", "2")
    assert time.time() - t0 < 60
    assert_usage_error(r, "--scheduler tcp://127.0.0.1:1", "2 s")
    r = run("verify", "--claim", "fedrep.def1.dist-identities", "--scheduler-timeout", "2",
            env={"FEDTHEORY_SCHEDULER": "tcp://127.0.0.1:1"})
    assert_usage_error(r, "$FEDTHEORY_SCHEDULER")


# ----------------------------------------------------------------------------- 7. help
def _all_parsers():
    from fedtheory.plugins import load_papers

    main_parser = build_parser()
    subs = next(a for a in main_parser._actions if isinstance(a, argparse._SubParsersAction))
    out = [("fedtheory", main_parser)] + [(f"fedtheory {k}", v) for k, v in subs.choices.items()]
    for p in load_papers(strict=False)[0]:
        if p.calc is not None:
            out.append((f"fedtheory calc {p.key}", calc_parser(p)))
    return out


def test_every_option_has_a_help_and_a_default():
    parsers = _all_parsers()
    assert {"fedtheory calc srpfl", "fedtheory calc lpproj", "fedtheory calc fedlrgd"} <= {n for n, _ in parsers}
    for name, parser in parsers:
        fmt = parser._get_formatter()
        for action in parser._actions:
            what = f"{name} {'/'.join(action.option_strings) or action.dest}"
            assert action.help and action.help is not argparse.SUPPRESS and action.help.strip(), what
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
                continue
            if action.nargs == 0:  # a flag: off unless given
                continue
            if action.required:
                continue
            shown = fmt._expand_help(action)
            assert "default" in shown.lower(), f"{what}: the help does not say the default: {shown!r}"


@pytest.mark.parametrize("args", [["--help"], ["verify", "--help"], ["reproduce", "--help"],
                                  ["calc", "srpfl", "--help"], ["calc", "lpproj", "--help"],
                                  ["calc", "fedlrgd", "--help"]])
def test_help_shows_every_option(args):
    r = run(*args)
    assert r.returncode == 0 and r.stderr == ""
    text = " ".join(r.stdout.split())
    if args[0] == "calc":
        from fedtheory.plugins import get_paper

        parser = calc_parser(get_paper(args[1]))
    else:
        parser = dict(_all_parsers())[" ".join(["fedtheory"] + args[:-1])]
    for a in parser._actions:
        assert (a.option_strings or [a.metavar or a.dest])[0] in text
        if a.help and a.nargs != 0 and not a.required and a.default is not None and a.default is not False \
                and a.default is not argparse.SUPPRESS:
            assert f"(default: {a.default})" in text or f"(default: {a.default!s})" in text, a.dest


# ----------------------------------------------------------------------------- 9. no cut mid-word
def test_cut_marks_every_cut_at_a_word_boundary():
    assert _cut("short text", 40) == "short text"
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    for width in range(12, len(text) + 3):
        c = _cut(text, width)
        assert len(c) <= width
        if c != text:
            assert c.endswith(" ...")
            assert (text + " ").startswith(c[:-4] + " "), (width, c)
    assert _cut("x" * 50, 20) == "x" * 17 + "..."
    assert _cut("two\nlines   and tabs\t", 100) == "two lines and tabs"


def test_verify_and_ledger_lines_are_cut_with_a_marker(capsys):
    from fedtheory import Paper, register_paper, unregister_paper
    from fedtheory.plugins import get_paper

    words = " ".join(f"word{i:03d}" for i in range(60))
    paper = Paper(key="zzcut", title="Long evidence", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim("zzcut.eq1", "Eq. (1)", "long evidence")
    def _f(full, seed):
        return dict(status="holds", observed=1.0, bound=1.0, evidence=words)

    register_paper(paper)
    try:
        assert main(["verify", "--paper", "zzcut", "--no-cache"]) == 0
        line = [ln for ln in capsys.readouterr().out.splitlines() if "zzcut.eq1" in ln][0]
        shown = re.split(r"\d\.\ds  ", line, maxsplit=1)[1]
        assert shown.endswith(" ...") and (words + " ").startswith(shown[:-4] + " ")
        assert main(["verify", "--paper", "zzcut", "--no-cache", "--verbose"]) == 0
        assert words in capsys.readouterr().out  # --verbose prints the evidence whole
    finally:
        unregister_paper("zzcut")
    assert main(["ledger", "--paper", "srpfl"]) == 0
    out = capsys.readouterr().out
    for r in get_paper("srpfl").ledger():
        what = " ".join((", ".join(r.claims + r.figures) if r.status == "checked" else r.reason).split())
        c = _cut(what, 120)
        assert c in out
        assert c == what or (c.endswith(" ...") and (what + " ").startswith(c[:-4] + " "))


def test_cli_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "fedrep.thm1.contraction" in out and "fedrep.fig3" in out


def test_cli_verify_json(tmp_path, capsys):
    path = tmp_path / "out.json"
    code = main(["verify", "--paper", "fedrep", "--claim", "fedrep.def1.dist-identities",
                 "--claim", "fedrep.thm1.kappa-typo", "--json", str(path)])
    assert code == 0
    out = json.loads(path.read_text())
    records = out["verdicts"]
    assert out["provenance"]["fedtheory"] and out["provenance"]["mode"] == "quick"
    assert out["papers"]["fedrep"]["citation"]["year"] == 2021
    assert [r["id"] for r in records] == ["fedrep.def1.dist-identities", "fedrep.thm1.kappa-typo"]
    assert records[1]["status"] == "erratum" and records[1]["legacy_status"] == "erratum-confirmed"
    assert "summary:" in capsys.readouterr().out


def test_cli_verify_exits_1_on_fails(capsys):
    paper = Paper(key="zzfail", title="A failing paper", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim("zzfail.eq1", "Eq. (1)", "a deliberately failing claim for the exit-code test")
    def _f(full, seed):
        return dict(status=FAILS, observed=2.0, bound=1.0, evidence="2 > 1")

    register_paper(paper)
    try:
        assert main(["verify", "--claim", "zzfail.eq1"]) == 1
        assert main(["verify", "--paper", "zzfail"]) == 1
    finally:
        unregister_paper("zzfail")


def test_cli_bad_input_is_one_line_and_exit_2():
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "verify", "--claim", "nope.x"],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "verify", "--paper", "xyz"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "reproduce", "fedrep", "--figure",
                        "fedrep.fig9"], capture_output=True, text=True)
    assert r.returncode == 2 and "unknown figure" in r.stderr and "Traceback" not in r.stderr


def test_reproduce_writes_png_pdf_and_sidecar(tmp_path):
    from fedtheory import reproduce

    paths = reproduce("fedrep", outdir=str(tmp_path), only=["fedrep.fig4"])
    p = paths[0]
    for ext in ("png", "pdf", "json"):
        assert (tmp_path / f"fedrep_fig4.{ext}").stat().st_size > 1000
    side = json.loads(open(p["json"]).read())
    assert side["params"]["d"] == 20 and "FedRep" in side["data"]
    assert side["figure_id"] == "fedrep.fig4" and "Collins" in side["paper"] and "2021" in side["paper"]
    assert side["provenance"]["seed"] == 0 and side["provenance"]["numpy"]
    assert len(side["data"]["FedRep"][0]) == len(side["params"]["m_news"])


def test_cli_speedup_and_its_bad_input():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "srpfl", "--N", "256"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "0.474" in r.stdout  # idealised ratio at N=256, a=0.05, c_hat=1.2
    for bad in (["--c-hat", "1.5"], ["--n0", "1000"], ["--lam", "0"], ["--N", "64", "--n0", "1"]):
        r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "srpfl", *bad],
                           capture_output=True, text=True)
        if bad[0] == "--N":
            assert r.returncode == 0  # n0 = 1 is allowed
            continue
        assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, bad


def test_cli_lpproj_and_its_bad_input():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "lpproj"], capture_output=True, text=True)
    assert r.returncode == 0 and "0.000246269" in r.stdout  # lambda_1^* for the Figure 1 parameters
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "lpproj", "--attack", "none"],
                       capture_output=True, text=True)
    assert r.returncode == 0
    for bad, word in ((["--d-sub", "200"], "d_sub"), (["--N-a", "100"], "N_a"), (["--b", "0"], "`b`"),
                      (["--lam", "-1"], "lam"), (["--attack", "flood"], "attack")):
        r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "lpproj", *bad], capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and word in r.stderr, bad


def test_cli_fedlrgd_and_its_bad_input():
    r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "fedlrgd", "--d", "1", "--eta", "50", "--kappa", "2",
                        "--eps", "0.01"], capture_output=True, text=True)
    assert r.returncode == 0 and "r = 278" in r.stdout
    for bad, word in ((["--eta", "0"], "eta"), (["--d", "0"], "`d`"), (["--r", "0"], "`r`"),
                      (["--b", "5", "--q", "1"], "`q`"), (["--d", "1", "--eta", "50", "--kappa", "1"], "kappa"),
                      (["--d", "1", "--eta", "50", "--eps", "1e6"], "epsilon")):
        r = subprocess.run([sys.executable, "-m", "fedtheory", "calc", "fedlrgd", *bad], capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and word in r.stderr, bad


def test_a_claim_that_raises_is_an_error_and_verify_goes_on(capsys, tmp_path):
    paper = Paper(key="zzerr", title="A crashing paper", authors=["A. Author"], year=2025, venue="arXiv")

    @paper.claim("zzerr.a", "Eq. (1)", "raises")
    def _a(full, seed):
        raise ZeroDivisionError("boom")

    @paper.claim("zzerr.b", "Eq. (2)", "holds, and runs after the crash")
    def _b(full, seed):
        return dict(status="holds", observed=1, bound=1, evidence="ok")

    @paper.claim("zzerr.c", "Eq. (3)", "returns a status that does not exist")
    def _c(full, seed):
        return dict(status="fine", observed=1, bound=1)

    register_paper(paper)
    try:
        out = tmp_path / "v.json"
        assert main(["verify", "--paper", "zzerr", "--json", str(out)]) == 1
        text = capsys.readouterr().out
        assert "ZeroDivisionError: boom" in text and "1 holds" in text and "2 error" in text
        recs = {v["id"]: v for v in json.loads(out.read_text())["verdicts"]}
        assert recs["zzerr.a"]["status"] == "error" and recs["zzerr.b"]["status"] == "holds"
        assert "'fine'" in recs["zzerr.c"]["evidence"]
    finally:
        unregister_paper("zzerr")


# ---- fedtheory reproduce: keep a current figure, rewrite a changed one
"""``fedtheory reproduce``: current figures are left untouched, changed ones written, ``--force`` rewrites.

One cheap figure (FedLRGD's Proposition 2 quantiles, scipy only) goes through the command line in this
process; one BLAS-heavy figure (FedRep Fig. 1 scale) is reproduced again in a subprocess with another
OpenBLAS kernel (``OPENBLAS_CORETYPE=Prescott``), as another machine would. CPU time: about 20 s.
"""

import shutil
import sys

import pytest

from fedtheory.cli import reproduce_line
from fedtheory.plotting import FigureOutcome

EXTS = ("png", "pdf", "json")
FIG = ["reproduce", "fedlrgd", "--figure", "fedlrgd.erlang", "--no-cache", "-q"]


def _state(folder, name="fedlrgd_erlang"):
    return {e: ((folder / f"{name}.{e}").read_bytes(), (folder / f"{name}.{e}").stat().st_mtime_ns) for e in EXTS}


def _age(folder, name="fedlrgd_erlang"):
    for e in EXTS:
        p = folder / f"{name}.{e}"
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns - 3_600_000_000_000))


def _run(capsys, out, *extra):
    assert main(FIG + ["--out", str(out), *extra]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A folder where `fedtheory reproduce` wrote the figure once, and what it printed."""
    out = tmp_path_factory.mktemp("erlang")
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(FIG + ["--out", str(out)]) == 0
    return out, buf.getvalue()


@pytest.fixture
def folder(written, tmp_path):
    """A copy of the written figure (same bytes)."""
    for e in EXTS:
        shutil.copy(written[0] / f"fedlrgd_erlang.{e}", tmp_path)
    return tmp_path


def test_second_run_keeps_force_rewrites(written, folder, capsys):
    first = written[1]
    assert "wrote " in first and ": new" in first and "1 written, 0 current" in first
    tmp_path = folder
    _age(tmp_path)
    before = _state(tmp_path)
    second = _run(capsys, tmp_path)
    assert second.startswith("kept  ") and "0 written, 1 current and left untouched" in second
    assert _state(tmp_path) == before
    forced = _run(capsys, tmp_path, "--force")
    assert ": forced" in forced
    after = _state(tmp_path)
    assert all(after[e][1] > before[e][1] for e in EXTS)
    assert after["png"][0] == before["png"][0] and after["json"][0] == before["json"][0]  # same bytes again


@pytest.mark.parametrize("factor, kept", [(1 + 3e-15, True), (1 + 1e-10, True), (1 + 1e-4, False)])
def test_a_sidecar_from_another_machine(folder, capsys, factor, kept):
    """A tracked sidecar whose numbers differ from this machine's by ``factor``: last-bit and sub-tolerance
    differences keep the tracked files (with their own provenance); a difference above it rewrites them."""
    tmp_path = folder
    side = json.loads((tmp_path / "fedlrgd_erlang.json").read_text())
    side["data"]["b10"]["quantile"] = [v * factor for v in side["data"]["b10"]["quantile"]]
    side["provenance"]["platform"] = "Other-machine"
    (tmp_path / "fedlrgd_erlang.json").write_text(json.dumps(side, indent=1) + "\n")
    _age(tmp_path)
    before = _state(tmp_path)
    out = _run(capsys, tmp_path)
    if kept:
        assert out.startswith("kept  ") and _state(tmp_path) == before
    else:
        assert "wrote " in out and "data.b10.quantile[0]" in out
        assert all(_state(tmp_path)[e][1] > before[e][1] for e in EXTS)
        assert json.loads((tmp_path / "fedlrgd_erlang.json").read_text())["provenance"]["platform"] != "Other-machine"


def test_reproduce_line():
    kept = FigureOutcome("f", {"png": "figures/f.png"}, False, "current")
    wrote = FigureOutcome("f", {"png": "figures/f.png"}, True, "provenance seed: 0 -> 1")
    assert reproduce_line(kept).startswith("kept  figures/f.png (+ .pdf, .json): current")
    assert reproduce_line(wrote) == "wrote figures/f.png (+ .pdf, .json): provenance seed: 0 -> 1"


def test_force_is_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["reproduce", "--help"])
    assert "--force" in capsys.readouterr().out


def _openblas_dynamic() -> bool:
    try:
        import numpy as np

        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]
        return "openblas" in blas["name"].lower() and "DYNAMIC_ARCH" in blas.get("openblas configuration", "")
    except Exception:  # noqa: BLE001 - an older numpy, another BLAS
        return False


@pytest.mark.skipif(not _openblas_dynamic(), reason="needs numpy on an OpenBLAS built with DYNAMIC_ARCH")
def test_another_blas_kernel_leaves_the_figure_untouched(tmp_path):
    """Figures written with this machine's kernels stay byte for byte when another core type's kernels
    (``OPENBLAS_CORETYPE=Prescott``, SSE3 only) recompute them: the numbers change in their last bits."""
    cmd = [sys.executable, "-m", "fedtheory", "reproduce", "fedrep", "--figure", "fedrep.fig1-mtest", "--out",
           str(tmp_path), "--no-cache", "-q", "--workers", "1"]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    _age(tmp_path, "fedrep_fig1_mtest")
    before = _state(tmp_path, "fedrep_fig1_mtest")
    r = subprocess.run(cmd, capture_output=True, text=True, env={**env, "OPENBLAS_CORETYPE": "Prescott"}, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("kept  "), r.stdout
    assert _state(tmp_path, "fedrep_fig1_mtest") == before
