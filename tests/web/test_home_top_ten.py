"""The home page's top ten: the best usable published ratings, placed as the list places them."""

import pytest
from django.urls import reverse

from ratings.models import listing
from ratings.pages import reports

from ..factories import MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db


def _member(number, rating, season, *, display=None, paid=True):  # type: ignore[no-untyped-def]
    member = MemberFactory(member_number=number, name=f"Player {number}")
    if paid:
        paid_up(member, season)
    rating_state(member, rating=rating, display=display or f"{rating:.0f}", games=30)
    return member


def test_the_top_ten_share_a_place_on_a_tie_as_the_list_does(current_season) -> None:  # type: ignore[no-untyped-def]
    for number, rating in [("A", 2000), ("B", 1900), ("C", 1900), ("D", 1800)]:
        _member(number, rating, current_season)
    _member("X", 2500, current_season, paid=False)  # in arrears: not on the list
    _member("U", 2400, current_season, display="Unr")  # not a usable rating yet
    top = reports.top_ten()
    assert [(m.member_number, m.rank) for m in top] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]
    ranked = listing.published_ratings().filter(unrated=0)
    assert [(m.member_number, m.rank) for m in ranked] == [(m.member_number, m.rank) for m in top]


def test_the_home_page_reads_the_top_ten_without_ranking_every_member(  # type: ignore[no-untyped-def]
    client, current_season, django_assert_max_num_queries
) -> None:
    for i in range(15):
        _member(f"M{i:02d}", 1500 + i, current_season)
    with django_assert_max_num_queries(6) as queries:
        page = client.get(reverse("ratings:home"))
    assert not any("RANK()" in q["sql"].upper() for q in queries.captured_queries)
    names = [m.name for m in page.context["top"]]
    assert names == [f"Player M{i:02d}" for i in range(14, 4, -1)]
