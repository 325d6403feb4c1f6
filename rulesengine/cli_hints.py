"""An error's hint in the command line's words: what the engine says in Python's terms
(``parties=[...]``, the limit ``max_states``) said as the command is typed. Used by
:mod:`.cli` just before it prints an error, as text or JSON."""

from __future__ import annotations

from .errors import RulesEngineError
from .limits import SWEEP_BUDGETS


def in_command_words(exc: RulesEngineError, budget: int | None) -> None:
    """Rewrite ``exc``'s hint for the command line. A hint that shows what to give
    (``exc.example``) shows ``party1.skill=... party2.skill=...``. A refusal over the work
    budget, from a command that takes ``--max-states`` (``budget``: the budget in force;
    None for a command without the option), also names the option (the fix an author of
    L5R's 10k9 needed: it answers in under a second with a larger budget); a sweep refused
    for its values together says what the option gives a sweep."""
    example = exc.example
    if example is not None:
        shown = " ".join(" ".join(f"party{i}.{name}=..." for name in names) if names else f"party{i}.name=value"
                         for i, names in enumerate(example.parties, 1))
        exc.hint = f"{example.lead} {shown}"
    limit = getattr(exc, "limit", None)
    if budget is not None and limit == "max_states":
        more = f"or allow more work: --max-states N (now {budget:,}; time and memory grow with it)"
        exc.hint = f"{exc.hint}; {more}" if exc.hint else more
    elif budget is not None and limit == "max_sweep_states":  # a sweep's values together: ten budgets
        more = (f"or allow more work: --max-states N gives each value N and the sweep {SWEEP_BUDGETS} × N "
                f"(now {budget:,} each)")
        exc.hint = f"{exc.hint}; {more}" if exc.hint else more
