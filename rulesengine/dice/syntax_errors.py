"""Why an expression did not parse, in words: the E1xx codes, the one-line location of a
column in the expression, and the translation of lark's unexpected character / token
errors into a message with a hint (the nearest modifier name, a comparison that chains, a
condition torn from its explosion mark, a '(' left open...).

Split from :mod:`rulesengine.dice.parser`, which re-exports :func:`locate`,
:func:`closest` and the codes for its callers.
"""

from __future__ import annotations

import re
import unicodedata

from ..codes import E_BAD_CHARACTER, E_BAD_MODIFIER, E_CHAINED_COMPARISON
from ..errors import DiceSyntaxError, Location
from ..numerals import ASCII_DIGITS_HINT

MODIFIER_NAMES = ("kh", "kl", "dh", "dl", "k", "p", "ro", "r", "rol", "roh", "cs", "cf", "min", "max",
                  "!", "!!", "!p", "!o")

REMAINDER_HINT = "the remainder is written %: roll % 11 == 0"

# Spellings of other dice tools that mean something here under another name.
FOREIGN_MODIFIERS = {
    "k": "'k' (keep) is 'kh' here: 4d6kh3 keeps the highest three; k=3 keeps the dice showing 3",
    "x": "'x' (explode, as in Foundry) is '!' here: 3d6!",
    "xo": "'xo' (explode once, as in Foundry) is '!o' here: 3d6!o",
    "rr": "'rr' (reroll until it stops, as in Foundry) is 'r' here: 4d6r1; 'ro' rerolls once",
    "e": "'e' (explode) is '!' here: 3d6!",
    "mi": "'mi' (minimum) is 'min' here: 8d6min2",
    "ma": "'ma' (maximum) is 'max' here: 1d20max19",
    "p": "'p' drops the dice showing a face: 4d6p1 drops the 1s; 4d6dl1 drops the lowest",
    "d": "'d' (drop) is 'dl' here: 4d6dl1",
}

# Most useful first: hints list at most four of them, in this order.
_EXPECTED_WORDS = {
    "INT": "a number",
    "DIE": "a die such as d6",
    "NAME": "a name",
    "LPAR": "'('",
    "STRING": "text in quotes",
    "RPAR": "')'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "NOT": "'not'",
    "TRUE": "'true'",
    "FALSE": "'false'",
    "$END": "the end of the expression",
}


