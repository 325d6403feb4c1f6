"""``rulesengine validate``: every diagnostic of every ruleset file, for people and CI.

Three layers, each reported with a file position: YAML (:mod:`rulesengine.rules.document`), the
JSON Schema (:mod:`rulesengine.rules.schema`) and semantics (:mod:`rulesengine.rules.build`). Each
file is read, parsed and walked once. Output formats: text (``path:line:col:
error[CODE]: message``, the source line with a caret, a hint), JSON (a list of
diagnostics) and GitHub Actions annotations.
"""

from __future__ import annotations

import itertools
import os
import sys
import types
from collections.abc import Callable, Iterable, Iterator

from .codes import W_UNREACHABLE_OUTCOME
from .disk_store import DiskStore, engine_files
from .errors import Diagnostic, LoadError, Location, UsageError
from .limits import DEFAULT_LIMITS, MAX_FOLDER_ENTRIES, Limits
from .records import Record, asdict
from .rules.document import RULESET_SUFFIXES
from .rules.yaml_positions import Document
from .shipped import ruleset_schema_file


class FileReport(Record):
    path: str
    diagnostics: tuple[Diagnostic, ...]

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")


SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages"})
"""Folders ``validate`` never searches (besides hidden ones and virtualenvs): they hold
other tools' YAML, never rulesets, and can be huge."""


def expand(paths: Iterable[str]) -> list[str]:
    """Files as given; folders searched for *.yaml and *.yml files.

    The search is bounded and predictable, because a folder may be ``/`` or a checkout with
    a virtualenv in it: it does not follow symbolic links to folders (so it cannot loop),
    skips hidden files and folders (``.git``, ``.github``, ``.venv``), virtualenvs (a folder
    with a ``pyvenv.cfg``) and :data:`SKIPPED_FOLDERS`, and stops with a usage error after
    looking at :data:`~rulesengine.limits.MAX_FOLDER_ENTRIES` entries. A file named on the
    command line is always checked (``load_file`` refuses what is not a *.yaml file)."""
    out: list[str] = []
    budget = [MAX_FOLDER_ENTRIES]
    for p in paths:
        if os.path.isdir(p):
            out.extend(sorted(_ruleset_files(p, budget)))
        elif os.path.lexists(p):  # a dangling link or a loop of links: load_file says which
            out.append(p)
        else:
            raise UsageError(f"no such file or folder: {p}")
    return out


def _ruleset_files(top: str, budget: list[int]) -> Iterator[str]:
    """The *.yaml/*.yml files under ``top`` (see :func:`expand`), charging ``budget[0]``."""
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(itertools.islice(entries, budget[0] + 1))
        except OSError:
            continue  # a folder we may not read holds nothing we could check
        budget[0] -= len(listed)
        if budget[0] < 0:
            raise UsageError(f"more than {MAX_FOLDER_ENTRIES:,} files and folders to search under {top}",
                             hint="name the folders that hold rulesets (the limit is "
                                  "limits.MAX_FOLDER_ENTRIES)")
        if any(e.name == "pyvenv.cfg" for e in listed) and folder != top:
            continue  # a virtualenv
        for entry in listed:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED_FOLDERS:
                        pending.append(entry.path)
                elif entry.name.lower().endswith(RULESET_SUFFIXES) and entry.is_file():
                    yield entry.path
            except OSError:
                continue


_REPORTS: DiskStore | None = None


def _report_store() -> DiskStore:
    """The reports of files validated before (with the default limits), kept in the disk
    store (:mod:`.disk_store`) by path and text: a pre-commit hook or a CI job run again on
    files it has checked gives their reports without searching them again (the search for
    inputs that break a procedure takes a second for the shipped rulesets). Its folder is
    named by every module of the engine and the schema, so any upgrade or edit of them
    validates every file again."""
    global _REPORTS
    if _REPORTS is None:
        _REPORTS = DiskStore("reports", (*engine_files(), str(ruleset_schema_file())), max_entries=256)
    return _REPORTS


def _stored(diagnostics: tuple[Diagnostic, ...]) -> list[dict]:
    """A report's diagnostics as plain data, every field of each (the caret's line too)."""
    return [asdict(d) for d in diagnostics]


def _from_stored(value: object) -> tuple[Diagnostic, ...] | None:
    """The diagnostics :func:`_stored` wrote, or None for anything it could not have written
    (the store is input: a signed entry is still checked)."""
    if not isinstance(value, list):
        return None
    out = []
    try:
        for d in value:
            loc = d["location"]
            if not (all(type(d[k]) is str for k in ("code", "message", "severity"))
                    and all(d[k] is None or type(d[k]) is str for k in ("hint", "limit"))
                    and all(loc[k] is None or type(loc[k]) is int for k in ("line", "column"))
                    and all(loc[k] is None or type(loc[k]) is str for k in ("path", "pointer", "source_line"))
                    and type(loc["length"]) is int and (loc["field"] is None or type(loc["field"]) is list
                                                        and all(type(f) in (str, int) for f in loc["field"]))):
                return None
            field = None if loc["field"] is None else tuple(loc["field"])
            location = Location(loc["path"], loc["line"], loc["column"], loc["pointer"], loc["length"],
                                loc["source_line"], field)
            out.append(Diagnostic(d["code"], d["message"], location, d["hint"], d["severity"], d["limit"]))
    except (KeyError, TypeError):
        return None
    return tuple(out)


def validate_file(path: str, limits: Limits = DEFAULT_LIMITS) -> FileReport:
    from .rules.document import load_file

    return _report(path, lambda: load_file(path, limits), limits, keep=True)


