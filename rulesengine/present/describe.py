"""Words, tables and JSON for rulesets: `show`, `export`, and the text of `roll` and `odds`.

Presentation only: nothing here changes what a check means. Kept apart from the engine so
the engine's results stay plain data that front ends format their own way.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from ..exact_text import fraction_display, fraction_text
from ..run.check import CheckOdds, CheckResult, describe_input
from ..dice.dist import shared_budget
from ..errors import LimitError, RulesEngineError, UsageError
from ..dice import ast
from ..rules.model import Expr, Grid, Ladder, Ranges, Tiers
from ..dice.trace import format_value
from ..limits import MAX_SWEEP  # still importable from here, as before


# ---- roll and odds -----------------------------------------------------------------------------


def _v(value: Any) -> str:
    value = getattr(value, "total", value)
    if value is None:
        return "-"
    return format_value(value) if not hasattr(value, "text") else value.text()


def format_roll(result: Any) -> str:
    from ..run.procedures import AssistedResult, ContestResult, ExtendedResult, TeamResult

    if isinstance(result, (ContestResult, TeamResult, AssistedResult)):
        return f"{result.ruleset} / {result.procedure}\n{result.trace}"
    if isinstance(result, ExtendedResult):
        inputs = ", ".join(f"{k}={_v(v)}" for k, v in result.inputs.items())
        return f"{result.ruleset} / {result.procedure}\ninputs: {inputs}\n{result.trace}"
    r: CheckResult = result
    lines = [f"{r.ruleset} / {r.check}" + ("   (secret: the GM rolls, only the GM sees)" if r.secret else "")]
    lines.append("inputs: " + ", ".join(f"{k}={_v(v)}" for k, v in r.inputs.items()))
    lines.extend(r.trace.splitlines())
    if r.choices:
        lines.append("choices: " + "; ".join(
            f"{'+'.join(map(str, c.faces))} → " + ", ".join(f"{k} {_v(v)}" for k, v in c.values.items())
            + (" *" if c.preferred else "") for c in r.choices))
    for k, v in r.values.items():
        lines.append(f"{k}: {_v(v)}")
    lines.append(f"result: {_v(r.result)}" + (f" ({r.tier})" if r.tier else ""))
    lines.append(f"outcome: {r.outcome} ({'a success' if r.success else 'not a success'})")
    if r.tags:
        lines.append("tags: " + ", ".join(r.tags))
    if r.reason:
        lines.append(f"reason: {r.reason}")
    return "\n".join(lines)


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}"


def _bar(p: Fraction, peak: Fraction) -> str:
    return "#" * round(40 * p / peak) if peak else ""


def format_odds(odds: Any, csv_out: bool = False) -> str:
    outcomes: dict[str, Fraction] = odds.outcomes
    result = getattr(odds, "result_distribution", None) or getattr(odds, "winner_result", None) \
        or getattr(odds, "rounds_distribution", {})
    if csv_out:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["kind", "name", "exact", "probability"])
        for n, p in outcomes.items():
            w.writerow(["outcome", n, fraction_text(p), float(p)])
        for v, p in result.items():
            w.writerow(["result", _v(v), fraction_text(p), float(p)])
        return buf.getvalue().rstrip("\n")
    name = getattr(odds, "procedure", None) or getattr(odds, "check", "")
    lines = [f"{odds.ruleset} / {name}"]
    inputs = getattr(odds, "inputs", None)
    if inputs:
        lines.append("inputs: " + ", ".join(f"{k}={_v(v)}" for k, v in inputs.items()))
    exact = {n: fraction_display(p) for n, p in outcomes.items()}
    width = max([10] + [len(n) for n in outcomes])
    ewidth = max([5] + [len(e) for e in exact.values()])
    peak = max(outcomes.values(), default=Fraction(0))
    lines.append(f"{'outcome':<{width}}  {'exact':>{ewidth}}        %")
    for n, p in outcomes.items():
        lines.append(f"{n:<{width}}  {exact[n]:>{ewidth}}  {_pct(p):>7}  {_bar(p, peak)}")
    success = getattr(odds, "success", None)
    if isinstance(success, Fraction):
        lines.append(f"{'P(success)':<{width}}  {fraction_display(success):>{ewidth}}  {_pct(success):>7}"
                     "  (all outcomes that count as a success)")
    for label, dist in (("tags", getattr(odds, "tags", {})), ("tiers", getattr(odds, "tiers", {}))):
        if dist:
            lines.append(f"{label}: " + ", ".join(f"{n} {_pct(p)}%" for n, p in dist.items()))
    expected = getattr(odds, "expected_rounds", None)
    if expected is not None:
        lines.append(f"expected rounds: {float(expected):.3f}")
    if result:
        title = {"rounds_distribution": "rounds", "winner_result": "winner's result"}
        kind = "result"
        for attr, t in title.items():
            if getattr(odds, attr, None) is result:
                kind = t
        lines.append("")
        peak = max(result.values())
        vw = max([5] + [len(_v(v)) for v in result])
        lines.append(f"{kind:>{vw}}        %")
        for v, p in result.items():
            lines.append(f"{_v(v):>{vw}}  {_pct(p):>7}  {_bar(p, peak)}")
    truncated = getattr(odds, "truncated", Fraction(0))
    if truncated:
        lines.append(f"truncated: {fraction_display(truncated)} (~{float(truncated):.2g})")
    return "\n".join(lines)


# ---- sweeps ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    variables: tuple[str, ...]
    rows: tuple[tuple[tuple[int, ...], Any], ...]  # (values, odds)

    def to_dict(self) -> list[dict[str, Any]]:
        out = []
        for values, odds in self.rows:
            d = odds.to_dict()
            d["sweep"] = dict(zip(self.variables, values))
            out.append(d)
        return out


def _range(name: str, text: str) -> list[int]:
    lo, _, hi = text.partition("..")
    try:
        a, b = int(lo), int(hi)
    except ValueError:
        raise UsageError(f"{name}={text!r}: a sweep is LO..HI with whole numbers", hint=f"e.g. {name}=3..18") from None
    if a > b:
        raise UsageError(f"{name}={text!r}: LO is above HI", hint=f"e.g. {name}={b}..{a}")
    if b - a + 1 > MAX_SWEEP:
        raise UsageError(f"{name}={text!r} sweeps {b - a + 1:,} values", hint=f"at most {MAX_SWEEP}")
    return list(range(a, b + 1))


def sweep(runnable: Any, plain: dict[str, str], parties: dict[int, dict[str, str]], is_procedure: bool) -> Sweep:
    """The odds of a check or procedure for every combination of the swept inputs.

    MAX_SWEEP bounds how many combinations there are, and the work of all their odds
    together shares one ``max_states`` budget, as one exact-odds computation would: each
    combination may need nearly a whole budget of its own (an extended check over many
    rounds), so counting combinations alone would let a sweep run for an hour. The bound
    is counted in steps, not seconds, so a sweep is refused or not the same way on every
    machine; odds a cache already holds cost nothing."""
    ranges: list[tuple[str, list[int]]] = []
    for k, v in plain.items():
        if ".." in v:
            ranges.append((k, _range(k, v)))
    for i, p in sorted(parties.items()):
        for k, v in p.items():
            if ".." in v:
                ranges.append((f"party{i}.{k}", _range(k, v)))
    if len(ranges) > 2:
        raise UsageError("sweep one or two inputs at a time", hint="give the others single values")
    size = 1
    for _, values in ranges:
        size *= len(values)
    if size > MAX_SWEEP:
        raise UsageError(f"a sweep of {size:,} combinations is too large", hint=f"at most {MAX_SWEEP}")
    combos: list[tuple[int, ...]] = [()]
    for _, values in ranges:
        combos = [c + (v,) for c in combos for v in values]
    if len(combos) > MAX_SWEEP:
        raise UsageError(f"a sweep of {len(combos)} combinations is too large", hint=f"at most {MAX_SWEEP}")
    limits = getattr(runnable, "runner", runnable).limits  # a Check wraps its runner
    rows = []
    with shared_budget(limits.max_states) as total:
        for combo in combos:
            p_inputs = dict(plain)
            party_inputs = {i: dict(p) for i, p in parties.items()}
            for (name, _), value in zip(ranges, combo):
                if name.startswith("party") and "." in name:
                    head, _, key = name.partition(".")
                    party_inputs[int(head[5:])][key] = str(value)
                else:
                    p_inputs[name] = str(value)
            label = ", ".join(f"{n}={v}" for (n, _), v in zip(ranges, combo))
            try:
                if is_procedure:
                    plist = [party_inputs[i] for i in sorted(party_inputs)] or None
                    odds = runnable.odds(p_inputs, parties=plist)
                else:
                    odds = runnable.odds(p_inputs)
            except RulesEngineError as exc:
                if not (isinstance(exc, LimitError) and total.exhausted):
                    raise _at_combination(exc, label) from None
                # The sweep's budget ran out, not this combination's own: say so, at the
                # place in the ruleset where the work stopped.
                what = f"{len(combos):,} combinations" if len(ranges) > 1 else f"{len(combos):,} values"
                raise LimitError(f"a sweep of {what} is too big to work out exactly: their odds together "
                                 f"need more than {total.limit:,} steps (stopped at {label})", "max_states",
                                 exc.location, "sweep fewer values") from None
            rows.append((combo, odds))
    return Sweep(tuple(n for n, _ in ranges), tuple(rows))


def _at_combination(exc: RulesEngineError, label: str) -> RulesEngineError:
    """The same error (its kind, code, position, hint and, for a LimitError, the limit's
    name), its message saying which combination of the sweep it happened at."""
    message = f"at {label}: {exc.message}"
    if isinstance(exc, LimitError):
        return LimitError(message, exc.limit, exc.location, exc.hint, exc.code)
    return type(exc)(message, exc.location, exc.hint, exc.code)


def format_sweep(s: Sweep, csv_out: bool = False) -> str:
    names = list(s.rows[0][1].outcomes) if s.rows else []
    has_success = s.rows and isinstance(getattr(s.rows[0][1], "success", None), Fraction)
    header = list(s.variables) + (["P(success)"] if has_success else []) + names + (["P(failure)"] if has_success else [])

    def cells(odds) -> list[str]:
        probs = [odds.outcomes.get(n, Fraction(0)) for n in names]
        if has_success:
            probs = [odds.success] + probs + [1 - odds.success - odds.truncated]
        return [f"{float(p) * 100:.1f}%" for p in probs]

    if csv_out:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(header)
        for values, odds in s.rows:
            probs = [odds.outcomes.get(n, Fraction(0)) for n in names]
            if has_success:
                probs = [odds.success] + probs + [1 - odds.success - odds.truncated]
            w.writerow(list(values) + [f"{float(p):.6f}" for p in probs])
        return buf.getvalue().rstrip("\n")
    if len(s.variables) == 2 and has_success:
        # A grid: rows the first input, columns the second, cells the chance of success.
        firsts = sorted({v[0] for v, _ in s.rows})
        seconds = sorted({v[1] for v, _ in s.rows})
        table = {v: o for v, o in s.rows}
        lines = [f"P(success) by {s.variables[0]} (rows) and {s.variables[1]} (columns)",
                 " " * 8 + "".join(f"{b:>8}" for b in seconds)]
        for a in firsts:
            lines.append(f"{a:>8}" + "".join(f"{float(table[(a, b)].success) * 100:>7.1f}%" for b in seconds))
        return "\n".join(lines)
    rows = [header] + [[str(v) for v in values] + cells(odds) for values, odds in s.rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows)


# ---- show ------------------------------------------------------------------------------------------


def describe_table(table) -> list[str]:
    if isinstance(table, Ladder):
        return ["  " + ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}" for k, v in table.entries)]
    if isinstance(table, Ranges):
        out = []
        for r in table.rows:
            span = (f"{r.low}–{r.high}" if r.low is not None and r.high is not None and r.low != r.high
                    else f"{r.low}" if r.low is not None and r.low == r.high
                    else f"{r.low}+" if r.low is not None else f"up to {r.high}")
            out.append(f"  {span} → {r.value}")
        return out
    if isinstance(table, Grid):
        width = max(len(label) for label, _ in table.rows)
        out = ["  " + " " * width + "".join(f"{c:>16}" for c in table.columns)]
        out += [f"  {label:<{width}}" + "".join(f"{v:>16}" for v in values) for label, values in table.rows]
        return out
    return [f"  {t.min}+ → {t.label}" + (f" ({t.description})" if t.description else "") for t in table.tiers]


def describe_ruleset(rs) -> str:
    m = rs.model
    src = m.source
    cite = ", ".join(x for x in (src.title, src.author, src.publisher, str(src.year or ""), src.section) if x)
    lines = [f"{m.name} ({m.id} {m.version})", f"source: {cite}"]
    if m.description:
        lines.append(m.description)
    if m.tables:
        lines.append("\ntables:")
        for name, t in m.tables.items():
            lines.append(f"{name} ({t.kind})" + (f": {t.description}" if t.description else ""))
            lines.extend(describe_table(t))
    lines.append("\nchecks:")
    for name, c in m.checks.items():
        lines.append(f"  {name}: {c.description}" if c.description else f"  {name}")
    if m.procedures:
        lines.append("\nprocedures:")
        for name, p in m.procedures.items():
            lines.append(f"  {name} ({p.kind} of {p.check})" + (f": {p.description}" if p.description else ""))
    lines.append(f"\n`rulesengine show {m.id} NAME` describes one check or procedure.")
    return "\n".join(lines)


def describe_runnable(rs, name: str) -> str:
    m = rs.model
    rs.runnable(name)  # raises a helpful error for an unknown name
    if name in m.procedures:
        p = m.procedures[name]
        article = "an" if p.kind[0] in "aeiou" else "a"
        lines = [f"{m.id} / {name}: {article} {p.kind} check made of {p.check}"]
        if p.description:
            lines.append(p.description)
        if p.rules:
            lines.append("rules: " + ", ".join(p.rules))
        if p.inputs:
            lines.append("inputs:")
            lines += [f"  {describe_input(i)}" for i in p.inputs]
        lines += PROCEDURE_TEXT[p.kind](p)
        return "\n".join(lines)
    c = m.checks[name]
    lines = [f"{m.id} / {name}"]
    if c.description:
        lines.append(c.description)
    if c.rules:
        lines.append("rules: " + ", ".join(c.rules))
    lines.append("inputs:")
    lines += [f"  {describe_input(i)}" for i in c.inputs] or ["  (none)"]
    before = [l for l in c.lets if not l.after_roll]
    after = [l for l in c.lets if l.after_roll]

    def let_text(l) -> str:
        if l.expr is not None:
            return f"  {l.name} = {l.expr.text}"
        return f"  {l.name} = the best of: " + "; ".join(
            (f"{cand.label}: " if cand.label else "") + cand.value.text + (f" (if {cand.when.text})" if cand.when else "")
            for cand in l.best_of)

    if before:
        lines.append("values:")
        lines += [let_text(l) for l in before]
    for g in c.gates:
        act = (f"the outcome is {g.outcome}" + (f" with result {g.result.text}" if g.result else "")
               if g.outcome else "use " + ", ".join(f"{k} = {e.text}" for k, e in g.rolls) + " instead of rolling")
        lines.append(f"before rolling, if {g.when.text}: {act}" + (f" ({g.reason})" if g.reason else ""))
    if c.secret is not None:
        lines.append(f"secret (the GM rolls, only the GM sees) when {c.secret.text}")
    lines.append("roll: " + "; ".join(f"{n} = {e.text}" for n, e in c.rolls))
    if after:
        lines.append("then:")
        lines += [let_text(l) for l in after]
    if c.choose is not None:
        ch = c.choose
        lines.append(f"choose {ch.pick} dice of {ch.source}: " + ", ".join(f"{k} = {e.text}" for k, e in ch.values))
        if ch.prefer is not None:
            lines.append(f"  preferring choices where {ch.prefer.text}, then the largest {', '.join(ch.order)}")
    if c.result is not None:
        lines.append(f"result = {c.result.text}")
    lines.append("outcomes (the first that applies):")
    for o in c.outcomes:
        cond = f"if {o.when.text}" if o.when else "otherwise"
        change = f"; result becomes {o.result.text}" if o.result is not None else ""
        lines.append(f"  {o.name} ({'success' if o.success else 'not a success'}) {cond}{change}")
    for t in c.tags:
        lines.append(f"tag {t.name} when {t.when.text}")
    if c.tiers:
        lines.append(f"the result is named by the tiers of {c.tiers}:")
        lines.extend("  " + x.strip() for x in describe_table(m.tables[c.tiers]))
    if c.report:
        lines.append("also reported: " + ", ".join(c.report))
    return "\n".join(lines)


# ---- export ----------------------------------------------------------------------------------------


def ast_json(node: Any) -> Any:
    """A syntax tree as plain JSON: {"node": "Binary", "op": "+", "left": {...}, ...}."""
    if isinstance(node, tuple):
        return [ast_json(x) for x in node]
    if dataclasses.is_dataclass(node):
        out: dict[str, Any] = {"node": type(node).__name__}
        for f in dataclasses.fields(node):
            if f.name == "span":
                continue
            value = getattr(node, f.name)
            if value is None:
                continue
            out[f.name] = ast_json(value)
        return out
    return node


def _expr(e: Expr | None) -> Any:
    if e is None:
        return None
    return {"text": e.text, "names": sorted(e.names), "ast": ast_json(e.tree)}


def export(rs) -> dict[str, Any]:
    m = rs.model
    tables: dict[str, Any] = {}
    for name, t in m.tables.items():
        if isinstance(t, Ladder):
            body: Any = {"entries": dict(t.entries)}
        elif isinstance(t, Ranges):
            body = {"rows": [{"min": r.low, "max": r.high, "value": r.value} for r in t.rows]}
        elif isinstance(t, Grid):
            body = {"columns": list(t.columns), "rows": {label: list(v) for label, v in t.rows}}
        else:
            body = {"tiers": [{"min": x.min, "label": x.label, "description": x.description} for x in t.tiers]}
        tables[name] = {"kind": t.kind, "description": t.description, **body}

    def inp(i) -> dict[str, Any]:
        return {"type": i.type, "help": i.help, "required": not i.has_default and not i.optional,
                "default": _json_value(i.default) if i.has_default else None, "optional": i.optional,
                "min": i.min, "max": i.max, "choices": list(i.choices) or None,
                "labels": ({"table": i.labels, "column": i.labels_column} if i.labels else None)}

    checks = {}
    for name, c in m.checks.items():
        checks[name] = {
            "description": c.description,
            "rules": list(c.rules),
            "inputs": {i.name: inp(i) for i in c.inputs},
            "let": [{"name": l.name, "after_roll": l.after_roll, "expression": _expr(l.expr),
                     "best_of": [{"value": _expr(x.value), "when": _expr(x.when), "label": x.label} for x in l.best_of]
                     or None} for l in c.lets],
            "gates": [{"when": _expr(g.when), "outcome": g.outcome, "result": _expr(g.result),
                       "rolls": {k: _expr(e) for k, e in g.rolls} or None, "reason": g.reason} for g in c.gates],
            "secret": _expr(c.secret),
            "rolls": {n: _expr(e) for n, e in c.rolls},
            "choose": None if c.choose is None else {
                "from": c.choose.source, "pick": c.choose.pick,
                "values": {k: _expr(e) for k, e in c.choose.values}, "prefer": _expr(c.choose.prefer),
                "order": list(c.choose.order)},
            "result": _expr(c.result),
            "outcomes": [{"name": o.name, "success": o.success, "when": _expr(o.when), "result": _expr(o.result),
                          "description": o.description} for o in c.outcomes],
            "tags": [{"name": t.name, "when": _expr(t.when), "description": t.description} for t in c.tags],
            "report": list(c.report),
            "tiers": c.tiers,
        }
    procedures = {}
    for name, p in m.procedures.items():
        settings = {f.name: _settings_json(getattr(p.settings, f.name)) for f in dataclasses.fields(p.settings)}
        procedures[name] = {"kind": p.kind, "description": p.description, "check": p.check,
                            "rules": list(p.rules), "inputs": {i.name: inp(i) for i in p.inputs}, **settings}
    src = dataclasses.asdict(m.source)
    return {"ruleset": m.id, "name": m.name, "version": m.version, "source": src, "license": m.license,
            "description": m.description, "tables": tables, "checks": checks, "procedures": procedures}


def _json_value(v: Any) -> Any:
    return v if isinstance(v, (int, str, bool)) or v is None else str(v)


def _settings_json(v: Any) -> Any:
    if isinstance(v, Expr):
        return _expr(v)
    if isinstance(v, Mapping):
        return {k: _settings_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_settings_json(x) for x in v]
    return v


def _contest_text(p) -> list[str]:
    st = p.settings
    lines = ["each party makes the check; ranked by " + ", then ".join(e.text for e in st.rank_by)
             + " (highest first)"]
    lines.append("a tie for first: " + (st.ties if isinstance(st.ties, str) else
                                       ", then ".join(f"{t.how} {t.expr.text}" for t in st.ties)))
    if st.winner_result is not None:
        lines.append(f"the winner's result becomes {st.winner_result.text}")
    lines.append(f"parties: give party1.name=value, party2.name=value (inputs of {p.check})")
    return lines


def _team_text(p) -> list[str]:
    st = p.settings
    lines = [f"one member rolls {p.check} for the team: the {st.roller.text} by "
             + (", then ".join(e.text for e in st.rank_by) or "their order")]
    lines += [f"for every member: {k} = {e.text}" for k, e in st.member_values.items()]
    lines.append(f"members: give party1.name=value, party2.name=value (inputs of {p.check})")
    return lines


def _assisted_text(p) -> list[str]:
    st = p.settings
    order = "after the leader's dice (they may use leader_result)" if st.order == "leader_first" \
        else "before the leader rolls"
    lines = [f"helpers make {st.helper_check} {order}; the leader (party1) makes {p.check}"]
    lines += [f"each helper's {k} = {e.text}" for k, e in st.helper_inputs.items()]
    lines += [f"summed over the helpers: {k} = {e.text}" for k, e in st.totals.items()]
    if st.ruin_when is not None:
        lines.append(f"a helper ruins the task when {st.ruin_when.text}")
    lines.append(f"the leader's {st.bonus_to} gets + {st.bonus.text}")
    lines.append(f"helpers: {st.min_helpers} to {st.max_helpers} (party2, party3, ...)")
    return lines


def _extended_text(p) -> list[str]:
    st = p.settings
    lines = ["state: " + ", ".join(f"{k} = {e.text}" for k, e in st.state.items()), "after each check:"]
    for when, sets in st.each_round:
        lines.append(f"  {'if ' + when.text if when else 'otherwise'}: "
                     + ", ".join(f"{k} := {e.text}" for k, e in sets))
    lines.append(f"done when {st.succeed_when.text}")
    if st.fail_when is not None:
        lines.append(f"failed when {st.fail_when.text}")
    lines.append(f"at most {st.max_rounds.text} rounds")
    return lines


PROCEDURE_TEXT = {"contest": _contest_text, "team": _team_text, "assisted": _assisted_text,
                  "extended": _extended_text}
"""A procedure kind's own lines of `show`: one small function per kind."""
