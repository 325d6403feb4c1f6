"""The syntax tree built during the parse: one callback per grammar alias, each making one
AST node, with literal-level problems (``d0``, a 10^30 literal, ``kh0``, a condition with a
space in it) reported at their column.

lark's LALR parser calls :class:`TreeBuilder`'s methods inline as it reduces (see
:func:`rulesengine.dice.parser.parse`), so there is no recursive tree walk that a deeply
nested expression could overflow. Split from :mod:`rulesengine.dice.parser`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..codes import E_BAD_DIE, E_BAD_MODIFIER, E_CHAINED_COMPARISON, E_DICE_SYNTAX
from ..errors import DiceSyntaxError, LimitError
from ..limits import DEFAULT_LIMITS
from ..numerals import whole_number
from . import ast
from .modifier_checks import EXPLODE_KINDS, check_modifiers
from .syntax_errors import FOREIGN_MODIFIERS, locate, needs_number_hint

__all__ = ["TreeBuilder", "SymbolFace"]

# A modifier token of the grammar (EXPLODE, REROLL, COUNT) taken apart: the lexer has
# already decided which text belongs to the modifier; this names the pieces.
_OPEN_TEXT = re.compile(r"(?P<mark>ro|r|cs|cf|!!|!p|!o|!|k|p)(?P<op>==|!=|>=|<=|>|<|=)?\(\Z")
_MODIFIER_TEXT = re.compile(
    r"(?P<mark>ro|r|cs|cf|!!|!p|!o|!|k|p)\s*(?P<op>==|!=|>=|<=|>|<|=)?\s*(?P<minus>-\s*)?(?P<num>[0-9]*)"
    r"(?:\.\.(?P<high>[0-9]+))?\Z")
# A condition written with a name where its number goes (``cs>=difficulty``): the lexer
# leaves the mark alone and the rest a comparison; the hint puts the name in parentheses.
_NAMED_CONDITION = re.compile(r"(?P<op>==|!=|>=|<=|>|<|=)(?P<name>[A-Za-z_][A-Za-z0-9_]*)")


def _missing_condition_hint(mark: str, text: str, end: int) -> str:
    """The hint for a mark that needs a condition and has none (``cs``), ``end`` where it
    ends in ``text``: another dice language's spelling, a name written where the number
    goes (``cs>=difficulty``), or where the condition goes."""
    foreign = FOREIGN_MODIFIERS.get(mark + text[end:end + 1])
    if foreign:
        return foreign
    named = _NAMED_CONDITION.match(text, end)
    if named:
        return f"a number from a name goes in parentheses: {mark}{named['op']}({named['name']})"
    return f"write it right after '{mark}', e.g. {mark}1 or {mark}>=5"


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


class TreeBuilder:
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
        rolls it kept (``((1d4, 1d6, 1d8)kh2)kl1``). Keeps by face after a name or a call
        (``(pool)p1``, ``(drop_highest(pool))k>=2``) keep the dice of a pool of mixed dice
        (:class:`ast.PoolKeep`; the value is checked when read). After anything else
        (``(2d20 + 5)kh1``) there is nothing to keep from: refused, with the set and the
        pool it may mean."""
        inner, keeps = c[1], list(c[3:])
        span = _span(c[0], keeps[-1])
        while isinstance(inner, ast.Group):
            inner = inner.inner
        if isinstance(inner, ast.Dice):
            node = ast.Dice(inner.count, inner.die, inner.modifiers + tuple(keeps), span, inner.sides)
            if node.die is not None:
                check_modifiers(node.die, node.modifiers, self.text)
            return node
        by_face = [k for k in keeps if isinstance(k, ast.KeepFace)]
        if isinstance(inner, ast.SetKeep) and not by_face:
            return ast.SetKeep(inner.items, inner.keeps + tuple(keeps), span)
        if by_face and (isinstance(inner, ast.SetKeep) or len(by_face) < len(keeps)
                        or not isinstance(ast.bare(inner), (ast.Name, ast.Call, ast.PoolKeep))):
            raise self._not_a_pool(inner, keeps, by_face)
        if by_face:
            return ast.PoolKeep(c[1], tuple(by_face), span)
        raise self._not_a_set(inner, keeps)

    def _not_a_pool(self, inner: ast.Node, keeps: list, by_face: list) -> DiceSyntaxError:
        """The error for keeps by face after parentheses that hold no dice to keep by face:
        a set (its items are rolls, not dice), a value that is no pool, or keeps by face
        mixed with keeps by rank after a pool."""
        keep_text = self.text[keeps[0].span[0]:keeps[-1].span[1]]
        if isinstance(inner, ast.SetKeep):
            message = f"'{keep_text}' after a set: a set keeps whole rolls by rank, not dice by their faces"
            hint = "keep the dice by face on each dice term, e.g. (4d6p1, 3d8p1)kh1"
        elif len(by_face) < len(keeps):
            message = f"'{keep_text}' after a pool of mixed dice: only keeps by face (k, p) keep its dice"
            hint = "to pick the best dice of a pool, use choose with pick: N"
        else:
            message = f"'{keep_text}' after parentheses that hold no dice: nothing to keep by face"
            hint = ("put the keep on a dice term, e.g. 4d6p1, or after a pool of mixed dice "
                    "(a dice_pool input), e.g. (pool)p1")
        return self._fail(message, _span(keeps[0], keeps[-1]), hint, E_BAD_MODIFIER)

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
        elif isinstance(ast.bare(inner), (ast.Name, ast.Call)):  # a pool of mixed dice, maybe
            hint = ("to keep the best of several rolls write a set with commas: (2d20, 5)kh1; to pick the best "
                    "dice of a pool of mixed dice use choose with pick: N; keeps by face keep its dice: (pool)p1")
        else:
            hint = ("to keep the best of several rolls write a set with commas: (2d20, 5)kh1; "
                    "to keep dice of a pool put the keep on its term: 2d20kh1 + 5")
        return self._fail(f"'{keep_text}' after parentheses that hold one value, not dice or a set: "
                          "nothing to keep from", _span(keeps[0], keeps[-1]), hint, E_BAD_MODIFIER)

    def set(self, c):
        by_face = [x for x in c if isinstance(x, ast.KeepFace)]
        if by_face:
            raise self._not_a_pool(ast.SetKeep((), (), _span(c[0])), by_face, by_face)
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
                hint = _missing_condition_hint(mark, self.text, token.end_pos)
                raise self._fail(f"'{mark}' needs a condition", span, hint, E_BAD_MODIFIER)
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
        kind = EXPLODE_KINDS[mark]
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
        if ast.has_dice(expr):
            raise self._fail("a die's condition cannot roll dice", span,
                             "roll the number first, under its own name, and use the name", E_BAD_MODIFIER)
        return mark, ast.CondExpr(op, expr, self.text[expr.span[0]:expr.span[1]])

    def keep_expr(self, c):
        tok, expr, close = c
        if ast.has_dice(expr):
            raise self._fail("the number of dice to keep cannot roll dice", _span(tok, close),
                             "roll the number first, under its own name, and use the name", E_BAD_MODIFIER)
        return ast.Keep(str(tok)[:2], 0, _span(tok, close), expr, self.text[expr.span[0]:expr.span[1]])

    def explode_expr(self, c):
        mark, cond = self._condition_expr(*c)
        return ast.Explode(EXPLODE_KINDS[mark], cond, _span(c[0], c[2]))

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

