"""A TRF's tie-break lines (TRF-2026's ``202`` and ``212``) read into the event's
tie-breaks, what is not kept named."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import tiebreaks

if TYPE_CHECKING:
    from .trf import Tournament


def tie_breaks_read(tournament: Tournament, lines: dict[str, tuple[int, str]]) -> None:
    """The event's tie-breaks from TRF-2026's ``202`` (those that break a tie on points)
    or, without it, ``212`` (the whole order, the points first: ``PTS``); codes between
    commas or spaces, as FIDE's tie-break server reads them. Those the club knows are kept
    in order (``tiebreaks.SPELLINGS``); any other is named, not kept."""
    if "202" in lines:
        number, value = lines["202"]
        words = value.replace(",", " ").split()
    elif "212" in lines:
        number, value = lines["212"]
        words = value.replace(",", " ").split()
        if words and words[0].upper() == "PTS":
            words = words[1:]
    else:
        return
    if not words:
        tournament.warnings.append(
            f"Line {number} names no tie-breaks: the event ranks players level on points by "
            "its kind's default (you may change them on the event)."
        )
        return
    kept: list[str] = []
    left: list[str] = []
    for word in words:
        code = tiebreaks.SPELLINGS.get(word.upper())
        if code is None or code in kept or len(kept) == tiebreaks.MAX_TIE_BREAKS:
            left.append(word)
        else:
            kept.append(code)
    tournament.tie_breaks = tuple(kept)
    if left:
        ranked = (
            ", ".join(kept) if kept else "its kind's default (you may change them on the event)"
        )
        tournament.warnings.append(
            f"Line {number}: the tie-breaks {', '.join(left)} are not kept (not ones the club "
            f"knows, listed twice, or past the {tiebreaks.MAX_TIE_BREAKS} an event has): "
            f"the event ranks players level on points by {ranked}."
        )
