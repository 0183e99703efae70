"""What the read API answers with: the OpenAPI description is generated from these."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from ninja import Schema
from pydantic import create_model

from ..formats.list_row import api_fields

#: A list the club may keep (``rules/places_of_play.LIST_CHOICES``): a time class played
#: over the board, or one played online.
ListKey = Literal["standard", "rapid", "blitz", "online-standard", "online-rapid", "online-blitz"]


class Page(Schema):
    """Where a page of results sits in the whole."""

    count: int
    page: int
    per_page: int
    pages: int


def list_row_fields() -> type[Schema]:
    """The list's row as ``formats.list_row.LIST_ROW`` defines it: its fields, in order.
    Read once, as the API is made: its description is fixed while it serves."""
    fields = {name: (kind, ...) for name, kind in api_fields().items()}
    made: type[Schema] = create_model(  # type: ignore[call-overload]
        "_ListRowFields", __base__=Schema, **fields
    )
    return made


_ListRowFields = list_row_fields()


class ListRow(_ListRowFields):  # type: ignore[valid-type,misc]
    """A member on a list: their place on the whole list, whatever the filters select (none
    for a mark that is not ranked, such as "Unr"), the rating as the list shows it, its
    games."""


class PublicationSummary(Schema):
    slug: str
    date: dt.date
    published_at: dt.datetime
    note: str
    system: str
    time_class: str
    basis: str
    members: int
    url: str
    csv: str


class LiveList(Page):
    live: bool = True
    time_class: str
    system: str
    basis: str
    results: list[ListRow]


class PublicationList(Page):
    publication: PublicationSummary
    results: list[ListRow]


class PublicationIndex(Page):
    results: list[PublicationSummary]


class Rating(Schema):
    rating: str
    games: int
    last_played: dt.date | None
    status: str


class PublishedRating(Schema):
    publication: str
    date: dt.date
    rank: int | None
    rating: str
    games: int


class Member(Schema):
    """A member's public fields; their ratings only while they are published (as on
    their page): ``rating`` null and ``published_ratings`` empty otherwise."""

    member: str
    name: str
    title: str
    region: str
    published: bool
    rating: Rating | None
    published_ratings: list[PublishedRating]
    url: str


class HistoryRow(Schema):
    """A rated event of the member's, newest first; the rating figures are null while
    the member is not published."""

    event: int
    event_name: str
    date: dt.date
    period: str
    games: int
    score: float
    rating_before: str | None
    rating_after: str | None
    change: float | None


class MemberHistory(Page):
    member: str
    published: bool
    results: list[HistoryRow]


class EventSummary(Schema):
    id: int
    name: str
    kind: str
    start_date: dt.date
    end_date: dt.date
    rounds: int
    time_control: str
    time_class: str
    status: str
    rated: bool
    online: bool  # played online: the club rates no online game
    url: str


class EventIndex(Page):
    results: list[EventSummary]


class Player(Schema):
    """A player of the event by place; rating figures only for published members."""

    place: str
    #: None for a member the club keeps off public pages (named "Unpublished player").
    member: str | None
    name: str
    points: float
    games: int
    published: bool
    rating_before: str | None
    rating_after: str | None
    change: float | None


class GameRow(Schema):
    round: int
    board: int | None
    #: None for a member the club keeps off public pages.
    white: str | None
    black: str | None
    result: str


class EventDetail(EventSummary):
    players: list[Player]
    games: list[GameRow]


class Problem(Schema):
    detail: str
