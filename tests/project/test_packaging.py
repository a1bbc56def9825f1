"""Packaging: the wheel installs no generic top-level names, and a non-editable install in a
fresh virtual environment gives a working ``fedtheory`` from any folder."""
import os
import shutil
import subprocess
import sys

import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MAPPED = {"fedtheory": "fedtheory", "fedtheory_checks": "checks", "fedtheory_reproductions": "paper_reproductions",
          "fedtheory_benchmarks": "benchmarks"}


def test_pyproject_lists_every_package_folder():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert cfg["package-dir"] == {k: v for k, v in MAPPED.items() if k != "fedtheory"}
    found = set()
    for name, folder in MAPPED.items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            found.add(".".join([name, *rel.parts]))
    assert set(cfg["packages"]) == found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # build from a copy, so the checkout gets no build/ folder
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                             "figures", "report"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                        str(tmp / "dist"), str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (whl,) = (tmp / "dist").glob("fedtheory-*.whl")
    return whl


def test_wheel_has_no_generic_top_level_names(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == set(MAPPED) | {next(t for t in tops if t.endswith(".dist-info"))}
    assert not tops & {"checks", "paper_reproductions", "benchmarks", "tests"}
    ep = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    for key in ("fedrep", "srpfl", "lpproj", "fedlrgd"):
        assert f"{key} = fedtheory_checks.{key}:PAPER" in ep
    assert "fedtheory = fedtheory.testing" in ep  # the pytest plugin


def test_fresh_venv_non_editable_install_works_from_any_folder(wheel, tmp_path):
    venv = tmp_path / "venv"
    # the dependencies come from the surrounding environment; fedtheory itself only from the wheel
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", str(wheel)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([str(py), "-c", "import fedtheory, fedtheory_checks; print(fedtheory.__file__); "
                        "print(fedtheory_checks.__file__)"], capture_output=True, text=True, cwd=elsewhere, env=env)
    assert r.returncode == 0 and all(str(venv) in line for line in r.stdout.split()), r.stdout + r.stderr
    for mod in ("checks", "paper_reproductions", "benchmarks"):
        assert not (next(venv.glob("lib*/python*/site-packages")) / mod).exists()
    exe = venv / "bin" / "fedtheory"
    r = subprocess.run([str(exe), "verify", "--paper", "fedrep", "--claim", "fedrep.def1.dist-identities",
                        "--no-cache"], capture_output=True, text=True, cwd=elsewhere, env=env)
    assert r.returncode == 0 and "1 holds" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([str(exe), "list"], capture_output=True, text=True, cwd=elsewhere, env=env)
    assert r.returncode == 0 and r.stderr == "" and "lpproj.prop16" in r.stdout
    r = subprocess.run([str(exe), "ledger", "--paper", "srpfl", "--ref", "Theorem 4.9"], capture_output=True,
                       text=True, cwd=elsewhere, env=env)
    assert r.returncode == 0 and "srpfl.thm4.9.ratio" in r.stdout
