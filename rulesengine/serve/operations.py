"""The service's operations: a table from name to a small function over a JSON request,
each with exactly the Python API's semantics (the same calls, the same limits, the same
errors). HTTP (:mod:`.http`) and JSON lines on stdio (:mod:`.stdio`) are two doors to it.

Safe by construction: a request never names a path (rulesets are shipped ids, ids found in
the folders the operator gave at start, or YAML text in the request); every request is
checked against its schema (:mod:`.requests`) before anything runs; every request's work
shares one budget, counted in steps like any exact computation, with a deadline on top
(the wall-clock limit, checked where the work is counted, so an overrunning request stops
and frees its worker); and nothing is kept between requests but caches of loaded rulesets
(and the engine's own caches of exact odds, which hold only what any request would compute).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .. import cache
from ..codes import E_BODY_TOO_LARGE, E_NOT_FOUND
from ..errors import InputError, LimitError, RequestError, RulesEngineError, UsageError
from ..limits import DEFAULT_LIMITS, MAX_CACHED_WEIGHTS, MAX_EXPLODE_DEPTH, Limits
from ..ruleset import Ruleset, load, loads, nearest, rulesets_dir, shipped_ids
from ..run.calls import Runnable
from .requests import REQUESTS
from ..records import Record, field, replace

MAX_BODY_BYTES = 2 * 1_048_576
"""The default cap on one request's body: room for a ruleset of the largest size a file
may have (``max_file_bytes``), escaped inside JSON."""

INLINE_NAME = "request.yaml"
"""The file name errors in a request's inline ruleset (``yaml``) are placed in."""

INLINE_CACHE_SIZE = 64
"""Inline rulesets (``yaml`` in a request) kept loaded, by the hash of their text."""


class ServiceConfig(Record):
    """What the operator chooses when starting the service (``rulesengine serve``)."""

    folders: tuple[str, ...] = ()
    limits: Limits = DEFAULT_LIMITS
    time_limit: float = 10.0
    max_body: int = MAX_BODY_BYTES
    cors_origins: tuple[str, ...] = field(default_factory=tuple)
    max_cached: int = MAX_CACHED_WEIGHTS  # the size bound of every exact-odds cache (rulesengine.cache)
    access_log: str | None = None  # "json": one JSON line per HTTP request on stderr
    drain_checks: int = 0  # on a stop, serve until /readyz has said "shutting down" this many times

    def to_dict(self) -> dict[str, Any]:
        return {"folders": list(self.folders), "time_limit": self.time_limit, "max_body": self.max_body,
                "cors_origins": list(self.cors_origins), "max_states": self.limits.max_states,
                "max_cached": self.max_cached, "access_log": self.access_log, "drain_checks": self.drain_checks}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ServiceConfig:

        limits = replace(DEFAULT_LIMITS, max_states=int(d.get("max_states", DEFAULT_LIMITS.max_states)))
        return ServiceConfig(tuple(d.get("folders", ())), limits, float(d.get("time_limit", 10.0)),
                             int(d.get("max_body", MAX_BODY_BYTES)), tuple(d.get("cors_origins", ())),
                             int(d.get("max_cached", MAX_CACHED_WEIGHTS)), d.get("access_log"),
                             int(d.get("drain_checks", 0)))


DEFAULT_CONFIG = ServiceConfig()


