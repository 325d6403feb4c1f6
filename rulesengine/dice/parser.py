"""Text → syntax tree, with every error pointing at a column.

The parser is lark's, generated ahead of time from ``grammar.lark`` by lark's standalone
tool and loaded once per process, on first use (see :func:`_parser`). The tree is built *during* the
LALR parse by an inline transformer, so there is no recursive tree walk that a deeply
nested expression could overflow; limits on length and depth are checked before and
after parsing. Parsed expressions are cached by (text, limits). Turning lark's errors
into messages with hints is :mod:`rulesengine.dice.syntax_errors`.
"""

from __future__ import annotations

import functools
import re
import threading
from typing import NamedTuple, cast
from pathlib import Path

from ..errors import DiceSyntaxError, LimitError, Location
from ..limits import DEFAULT_LIMITS, Limits
from ..numerals import whole_number
from ..records import Record, fields
from . import ast, tree_store
from ..codes import E_BAD_CHARACTER, E_BAD_DIE, E_BAD_MODIFIER, E_CHAINED_COMPARISON, E_DICE_SYNTAX
from .syntax_errors import (FOREIGN_MODIFIERS, MODIFIER_NAMES, bad_character, closest, locate, needs_number_hint,
                            unexpected_token)

__all__ = ["parse", "check_modifiers", "write_tables", "stored_tables_match", "locate", "closest", "MODIFIER_NAMES",
           "TREE_DEPTH_PER_NESTING", "E_DICE_SYNTAX", "E_BAD_DIE", "E_BAD_MODIFIER",
           "E_CHAINED_COMPARISON", "E_BAD_CHARACTER"]  # locate, closest, the codes: re-exported

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

# A modifier token of the grammar (EXPLODE, REROLL, COUNT) taken apart: the lexer has
# already decided which text belongs to the modifier; this names the pieces.
_OPEN_TEXT = re.compile(r"(?P<mark>ro|r|cs|cf|!!|!p|!o|!|k|p)(?P<op>==|!=|>=|<=|>|<|=)?\(\Z")
_EXPLODE_KINDS = {"!": "explode", "!!": "compound", "!p": "penetrate", "!o": "once"}
_MODIFIER_TEXT = re.compile(
    r"(?P<mark>ro|r|cs|cf|!!|!p|!o|!|k|p)\s*(?P<op>==|!=|>=|<=|>|<|=)?\s*(?P<minus>-\s*)?(?P<num>[0-9]*)"
    r"(?:\.\.(?P<high>[0-9]+))?\Z")


def _span(*items) -> ast.Span:
    """The span covering lark tokens and AST nodes among ``items`` (None ignored)."""
    starts, ends = [], []
    for item in items:
        if item is None:
            continue
        if hasattr(item, "start_pos"):
            starts.append(item.start_pos)
            ends.append(item.end_pos)
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], int):
            starts.append(item[0])
            ends.append(item[1])
        else:
            starts.append(item.span[0])
            ends.append(item.span[1])
    return (min(starts), max(ends))


class SymbolFace(NamedTuple):
    """A face of a symbol die as written, ``[hit, hit]``, while its die is read."""

    symbols: tuple[str, ...]
    span: ast.Span


