"""The demo club (Riverside Chess Club), drawn from one seed and written through the
services: ``club.py`` draws the club and its season, ``tournaments.py`` plays out its
events. ``manage.py load_demo`` loads it; the tests and the first-day browser test read
its names. Only commands, scripts and tests import it: no service, page or view does.
"""
