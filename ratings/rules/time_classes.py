"""Time controls as the rating bodies class them: standard, rapid, blitz.

An event's class is set on the event; a tournament file's time control (its 122 line,
"90+30", "25' + 10''", "40/120, 60") and its name ("Blitzschach 5 Plus 0", "Open
rapide") give it where they can be read. FIDE's Laws (Appendices A and B) class a game by
each player's time for 60 moves, the base time plus 60 increments: 10 minutes or less is
blitz, more than 10 and less than 60 rapid, 60 or more standard.
"""

from __future__ import annotations

import re

STANDARD, RAPID, BLITZ = "standard", "rapid", "blitz"
CHOICES = [(STANDARD, "Standard"), (RAPID, "Rapid"), (BLITZ, "Blitz")]

#: Words that name the class outright, in English, German, French and Spanish (and a
#: few more pairing programs are set up in): whole words.
_WORDS = {
    BLITZ: (
        "blitz",
        "lightning",
        "bullet",
        "éclair",
        "eclair",
        "relámpago",
        "relampago",
        "blitzschach",
    ),
    RAPID: (
        "rapid",
        "rapide",
        "rapides",
        "rápida",
        "rapida",
        "rápidas",
        "rápido",
        "rapido",
        "semirrápida",
        "semirapida",
        "schnellschach",
        "schnell",
        "quickplay",
        "allegro",
        "active",
    ),
    STANDARD: (
        "standard",
        "classical",
        "classic",
        "slow",
        "longplay",
        "klassisch",
        "langpartie",
        "turnierpartie",
        "classique",
        "lente",
        "clásica",
        "clasica",
        "clásico",
        "estándar",
        "estandar",
    ),
}
#: German runs words together ("Blitzschachturnier", "Schnellschach-Open"): these parts
#: name the class inside a longer word too.
_PARTS = {BLITZ: ("blitz",), RAPID: ("schnellschach",)}

#: A first period given as moves and a time, either way round: "40/120", "40 moves in
#: 90", "40/6000" (PGN's seconds), and FIDE's shorthand time first, "90/40" (90 minutes
#: for 40 moves); then what follows it: the next period's time or the increment.
_MOVES_IN = re.compile(
    r"(\d{1,5})\s*(h\b|hours?|'|m\b|min\w*\.?|s\b|sec\w*\.?|\")?\s*"
    r"(moves?|mv|züge|zuege|coups|jugadas)?\s*(?:/|in)\s*(\d{1,5})\s*"
    r"(h\b|hours?|'|m\b|min\w*\.?|s\b|sec\w*\.?|\"|moves?|mv|züge|zuege|coups|jugadas)?"
)
#: After a first period: "+30" (FIDE's shorthand: the next period's minutes; PGN's
#: seconds: the increment), ":1800" or ", 60" (the next period), "+30s" (an increment).
_THEN = re.compile(
    r"\s*(\+|:|,|;|\band\b|\bthen\b)\s*(\d{1,5})\s*"
    r"(''|\"|'|h\b|m\b|min\w*\.?|s\b|sec\w*\.?)?(?:\s*(\+|/)\s*(\d{1,5}))?"
)
#: The numbers of moves a first period is given for (FIDE's controls and the clubs').
_MOVE_COUNTS = frozenset({15, 16, 18, 20, 24, 25, 30, 32, 35, 36, 40, 45, 50, 60})
_MOVE_WORDS = ("move", "mv", "züge", "zuege", "coups", "jugadas")
#: A base time and its increment: "90+30", "90' + 30''", "25 min + 10 s", "G/90", "5 plus
#: 0", "1h + 30s", "300+3" (PGN's seconds).
_BASE = re.compile(
    r"(?:^|[^\d/.])(?:g\s*/?\s*)?(\d{1,5})\s*(h\b|hours?|std\b|'|m\b|min\w*\.?|s\b|sec\w*|\")?"
    r"(?:\s*(?:\+|plus)\s*(\d{1,3})\s*(?:''|\"|'|s\b|sec\w*)?)?"
)
#: In a name only a time with its increment or its unit counts ("Open 2024" does not).
_NAMED_TIME = re.compile(r"(?:^|\D)(\d{1,3})\s*(?:\+|plus)\s*(\d{1,2})(?:\D|$)|(\d{1,3})\s*min")


def _minutes(value: int, unit: str | None) -> float:
    """A base time in minutes: hours and seconds by their unit; a bare number over 240 is
    seconds (PGN's TimeControl tag writes 5400, nobody plays 5400 minutes)."""
    unit = (unit or "").strip()
    if unit.startswith("h") or unit == "std":
        return value * 60.0
    if unit.startswith("s") or unit == '"' or (not unit and value > 240):
        return value / 60.0
    return float(value)


def _class_of_minutes(minutes: float) -> str:
    if minutes <= 10:
        return BLITZ
    return RAPID if minutes < 60 else STANDARD


def _by_words(text: str) -> tuple[str, str] | None:
    words = re.findall(r"[^\W\d_]+", text.casefold())
    for time_class, names in _WORDS.items():
        for word in words:
            if word in names or any(part in word for part in _PARTS.get(time_class, ())):
                return time_class, word
    return None