class Service:
    """One service's rulesets and caches; :meth:`handle` answers one request."""

    def __init__(self, config: ServiceConfig = DEFAULT_CONFIG) -> None:
        # A long-lived process gains nothing from the disk stores of parsed texts (its own
        # caches are warm after the first request), and the texts a service reads come from
        # its clients: it writes none to disk unless the operator asks (RULESENGINE_CACHE=on).
        os.environ.setdefault("RULESENGINE_CACHE", "off")
        self.config = config
        self.limits = config.limits
        cache.ACCOUNT.resize(config.max_cached)  # what the process keeps between requests, by size
        self._inline: OrderedDict[str, Ruleset] = OrderedDict()
        self._lock = threading.Lock()
        self._folder_rulesets = self._load_folders(config.folders)
        self._public_names = self._names_of_files()

    def _names_of_files(self) -> dict[str, str]:
        """The server's own ruleset files, by each path an error could carry (as given and
        resolved), to the name a client sees: a shipped ruleset's id, or a folder file's
        name relative to its ``--rulesets`` folder."""
        names: dict[str, str] = {}

        def add(path: Path, name: str) -> None:
            names[str(path)] = name
            try:
                names[str(path.resolve())] = name
            except (OSError, RuntimeError):
                pass

        for rid in shipped_ids():
            add(rulesets_dir() / f"{rid}.yaml", rid)
        for path in self._folder_rulesets.values():
            add(path, path.name)  # a folder's own files only (*.yaml, *.yml: not its subfolders)
        return names

    def file_name(self, rs: Ruleset) -> str:
        """The name a client sees for the file ``rs`` came from (as errors name it): a shipped
        ruleset's ``ID.yaml``, a folder file's name, ``request.yaml`` for inline text."""
        return os.path.basename(rs.document.path or INLINE_NAME)  # shipped files are ID.yaml

    def _public(self, exc: RulesEngineError, request: Mapping[str, Any]) -> RulesEngineError:
        """``exc`` naming no path of the server: a ruleset file of its own by its public name
        (:meth:`_names_of_files`), any other file by its base name; a name the client gave
        (``path`` of validate, ``request.yaml`` for inline text) stays as it is."""
        path = exc.location.path
        if path:
            name = self._public_names.get(path)
            if name is None and path not in (request.get("path"), INLINE_NAME):
                name = os.path.basename(path)
            if name is not None:
                exc.location = replace(exc.location, path=name)
        for full, name in self._public_names.items():
            if full in exc.message:
                exc.message = exc.message.replace(full, name)
            if exc.hint and full in exc.hint:
                exc.hint = exc.hint.replace(full, name)
        return exc

    def _load_folders(self, folders: Iterable[str]) -> dict[str, Path]:
        """The operator's own rulesets, by the id each declares: all loaded (so validated)
        now, and a clash with a shipped id or between two files refused at start."""
        found: dict[str, Path] = {}
        shipped = set(shipped_ids())
        for folder in folders:
            top = Path(folder)
            if not top.is_dir():
                raise RequestError(f"--rulesets {folder!r} is not a folder", code=E_NOT_FOUND,
                                   hint="give a folder that holds ruleset files (*.yaml)")
            for path in sorted(top.glob("*.yaml")) + sorted(top.glob("*.yml")):
                rs = load(str(path), self.limits)
                if rs.id in found or rs.id in shipped:
                    raise RequestError(f"{path}: ruleset id '{rs.id}' is already taken"
                                       + (" by a shipped ruleset" if rs.id in shipped else f" by {found[rs.id]}"),
                                       hint="give each ruleset its own id (its 'ruleset:' key)")
                found[rs.id] = path
        return found

    # ---- the one entry point -------------------------------------------------------------

    def warm(self) -> None:
        """Load every ruleset the service serves (what ``/readyz`` waits for)."""
        for rid in self.ids():
            try:
                self.ruleset({"ruleset": rid})
            except RulesEngineError as exc:  # said on the public /readyz: no path of the server
                raise self._public(exc, {}) from None

    def handle(self, op: Any, request: Mapping[str, Any],
               on_work: Callable[[str, int], None] | None = None) -> Any:
        """The answer to one request (JSON-able), or a RulesEngineError saying what is wrong.
        ``on_work(op, steps)`` is told the steps of the work budget the request spent (metrics)."""
        from ..dice.dist import UNLIMITED, shared_budget

        if op is None:
            raise RequestError("the request names no operation", hint="give one: operations: " + ", ".join(OPERATIONS))
        if not isinstance(op, str) or op not in OPERATIONS:
            near = nearest(op, OPERATIONS)
            raise RequestError(f"unknown operation {str(op)[:40]!r}",
                               hint=f"did you mean '{near}'?" if near else "operations: " + ", ".join(OPERATIONS))
        check_request(op, request)
        deadline = time.monotonic() + self.config.time_limit
        try:
            # Each computation has the work budget --max-states, as on the command line and in
            # Python, so the service answers what they answer and refuses what they refuse (a
            # cap of the whole request at one budget refused 36 exploding dice the library
            # answers: its dearer way tried first, then the cheaper); the request as a whole
            # is bounded by those budgets and by the clock (counted here, with its deadline).
            with shared_budget(UNLIMITED, deadline) as total:
                try:
                    return OPERATIONS[op](self, request)
                except LimitError as exc:
                    if total.timed_out:
                        raise LimitError(f"the request took longer than this service allows "
                                         f"({self.config.time_limit:g} s)", "time_limit", exc.location,
                                         "ask for less work (fewer dice, a narrower sweep), or try again "
                                         "when the service is less busy") from None
                    raise
                finally:
                    if on_work is not None:
                        on_work(op, total.used)
        except RulesEngineError as exc:
            raise self._public(exc, request) from None

    # ---- what requests name ----------------------------------------------------------------

    def ids(self) -> list[str]:
        return sorted(set(shipped_ids()) | set(self._folder_rulesets))

    def ruleset(self, request: Mapping[str, Any]) -> Ruleset:
        if "yaml" in request:
            return self._inline_ruleset(request["yaml"])
        rid = request["ruleset"]
        if rid in self._folder_rulesets:
            return load(str(self._folder_rulesets[rid]), self.limits)
        if rid in shipped_ids():
            return load(rid, self.limits)
        near = nearest(rid, self.ids())
        raise RequestError(f"no ruleset '{rid[:100]}'", code=E_NOT_FOUND,
                           hint=f"did you mean '{near}'?" if near else "rulesets: " + ", ".join(self.ids()))

    def _inline_ruleset(self, text: str) -> Ruleset:
        if len(text) > self.limits.max_file_bytes:  # before hashing it; load_text says so too
            raise RequestError(f"the inline ruleset is over {self.limits.max_file_bytes:,} characters",
                               code=E_BODY_TOO_LARGE, hint="a ruleset file may have at most max_file_bytes")
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        with self._lock:
            if key in self._inline:
                self._inline.move_to_end(key)
                return self._inline[key]
        rs = loads(text, INLINE_NAME, self.limits)
        with self._lock:
            self._inline[key] = rs
            while len(self._inline) > INLINE_CACHE_SIZE:
                self._inline.popitem(last=False)
        return rs

    @staticmethod
    def runnable(rs: Ruleset, name: str) -> Runnable:
        """The check or procedure ``name``; a 404 problem where the ruleset has neither."""
        if name in rs.model.checks or name in rs.model.procedures:
            return rs.runnable(name)
        names = list(rs.model.checks) + list(rs.model.procedures)
        near = nearest(name, names)
        raise RequestError(f"ruleset '{rs.id}' has no check or procedure '{name[:100]}'", code=E_NOT_FOUND,
                           hint=f"did you mean '{near}'?" if near else "available: " + ", ".join(names))