class _Builder:
    """Inline LALR callbacks: each grammar alias becomes one AST node.

    Holds the text and limits of the expression being parsed so that literal-level
    problems (``d0``, a 10^30 literal, ``kh0``) are reported at the right column.
    """

    def __init__(self) -> None:
        self.text = ""
        self.limits = DEFAULT_LIMITS

    # -- helpers --------------------------------------------------------------------------
    def _fail(self, message: str, span: ast.Span, hint: str | None = None,
              code: str = E_DICE_SYNTAX) -> DiceSyntaxError:
        return DiceSyntaxError(message, locate(self.text, *span), hint, code)

    def _int(self, token) -> int:
        return self._int_at(str(token), token.start_pos)

    # -- expressions ----------------------------------------------------------------------
    def number(self, c):
        return ast.Num(self._int(c[0]), _span(c[0]))

    def string(self, c):
        return ast.Str(str(c[0])[1:-1], _span(c[0]))

    def true(self, c):
        return ast.Bool(True, _span(c[0]))

    def false(self, c):
        return ast.Bool(False, _span(c[0]))

    def name(self, c):
        return ast.Name(str(c[0]), _span(c[0]))

    def call(self, c):
        name, _lpar, args, rpar = c
        return ast.Call(str(name), tuple(args or ()), _span(name, rpar))

    def args(self, c):
        return [x for x in c if not hasattr(x, "type")]

    def group(self, c):
        return ast.Group(c[1], _span(c[0], c[2]))

    def kept_group(self, c):
        """``(4d6kh3)kl1``: keeps after a dice term in parentheses keep from the dice it kept
        (the same as writing them after the term); after a set in parentheses, from the
        rolls it kept (``((1d4, 1d6, 1d8)kh2)kl1``). After anything else (``(2d20 + 5)kh1``)
        there is nothing to keep from: refused, with the set and the pool it may mean."""
        inner, keeps = c[1], list(c[3:])
        span = _span(c[0], keeps[-1])
        while isinstance(inner, ast.Group):
            inner = inner.inner
        if isinstance(inner, ast.Dice):
            node = ast.Dice(inner.count, inner.die, inner.modifiers + tuple(keeps), span, inner.sides)
            if node.die is not None:
                check_modifiers(node.die, node.modifiers, self.text)
            return node
        if isinstance(inner, ast.SetKeep):
            return ast.SetKeep(inner.items, inner.keeps + tuple(keeps), span)
        raise self._not_a_set(inner, keeps)

    def _not_a_set(self, inner: ast.Node, keeps: list) -> DiceSyntaxError:
        """The error for keeps after parentheses that hold one value, not dice or a set:
        its hint writes the set (commas) and the pool (the keep on a dice term) it may mean."""
        keep_text = self.text[keeps[0].span[0]:keeps[-1].span[1]]
        parts: list[ast.Node] = []
        stack = [inner]
        while stack:  # the addends of a sum, in the order written
            node = stack.pop()
            if isinstance(node, ast.Binary) and node.op == "+":
                stack += [node.right, node.left]
            else:
                parts.append(node)
        texts = [self.text[n.span[0]:n.span[1]].strip() for n in parts]
        first = next((i for i, n in enumerate(parts) if isinstance(n, ast.Dice)), None)
        if len(parts) > 1 and first is not None:
            pool = " + ".join(t + keep_text if i == first else t for i, t in enumerate(texts))
            # a set of these rolls keeps fewer than all of them: kh4 of two rolls is kh1
            set_keep = keep_text if len(keeps) > 1 or keeps[0].n < len(parts) else f"{keeps[0].kind}1"
            hint = (f"to keep the best of several rolls write a set with commas: ({', '.join(texts)}){set_keep}; "
                    f"to keep dice of a pool put the keep on its term: {pool}")
        else:
            hint = ("to keep the best of several rolls write a set with commas: (2d20, 5)kh1; "
                    "to keep dice of a pool put the keep on its term: 2d20kh1 + 5")
        return self._fail(f"'{keep_text}' after parentheses that hold one value, not dice or a set: "
                          "nothing to keep from", _span(keeps[0], keeps[-1]), hint, E_BAD_MODIFIER)

    def set(self, c):
        items = tuple(x for x in c if x is not None and not hasattr(x, "type") and not isinstance(x, ast.Keep))
        keeps = tuple(x for x in c if isinstance(x, ast.Keep))
        close = keeps[-1] if keeps else next(x for x in reversed(c) if getattr(x, "type", None) == "RPAR")
        return ast.SetKeep(items, keeps, _span(c[0], close))

    def labeled(self, c):
        return ast.Labeled(c[0], str(c[1])[1:-1].strip(), _span(c[0], c[1]))

    def negate(self, c):
        return ast.Neg(c[1], _span(c[0], c[1]))

    def plus(self, c):
        return c[1]

    def binary(self, c):
        return ast.Binary(str(c[1]), c[0], c[2], _span(c[0], c[2]))

    def compare(self, c):
        if isinstance(c[0], ast.Compare):
            raise self._fail(
                "comparisons do not chain",
                _span(c[1]),
                "write 'a < b and b < c' instead of 'a < b < c'",
                E_CHAINED_COMPARISON,
            )
        return ast.Compare(str(c[1]), c[0], c[2], _span(c[0], c[2]))

    def and_op(self, c):
        return ast.Logic("and", c[0], c[2], _span(c[0], c[2]))

    def or_op(self, c):
        return ast.Logic("or", c[0], c[2], _span(c[0], c[2]))

    def not_op(self, c):
        return ast.Not(c[1], _span(c[0], c[1]))

    # -- dice -------------------------------------------------------------------------------
    def count_int(self, c):
        return ast.Num(self._int(c[0]), _span(c[0]))

    def count_expr(self, c):
        return ast.Group(c[1], _span(c[0], c[2]))

    def std_die(self, c):
        tok = c[0]
        body = str(tok)[1:]
        if body == "%":
            return ast.Die(sides=100, text=str(tok)), _span(tok)
        if body == "F":
            return ast.Die(custom=(-1, 0, 1), text=str(tok)), _span(tok)
        if len(body) > 12 or int(body) > self.limits.max_sides:
            raise LimitError(
                f"a die with {body[:14]} sides is too large",
                "max_sides",
                locate(self.text, tok.start_pos, tok.end_pos),
                f"dice may have at most {self.limits.max_sides:,} sides",
            )
        sides = int(body)
        if sides < 1:
            raise self._fail("a die needs at least one side", _span(tok),
                             "a percentile die is d% here (d00 in some tools)" if body.startswith("00")
                             else "write d1 or more, e.g. d6", E_BAD_DIE)
        return ast.Die(sides=sides, text=str(tok)), _span(tok)

    def named_die(self, c):
        name = str(c[1])
        return ast.Die(text=f"d{{{name}}}", name=name), _span(c[0], c[2])

    def custom_die(self, c):
        opener, closer = c[0], c[-1]
        span = _span(opener, closer)
        symbol_faces = [x for x in c[1:-1] if isinstance(x, SymbolFace)]
        if symbol_faces:
            numbered = [x for x in c[1:-1] if isinstance(x, (int, tuple)) and not isinstance(x, SymbolFace)]
            return self._symbol_die(symbol_faces, len(numbered), span)
        parts = [x for x in c[1:-1] if isinstance(x, (int, tuple))]
        faces = tuple(x if isinstance(x, int) else x[0] for x in parts)
        labels: dict[int, str] = {}
        for x in parts:
            if isinstance(x, tuple):
                face, label, at = x
                if labels.get(face, label) != label:
                    raise self._fail(f"the face {face} has two labels, '{labels[face]}' and '{label}'", at,
                                     "faces with one number read alike: give it one label, or different numbers",
                                     E_BAD_DIE)
                if label in labels.values() and labels.get(face) != label:
                    raise self._fail(f"the label '{label}' is on two different faces", at,
                                     "a label names one number: physical faces are entered by it", E_BAD_DIE)
                labels[face] = label
        if not faces:
            raise self._fail("a custom die needs at least one face", span,
                             "list its faces, e.g. d{-1,0,1}", E_BAD_DIE)
        if len(faces) > self.limits.max_custom_faces:
            raise LimitError(f"a custom die with {len(faces)} faces is too large",
                             "max_custom_faces", locate(self.text, *span))
        text = "d{" + ",".join(f"{f}:{labels[f]!r}" if f in labels else str(f) for f in faces) + "}"
        return ast.Die(custom=faces, text=text, labels=tuple(sorted(labels.items())) or None), span

    def _symbol_die(self, faces: list[SymbolFace], numbered: int, span: ast.Span) -> tuple[ast.Die, ast.Span]:
        if numbered:
            raise self._fail("a die's faces are all numbers or all symbols", faces[0].span,
                             "write every face as a list of symbols: d{[], [hit], [hit, hit]}", E_BAD_DIE)
        if len(faces) > self.limits.max_custom_faces:
            raise LimitError(f"a custom die with {len(faces)} faces is too large",
                             "max_custom_faces", locate(self.text, *span))
        symbols = tuple(f.symbols for f in faces)
        if sum(len(f) for f in symbols) > self.limits.max_custom_faces:
            raise LimitError(f"a symbol die showing {sum(len(f) for f in symbols):,} symbols is too large",
                             "max_custom_faces", locate(self.text, *span))
        text = "d{" + ", ".join("[" + ", ".join(f) + "]" for f in symbols) + "}"
        return ast.symbol_die(symbols, text), span

    def symbol_face(self, c):
        tok = c[0]
        words = [w for w in re.split(r"[\s,+]+", str(tok)[1:-1]) if w]
        for w in words:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", w) or w == "blank":
                raise self._fail(f"'{w}' can't name a symbol", _span(tok),
                                 "a symbol is a word of letters, digits and _ (not 'blank', the name of a face "
                                 "with none): d{[], [hit], [hit, hit]}", E_BAD_DIE)
        return SymbolFace(tuple(words), _span(tok))

    def expr_die(self, c):
        return c[1], _span(c[0], c[2])

    def face(self, c):
        return self._int(c[0])

    def neg_face(self, c):
        return -self._int(c[1])

    def labeled_face(self, c):
        return self._labeled(self._int(c[0]), c[2], _span(c[0], c[2]))

    def labeled_neg_face(self, c):
        return self._labeled(-self._int(c[1]), c[3], _span(c[0], c[3]))

    def _labeled(self, face: int, token, span: ast.Span) -> tuple[int, str, ast.Span]:
        label = str(token)[1:-1].strip()
        if not label or label.lstrip("-").isdigit() or any(ch in label for ch in ",[]") or not label.isprintable():
            raise self._fail(f"{str(token)} can't label a face", span,
                             "a label is a word or a few printable characters, not a number: 6:'skull'", E_BAD_DIE)
        return face, label, span

    def _required_condition(self, token) -> tuple[str, ast.Cond]:
        mark, cond = self._condition(token, required=True)
        assert cond is not None, "a required condition is never missing: _condition raised"
        return mark, cond

    def _condition(self, token, required: bool) -> tuple[str, ast.Cond | None]:
        """Split a modifier token (``!>=5``, ``r1``, ``cs==6``) into its mark and condition,
        enforcing the rule of docs/dice-language.md: the condition follows the mark with
        no space, and a bare number is never negative."""
        text, start = str(token), token.start_pos
        parts = _MODIFIER_TEXT.match(text)
        assert parts is not None, f"grammar and _MODIFIER_TEXT disagree on {text!r}"
        mark, op, minus, digits = parts["mark"], parts["op"], parts["minus"], parts["num"]
        span = (start, token.end_pos)
        compact = f"{mark}{op or ''}{'-' if minus else ''}{digits}"
        if not (op or minus or digits):
            if required:
                foreign = FOREIGN_MODIFIERS.get(mark + self.text[token.end_pos:token.end_pos + 1])
                raise self._fail(f"'{mark}' needs a condition", span,
                                 foreign or f"write it right after '{mark}', e.g. {mark}1 or {mark}>=5",
                                 E_BAD_MODIFIER)
            return mark, None
        if op and not digits:
            raise self._fail(f"'{mark}{op}' needs a number", span, needs_number_hint(mark, op),
                             E_BAD_MODIFIER)
        if any(ch.isspace() for ch in text):
            alternative = (f", or '{mark} {op} {'-' if minus else ''}{digits}' to compare"
                           if mark.startswith("!") else "")
            raise self._fail(f"a space inside the condition '{text}'", span,
                             f"write '{compact}' with no space{alternative}", E_BAD_MODIFIER)
        if minus and not op:
            raise self._fail(f"'{mark}-{digits}': a bare condition cannot be negative", span,
                             f"for the face -{digits} write {mark}=-{digits}", E_BAD_MODIFIER)
        if mark == "!!" and op == "=":
            raise self._fail(f"'{text}' is ambiguous: '!!' then '={digits}', or '!' then '!={digits}'",
                             span, f"write !!=={digits} to compound on {digits}; to explode on every "
                             f"face but {digits}, use a range such as !>{digits}", E_BAD_MODIFIER)
        value = self._int_at(digits, start + parts.start("num"))
        if parts["high"] is not None:  # a range of faces, r2..5
            if op or minus:
                raise self._fail(f"'{text}': a range of faces is written right after the mark, with no operator",
                                 span, f"write e.g. {mark}{digits}..{parts['high']}", E_BAD_MODIFIER)
            high = self._int_at(parts["high"], start + parts.start("high"))
            if high < value:
                raise self._fail(f"the range {value}..{high} holds no face", span,
                                 f"write the lower face first: {mark}{high}..{value}", E_BAD_MODIFIER)
            return mark, ast.Cond("=", value, high)
        return mark, ast.Cond(op or "=", -value if minus else value)

    def _int_at(self, digits: str, pos: int) -> int:
        if len(digits) > 18 or int(digits) > self.limits.max_magnitude:
            raise LimitError(
                f"number {digits[:20]}{'...' if len(digits) > 20 else ''} is too large",
                "max_magnitude",
                locate(self.text, pos, pos + len(digits)),
                f"numbers are limited to {self.limits.max_magnitude:,}",
            )
        return whole_number(digits)  # the one rule for numbers typed in and out of expressions

    def keep(self, c):
        tok, num = c
        n = 1 if num is None else self._int(num)
        span = _span(tok, num)
        if n < 1 and tok[0] == "k":
            raise self._fail(f"'{tok}{n}' keeps no dice", span,
                             f"keep at least one die, e.g. {tok}1", E_BAD_MODIFIER)
        return ast.Keep(str(tok), n, span)

    def explode(self, c):
        mark, cond = self._condition(c[0], required=False)
        kind = _EXPLODE_KINDS[mark]
        return ast.Explode(kind, cond, _span(c[0]))

    def reroll(self, c):
        mark, cond = self._required_condition(c[0])
        return ast.Reroll(mark == "ro", cond, _span(c[0]))

    def reroll_rank(self, c):
        tok = c[0]
        n = self._int_at(str(tok)[3:], tok.start_pos + 3)
        if n < 1:
            raise self._fail(f"'{tok}' rerolls no dice", _span(tok), f"reroll one die or more, e.g. {str(tok)[:3]}1",
                             E_BAD_MODIFIER)
        return ast.RerollRank(str(tok)[2] == "l", n, _span(tok))

    def count_mod(self, c):
        mark, cond = self._required_condition(c[0])
        return ast.CountDice(mark == "cf", cond, _span(c[0]))

    def _condition_expr(self, token, expr, close) -> tuple[str, ast.CondExpr]:
        """A mark with its condition's number as an expression: ``!>=(again)``."""
        parts = _OPEN_TEXT.match(str(token))
        assert parts is not None, f"grammar and _OPEN_TEXT disagree on {str(token)!r}"
        mark, op = parts["mark"], parts["op"] or "="
        span = _span(token, close)
        if mark == "!!" and parts["op"] == "=":
            raise self._fail("'!!=(…)' could be '!!' on a face or '!' on a face other than one",
                             span, "write '!!==(…)' to compound on that face", E_BAD_MODIFIER)
        if any(isinstance(x, ast.Dice) for x in ast.walk(expr)):
            raise self._fail("a die's condition cannot roll dice", span,
                             "roll the number first, under its own name, and use the name", E_BAD_MODIFIER)
        return mark, ast.CondExpr(op, expr, self.text[expr.span[0]:expr.span[1]])

    def keep_expr(self, c):
        tok, expr, close = c
        if any(isinstance(x, ast.Dice) for x in ast.walk(expr)):
            raise self._fail("the number of dice to keep cannot roll dice", _span(tok, close),
                             "roll the number first, under its own name, and use the name", E_BAD_MODIFIER)
        return ast.Keep(str(tok)[:2], 0, _span(tok, close), expr, self.text[expr.span[0]:expr.span[1]])

    def explode_expr(self, c):
        mark, cond = self._condition_expr(*c)
        return ast.Explode(_EXPLODE_KINDS[mark], cond, _span(c[0], c[2]))

    def reroll_expr(self, c):
        mark, cond = self._condition_expr(*c)
        return ast.Reroll(mark == "ro", cond, _span(c[0], c[2]))

    def count_mod_expr(self, c):
        mark, cond = self._condition_expr(*c)
        return ast.CountDice(mark == "cf", cond, _span(c[0], c[2]))

    def face_keep(self, c):
        text = str(c[0])
        if re.fullmatch(r"k[0-9]+", text):
            n = text[1:]
            raise self._fail(f"'{text}' is ambiguous: Foundry and Roll20 keep the {n} highest dice, "
                             f"the d20 library keeps the dice showing {n}", _span(c[0]),
                             f"write kh{n} for the {n} highest, or k={n} for the dice showing {n} "
                             "(or choose a dialect)", E_BAD_MODIFIER)
        mark, cond = self._required_condition(c[0])
        return ast.KeepFace(mark == "k", cond, _span(c[0]))

    def face_keep_expr(self, c):
        mark, cond = self._condition_expr(*c)
        if mark == "k" and str(c[0]) == "k(":
            raise self._fail("'k(…)' is ambiguous: the highest dice, or the dice showing a face", _span(c[0], c[2]),
                             f"write kh({cond.source}) for the highest, or k=({cond.source}) for a face",
                             E_BAD_MODIFIER)
        return ast.KeepFace(mark == "k", cond, _span(c[0], c[2]))

    def clamp(self, c):
        tok, num = c
        return ast.Clamp(str(tok), self._int(num), _span(tok, num))

    def dice(self, c):
        count, (die, die_span), *mods = c
        start = count.span if count is not None else die_span
        end = mods[-1].span if mods else die_span
        if count is None:
            count = ast.Num(1, (die_span[0], die_span[0]))
        elif isinstance(count, ast.Num) and count.value > self.limits.max_dice:
            raise LimitError(
                f"{count.value:,} dice is more than one roll may use",
                "max_dice",
                locate(self.text, *count.span),
                f"a roll may use at most {self.limits.max_dice:,} dice",
            )
        if isinstance(die, ast.Die):
            node = ast.Dice(count, die, tuple(mods), _span(start, end))
            check_modifiers(die, node.modifiers, self.text)
        else:  # d(expr): checked when the number of sides is known
            node = ast.Dice(count, None, tuple(mods), _span(start, end), sides=die)
        return node


