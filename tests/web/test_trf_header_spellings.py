"""What pairing programs write in a TRF header: dates with spaces, a template's placeholder
time control; and players' names, given name first."""

import datetime as dt

import pytest

from ratings.formats import trf
from ratings.rules.names import given_surname


def test_a_date_written_with_spaces_after_its_dots_is_read():
    assert trf.parse_date("28. 07. 2005") == dt.date(2005, 7, 28)


def test_a_templates_placeholder_time_control_is_not_kept():
    text = "012 Open\n042 2026/03/03\n122 moves/time, increment\n" + (
        "001    1      Smith, John                       1500                 1.0    1     2 w 1\n"
        "001    2      Doe, Jane                         1400                 0.0    2     1 b 0\n"
    )
    assert trf.parse(text).time_control == ""


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("Mirzoev, Azer", "Azer Mirzoev"),
        ("MIRZOEV, Azer", "Azer Mirzoev"),
        ("Lopez-Garcia, Ana Maria", "Ana Maria Lopez-Garcia"),
        ("Azer Mirzoev", "Azer Mirzoev"),
    ],
)
def test_names_are_stored_given_name_first(written, stored):
    assert given_surname(written) == stored
