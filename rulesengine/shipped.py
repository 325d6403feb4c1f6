"""Where the data that ships with the engine lives: the rulesets, the JSON Schemas and the docs.

They stay at the repository's top level (``rulesets/``, ``schemas/``, ``docs/``), where people
read and edit them, and travel inside the wheel and the sdist as the data-only sub-packages
``rulesengine.rulesets``, ``rulesengine.schemas`` and ``rulesengine.docs`` (``package-dir`` in
pyproject.toml).
An installed wheel has them as folders beside this file, which is looked at first (a stat,
where importing ``importlib.resources`` costs a command's start-up several milliseconds).
In a checkout (the package beside ``pyproject.toml``: an editable install, or the checkout
put on ``sys.path``) they are the top-level folders beside the package, where
``package-dir`` maps them: looked at next, by a stat again. Anything else is found through
``importlib.resources``.
"""

from __future__ import annotations

import os
from pathlib import Path

RULESETS_PACKAGE = "rulesengine.rulesets"
SCHEMAS_PACKAGE = "rulesengine.schemas"
DOCS_PACKAGE = "rulesengine.docs"
RULESET_SCHEMA_FILE = "ruleset.schema.json"


def data_folder(package: str) -> Path:
    """The folder of a data sub-package as a real path (pip installs wheels unzipped, so the
    resources are files; callers glob, stat and name them in messages)."""
    here, name = Path(__file__).resolve().parent, package.rsplit(".", 1)[1]
    beside = here / name
    if os.path.isfile(beside / "__init__.py"):  # the package's own folder, never a user's path
        return beside
    checkout = here.parent / name  # pyproject.toml's package-dir: the top-level folder
    if os.path.isfile(here.parent / "pyproject.toml") and os.path.isfile(checkout / "__init__.py"):
        return checkout
    import importlib.resources

    try:
        return Path(str(importlib.resources.files(package)))
    except ModuleNotFoundError:
        return checkout


def rulesets_folder() -> Path:
    """The folder of the shipped rulesets (``<id>.yaml``)."""
    return data_folder(RULESETS_PACKAGE)


def ruleset_schema_file() -> Path:
    """``ruleset.schema.json``, the file format's source of truth."""
    return data_folder(SCHEMAS_PACKAGE) / RULESET_SCHEMA_FILE


def schema_text(name: str) -> str:
    """A shipped schema's text by name (``odds-result`` reads ``odds-result.schema.json``);
    ``name`` is one of ours, never a request's."""
    return (data_folder(SCHEMAS_PACKAGE) / f"{name}.schema.json").read_text(encoding="utf-8")


def schema_names() -> list[str]:
    """The shipped schemas' names (``odds-result`` for ``odds-result.schema.json``), sorted."""
    return sorted(f.name.removesuffix(".schema.json") for f in data_folder(SCHEMAS_PACKAGE).glob("*.schema.json"))


def doc_topics() -> dict[str, Path]:
    """The shipped docs by topic (``tutorial`` is ``docs/tutorial.md``), sorted by name."""
    return {f.stem: f for f in sorted(data_folder(DOCS_PACKAGE).glob("*.md"))}


def doc_title(path: Path) -> str:
    """A page's first heading, without its ``#``."""
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return ""
