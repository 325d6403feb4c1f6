"""The package's imports run one way: dice ← rules ← run ← presentation ← facade/CLI.

ARCHITECTURE.md's layering, checked on the source itself with :mod:`ast` (every import,
function-level ones included): no module imports a higher layer, no two modules import each
other (directly or round a longer cycle), and no module imports another module's private
(``_name``) names. Adding a module outside the known layers fails here until it is placed.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rulesengine"

# Lower numbers are lower layers; a module may import its own layer and the ones below.
LAYERS: dict[str, int] = {
    "errors": 0, "limits": 0, "text": 0, "codes": 0, "echo": 0, "numerals": 0, "shipped": 0, "version": 0, "cache": 0, "exact_text": 0, "records": 0, "disk_store": 0, "collector": 0,
    "dice": 1,
    "rules": 2,
    "run": 3,
    "present": 4,
    "ruleset": 5, "validate": 6, "starter": 6, "cli": 7, "arguments": 7, "cli_hints": 7, "serve": 7, "__main__": 8, "__init__": 8,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(mod: str) -> int:
    head = mod.split(".")[0]
    assert head in LAYERS, f"rulesengine.{mod} is in no layer: add it to LAYERS in {__file__}"
    return LAYERS[head]


def resolve(mod: str, path: Path, node: ast.ImportFrom | ast.Import) -> list[tuple[str, list[str]]]:
    """(imported module, names taken from it) for one import statement, package-internal only."""
    known = modules()
    out = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith("rulesengine."):
                out.append((alias.name.removeprefix("rulesengine."), []))
        return out
    if node.level:
        base = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        target = ".".join([p for p in base if p] + ([node.module] if node.module else []))
    elif node.module and (node.module == "rulesengine" or node.module.startswith("rulesengine.")):
        target = node.module.removeprefix("rulesengine").removeprefix(".")
    else:
        return out
    names = [a.name for a in node.names]
    submodules = [n for n in names if (f"{target}.{n}" if target else n) in known]
    for n in submodules:
        out.append((f"{target}.{n}" if target else n, []))
    rest = [n for n in names if n not in submodules]
    if rest:
        out.append((target or "__init__", rest))
    return out


def import_edges() -> list[tuple[str, str, list[str], int]]:
    edges = []
    for mod, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target, names in resolve(mod, path, node):
                    edges.append((mod, target, names, node.lineno))
    return edges


def test_every_import_points_down_the_layers():
    wrong = [f"rulesengine/{m.replace('.', '/')}.py:{line} imports rulesengine.{t} (a higher layer)"
             for m, t, _, line in import_edges() if layer(t) > layer(m)]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles():
    graph: dict[str, set[str]] = {}
    for m, t, _, _ in import_edges():
        if t != m and not m.startswith(t + ".") and not (t == "__init__"):
            graph.setdefault(m, set()).add(t)
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" → ".join(stack[stack.index(nxt):] + [node, nxt]) if nxt in stack
                              else f"{node} → {nxt}")
            elif nxt not in state:
                visit(nxt, stack + [node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not cycles, "\n".join(cycles)


def test_no_module_imports_another_modules_private_names():
    wrong = [f"rulesengine/{m.replace('.', '/')}.py:{line} imports {n} from rulesengine.{t}"
             for m, t, names, line in import_edges() if t != m
             for n in names if n.startswith("_") and not n.startswith("__")]
    assert not wrong, "\n".join(wrong)


def test_the_layer_table_knows_every_module():
    for mod in modules():
        layer(mod)


def test_every_package_of_the_source_is_in_the_wheel():
    """pyproject.toml lists the packages explicitly (two of them are data folders mapped
    from the repository's top level): a new layer or sub-package must be listed too, or a
    regular install would lack it while an editable one still works."""
    import tomllib

    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    on_disk = {".".join(("rulesengine", *p.parent.relative_to(PACKAGE).parts))
               for p in PACKAGE.rglob("__init__.py")}
    assert on_disk <= listed, sorted(on_disk - listed)
