"""`rulesengine new`: a homebrewer's first file. A starter ruleset (one check, every line
commented) or a copy of a shipped one to adapt, with the editor's schema line pointing at a
copy of the schema beside it, so that completion works at once. Both validate clean as
written (a test holds them to it)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import UsageError
from .shipped import ruleset_schema_file, rulesets_folder

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")  # as ruleset.schema.json's `ruleset`
SCHEMA_HOME = Path("schemas") / "ruleset.schema.json"  # beside the rulesets, as the README advises

STARTER = """\
# yaml-language-server: $schema={schema}
# {id}: a ruleset for rulesengine. The format: `rulesengine docs ruleset-language`; a
# guided start: `rulesengine docs tutorial`. Check it with `rulesengine validate {file}`.
ruleset: {id}
name: {title}
version: "0.1"
source: your game's rules (book, chapter, page)   # where the mechanics are restated from
license: your licence for this file; the game's rules belong to their authors
checks:
  # A check: what a player enters (inputs), the dice (roll), what the roll comes to
  # (result) and what it means (outcomes, the first that applies).
  attack:
    description: Roll 2d6 and add your bonus; 8 or more hits, a natural 12 is a critical.
    inputs:
      bonus: {{type: integer, default: 0, min: -5, max: 10, help: your attack bonus}}
    roll: 2d6
    result: roll + bonus
    outcomes:
      - {{name: critical, when: "roll == 12", success: true}}
      - {{name: hit, when: "result >= 8", success: true}}
      - {{name: miss, success: false}}
"""


def new_ruleset(ruleset_id: str, output: str | None = None, copy_of: str | None = None,
                force: bool = False) -> list[str]:
    """Write a starter ruleset (or a copy of the shipped ruleset ``copy_of``) as ``output``
    (default ``<id>.yaml``), and the schema its first line names if it isn't there yet.
    Returns what was written, for the command to say."""
    if not ID_PATTERN.match(ruleset_id):
        raise UsageError(f"'{ruleset_id}' is not a ruleset id",
                         hint="use lower-case letters, digits and dashes, e.g. my-homebrew")
    target = Path(output or f"{ruleset_id}.yaml")
    if target.exists() and not force:
        raise UsageError(f"{target} already exists", hint="choose another name, or --force to overwrite it")
    schema = Path(SCHEMA_HOME)
    modeline = Path(os.path.relpath(schema.resolve(), target.resolve().parent)).as_posix()
    if copy_of is None:
        text = STARTER.format(schema=modeline, id=ruleset_id, title=ruleset_id.replace("-", " ").title(),
                              file=target.as_posix())
    else:
        text = _copy(copy_of, ruleset_id, modeline)
    written = []
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")
        written.append(str(target))
        if not schema.exists():
            schema.parent.mkdir(parents=True, exist_ok=True)
            schema.write_text(ruleset_schema_file().read_text(encoding="utf-8"), encoding="utf-8", newline="\n")
            written.append(str(schema))
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}",
                         hint="give a path in a folder you may write to") from None
    return written


def _copy(copy_of: str, ruleset_id: str, modeline: str) -> str:
    """A shipped ruleset's text under a new id, its schema line pointing at ``modeline``."""
    path = rulesets_folder() / f"{copy_of}.yaml"
    if not ID_PATTERN.match(copy_of) or not path.is_file():
        shipped = sorted(p.stem for p in rulesets_folder().glob("*.yaml"))
        raise UsageError(f"no shipped ruleset '{copy_of}'", hint="shipped: " + ", ".join(shipped))
    text = path.read_text(encoding="utf-8")
    text, found = re.subn(r"^ruleset:[ \t]*\S+[ \t]*$", f"ruleset: {ruleset_id}", text, count=1, flags=re.M)
    assert found == 1, f"{path} has no top-level ruleset: line"
    text = re.sub(r"^# yaml-language-server: \$schema=.*$", f"# yaml-language-server: $schema={modeline}",
                  text, count=1, flags=re.M)
    return text
