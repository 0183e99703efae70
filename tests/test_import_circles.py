"""No module of the app imports itself back, however far round: issue 39's "zero import
circles". A circle is a set of modules each of which reaches all the others by imports
(a strongly connected component of the import graph), counting imports made inside
functions (grimp reads them all) and leaving out those under ``TYPE_CHECKING``, which
never run, as ``lint-imports`` does.

The circles not broken yet would be named in ``CIRCLES_LEFT`` with what breaks each (none
is left); a circle found outside them fails, and so does a name whose circle has gone
(take it out), so that the list only shrinks.

An import inside a function hides an arrow from whoever reads the module's top, and was
the way the circles were dodged: one stays only where the module's top cannot take it
(Django's app registry, a driver or a slow library only one path needs), and says why
in a comment on its line or the line above.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

import ratings

PROJECT = Path(__file__).resolve().parents[1]

#: Circles not broken yet: each name's modules as they stand, a circle found may hold
#: fewer of them (it shrank), never another. None is left: the last, "the models and the
#: rules they ask", went when who is published moved into models/members.py and the
#: record's rules that read the record beside the models they check (models/events.py,
#: models/record.py).
CIRCLES_LEFT: dict[str, frozenset[str]] = {}


#: The app's own code: the migrations are Django's to write, and left out.
APP_PACKAGES = ("ratings", "clubratings")


def imports_in_functions_unexplained(source: str) -> list[int]:
    """The lines of ``source``'s imports made inside a function (or a method) with no
    comment on their line(s) or on the line above."""
    lines = source.splitlines()
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            # An import's own lines hold no string, so a "#" there starts a comment.
            own = lines[node.lineno - 1 : node.end_lineno]
            above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            if not any("#" in line for line in own) and not above.startswith("#"):
                found.append(node.lineno)
    # A nested function's imports are met again from each function around it: once each.
    return sorted(set(found))


def test_an_import_inside_a_function_needs_a_comment_to_stay():
    source = (
        "def ready():\n"
        "    # Django loads the models first.\n"
        "    from . import signals\n"
        "    import psycopg  # only PostgreSQL's\n"
        "\n"
        "    def inner():\n"
        "        from . import models\n"
    )

    assert imports_in_functions_unexplained(source) == [7]


def test_the_app_imports_inside_functions_only_with_a_reason_said():
    unexplained = [
        f"{path.relative_to(PROJECT)}:{line}"
        for package in APP_PACKAGES
        for path in sorted((PROJECT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for line in imports_in_functions_unexplained(path.read_text(encoding="utf-8"))
    ]

    assert unexplained == [], (
        "imports inside functions with no comment saying why (move them to the module's "
        "top, or say why they cannot go there): " + ", ".join(unexplained)
    )


def import_circles(graph: grimp.ImportGraph) -> set[frozenset[str]]:
    """The graph's circles: for each module, those it imports (however far) that import
    it back (however far), with it; a module in no circle gives none."""
    circles = set()
    for module in graph.modules:
        around = graph.find_upstream_modules(module) & graph.find_downstream_modules(module)
        if around:
            circles.add(frozenset(around | {module}))
    return circles


def test_a_circle_of_imports_is_found_however_far_round():
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]:
        graph.add_import(importer=importer, imported=imported)

    assert import_circles(graph) == {frozenset({"a", "b", "c"})}


def test_the_app_has_no_import_circle_but_those_named_to_break():
    # The checkout under test, not another one the environment's install points at.
    assert Path(ratings.__file__).parent == PROJECT / "ratings"
    graph = grimp.build_graph("ratings", "clubratings", exclude_type_checking_imports=True)

    circles = import_circles(graph)

    unnamed = [c for c in circles if not any(c <= named for named in CIRCLES_LEFT.values())]
    assert unnamed == [], "import circles: " + "; ".join(sorted(map(str, map(sorted, unnamed))))
    broken = [name for name, named in CIRCLES_LEFT.items() if not any(c & named for c in circles)]
    assert broken == [], f"no circle is left of {broken}: take them out of CIRCLES_LEFT"
