"""docs/architecture.md names the code as it is: every module path it gives exists.

A path is written whole (``ratings/services/runs.py``, ``clubratings/cache.py``, a test
or a script) or from the app's package down (``services/runs.py``, ``views/common.py``),
read in ``ratings/``.
"""

from __future__ import annotations

import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
ARCHITECTURE = PROJECT / "docs" / "architecture.md"
#: The folders a path is written from the project's top in.
WHOLE = ("ratings", "clubratings", "tests", "scripts")

#: A module's path: folders of lower-case words, a ``.py`` file; a placeholder
#: (``<system>.py``) is no path.
_MODULE_PATH = re.compile(r"(?<![\w/.<])((?:[a-z_][a-z0-9_]*/)+[a-z_][a-z0-9_]*\.py)\b")


def module_paths(text: str) -> set[str]:
    return set(_MODULE_PATH.findall(text))


def where(path: str) -> Path:
    """The file a path names: whole from the project, or else within ``ratings/``."""
    whole = PROJECT / path
    return whole if path.split("/")[0] in WHOLE else PROJECT / "ratings" / path


def test_module_paths_are_read_whole_or_from_the_app_down():
    text = "`ratings/engine/base.py`, `services/runs.py`, `ratings/engine/<system>.py`"

    assert module_paths(text) == {"ratings/engine/base.py", "services/runs.py"}


def test_every_module_the_architecture_names_exists():
    named = module_paths(ARCHITECTURE.read_text(encoding="utf-8"))

    missing = sorted(path for path in named if not where(path).is_file())
    assert named, "no module path found: the pattern no longer reads the document"
    assert missing == [], f"docs/architecture.md names modules that do not exist: {missing}"
