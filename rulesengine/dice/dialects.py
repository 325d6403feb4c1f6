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

from ..codes import E_BAD_MODIFIER, W_DIALECT_DROPS, W_DIALECT_READS_OTHERWISE
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


# ---- spellings read otherwise: what a ruleset file in a dialect is told ---------------------------
# A spelling copied from this language's docs into a file with a dialect (or from one tool's
# habits into another's) may be read otherwise there, silently: ``cs>=8`` is dropped by the
# roll20 dialect, ``4d6k3`` keeps the 3s in the d20 library's. Each such spelling is noted
# with what it now means and a spelling read alike everywhere; the full set, by reading the
# rules above against this language:
#   foundry  r<cond>          rerolls once (here and in Roll20, r rerolls until none is left)
#   roll20   !, !!, !p, r, ro with >N or <N   include N (here > and < leave N out)
#   roll20   >=N, <=N, ==N right after the dice   count the dice (here, written with no
#            space, they compare the total); Roll20's own compare points are >N, <N, =N
#   roll20   cs, cf           dropped (here they count): an error
#   d20      k<N>             keeps the dice showing N (Foundry and Roll20: the N highest)
# Spellings every reading agrees on, or that this language refuses (rr, x, mi, e3, ...), are
# not noted: they can't be a native spelling changed silently.

Said = tuple[str, str, str]  # (code, message, hint)
Note = Callable[[str, str, str], Said | None]  # (name, condition, native) -> what to say, or None


def _foundry_reroll_once(name: str, cond: str, native: str) -> Said | None:
    return (W_DIALECT_READS_OTHERWISE,
            f"'{name}{cond}' rerolls once in the foundry dialect ('{native}'): without a dialect, "
            f"as in Roll20, '{name}{cond}' rerolls until no die shows it",
            f"write '{native}' to reroll once (read alike with or without a dialect), or 'rr{cond}' "
            "to reroll until none is left")


_VERBS = {"!": "explodes", "!!": "compounds", "!p": "penetrates", "r": "rerolls", "ro": "rerolls once"}


def _roll20_includes(name: str, cond: str, native: str) -> Said | None:
    """Roll20's ``!>5``: 5 and 6; here ``!>5`` is 6 only."""
    if cond[:1] not in (">", "<") or cond[1:2] == "=" or ".." in cond:
        return None
    number = cond[1:]
    beyond = f"{cond[0]}={int(number) + 1 if cond[0] == '>' else int(number) - 1}" if number.lstrip("-").isdigit() \
        else None
    return (W_DIALECT_READS_OTHERWISE,
            f"'{name}{cond}' {_VERBS[name]} on {number} too in the roll20 dialect ('{native}'): Roll20's "
            f"'{cond[0]}' includes its number, where without a dialect it leaves it out",
            f"write '{native}' to include {number}" + (f", or '{name}{beyond}' to leave it out" if beyond else "")
            + ": read alike with or without a dialect")


_POINTS = {">=": ">", "<=": "<", "==": "="}


def _roll20_counts(name: str, cond: str, native: str) -> Said | None:
    """``10d10>=8`` in the roll20 dialect counts the dice; here it compares the total."""
    op = cond[:2]
    if op not in _POINTS:
        return None  # Roll20's own compare points, >N <N =N: the way it counts
    return (W_DIALECT_READS_OTHERWISE,
            f"'{cond}' right after the dice counts the dice showing {_faces(cond)} in the roll20 dialect "
            f"('{native}'), where without a dialect it compares the total",
            f"to compare the total put a space before '{op}'; to count the dice write Roll20's compare "
            f"point, '{_POINTS[op]}{cond[2:]}'")