def locate(text: str, start: int, end: int | None = None) -> Location:
    """A Location on the (single) expression line; multi-line text is located by line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    if line_end < 0:
        line_end = len(text)
    line_no = text.count("\n", 0, start) + 1
    length = max(1, min((end or start + 1), line_end) - start)
    return Location(
        path=None,
        line=line_no if "\n" in text else None,
        column=start - line_start + 1,
        length=length,
        source_line=text[line_start:line_end],
    )


# Operators of other languages, by the characters they start with here: the hint names the
# spelling of this language. (``=`` on its own, and ``!`` which marks an explosion right after a
# die, are hinted at below.)
FOREIGN_OPERATORS = {
    "&&": "write 'and' to join conditions: a >= 10 and b >= 10",
    "&": "write 'and' to join conditions: a >= 10 and b >= 10",
    "||": "write 'or' for either condition: a >= 10 or b >= 10",
    "|": "write 'or' for either condition: a >= 10 or b >= 10",
    "=>": "write >= for 'at least'",
    "=<": "write <= for 'at most'",
    "=!": "write != for 'is not'",
    "≥": "write >= for 'at least'",
    "≤": "write <= for 'at most'",
    "≠": "write != for 'is not'",
    "?": "write if(condition, then, else) for 'c ? a : b', e.g. if(x > 3, 1, 2)",
}

NOT_HINT = "write 'not' to negate: not x; '!' marks an explosion, right after a die: 3d6!"


def bad_character(text: str, pos: int) -> DiceSyntaxError:
    ch = text[pos]
    foreign = FOREIGN_OPERATORS.get(text[pos:pos + 2]) or FOREIGN_OPERATORS.get(ch)
    if ch.isdigit() or unicodedata.category(ch) == "Nd":
        hint = ASCII_DIGITS_HINT
    elif unicodedata.category(ch)[0] == "C":
        hint = "remove the control character"
    elif ch in "×÷":
        hint = "use * and / for multiplication and division"
    elif foreign:
        hint = foreign
    elif ch == "=":
        hint = "write == to compare (a single = is not an operator here)"
    elif ch == "!":
        hint = NOT_HINT
    elif text[pos:pos + 2] == "..":
        hint = ("a range's ends are two values in a function, count(roll, 7, 10); '..' joins them only right "
                "after a modifier's mark: 5d10cs7..10")
    else:
        hint = "see docs/dice-language.md for the characters the language uses"
    shown = repr(ch)[1:-1] if not ch.isprintable() else ch
    return DiceSyntaxError(f"unexpected character '{shown}'", locate(text, pos), hint, E_BAD_CHARACTER)


def _expected_words(expected) -> list[str]:
    return [word for term, word in _EXPECTED_WORDS.items() if term in expected]


def closest(word: str, candidates) -> str | None:
    """The most similar candidate (ties go to the one listed first), or None."""
    import difflib  # only when there is an error to explain

    best, best_score = None, 0.5
    for cand in candidates:
        score = difflib.SequenceMatcher(None, word, cand).ratio()
        if score > best_score or (score == best_score and best is None):
            best, best_score = cand, score
    return best


# An explosion mark and a comparison with no number (`d6!>=x`, `d6!=`), or a mark, a space
# and a number (`d6! 6`), just before a token the parser cannot take.
_DANGLING_CONDITION = re.compile(r"(?<!\s)(?P<mark>!!|!p|!)(?P<op>==|!=|>=|<=|>|<|=)\s*\Z")
_SPACED_CONDITION = re.compile(r"(?<!\s)(?P<mark>!!|!p|!)\s+\Z")


def needs_number_hint(mark: str, op: str) -> str:
    """The hint for an explosion condition without its number; shared by the parser's
    modifier check and the unexpected-token translation so both say the same."""
    hint = f"write e.g. {mark}{op}5, or {mark}{op}(x) for a number from a name or an expression"
    if op != "=":
        hint += f"; to compare, put a space before the comparison: '{mark} {op} x'"
    return hint


def _misplaced_condition(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    """The error for a condition torn from its explosion mark, or None if that is not it."""
    pos = len(text) if tok.type == "$END" else tok.start_pos
    dangling = _DANGLING_CONDITION.search(text[:pos])
    if dangling:
        mark, op = dangling["mark"], dangling["op"]
        return DiceSyntaxError(
            f"'{mark}{op}' needs a number", locate(text, dangling.start(), dangling.end("op")),
            needs_number_hint(mark, op), E_BAD_MODIFIER)
    spaced = _SPACED_CONDITION.search(text[:pos])
    if spaced and tok.type == "INT":
        mark = spaced["mark"]
        return DiceSyntaxError(
            f"a space between '{mark}' and its condition", locate(text, spaced.start(), tok.end_pos),
            f"write '{mark}{tok}' with no space, or an operator such as '{mark} + {tok}'", E_BAD_MODIFIER)
    return None


def _ends_too_early(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    if tok.type != "$END":
        return None
    pos = len(text.rstrip())
    words = _expected_words(expected)
    hint = f"expected {' or '.join(words[:4])}" if words else None
    return DiceSyntaxError("expression ends too early", locate(text, max(0, pos - 1)), hint)


def _unknown_modifier(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    """Letters right after a dice term (no space) are a modifier the language lacks."""
    start, value = tok.start_pos, str(tok)
    if not ("KEEP" in expected and value[:1].isalpha() and start > 0 and not text[start - 1].isspace()):
        return None
    letters = re.match(r"[A-Za-z]+", value)
    word = letters.group(0) if letters else value
    if word in ("l", "h") and text[start - 1] == "r":  # `rl1`: the lexer took the r for a reroll
        return _ranked_reroll_misspelt(text, start - 1, word, value[len(word):])
    close = closest(word, [m for m in MODIFIER_NAMES if len(m) > 1])  # `k`, `p` need a condition
    hint = FOREIGN_MODIFIERS.get(word.lower()) or (
        _group_modifier_hint(word) if word in MODIFIER_NAMES else
        f"did you mean '{close}'?" if close else "modifiers are: " + " ".join(MODIFIER_NAMES))
    return DiceSyntaxError(f"unknown modifier '{word}'", locate(text, start, start + len(word)),
                           hint, E_BAD_MODIFIER)


def _group_modifier_hint(word: str) -> str:
    """A modifier of dice terms written after a group in parentheses (a dice pool's
    ``(pool)ro<=5``), where only keeps by rank or face are read: what to write instead."""
    instead = {"r": "roll again as a second roll that reads the first (the cookbook's push)",
               "cs": "count its dice with count(roll, lo, hi)", "cf": "count its dice with count(roll, lo, hi)"}
    fix = instead.get("r" if word.startswith("r") else word)
    return (f"'{word}' is a modifier of a dice term such as 4d6{word}…; after a group in parentheses, such as a "
            f"dice pool's (pool), only keeps by rank or face are: (pool)kh2, (pool)k>=2, (pool)p1"
            + (f"; {fix}" if fix else ""))


def _ranked_reroll_misspelt(text: str, start: int, side: str, after: str) -> DiceSyntaxError:
    """``4d6rl1``, ``4d6rh1``: the reroll of the lowest (highest) dice, ``rol1`` (``roh1``)."""
    digits = re.match(r"[0-9]*", after)
    n = digits.group(0) if digits and digits.group(0) else "1"
    which = "lowest" if side == "l" else "highest"
    dice = f"the {which} die" if n == "1" else f"the {n} {which} dice"
    return DiceSyntaxError(f"unknown modifier 'r{side}'", locate(text, start, start + 2),
                           f"did you mean 'ro{side}{n}'? It rerolls {dice} once", E_BAD_MODIFIER)


def _negation(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    """``!x`` where a value is expected: C's negation, ``not`` here."""
    if str(tok).startswith("!") and "NAME" in expected and "KEEP" not in expected:
        return DiceSyntaxError("unexpected '!'", locate(text, tok.start_pos, tok.start_pos + 1), NOT_HINT)
    return None


