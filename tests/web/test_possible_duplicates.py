"""People once: records that may be one person (the same name whatever its accents or
order, nothing telling them apart; or the same FIDE id) are flagged in every preview and
listed on the officer's members page, each pair with its way to merge."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template import Context, Template
from django.urls import reverse

from ratings import services
from ratings.rules.people import Person, possible_duplicates

from ..factories import MemberFactory

pytestmark = pytest.mark.django_db


def members_preview(client, text: str) -> str:
    client.post(
        reverse("ratings:officer-import-register"),
        {"file": SimpleUploadedFile("club.csv", text.encode())},
    )
    return html.unescape(
        client.get(reverse("ratings:officer-import-register-preview")).content.decode()
    )


def test_two_rows_of_one_name_and_birth_date_in_a_members_file_are_flagged(officer_client):
    page = members_preview(
        officer_client,
        "id,name,born\nR1,Ben Carter,1990-05-17\nR2,Ben Carter,1990-05-17\nR3,Ann Lee,\n",
    )
    assert (
        "Ben Carter (line 2) and Ben Carter (line 3) may be one person: "
        "the same name and date of birth" in page
    )
    assert "1 possible duplicate" in page


def test_a_members_file_row_named_like_a_member_without_accents_is_flagged(officer_client):
    MemberFactory(member_number="J1", name="José Alvarez")
    page = members_preview(officer_client, "id,name\nJ2,Jose Alvarez\n")
    assert "Jose Alvarez (line 2) and José Alvarez (member J1) may be one person" in page


def test_a_row_updating_a_member_is_not_their_duplicate(officer_client):
    MemberFactory(member_number="J1", name="José Alvarez")
    page = members_preview(officer_client, "id,name\nJ1,Jose Alvarez\n")
    assert "possible duplicate" not in page


def test_one_name_with_two_birth_dates_is_two_people():
    pairs = possible_duplicates(
        [
            Person(1, "Ben Carter", dt.date(1990, 5, 17)),
            Person(2, "Carter, Ben", dt.date(2001, 1, 2)),
            Person(3, "Sam Ng", fide_id="123"),
            Person(4, "Samuel Ng", fide_id="0123"),
        ]
    )
    assert [(p.first.ref, p.second.ref, p.why) for p in pairs] == [(3, 4, "the same FIDE id")]


def test_the_members_page_lists_possible_duplicates_with_a_way_to_merge(admin_client):
    kept = MemberFactory(member_number="R1003", name="Ben Carter", born=dt.date(1990, 5, 17))
    other = MemberFactory(member_number="R1020", name="CARTER, Ben", born=dt.date(1990, 5, 17))
    MemberFactory(member_number="R1030", name="Ben Carter", born=dt.date(1970, 1, 1))
    page = html.unescape(admin_client.get(reverse("ratings:officer-members")).content.decode())
    assert "Possible duplicates" in page
    assert "Ben Carter (R1003)</a> and\n" in page
    assert "CARTER, Ben (R1020)</a>: the same name and date of birth" in page
    assert "R1030)</a>:" not in page
    merge = admin_client.post(
        reverse("admin:ratings_member_changelist"),
        {"action": "merge_members", "_selected_action": [kept.pk, other.pk]},
    )
    assert "Merge duplicate members" in merge.content.decode()


TWO_GARCIAS = (
    "012 Club night\n042 2026/03/03\n"
    "001    1      Garcia, Rosa                      1500                 1.0    1     2 w 1\n"
    "001    2      GARCÍA Rosa                      1400                 0.0    2     1 b 0\n"
).encode()


def import_preview(client, data: bytes, name: str) -> str:
    client.post(reverse("ratings:officer-import"), {"file": SimpleUploadedFile(name, data)})
    return html.unescape(client.get(reverse("ratings:officer-import-preview")).content.decode())


def test_two_players_of_a_tournament_file_of_one_name_are_flagged(officer_client):
    page = import_preview(officer_client, TWO_GARCIAS, "club.trf")
    assert "Rosa Garcia (player 1) and Rosa García (player 2) may be one person" in page


def test_a_pgn_player_named_like_two_members_is_flagged_with_both(officer_client):
    MemberFactory(member_number="J1", name="José Alvarez")
    MemberFactory(member_number="J2", name="Jose Alvarez")
    pgn = (
        '[Event "Club night"]\n[Site "Club"]\n[Date "2026.03.03"]\n[Round "1"]\n'
        '[White "Alvarez, Jose"]\n[Black "Lee, Ann"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    )
    page = import_preview(officer_client, pgn.encode(), "club.pgn")
    assert "(player 1) and José Alvarez (member J1) may be one person" in page
    assert "(player 1) and Jose Alvarez (member J2) may be one person" in page
    assert "José Alvarez (member J1) and Jose Alvarez (member J2)" not in page


def test_a_file_of_thousands_of_fide_ids_is_compared_in_one_query(django_assert_num_queries):
    # A condition per id overflowed SQLite's expression depth past a thousand ids.
    MemberFactory(member_number="R1", name="Kept Member", fide_id="0005000700")
    coming = [
        Person(ref=n, name=f"Player {n}", fide_id=str(5_000_000 + n), where=f"line {n}")
        for n in range(1, 1501)
    ]
    with django_assert_num_queries(1):
        found = services.possible_duplicates_find(coming=coming)
    assert [(d.first.ref, d.second.name, d.why) for d in found] == [
        (700, "Kept Member", "the same FIDE id")
    ]


#: The members page's loop over its pairs, as the template wrote them before
#: ``{% possible_duplicates_items %}`` wrote them in one join.
PAIRS_LOOP = """{% for pair in possible_duplicates %}
    <li class="mb-1">
      <a href="{% url 'ratings:officer-member' pair.first.ref %}">{{ pair.first.name }} ({{ pair.first.where }})</a> and
      <a href="{% url 'ratings:officer-member' pair.second.ref %}">{{ pair.second.name }} ({{ pair.second.where }})</a>: {{ pair.why }}
      {% if can_merge %}<form method="post" action="{{ merge_url }}" class="d-inline">{% csrf_token %}<input type="hidden" name="action" value="merge_members"><input type="hidden" name="_selected_action" value="{{ pair.first.ref }}"><input type="hidden" name="_selected_action" value="{{ pair.second.ref }}"><button class="btn btn-link btn-sm p-0 align-baseline" type="submit">Merge…</button></form>{% endif %}
    </li>
  {% endfor %}"""  # noqa: E501


@pytest.mark.parametrize("can_merge", [True, False])
def test_the_members_pages_pairs_are_written_as_its_loop_wrote_them(can_merge):
    """Each pair's links, why, and (for an officer who may merge) its merge form, escaped
    as the template escapes them."""
    pairs = possible_duplicates(
        [
            Person(7, "Ann <b>O'Hara</b> & Co", where="R&7"),
            Person(12, "O'HARA, Ann <b></b> & Co", where="R12"),
            Person(30, "Sam Ng", fide_id="123", where="S30"),
            Person(31, "Samuel Ng", fide_id="0123", where="S31"),
        ]
    )
    assert len(pairs) == 2
    context = {
        "possible_duplicates": pairs,
        "can_merge": can_merge,
        "merge_url": "/admin/ratings/member/?a=1&b=2",
        "csrf_token": "a-token",
    }
    loop = Template(PAIRS_LOOP).render(Context(context))
    one_join = Template(
        "{% load possible_duplicates %}{% possible_duplicates_items possible_duplicates %}"
    ).render(Context(context))
    assert one_join == loop
    assert ("a-token" in one_join) is can_merge
