"""No absolute path of a developer's machine in the project (the developers' guide): a seed is
cited by its file name, a file by its path in the repository. A path like that works on one
machine only and says nothing to a reader elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|home/[a-z_][\w-]*)/[\w.-]+")
SKIPPED = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
           ".hypothesis", "build", "dist"}
TEXT = {".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt", ".js", ".mjs", ".html", ".css", ".cfg", ""}


def project_files():
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in folder.iterdir():
            if path.is_dir() and not path.is_symlink():
                # Virtualenvs (the project's, and bench/run.py's bench/.venv-* of the tools it
                # measures against) hold their own machine's paths: git ignores them.
                if path.name not in SKIPPED and not path.name.endswith(".egg-info") \
                        and not path.name.startswith(".venv"):
                    stack.append(path)
            elif path.is_file() and path.name not in SKIPPED and path.suffix in TEXT and path.stat().st_size < 2_000_000:
                yield path


def test_no_file_names_an_absolute_path_of_this_machine():
    found = []
    for path in project_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in MACHINE_PATH.finditer(text)]
    assert not found, "cite a seed by its file name and a file by its path in the repository:\n" + "\n".join(found)
