"""Text → syntax tree, with every error pointing at a column.

The parser is lark's, generated ahead of time from ``grammar.lark`` by lark's standalone
tool and loaded once per process, on first use (see :func:`_parser`). The tree is built *during* the
LALR parse by an inline transformer (:class:`~rulesengine.dice.tree_builder.TreeBuilder`), so
there is no recursive tree walk that a deeply nested expression could overflow; limits on
length and depth are checked before and after parsing. Parsed expressions are cached by
(text, limits). Turning lark's errors into messages with hints is
:mod:`rulesengine.dice.syntax_errors`; the checks of a dice term's modifiers are
:mod:`rulesengine.dice.modifier_checks`.
"""

from __future__ import annotations

import functools
from _thread import allocate_lock
from collections.abc import Callable, Iterable
from typing import cast
from pathlib import Path

from ..errors import DiceSyntaxError, LimitError, Location
from ..limits import DEFAULT_LIMITS, Limits
from ..records import Record, fields
from . import ast, tree_store
from ..codes import E_BAD_CHARACTER, E_BAD_DIE, E_BAD_MODIFIER, E_CHAINED_COMPARISON, E_DICE_SYNTAX
from .modifier_checks import check_modifiers
from .syntax_errors import MODIFIER_NAMES, bad_character, closest, locate, unexpected_token

__all__ = ["parse", "TreeSet", "check_modifiers", "write_tables", "stored_tables_match", "locate", "closest",
           "MODIFIER_NAMES", "TREE_DEPTH_PER_NESTING", "E_DICE_SYNTAX", "E_BAD_DIE", "E_BAD_MODIFIER",
           "E_CHAINED_COMPARISON", "E_BAD_CHARACTER"]  # check_modifiers, locate, closest, the codes: re-exported

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

_PARSE_LOCK = allocate_lock()  # threading.Lock, without importing threading (start-up)


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
    from .tree_builder import TreeBuilder  # with the parser: an expression read back from the store needs neither

    builder = TreeBuilder()
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
    pop, more = stack.pop, stack.extend
    most, length, budget = max(limits.max_magnitude, limits.max_sides), len(text), 4 * limits.max_expression_length
    seen = 0
    while stack:
        node = pop()
        seen += 1
        if seen > budget:
            return False
        kind = type(node)
        if kind is int:
            if abs(cast(int, node)) > most:
                return False
        elif kind is str or node is None or kind is bool:
            continue
        elif kind is tuple:
            more(cast(tuple, node))
        elif kind in _OWN_FITS:  # one of the tree's own classes: only the checks that apply to it
            record = cast(Record, node)
            if kind in _SPANNED:  # the usual span at once; any other is looked at by _span_fits
                span = record.span  # type: ignore[attr-defined]  # a field of the classes in _SPANNED
                if not (type(span) is tuple and len(span) == 2 and type(span[0]) is int and type(span[1]) is int
                        and 0 <= span[0] <= span[1] <= length) and not _span_fits(record, text, limits):
                    return False
            if not all(fits(record, text, limits) for fits in _OWN_FITS[kind]):
                return False
            more(record.__getstate__())  # its fields' values, in order
        elif not _fits_otherwise(node, text, limits, most, more):
            return False
    nesting, depth = _depths(cast(ast.Node, tree))  # an expression: checked above
    return nesting <= limits.max_nesting_depth and depth <= TREE_DEPTH_PER_NESTING * limits.max_nesting_depth


def _fits_otherwise(node: object, text: str, limits: Limits, most: int, more: Callable[[Iterable], None]) -> bool:
    """:func:`_fits` of a value of none of the types the store decodes into (a subclass)."""
    if isinstance(node, tuple):
        more(node)
    elif isinstance(node, bool) or node is None or isinstance(node, str):
        return True
    elif isinstance(node, int):
        return abs(node) <= most
    elif isinstance(node, Record):
        if not all(fits(node, text, limits) for fits in _RECORD_FITS):
            return False
        more(getattr(node, name) for name in fields(node))
    else:
        return False
    return True


