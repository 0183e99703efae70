"""FIDE's ratings as the club last read them: beside the club's rating on the member's
page, as a column of the published list where the club chooses, and offered as a new
member's rating brought in where the club's system allows."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from ratings.models import ClubSettings, FideRating
from ratings.services import list_publish

from ..factories import EventFactory, MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

NOVEMBER = dt.date(2026, 11, 1)
FIDE_HEADING = re.compile(r"<th[^>]*>\s*FIDE\s*</th>")


def club_settings(**fields):
    club = ClubSettings.load()
    for name, value in fields.items():
        setattr(club, name, value)
    club.save()


def fide(member, **fields):
    defaults = {"fide_id": member.fide_id, "standard": 1850, "standard_month": NOVEMBER}
    return FideRating.objects.create(member=member, **{**defaults, **fields})


def listed(name, fide_id, season, rating=1700):
    member = paid_up(MemberFactory(name=name, fide_id=fide_id), season)
    rating_state(member, rating=rating, display=str(rating), games=30)
    return member


def test_the_member_page_shows_fide_ratings_title_and_federation(client, current_season):
    aroha = listed("Aroha Tane", "4100018", current_season)
    fide(aroha, rapid=2088, rapid_month=NOVEMBER, title="WIM", federation="NZL")
    page = client.get(reverse("ratings:member", args=[aroha.member_number])).content.decode()
    assert "FIDE · WIM · NZL" in page
    assert 'standard <span class="rating">1850</span>' in page
    assert 'rapid <span class="rating">2088</span>' in page


def test_the_published_list_has_no_fide_column_unless_the_club_chooses(client, current_season):
    fide(listed("Liam Brennan", "4100034", current_season))
    page = client.get(reverse("ratings:live-list")).content.decode()
    assert not FIDE_HEADING.search(page)


def test_the_club_may_show_fide_ratings_on_the_live_list(client, current_season):
    club_settings(fide_on_list=True)
    fide(listed("Liam Brennan", "4100034", current_season))
    page = client.get(reverse("ratings:live-list")).content.decode()
    assert FIDE_HEADING.search(page)
    assert '<td class="rating">1850</td>' in page


def test_the_club_may_show_fide_ratings_on_a_publication(client, current_season):
    club_settings(fide_on_list=True)
    fide(listed("Liam Brennan", "4100034", current_season))
    list_publish(note="November")
    page = client.get(reverse("ratings:list")).content.decode()
    assert FIDE_HEADING.search(page)
    assert '<td class="rating">1850</td>' in page


def member_form(client, member):
    response = client.get(reverse("ratings:officer-member", args=[member.pk]))
    return response.context["form"]


def test_a_new_members_fide_rating_is_offered_as_their_rating_brought_in(officer_client):
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    fide(liam)
    form = member_form(officer_client, liam)
    assert form.initial["initial_rating"] == 1850
    assert "FIDE standard 1850, list of 2026-11" in form.fields["initial_rating"].help_text


def test_a_member_who_has_played_is_offered_nothing(officer_client):
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    fide(liam)
    EventFactory().entries.create(member=liam)
    assert member_form(officer_client, liam).initial.get("initial_rating") is None


def test_a_system_that_needs_the_games_gets_the_figure_as_a_note_only(officer_client):
    club_settings(rating_system="acf-1993")
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    fide(liam)
    form = member_form(officer_client, liam)
    assert form.initial.get("initial_rating") is None
    assert form.fields["initial_rating"].help_text.startswith(
        "FIDE standard 1850, list of 2026-11: the club's system (ACF"
    )


def test_a_member_whose_fide_id_was_corrected_is_shown_nothing_read_for_the_old_one(
    client, current_season
):
    liam = listed("Liam Brennan", "4100034", current_season)
    fide(liam, standard=2301)
    liam.fide_id = "4100042"  # a typo corrected: the row read for 4100034 is another's
    liam.save()
    page = client.get(reverse("ratings:member", args=[liam.member_number])).content.decode()
    assert "2301" not in page


def test_the_list_shows_no_fide_rating_read_for_a_members_old_fide_id(client, current_season):
    club_settings(fide_on_list=True)
    liam = listed("Liam Brennan", "4100034", current_season)
    fide(liam, standard=2301)
    liam.fide_id = ""
    liam.save()
    page = client.get(reverse("ratings:live-list")).content.decode()
    assert "2301" not in page


def test_a_fide_rating_read_for_an_old_fide_id_is_not_offered(officer_client):
    liam = MemberFactory(name="Liam Brennan", fide_id="4100034")
    fide(liam)
    liam.fide_id = "4100042"
    liam.save()
    form = member_form(officer_client, liam)
    assert form.initial.get("initial_rating") is None
    assert "FIDE standard" not in form.fields["initial_rating"].help_text
