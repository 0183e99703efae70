"""Free text a person or a file gives (a region, a time control, an event's name, a note,
a reason): it may hold no control or invisible character, by the rule names keep
(``names.hidden_characters``): such a character shows differently from what is stored (an
escape sequence in a terminal, a line break in a CSV cell, text written backwards by the
right-to-left override). No Django: the file readers use it too."""

from __future__ import annotations

from .names import hidden_characters

#: The longest event name and time control the record keeps (``Event``'s columns): a
#: file's longer one is cut to it, and the preview and the commands say so (``cut``).
EVENT_NAME_LENGTH = 120
TIME_CONTROL_LENGTH = 40

#: What a text of several lines (a note, the deputy arbiters one a line) may hold besides
#: printing characters: its line breaks and tabs.
LINE_SPACING = frozenset("\n\r\t")


def text_problem(text: str, *, lines: bool = False) -> str | None:
    """What is wrong with a piece of free text, or None. With ``lines`` the text is a
    note of several lines: its line breaks and tabs are allowed."""
    hidden = [c for c in hidden_characters(text) if not (lines and c in LINE_SPACING)]
    if not hidden:
        return None
    codes = ", ".join(f"U+{ord(char):04X}" for char in hidden)
    return f"Text cannot hold control or invisible characters (here {codes})."


def cut(what: str, text: str, length: int) -> str | None:
    """What the preview and the commands say of a file's ``text`` too long for its column
    (``what``: "the event's name"), kept to its first ``length`` characters; None when it
    fits."""
    if len(text) <= length:
        return None
    return (
        f"{what} is {len(text)} characters: it is kept to its first {length}, "
        f"{text[:length]!r} (change it after the import if that reads badly)"
    )
