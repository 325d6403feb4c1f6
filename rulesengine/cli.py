"""The ``rulesengine`` command.

Exit status: 0 success, 1 invalid input (a bad expression, bad inputs, an invalid
ruleset), 2 usage error (unknown option, malformed argument). A user never sees a
traceback: errors are printed as one message with a caret and a hint.

Imports are deferred to the command that needs them so that start-up stays small.
"""

from __future__ import annotations

import argparse
import os
import io
import json
import sys
from typing import TYPE_CHECKING, Any
from collections.abc import Collection, Mapping, Sequence

from .collector import collect_as, collect_less, leaving
from .cli_hints import in_command_words
from .arguments import (assignments, build_parser, check_dice_words, command_word, odds_view, is_assignment,
                        is_input_word, party_list, protect_leading_minus, split_inputs)

if TYPE_CHECKING:  # only for types: each command imports what it runs when it runs (start-up)
    from .run.odds_value import OddsValue

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3


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


def _json_text(value: Any, *, ensure_ascii: bool = True) -> str:
    """``value`` as ``json.dumps(value, indent=2)`` writes it, faster (present.json_text)."""
    from .present.json_text import dumps
    return dumps(value, ensure_ascii=ensure_ascii)


def _print_json_error(exc) -> None:
    """With --json, an error is one JSON object on stderr (the diagnostic's fields: code, severity,
    message, hint, path, line, column, pointer, limit), so a program never scrapes text."""
    print(json.dumps(exc.diagnostic().to_dict()), file=sys.stderr)


def _cmd_dice(args: argparse.Namespace) -> int:
    from . import dice
    from .errors import UsageError
    from .run.sweep_words import is_swept

    check_dice_words(args)
    # With --odds, words without '=' are more expressions to compare (AnyDice's several outputs).
    # name=value words give the names' values; any other word is another expression to
    # compare (an expression may hold "=" too: "d20 >= 10")
    texts = [args.expression] + ([w for w in args.assign if not is_assignment(w)] if args.odds else [])
    words = [w for w in args.assign if is_assignment(w)] if args.odds else list(args.assign)
    swept = [w for w in words if is_swept(w.partition("=")[2])]
    if swept and not args.odds:
        raise UsageError(f"'{swept[0]}' sweeps a name, which is for --odds",
                         hint=f'e.g. rulesengine dice "{args.expression}" {swept[0]} --odds')
    _check_table_options(args, texts, swept)
    if len(texts) > 1 or swept:
        return _dice_comparison(args, texts, words, swept)
    env = assignments(words)
    expr = dice.parse(args.expression, _limits(args), args.dialect)
    if args.odds:
        return _dice_odds(args, expr, env)
    if args.faces is not None and args.seed is not None:
        raise UsageError("give --faces or --seed, not both")
    rolled = expr.roll(env, seed=args.seed, faces=args.faces)
    if args.json:
        print(_json_text(rolled.to_dict()))
    else:
        _print_trace(rolled.trace)
    return EXIT_OK


def _dice_odds(args: argparse.Namespace, expr: Any, env: dict[str, Any]) -> int:
    """``dice EXPR --odds``: one expression's table (or ``--json``, ``--csv``; ``--plot``)."""
    from .errors import UsageError
    from .present.dice_table import comparison_csv
    from .present.text import format_dice_odds

    if args.faces is not None or args.seed is not None:
        raise UsageError("--faces and --seed are for rolling, not for --odds")
    with _progress():
        result = expr.odds(env, explode_depth=args.explode_depth)
    if args.plot:  # before the table: a reader that stops early (| head) leaves it written
        from .present.plots import dice_plot  # only for --plot: a fifth of the start-up

        _write_plot(args.plot, dice_plot([(args.expression, result)], args.view or "normal"))
    if args.json:
        print(_json_text(result.to_dict()))
    elif args.csv:
        print(comparison_csv([(args.expression, result)], args.view or "normal"))
    else:
        print(format_dice_odds(result, exact=args.exact))
    return EXIT_OK