def validate_text(text: str, path: str, limits: Limits = DEFAULT_LIMITS) -> FileReport:
    """The same report for YAML text (an editor's buffer, a service request); ``path`` only
    names it in the diagnostics."""
    from .rules.document import load_text

    return _report(path, lambda: load_text(text, path, limits), limits)


def _report(path: str, read: Callable[[], Document], limits: Limits, keep: bool = False) -> FileReport:
    """The file's diagnostics. ``keep`` (a file, with the default limits): the report is
    kept, and given again for the same path and text (:func:`_report_store`); and a file that
    loads without an error is given the verdict loading it would have given
    (:mod:`.rules.verdicts`), so that a CI job that validates its files and then runs them
    builds each file once, not twice."""
    try:
        doc = read()
    except LoadError as exc:
        loc = exc.location
        # Every diagnostic prints path:line:col; a file too large to read or not readable at
        # all is reported at its start.
        loc = Location(loc.path or path, loc.line or 1, loc.column or 1, loc.pointer, loc.length,
                       loc.source_line)
        return FileReport(path, (Diagnostic(exc.code, exc.message, loc, exc.hint),))
    keep = keep and limits == DEFAULT_LIMITS
    if keep:
        kept = _from_stored(_report_store().get(doc.identity))
        if kept is not None:
            return FileReport(path, kept)
    report = _searched(path, doc, limits, keep)
    if keep:
        _report_store().put(doc.identity, _stored(report.diagnostics))
    return report


def _searched(path: str, doc: Document, limits: Limits, remember: bool) -> FileReport:
    """The report of a file read: its model's diagnostics, then what the searches find."""
    from .ruleset import analyse

    model, diagnostics = analyse(doc, limits)
    if remember and model is not None and not any(d.severity == "error" for d in diagnostics):
        from .rules.verdicts import clean_before, remember_clean

        if not clean_before(doc, limits):  # what loading it would keep (ruleset._load_cached)
            remember_clean(doc, limits)
    if model is not None:
        from .rules.allow import acknowledge
        from .run.examples import check_examples, settle
        from .run.fault_search import input_faults
        from .run.reach import unreachable_outcomes
        from .rules.unread import unread_work, with_unread_work
        from .run.signs import signs_against_success
        from .run.tag_reach import tags_never_set

        faults, said = input_faults(model, doc, limits)
        said |= {(d.code, d.location.line, d.location.column) for d in faults}
        # a check with a fault: its outcomes' "could not decide" only restates it (the search met the fault)
        faulty = {_check_of(d.location.pointer) for d in faults if d.severity == "error"} - {None}
        examples, reached = check_examples(model, doc, limits)
        diagnostics = diagnostics + faults + examples + settle([
            d for d in unreachable_outcomes(model, doc, limits)
            if (d.severity != "error" or (d.code, d.location.line, d.location.column) not in said)
            and not (d.code == W_UNREACHABLE_OUTCOME and d.severity == "warning"
                     and d.message.startswith("could not decide") and _check_of(d.location.pointer) in faulty)],
            model, reached)
        diagnostics = with_unread_work(diagnostics, unread_work(model, doc) + tags_never_set(model, doc, limits))
        diagnostics = acknowledge(doc, diagnostics + signs_against_success(model, doc, limits))
    return FileReport(path, tuple(diagnostics))


def _check_of(pointer: str | None) -> str | None:
    """The check a diagnostic's pointer is in (``/checks/NAME/...``), else None."""
    parts = (pointer or "").split("/")
    return parts[2] if len(parts) > 2 and parts[1] == "checks" else None


def validate_paths(paths: Iterable[str], limits: Limits = DEFAULT_LIMITS) -> list[FileReport]:
    return [validate_file(p, limits) for p in expand(paths)]


def format_text(reports: list[FileReport]) -> str:
    blocks = [d.render() for r in reports for d in r.diagnostics]
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    bad = sum(1 for r in reports if r.errors)
    summary = (f"{len(reports)} file{'s' if len(reports) != 1 else ''} checked: "
               f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
               + (f" in {bad} file{'s' if bad != 1 else ''}" if bad else ""))
    return "\n\n".join(blocks + [summary]) if blocks else summary


def format_json(reports: list[FileReport]) -> str:
    """One object: which engine judged (so a CI log says so), how many files, and every
    diagnostic (docs/errors.md, schemas/validate-result.schema.json)."""
    from .present.json_text import dumps

    return dumps(report_json(reports))


def report_json(reports: list[FileReport]) -> dict:
    """``format_json``'s object, for a program that sends it on (the service)."""
    from .version import __version__

    return {"engine": "rulesengine", "version": __version__, "files": len(reports),
            "diagnostics": [d.to_dict() for r in reports for d in r.diagnostics]}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(reports: list[FileReport]) -> str:
    """GitHub Actions workflow commands: one annotation per diagnostic."""
    lines = []
    for r in reports:
        for d in r.diagnostics:
            loc = d.location
            props = [f"file={_escape_property(loc.path or r.path)}"]
            if loc.line is not None:
                props.append(f"line={loc.line}")
            if loc.column is not None:
                props.append(f"col={loc.column}")
            props.append(f"title={_escape_property(d.code)}")
            message = d.message + (f" ({d.hint})" if d.hint else "")
            lines.append(f"::{d.severity} {','.join(props)}::{_escape_data(message)}")
    return "\n".join(lines)


class _CallableModule(types.ModuleType):
    """``rulesengine.validate`` is both the package's function (``rulesengine.validate(path)``)
    and this module: importing the module sets the package's attribute to the module, so
    the function would be gone after the first import (``TypeError: 'module' object is not
    callable`` on the second call). Calling the module calls the function instead."""

    def __call__(self, *paths: str) -> list[FileReport]:
        return validate_paths(paths)


sys.modules[__name__].__class__ = _CallableModule
