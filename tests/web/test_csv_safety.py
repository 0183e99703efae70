"""CSV downloads never hand a spreadsheet a formula: the one guard, csv_safe."""

from __future__ import annotations

import pytest

from ratings.formats.csvsafe import csv_safe


@pytest.mark.parametrize(
    "name",
    ["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://x","y")', "-"],
)
def test_a_cell_a_spreadsheet_would_run_gets_a_leading_quote(name):
    assert csv_safe(name) == "'" + name


@pytest.mark.parametrize("value", ["Alice Archer", "1500", "-12", "+3", "-0.5", "", 1500, None])
def test_plain_text_and_numbers_are_left_alone(value):
    assert csv_safe(value) == value
