"""Other dice tools' spellings, read as this language's meaning when a dialect is chosen.

People arrive with the habits of the roller they already use: Foundry VTT's ``4d6k3`` and
``3d6x``, Roll20's ``3d6>4`` (a count of successes, where ``>`` means "or more"), the d20
library's ``8d6mi2`` and ``9d2e2``. Without a dialect those are errors that name this
language's spelling (:mod:`.syntax_errors`); with one, each modifier written right after a
dice term (or a set's closing parenthesis) is rewritten to this language before parsing,
modifier by modifier, and everything else is left as written. Where tools give one
spelling different meanings (``k3``: keep the highest three in Foundry and Roll20, keep the
3s in the d20 library), the dialect decides; a spelling with no meaning here yet is an
error that says so, never a silent guess.

Rewriting before parsing keeps the grammar one file; :class:`Translation` maps positions
back, so an error points into what the user wrote."""

from __future__ import annotations

import re
from ..records import Record
from collections.abc import Callable

from ..codes import E_BAD_MODIFIER
from ..errors import DiceSyntaxError, RulesEngineError
from .syntax_errors import locate

DIALECTS = ("foundry", "roll20", "d20")
"""The dialects a caller may choose (``--dialect``, ``dialect=``, a ruleset's ``dialect:``)."""

# A dice term's die, or the closing parenthesis of a set or group, then what may follow.
_TERM = re.compile(r"[dD](?:[0-9]+|%|F|\{[^{}]*\})|[)}]")
_DIE_AHEAD = re.compile(r"[dD](?:[0-9]+|%|F|\{|\()")
_MODIFIER = re.compile(r"(?P<name>!!|!p|!|[A-Za-z]+)?(?P<cond>(?:==|!=|>=|<=|>|<|=)?-?[0-9]+(?:\.\.[0-9]+)?)?")
_STRING = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


class NotInDialect(Exception):
    """A spelling the dialect has but this language can't say yet: (message, hint)."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


Rewrite = Callable[[str, str], str]


def _keep(native: str) -> Rewrite:
    """``k``/``kh``/... with a count (1 when none is written)."""
    def rewrite(name: str, cond: str) -> str:
        if cond and not cond.isdigit():
            raise NotInDialect(f"'{name}{cond}' keeps or drops by a condition", "keep a number of dice: kh3, dl1")
        return native + (cond or "1")
    return rewrite


def _as(native: str, roll20_compare: bool = False, needs_condition: bool = False) -> Rewrite:
    def rewrite(name: str, cond: str) -> str:
        if needs_condition and not cond:
            raise NotInDialect(f"'{name}' needs the faces it applies to", f"e.g. {name}1 or {name}<3")
        return native + (_roll20_compare(cond) if roll20_compare else cond)
    return rewrite


def _roll20_compare(cond: str) -> str:
    """Roll20's compare points: ``>4`` is 4 or more, ``<2`` is 2 or less."""
    if cond.startswith(">") and not cond.startswith(">="):
        return ">=" + cond[1:]
    if cond.startswith("<") and not cond.startswith("<="):
        return "<=" + cond[1:]
    return cond


def _none(what: str, hint: str) -> Rewrite:
    def rewrite(name: str, cond: str) -> str:
        raise NotInDialect(f"'{name}{cond}' ({what}) has no equivalent in this language yet", hint)
    return rewrite


def _dropped(name: str, cond: str) -> str:
    return ""  # display only in that tool: no effect on the value


def _d20_selector(native: str, what: str) -> Rewrite:
    """The d20 library's selectors: a face (``3``), ``>3``, ``<3``; ``l``/``h`` pick dice by rank."""
    def rewrite(name: str, cond: str) -> str:
        if not cond:
            raise NotInDialect(f"'{name}' needs a selector", f"e.g. {name}1 or {name}>4")
        return native + cond
    return rewrite


def _d20_face(keep: bool) -> Rewrite:
    """The d20 library's ``k3``/``p1``, ``k>3``, ``p<3``: keep or drop by face, here ``k=3``
    and ``p=1`` (a bare ``k3`` is ambiguous in this language, so it is written out)."""
    mark = "k" if keep else "p"

    def rewrite(name: str, cond: str) -> str:
        if not cond:
            raise NotInDialect(f"'{name}' needs a selector", f"e.g. {name}1, {name}>4 or {name}h1")
        return mark + ("=" + cond if cond[0].isdigit() else cond)
    return rewrite


_RANK = ("kh", "kl", "ph", "pl")