def _span_fits(node: Record, text: str, limits: Limits) -> bool:
    """A node's span, if it has one, is a pair of offsets inside the text, in order."""
    span = getattr(node, "span", None)
    return span is None or (isinstance(span, tuple) and len(span) == 2 and all(isinstance(i, int) for i in span)
                            and 0 <= span[0] <= span[1] <= len(text))


def _die_fits(node: Record, text: str, limits: Limits) -> bool:
    """A die within the limits on sides, custom faces and symbols shown."""
    return not isinstance(node, ast.Die) or (
        (node.sides is None or 1 <= node.sides <= limits.max_sides)
        and len(node.custom or ()) <= limits.max_custom_faces
        and sum(len(f) for f in node.symbols or ()) <= limits.max_custom_faces)


def _num_fits(node: Record, text: str, limits: Limits) -> bool:
    return not isinstance(node, ast.Num) or abs(node.value) <= limits.max_magnitude


def _operands_fit(node: Record, text: str, limits: Limits) -> bool:
    """An expression's operands are expressions."""
    return not isinstance(node, tree_store.EXPRESSIONS) or all(
        isinstance(child, tree_store.EXPRESSIONS) for child in ast.children(cast(ast.Node, node)))


def _dice_fit(node: Record, text: str, limits: Limits) -> bool:
    """A dice term: a die or none (``d(expr)``), modifiers of the known kinds with
    conditions of the known kinds, and no more dice than a roll may use."""
    return not isinstance(node, ast.Dice) or (
        (node.die is None or isinstance(node.die, ast.Die))
        and isinstance(node.modifiers, tuple) and all(isinstance(m, _MODIFIERS) for m in node.modifiers)
        and all(isinstance(getattr(m, "cond", None), (ast.Cond, ast.CondExpr, type(None))) for m in node.modifiers)
        and not (isinstance(node.count, ast.Num) and node.count.value > limits.max_dice))


# What a record read back from the store must pass, besides its fields' own checks.
_RECORD_FITS = (_span_fits, _die_fits, _num_fits, _operands_fit, _dice_fit)

# Those of them that can fail for a record of each class the store decodes into (the span
# of those that have one is checked first): the others pass whatever its fields hold.
_OWN_FITS: dict[type, tuple[Callable[[Record, str, Limits], bool], ...]] = {
    cls: tuple(fits for fits, kinds in ((_die_fits, ast.Die), (_num_fits, ast.Num),
                                        (_operands_fit, tree_store.EXPRESSIONS), (_dice_fit, ast.Dice))
               if issubclass(cls, kinds))
    for cls in tree_store.NODES}
_SPANNED = frozenset(cls for cls in tree_store.NODES if "span" in fields(cls))


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


class TreeSet:
    """The trees of many expressions read from the disk store, and kept there, as one entry
    (a ruleset file's: :meth:`rulesengine.rules.build.Builder.build`), named by a text (the
    file's). Making one reads the set, so that :func:`parse` finds those trees without a
    file read each; a tree of the set is decoded and checked only when its very text is
    parsed, as a tree stored alone is. Nothing is stored for limits other than the default.
    """

    def __init__(self, name: str, limits: Limits = DEFAULT_LIMITS) -> None:
        self.name = name
        self.stored = limits == DEFAULT_LIMITS  # as for a tree stored alone
        self.found = tree_store.read_set(name) if self.stored else frozenset()

    def keep(self, texts: Iterable[str]) -> None:
        """Store the trees of ``texts`` (each parsed already with these limits) as the set,
        unless the set read holds them all; and forget the trees of the set left unread."""
        if not self.stored:
            return
        tree_store.forget_set(self.found)
        wanted = list(dict.fromkeys(texts))
        if not wanted or self.found.issuperset(wanted):
            return
        trees = {}
        for text in wanted:
            try:
                trees[text] = _parse_cached(text, DEFAULT_LIMITS)  # parsed already: from the cache
            except (DiceSyntaxError, LimitError):  # pragma: no cover - only texts that parsed are given
                continue
        tree_store.put_set(self.name, trees)


if __name__ == "__main__":  # pragma: no cover
    print(f"wrote {write_tables()}")
