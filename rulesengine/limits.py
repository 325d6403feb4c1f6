"""Every limit the engine enforces, in one place (documented in docs/limits.md).

Rulesets and dice expressions are untrusted input: a chat-bot user or a shared homebrew
file must not be able to hang the engine or exhaust memory. Each limit is a field of
:class:`Limits`; API callers who trust their input may pass their own ``Limits``
(``dataclasses.replace(DEFAULT_LIMITS, max_dice=10_000)``: a :class:`~.records.Record`, which
the :mod:`dataclasses` functions take as a frozen dataclass). When a limit is hit the
engine raises :class:`rulesengine.errors.LimitError` naming the field.
"""

from __future__ import annotations

from .records import Record


SWEEP_BUDGETS = 10
"""How many single computations' work (``max_states``) a sweep's values may use together: the
default ``max_sweep_states``, and what the command line's ``--max-states N`` gives a sweep
(``SWEEP_BUDGETS`` × N)."""


class Limits(Record):
    # --- dice expressions -------------------------------------------------------
    max_expression_length: int = 1000
    """Characters in one dice expression."""
    max_nesting_depth: int = 64
    """Nesting of an expression (parentheses, unary signs, function calls, operators of another
    precedence level; a flat chain ``1+1+…`` is one level). Counting each operator of a chain,
    the tree may be four times as deep (see ``expr.parse.TREE_DEPTH_PER_NESTING``)."""
    max_dice: int = 10_000
    """Dice rolled by one evaluation, counting rerolls and explosions."""
    max_sides: int = 1_000_000
    """Faces on one die (``d1000000`` is fine, ``d10000000`` is not)."""
    max_custom_faces: int = 1000
    """Faces listed in a custom die ``d{...}``."""
    max_magnitude: int = 10**15
    """Absolute value of any integer literal or intermediate result."""
    explode_depth: int = 10
    """Extra dice one die may add by exploding (``!``, ``!!``, ``!p``) before truncation."""
    reroll_depth: int = 50
    """Times one die may be rerolled by ``r`` (reroll until) before truncation."""
    max_states: int = 2_000_000
    """Work budget for exact odds: distribution entries combined, outcomes resolved, dice
    choices tried, contest line-ups compared, extended-check transitions made."""
    max_outcomes: int = 100_000
    """Distinct values one exact distribution may have (``d1000000`` has a million)."""
    max_choices: int = 10_000
    """Ways to choose dice from one roll (``pick: 10`` of 30 dice has 30 million)."""
    max_sweep_states: int = SWEEP_BUDGETS * 2_000_000
    """Work budget of a whole sweep (``odds ... skill=3..18``), all its values together. Each
    value's odds get ``max_states`` of their own, as a single call does; this bounds their
    sum, so that a sweep of many costly values cannot run for hours (see ``run.sweep``)."""

    # --- ruleset files ----------------------------------------------------------
    max_file_bytes: int = 1_048_576
    """Size of one ruleset file (1 MiB)."""
    max_yaml_nodes: int = 100_000
    """YAML nodes in one file, counting every alias expansion."""
    max_yaml_depth: int = 64
    """Nesting depth of YAML mappings and sequences."""
    max_yaml_aliases: int = 100
    """Alias references (``*name``) in one file."""


DEFAULT_LIMITS = Limits()

# --- procedures: fixed caps (a ruleset's own ``parties: {max: N}`` may only lower them) -------
MAX_PARTIES = 8
"""Parties in one contest or team check; the leader and helpers of an assisted check."""
MAX_TIE_ROUNDS = 100
"""Times tied parties of a contest roll again, when rolling, before it is reported still tied."""
MAX_EXTENDED_ROUNDS = 1000
"""Rounds an extended check may run: its ``max_rounds`` setting evaluating to more is a
``LimitError`` named ``max_rounds``."""

# --- inputs: fixed caps on values given to a check or to the dice API ------------------------
MAX_POOL_DICE = 100
"""Dice in a ``dice_pool`` input (``101d4`` is refused); the default of ``DicePool.parse``."""
MAX_POOL_SIDES = 1000
"""Sides of one die of a ``dice_pool`` input (``d1001`` is refused)."""
MAX_TEXT_VALUE_CHARS = 200
"""Characters of a text value bound to a name by a ``dice`` API caller (``env={"x": ...}``)."""
MAX_YAML_INT_CHARS = 4300
"""Characters of an integer literal in a ruleset file, checked before it is converted:
Python refuses decimal strings of more than 4,300 digits, and YAML's base-60 integers
(``1:2:3…``) convert in quadratic time, so the loader stops here first."""