def _print_trace(text: str) -> None:
    """A roll's text on the terminal: each dropped die (``~~2~~`` in the trace and in JSON)
    struck through with ANSI where standard output is a terminal and NO_COLOR is unset, else
    in parentheses, ``(2)`` (docs/dice-language.md, Traces)."""
    from .present.marks import plain, strike_with_ansi, struck_parts

    out = sys.stdout
    styled = getattr(out, "write_styled", None)
    if styled is None or not strike_with_ansi(out):
        print(plain(text))
        return
    for part, struck in struck_parts(text):
        styled(part, "strike") if struck else out.write(part)
    out.write("\n")


def _check_table_options(args: argparse.Namespace, texts: list[str], swept: list[str]) -> None:
    """``--csv``, ``--at-least`` and ``--at-most`` are for the table of several expressions side
    by side (``--csv`` also gives one expression's as one column); refused where they would
    change nothing."""
    from .errors import UsageError

    flag = "--csv" if args.csv else {"at_least": "--at-least", "at_most": "--at-most"}.get(args.view or "")
    if not flag:
        return
    if not args.odds:
        raise UsageError(f"{flag} is for --odds",
                         hint=f'e.g. rulesengine dice --odds "{args.expression}" "2d10" {flag}')
    if swept:
        raise UsageError(f"{flag} is for comparing expressions, not for a sweep",
                         hint="give each case as its own expression, or leave the sweep as it is")
    if len(texts) == 1 and not args.csv and not args.json and not args.plot:
        raise UsageError(f"{flag} is for comparing expressions: the table of one shows every view",
                         hint=f'add another expression (rulesengine dice --odds "{args.expression}" "2d10" {flag}),'
                         " or add --csv")


def _dice_comparison(args: argparse.Namespace, texts: list[str], words: list[str], swept: list[str]) -> int:
    """``dice --odds "3d6" "4d6kh3"``: one table, a row for each value and a column for each
    expression (``--at-least``/``--at-most`` for those views, ``--csv``, ``--json``); or
    ``dice --odds "1d20 + bonus >= 15" bonus=0..10``: each value of one swept name on a line."""
    from .errors import UsageError
    from .present.dice_table import comparison_csv, comparison_json, format_comparison_table
    from .present.text import format_comparison

    if len(swept) > 1 or (swept and len(texts) > 1):
        raise UsageError("sweep one name of one expression at a time", hint="give the other names one value")
    fixed = assignments([w for w in words if w not in swept])
    with _progress():
        cases = _comparison_cases(args, texts, swept, fixed)
    if args.plot:  # before the table (| head)
        from .present.plots import dice_plot

        _write_plot(args.plot, dice_plot(cases, args.view or "normal"))
    if swept:
        if args.json:
            print(_json_text([{"case": label, **odds.to_dict()} for label, odds in cases]))
        else:
            print(format_comparison(cases))
    elif args.json:
        print(_json_text(comparison_json(cases)))
    elif args.csv:
        print(comparison_csv(cases, args.view or "normal"))
    else:
        print(format_comparison_table(cases, args.view or "normal", exact=args.exact))
    return EXIT_OK


def _comparison_cases(args: argparse.Namespace, texts: list[str], swept: list[str],
                      fixed: dict[str, Any]) -> list[tuple[str, Any]]:
    from . import dice
    from .run.sweep import sweep_values

    cases: list[tuple[str, Any]] = []
    if swept:
        name, _, raw = swept[0].partition("=")
        expr = dice.parse(texts[0], _limits(args), args.dialect)
        for value in sweep_values(name, raw):
            env = {**fixed, **assignments([f"{name}={value}"])}
            cases.append((f"{name}={value}", expr.odds(env, explode_depth=args.explode_depth)))
    else:
        cases = [(t, dice.parse(t, _limits(args), args.dialect).odds(fixed, explode_depth=args.explode_depth))
                 for t in texts]
    return cases


def _progress() -> Any:
    """A progress line while exact odds are worked out, on the terminal's own stderr (the
    line's control characters must reach the terminal; the text is ours, never input)."""
    from .present.progress import progress

    return progress("working out the exact odds", getattr(sys.stderr, "stream", sys.stderr))


