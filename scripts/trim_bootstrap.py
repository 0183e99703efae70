"""Bootstrap's stylesheet cut down to the rules the site's pages can use.

The pages use a few dozen of Bootstrap's components and utilities; the whole file is
232 KB, most of it never applied (Chromium's coverage: about 90 % unused on any page).
This keeps a rule when every class its selector names is a word found in the site's
templates, Python and scripts (and in the templates of crispy-bootstrap5 and
django-tables2, which draw forms and tables with Bootstrap's classes), as PurgeCSS does;
rules without classes (the reboot, :root's variables) stay whole. A class the site builds
from parts (``alert-{{ message.tags }}``) is kept by ``ALWAYS``.

    python scripts/trim_bootstrap.py          # writes static/vendor/bootstrap/bootstrap.site.css
    python scripts/trim_bootstrap.py --check  # exits 1 when that file is out of date

tests/web/test_static_assets.py runs the check, so a class a template starts to use
cannot go missing from the stylesheet unnoticed.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "static/vendor/bootstrap/bootstrap.min.css"
TARGET = ROOT / "static/vendor/bootstrap/bootstrap.site.css"

#: Classes made from parts at run time: a message's level, a badge's colour.
ALWAYS = re.compile(
    r"^(alert|text-bg|bg|btn|btn-outline|text|border)-"
    r"(primary|secondary|success|info|warning|danger|light|dark)$"
)

CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
WORD = re.compile(r"[\w-]+")
#: At-rules whose block holds rules (kept when any rule inside is kept).
NESTING = ("@media", "@supports", "@container", "@layer")


def site_words() -> set[str]:
    """Every word of the files that can put a class on a page."""
    from importlib.util import find_spec

    def package(name: str) -> Path:
        spec = find_spec(name)
        assert spec is not None and spec.origin is not None, name
        return Path(spec.origin).parent

    places = [
        *ROOT.glob("templates/**/*.html"),
        *ROOT.glob("ratings/**/*.py"),
        *ROOT.glob("static/js/*.js"),
        *package("crispy_bootstrap5").glob("templates/bootstrap5/**/*.html"),
        *package("django_tables2").glob("templates/django_tables2/bootstrap5*.html"),
        *package("django_tables2").glob("templates/django_tables2/bootstrap4*.html"),
    ]
    words: set[str] = set()
    for path in places:
        words.update(WORD.findall(path.read_text(encoding="utf-8")))
    return words


def blocks(css: str) -> Iterator[tuple[str, str]]:
    """The top-level (prelude, body) pairs of a stylesheet; a statement (``@charset``)
    comes with body None's stand-in, the empty string after a ';'."""
    i, n = 0, len(css)
    while i < n:
        start = i
        quote = ""
        while i < n:
            c = css[i]
            if quote:
                if c == quote:
                    quote = ""
            elif c in "'\"":
                quote = c
            elif c == "{" or c == ";":
                break
            i += 1
        prelude = css[start:i].strip()
        if i >= n:
            return
        if css[i] == ";":
            yield prelude + ";", ""
            i += 1
            continue
        depth, i, body_start = 1, i + 1, i + 1
        quote = ""
        while i < n and depth:
            c = css[i]
            if quote:
                if c == quote:
                    quote = ""
            elif c in "'\"":
                quote = c
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            i += 1
        yield prelude, css[body_start : i - 1]


def selector_kept(selector: str, words: set[str]) -> bool:
    classes = CLASS.findall(re.sub(r"\[[^\]]*\]", "", selector))
    return all(c in words or ALWAYS.match(c) for c in classes)


def trim(css: str, words: set[str]) -> str:
    out: list[str] = []
    for prelude, body in blocks(css):
        if body == "" and prelude.endswith(";"):
            out.append(prelude)
        elif prelude.startswith(NESTING):
            inner = trim(body, words)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            out.append(f"{prelude}{{{body}}}")  # @font-face, @keyframes: small, kept
        else:
            kept = [s for s in split_selectors(prelude) if selector_kept(s, words)]
            if kept:
                out.append(f"{','.join(kept)}{{{body}}}")
    return "".join(out)


def split_selectors(prelude: str) -> list[str]:
    """A selector list split at its top-level commas (not those inside :is(...))."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(prelude):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return [p.strip() for p in parts if p.strip()]


def build() -> str:
    css = SOURCE.read_text(encoding="utf-8")
    banners = re.findall(r"/\*!.*?\*/", css, flags=re.S)  # the licence, kept
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    note = "/* Trimmed to the classes this site uses by scripts/trim_bootstrap.py: do not edit. */"
    trimmed = trim(css, site_words())
    charset = '@charset "UTF-8";'
    if trimmed.startswith(charset):
        trimmed = trimmed.removeprefix(charset)
        return f"{charset}{''.join(banners)}\n{note}\n{trimmed}\n"
    return f"{''.join(banners)}\n{note}\n{trimmed}\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the file is stale")
    args = parser.parse_args()
    css = build()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != css:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run scripts/trim_bootstrap.py")
            return 1
        return 0
    TARGET.write_text(css, encoding="utf-8")
    where = TARGET.relative_to(ROOT)
    print(f"{SOURCE.stat().st_size} bytes -> {len(css.encode())} bytes: {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
