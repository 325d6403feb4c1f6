"""The command line's words: the parser of every command (with its examples and the page of
the docs that explains it) and the types of its options. Split from :mod:`rulesengine.cli`,
which runs the commands."""

from __future__ import annotations

import argparse
from functools import partial
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

DIALECT_NAMES = ("foundry", "roll20", "d20")
"""``--dialect`` choices: rulesengine.dice.dialects.DIALECTS (a test keeps the two equal; this
module stays free of engine imports, for start-up)."""

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit 2 through our own path."""

    # While the parser is being built, argparse makes a help formatter for each argument (to
    # check its metavar) and one for the commands (their usage line, the program's name
    # alone): neither reads the width, which a formatter takes from the terminal, importing
    # shutil (and with it bz2 and lzma) to ask. So those get a fixed width; --help and usage
    # errors still get the terminal's.
    _building = False

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        self._building = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._building = False

    def add_subparsers(self, **kwargs: Any) -> Any:
        self._building = True
        try:
            return super().add_subparsers(**kwargs)
        finally:
            self._building = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._building:
            make: Any = self.formatter_class  # a HelpFormatter class, which takes a width
            return make(prog=self.prog, width=80)
        return super()._get_formatter()

    def error(self, message: str) -> None:  # type: ignore[override]
        from .echo import echo

        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {echo(message)}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


PRINTED_TOKENS = ("+", "-", "\u2212", "blank")
"""Faces written as printed on a Fate die (see dice.sources.printed_face)."""

MAX_LABEL = 40
"""The longest face label taken on the command line (``d{1:'hit'}``: a face entered by its label)."""


def faces_option(text: str) -> list[int | str]:
    from .numerals import whole_number

    faces: list[int | str] = []
    try:
        for x in text.replace(" ", "").split(","):
            if x.lower() in PRINTED_TOKENS:
                faces.append(x.lower())
            elif x[:1].isalpha() and x.isprintable() and len(x) <= MAX_LABEL:
                faces.append(x)  # a label printed on a face (d{1:'hit'}): the die reads it
            elif x != "":
                faces.append(whole_number(x))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid faces {text!r}: give whole numbers (ASCII digits 0-9) separated by commas, "
            "e.g. 3,5,6 (a Fate die's +, - or blank, or the labels printed on a die's faces, too)") from None
    if not faces:
        raise argparse.ArgumentTypeError("no faces given: e.g. --faces 3,5,6")
    return faces


def seed_option(text: str) -> int:
    from .numerals import whole_number

    try:
        return whole_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: give a whole number (ASCII digits 0-9)") from None


def thresholds_option(text: str) -> list[int]:
    """``--at-least 5`` or ``--at-least 5,10``: whole numbers (the option may be repeated)."""
    from .numerals import whole_number

    try:
        values = [whole_number(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: give whole numbers separated by commas, "
                                         "e.g. --at-least 5 or --at-least 5,10") from None
    return values


def plot_option(text: str) -> str:
    """``--plot FILE.svg``: the file an SVG chart is written to."""
    if not text.lower().endswith(".svg"):
        raise argparse.ArgumentTypeError(f"invalid file {text!r}: --plot writes SVG, give a name ending in .svg, "
                                         "e.g. --plot chart.svg")
    # Checked before any odds are worked out (writing can still fail later: _write_plot says so).
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {text!r}: {folder!r} is not a folder you may write to "
                                         "(give a path in a folder that exists)")
    return text


def depth_option(text: str) -> int:
    from .limits import MAX_EXPLODE_DEPTH

    return _bounded(text, "depth", 0, MAX_EXPLODE_DEPTH)


def states_option(text: str) -> int:
    from .limits import MAX_STATES_CEILING

    return _bounded(text, "work budget", 1, MAX_STATES_CEILING)


def _bounded(text: str, what: str, low: int, high: int) -> int:
    """A whole number ``low..high`` given on the command line (users may raise a limit, up to a
    hard ceiling: docs/limits.md)."""
    from .numerals import whole_number

    try:
        value = whole_number(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: give a whole number {low}..{high:,}"
                                         f" (at most {high:,})")
    return value


NO_CACHE = ("don't read or write the parsed expressions kept between runs "
            "(also RULESENGINE_CACHE=off; where: RULESENGINE_CACHE_DIR, else ~/.cache/rulesengine)")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``only`` (a command's name), with that command alone:
    a call knows its command from its first word, and building the other ten cost each
    call a few milliseconds of start-up (issue 33)."""
    parser = Parser(prog="rulesengine",
                     description="Roll dice and rulesets, and get their exact odds.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("--no-cache", action="store_true", help=NO_CACHE)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name, add in COMMANDS.items():
        if only is None or name == only:
            add(sub)
    for name, sp in sub.choices.items():
        # after the command too (`odds … --json --no-cache`), as people write options; unset
        # there, it leaves the one given before the command as it was
        sp.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS, help=NO_CACHE)
        with_examples(name, sp)
    return parser


