"""Times read on a 24-hour clock everywhere, the admin included."""

import datetime as dt

from django.utils import formats


def test_times_are_written_on_a_24_hour_clock():
    moment = dt.datetime(2026, 3, 2, 19, 42)
    assert formats.date_format(moment, "DATETIME_FORMAT") == "2 Mar 2026, 19:42"
    assert formats.time_format(moment.time()) == "19:42"