def _roll20_dropped(name: str, cond: str, native: str) -> Said | None:
    """Roll20's ``cs``/``cf`` only colour critical faces on its screen: dropped, where here
    they count. An error: the file would sum what it meant to count."""
    counted = (f"; without a dialect '{name}{cond}' "
               + ("counts the dice showing " if name == "cs" else "takes one off for each die showing ")
               + _faces(cond)) if cond else ""
    point = _roll20_point(cond)
    if name == "cs":
        fix = (f"count them with Roll20's compare point right after the dice, '{point}'"
               if point else "count with Roll20's compare point right after the dice (10d10>8)")
    else:
        fix = (f"take one off for each with 'f{point}' after a compare point ('>8f{point}')"
               if point else "take one off for each with f after a compare point (10d10>8f1)")
    return (W_DIALECT_DROPS,
            f"'{name}{cond}' only marks critical faces on Roll20's screen, so the roll20 dialect drops it and the "
            f"term adds its dice up{counted} (deprecated: a later release refuses it)",
            f"{fix}, or remove it")


def _d20_keeps_faces(name: str, cond: str, native: str) -> Said | None:
    """The d20 library's ``k3`` keeps the 3s; Foundry's and Roll20's the three highest."""
    if not cond.isdigit():
        return None
    return (W_DIALECT_READS_OTHERWISE,
            f"'{name}{cond}' keeps the dice showing {cond} in the d20 dialect ('{native}'); in Foundry and "
            f"Roll20 '{name}{cond}' keeps the {cond} highest dice",
            f"write 'kh{cond}' to keep the {cond} highest, or 'k={cond}' to keep the dice showing {cond}: "
            "both read alike in every dialect")


def _faces(cond: str) -> str:
    """The faces a condition of this language meets, in words: ``>=8`` → "8 or more"."""
    m = re.fullmatch(r"(==|!=|>=|<=|>|<|=)?(-?[0-9]+)(?:\.\.([0-9]+))?", cond)
    if m is None:
        return cond
    op, n, top = m.group(1) or "=", m.group(2), m.group(3)
    if top is not None:
        return f"{n} to {top}"
    return {">=": f"{n} or more", "<=": f"{n} or less", ">": f"more than {n}", "<": f"less than {n}",
            "!=": f"anything but {n}"}.get(op, n)


def _roll20_point(cond: str) -> str | None:
    """This language's condition as Roll20's compare point (whose > and < include the
    number); None where it has none (``!=``, a range)."""
    m = re.fullmatch(r"(==|>=|<=|>|<|=)?(-?[0-9]+)", cond)
    if m is None:
        return None
    op, n = m.group(1) or "=", int(m.group(2))
    return {">=": f">{n}", ">": f">{n + 1}", "<=": f"<{n}", "<": f"<{n - 1}"}.get(op, f"={n}")


NOTES: dict[str, dict[str, Note]] = {
    "foundry": {"r": _foundry_reroll_once},
    "roll20": {**{name: _roll20_includes for name in _VERBS}, "": _roll20_counts,
               "cs": _roll20_dropped, "cf": _roll20_dropped},
    "d20": {"k": _d20_keeps_faces},
}
"""For each dialect, its modifiers read otherwise than elsewhere, and what to say of them."""


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


class DialectNote(Record):
    """A spelling the dialect reads, but otherwise than this language (or another dialect)
    reads it, at ``text[start:end]`` of what was written: ``code`` is a warning (W510) where
    it now means something else, W513 where the dialect drops it (deprecated: a later release
    refuses it). The dice
    language reads it as the dialect says; a ruleset file reports it (rules/lints.py)."""

    code: str
    message: str
    hint: str
    start: int
    end: int

    @property
    def severity(self) -> str:
        return "warning" if self.code.startswith("W") else "error"


class Translation(Record):
    """``text`` (what the user wrote) read in a dialect as ``native``; ``pieces`` are the
    rewritten stretches, (native start, native end, source start, source end); ``notes``
    the spellings read otherwise than elsewhere (:class:`DialectNote`)."""

    text: str
    native: str
    pieces: tuple[tuple[int, int, int, int], ...] = ()
    notes: tuple[DialectNote, ...] = ()

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
    if dialect not in RULES:
        raise DiceSyntaxError(f"unknown dialect {dialect!r}", None, "dialects: " + ", ".join(DIALECTS))
    return _Reader(text, dialect).read()