def add_dice_command(sub) -> None:
    p = sub.add_parser("dice", help="roll a dice expression, or print its exact odds",
                       description="Roll a dice expression once and print the trace, or "
                       "print its exact distribution with --odds. Names in the expression "
                       "take values from trailing name=value words.")
    p.add_argument("expression", nargs="?", help='a dice expression, e.g. "4d6kh3" or "1d20+5 >= 15"')
    p.add_argument("assign", nargs="*", metavar="name=value",
                   help="values for names used in the expression (LO..HI or a,b,c sweeps one name with "
                   "--odds); with --odds, more expressions to compare side by side")
    p.add_argument("--seed", type=seed_option, help="seed the dice: the same seed gives the same roll")
    p.add_argument("--faces", type=faces_option, help="faces rolled on physical dice, in order: 3,5,6")
    p.add_argument("--odds", action="store_true", help="print the exact distribution instead")
    p.add_argument("--dialect", choices=DIALECT_NAMES,
                   help="read the expression with another roller's spellings (4d6k3, 3d6x, 3d6>4, 8d6mi2)")
    p.add_argument("--explode-depth", type=depth_option, help="extra dice an exploding die may add "
                   "before the odds are truncated (default 10)")
    p.add_argument("--exact", action="store_true", help="with --odds: print every exact fraction, however long")
    p.add_argument("--max-states", type=states_option, help="with --odds: the work budget (default 2,000,000)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--csv", action="store_true", help="with --odds: print CSV, one column per expression")
    p.add_argument("--plot", type=plot_option, metavar="FILE.svg",
                   help="with --odds: also write a bar chart as SVG, one series per expression")
    view = p.add_mutually_exclusive_group()
    view.add_argument("--at-least", dest="view", action="store_const", const="at_least",
                      help="with --odds and several expressions (or --csv): the chance of each value or more")
    view.add_argument("--at-most", dest="view", action="store_const", const="at_most",
                      help="with --odds and several expressions (or --csv): the chance of each value or less")


def add_validate_command(sub) -> None:
    p = sub.add_parser("validate", help="validate ruleset files (for CI)",
                       description="Validate ruleset files and folders (searched for *.yaml and *.yml). "
                       "Exit 0 when clean, 1 when any file is invalid, 2 on a usage error.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.add_argument("--format", choices=["text", "json", "github"], default=None,
                   help="output format (default: github when GITHUB_ACTIONS is set, else text)")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")


def add_schema_command(sub) -> None:
    p = sub.add_parser("schema", help="print or save the ruleset JSON Schema (or an answer's)",
                       description="Print schemas/ruleset.schema.json, the file format's source of truth; "
                       "--output saves it, e.g. into your own repository for editor completion. With a name, "
                       "the schema of an answer's JSON instead (odds-result, roll-result, ...).")
    p.add_argument("name", nargs="?", default="ruleset", metavar="NAME",
                   help="a shipped schema: ruleset (the default), odds-result, roll-result, odds-sweep, ...")
    p.add_argument("--output", "-o", metavar="PATH", help="write the schema to PATH instead of printing it")