def _moves_and_minutes(found: re.Match[str]) -> tuple[int, float, bool]:
    """A first period's moves and minutes, and whether its time was in PGN's seconds.
    Which number is the moves: the one a word says; else a usual count of moves (40)
    beside a number that is not one; else the smaller ("40/90", "90/40")."""
    a, a_unit, a_moves, b, b_unit = found.groups()
    first, second = int(a), int(b)
    b_moves = bool(b_unit) and b_unit.startswith(_MOVE_WORDS)
    if b_moves or (a_unit and not a_moves):
        moves_first = False
    elif a_moves or b_unit:
        moves_first = True
    elif (first in _MOVE_COUNTS) != (second in _MOVE_COUNTS):
        moves_first = first in _MOVE_COUNTS
    else:
        moves_first = first <= second
    count, time, unit = (first, second, b_unit) if moves_first else (second, first, a_unit)
    unit = None if unit and unit.startswith(_MOVE_WORDS) else unit
    seconds = not unit and time > 240
    return count, _minutes(time, unit), seconds


def _time_for_sixty(text: str) -> tuple[float, str] | None:
    """Each player's minutes for 60 moves the time control gives, and how it was read."""
    text = text.casefold().replace("′", "'").replace("″", '"')
    # "1h30" is 90 minutes.
    text = re.sub(r"(\d+)\s*h\s*(\d{1,2})\b", lambda m: f"{int(m[1]) * 60 + int(m[2])}'", text)
    moves = _MOVES_IN.search(text)
    if moves is not None:
        count, minutes, seconds = _moves_and_minutes(moves)
        how = f"{minutes:g} minutes for the first {count} moves"
        total, increment, covered, pos, read_on = minutes, 0, count, moves.end(), False
        while (then := _THEN.match(text, pos)) is not None:
            mark, value, unit, joint, extra = then.groups()
            in_seconds = bool(unit) and (unit.startswith("s") or unit in {"''", '"'})
            if mark == "+" and (seconds or in_seconds):
                # PGN's "40/5400+30", "40/90 + 30s": the increment; a period may follow.
                increment, pos, read_on = increment or int(value), then.end(), True
                continue
            if covered >= 60:
                break
            if seconds and joint == "/" and mark == ":":  # PGN's next period "20/3000"
                later, covered = int(extra) / 60.0, covered + int(value)
            else:
                # The next period ("90/40+30", "40/120, 60", PGN's ":1800") for the
                # rest; its own "+30" or "/30" is the increment.
                later = int(value) / 60.0 if seconds else _minutes(int(value), unit)
                later = 0.0 if in_seconds and not seconds else later
                covered, increment = 60, increment or int(extra or 0)
            total += later
            how += f", then {later:g} minutes"
            pos, read_on = then.end(), True
        if increment:
            total += increment
            how += f", + 60 × {increment} seconds"
        if read_on:
            return total, f"{how} = {total:g} minutes for 60 moves"
        if count >= 60 or minutes >= 60:
            return total, how
    base = _BASE.search(text)
    if base is None:
        return None
    minutes = _minutes(int(base.group(1)), base.group(2))
    increment = int(base.group(3) or 0)
    total = minutes + increment  # 60 increments of N seconds are N minutes
    if increment:
        return total, (
            f"{minutes:g} minutes + 60 × {increment} seconds = {total:g} minutes for 60 moves"
        )
    return total, f"{total:g} minutes for 60 moves"


def time_class_of(text: str) -> str | None:
    """The class a time control's text gives, or None when it says nothing readable."""
    found = time_class_and_why(text, "")
    return found[0] if found else None


def time_class_and_why(time_control: str, name: str) -> tuple[str, str] | None:
    """The class a file's time control and event name give together, and why, in words
    for the officer; None when neither says. A time the control states wins; then a word
    in it ("Rapid, 25 minutes"); then the name's word ("Blitz Open") or time ("5 Plus 0")."""
    time_control = " ".join(time_control.split())
    name = " ".join(name.split())
    if time_control:
        words = _by_words(time_control)
        timed = _time_for_sixty(time_control)
        if timed is not None and not (words and _named_only(time_control)):
            minutes, how = timed
            time_class = _class_of_minutes(minutes)
            return time_class, f'the time control "{time_control}": {how}, {_RULE[time_class]}'
        if words is not None:
            return words[0], f'the time control "{time_control}" says "{words[1]}"'

    if name:
        words = _by_words(name)
        if words is not None:
            return words[0], f'the event\'s name says "{words[1]}"'
        timed_name = _NAMED_TIME.search(name.casefold())
        if timed_name is not None:
            if timed_name.group(3):
                minutes = float(timed_name.group(3))
                how = f"{minutes:g} minutes"
            else:
                base, increment = int(timed_name.group(1)), int(timed_name.group(2))
                minutes = float(base + increment)
                how = f"{base} minutes + 60 × {increment} seconds = {minutes:g} minutes"
            time_class = _class_of_minutes(minutes)
            return (
                time_class,
                f'the event\'s name "{name}": {how} for 60 moves, {_RULE[time_class]}',
            )
    return None


def _named_only(text: str) -> bool:
    """A control whose words name the class and whose number is no time ("Rapid 2")."""
    return not re.search(
        r"\d\s*(?:\+|/|'|\"|h\b|m\b|min|s\b|sec|plus)|g\s*/?\s*\d", text.casefold()
    )


#: FIDE's bounds, as the officer is told them.
_RULE = {
    BLITZ: "blitz (10 minutes or less)",
    RAPID: "rapid (more than 10, less than 60 minutes)",
    STANDARD: "standard (60 minutes or more)",
}
