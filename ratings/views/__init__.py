"""Views by audience: ``public`` (no login), ``officer`` (results and rating), ``runs`` (rating runs).

Each module keeps its own ``urlpatterns``; ``ratings/urls.py`` joins them under the
``ratings`` namespace.
"""