def add_new_command(sub) -> None:
    p = sub.add_parser("new", help="start a ruleset of your own",
                       description="Write a starter ruleset (one commented check) or a copy of a shipped one "
                       "to adapt, as NAME.yaml, with the editor's schema line; the schema is saved to "
                       "schemas/ruleset.schema.json if it isn't there yet. It validates clean as written.")
    p.add_argument("name", metavar="NAME", help="the new ruleset's id: lower-case letters, digits and dashes")
    p.add_argument("--from", dest="copy_of", metavar="ID", help="copy this shipped ruleset (see `rulesengine list`)")
    p.add_argument("--output", "-o", metavar="PATH", help="write to PATH instead of NAME.yaml")
    p.add_argument("--force", action="store_true", help="overwrite PATH if it exists")


def add_list_command(sub) -> None:
    p = sub.add_parser("list", help="list the shipped rulesets",
                       description="List the shipped rulesets: id, name, and their checks and procedures.")
    p.add_argument("--json", action="store_true", help="print JSON")


def add_show_command(sub) -> None:
    p = sub.add_parser("show", help="describe a ruleset or one of its checks in words",
                       description="Describe a ruleset, or one of its checks or procedures, in words: "
                       "inputs, tables, gates, rolls, outcome rules.")
    p.add_argument("ruleset", help="a shipped ruleset id (see `rulesengine list`) or a path")
    p.add_argument("name", nargs="?", help="a check or procedure")


def add_export_command(sub) -> None:
    p = sub.add_parser("export", help="print a ruleset as canonical JSON",
                       description="Print the ruleset as canonical JSON: defaults filled in, every "
                       "expression as text plus its parsed form, for front ends in any language.")
    p.add_argument("ruleset", help="a shipped id or a path")


def add_docs_command(sub) -> None:
    p = sub.add_parser("docs", help="print a page of the documentation (the docs ship with the package)",
                       description="With no TOPIC, list the pages of the documentation; with a TOPIC, print "
                       "that page (Markdown), or with --path the file it is installed as.")
    p.add_argument("topic", nargs="?", metavar="TOPIC", help="a page: tutorial, dice-language, errors, ...")
    p.add_argument("--path", action="store_true", help="print the installed page's path instead of its text")


RUN_COMMANDS = {"roll": "roll a check or procedure of a ruleset",
                "odds": "exact odds of a check or procedure, or a sweep over inputs"}
"""The commands that run a check or procedure of a ruleset, each with its help."""


def add_run_command(sub, name: str) -> None:
    """``roll`` or ``odds``: the same inputs (name=value, partyN.name=value), their own options."""
    helptext = RUN_COMMANDS[name]
    p = sub.add_parser(name, help=helptext, description=helptext + ". Inputs are name=value words; "
                       "contest parties are party1.name=value, party2.name=value, ..."
                       + (" A value LO..HI sweeps that input (one or two inputs)." if name == "odds" else ""))
    p.add_argument("ruleset", help="a shipped ruleset id (see `rulesengine list`) or a path")
    p.add_argument("name", help="a check or procedure of the ruleset")
    p.add_argument("assign", nargs="*", metavar="name=value", help="inputs")
    p.add_argument("--json", action="store_true", help="print JSON")
    if name == "roll":
        p.add_argument("--seed", type=seed_option, help="seed the dice: the same seed gives the same roll")
        p.add_argument("--faces", type=faces_option, help="faces rolled on physical dice, in order: 3,5,6")
        p.add_argument("--choose", type=faces_option,
                       help="the dice the player picks, where the check chooses dice")
    else:
        p.add_argument("--csv", action="store_true", help="print CSV (sweeps and single odds)")
        p.add_argument("--exact", action="store_true", help="print every exact fraction, however long")
        p.add_argument("--max-states", type=states_option,
                       help="the work budget of exact odds (default 2,000,000); in a sweep, of each value, "
                            "with ten times it for all the values together")
        p.add_argument("--explode-depth", type=depth_option,
                       help="extra dice an exploding die may add before the odds are truncated (default 10)")
        p.add_argument("--at-least", dest="at_least", type=thresholds_option, action="append", default=[],
                       nargs="?", const=[], metavar="N", help="in a sweep of a check whose result is a number: "
                       "the chance of N or more in each row (repeatable, or N,M,...); with --compare and no N: "
                       "the chance of each value or more")
        p.add_argument("--at-most", dest="at_most", action="store_true",
                       help="with --compare: the chance of each value or less")
        p.add_argument("--compare", nargs="+", action="append", default=[], metavar="WORD",
                       help="compare with the same check under other inputs (name=value words, over the ones "
                       "given) or another ruleset (a path or shipped id), one column each (repeatable)")
        p.add_argument("--plot", type=plot_option, metavar="FILE.svg",
                       help="also write a chart as SVG: the result's (or the outcomes') bars; for a sweep, "
                       "a line per outcome across the swept input")
        p.add_argument("--given", metavar="EXPR", help="odds given a yes/no expression over the check's names, "
                       "e.g. --given \"outcome == 'success'\" (one set of inputs: not with a sweep)")


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"invalid time limit {text!r}: give seconds, more than 0 and at most 3600")
    return value