class _Reader:
    """One translation: ``text`` read from left to right, each dialect modifier written
    after a dice term rewritten to this language, the rest copied as written."""

    def __init__(self, text: str, dialect: str) -> None:
        self.text, self.dialect = text, dialect
        self.rules = RULES[dialect]
        self.note_rules = NOTES.get(dialect, {})
        self.braces = dialect in BRACE_SETS
        self.sequence = SEQUENCES.get(dialect)
        self.out: list[str] = []
        self.pieces: list[tuple[int, int, int, int]] = []
        self.notes: list[DialectNote] = []
        self.done = self.written = 0  # how far `text` is copied to `out`, and the length of `out`

    def read(self) -> Translation:
        pos = 0
        while pos < len(self.text):
            pos = self.step(pos)
        self.out.append(self.text[self.done:])
        return Translation(self.text, "".join(self.out), tuple(self.pieces), tuple(self.notes))

    def put(self, start: int, end: int, native: str) -> None:
        """Write ``native`` in place of ``text[start:end]``, and remember where it went."""
        self.out.append(self.text[self.done:start])
        self.written += start - self.done
        self.out.append(native)
        self.pieces.append((self.written, self.written + len(native), start, end))
        self.written += len(native)
        self.done = end

    def step(self, pos: int) -> int:
        """Read what starts at ``pos`` (a string, a brace of a set, a dice term and its
        modifiers, or one character); where reading goes on."""
        text = self.text
        string = _STRING.match(text, pos)
        if string:
            return string.end()
        if self.braces and text[pos] in "{}" and not (text[pos] == "{" and pos > 0 and text[pos - 1] in "dD"):
            _check_brace_set(text, pos, self.dialect)
            self.put(pos, pos + 1, "(" if text[pos] == "{" else ")")
            if text[pos] == "{":
                return pos + 1
        term = self.term_at(pos)
        if term is None:
            return pos + 1
        return self.modifiers(term.end(), term.group() in ")}")

    def term_at(self, pos: int) -> re.Match[str] | None:
        """A dice term's die, or a closing parenthesis (brace), at ``pos``; not the end of a name."""
        term = _TERM.match(self.text, pos)
        if term is None or (term.group() == "}" and not self.braces):
            return None
        if term.group() != ")" and pos > 0 and (self.text[pos - 1].isalpha() or self.text[pos - 1] == "_"):
            return None
        return term

    def modifiers(self, pos: int, closing: bool) -> int:
        """The modifiers written from ``pos`` after a term (``closing``: after a parenthesis,
        where ``d6`` is a die, ``(n)d6``, not a modifier); where they end."""
        text = self.text
        seen: list[str] = []
        while pos < len(text) and not (closing and _DIE_AHEAD.match(text, pos)):
            mod = _MODIFIER.match(text, pos)
            if mod is None or mod.end() == pos:
                break
            letters, cond = mod["name"] or "", mod["cond"] or ""
            # several modifiers may run together with no number between them (``4d6khx``)
            names = _split(letters, self.rules) if letters[:1].isalpha() else [letters]
            if names is None or names[0] not in self.rules or (names[0] == "" and closing):
                break  # this language's own modifier, or an error the parser will explain
            for i, name in enumerate(names):
                pos = self.modifier(pos, name, cond if i == len(names) - 1 else "", seen, closing)
        return pos

    def modifier(self, pos: int, name: str, cond: str, seen: list[str], closing: bool) -> int:
        """One modifier of the dialect, ``name`` and its condition, rewritten; where it ends."""
        end = pos + len(name) + len(cond)
        try:
            if self.sequence is not None:
                self.sequence(seen, name)
            native = self.rules[name](name, cond)
            if closing and native[:1] in ("k", "p") and native[1:2] not in ("h", "l"):
                raise NotInDialect(f"'{name}{cond}' keeps a set's items by value", "keep a set's items by rank: kh1")
        except NotInDialect as exc:
            raise DiceSyntaxError(f"{exc.message} ({self.dialect})", locate(self.text, pos, end), exc.hint,
                                  E_BAD_MODIFIER) from None
        seen.append(name)
        note = self.note_rules.get(name)
        said = note(name, cond, native) if note is not None else None
        if said is not None:
            self.notes.append(DialectNote(*said, pos, end))
        if native != self.text[pos:end]:
            self.put(pos, end, native)
        return end
