"""Views by audience: ``public`` (no login), ``officer`` (results, rating), ``runs``.

Each module keeps its own ``urlpatterns``; ``ratings/urls.py`` joins them under the
``ratings`` namespace.
"""