def add_serve_command(sub) -> None:
    p = sub.add_parser("serve", help="serve the engine over HTTP + JSON (or JSON lines on stdio)",
                       description="Serve every operation (list, export, form, roll, odds, dice, validate) "
                       "over HTTP + JSON with a playground page at /, or as JSON lines on standard input and "
                       "output with --stdio. HTTP needs the extra: pip install 'ttrpg-rulesengine[serve]'.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=lambda s: _bounded(s, "port", 0, 65535), default=8000,
                   help="the port (default 8000; 0 picks a free one)")
    p.add_argument("--rulesets", action="append", default=[], metavar="DIR",
                   help="a folder of your own rulesets, served by their ids (repeatable)")
    p.add_argument("--workers", type=lambda s: _bounded(s, "number of workers", 1, 64), default=1,
                   help="worker processes (default 1)")
    p.add_argument("--cors-origin", action="append", default=[], metavar="ORIGIN",
                   help="a web origin allowed to call the service from a browser (repeatable; default none)")
    p.add_argument("--max-body", type=lambda s: _bounded(s, "body limit", 1024, 64 * 1_048_576),
                   default=None, help="the largest request body in bytes (default 2 MiB)")
    p.add_argument("--time-limit", type=positive_seconds, default=10.0,
                   help="seconds one request may work before it is stopped (default 10)")
    p.add_argument("--max-states", type=states_option, help="the work budget of one request (default 2,000,000)")
    p.add_argument("--max-cached", type=lambda s: _bounded(s, "cache size", 1000, 100_000_000), default=None,
                   metavar="UNITS", help="what the process keeps of exact odds between requests, in size units "
                   "of about 100-250 bytes (default 1,000,000; see `rulesengine docs limits`)")
    p.add_argument("--access-log", choices=["json"], default=None,
                   help="write one JSON line per request on stderr: time, method, path, status, duration_ms, "
                   "request_id (default: no access log)")
    p.add_argument("--drain-checks", type=lambda s: _bounded(s, "number of checks", 0, 100), default=0, metavar="N",
                   help="on SIGTERM or Ctrl-C, first answer /readyz 503 and keep serving until it has said so N "
                   "times (a load balancer's failed checks that take this replica out, plus one), for at most "
                   "10 s; then stop listening (default 0: stop listening at once; one worker only)")
    p.add_argument("--stdio", action="store_true", help="read one JSON request per line on stdin, answer on stdout")


COMMANDS: dict[str, Callable[[Any], None]] = {
    "dice": add_dice_command, "validate": add_validate_command, "schema": add_schema_command, "new": add_new_command,
    "list": add_list_command, "show": add_show_command, "export": add_export_command,
    "roll": partial(add_run_command, name="roll"), "odds": partial(add_run_command, name="odds"),
    "serve": add_serve_command, "docs": add_docs_command}
"""Each command's name and the function that adds it to the parser, in the order ``--help`` lists them."""


def command_word(words: list[str]) -> str | None:
    """The command these words run, where nothing before it could change which (only the
    top-level flags, written out): the parser is then built with that command alone; else
    None, and it is built with every command."""
    for word in words:
        if word in ("--no-cache", "--version"):
            continue
        return word if word in COMMANDS else None
    return None


