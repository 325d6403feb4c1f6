"""The seed rulesets' checks and procedures as bench/run.py times them, with realistic inputs.

One place for every input the benchmark gives a ruleset, used by run.py (rolls, warm odds)
and passed to worker_ours.py as JSON (cold odds). Rulesets change while the benchmark
stays, so checks and procedures are *discovered* from each loaded ruleset; what is
configured here is only the values: a realistic value for every input name a ruleset uses,
and per-party overrides for contests, teams and helpers. A check or procedure with a
required input that has no value here is reported in the table as a configuration gap
(never skipped silently), naming the input to add.
"""

from __future__ import annotations

from typing import Any

# The check each ruleset is represented by (rolled against d20, cold odds), its inputs, and
# the sides of the dice it rolls with those inputs (the floor: plain random.randint calls).
SEED_CHECKS: dict[str, dict[str, Any]] = {
    "gurps-4e": {"check": "success_roll", "inputs": {"skill": 12}, "dice": [6, 6, 6]},
    "rps": {"check": "skill_check", "inputs": {"skill": 8, "attribute": 6}, "dice": [10, 10]},
    "cyberpunk-3d6": {"check": "skill_test",
                      "inputs": {"characteristic": 6, "skill": 5, "dn": "average"},
                      "dice": [6, 6, 6]},
    "spycraft-2e": {"check": "skill_check",
                    "inputs": {"bonus": 8, "ranks": 5, "dc": 15, "action_dice": 1},
                    "dice": [20, 4]},
    "mudd": {"check": "action",
             "inputs": {"pool": "d8/d4/d4", "precision_target": 8, "impact_target": 2},
             "dice": [8, 4, 4]},
}

# A realistic value for every input name of each ruleset's other checks and procedures
# (inputs with defaults keep them unless named here).
VALUES: dict[str, dict[str, Any]] = {
    "gurps-4e": {"skill": 12, "attribute": 12, "attribute_default": -5},
    "rps": {"skill": 8, "attribute": 6, "goal": 10},
    "cyberpunk-3d6": {"characteristic": 6, "skill": 5, "dn": "average", "steps": 5,
                      "failure_steps": 4, "all_must_succeed": False},
    "spycraft-2e": {"bonus": 8, "ranks": 5, "dc": 15, "action_dice": 1, "all_must_succeed": False},
    "mudd": {"pool": "d8/d4/d4", "precision_target": 8, "impact_target": 2},
}

# Per-party overrides: party 1 (the active side, the leader), party 2, party 3.
PARTIES: dict[str, list[dict[str, Any]]] = {
    "gurps-4e": [{}, {"skill": 10}, {"skill": 11}],
    "rps": [{}, {"skill": 6, "attribute": 7}, {"skill": 7, "attribute": 5}],
    "cyberpunk-3d6": [{}, {"characteristic": 5, "skill": 4}, {"characteristic": 7, "skill": 3}],
    "spycraft-2e": [{}, {"bonus": 6, "ranks": 4}, {"bonus": 10, "ranks": 7}],
    "mudd": [{}, {"pool": "d6/d6"}, {"pool": "d10/d4"}],
}

# Which procedure of each kind is timed cold (fresh processes cost seconds); if it is not
# there, the first one of that kind found in the seed rulesets, in SEED_CHECKS order.
COLD_PROCEDURES = {"contest": ("gurps-4e", "quick_contest"), "extended": ("cyberpunk-3d6", "extended"),
                   "team": ("cyberpunk-3d6", "team"), "assisted": ("cyberpunk-3d6", "complementary")}

GROUP_SIZE = {"contest": 2, "team": 3, "assisted": 3}  # parties, clamped to what a procedure allows


class ConfigGap(Exception):
    """A required input has no value in this file."""


def _pick(specs, values: dict[str, Any], what: str) -> dict[str, Any]:
    out = {}
    for spec in specs:
        if spec.name in values:
            out[spec.name] = values[spec.name]
        elif not (spec.has_default or spec.optional):
            raise ConfigGap(f"no value for required input '{spec.name}' of {what} "
                            "(add it to VALUES in bench/seed_cases.py)")
    return out


def party_values(ruleset: str, i: int) -> dict[str, Any]:
    overrides = PARTIES.get(ruleset, [{}])
    return {**VALUES.get(ruleset, {}), **overrides[i % len(overrides)]}


def check_call(rs, name: str) -> dict[str, Any]:
    """The keyword arguments of ``rs.check(name).odds`` / ``.roll``: {"inputs": {...}}."""
    chk = rs.check(name)
    seed = SEED_CHECKS.get(rs.id)
    if seed and seed["check"] == name:
        return {"inputs": dict(seed["inputs"])}
    return {"inputs": _pick(chk.model.inputs, VALUES.get(rs.id, {}), f"check '{name}'")}


def procedure_call(rs, name: str) -> dict[str, Any]:
    """The keyword arguments of ``rs.procedure(name).odds``: inputs and/or parties."""
    proc = rs.procedure(name)
    model, st = proc.proc, proc.proc.settings
    kind = model.kind
    values = VALUES.get(rs.id, {})
    own = _pick(model.inputs, values, f"procedure '{name}'")
    check_inputs = rs.check(model.check).model.inputs
    if kind == "extended":
        return {"inputs": {**own, **_pick(check_inputs, values, f"check '{model.check}'")}}
    # Each kind's typed spec (rules/procedures/) says how many parties it takes.
    if kind == "assisted":
        n = 1 + max(st.min_helpers, min(GROUP_SIZE["assisted"] - 1, st.max_helpers))
    else:
        n = max(st.min_parties, min(GROUP_SIZE.get(kind, 2), st.max_parties))
    parties = []
    for i in range(n):
        specs = check_inputs
        if kind == "assisted" and i > 0:
            specs = rs.check(st.helper_check).model.inputs
        parties.append(_pick(specs, party_values(rs.id, i), f"party {i + 1} of '{name}'"))
    call: dict[str, Any] = {"parties": parties}
    if model.inputs or kind != "contest":
        call["inputs"] = own
    return call


def describe_call(call: dict[str, Any]) -> str:
    """A short, readable form of the inputs for the table."""
    def kv(d: dict) -> str:
        return " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in d.items())

    parts = []
    if call.get("inputs"):
        parts.append(kv(call["inputs"]))
    for i, p in enumerate(call.get("parties") or []):
        parts.append(f"p{i + 1}: {kv(p)}")
    return "; ".join(parts)