def _chained_comparison(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    if str(tok) == ">" and text[tok.start_pos - 1:tok.start_pos] == "<" and "COMPOP" not in expected:
        return DiceSyntaxError("'<>' is not an operator here", locate(text, tok.start_pos - 1, tok.end_pos),
                               "write != for 'is not'")
    if tok.type == "COMPOP" and "COMPOP" not in expected:
        before = text[:tok.start_pos].rstrip()
        if before.endswith((",", "(")) or not before:  # `count(pool, >=8)`: no value on its left
            in_count = before.endswith(",") and before.rsplit("(", 1)[0].rstrip().endswith("count")
            return DiceSyntaxError(f"'{tok}' has no value on its left", locate(text, tok.start_pos, tok.end_pos),
                                   "a count's range is two numbers: count(roll, 8, 10) counts the dice showing 8 to "
                                   "10" if in_count else "write the value it compares first, e.g. roll >= 8")
        return DiceSyntaxError("comparisons do not chain", locate(text, tok.start_pos, tok.end_pos),
                               "write 'a < b and b < c' instead of 'a < b < c'", E_CHAINED_COMPARISON)
    return None


def _mod_word(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    if str(tok).lower() == "mod":
        return DiceSyntaxError("unexpected 'mod'", locate(text, tok.start_pos, tok.end_pos), REMAINDER_HINT)
    return None


def _doubled_operator(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    """``a // 2`` (floor division) or ``a ** 2`` (a power) written as another language does."""
    value = str(tok)
    if value in ("/", "*") and text[tok.start_pos - 1:tok.start_pos] == value:
        hint = ("'/' already rounds down here: count(roll, 10) / 2 (ceil(a / b) rounds up)" if value == "/" else
                "a power is pow(base, exponent): pow(2, count(roll, 1))")
        return DiceSyntaxError(f"'{value}{value}' is not an operator here",
                               locate(text, tok.start_pos - 1, tok.end_pos), hint)
    return None


def _die_without_sides(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    start, value = tok.start_pos, str(tok)
    if value[:1] in "dD" and start > 0 and text[start - 1].isdigit() and not value[1:2].isdigit():
        return DiceSyntaxError(f"unexpected '{value}'", locate(text, start, tok.end_pos),
                               f"a die needs its sides right after the d, e.g. {text[:start]}d6")
    return None


def _dice_without_d(text: str, tok, expected: set[str]) -> DiceSyntaxError | None:
    """``(n)(die)`` or ``2(6)``: a count and sides side by side, the ``d`` between them left out."""
    start = tok.start_pos
    before = text[:start].rstrip()
    if tok.type != "LPAR" or not before or not (before[-1] == ")" or before[-1].isdigit()):
        return None
    close = _closing(text, start)
    if close is None or (before[-1] == ")" and _called(before)):
        return None
    fixed = f"{text[:start]}d{text[start:close + 1]}"
    return DiceSyntaxError(f"unexpected '{tok}'", locate(text, start, start + 1),
                           f"dice are a count, d and the sides: {fixed.strip()}; or an operator is missing")


def _called(before: str) -> bool:
    """Whether ``before`` ends with a call's closing ``)`` (``max(1, 2)``), not a group's."""
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(before[i], 0)
        if depth == 0:
            return i > 0 and (before[i - 1].isalnum() or before[i - 1] == "_")
    return False


def _closing(text: str, start: int) -> int | None:
    """Where the ``(`` at ``start`` is closed, if it is."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return None


def _unexpected(text: str, tok, expected: set[str]) -> DiceSyntaxError:
    """Any other token the parser cannot take: what it expected instead."""
    words = _expected_words(expected)
    if str(tok) == "in":  # a membership test, as some languages have
        hint = ("there is no 'in': compare each value (roll == 11 or roll == 22), or find them by a rule "
                "(roll % 11 == 0 for doubles on a d100 read 0 to 99)")
    elif tok.type == "RPAR" and "RPAR" not in expected:
        hint = "this ')' has no matching '('"
    elif "RPAR" in expected and tok.type != "RPAR":
        hint = "a '(' is not closed, or an operator is missing"
    elif words:
        hint = f"expected {' or '.join(words[:4])}"
    else:
        hint = "an operator such as + or a comparison is missing here"
    return DiceSyntaxError(f"unexpected '{tok}'", locate(text, tok.start_pos, tok.end_pos), hint)


# The explanations of a token the parser cannot take, tried in this order; the first that
# recognises the mistake says it, else :func:`_unexpected`.
_TOKEN_EXPLANATIONS = (_misplaced_condition, _ends_too_early, _unknown_modifier, _negation, _chained_comparison,
                       _mod_word, _doubled_operator, _die_without_sides, _dice_without_d)


def unexpected_token(text: str, exc) -> DiceSyntaxError:
    """lark's unexpected-token error as a message with a hint."""
    tok = exc.token
    expected = set(getattr(exc, "expected", ()) or ())
    for explain in _TOKEN_EXPLANATIONS:
        error = explain(text, tok, expected)
        if error is not None:
            return error
    return _unexpected(text, tok, expected)