def check_modifiers(die: ast.Die, modifiers: tuple, text: str) -> None:
    """Reject modifier combinations whose meaning would be empty, infinite or ambiguous.

    Called by the parser for every die it can see, and by the evaluator for ``d(expr)``
    dice once their number of sides is known.
    """

    def fail(message: str, span: ast.Span, hint: str | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, locate(text, *span), hint, E_BAD_MODIFIER)

    if not die.declared:
        return  # d{ability}: checked when a ruleset gives its faces
    if die.symbols is not None:
        for m in modifiers:
            if (isinstance(m, ast.Explode) and m.kind in ("compound", "penetrate")) or isinstance(m, ast.Clamp):
                raise fail(f"'{text[m.span[0]:m.span[1]]}' changes a die's number, and {die.text} shows symbols",
                           m.span, "a symbol die may reroll, explode with ! or !o, and keep; "
                           "count its symbols with symbols(roll, 'name')")
    if any(isinstance(getattr(m, "cond", None), ast.CondExpr) or getattr(m, "expr", None) is not None
           for m in modifiers):
        return  # checked when the numbers are known (ast.with_conditions)
    for m in modifiers:
        if isinstance(m, ast.Keep) and (m.n < 0 or (m.n < 1 and m.kind[0] == "k")):
            raise fail(f"'{m.kind}' with {m.n} {'keeps no dice' if m.n == 0 else 'dice is not a number of dice'}",
                       m.span, f"{'keep at least one die' if m.kind[0] == 'k' else 'drop 0 dice or more'}")
    small = die.custom is not None or (die.sides or 0) <= 1000
    faces = set(die.faces) if small else None
    explodes = [m for m in modifiers if isinstance(m, ast.Explode)]
    rerolls = [m for m in modifiers if isinstance(m, ast.Reroll)]
    clamps = [m for m in modifiers if isinstance(m, ast.Clamp)]

    def every_face(conds) -> bool:
        if faces is not None:
            return all(any(c(f) for c in conds) for f in faces)
        # A huge standard die: a condition covers every face only if it covers both ends
        # and is an interval (all conditions are intervals or single points).
        return any((c.op in (">=", "<=", ">", "<", "!=") or getattr(c, "high", None) is not None)
                   and c(1) and c(die.sides) for c in conds)

    if len(explodes) > 1:
        raise fail("a die can explode only one way", explodes[1].span, "use one of !, !! and !p")
    if faces is None:  # a huge standard die: only what its two ends tell
        for m in explodes:
            if every_face([m.cond or ast.Cond("=", die.highest)]):
                raise fail(f"'{text[m.span[0]:m.span[1]]}' explodes on every face of {die.text}, forever",
                           m.span, "explode on some faces only, e.g. !=6 or !>=5")
    ranked = [m for m in modifiers if isinstance(m, ast.RerollRank)]
    if len(ranked) > 1:
        raise fail("a term can reroll its lowest or highest dice once", ranked[1].span, "write one rol or roh")
    if ranked and (explodes or rerolls):
        other = (explodes or rerolls)[0]
        raise fail(f"'{ranked[0].text()}' with {'an explosion' if explodes else 'another reroll'}: "
                   "which dice are lowest would depend on the order", other.span,
                   "reroll the lowest dice of a plain throw, then count or keep")
    if rerolls and len({m.once for m in rerolls}) > 1:
        raise fail("mixing 'ro' (reroll once) and 'r' (reroll until)", rerolls[1].span,
                   "use one kind of reroll; several conditions of one kind combine")
    if rerolls and every_face([m.cond for m in rerolls if isinstance(m.cond, ast.Cond)]):
        raise fail(f"the rerolls match every face of {die.text}", rerolls[-1].span,
                   "leave at least one face that is kept")
    lows = [m.n for m in clamps if m.kind == "min"]
    highs = [m.n for m in clamps if m.kind == "max"]
    if lows and highs and max(lows) > min(highs):
        raise fail("'min' is above 'max'", clamps[-1].span, "the clamp range would be empty")
    if faces is not None:
        _check_faces_met(die, modifiers, text, sorted(faces), fail)