def _limits(args: argparse.Namespace) -> Any:
    """The limits a command runs with: the defaults, with what its options raise or lower
    (``--max-states N`` gives a sweep ``SWEEP_BUDGETS`` × N for all its values together)."""
    from .limits import DEFAULT_LIMITS, SWEEP_BUDGETS
    from .records import replace

    states = getattr(args, "max_states", None)
    changes = {"max_states": states, "max_sweep_states": None if states is None else SWEEP_BUDGETS * states,
               "explode_depth": getattr(args, "explode_depth", None)}
    return replace(DEFAULT_LIMITS, **{k: v for k, v in changes.items() if v is not None})


def _cmd_validate(args: argparse.Namespace) -> int:
    import os

    from .validate import format_github, format_json, format_text, validate_paths

    reports = validate_paths(args.paths)
    fmt = args.format or ("github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text")
    text = {"text": format_text, "json": format_json, "github": format_github}[fmt](reports)
    if text:
        print(text)
    failed = any(r.errors or (args.strict and r.warnings) for r in reports)
    return EXIT_INVALID if failed else EXIT_OK


def _cmd_schema(args: argparse.Namespace) -> int:
    from .errors import UsageError
    from .ruleset import nearest
    from .shipped import schema_names, schema_text

    if args.name not in schema_names():
        near = nearest(args.name, schema_names())
        raise UsageError(f"no shipped schema '{args.name}'", hint=f"did you mean '{near}'?" if near else
                         "e.g. ruleset, odds-result, roll-result (each schemas/NAME.schema.json)")
    text = schema_text(args.name)
    if args.output is None:
        print(text, end="")
        return EXIT_OK
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    except OSError as exc:
        raise UsageError(f"cannot write {args.output!r}: {exc.strerror or exc}",
                         hint="give a file path in a folder that exists and you may write to") from None
    return EXIT_OK


def _cmd_new(args: argparse.Namespace) -> int:
    from .starter import new_ruleset

    written = new_ruleset(args.name, args.output, args.copy_of, args.force)
    print("wrote " + " and ".join(written))
    print(f"next: rulesengine validate {written[0]}")
    return EXIT_OK


def _cmd_list(args: argparse.Namespace) -> int:
    from .present.export import summary
    from .ruleset import load, shipped_ids

    rows = [summary(load(rid)) for rid in shipped_ids()]
    if args.json:
        print(_json_text(rows))
    else:
        from .present.text import format_list

        print(format_list(rows))
    return EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    from .present.show import describe_ruleset, describe_runnable
    from .ruleset import load

    rs = load(args.ruleset)
    print(describe_runnable(rs, args.name) if args.name else describe_ruleset(rs))
    return EXIT_OK


def _cmd_export(args: argparse.Namespace) -> int:
    from .present.export import export
    from .ruleset import load

    print(_json_text(export(load(args.ruleset)), ensure_ascii=False))
    return EXIT_OK


def _cmd_roll(args: argparse.Namespace) -> int:
    from .present.text import format_roll
    from .ruleset import load

    rs = load(args.ruleset)
    runnable = rs.runnable(args.name)
    plain, parties = split_inputs(args.assign)
    kwargs: dict[str, Any] = {"seed": args.seed, "faces": args.faces}
    if args.faces is not None and args.seed is not None:
        from .errors import UsageError

        raise UsageError("give --faces or --seed, not both")
    result = runnable.roll(plain, parties=party_list(parties), choose=args.choose, **kwargs)
    if args.json:
        print(_json_text(result.view().to_dict(), ensure_ascii=False))
    else:
        _print_trace(format_roll(result))
    return EXIT_OK