EXAMPLES = {
    "dice": (['rulesengine dice "4d6kh3"', 'rulesengine dice "1d20 + bonus >= 15" bonus=5 --odds',
              'rulesengine dice --odds "3d6" "4d6kh3" "2d10" --at-least'],
             "dice-language"),
    "validate": (["rulesengine validate --strict rulesets/"], "errors"),
    "schema": (["rulesengine schema --output schemas/ruleset.schema.json"], "ruleset-language"),
    "new": (["rulesengine new my-homebrew",
             "rulesengine new my-variant --from ID --output rulesets/my-variant.yaml   (ID: see rulesengine list)"],
            "tutorial"),
    "list": (["rulesengine list --json"], "rulesets"),
    "show": (["rulesengine show my-system.yaml attack"], "rulesets"),
    "export": (["rulesengine export my-system.yaml > my-system.json"], "ruleset-language"),
    "roll": (["rulesengine roll my-system.yaml attack bonus=5 --seed 1",
              "rulesengine roll my-system.yaml arm_wrestle party1.strength=4 party2.strength=3"],
             "ruleset-language"),
    "serve": (["rulesengine serve --port 8000 --rulesets ./my-rulesets",
               """echo '{"id": 1, "op": "dice_roll", "expression": "4d6kh3"}' | rulesengine serve --stdio"""],
              "service"),
    "odds": (["rulesengine odds my-system.yaml attack bonus=5",
              "rulesengine odds my-system.yaml attack bonus=5 --given success",
              "rulesengine odds my-system.yaml attack bonus=0..10",
              "rulesengine odds my-system.yaml attack bonus=5 --compare bonus=7 --at-least"], "ruleset-language"),
    "docs": (["rulesengine docs", "rulesengine docs tutorial | less", "rulesengine docs errors --path"], "tutorial"),
}
"""Command → (examples, the topic of the docs that explains it: `rulesengine docs TOPIC`, docs/TOPIC.md)."""


def docs_pointer(topic: str) -> str:
    """How help texts send a reader to a page: the command that prints it from any install,
    and the page's place in the repository."""
    return f"rulesengine docs {topic} (docs/{topic}.md)"


def with_examples(name: str, sub: argparse.ArgumentParser) -> None:
    """Every command's --help ends with examples and the page of the docs that explains it."""
    examples, topic = EXAMPLES.get(name, ([], "tutorial"))
    sub.formatter_class = argparse.RawDescriptionHelpFormatter
    sub.epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples) + f"\n\nmore: {docs_pointer(topic)}"


def odds_view(args: argparse.Namespace, swept: bool) -> str:
    """The view of ``odds --compare``: "normal", or "at_least" (``--at-least`` with no N) or
    "at_most" (``--at-most``), refused where nothing is compared."""
    from .errors import UsageError

    view = "at_most" if args.at_most else "at_least" if any(not g for g in args.at_least) else "normal"
    if args.compare and any(g for g in args.at_least):
        raise UsageError("--at-least N is for a sweep, and --compare compares one set of inputs",
                         hint="give --at-least without a number for the 'at least' view of each value")
    if view != "normal" and not args.compare:
        flag = "--at-most" if args.at_most else "--at-least"
        raise UsageError(f"{flag} without a number is for --compare",
                         hint=(f"compare it with other inputs (--compare name=value) {flag}" if not swept
                               else "in a sweep, give the number: --at-least 5"))
    if args.at_most and any(not g for g in args.at_least):
        raise UsageError("--at-least and --at-most are two views: give one", hint="leave one out")
    return view


# ---- the inputs the words give -------------------------------------------------------------


def assignments(items: Sequence[str]) -> dict[str, Any]:
    """``name=value`` words: whole numbers or true/false."""
    from .errors import UsageError
    from .numerals import ASCII_DIGITS_HINT, whole_number

    env: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise UsageError(f"expected name=value, got {item!r}", hint="e.g. skill=12")
        low = raw.strip().lower()
        if low in ("true", "yes"):
            env[name] = True
        elif low in ("false", "no"):
            env[name] = False
        else:
            try:
                env[name] = whole_number(raw)
            except ValueError:
                raise UsageError(f"{name}={raw!r} is not a whole number or true/false",
                                 hint=f"e.g. {name}=3; {ASCII_DIGITS_HINT}") from None
    return env


