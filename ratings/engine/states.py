"""A player's standing between events, as every system shares it (``PlayerState``), and
how any system's own state type (its subclass, with each field's kind) is read, checked
and copied: its fields and kinds, one state as another type, and ``with_changes``, the
copy a re-rate makes of every player in every event.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import date
from itertools import repeat
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

#: Any state (``with_changes``).
T = TypeVar("T", bound="PlayerState")


#: The titles a player's state may carry (the federations' own abbreviations).
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")

#: How the codec reads and checks a state's field (``PlayerState.kinds``): a figure, a
#: day, or one of a few words (a tuple of them). ``id``, ``games`` and ``guest`` have their
#: own kinds.
NUMBER = "number"
DATE = "date"
StateKind = str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's standing between events: what every system shares (the figure, the
    games behind it, and the player's own details some systems read).

    A system that keeps more declares its own state in its module, a subclass of this
    one with its fields and their ``kinds`` (acf-1993's ``AcfState``: status, average
    opponent, score), and names it as its ``RatingSystem.state_type``; the codec, the
    driver and ``with_changes`` take whatever fields the type has.
    """

    id: str
    rating: float | None = None
    games: int = 0
    guest: bool = False
    born: date | None = None
    gender: str | None = None
    title: str | None = None

    #: Each field this class adds, and how the codec reads it: ``NUMBER``, ``DATE`` or
    #: the words it may be. A subclass names its own fields only; the codec gathers the
    #: rest from the classes above it.
    kinds: ClassVar[Mapping[str, StateKind]] = {
        "id": "id",
        "rating": NUMBER,
        "games": "games",
        "guest": "flag",
        "born": DATE,
        "gender": ("M", "F"),
        "title": TITLES,
    }

    def age_on(self, day: date) -> int | None:
        """Whole years of age on ``day``; None when the birth date is unknown."""
        if self.born is None:
            return None
        years = day.year - self.born.year
        if (day.month, day.day) < (self.born.month, self.born.day):
            years -= 1
        return years


#: Every system's state type, in the order the systems were declared (the shared one
#: first): ``RatingSystem`` adds each system's own.
STATE_TYPES: list[type[PlayerState]] = [PlayerState]

#: The fields every system's state has.
STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerState))


def state_fields(state_type: type[PlayerState]) -> tuple[str, ...]:
    """The fields of a state type, in order: the shared ones, then the system's own."""
    return _layout(state_type)[0]


def state_kinds(state_type: type[PlayerState]) -> dict[str, StateKind]:
    """Each field of a state type and how the codec reads it, from the ``kinds`` the type
    and the types above it declare. A field declared without a kind is a mistake in the
    system's module, said when the type is first used."""
    return _layout(state_type)[4]


def state_as(state_type: type[PlayerState], state: PlayerState) -> PlayerState:
    """``state`` as a ``state_type``: every field the two share kept, the others at the
    new type's defaults (a state from another system's list, or a bare one from outside)."""
    if type(state) is state_type:
        return state
    own = set(_layout(type(state))[0])
    return state_type(**{n: getattr(state, n) for n in _layout(state_type)[0] if n in own})


#: Per state type: its fields, their set, a getter of all their values, each one's index,
#: and each one's kind; built once a type (a big history makes a state a player an event).
_Layout = tuple[tuple[str, ...], frozenset[str], Any, dict[str, int], dict[str, StateKind]]
_LAYOUTS: dict[type[PlayerState], _Layout] = {}
_set_field = object.__setattr__


def _layout(state_type: type[PlayerState]) -> _Layout:
    try:
        return _LAYOUTS[state_type]
    except KeyError:
        pass
    names = tuple(f.name for f in fields(state_type))
    kinds: dict[str, StateKind] = {}
    for klass in reversed(state_type.__mro__):
        kinds.update(getattr(klass, "kinds", None) or {})
    missing = [n for n in names if n not in kinds]
    if missing:
        raise TypeError(f"{state_type.__name__} declares no kind for {', '.join(missing)}")
    layout = (
        names,
        frozenset(names),
        attrgetter(*names),
        {name: i for i, name in enumerate(names)},
        {n: kinds[n] for n in names},
    )
    _LAYOUTS[state_type] = layout
    return layout


def with_changes(state: T, **changes: Any) -> T:
    """A copy of ``state`` with some fields changed: ``dataclasses.replace(state, **changes)``
    at a third of its cost (a big history makes a new state for each player in each event).

    The fields are read in one call and set in one C-level pass: a frozen dataclass's own
    ``__init__`` sets them one Python statement at a time, most of the cost. Any system's
    state type: the copy is of the same type."""
    cls = type(state)
    names, name_set, values_of, index, _ = _LAYOUTS.get(cls) or _layout(cls)
    if not changes.keys() <= name_set:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - name_set)}")
    values = list(values_of(state))
    for name, value in changes.items():
        values[index[name]] = value
    copy: T = object.__new__(cls)
    deque(map(_set_field, repeat(copy, len(values)), names, values), 0)
    return copy
