"""The words of `show`: a ruleset's tables, checks and procedures, and one check or procedure.

Presentation only: nothing here changes what a check means. Each procedure kind's own
lines come from one small function per kind (``PROCEDURE_TEXT``).
"""

from __future__ import annotations

from ..run.inputs import describe_input
from ..rules.model import Grid, Ladder, Ranges, name_with_label


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
        lines.append(f"  {name_with_label(name, c.label)}" + (f": {c.description}" if c.description else ""))
    if m.procedures:
        lines.append("\nprocedures:")
        for name, p in m.procedures.items():
            lines.append(f"  {name_with_label(name, p.label)} ({p.kind} of {p.check})"
                         + (f": {p.description}" if p.description else ""))
    lines.append(f"\n`rulesengine show {m.id} NAME` describes one check or procedure.")
    return "\n".join(lines)


def describe_runnable(rs, name: str) -> str:
    """`show RULESET NAME`: one check or procedure in words."""
    rs.runnable(name)  # raises a helpful error for an unknown name
    if name in rs.model.procedures:
        return _describe_procedure(rs.model, name)
    return _describe_check(rs.model, name)


def _describe_procedure(m, name: str) -> str:
    p = m.procedures[name]
    article = "an" if p.kind[0] in "aeiou" else "a"
    lines = [f"{m.id} / {name_with_label(name, p.label)}: {article} {p.kind} check made of {p.check}"]
    if p.description:
        lines.append(p.description)
    if p.rules:
        lines.append("rules: " + ", ".join(p.rules))
    if p.inputs:
        lines.append("inputs:")
        lines += [f"  {describe_input(i)}" for i in p.inputs]
    lines += PROCEDURE_TEXT[p.kind](p)
    if p.report:
        lines.append("reports when it ends: " + ", ".join(f"{n} = {e.text}" for n, e in p.report))
    return "\n".join(lines)


def _describe_check(m, name: str) -> str:
    """A check in words, in the order it is worked out: one small function per part of it
    (``CHECK_TEXT``), each giving the lines of its part, none when the check has no such part."""
    c = m.checks[name]
    return "\n".join(line for part in CHECK_TEXT for line in part(m, c))


def _check_heading(m, c) -> list[str]:
    lines = [f"{m.id} / {name_with_label(c.name, c.label)}"]
    if c.description:
        lines.append(c.description)
    if c.rules:
        lines.append("rules: " + ", ".join(c.rules))
    lines.append("inputs:")
    lines += [f"  {describe_input(i)}" for i in c.inputs] or ["  (none)"]
    return lines


def _let_text(let) -> str:
    if let.expr is not None:
        return f"  {let.name} = {let.expr.text}"
    return f"  {let.name} = the best of: " + "; ".join(
        (f"{cand.label}: " if cand.label else "") + cand.value.text
        + (f" (if {cand.when.text})" if cand.when else "")
        for cand in let.best_of)


def _values_before_text(m, c) -> list[str]:
    before = [_let_text(let) for let in c.lets if not let.after_roll]
    return ["values:", *before] if before else []


def _gate_text(g) -> str:
    if g.outcome:
        act = f"the outcome is {g.outcome}" + (f" with result {g.result.text}" if g.result else "")
    else:
        act = "use " + ", ".join(f"{k} = {e.text}" for k, e in g.rolls) + " instead of rolling"
    return f"before rolling, if {g.when.text}: {act}" + (f" ({g.reason})" if g.reason else "")


def _gates_text(m, c) -> list[str]:
    return [_gate_text(g) for g in c.gates]


def _secret_text(m, c) -> list[str]:
    if c.secret is None:
        return []
    return [f"secret (the GM rolls, only the GM sees) when {c.secret.text}"]


def _roll_text(m, c) -> list[str]:
    return ["roll: " + "; ".join(f"{n} = {e.text}" for n, e in c.rolls)]


def _values_after_text(m, c) -> list[str]:
    after = [_let_text(let) for let in c.lets if let.after_roll]
    return ["then:", *after] if after else []


def _choose_text(m, c) -> list[str]:
    ch = c.choose
    if ch is None:
        return []
    pick = ch.pick if ch.pick_expr is None else ch.pick_expr.text
    lines = [f"choose {pick} dice of {ch.source}: " + ", ".join(f"{k} = {e.text}" for k, e in ch.values)]
    if ch.prefer is not None:
        lines.append(f"  preferring choices where {ch.prefer.text}, then the largest {', '.join(ch.order)}")
    return lines


def _result_text(m, c) -> list[str]:
    return [] if c.result is None else [f"result = {c.result.text}"]


def _outcome_text(o) -> str:
    cond = f"if {o.when.text}" if o.when else "otherwise"
    change = f"; result becomes {o.result.text}" if o.result is not None else ""
    counts = (("success" if o.success else "not a success") if isinstance(o.success, bool)
              else f"a success when {o.success.text}")
    return f"  {name_with_label(o.name, o.label)} ({counts}) {cond}{change}"


def _outcomes_text(m, c) -> list[str]:
    return ["outcomes (the first that applies):", *(_outcome_text(o) for o in c.outcomes)]


def _tags_text(m, c) -> list[str]:
    return [f"tag {t.name} when {t.when.text}" for t in c.tags]


def _tiers_text(m, c) -> list[str]:
    if not c.tiers:
        return []
    return [f"the result is named by the tiers of {c.tiers}:",
            *("  " + x.strip() for x in describe_table(m.tables[c.tiers]))]


def _report_text(m, c) -> list[str]:
    return ["also reported: " + ", ".join(c.report)] if c.report else []


CHECK_TEXT = (_check_heading, _values_before_text, _gates_text, _secret_text, _roll_text, _values_after_text,
              _choose_text, _result_text, _outcomes_text, _tags_text, _tiers_text, _report_text)
"""The parts of a check's `show`, in the order the check is worked out: each a small function
of the ruleset model and the check, giving its lines."""


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


def _success_words(success) -> str:
    if isinstance(success, bool):
        return "success" if success else "not a success"
    return "success if " + success.text


def _group_text(p) -> list[str]:
    st = p.settings
    lines = [f"every member makes {p.check}"]
    if st.best_by:
        lines.append("the best member: the highest " + ", then ".join(e.text for e in st.best_by))
    lines += [f"tally over the members: {k} = sum of {e.text}" for k, e in st.tally.items()]
    if st.outcomes:
        lines.append("the group's outcome (the first that applies):")
        lines += [f"  {o.name} ({_success_words(o.success)})"
                  + (f" if {o.when.text}" if o.when is not None else " otherwise") for o in st.outcomes]
    else:
        lines.append("the group's outcome: the best member's")
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
                  "extended": _extended_text, "group": _group_text}
"""A procedure kind's own lines of `show`: one small function per kind."""
