"""No module of the app imports itself back, however far round: issue 39's "zero import
circles". A circle is a set of modules each of which reaches all the others by imports
(a strongly connected component of the import graph), counting imports made inside
functions (grimp reads them all) and leaving out those under ``TYPE_CHECKING``, which
never run, as ``lint-imports`` does.

The circles not broken yet would be named in ``CIRCLES_LEFT`` with what breaks each (none
is left); a circle found outside them fails, and so does a name whose circle has gone
(take it out), so that the list only shrinks.
"""

from __future__ import annotations

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