def _check_faces_met(die: ast.Die, modifiers: tuple, text: str, faces: list[int], fail) -> None:
    """One rule for conditions: each must meet a face the die can show where it is read
    (docs/dice-language.md, "Order of modifiers"). A reroll reads the faces rolled; an
    explosion the faces left after rerolls until (``d6r<=5!`` can only show 6s, so it
    explodes forever: refused like ``d1!``); a keep by face and a count read the dice's
    values after explosions and clamps (``4d6max3k=5`` keeps nothing)."""

    def written(m) -> str:
        return text[m.span[0]:m.span[1]]

    def shown_text(values: list[int], open_from: int | None = None) -> str:
        if open_from is not None:
            return f"{min(values + [open_from])} or more"
        if len(values) > 2 and values[-1] - values[0] == len(values) - 1:
            return f"{values[0]} to {values[-1]}"
        return ", ".join(map(str, values[:8])) + (", …" if len(values) > 8 else "")

    def meets_none(m, mark: str, values: list[int], after: list, example: str, extra: str = "",
                   open_from: int | None = None) -> DiceSyntaxError:
        ordered = sorted(after, key=lambda a: a.span)
        changes = " after " + " and ".join(f"'{written(a)}'" for a in ordered) if after else ""
        hint = (f"write a condition one of them meets, e.g. {mark}{example}{extra}" if example
                else "it can show one face only: leave the explosion out")
        cond = getattr(m, "cond", None)
        known = f" ({cond.text()} here)" if "(" in written(m) and isinstance(cond, ast.Cond) else ""
        return fail(f"'{written(m)}'{known} meets no face of {die.text}{changes}: "
                    f"it can show {shown_text(values, open_from)}", m.span, hint)

    explodes = [m for m in modifiers if isinstance(m, ast.Explode)]
    rerolls = [m for m in modifiers if isinstance(m, ast.Reroll)]
    clamps = [m for m in modifiers if isinstance(m, ast.Clamp)]
    for r in rerolls:
        if isinstance(r.cond, ast.Cond) and not any(r.cond(f) for f in faces):
            raise meets_none(r, "ro" if r.once else "r", faces, [], str(faces[0]))
    until = [r for r in rerolls if not r.once and isinstance(r.cond, ast.Cond)]
    until_conds = [r.cond for r in until if isinstance(r.cond, ast.Cond)]
    shown = [f for f in faces if not any(c(f) for c in until_conds)]  # not empty: checked before
    for m in explodes:
        cond = m.cond or ast.Cond("=", die.highest)
        if not isinstance(cond, ast.Cond):
            continue
        mark = written(m)[:2] if written(m)[:2] in _EXPLODE_KINDS else "!"
        hit = [f for f in shown if cond(f)]
        if len(hit) == len(shown):
            if len(shown) == len(faces):
                raise fail(f"'{written(m)}' explodes on every face of {die.text}, forever", m.span,
                           "explode on some faces only, e.g. !=6 or !>=5")
            rerolled = " and ".join(f"'{written(u)}'" for u in until)
            raise fail(f"'{written(m)}' explodes on every face {die.text} can show after {rerolled} "
                       f"({shown_text(shown)}), forever", m.span,
                       "reroll fewer faces, or explode on some of the faces left only")
        if not hit:
            if len(shown) == 1:
                raise meets_none(m, mark, shown, until, "", "")
            extra = ""
            if m.cond is not None and m.cond.is_equality and "(" not in written(m):
                extra = "; for a comparison, put a space before it: '3d6 != 10'"
            raise meets_none(m, mark, shown, until, f"={shown[-1]}", extra)
    # The values the dice can have where keeps by face and counts read them.
    lo = max((m.n for m in clamps if m.kind == "min"), default=None)
    hi = min((m.n for m in clamps if m.kind == "max"), default=None)

    def clamp(v: int) -> int:
        v = v if lo is None else max(v, lo)
        return v if hi is None else min(v, hi)

    values = set(shown)
    kind = explodes[0].kind if explodes else None
    if kind == "penetrate":  # an added die is worth one less than its face
        values |= {f - 1 for f in shown}
    open_from: int | None = None
    if kind == "compound":  # a die's faces added up: any value from its lowest up (a superset)
        open_from = clamp(shown[0])
        if hi is not None and hi - open_from <= 10_000:  # clamped from above: those values
            values |= set(range(open_from, hi + 1))
            open_from = None
    values_seen = sorted({clamp(v) for v in values})
    after = until + clamps + explodes[:1] if kind in ("penetrate", "compound") else until + clamps

    def met(cond: ast.Cond) -> bool:
        if any(cond(v) for v in values_seen):
            return True
        return open_from is not None and _meets_between(cond, open_from, hi)

    face_keeps = [m for m in modifiers if isinstance(m, ast.KeepFace) and isinstance(m.cond, ast.Cond)]
    # A count no face meets is 0, a number with a meaning (a target past the die: no
    # success), and files of 0.1.0 relied on it (`(n)d6cs>=(tn)` at tn = 7): counts stay
    # allowed; keeps by face that keep nothing are refused.
    for m in modifiers:
        if isinstance(m, ast.KeepFace) and isinstance(m.cond, ast.Cond) and not met(m.cond):
            raise meets_none(m, "k" if m.keep else "p", values_seen, after, f"={values_seen[-1]}",
                             open_from=open_from)
    if face_keeps and open_from is None:
        # Each keep meets a value, yet together they may keep none (k>=5p5p6): the term
        # would always be 0, surely a slip.
        keeps = [k.cond for k in face_keeps if k.keep and isinstance(k.cond, ast.Cond)]
        drops = [k.cond for k in face_keeps if not k.keep and isinstance(k.cond, ast.Cond)]
        if not any((not keeps or any(c(v) for c in keeps)) and not any(c(v) for c in drops) for v in values_seen):
            raise fail(f"'{written(face_keeps[-1])}' leaves no face of {die.text} kept",
                       face_keeps[-1].span, f"keep faces {die.text} can show, e.g. k>={values_seen[-1]}")


