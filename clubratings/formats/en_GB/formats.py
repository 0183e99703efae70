"""The club's date and time formats: 24-hour times (a rating run at 19:42, not "7:42 p.m."),
as the app's own pages write them; the admin follows these."""

DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
