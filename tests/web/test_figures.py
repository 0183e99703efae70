"""A rating as shown: a figure or a marker, its number apart, and the change between two
shown figures, which is what every page, download and the list's last change report."""

from __future__ import annotations

import pytest
from django.template.defaultfilters import floatformat
from hypothesis import given
from hypothesis import strategies as st

from ratings.words.figures import is_figure, rating_and_marker, rounded, shown_change


@pytest.mark.parametrize(
    ("display", "figure"),
    [
        ("1486", True),
        ("1486p", True),
        ("1540P", True),
        ("412*", True),
        ("1402.5", True),
        ("-35", True),  # acf-1993 and nscl have no floor
        ("4 R", False),
        ("Unr", False),
        ("", False),
        (None, False),
    ],
)
def test_a_figure_is_a_rating_with_at_most_a_one_letter_marker(display, figure):
    assert is_figure(display) is figure


@pytest.mark.parametrize(
    ("before", "after", "change"),
    [
        ("2303", "2304", 1.0),  # whatever the unrounded ratings were
        ("1486p", "1502p", 16.0),
        ("20", "-35", -55.0),
        ("4 R", "1586p", None),  # no rating before: no change to show
        ("1500", "Unr", None),
    ],
)
def test_the_change_shown_is_the_difference_of_the_figures_shown(before, after, change):
    assert shown_change(before, after) == change


@pytest.mark.parametrize(
    ("display", "parts"),
    [("1486p", (1486, "p")), ("1516", (1516, "")), ("-35", (-35, "")), ("4 R", ("", "4 R"))],
)
def test_a_figure_splits_into_a_number_and_its_marker(display, parts):
    assert rating_and_marker(display) == parts


@given(
    # A rating, an expected score or a change (the filter gives a float of over 200
    # digits, 1e-200 say, back as it is).
    value=st.floats(min_value=-1e6, max_value=1e6).filter(lambda x: x == 0 or abs(x) > 1e-100)
    | st.integers(min_value=-5000, max_value=5000)
    | st.sampled_from([0.5, -0.5, 2.5, 2.675, 0.125, -0.04, 11.96, 12.0, -0.0]),
    places=st.sampled_from([-1, 0, 1, 2]),
)
def test_a_figure_rounded_reads_as_the_templates_floatformat_prints_it(value, places):
    """A member page's games are written in Python, their templates' filter no more: the
    same text, halves away from zero on the number as written (2.675 is 2.68)."""
    assert rounded(value, places) == floatformat(value, places)
