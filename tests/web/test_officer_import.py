"""Importing a pairing program's TRF file: upload, preview with matches, confirm."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F, Max, Min
from django.urls import reverse

from ratings import services
from ratings.formats import trf
from ratings.models import Event, Game, Member, RatingChange

from ..conftest import TRF_FILES
from ..factories import MemberFactory

pytestmark = pytest.mark.django_db

TRF = TRF_FILES
GROS = TRF / "gros-open-2010.trf"
TWO_SMITHS = (
    b"012 Smiths\n"
    b"001    1      Smith, John                       1500                 0.0    1     2 w =\n"
    b"001    2      SMITH JOHN                        1400                 0.0    2     1 b =\n"
)


def upload(client, path=GROS, name="gros.trf"):
    data = path.read_bytes() if hasattr(path, "read_bytes") else path
    return client.post(reverse("ratings:officer-import"), {"file": SimpleUploadedFile(name, data)})


def confirm(client, **choices):
    preview = client.get(reverse("ratings:officer-import-preview"))
    form = preview.context["form"]
    data = {name: form[name].value() for name in form.fields}
    for field in ("start_date", "end_date"):  # a file may have no dates: the officer types them
        if data[field] is None:
            data[field] = "2026-01-10"
    data["rated"] = "on"
    data.update(choices)
    return client.post(reverse("ratings:officer-import-preview"), data)


def test_an_uploaded_file_is_previewed_before_anything_is_saved(officer_client):
    response = upload(officer_client)
    assert response["Location"] == reverse("ratings:officer-import-preview")
    preview = officer_client.get(response["Location"])
    assert "52 players, 9 rounds" in preview.content.decode()
    assert not Event.objects.exists()


def test_players_are_matched_by_fide_id_then_by_name(officer_client):
    by_id = MemberFactory(name="Azer Mirzoev", fide_id="13400304")
    by_name = MemberFactory(name="Argandona Riveiro Inigo")
    upload(officer_client)
    form = officer_client.get(reverse("ratings:officer-import-preview")).context["form"]
    assert form["p1"].value() == str(by_id.pk)
    assert form["p2"].value() == str(by_name.pk)
    # Two of 52 matched: an open of others, whose players are guests by default.
    assert form["p3"].value() == "guest"


def test_confirming_creates_the_event_entries_and_games_at_once(officer_client):
    mirzoev = MemberFactory(name="Azer Mirzoev", fide_id="13400304")
    upload(officer_client)
    members = {f"p{n}": "new" for n in range(2, 52)}
    response = confirm(officer_client, p52="guest", **members)
    event = Event.objects.get()
    assert response["Location"] == reverse("ratings:officer-event", args=[event.pk])
    assert (event.name, event.rounds, event.entries.count()) == (
        "XX Open Internacional de Gros",
        9,
        52,
    )
    assert Member.objects.count() == 52
    assert event.games.filter(white=mirzoev, round=1).get().result == "1-0"
    assert event.games.filter(result=Game.Result.WHITE_FORFEIT_WIN).count() == 1
    assert event.games.filter(result=Game.Result.HALF_BYE).count() == 16
    assert Member.objects.filter(is_guest=True).count() == 1


def test_two_players_of_the_file_cannot_be_the_same_member(officer_client):
    # Both players' names are this member's (in another order): no FIDE ids to tell them apart.
    MemberFactory(name="John Smith")
    upload(officer_client, TWO_SMITHS, name="smiths.trf")
    form = officer_client.get(reverse("ratings:officer-import-preview")).context["form"]
    assert form["p1"].value() == form["p2"].value() != "new"
    response = confirm(officer_client)
    assert "Two players in the file are this member." in response.content.decode()
    assert not Event.objects.exists()


def test_a_new_member_whose_rating_in_the_file_is_out_of_range_is_refused_at_that_player(
    officer_client,
):
    # A member made from the file starts from its rating: 3500 at most, as on the member
    # form. The officer may still match the player to a member (whose rating stands).
    text = TWO_SMITHS.replace(b"1500", b"9999").replace(b"SMITH JOHN", b"Brown, Ann ")
    upload(officer_client, text, name="smiths.trf")
    response = confirm(officer_client, use_ratings="on")
    form = response.context["form"]
    assert form.errors["p1"] == [
        "Line 2: the file gives Smith, John the rating 9999. A rating is at most 3500. "
        "Correct the file, or choose the member this player is."
    ]
    assert "p2" not in form.errors
    assert "the rating 9999. A rating is at most 3500." in response.content.decode()
    assert not Event.objects.exists() and not Member.objects.exists()
    smith = MemberFactory(name="John Smith")
    response = confirm(officer_client, p1=str(smith.pk))
    assert Event.objects.get().entries.count() == 2


def test_a_file_that_is_not_a_tournament_report_is_refused(officer_client):
    response = upload(officer_client, b"hello, world\n", name="notes.txt")
    assert "it has no player (001) lines" in response.content.decode()


# -- every real file, imported ----------------------------------------------------------


def played_in_text(path) -> tuple[int, int, int]:
    """Players, rated games and unrated games, counted from the file's text.

    A game appears on both players' lines: an opponent's number, a colour, and 1, = or 0
    (rated) or W, D or L (scored, not rated); so each is counted twice.
    """
    players = rated = unrated = 0
    for line in path.read_bytes().decode("latin-1").splitlines():
        if not line.startswith("001"):
            continue
        players += 1
        for opponent, code in re.findall(
            # From column 91 (a blank): a zero-padded opponent ("0002") starts column 92.
            r"(?<=\s)(\d{1,4}) [wWbB-] ([10=WDL])(?=\s|$)",
            line[90:],
        ):
            if int(opponent):
                if code in "10=":
                    rated += 1
                else:
                    unrated += 1
    assert rated % 2 == 0 and unrated % 2 == 0, "each game is on two lines"
    return players, rated // 2, unrated // 2


@pytest.mark.parametrize("path", sorted(TRF.glob("*.trf")), ids=lambda p: p.name)
def test_every_real_file_imports_with_its_players_and_rated_games(officer_client, path):
    players, rated, unrated = played_in_text(path)
    assert upload(officer_client, path, name=path.name).status_code == 302
    response = confirm(officer_client)
    assert response.status_code == 302, response.context["form"].errors
    event = Event.objects.get()
    assert event.entries.count() == Member.objects.count() == players
    games = event.games.all()
    assert games.filter(result__in=Game.PLAYED, black__isnull=False).count() == rated
    assert games.filter(result__in=Game.UNRATED).count() == unrated
    assert not games.filter(white=F("black")).exists()
    assert not games.filter(result__in=Game.BYES, black__isnull=False).exists()
    assert not games.exclude(result__in=Game.BYES).filter(black__isnull=True).exists()
    rounds = games.aggregate(low=Min("round"), high=Max("round"))
    assert 1 <= rounds["low"] <= rounds["high"] <= event.rounds
    # Nobody has two records in one round.
    seen = [(g.round, p) for g in games for p in (g.white_id, g.black_id) if p is not None]
    assert len(seen) == len(set(seen))
    # Rated, the engine gets exactly the played games; a Lichess export's, none.
    run = services.event_complete(event=event)
    if event.online:
        assert run is None and not RatingChange.objects.filter(event=event).exists()
        return
    assert run is not None and run.games_rated == rated
    assert sum(RatingChange.objects.filter(event=event).values_list("played", flat=True)) == (
        2 * rated
    )


def test_the_data_folder_holds_the_files():
    assert len(list(TRF.glob("*.trf"))) >= 12


def test_a_file_whose_lines_disagree_is_refused_naming_the_line_and_nothing_is_saved(
    officer_client,
):
    text = GROS.read_bytes().replace(b"    26 w 1", b"    26 w =", 1)
    response = upload(officer_client, text)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Line 14: Mirzoev Azer, round 1: the result &#x27;=&#x27;" in page
    assert "officer-trf-import" not in officer_client.session
    assert not Event.objects.exists() and not Member.objects.exists()


# -- matching players to members, and importing again -----------------------------------


def preview_choices(client) -> dict[str, str]:
    form = client.get(reverse("ratings:officer-import-preview")).context["form"]
    return {name: form[name].value() for name in form.fields if name.startswith("p")}


@pytest.mark.parametrize(
    "name", ["Mirzoev Azer", "Azer Mirzoev", "MIRZOEV, Azer", "mirzoev  azer"]
)
def test_names_match_whatever_their_order_and_case(officer_client, name):
    member = MemberFactory(name=name)
    upload(officer_client)
    assert preview_choices(officer_client)["p1"] == str(member.pk)


def test_a_member_with_another_fide_id_is_another_person(officer_client):
    MemberFactory(name="Mirzoev Azer", fide_id="99999999")
    upload(officer_client)
    assert preview_choices(officer_client)["p1"] in ("new", "guest")


def test_a_fide_id_match_wins_over_a_name_match(officer_client):
    by_id = MemberFactory(name="A. Mirzoev", fide_id="13400304")
    MemberFactory(name="Mirzoev Azer")
    upload(officer_client)
    assert preview_choices(officer_client)["p1"] == str(by_id.pk)


def test_merged_members_are_not_matched(officer_client):
    target = MemberFactory(name="Azer Mirzoev")
    MemberFactory(name="Someone", fide_id="13400304", merged_into=target)
    upload(officer_client)
    assert preview_choices(officer_client)["p1"] == str(target.pk)


@pytest.mark.parametrize(
    "path", [GROS, TRF / "lichess-swiss-2020-05.trf"], ids=["fide-ids", "names-only"]
)
def test_importing_a_file_again_matches_every_player_and_creates_no_one(officer_client, path):
    upload(officer_client, path)
    confirm(officer_client, p2="guest")
    members = set(Member.objects.values_list("pk", "name", "is_guest"))
    upload(officer_client, path)
    choices = preview_choices(officer_client)
    assert "new" not in choices.values() and "guest" not in choices.values()
    assert len(set(choices.values())) == len(choices) == len(members)
    # The same event again would record its games twice: refused, nothing saved.
    response = confirm(officer_client)
    assert response.status_code == 200
    assert response.context["form"].errors["duplicate_reason"]
    assert Event.objects.count() == 1
    # Recorded again with a reason (say, a second section's file), with the same members.
    response = confirm(officer_client, name="Second section", duplicate_reason="checked")
    assert response.status_code == 302
    assert Event.objects.count() == 2
    assert set(Member.objects.values_list("pk", "name", "is_guest")) == members


def test_a_mistyped_year_on_the_preview_is_refused_beside_the_field(officer_client):
    upload(officer_client)
    response = confirm(officer_client, start_date="2999-01-01", end_date="2999-01-02")
    errors = response.context["form"].errors
    assert "more than a year ahead" in errors["start_date"][0]
    assert not Event.objects.exists()


def test_a_file_with_a_nul_character_is_refused_on_the_upload_page(officer_client):
    data = GROS.read_bytes().replace(b"Gros", b"Gr\x00os", 1)
    assert b"\x00" in data
    response = upload(officer_client, data)
    assert response.status_code == 200
    assert "holds a NUL character" in response.context["form"].errors["file"][0]
    assert not Event.objects.exists()


def test_an_event_name_without_letters_is_refused_on_the_preview(officer_client):
    upload(officer_client)
    response = confirm(officer_client, name="\u200b\u2060")
    assert "must contain letters" in response.context["form"].errors["name"][0]
    assert not Event.objects.exists()


def test_a_file_of_more_than_99_rounds_is_refused_on_the_upload_page(officer_client):
    data = GROS.read_bytes().replace(b"\nXXR 9", b"\nXXR 100")
    assert b"XXR 100" in data
    response = upload(officer_client, data)
    assert response.status_code == 200
    assert "100 rounds: an event has at most 99" in response.context["form"].errors["file"][0]


#: A club night of one game, John Smith beating Jane Doe, in TRF16's columns (points at
#: 81, the rank at 86, round 1 from 92).
CLUB_NIGHT = (
    b"012 Club night\n"
    b"042 2026/03/03\n"
    b"001    1      Smith, John                       1500                             1.0"
    b"    1     2 w 1\n"
    b"001    2      Doe, Jane                         1400                             0.0"
    b"    2     1 b 0\n"
)


def test_unmatched_players_of_a_club_event_default_to_new_members(officer_client):
    MemberFactory(name="John Smith")
    upload(officer_client, CLUB_NIGHT, name="club.trf")
    choices = preview_choices(officer_client)
    assert choices["p1"].isdigit() and choices["p2"] == "new"


def test_a_player_is_matched_by_hand_by_a_typed_member_number(officer_client):
    mirzoev = MemberFactory(member_number="R77", name="A. Mirzoev")
    upload(officer_client)
    confirm(officer_client, m1="r77", **{f"p{n}": "guest" for n in range(2, 53)})
    event = Event.objects.get()
    assert event.entries.filter(member=mirzoev).exists()
    assert Member.objects.count() == 52


def test_a_typed_member_that_is_no_one_is_refused_beside_the_player(officer_client):
    upload(officer_client)
    response = confirm(officer_client, m1="Nobody At All")
    assert "is not a member here" in response.content.decode()
    assert not Event.objects.exists()


def test_the_files_ratings_are_offered_unticked_and_not_used_unasked(officer_client):
    upload(officer_client)
    form = officer_client.get(reverse("ratings:officer-import-preview")).context["form"]
    assert form["use_ratings"].value() is False
    confirm(officer_client, **{f"p{n}": "new" for n in range(1, 53)})
    assert Member.objects.count() == 52
    assert not Member.objects.filter(initial_rating__isnull=False).exists()


def test_the_preview_names_the_ratings_the_box_would_use(officer_client):
    upload(officer_client, CLUB_NIGHT, name="club.trf")
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "the file's ratings: Smith, John 1500, Doe, Jane 1400." in page


def test_a_player_matched_to_a_member_is_not_among_the_ratings_offered(officer_client):
    MemberFactory(name="John Smith")
    upload(officer_client, CLUB_NIGHT, name="club.trf")
    form = officer_client.get(reverse("ratings:officer-import-preview")).context["form"]
    assert "the file's ratings: Doe, Jane 1400." in form.fields["use_ratings"].help_text


def test_a_big_files_ratings_offered_are_named_for_the_first_few(officer_client):
    rated = sum(p.rating is not None for p in trf.parse(GROS.read_bytes()).players)
    upload(officer_client)
    form = officer_client.get(reverse("ratings:officer-import-preview")).context["form"]
    help_text = form.fields["use_ratings"].help_text
    assert help_text.startswith(
        "Ticked, they start here from the file's ratings: Mirzoev Azer 2527, "
    )
    assert f" and {rated - 8} more players (the Rating column)." in help_text


def test_a_name_in_the_file_is_written_into_the_preview_as_text(officer_client):
    upload(officer_client, CLUB_NIGHT.replace(b"Doe, Jane  ", b"<b>Jane</b>"), name="club.trf")
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "<b>Jane</b>" not in page
    assert "&lt;b&gt;Jane&lt;/b&gt; 1400" in page


def test_ticking_the_box_starts_the_new_players_from_the_files_ratings(officer_client):
    upload(officer_client, CLUB_NIGHT, name="club.trf")
    confirm(officer_client, p1="new", p2="guest", use_ratings="on")
    assert dict(Member.objects.values_list("name", "initial_rating")) == {
        "John Smith": 1500,
        "Jane Doe": 1400,
    }


def test_the_club_night_file_is_previewed_with_its_round_and_game(officer_client):
    upload(officer_client, CLUB_NIGHT, name="club.trf")
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "2 players, 1 round, 1 game." in page


def test_new_members_are_named_given_name_first(officer_client):
    upload(officer_client, CLUB_NIGHT, name="club.trf")
    confirm(officer_client, p1="new", p2="new")
    assert set(Member.objects.values_list("name", flat=True)) == {"John Smith", "Jane Doe"}


def test_an_import_dated_before_rated_events_says_how_many_it_re_rates(
    officer_client, rated_event, alice, bob
):
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN)], date=__import__("datetime").date(2026, 3, 2)
    )
    upload(officer_client)
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "re-rates 1 event already rated after it" in page


def test_the_preview_counts_the_games_and_the_byes_apart(officer_client):
    games = trf.parse(GROS.read_bytes()).games()
    byes = sum(1 for game in games if game.black is None)
    upload(officer_client)
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert f"52 players, 9 rounds, {len(games) - byes} games, {byes} byes." in page
    assert byes >= 16  # the file's half-point byes at least


def test_the_preview_names_the_files_tie_breaks_kept_and_not_kept(officer_client):
    MemberFactory(name="John Smith")
    upload(officer_client, path=b"202 SB KS WIN\n" + TWO_SMITHS, name="smiths.trf")
    page = officer_client.get(reverse("ratings:officer-import-preview")).content.decode()
    assert "the tie-breaks KS are not kept" in page
    assert "Tie-breaks, as the file names them: SB, WIN." in page
    confirm(officer_client, p2="guest")
    assert Event.objects.get().tie_breaks == "SB,WIN"
