"""Views only handle HTTP: what a page shows is built in ``ratings.pages``, what it writes
in ``ratings.services``. A view module that imports another view module has page building
(or a write) in the wrong place, so no view module imports another but ``views.common``
(the HTTP helpers they share)."""

from __future__ import annotations

import ast
from pathlib import Path

import ratings.views

VIEWS = Path(ratings.views.__file__).parent


def _view_modules_imported(path: Path) -> set[str]:
    """The modules of ``ratings.views`` that the module at ``path`` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 1 and module:  # from .x import y
                found.add(module.split(".")[0])
            elif node.level == 1:  # from . import x
                found.update(alias.name for alias in node.names)
            elif node.level == 2 and module.startswith("views"):  # from ..views.x import y
                found.update(_named(module, node.names))
            elif node.level == 0 and module.startswith("ratings.views"):
                found.update(_named(module.removeprefix("ratings."), node.names))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ratings.views."):
                    found.add(alias.name.split(".")[2])
    return found


def _named(module: str, names: list[ast.alias]) -> set[str]:
    """``views.x`` names module x; ``views`` alone names the modules it imports."""
    parts = module.split(".")
    return {parts[1]} if len(parts) > 1 else {alias.name for alias in names}


def test_no_view_module_imports_another_but_common():
    modules = {path.stem for path in VIEWS.glob("*.py")} - {"__init__"}
    crossing = sorted(
        (path.stem, imported)
        for path in VIEWS.glob("*.py")
        for imported in _view_modules_imported(path) & modules
        if imported != "common"
    )
    assert crossing == []


def test_the_import_check_sees_a_view_importing_another(tmp_path):
    module = tmp_path / "a_view.py"
    module.write_text(
        "from .officer_rating import change_rows\nfrom ..views.lists import published_list\n"
    )
    assert _view_modules_imported(module) == {"officer_rating", "lists"}
