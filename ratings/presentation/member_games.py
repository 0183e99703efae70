"""A member's page's table of games (``pages.members.game_lines``): its rows written in one
join, as the published list writes its own (``tables.rows_html``). The template's loop over
a page's games (some 125: a link, three figures and a dozen look-ups each) took 14 of the
page's 17 ms of rendering; written here, about 2."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import groupby
from typing import Any

from django.template.defaultfilters import date as day_shown
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ..models import Member
from ..words.figures import rounded
from .links import member_page_urls

#: The games' columns as the table's head names them, each cell's ``<td>`` attributes.
ROUND = '<td class="rating d-none d-md-table-cell">'
NUMBER = '<td class="rating">'
FIGURE_USED = "figure-used small text-body-secondary"
#: An opponent's rating the public may not see (``game_lines``: "hidden").
NOT_PUBLISHED = '<span class="text-body-secondary" title="not published">—</span>'


def games_body(games: Sequence[dict[str, Any]], *, member_pk: int) -> SafeString:
    """The table's row groups: one ``<tbody>`` an event, kept together on a printed page,
    headed by the event's name, its day unless the name says it, and the link to how it
    was rated (the member's own breakdown on its report); then a row a game."""
    page_of = member_page_urls()
    return mark_safe(
        "\n".join(
            _event_heading(event, member_pk)
            + "\n".join(_game_row(game, page_of) for game in lines)
            + "\n</tbody>"
            for event, lines in _by_event(games)
        )
    )


def _by_event(games: Sequence[dict[str, Any]]) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """Each event's games, in order: ``game_lines`` gives an event's games together."""
    for _pk, grouped in groupby(games, key=lambda game: game["event"].pk):
        lines = list(grouped)
        yield lines[0]["event"], lines


def _event_heading(event: Any, member_pk: int) -> str:
    day = day_shown(event.end_date, "j M Y")
    name = escape(event.name) + (f" · {escape(day)}" if day not in event.name else "")
    report = escape(reverse("ratings:event-report", args=[event.pk]))
    return (
        '<tbody class="event-games"><tr class="table-light event-row">'
        f'<th colspan="6" scope="rowgroup" class="small">{name} '
        f'<a class="fw-normal ms-2 d-print-none" href="{report}#breakdown-{member_pk}">'
        "how it was rated</a></th></tr>\n"
    )


def _game_row(game: dict[str, Any], page_of: Callable[[str], str]) -> str:
    """A game as the member played it: round, opponent (a link to their page where they
    have one), their rating as the system used it, the result, the expected score and
    the game's change; a game the system left out greyed, "not rated"."""
    rated = game["rated"]
    return (
        ("<tr>" if rated else '<tr class="text-body-secondary">')
        + f"{ROUND}{escape(game['round'] or '')}</td>"
        + f"<td>{_opponent(game['opponent'], page_of)}</td>"
        + f"{NUMBER}{_their_rating(game)}</td>"
        + f'<td class="rating result">{_result(game["score"])}</td>'
        + f"{ROUND}{'' if game['expected'] is None else rounded(game['expected'], 2)}</td>"
        + f"{NUMBER}{_change(game['change']) if rated else 'not rated'}</td>"
        + "</tr>"
    )


def _opponent(opponent: Any, page_of: Callable[[str], str]) -> str:
    if opponent is None:
        return "—"
    # An "Unpublished player" has no page (``get_absolute_url``: none).
    url = page_of(opponent.member_number) if isinstance(opponent, Member) else ""
    if not url:
        return escape(opponent.name)
    return f'<a href="{escape(url)}">{escape(opponent.name)}</a>'


def _their_rating(game: dict[str, Any]) -> str:
    if game["opponent_rating"] is None:
        return NOT_PUBLISHED
    figure = rounded(game["opponent_rating"], 0)
    used = game["figure_used"]  # "held from 1780": the system's word for the figure
    if not used:
        return figure
    return f'{figure} <span class="{FIGURE_USED}">{escape(used.words)}</span>'


def _result(score: Any) -> str:
    return "1" if score == 1 else "½" if score == 0.5 else "0"


def _change(change: float | None) -> str:
    """The game's own change, to the tenth, signed and coloured."""
    if change is None:
        return ""
    css = "change-up" if change > 0 else "change-down" if change < 0 else ""
    return f'<span class="{css}">{"+" if change > 0 else ""}{rounded(change, -1)}</span>'