def check_request(op: str, request: Mapping[str, Any]) -> None:
    """The request against its schema: the first problem as a RequestError at its field."""
    import jsonschema

    validator = _validators().get(op)
    assert validator is not None
    error = jsonschema.exceptions.best_match(validator.iter_errors(request))
    if error is None:
        return
    where = "/".join(str(p) for p in error.absolute_path)
    if error.validator == "oneOf" and not where:
        raise RequestError("give the ruleset as 'ruleset' (an id) or 'yaml' (its text), one of them",
                           hint='e.g. {"ruleset": "my-system", "name": "attack"}')
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "a field"
        raise RequestError(f"the request needs '{missing}'", hint=_example(op))
    message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
    raise RequestError(f"{where or 'the request'}: {message}", hint=_example(op))


_VALIDATORS: dict[str, Any] = {}


def _validators() -> dict[str, Any]:
    if not _VALIDATORS:
        import jsonschema

        _VALIDATORS.update({op: jsonschema.Draft202012Validator(s) for op, s in REQUESTS.items()})
    return _VALIDATORS


EXAMPLES = {
    "list": "{}",
    "export": '{"ruleset": "ID"}',
    "source": '{"ruleset": "ID"}',
    "form": '{"ruleset": "ID", "name": "CHECK"}',
    "roll": '{"ruleset": "ID", "name": "CHECK", "inputs": {"skill": 12}, "seed": 1}',
    "odds": '{"ruleset": "ID", "name": "CHECK", "inputs": {"skill": [8, 12, 16]}}',
    "dice_roll": '{"expression": "4d6kh3", "seed": 1}',
    "dice_odds": '{"expression": "3d6 >= 10"}',
    "validate": '{"yaml": "ruleset: my-system\\n..."}',
}


