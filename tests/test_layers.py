"""The layers (pyproject.toml's [tool.importlinter] contracts, `lint-imports` in `make
lint`) hold, and an import the wrong way breaks them.

Each case lints a scratch copy of the project, so that the reversed import is written
nowhere but in tmp_path. import-linter runs in a process of its own: this one has the
real ``ratings`` imported already, and would be asked about it instead of the copy.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """The project's packages and contracts, copied."""
    for package in ("ratings", "clubratings"):
        shutil.copytree(
            PROJECT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(PROJECT / "pyproject.toml", tmp_path)
    return tmp_path


def lint(where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_projects_imports_keep_every_contract(scratch):
    linted = lint(scratch)

    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert "0 broken" in linted.stdout


@pytest.mark.parametrize(
    ("module", "reversed_import", "broken"),
    [
        # The engine asking the record for something.
        ("ratings/engine/reversed.py", "from ratings.models import Member", "ratings.engine"),
        # The record asking a page for its rows.
        ("ratings/models/reversed.py", "from ratings.pages import lists", "ratings.models"),
        # A service writing the demo club's names in: the demo sits above the services.
        ("ratings/services/reversed.py", "from ratings.demo import club", "ratings.services"),
        # A page of the club's showing a generated history: the commands' alone.
        (
            "ratings/views/reversed.py",
            "from ratings.histories import generated",
            "ratings.views",
        ),
        # One ripple reaching into the other (written at the end of the real module).
        (
            "ratings/services/period_ripple.py",
            "from ratings.services import ripple",
            "ratings.services.period_ripple",
        ),
    ],
)
def test_an_import_against_the_layers_fails_the_lint(scratch, module, reversed_import, broken):
    with (scratch / module).open("a") as file:
        file.write(f"\n{reversed_import}  # reversed\n")

    linted = lint(scratch)

    assert linted.returncode == 1, linted.stdout + linted.stderr
    assert "BROKEN" in linted.stdout
    assert f"{broken} is not allowed to import" in linted.stdout


#: pytest-django's fixtures that open the database.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
    "client",
    "async_client",
    "admin_client",
    "admin_user",
    "django_user_model",
}


def test_the_engines_tests_use_no_database() -> None:
    """CI runs tests/engine on SQLite only (.ci/run): they could not differ on PostgreSQL
    while none of them asks for a database (pytest-django blocks it to any test that does
    not), nor does the engine import Django (the contract above)."""
    import ast

    asking = []
    for path in sorted((PROJECT / "tests" / "engine").glob("*.py")):
        text = path.read_text()
        if "django_db" in text:
            asking.append(f"{path.name}: django_db")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = {arg.arg for arg in node.args.args + node.args.kwonlyargs}
                found = names & DATABASE_FIXTURES
                asking += [f"{path.name}: {node.name}({name})" for name in found]
    assert asking == []