def _d20_sequence(before: list[str], name: str) -> None:
    """Where the d20 library's order of keeps differs from this language's, say so.

    That library joins consecutive operators of one kind into one, so ``kh1kl1`` keeps the
    highest *and* the lowest die (here keeps apply one after another); and a keep by face
    after a keep by rank, ``kh3p1``, applies to the dice already kept (here keeps by face
    come first). Neither is guessed: both are refused with what to write."""
    if name not in ("k", "p") + _RANK:
        return
    prev = before[-1] if before else ""
    if prev[:1] == name[0] and prev in ("k", "p") + _RANK and (prev in _RANK or name in _RANK):
        raise NotInDialect(f"'{prev}…{name}' in a row: the d20 library joins them into one keep of the dice "
                           "either selects, which this language can't say in one term",
                           "keep by rank once (kh2), or write the keeps without a dialect, applied in order")
    if name in ("k", "p") and any(b in _RANK for b in before):
        raise NotInDialect(f"'{name}' after a keep by rank: in the d20 library it applies to the dice kept, "
                           "here keeps by face come before keeps by rank",
                           f"write the keep by face first, e.g. 4d6{name}1kh3")


SEQUENCES: dict[str, Callable[[list[str], str], None]] = {"d20": _d20_sequence}
"""Checks on the order of a term's modifiers in a dialect, before each is rewritten."""

RULES: dict[str, dict[str, Rewrite]] = {
    "foundry": {
        "x": _as("!"), "xo": _as("!o"),
        "r": _as("ro", needs_condition=True), "rr": _as("r", needs_condition=True),
        "k": _keep("kh"), "kh": _keep("kh"), "kl": _keep("kl"),
        "d": _keep("dl"), "dh": _keep("dh"), "dl": _keep("dl"),
        "cf": _none("a count of the failures alone", "cs<=2 counts the dice that show 2 or less"),
        # written as here: named so that the modifiers after them are read in Foundry's spelling
        "min": _as("min"), "max": _as("max"), "cs": _as("cs"),
    },
    "roll20": {
        "!": _as("!", True), "!!": _as("!!", True), "!p": _as("!p", True),
        "r": _as("r", True), "ro": _as("ro", True),
        "k": _keep("kh"), "kh": _keep("kh"), "kl": _keep("kl"),
        "d": _keep("dl"), "dh": _keep("dh"), "dl": _keep("dl"),
        "": _as("cs", True), "f": _as("cf", True),
        "cs": _dropped, "cf": _dropped, "s": _dropped, "sa": _dropped, "sd": _dropped,
        "mt": _none("counting matching dice", "count(roll, 6) counts the 6s"),
    },
    "d20": {
        "k": _d20_face(True), "p": _d20_face(False),
        "ph": _keep("dh"), "pl": _keep("dl"), "kh": _keep("kh"), "kl": _keep("kl"),
        "rr": _d20_selector("r", "reroll"), "ro": _d20_selector("ro", "reroll once"),
        "ra": _none("reroll and add: at most one die of the whole pool adds one more",
                    "'!o' lets every die that meets the condition add one die (not one in all)"),
        "e": _d20_selector("!", "explode"),
        "mi": _as("min"), "ma": _as("max"),
    },
}


def _split(letters: str, rules: dict[str, Rewrite]) -> list[str] | None:
    """A run of letters after a dice term read as the dialect's modifiers written one after
    another (Foundry's ``khx``: ``kh`` then ``x``; ``max5r1``'s ``max`` is one), the longest
    name first; None when the letters are not such a run (left for the parser to explain)."""
    longest = max(map(len, rules))
    n = len(letters)
    # step[i]: where the name read at i ends, the longest that leaves a readable rest (from the end)
    step: list[int | None] = [None] * n + [n]
    for i in range(n - 1, -1, -1):
        step[i] = next((end for end in range(min(n, i + longest), i, -1)
                        if letters[i:end] in rules and step[end] is not None), None)
    if step[0] is None:
        return None
    names, i = [], 0
    while i < n:
        end = step[i]
        assert end is not None
        names.append(letters[i:end])
        i = end
    return names


BRACE_SETS = ("foundry", "roll20")
"""Dialects that write a set of rolls in braces, ``{1d20, 1d20}kh1`` (this language: parentheses)."""


def _check_brace_set(text: str, pos: int, dialect: str) -> None:
    """A set in braces must list its rolls with commas: Roll20's ``{4d6+3d8}k4`` pools the
    dice of its rolls instead, which this language can't say yet."""
    if text[pos] != "{":
        return
    depth, i = 0, pos
    while i < len(text):
        ch = text[i]
        if ch in "{(":
            depth += 1
        elif ch in "})":
            depth -= 1
            if depth == 0:
                break
        elif ch == "," and depth == 1:
            return
        i += 1
    raise DiceSyntaxError(f"a group in braces without commas pools its rolls' dice ({dialect})",
                          locate(text, pos, i + 1), "this language keeps the best of several rolls: "
                          "{1d20, 1d20}kh1; pool dice in one term instead: 4d6 + 3d8 is two terms", E_BAD_MODIFIER)


