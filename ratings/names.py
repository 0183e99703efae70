"""Names: what a member's or an event's name may hold, and players' names as the club
writes them ("Given Surname", whatever order a file uses). No Django: the TRF reader
uses it too."""

from __future__ import annotations

import unicodedata

#: Invisible characters that hide or reorder text: zero-width space, word joiner, byte
#: order mark, and the bidirectional marks, embeddings, overrides and isolates (a name
#: written backwards on the page, "Trojan source"). The zero-width joiner and non-joiner
#: stay allowed: Persian and the Indic scripts spell names with them.
HIDDEN = frozenset(
    "\u200b\u200e\u200f\u2060\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def hidden_characters(text: str) -> list[str]:
    """The control characters (line breaks, tabs, escapes, DEL...) and the hiding or
    reordering ones in ``text``, each once, in order."""
    found: dict[str, None] = {}
    for char in text:
        if char in HIDDEN or unicodedata.category(char) == "Cc":
            found[char] = None
    return list(found)


def name_problem(name: str) -> str | None:
    """What is wrong with a member's or an event's name, or None. A name made only of
    spaces, zero-width or control characters looks blank on every page and list; one
    holding a control or reordering character shows differently from what is stored
    (an escape sequence in a terminal, a line break in a CSV, a name written backwards)."""
    if name and not any(char.isalnum() for char in name):
        return (
            "A name must contain letters (this one is only spaces, marks or invisible characters)."
        )
    hidden = hidden_characters(name)
    if hidden:
        codes = ", ".join(f"U+{ord(char):04X}" for char in hidden)
        return f"A name cannot hold control or invisible characters (here {codes})."
    return None


def given_surname(name: str) -> str:
    """ "Mirzoev, Azer" and "MIRZOEV, Azer" are "Azer Mirzoev": tournament files write the
    surname first (FIDE's order, often in capitals); the club's pages and lists write the
    given name first. A name without a comma is left as written (its order is unknown)."""
    name = " ".join(name.split())
    surname, comma, given = name.partition(",")
    surname, given = surname.strip(), given.strip()
    if not comma or not surname or not given:
        return name
    if surname.isupper() and not given.isupper():
        # Capitals mark the surname in FIDE's style, not how it is spelled.
        surname = surname.title()
    return f"{given} {surname}"
