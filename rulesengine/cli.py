"""The ``rulesengine`` command.

Exit status: 0 success, 1 invalid input (a bad expression, bad inputs, an invalid
ruleset), 2 usage error (unknown option, malformed argument). A user never sees a
traceback: errors are printed as one message with a caret and a hint.

Imports are deferred to the command that needs them so that start-up stays small.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit 2 through our own path."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _faces(text: str) -> list[int]:
    try:
        faces = [int(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid faces {text!r}: give whole numbers separated by commas, e.g. 3,5,6") from None
    if not faces:
        raise argparse.ArgumentTypeError("no faces given: e.g. --faces 3,5,6")
    return faces


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: give a whole number") from None


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"invalid depth {text!r}: give a whole number 0 or more")
    return value


def _assignments(items: Sequence[str]) -> dict[str, Any]:
    """``name=value`` words: whole numbers or true/false."""
    from .errors import UsageError

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
                env[name] = int(raw)
            except ValueError:
                raise UsageError(f"{name}={raw!r} is not a whole number or true/false",
                                 hint=f"e.g. {name}=3") from None
    return env


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulesengine",
                     description="Roll dice and rulesets, and get their exact odds.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("dice", help="roll a dice expression, or print its exact odds",
                       description="Roll a dice expression once and print the trace, or "
                       "print its exact distribution with --odds. Names in the expression "
                       "take values from trailing name=value words.")
    p.add_argument("expression", help='a dice expression, e.g. "4d6kh3" or "1d20+5 >= 15"')
    p.add_argument("assign", nargs="*", metavar="name=value",
                   help="values for names used in the expression")
    p.add_argument("--seed", type=_seed, help="seed the dice: the same seed gives the same roll")
    p.add_argument("--faces", type=_faces, help="faces rolled on physical dice, in order: 3,5,6")
    p.add_argument("--odds", action="store_true", help="print the exact distribution instead")
    p.add_argument("--explode-depth", type=_depth, help="extra dice an exploding die may add "
                   "before the odds are truncated (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON")
    return parser


def _print_error(exc, *, context: str | None = None) -> None:
    loc = exc.location
    head = f"error[{exc.code}]: {exc.message}"
    if loc.path:
        head = f"{loc.prefix()}: {head}"
    elif loc.column is not None and " column " not in exc.message:
        head += f" at column {loc.column}"
    print(f"rulesengine: {head}", file=sys.stderr)
    caret = loc.caret()
    if caret:
        for line in caret.split("\n"):
            print(f"  {line}", file=sys.stderr)
    if exc.hint:
        print(f"hint: {exc.hint}", file=sys.stderr)


def _cmd_dice(args: argparse.Namespace) -> int:
    from . import dice
    from .errors import UsageError

    env = _assignments(args.assign)
    expr = dice.parse(args.expression)
    if args.odds:
        if args.faces is not None or args.seed is not None:
            raise UsageError("--faces and --seed are for rolling, not for --odds")
        result = expr.odds(env, explode_depth=args.explode_depth)
        if args.json:
            print(json.dumps(result.to_dict(), indent=2))
        else:
            print(format_odds_table(result))
        return EXIT_OK
    if args.faces is not None and args.seed is not None:
        raise UsageError("give --faces or --seed, not both")
    rolled = expr.roll(env, seed=args.seed, faces=args.faces)
    if args.json:
        print(json.dumps(rolled.to_dict(), indent=2))
    else:
        print(rolled.trace)
    return EXIT_OK


def _percent(p) -> str:
    return f"{float(p) * 100:7.2f}"


def format_odds_table(odds) -> str:
    """An AnyDice-style table: value, exact fraction, %, at least, at most, a bar."""
    from .render import format_value

    rows = odds.rows()
    head = f"{odds.expression}    mean {float(odds.mean):.4g}"
    if odds.truncated:
        head += (f"    truncated {odds.truncated.numerator}/{odds.truncated.denominator}"
                 f" (~{float(odds.truncated):.2g}, explosions deeper than {odds.explode_depth})")
    if not rows:
        return head + "\n(no outcome)"
    exact = [f"{r['probability'].numerator}/{r['probability'].denominator}" for r in rows]
    width_v = max(5, *(len(format_value(r["value"])) for r in rows))
    width_e = max(5, *(len(e) for e in exact))
    peak = max(r["probability"] for r in rows)
    lines = [head, f"{'value':>{width_v}}  {'exact':>{width_e}}        %   at least    at most"]
    for r, e in zip(rows, exact):
        bar = "#" * round(40 * r["probability"] / peak) if peak else ""
        lines.append(f"{format_value(r['value']):>{width_v}}  {e:>{width_e}}  {_percent(r['probability'])}"
                     f"    {_percent(r['at_least'])}    {_percent(r['at_most'])}  {bar}")
    return "\n".join(lines)


COMMANDS = {"dice": _cmd_dice}


def main(argv: Sequence[str] | None = None) -> int:
    try:  # "→" in traces must not crash a console that cannot show it
        sys.stdout.reconfigure(errors="replace")  # type: ignore[attr-defined]
        sys.stderr.reconfigure(errors="replace")  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        pass
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.version:
        from . import __version__

        print(f"rulesengine {__version__}")
        return EXIT_OK
    if not args.command:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from .errors import RulesEngineError, UsageError

    try:
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"rulesengine {args.command}: error: {exc.message}"
              + (f" ({exc.hint})" if exc.hint else ""), file=sys.stderr)
        return EXIT_USAGE
    except RulesEngineError as exc:
        _print_error(exc)
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except RecursionError:  # pragma: no cover - limits exist so that this cannot happen
        print("rulesengine: error: input nests too deeply", file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # pragma: no cover - a bug: still no traceback for the user
        print(f"rulesengine: internal error (please report): {type(exc).__name__}: {exc}",
              file=sys.stderr)
        return EXIT_BUG


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