def _meets_between(cond: ast.Cond, a: int, b: int | None) -> bool:
    """Whether some whole number from ``a`` to ``b`` (None: no end) meets ``cond``."""
    if cond.high is not None:
        return cond.high >= a and (b is None or cond.value <= b)
    v, op = cond.value, cond.op
    if op in ("=", "=="):
        return a <= v and (b is None or v <= b)
    if op == "!=":
        return b is None or b > a or a != v
    if op in (">", ">="):
        return b is None or (b > v if op == ">" else b >= v)
    return a < v if op == "<" else a <= v


_PARSE_LOCK = threading.Lock()


_LARK_OPTIONS = dict(parser="lalr", lexer="contextual", maybe_placeholders=True)


def _grammar() -> str:
    return GRAMMAR_PATH.read_text(encoding="utf-8")


STANDALONE_PATH = GRAMMAR_PATH.with_name("_lalr.py")
"""The parser generated from ``grammar.lark`` by lark's standalone tool (see :func:`_parser`)."""


@functools.lru_cache(maxsize=1)
def _parser():
    """The LALR parser, its builder, and the module whose exception classes it raises;
    made once per process.

    Importing lark and loading its tables cost the ``dice`` and ``roll`` commands a sixth of
    their start-up (issue 18), so the parser that runs is the one lark's own standalone tool
    generates from ``grammar.lark`` (``_lalr.py``: lark's LALR runtime and this grammar's
    tables, no grammar compiler, never pickle). It is used only when the grammar it was
    made from is the grammar as it is now (the texts are compared as they are: no hashing
    to pay for at start-up); otherwise lark builds the parser from ``grammar.lark``, so a
    stale file can cost time but never correctness. Regenerate it with ``python -m
    rulesengine.dice.parser``; a test checks it is current.
    """
    builder = _Builder()
    text = _grammar()
    try:
        from . import _lalr

        if _lalr.GRAMMAR == text:
            return _lalr.Lark_StandAlone(transformer=builder), builder, _lalr
    except ImportError:  # missing: build the parser below
        pass
    import lark  # imported only then: a command's start-up must not pay for it
    from lark import exceptions

    return lark.Lark(text, transformer=builder, **_LARK_OPTIONS), builder, exceptions


