"""A release can be cut (issue 36, docs/releasing.md): the sdist and the wheel build from the
checkout with ``python -m build`` and pass ``twine check``, offline (``--no-isolation``: the
build backend installed by the test extra), and both carry the version of
rulesengine/version.py, the one place it is written. Nothing is uploaded."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from service_support import ROOT

def version_written() -> str:
    """The version as rulesengine/version.py writes it, read as text (not imported)."""
    tree = ast.parse((ROOT / "rulesengine" / "version.py").read_text(encoding="utf-8"))
    (value,) = [n.value.value for n in tree.body if isinstance(n, ast.Assign)
                and any(getattr(t, "id", None) == "__version__" for t in n.targets)]
    return value


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    for module in ("build", "twine"):
        pytest.importorskip(module, reason="the release test needs the test extra (build, twine)")
    source = tmp_path_factory.mktemp("checkout")
    # a copy, so the build's own files (build/, *.egg-info) never land in the checkout
    shutil.copytree(ROOT, source / "src", ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "node_modules", ".pytest_cache"))
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir",
                           str(out), str(source / "src")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_python_m_build_makes_the_sdist_and_wheel_of_the_version_in_version_py(dist: Path):
    version = version_written()
    # the sdist's name is normalised with '_' by setuptools >= 69.3, with '-' before it
    names = sorted(p.name.replace("ttrpg-rulesengine", "ttrpg_rulesengine") for p in dist.iterdir())
    assert names == [f"ttrpg_rulesengine-{version}-py3-none-any.whl", f"ttrpg_rulesengine-{version}.tar.gz"]
    with zipfile.ZipFile(dist / names[0]) as wheel:
        metadata = wheel.read(f"ttrpg_rulesengine-{version}.dist-info/METADATA").decode()
    assert f"\nVersion: {version}\n" in metadata


def test_twine_check_passes_on_both(dist: Path):
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *sorted(map(str, dist.iterdir()))],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_releasing_md_names_every_step_and_uploads_from_no_ci():
    text = (ROOT / "docs" / "releasing.md").read_text(encoding="utf-8")
    for step in ("rulesengine/version.py", "CHANGELOG.md", "git tag", "python -m build", "twine check dist/*",
                 "twine upload"):
        assert step in text, step
    assert "twine upload" not in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
