"""The lists: the live list, every publication and its list, filtered as the pages are."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import Query, Router, Schema
from ninja.errors import HttpError

from .. import services
from ..formats.list_row import ObjectRow, api_values, live_path, publication_path
from ..models import ClubSettings, Publication, listing
from ..models.ranking import PublishedRanking
from ..models.rating_lists import lists_kept
from ..pages.lists import list_members
from ..pages.publications import publication_entries
from . import schemas
from .caching import cacheable
from .paging import Paging, page_of
from .schemas import ListKey

router = Router(tags=["lists"])


class ListFilters(Schema):
    """The list pages' filters: every word of ``name`` matches a name or a member number."""

    name: str | None = None
    age: Literal["U20", "U16", "U12"] | None = None
    region: str | None = None
    women: bool = False
    active: bool = False
    #: The list: standard, or rapid or blitz where the club keeps them on lists of their own.
    time_class: ListKey = "standard"

    def data(self) -> dict[str, str]:
        """As the page's form sends them (django-filter reads both alike)."""
        values = {"name": self.name, "age": self.age, "region": self.region}
        out = {key: value for key, value in values.items() if value}
        out.update({key: "on" for key in ("women", "active") if getattr(self, key)})
        return out


def _kept(time_class: str) -> str:
    """The list asked for, if the club keeps it; a 404 otherwise (its events are rated on
    the standard list, or not at all)."""
    if time_class not in lists_kept():
        raise HttpError(404, f"The club keeps no {time_class} list of its own.")
    return time_class


def _url(request: HttpRequest, path: str) -> str:
    return request.build_absolute_uri(path)


def publication_summary(request: HttpRequest, publication: Publication) -> dict[str, Any]:
    url = _url(request, publication.get_absolute_url())
    return {
        "slug": publication.slug,
        "date": publication.day,
        "published_at": publication.published_at,
        "note": publication.note,
        "system": publication.system,
        "time_class": publication.time_class,
        "basis": publication.basis,
        "members": publication.size,
        "url": url,
        "csv": url + "?_export=csv",
    }


@router.get("/list", response=schemas.LiveList, summary="The live list")
@cacheable
def live_list(
    request: HttpRequest, filters: Query[ListFilters], paging: Query[Paging]
) -> dict[str, Any]:
    """Today's ratings of today's published members, strongest first: the page
    ``/ratings/live/``. ``rank`` is the member's place on the whole list, whatever the
    filters select (as the page's "#")."""
    regions = [filters.region] if filters.region else []
    chosen = list_members(query=filters.data(), regions=regions)
    time_class = _kept(filters.time_class)
    rows, place = page_of(
        listing.with_ratings(chosen.qs, ranked=False, time_class=time_class), paging
    )
    ranking = PublishedRanking(time_class=time_class)
    start = listing.year_start()
    system = ClubSettings.load().engine(time_class)
    results = [
        api_values(
            ObjectRow(
                member,
                live_path,
                {
                    "rank": ranking.place(member),
                    "junior": listing.age_group_of(member.born, start),
                    "url": _url(request, member.get_absolute_url()),
                },
            )
        )
        for member in rows
    ]
    return {
        **place,
        "time_class": time_class,
        "system": system.id,
        "basis": listing.list_basis(system, time_class),
        "results": results,
    }


@router.get("/publications", response=schemas.PublicationIndex, summary="Every publication")
@cacheable
def publication_index(
    request: HttpRequest,
    paging: Query[Paging],
    time_class: ListKey | None = None,
) -> dict[str, Any]:
    """Every published list, newest first (``time_class``: of one list only)."""
    publications = Publication.objects.all()
    if time_class is not None:
        publications = publications.filter(time_class=time_class)
    rows, place = page_of(publications, paging)
    return {**place, "results": [publication_summary(request, p) for p in rows]}


def _publication_list(
    request: HttpRequest, publication: Publication, filters: ListFilters, paging: Paging
) -> dict[str, Any]:
    regions = [filters.region] if filters.region else []
    chosen = publication_entries(publication=publication, query=filters.data(), regions=regions)
    # Each entry's place as it was published, whatever the filters select.
    rows, place = page_of(chosen.qs, paging)
    start = listing.year_start(publication.day)
    results = [
        api_values(
            ObjectRow(
                entry,
                publication_path,
                {
                    "rank": None if entry.unrated else entry.rank,
                    "junior": listing.age_group_of(entry.member.born, start),
                    "url": _url(request, entry.member.get_absolute_url()),
                },
            )
        )
        for entry in rows
    ]
    return {**place, "publication": publication_summary(request, publication), "results": results}


@router.get(
    "/publications/latest",
    response={200: schemas.PublicationList, 404: schemas.Problem},
    summary="The latest publication's list",
)
@cacheable
def publication_latest(
    request: HttpRequest, filters: Query[ListFilters], paging: Query[Paging]
) -> Any:
    """The list the club published last: what ``/ratings/`` shows by default."""
    publication = services.publication_latest(_kept(filters.time_class))
    if publication is None:
        raise HttpError(404, "No list has been published yet.")
    return _publication_list(request, publication, filters, paging)


@router.get(
    "/publications/{slug}",
    response={200: schemas.PublicationList, 404: schemas.Problem},
    summary="A publication's list",
)
@cacheable
def publication_detail(
    request: HttpRequest, slug: str, filters: Query[ListFilters], paging: Query[Paging]
) -> Any:
    """A published list by its date (``2026-03-01``; a second one that day ``2026-03-01-2``),
    as it was frozen. ``rank`` is the place as published, whatever the filters select."""
    publication = get_object_or_404(Publication, slug=slug)
    return _publication_list(request, publication, filters, paging)


__all__ = ["reverse", "router"]