def is_assignment(word: str) -> bool:
    """``name=value``: a name (letters, digits, underscores; not starting with a digit), then ``=``."""
    import re

    return re.match(r"[A-Za-z_][A-Za-z0-9_]*=(?!=)", word) is not None


def is_input_word(word: str) -> bool:
    """An input of ``roll``/``odds``: ``name=value`` or a party's ``partyN.name=value``."""
    import re

    return re.match(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?=(?!=)", word) is not None


def split_inputs(items: Sequence[str]) -> tuple[dict[str, str], dict[int, dict[str, str]]]:
    """``name=value`` words, and ``partyN.name=value`` words grouped by party."""
    from .errors import UsageError
    from .numerals import whole_number

    plain: dict[str, str] = {}
    parties: dict[int, dict[str, str]] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"expected name=value, got {item!r}", hint="e.g. skill=12")
        if name.startswith("party") and "." in name:
            head, _, key = name.partition(".")
            try:
                index = whole_number(head[5:])
            except ValueError:
                raise UsageError(f"bad party in {item!r}", hint="write party1.skill=12") from None
            if index < 1 or not key:
                raise UsageError(f"bad party in {item!r}", hint="parties are numbered from 1: party1.skill=12")
            parties.setdefault(index, {})[key] = value
        else:
            plain[name] = value
    return plain, parties


def party_list(parties: dict[int, dict[str, str]]) -> list[dict[str, str]] | None:
    from .errors import UsageError

    if not parties:
        return None
    n = max(parties)
    from .limits import MAX_PARTIES

    if n > MAX_PARTIES:
        raise UsageError(f"party{n}: a procedure takes at most {MAX_PARTIES} parties",
                         hint=f"number parties from 1 to {MAX_PARTIES}")
    missing = [i for i in range(1, n + 1) if i not in parties]
    if missing:
        raise UsageError(f"party{missing[0]} has no inputs", hint="number parties 1, 2, 3... without gaps")
    return [parties[i] for i in range(1, n + 1)]


def protect_leading_minus(argv: list[str]) -> tuple[list[str], dict[str, str]]:
    """Let ``rulesengine dice -1d6`` mean the expression -1d6.

    argparse reads any word that starts with ``-`` (other than a plain negative number) as
    an option, so ``-1d6`` failed with "the following arguments are required". The dice
    command's only short option is ``-h`` and its others start with ``--``, so a word
    after ``dice`` that starts with one ``-`` is never an option: it is passed to argparse
    behind a space (which argparse does not read as an option) and given back unchanged
    afterwards. Returns the words to parse and {protected word: original word}.
    """
    if not argv or argv[0] != "dice":
        return argv, {}
    words, protected = [argv[0]], {}
    for i, word in enumerate(argv[1:], start=1):
        if word == "--":
            words.extend(argv[i:])
            break
        if len(word) > 1 and word[0] == "-" and word[1] != "-" and word != "-h":
            protected[" " + word] = word
            word = " " + word
        words.append(word)
    return words, protected


def check_dice_words(args: argparse.Namespace) -> None:
    """``dice``'s words that can't work, refused with the fix before anything is parsed: no
    expression, an option typed inside the quotes, ``--plot`` without ``--odds``."""
    from .errors import UsageError

    if not args.expression:
        raise UsageError("give a dice expression",
                         hint='e.g. rulesengine dice "4d6kh3"; see rulesengine docs dice-language')
    flag = re.search(r"(?:^|\s)(--[a-z][a-z-]*)", args.expression)
    if flag:
        before = args.expression[:flag.start(1)].strip()
        raise UsageError(f"'{flag.group(1)}' is inside the quoted expression",
                         hint=f'put it after the closing quote: rulesengine dice "{before}" {flag.group(1)}')
    if args.plot and not args.odds:
        raise UsageError("--plot is for --odds",
                         hint=f'e.g. rulesengine dice "{args.expression}" --odds --plot {args.plot}')