def stored_tables_match() -> bool:
    """Whether the generated parser (``_lalr.py``) was made from ``grammar.lark`` as it is
    now. (Not compared byte for byte: lark numbers the LALR states differently from one run
    to the next.) A stale one costs start-up time, never correctness (see :func:`_parser`);
    a test keeps it current."""
    from . import _lalr

    return bool(_lalr.GRAMMAR == _grammar())


def standalone_source() -> str:
    """The text of ``_lalr.py``: lark's standalone parser for the grammar, and the grammar."""
    import io

    import lark
    from lark.tools.standalone import gen_standalone

    text = _grammar()
    out = io.StringIO()
    gen_standalone(lark.Lark(text, **_LARK_OPTIONS), out=out)
    generated = out.getvalue()
    # The tool always writes the imports its compressed form needs; uncompressed, as here,
    # nothing uses them, and this package imports no pickle.
    generated = generated.replace("import pickle, zlib, base64\n", "", 1)
    header = ('"""The LALR parser of the dice language, generated from grammar.lark by the standalone\n'
              "tool of lark (``python -m rulesengine.dice.parser``; a test checks it is current).\n"
              "Do not edit. The code lark generates carries its own licence, the Mozilla Public\n"
              'License 2.0, below; the rest of rulesengine is MIT-licensed (see LICENSE)."""\n'
              "# fmt: off\n")
    return header + f"GRAMMAR = {text!r}\n\n" + generated


