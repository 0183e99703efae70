"""Players' names as real files write them, read apart and written back unchanged."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from ratings.formats import trf
from ratings.rules.names import PersonName, fide_name, given_surname, read_name


@pytest.mark.parametrize(
    ("written", "surname", "given", "suffix"),
    [
        ("Mirzoev, Azer", "Mirzoev", "Azer", ""),
        ("MIRZOEV, Azer", "Mirzoev", "Azer", ""),
        ("MIRZOEV Azer", "Mirzoev", "Azer", ""),
        ("Müller,Hans,Dr.", "Müller", "Hans", ""),
        ("Müller, Hans Dr", "Müller", "Hans", ""),
        ("Novák, Jan, Ing.", "Novák", "Jan", ""),
        ("Dr. Schmidt, Eva Maria", "Schmidt", "Eva Maria", ""),
        ("Smith, John, Jr.", "Smith", "John", "Jr."),
        ("Smith Jr., John", "Smith", "John", "Jr."),
        ("VAN DER BERG, Anna", "van der Berg", "Anna", ""),
        ("Argandona Riveiro, Inigo", "Argandona Riveiro", "Inigo", ""),
    ],
)
def test_a_file_name_is_read_as_surname_given_names_and_suffix(written, surname, given, suffix):
    assert read_name(written, fide_order=True) == PersonName(surname, given, suffix)


def test_a_name_whose_order_a_file_does_not_show_is_kept_as_written():
    assert given_surname("Mirzoev Azer") == "Mirzoev Azer"
    assert given_surname("mattderkuerschner") == "mattderkuerschner"


def test_the_club_writes_given_names_first_and_the_suffix_last():
    assert given_surname("Müller,Hans,Dr.") == "Hans Müller"
    assert given_surname("Smith, John, Jr.") == "John Smith Jr."


def test_a_given_name_that_reads_like_a_suffix_stays_a_given_name():
    # A suffix has a field of its own in a file ("Smith, John, Jr."); in the given
    # names' field "Iv" is Iv.
    assert given_surname("Aa, Iv") == "Iv Aa"
    assert given_surname(fide_name("Iv Aa")) == "Iv Aa"


def test_a_file_writes_the_surname_first_and_the_suffix_in_a_field_of_its_own():
    assert fide_name("Hans Müller") == "Müller, Hans"
    assert fide_name("John Smith Jr.") == "Smith, John, Jr."
    assert fide_name("Anna van der Berg") == "Berg, Anna van der"


@pytest.mark.parametrize(
    "written",
    ["Müller,Hans,Dr.", "Smith, John, Jr.", "MIRZOEV Azer", "Mirzoev Azer", "Kasparov, Garry"],
)
def test_a_name_is_the_same_after_any_number_of_round_trips(written):
    club = given_surname(written)
    for _ in range(3):
        assert given_surname(fide_name(club)) == club


_LOWER = "abcdefghijklmnopqrstuvwxyzäöüé"
_WORD = st.builds(
    lambda first, rest: first.upper() + rest,
    st.sampled_from(_LOWER),
    st.text(st.sampled_from(_LOWER), min_size=1, max_size=7),
)


@given(st.lists(_WORD, min_size=1, max_size=4), st.sampled_from(["", "Jr.", "III"]))
@example(["Iv", "Aa"], "")
@example(["Aa", "Jr"], "Jr.")  # a surname that is a suffix's word, and a suffix
def test_any_club_name_comes_back_from_a_file_unchanged(words, suffix):
    club = read_name(given_surname(" ".join([*words, suffix]))).club
    assert given_surname(fide_name(club)) == club


@given(
    st.lists(st.text(st.sampled_from("abcABCäÄ"), min_size=2, max_size=5), min_size=1, max_size=4)
)
def test_a_name_in_any_case_is_settled_after_one_round_trip(words):
    # A surname in capitals is FIDE's mark, so a club's "Li WU" comes back "Li Wu"; from
    # then on it stays as it is.
    once = given_surname(fide_name(" ".join(words)))
    assert given_surname(fide_name(once)) == once


@pytest.mark.parametrize(
    ("field", "title"),
    [
        ("g", "GM"), ("m", "IM"), ("f", "FM"), ("c", "CM"),
        ("wg", "WGM"), ("wm", "WIM"), ("wf", "WFM"), ("wc", "WCM"),
        ("GM", "GM"), ("WFM", "WFM"), ("WCM", "WCM"),
        ("IA", ""), ("FA", ""), ("NA", ""), ("FT", ""), ("FST", ""), ("DI", ""), ("", ""),
    ],
)  # fmt: skip
def test_fide_titles_are_read_and_arbiter_and_trainer_codes_ignored(field, title):
    assert trf.player_title(field) == title


def test_one_key_for_a_name_whatever_its_case_accents_or_order():
    from ratings.rules.names import name_key

    assert name_key("José Alvarez") == name_key("Jose Alvarez") == name_key("ALVAREZ, José")
    assert name_key("Garcia, Rosa") == name_key("Rosa García")
    assert name_key("Rosa García") != name_key("Rosa Garcias")