def _cmd_odds(args: argparse.Namespace) -> int:
    from .errors import UsageError
    from .run.sweep_words import choices_of, is_swept
    from .ruleset import load

    rs = load(args.ruleset, _limits(args))
    runnable = rs.runnable(args.name)
    plain, parties = split_inputs(args.assign)
    at_least = [n for group in args.at_least for n in group]
    values = [*plain.values(), *(v for p in parties.values() for v in p.values())]
    # a list whose items read as dice is one dice pool, or a list of a choice input's choices:
    # the inputs are looked at only then (the whole file's model: start-up)
    choices = choices_of(rs.model, args.name) if any("," in v and not is_swept(v) for v in values) else {}
    swept = any(is_swept(v, choices.get(k, ())) for k, v in plain.items()) \
        or any(is_swept(v, choices.get(k, ())) for p in parties.values() for k, v in p.items())
    view = odds_view(args, swept)
    if args.compare:
        if swept:
            raise UsageError("--compare is for one set of inputs, not a sweep",
                             hint="give each swept input one value, or leave --compare out")
        with _progress():
            cases = _compared_cases(args, rs, plain, parties)
        _print_comparison(args, cases, view)
        return EXIT_OK
    if swept:
        return _odds_sweep(args, runnable, plain, parties, choices, at_least)
    if at_least:
        raise UsageError("--at-least N is for a sweep: the odds of one set of inputs show 'at least' for every value",
                         hint=f"sweep an input (e.g. {next(iter(plain), 'skill')}=LO..HI), or leave --at-least out")
    with _progress():
        result = runnable.odds(plain, parties=party_list(parties), given=args.given)
    if args.plot:  # before the table (| head)
        from .present.plots import odds_plot

        _write_plot(args.plot, odds_plot(result))
    if args.json:
        print(_json_text(result.to_dict()))
    else:
        from .present.text import format_odds  # only for text: JSON is the result's own

        print(format_odds(result, csv_out=args.csv, exact=args.exact))
    return EXIT_OK


def _odds_sweep(args: argparse.Namespace, runnable: Any, plain: dict[str, str], parties: dict[int, dict[str, str]],
                choices: Mapping[str, Collection[str]], at_least: list[int]) -> int:
    """``odds`` with a swept input: every value's odds as a table, CSV, JSON or a plot."""
    from .errors import UsageError
    from .run.sweep import sweep

    try:
        with _progress():
            rows = sweep(runnable, plain, parties, args.given, choices)
    except Exception as exc:  # text: the values worked out before the one it stopped at, then the error
        if not args.json:
            from .present.sweep_table import finished_rows  # the text's: JSON is the sweep's own
            if done := finished_rows(exc, args.csv, at_least):
                print(done)
        raise
    if at_least and not rows.numeric():
        raise UsageError(f"--at-least is for a result that is a number, and '{args.name}' has outcomes only",
                         hint="leave --at-least out: each outcome's chance is in every row")
    if args.plot:  # before the table (| head)
        from .present.plots import sweep_plot  # only for --plot: it is a fifth of the start-up

        _write_plot(args.plot, sweep_plot(rows, at_least))
    if args.json:
        print(_json_text(rows.to_dict(at_least)))
    else:
        from .present.sweep_table import format_sweep, sweep_chart
        print(format_sweep(rows, csv_out=args.csv, at_least=at_least))
        chart = "" if args.csv or not sys.stdout.isatty() else sweep_chart(rows, at_least)
        if chart:
            print("\n" + chart)
    return EXIT_OK


def _compared_cases(args: argparse.Namespace, rs: Any, plain: dict[str, str],
                    parties: dict[int, dict[str, str]]) -> list[tuple[str, OddsValue]]:
    """``odds RULESET NAME inputs --compare WORDS …``: each group's name=value words are its
    inputs, a word without '=' the ruleset it is under (run/compare.py decides the rest)."""
    from .errors import UsageError
    from .run.compare import Case, compared_cases
    from .ruleset import load

    others = []
    for words in args.compare:
        refs = [w for w in words if not is_input_word(w)]
        if len(refs) > 1:
            raise UsageError(f"--compare {' '.join(words)}: name one ruleset to compare with, not {len(refs)}",
                             hint="give another --compare for each ruleset")
        over_plain, over_parties = split_inputs([w for w in words if is_input_word(w)])
        others.append(Case(refs[0] if refs else None, over_plain, over_parties))

    def odds_of(case: Case) -> OddsValue:
        ruleset = rs if case.ruleset is None else load(case.ruleset, _limits(args))
        party_inputs = {n: dict(p) for n, p in case.parties.items()}
        return ruleset.runnable(args.name).odds(dict(case.inputs), parties=party_list(party_inputs),
                                                given=args.given).view()

    return compared_cases(Case(None, plain, parties), others, args.ruleset, odds_of)