def write_tables(path: Path | None = None) -> Path:
    """Write the generated parser to ``_lalr.py`` (see :func:`_parser`)."""
    path = path or STANDALONE_PATH
    path.write_text(standalone_source(), encoding="utf-8")
    return path


def _precheck(text: str, limits: Limits) -> None:
    if not isinstance(text, str):
        raise DiceSyntaxError("a dice expression must be text", Location())
    if len(text) > limits.max_expression_length:
        raise LimitError(
            f"expression is {len(text):,} characters long",
            "max_expression_length",
            locate(text[: limits.max_expression_length + 1], limits.max_expression_length),
            f"expressions are limited to {limits.max_expression_length:,} characters",
        )
    if not text.strip():
        raise DiceSyntaxError("empty expression", locate(text, 0, max(1, len(text))),
                              "write a dice expression such as 3d6+2")
    depth = 0
    for i, ch in enumerate(text):
        if ch in "({[":
            depth += 1
            if depth > limits.max_nesting_depth:
                raise LimitError(
                    f"expression nests more than {limits.max_nesting_depth} levels deep",
                    "max_nesting_depth", locate(text, i),
                    "simplify the expression")
        elif ch in ")}]":
            depth -= 1


# The parsed tree may be this many times max_nesting_depth deep when every operator of a
# chain counts (256 by default). The evaluator, the trace and the exporter recurse once or
# twice per level of the tree (up to three times per function call), so this keeps them
# well inside Python's recursion limit of 1,000 frames while still letting a flat sum of
# 250 dice through (`1d6+1d6+…` fills the 1,000 characters first).
TREE_DEPTH_PER_NESTING = 4


def _chain_level(node: ast.Node) -> str | None:
    """The precedence level at which a binary operator chains (``a + b - c`` is one chain of
    sums, ``a and b and c`` one of ands), or None for any other node."""
    if isinstance(node, ast.Binary):
        return "sum" if node.op in ("+", "-") else "product"
    if isinstance(node, ast.Logic):
        return node.op
    return None


def _depths(node: ast.Node) -> tuple[int, int]:
    """(nesting depth, tree depth) of a parsed expression, walked without recursion.

    The tree depth counts every node on the longest path. The nesting depth is what a
    reader sees as nesting: parentheses, signs, calls and operators of another precedence
    level each add a level, but the left operand of an operator of the same level does not,
    so a flat chain ``1+1+…+1`` (which the LALR grammar builds leaning left, as deep as it is
    long) is one level however long it is."""
    nesting = deepest = 0
    stack = [(node, 1, 1)]
    while stack:
        n, nest, depth = stack.pop()
        nesting = max(nesting, nest)
        deepest = max(deepest, depth)
        level = _chain_level(n)
        for i, child in enumerate(ast.children(n)):
            flat = i == 0 and level is not None and _chain_level(child) == level
            stack.append((child, nest if flat else nest + 1, depth + 1))
    return nesting, deepest