def _example(op: str) -> str:
    return f"e.g. {EXAMPLES[op]}"


# ---- the operations: one small function each ------------------------------------------------


def op_list(svc: Service, request: Mapping[str, Any]) -> list[dict[str, Any]]:
    from ..present.export import summary

    return [summary(svc.ruleset({"ruleset": rid})) for rid in svc.ids()]


def op_export(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    from ..present.export import export

    return export(svc.ruleset(request))


def op_source(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    rs = svc.ruleset(request)
    return {"ruleset": rs.id, "file": svc.file_name(rs), "yaml": rs.document.text}


def op_form(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    from ..present.forms import input_form

    rs = svc.ruleset(request)
    svc.runnable(rs, request["name"])
    return input_form(rs.model, request["name"])


def op_roll(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    rs = svc.ruleset(request)
    runnable = svc.runnable(rs, request["name"])
    seed, faces = _seed_or_faces(request)
    return runnable.roll(request.get("inputs") or {}, parties=request.get("parties"), seed=seed, faces=faces,
                         choose=request.get("choose")).view().to_dict()


def op_odds(svc: Service, request: Mapping[str, Any]) -> Any:
    from ..run.sweep import sweep_over

    rs = svc.ruleset(request)
    runnable = svc.runnable(rs, request["name"])
    inputs = dict(request.get("inputs") or {})
    parties = {i + 1: dict(p) for i, p in enumerate(request.get("parties") or [])}
    ranges = [(k, v) for k, v in inputs.items() if isinstance(v, list)]
    ranges += [(f"party{i}.{k}", v) for i, p in parties.items() for k, v in p.items() if isinstance(v, list)]
    if ranges:
        fixed = {k: v for k, v in inputs.items() if not isinstance(v, list)}
        try:
            return sweep_over(runnable, ranges, fixed, parties, request.get("given")).to_dict()
        except UsageError as exc:  # the command line's words for a sweep too big: here, the request's inputs
            raise InputError(exc.message, hint=exc.hint, field=("parties",) if parties and not inputs else
                             ("inputs",)) from None
    return runnable.odds(inputs, parties=[parties[i] for i in sorted(parties)] or None,
                         given=request.get("given")).to_dict()


def op_dice_roll(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    from .. import dice

    seed, faces = _seed_or_faces(request)
    expr = dice.parse(request["expression"], svc.limits, request.get("dialect"))
    return expr.roll(request.get("env"), seed=seed, faces=faces).to_dict()


def op_dice_odds(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    from .. import dice

    depth = request.get("explode_depth")
    if depth is not None and depth > MAX_EXPLODE_DEPTH:
        raise LimitError(f"explode_depth {depth} is deeper than the service follows", "explode_depth",
                         hint=f"at most {MAX_EXPLODE_DEPTH}")
    expr = dice.parse(request["expression"], svc.limits, request.get("dialect"))
    return expr.odds(request.get("env"), explode_depth=depth).to_dict()


def op_validate(svc: Service, request: Mapping[str, Any]) -> dict[str, Any]:
    from ..validate import report_json, validate_text

    return report_json([validate_text(request["yaml"], request.get("path") or INLINE_NAME, svc.limits)])


def _seed_or_faces(request: Mapping[str, Any]) -> tuple[Any, Any]:
    if "seed" in request and "faces" in request:
        raise RequestError("give 'seed' or 'faces', not both")
    return request.get("seed"), request.get("faces")


OPERATIONS: dict[str, Callable[[Service, Mapping[str, Any]], Any]] = {
    "list": op_list, "export": op_export, "source": op_source, "form": op_form, "roll": op_roll, "odds": op_odds,
    "dice_roll": op_dice_roll, "dice_odds": op_dice_odds, "validate": op_validate,
}
"""Operation → its function; :data:`.requests.REQUESTS` has the same keys (a test says so)."""