def _print_comparison(args: argparse.Namespace, cases: list[tuple[str, OddsValue]], view: str) -> None:
    from .present.compare_table import comparison_csv, comparison_json, format_comparison
    from .present.plots import compare_plot

    if args.plot:  # before the table (| head)
        _write_plot(args.plot, compare_plot(cases, view))
    if args.json:
        print(_json_text(comparison_json(cases)))
    elif args.csv:
        print(comparison_csv(cases, view))
    else:
        print(format_comparison(cases, view, exact=args.exact))


def _write_plot(path: str, svg: str) -> None:
    """``--plot FILE.svg``: the chart written to ``path`` (a one-line usage error where it can't be)."""
    from .errors import UsageError

    try:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(svg)
    except OSError as exc:
        raise UsageError(f"cannot write {path!r}: {exc.strerror or exc}",
                         hint="give a file path in a folder that exists and you may write to") from None


def _cmd_serve(args: argparse.Namespace) -> int:
    from .errors import UsageError
    from .limits import MAX_CACHED_WEIGHTS
    from .serve.operations import MAX_BODY_BYTES, Service, ServiceConfig

    if args.drain_checks and args.workers > 1:
        raise UsageError("--drain-checks needs --workers 1", hint="run one worker per replica, as deploy/ does")
    config = ServiceConfig(tuple(args.rulesets), _limits(args), args.time_limit, args.max_body or MAX_BODY_BYTES,
                           tuple(args.cors_origin), args.max_cached or MAX_CACHED_WEIGHTS, args.access_log,
                           args.drain_checks)
    service = Service(config)  # loads and checks --rulesets folders now, before anything listens
    if args.stdio:
        from .serve.stdio import serve_stdio

        # The real streams' bytes: JSON lines, never text meant for a terminal.
        with open(0, "rb", closefd=False) as stdin, open(1, "wb", closefd=False) as stdout:
            return serve_stdio(service, stdin, stdout)
    try:
        import uvicorn  # noqa: F401 (the extra is there)

        from .serve import http
    except ImportError:
        raise UsageError("serving over HTTP needs the 'serve' extra",
                         hint="pip install 'ttrpg-rulesengine[serve]' (--stdio needs nothing more)") from None
    print(f"rulesengine: serving on http://{args.host}:{args.port}/ (playground at /, API at /api, "
          "OpenAPI at /openapi.json, metrics at /metrics); Ctrl-C or SIGTERM stops", file=sys.stderr)
    if args.workers > 1:
        return http.serve_workers(config, args.host, args.port, args.workers)
    return http.run_server(config, service, args.host, args.port)


def _cmd_docs(args: argparse.Namespace) -> int:
    from .errors import UsageError
    from .shipped import doc_title, doc_topics

    topics = doc_topics()
    if not args.topic:
        if args.path:
            raise UsageError("--path needs a TOPIC", hint="e.g. rulesengine docs tutorial --path")
        width = max(map(len, topics), default=0)
        for topic, path in topics.items():
            print(f"{topic:<{width}}  {doc_title(path)}")
        print("\nrulesengine docs TOPIC prints one (Markdown); --path gives its file.")
        return EXIT_OK
    topic = args.topic.removeprefix("docs/").removesuffix(".md")
    if topic not in topics:
        raise UsageError(f"no page of the docs is called {args.topic!r}",
                         hint="one of: " + ", ".join(topics) + "; rulesengine docs lists them")
    if args.path:
        print(topics[topic])
    else:
        print(topics[topic].read_text(encoding="utf-8"), end="")
    return EXIT_OK