def _too_deep_at(node: ast.Node, bound: int) -> int:
    """Where the tree gets deeper than ``bound``: along its longest path, the node with
    exactly ``bound + 1`` levels below and including it; for an operator, its right operand
    (for ``1+1+…`` the first term past the bound, counting from the left)."""
    heights: dict[int, int] = {}
    stack: list[tuple[ast.Node, bool]] = [(node, False)]
    while stack:  # post-order, without recursion
        n, done = stack.pop()
        if done:
            heights[id(n)] = 1 + max((heights[id(c)] for c in ast.children(n)), default=0)
        else:
            stack.append((n, True))
            stack.extend((c, False) for c in ast.children(n))
    while heights[id(node)] > bound + 1:
        node = max(ast.children(node), key=lambda c: heights[id(c)])
    if isinstance(node, (ast.Binary, ast.Compare, ast.Logic)):
        return node.right.span[0]
    return node.span[0]


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, limits: Limits) -> ast.Node:
    _precheck(text, limits)
    stored = limits == DEFAULT_LIMITS  # what a text parses to depends on the limits it is read under
    if stored:
        tree = tree_store.get(text)
        if tree is not None and _stored_tree_fits(tree, text, limits):
            return tree
    tree = _parse_text(text, limits)
    if stored:
        tree_store.put(text, tree)
    return tree


def _stored_tree_fits(tree: object, text: str, limits: Limits) -> bool:
    """A tree read back from the disk store passes what parsing ``text`` would have
    checked (issue 30): a syntax tree at its root, each node's span inside the text, no
    number, die or dice count past its limit, no deeper nesting. A stored entry is signed
    (rulesengine/disk_store.py); this keeps the limits whatever the store holds."""
    try:
        return _fits(tree, text, limits)
    except (TypeError, AttributeError, ValueError, RecursionError):
        return False


_MODIFIERS = (ast.Keep, ast.Explode, ast.Reroll, ast.RerollRank, ast.CountDice, ast.KeepFace, ast.Clamp)


def _fits(tree: object, text: str, limits: Limits) -> bool:
    if not isinstance(tree, tree_store.EXPRESSIONS):
        return False
    stack: list[object] = [tree]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > 4 * limits.max_expression_length:
            return False
        if isinstance(node, tuple):
            stack.extend(node)
        elif isinstance(node, bool) or node is None or isinstance(node, str):
            continue
        elif isinstance(node, int):
            if abs(node) > max(limits.max_magnitude, limits.max_sides):
                return False
        elif isinstance(node, Record):
            span = getattr(node, "span", None)
            if span is not None and not (isinstance(span, tuple) and len(span) == 2 and all(
                    isinstance(i, int) for i in span) and 0 <= span[0] <= span[1] <= len(text)):
                return False
            if isinstance(node, ast.Die) and not (
                    (node.sides is None or 1 <= node.sides <= limits.max_sides)
                    and len(node.custom or ()) <= limits.max_custom_faces
                    and sum(len(f) for f in node.symbols or ()) <= limits.max_custom_faces):
                return False
            if isinstance(node, ast.Num) and abs(node.value) > limits.max_magnitude:
                return False
            if isinstance(node, tree_store.EXPRESSIONS) and not all(
                    isinstance(child, tree_store.EXPRESSIONS) for child in ast.children(cast(ast.Node, node))):
                return False  # an expression's operands are expressions
            if isinstance(node, ast.Dice) and not (
                    (node.die is None or isinstance(node.die, ast.Die))
                    and isinstance(node.modifiers, tuple) and all(isinstance(m, _MODIFIERS) for m in node.modifiers)
                    and all(isinstance(getattr(m, "cond", None), (ast.Cond, ast.CondExpr, type(None)))
                            for m in node.modifiers)
                    and not (isinstance(node.count, ast.Num) and node.count.value > limits.max_dice)):
                return False
            stack.extend(getattr(node, name) for name in fields(node))
        else:
            return False
    nesting, depth = _depths(cast(ast.Node, tree))  # an expression: checked above
    return nesting <= limits.max_nesting_depth and depth <= TREE_DEPTH_PER_NESTING * limits.max_nesting_depth


def _parse_text(text: str, limits: Limits) -> ast.Node:
    parser, builder, errors = _parser()
    try:
        with _PARSE_LOCK:  # the builder holds the text being parsed
            builder.text, builder.limits = text, limits
            tree = parser.parse(text)
    except errors.UnexpectedCharacters as exc:
        raise bad_character(text, exc.pos_in_stream or 0) from None
    except errors.UnexpectedToken as exc:
        raise unexpected_token(text, exc) from None
    except errors.UnexpectedEOF:  # pragma: no cover - LALR reports tokens
        raise DiceSyntaxError("expression ends too early", locate(text, len(text) - 1)) from None
    nesting, depth = _depths(tree)
    if nesting > limits.max_nesting_depth:
        raise LimitError(
            f"expression nests more than {limits.max_nesting_depth} levels deep",
            "max_nesting_depth", locate(text, 0), "simplify the expression")
    bound = TREE_DEPTH_PER_NESTING * limits.max_nesting_depth
    if depth > bound:
        raise LimitError(
            f"expression is {depth} levels deep counting each operator of a chain, more than {bound}",
            "max_nesting_depth", locate(text, _too_deep_at(tree, bound)),
            f"at most {TREE_DEPTH_PER_NESTING} x max_nesting_depth; break a long chain up with parentheses, "
            "e.g. (a + b + …) + (c + d + …)")
    return tree


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> ast.Node:
    """Parse an expression into its syntax tree; raise DiceSyntaxError/LimitError."""
    return _parse_cached(text, limits)


if __name__ == "__main__":  # pragma: no cover
    print(f"wrote {write_tables()}")
