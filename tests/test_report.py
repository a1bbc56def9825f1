"""``fedtheory report`` rendered in a real browser (headless Chromium from Debian's packages)."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def _need_browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium for the browser test (see .ci/run)")
        pytest.skip("chromium not installed")


def _render(index, profile):
    """Load the page, let its script run, return (self-check text, console error lines)."""
    r = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=5000",
                        "--enable-logging=stderr", "--v=0", "--dump-dom", f"file://{index}"],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'id="fedtheory-selfcheck" data-broken="(\d+)">images=(\d+) broken=(\d+)', r.stdout)
    errors = [ln for ln in r.stderr.splitlines() if "CONSOLE" in ln and ("Uncaught" in ln or "Error" in ln)]
    return m, errors


def _n_figures():
    from fedtheory import get_paper

    n = len(get_paper("fedlrgd").figures())
    assert n >= 6  # Theorem 1, App. C, complexity, Erlang, FedAve measured, alpha of (8)
    return n


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    r = subprocess.run([sys.executable, "-m", "fedtheory.cli", "report", "--paper", "fedlrgd", "--out", str(out),
                        "--quiet", "--no-cache"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return out


def test_report_files_and_claims_json(report):
    out = json.loads((report / "claims.json").read_text())
    records = out["verdicts"]
    assert out["provenance"]["mode"] == "quick" and out["papers"]["fedlrgd"]["year"] == 2023
    assert len(records) >= 18
    for rec in records:
        for key in ("id", "paper", "reference", "statement", "status", "observed", "bound"):
            assert key in rec
    page = (report / "index.html").read_text()
    assert "erratum-confirmed" in page and "Errata (printed form fails" in page
    assert page.count("data:image/png;base64,") == _n_figures()  # every figure of the paper, inlined
    # the paper is cited (no file names), and its results ledger is shown
    assert "Jadbabaie, Makur and Shah (2023). Federated Optimization of Smooth Loss Functions" in page
    assert "Results ledger" in page and "numbered results" in page and "Theorem 3" in page
    assert not re.search(r"\d{3}_[0-9a-f]{16}", page)


def test_report_renders_in_chromium_with_every_image_loaded(report, tmp_path):
    _need_browser()
    m, errors = _render(report / "index.html", tmp_path / "profile")
    assert m is not None, "the page's self-check did not run"
    assert int(m.group(2)) == _n_figures() and int(m.group(3)) == 0
    assert errors == []
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile2'}", "--window-size=1280,1600",
                    f"--screenshot={shot}", f"file://{report / 'index.html'}"], capture_output=True, timeout=120)
    assert shot.stat().st_size > 10_000


def test_browser_check_catches_a_broken_image(report, tmp_path):
    """Negative control: the same check fails when one embedded image is corrupted."""
    _need_browser()
    page = (report / "index.html").read_text()
    broken = page.replace("data:image/png;base64,iVBOR", "data:image/png;base64,AAAAA", 1)
    bad = tmp_path / "broken.html"
    bad.write_text(broken)
    m, _ = _render(bad, tmp_path / "profile")
    assert m is not None and int(m.group(3)) == 1