# --- validation: the search for inputs that reach each outcome (``run/reach.py``) ----------
REACH_MAX_TRIES = 200
"""Input combinations ``validate`` tries, per check, looking for one that reaches each outcome."""
REACH_SEARCH_STATES = 2000
"""Work budget (``max_states``) of each exact-odds run of that search: input combinations
whose rolls need more are skipped, which keeps validation fast and deterministic; they
rarely reveal an outcome the smaller ones don't."""
REACH_DECIDE_TRIES = 6
"""Of those skipped input combinations, how many are worked out again each with the budget the
odds themselves get (``max_states``), the telling ones first, while some outcome is undecided:
what ``odds`` answers (two exploding rolls, ``4d6rol1kh3``), validate decides. The others are
worked out while one more such budget, shared between them, lasts."""
REACH_ROLLS = 32
"""Where every outcome rule has a condition: of the combinations even the odds' budget cannot
work out (at most ``REACH_DECIDE_TRIES``), how many times each is rolled, with fixed seeds,
looking for a roll that matches no outcome rule (E512). Not a proof that none does (W502)."""
REACH_DECIDE_FAILURES = 2
"""The search gives up on that after this many combinations that even the odds' budget cannot
work out (each costs a full computation's work)."""

# --- validation: the search for inputs that make the rules fail (``run/faults.py``) --------
SITE_MAX_SETS = 256
"""Sets of values ``validate`` tries for one expression of a check: every combination of the
inputs it reads (and those of the gates before it) when there are at most this many, else
their bounds and the check's landmarks (table edges, die sizes), else their bounds only."""
FAULT_MAX_RUNS = 2000
"""Rolls ``validate`` makes, per check, looking for inputs inside their bounds that make a
rule fail (each expression's sets of :data:`SITE_MAX_SETS` together, the same set once)."""
PROCEDURE_MAX_TRIES = 16
"""Line-ups (own inputs and parties) whose exact odds ``validate`` works out per procedure,
looking for one no outcome rule matches (E512) or that can never be decided (E510)."""
PROCEDURE_FAULT_STATES = 20_000
"""Work budget (``max_states``) of each of those odds: line-ups that need more are skipped."""

# --- not per call: the command line and error messages ------------------------------------
# Module constants, not ``Limits`` fields: they bound what the engine *prints* and what
# ``validate`` *searches*, not what a ruleset or an expression may do.

MAX_ECHO_CHARS = 200
"""Characters of any one text an error quotes back (a value, a name, an expression, an id,
a path, a line of the file): longer ones are cut in the middle to this width, so a
120 KB argument or a 900 KB line of YAML comes back as 200 characters."""

MAX_MESSAGE_CHARS = 400
"""Characters of an error's message, and of its hint, as a whole: the engine's own words with
what they quote (each quote of input is cut to ``MAX_ECHO_CHARS`` too where it is made, and
what is longer is cut in the middle): a refusal that says the sizes it met and the limit
("choosing 2 dice of each of 83,538 throws of 'dice' before 'more' is rolled …") is read whole."""

MAX_SWEEP = 2000
"""Input combinations of one sweep (``odds ... bonus=1..18``); each value's odds are bounded
by ``max_states``, the work of all of them together by ``max_sweep_states``."""
MAX_STATES_CEILING = 100_000_000
"""The most ``--max-states`` on the command line may raise ``max_states`` to (50 times the
default): a user who wants a bigger computation may allow it, but not an unbounded one."""
MAX_EXPLODE_DEPTH = 1000
"""The deepest ``--explode-depth`` (and ``explode_depth=``) an exploding die may be followed to;
the work budget bounds the computation too."""

MAX_FOLDER_ENTRIES = 100_000
"""Directory entries (files and folders) ``validate`` looks at while searching the folders
it is given for ``*.yaml``/``*.yml`` files, over all of them. ``validate /`` is refused
with a usage error once this many are seen, instead of walking the whole disk."""

# --- presentation and memory (process-wide, not per call) ---------------------------

EXACT_DECIMAL_DIGITS = 4000
"""Digits up to which an exact fraction's numerator and denominator are written in decimal.
Past it (Python refuses to turn integers of more than 4,300 digits into text, and nobody
reads them), ``--json``/``to_dict()`` carry the exact value in hexadecimal (``0x…/0x…``) and
the text table shows the fraction's size and the float instead (see ``exact_text``)."""

MAX_CACHED_WEIGHTS = 1_000_000
"""Size of what the process-wide caches of exact odds (dice terms' distributions and
finished odds) hold at once, all expressions together; least recently used go first. An
entry of a distribution counts one, plus one per 64 bits of its weight: a million-sided
die's distribution counts 1,000,000 (about 100 MB), 3d6's 16. Bounds what a long-running
process keeps (see ``cache.py``)."""