COMMANDS = {"dice": _cmd_dice, "validate": _cmd_validate, "schema": _cmd_schema, "list": _cmd_list,
            "show": _cmd_show, "export": _cmd_export, "roll": _cmd_roll, "odds": _cmd_odds,
            "serve": _cmd_serve, "new": _cmd_new, "docs": _cmd_docs}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Everything it prints goes through :class:`echo.TerminalWriter`, so no
    text from a ruleset or an argument can drive the terminal (docs/errors.md)."""
    from .echo import TerminalWriter

    collector = collect_less()  # a command's start-up frees nothing (rulesengine/collector.py)
    out, err = sys.stdout, sys.stderr
    for stream in (out, err):  # "→" in traces must not crash a console that cannot show it
        if isinstance(stream, io.TextIOWrapper):
            try:
                stream.reconfigure(errors="replace")
            except ValueError:
                pass
    sys.stdout, sys.stderr = TerminalWriter(out), TerminalWriter(err)
    store = os.environ.get("RULESENGINE_CACHE")  # --no-cache turns the disk store off for one command
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err
        # the process's own command exits next; one called in-process restores the collector and the store
        leaving() if argv is None else collect_as(collector)
        if argv is not None and os.environ.get("RULESENGINE_CACHE") != store:
            os.environ.pop("RULESENGINE_CACHE") if store is None else os.environ.update(RULESENGINE_CACHE=store)


def _main(argv: Sequence[str] | None) -> int:
    words, protected = protect_leading_minus(list(sys.argv[1:] if argv is None else argv))
    parser = build_parser(command_word(words))
    try:
        args, extra = parser.parse_known_args(words)
        # name=value words after an option (`dice "1d20+b" --odds b=0..5`) are inputs too:
        # argparse stops filling a positional list at the first option.
        if extra and hasattr(args, "assign") and not any(w.startswith("-") for w in extra):
            args.assign = list(args.assign or []) + extra
        elif extra:
            parser.parse_args(words)  # the usual one-line usage error for what is left over
    except SystemExit as exc:
        return int(exc.code or 0)
    if getattr(args, "expression", None) in protected:
        args.expression = protected[args.expression]
    if args.no_cache:
        os.environ["RULESENGINE_CACHE"] = "off"  # read by dice.tree_store, which the commands import
    if args.command == "serve":  # a long-running service collects as Python does
        collect_as()
    if args.version:
        from .version import __version__

        print(f"rulesengine {__version__}")
        return EXIT_OK
    if not args.command:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    as_json = bool(getattr(args, "json", False))
    try:
        return _run(args, as_json)
    except MemoryError:  # a backstop: the budget charges what is held (docs/limits.md)
        pass
    # Out of the handler, the computation's frames and what they held are freed first.
    from .errors import out_of_memory

    refusal = out_of_memory()
    _print_json_error(refusal) if as_json else _print_error(refusal)
    return EXIT_INVALID


def _run(args: argparse.Namespace, as_json: bool) -> int:
    from .errors import RulesEngineError, UsageError

    try:
        return COMMANDS[args.command](args)
    except UsageError as exc:
        if as_json:
            _print_json_error(exc)
        else:
            print(f"rulesengine {args.command}: error: {exc.message}"
                  + (f" ({exc.hint})" if exc.hint else ""), file=sys.stderr)
        return EXIT_USAGE
    except RulesEngineError as exc:
        in_command_words(exc, _limits(args).max_states if hasattr(args, "max_states") else None)
        _print_json_error(exc) if as_json else _print_error(exc)
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except RecursionError:  # pragma: no cover - limits exist so that this cannot happen
        print("rulesengine: error: input nests too deeply", file=sys.stderr)
        return EXIT_INVALID
    except MemoryError:
        raise  # answered by _main, once this frame is gone
    except Exception as exc:  # pragma: no cover - a bug: still no traceback for the user
        from .echo import echo

        print(f"rulesengine: internal error (please report): {type(exc).__name__}: {echo(exc)}",
              file=sys.stderr)
        return EXIT_BUG
