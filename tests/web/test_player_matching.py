"""A tournament file's players matched to members by name (``match_players``): whatever
the name's case, order, titles or the way its suffix is written."""

from __future__ import annotations

import pytest

from ratings.services.tournament_imports import match_players

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


def test_a_name_in_the_files_order_and_capitals_matches_the_one_member_of_that_name():
    azer = MemberFactory(name="Azer Mirzoev")
    MemberFactory(name="Azer Mirzoeva")
    assert match_players([(1, "MIRZOEV, Azer", ""), (2, "Mirzoev, Azer, Dr.", "")]) == {
        1: azer,
        2: azer,
    }


def test_a_suffix_written_another_way_still_matches():
    # The member's name says "Jun.", the file's "Jr.": the same suffix, read alike.
    john = MemberFactory(name="John Smith Jun.")
    assert match_players([(1, "Smith, John, Jr.", "")]) == {1: john}


def test_a_name_no_member_holds_matches_no_one():
    MemberFactory(name="Azer Mirzoev")
    assert match_players([(1, "Mirzoev, Anna", ""), (2, "Azer", "")]) == {}


def test_a_name_matches_whatever_its_accents():
    # A file typed on an English keyboard names the member the club wrote with accents.
    rosa = MemberFactory(name="Rosa García")
    jose = MemberFactory(name="Jose Alvarez")
    assert match_players([(1, "Garcia, Rosa", ""), (2, "José Alvarez", "")]) == {
        1: rosa,
        2: jose,
    }
