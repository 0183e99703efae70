"""Time controls as the rating bodies class them: standard, rapid, blitz.

An event's class is set on the event; a tournament report file's time control (its 122
line, "90+30", "25' + 10''") gives it where it can be read. FIDE's Laws (Appendices A
and B) class a game by its time for 60 moves, the base time plus 60 increments: 10
minutes or less is blitz, under 60 minutes rapid, 60 or more standard.
"""

from __future__ import annotations

import re

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
CHOICES = [(STANDARD, "Standard"), (RAPID, "Rapid"), (BLITZ, "Blitz")]

#: Words that name the class outright, in the languages pairing programs are set up in.
_WORDS = {
    BLITZ: ("blitz", "lightning"),
    RAPID: ("rapid", "rapide", "rápida", "rapida", "schnellschach", "quickplay", "allegro"),
    STANDARD: ("standard", "classical", "classic", "slow", "longplay"),
}
#: "90+30", "90' + 30''", "25 min + 10 s", "G/90", "100'x40mm + 50'...": the first number
#: is the base time in minutes; a "+ N" after it, with nothing else between, the increment
#: in seconds.
_TIME = re.compile(
    r"(?:^|[^\d/])(?:g\s*/\s*)?(\d{1,3})\s*(?:'|m|min|mins|minutes)?\s*"
    r"(?:\+\s*(\d{1,3})\s*(?:\"|''|s|sec|secs|seconds)?)?",
    re.IGNORECASE,
)


def time_class_of(text: str) -> str | None:
    """The class a time control's text gives, or None when it says nothing readable."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    for time_class, names in _WORDS.items():
        if any(word in names for word in words):
            return time_class
    match = _TIME.search(text.strip())
    if match is None:
        return None
    base = int(match.group(1))
    increment = int(match.group(2) or 0)
    minutes = base + increment  # 60 moves' increments, in minutes
    if minutes <= 10:
        return BLITZ
    return RAPID if minutes < 60 else STANDARD
