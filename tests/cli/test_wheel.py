"""The grammars and templates ship inside the wheel and are found through importlib.resources.

Builds a wheel (``pip wheel .``), installs it (not editable) into a fresh
virtual environment and runs ``handrec --help`` and one ``validate`` from a
folder outside the source tree.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        cwd=out,
    )
    (whl,) = out.glob("handrec-*.whl")
    return whl


def test_wheel_contains_grammars_and_templates(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "handrec/grammars/pbn.lark" in names
    assert "handrec/grammars/lin.lark" in names
    assert any(n.startswith("handrec/templates/booklet") for n in names)
    assert "handrec/templates/site/site.css" in names and "handrec/templates/site/board.html.j2" in names


def test_installed_wheel_runs(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    # Reuse the dependencies already installed for the tests (no network needed), but
    # not handrec itself: the fresh venv's own site-packages come first on sys.path.
    site = next(p for p in sys.path if p.endswith("site-packages"))
    (pth_dir,) = (env_dir / "lib").glob("python3*/site-packages")
    (pth_dir / "zz_deps.pth").write_text(site + "\n")
    subprocess.run([py, "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True)
    handrec = env_dir / "bin" / "handrec"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    r = subprocess.run([handrec, "--help"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    for command in ("validate", "convert", "query", "booklet"):
        assert command in r.stdout
    r = subprocess.run(
        [py, "-c", "import handrec.formats.pbn.reader as p; print(p.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert str(env_dir) in r.stdout, (r.stdout, r.stderr)
    sample = tmp_path / "one.pbn"
    sample.write_text(
        '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n[Score "NS 400"]\n'
    )
    r = subprocess.run([handrec, "validate", str(sample)], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("1 files, 1 boards, 0 errors, 0 warnings")
