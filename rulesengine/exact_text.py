"""Exact fractions as text, however long: one place decides how a probability is written.

Exact odds can have numerators and denominators of tens of thousands of digits
(``2000d2!cs=3``). Python refuses to write an integer of more than 4,300 digits in decimal
(a guard against quadratic-time conversions), and a person cannot read one anyway. So:
up to ``limits.EXACT_DECIMAL_DIGITS`` digits the fraction is ``p/q`` in decimal; past it
the machine form (JSON) is ``0xP/0xQ`` in hexadecimal, which is exact, linear-time and
not limited, and the human form says how long the fraction is next to its float. The
decimal length is judged from ``bit_length()`` before anything is converted, so the
check itself costs nothing. Python's global limit is left alone.
"""

from __future__ import annotations

from fractions import Fraction

from .limits import EXACT_DECIMAL_DIGITS

_DIGITS_PER_BIT = 0.30103  # log10(2)


def decimal_digits(n: int) -> int:
    """An upper bound on the decimal digits of ``n`` (no conversion done)."""
    return int(abs(n).bit_length() * _DIGITS_PER_BIT) + 1


DECIMAL_STEP_BITS = 640
"""Writing an integer of k × this many bits in decimal is charged k² steps of the work budget
(``dice.dist.Budget``): CPython converts to decimal in quadratic time, a 10,000-bit integer in
about a tenth of a millisecond, a few hundred steps' worth of the budget's other work."""
HEX_STEP_BITS = 2048
"""Writing an integer in hexadecimal (linear time) is charged a step per this many bits."""
_DECIMAL_BITS = int(EXACT_DECIMAL_DIGITS / _DIGITS_PER_BIT) + 1  # the longest integer written in decimal


def text_cost(bits: int) -> int:
    """Steps charged for writing an integer of ``bits`` bits as :func:`fraction_text` writes
    it: an upper bound whichever form it takes (decimal up to ``EXACT_DECIMAL_DIGITS``
    digits, hexadecimal past it), known from its size before anything is converted."""
    return 1 + (min(bits, _DECIMAL_BITS) // DECIMAL_STEP_BITS) ** 2 + bits // HEX_STEP_BITS


def fraction_cost(p: Fraction) -> int:
    """Steps charged for writing ``p`` with :func:`fraction_text`."""
    return text_cost(p.numerator.bit_length()) + text_cost(p.denominator.bit_length())


def _longest_in_decimal() -> int:
    """The most bits an integer can have and still be written in decimal: the largest b with
    ``decimal_digits`` of a b-bit integer (int(b × log10 2) + 1, which never falls as b
    grows) at most ``EXACT_DECIMAL_DIGITS``."""
    bits = int(EXACT_DECIMAL_DIGITS / _DIGITS_PER_BIT)
    while int((bits + 1) * _DIGITS_PER_BIT) + 1 <= EXACT_DECIMAL_DIGITS:
        bits += 1
    while bits > 0 and int(bits * _DIGITS_PER_BIT) + 1 > EXACT_DECIMAL_DIGITS:
        bits -= 1
    return bits


_DECIMAL_BITS_AT_MOST = _longest_in_decimal()


def fits_in_decimal(p: Fraction) -> bool:
    """Whether ``p`` is written ``p/q`` in decimal: both parts of at most
    ``EXACT_DECIMAL_DIGITS`` digits by :func:`decimal_digits` (judged by their bit lengths)."""
    n, d = p.as_integer_ratio()
    return n.bit_length() <= _DECIMAL_BITS_AT_MOST and d.bit_length() <= _DECIMAL_BITS_AT_MOST


def ratio_text(n: int, d: int) -> str:
    """:func:`fraction_text` of the fraction ``n/d`` in lowest terms, ``d`` positive."""
    if n.bit_length() <= _DECIMAL_BITS_AT_MOST and d.bit_length() <= _DECIMAL_BITS_AT_MOST:
        return f"{n}/{d}"
    return f"{'-' if n < 0 else ''}{hex(abs(n))}/{hex(d)}"


def fraction_text(p: Fraction) -> str:
    """The exact value for machines: ``p/q`` in decimal, or ``0xP/0xQ`` when too long
    (a minus sign, if any, leads: ``-0x…/0x…``)."""
    return ratio_text(*p.as_integer_ratio())


def fraction_display(p: Fraction) -> str:
    """The exact value for people: ``p/q``, or, when too long, the number of digits of
    each part (``[4,512-digit fraction]``) so that a table stays readable."""
    if fits_in_decimal(p):
        return f"{p.numerator}/{p.denominator}"
    return f"[{decimal_digits(p.denominator):,}-digit fraction]"