class Translation(Record):
    """``text`` (what the user wrote) read in a dialect as ``native``; ``pieces`` are the
    rewritten stretches, (native start, native end, source start, source end)."""

    text: str
    native: str
    pieces: tuple[tuple[int, int, int, int], ...] = ()

    def source_offset(self, pos: int) -> int:
        """Where a position of ``native`` is in ``text``."""
        shift = 0
        for n_start, n_end, s_start, s_end in self.pieces:
            if pos < n_start:
                break
            if pos < n_end:
                return s_start
            shift = s_end - n_end
        return pos + shift

    def relocate(self, exc: RulesEngineError) -> RulesEngineError:
        """An error about ``native`` pointed at ``text`` (what the user wrote)."""
        loc = exc.location
        if not self.pieces or loc.column is None or loc.source_line != self.native:
            return exc
        start = self.source_offset(loc.column - 1)
        end = self.source_offset(loc.column - 1 + max(1, loc.length))
        exc.location = locate(self.text, start, max(end, start + 1))
        return exc


def translate(text: str, dialect: str | None) -> Translation:
    """``text`` in ``dialect`` (None: this language, unchanged). Raises DiceSyntaxError
    for an unknown dialect or a spelling it has that this language can't say."""
    if dialect is None:
        return Translation(text, text)
    rules = RULES.get(dialect)
    if rules is None:
        raise DiceSyntaxError(f"unknown dialect {dialect!r}", None, "dialects: " + ", ".join(DIALECTS))
    out: list[str] = []
    pieces: list[tuple[int, int, int, int]] = []
    done = written = 0  # how far `text` is copied to `out`, and the length of `out`

    def put(start: int, end: int, native: str) -> None:
        """Write ``native`` in place of ``text[start:end]``, and remember where it went."""
        nonlocal done, written
        out.append(text[done:start])
        written += start - done
        out.append(native)
        pieces.append((written, written + len(native), start, end))
        written += len(native)
        done = end

    pos = 0
    length = len(text)
    braces = dialect in BRACE_SETS
    sequence = SEQUENCES.get(dialect)
    while pos < length:
        string = _STRING.match(text, pos)
        if string:
            pos = string.end()
            continue
        if braces and text[pos] in "{}" and not (text[pos] == "{" and pos > 0 and text[pos - 1] in "dD"):
            _check_brace_set(text, pos, dialect)
            put(pos, pos + 1, "(" if text[pos] == "{" else ")")
            if text[pos] == "{":
                pos += 1
                continue
        term = _TERM.match(text, pos)
        if term is not None and term.group() == "}" and not braces:
            term = None
        if term is None or (term.group() != ")" and pos > 0 and (text[pos - 1].isalpha() or text[pos - 1] == "_")):
            pos += 1
            continue
        pos = term.end()
        # After a parenthesis `d6` is a die ((n)d6); after a die it is a modifier (4d6d1).
        seen: list[str] = []
        while pos < length and not (term.group() in ")}" and _DIE_AHEAD.match(text, pos)):
            mod = _MODIFIER.match(text, pos)
            if mod is None or mod.end() == pos:
                break
            letters, cond = mod["name"] or "", mod["cond"] or ""
            # several modifiers may run together with no number between them (``4d6khx``)
            names = _split(letters, rules) if letters[:1].isalpha() else [letters]
            if names is None or names[0] not in rules or (names[0] == "" and term.group() in ")}"):
                break  # this language's own modifier, or an error the parser will explain
            for i, name in enumerate(names):
                written_cond = cond if i == len(names) - 1 else ""
                end = pos + len(name) + len(written_cond)
                try:
                    if sequence is not None:
                        sequence(seen, name)
                    native = rules[name](name, written_cond)
                    if term.group() in ")}" and native[:1] in ("k", "p") and native[1:2] not in ("h", "l"):
                        raise NotInDialect(f"'{name}{written_cond}' keeps a set's items by value",
                                           "keep a set's items by rank: kh1")
                except NotInDialect as exc:
                    raise DiceSyntaxError(f"{exc.message} ({dialect})", locate(text, pos, end), exc.hint,
                                          E_BAD_MODIFIER) from None
                seen.append(name)
                if native != text[pos:end]:
                    put(pos, end, native)
                pos = end
    out.append(text[done:])
    return Translation(text, "".join(out), tuple(pieces))
