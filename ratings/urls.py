"""Every page of the app, in one table: public pages first, then the officer's.

The public pages every visitor sees alike are served from the cache (``public_page``,
clubratings/cache.py) until the record, its ratings or the club's settings change."""

from django.urls import path

from clubratings.cache import public_page

from .views import (
    api_docs,
    calculator,
    club_settings,
    club_start,
    compare,
    event_list,
    event_pages,
    exports,
    help,
    lists,
    member_page,
    my_page,
    officer_csv_import,
    officer_events,
    officer_fide,
    officer_import,
    officer_members,
    officer_rating,
    officer_results,
    officer_subscriptions,
    people,
    publications,
    reports,
    runs,
)

app_name = "ratings"

urlpatterns = [
    # What members read.
    path("", public_page(lists.home), name="home"),
    # A fresh install's first-run page (the club and its officer), gone once started.
    path("start/", club_start.club_start_page, name="club-start"),
    path("ratings/", public_page(lists.published_list), name="list"),
    path("ratings/print/", public_page(exports.printable_list), name="list-print"),
    path("ratings/live/", public_page(lists.live_list), name="live-list"),
    path("ratings/published/", public_page(publications.publication_index), name="publications"),
    path(
        "ratings/published/<slug:slug>/",
        public_page(publications.publication_detail),
        name="publication",
    ),
    path(
        "ratings/published/<slug:slug>/changes/",
        public_page(publications.publication_changes),
        name="publication-changes",
    ),
    path("members/<str:number>/", public_page(member_page.member_detail), name="member"),
    # A member's own pages: the signed link is the key (never cached, each is one member's).
    path("me/", my_page.my_page_ask, name="my-page-ask"),
    path("me/unsubscribe/<str:token>/", my_page.unsubscribe, name="unsubscribe"),
    path("me/<str:token>/", my_page.my_page, name="my-page"),
    path(
        "members/<str:number>/history.csv",
        public_page(exports.member_history_csv),
        name="member-history-csv",
    ),
    path("events/", public_page(event_list.event_list), name="events"),
    path("events.ics", event_list.events_calendar, name="events-calendar"),
    path("events/<int:pk>/", public_page(event_pages.event_detail), name="event"),
    path("events/<int:pk>/report/", public_page(event_pages.event_report), name="event-report"),
    path(
        "events/<int:pk>/crosstable/",
        public_page(event_pages.event_crosstable),
        name="event-crosstable",
    ),
    path(
        "events/<int:pk>/crosstable.csv",
        public_page(exports.event_crosstable_csv),
        name="event-crosstable-csv",
    ),
    path("reports/", public_page(reports.report_index), name="reports"),
    path("reports/<slug:slug>/", public_page(reports.report_detail), name="report"),
    path("calculator/", calculator.calculator, name="calculator"),
    path("help/", public_page(help.help_page), name="help"),
    path("calculator/members/", calculator.member_search, name="member_search"),
    path("compare/", compare.compare_public, name="compare-public"),
    # The open read API's documentation page; the API itself (django-ninja, ratings/api/)
    # is mounted at api/v1/ by clubratings/urls.py: its URL names are ninja's ("api:...").
    path("api/v1/docs/", public_page(api_docs.api_docs), name="api-docs"),
    # The officer's pages (login and the officer permission).
    path("officer/", officer_members.officer_home, name="officer-home"),
    path("officer/ratings/", lists.officer_list, name="officer-ratings"),
    # The club's settings: the officer reads them, the administrator changes them.
    path("officer/settings/", club_settings.club_settings, name="officer-settings"),
    # The club's logins: the administrator's.
    path("officer/people/", people.people, name="officer-people"),
    path("officer/people/<int:pk>/", people.person, name="officer-person"),
    path(
        "officer/people/<int:pk>/remove/",
        people.person_remove_view,
        name="officer-person-remove",
    ),
    path("officer/members/", officer_members.member_list, name="officer-members"),
    path("officer/members/add/", officer_members.member_add, name="officer-member-add"),
    path("officer/members/<int:pk>/", officer_members.member_edit, name="officer-member"),
    path(
        "officer/members/<int:pk>/send-link/",
        officer_members.member_send_link,
        name="officer-member-send-link",
    ),
    path(
        "officer/members/<int:pk>/held.json",
        officer_members.member_data_json,
        name="officer-member-data-json",
    ),
    path(
        "officer/members/<int:pk>/held.csv",
        officer_members.member_data_csv,
        name="officer-member-data-csv",
    ),
    path(
        "officer/members/<int:pk>/erase/",
        officer_members.member_erase,
        name="officer-member-erase",
    ),
    path(
        "officer/members/<int:pk>/merges/<int:merge>/undo/",
        officer_members.member_merge_undo,
        name="officer-member-merge-undo",
    ),
    path(
        "officer/members/<int:pk>/subscribe/",
        officer_members.member_subscribe,
        name="officer-member-subscribe",
    ),
    path(
        "officer/members/<int:pk>/subscriptions/<int:subscription>/remove/",
        officer_subscriptions.subscription_remove,
        name="officer-subscription-remove",
    ),
    path(
        "officer/subscriptions/renew/",
        officer_subscriptions.subscriptions_renew,
        name="officer-renew",
    ),
    path("officer/events/", officer_events.event_list, name="officer-events"),
    path("officer/events/add/", officer_events.event_add, name="officer-event-add"),
    path("officer/events/<int:pk>/", officer_events.event_detail, name="officer-event"),
    path("officer/events/<int:pk>/edit/", officer_events.event_edit, name="officer-event-edit"),
    path(
        "officer/events/<int:pk>/players/",
        officer_events.event_players,
        name="officer-event-players",
    ),
    path(
        "officer/events/<int:pk>/players/<int:member>/remove/",
        officer_events.event_player_remove,
        name="officer-event-player-remove",
    ),
    path(
        "officer/events/<int:pk>/rounds/<int:number>/",
        officer_results.round_entry,
        name="officer-round",
    ),
    path(
        "officer/events/<int:pk>/paste/", officer_results.round_paste, name="officer-round-paste"
    ),
    path("officer/events/<int:pk>/grid/", officer_results.round_robin_grid, name="officer-grid"),
    path(
        "officer/events/<int:pk>/complete/",
        officer_rating.event_complete,
        name="officer-event-complete",
    ),
    # Its stage: the director submits it; the officer rates it (complete) or sends it back.
    path(
        "officer/events/<int:pk>/submit/", officer_events.event_submit, name="officer-event-submit"
    ),
    path(
        "officer/events/<int:pk>/send-back/",
        officer_rating.event_send_back,
        name="officer-event-send-back",
    ),
    path("officer/events/<int:pk>/trf/", officer_import.event_trf, name="officer-event-trf"),
    path("officer/periods/", officer_rating.period_list, name="officer-periods"),
    path(
        "officer/periods/<str:label>/close/",
        officer_rating.period_close,
        name="officer-period-close",
    ),
    path("officer/publish/", publications.officer_publish, name="officer-publish"),
    path("officer/import/", officer_import.trf_upload, name="officer-import"),
    path("officer/import/preview/", officer_import.trf_preview, name="officer-import-preview"),
    path(
        "officer/import/members/",
        officer_csv_import.members_upload,
        name="officer-import-register",
    ),
    path(
        "officer/import/members/preview/",
        officer_csv_import.members_preview,
        name="officer-import-register-preview",
    ),
    path(
        "officer/import/members/<int:pk>/",
        officer_csv_import.members_job,
        name="officer-import-register-job",
    ),
    path(
        "officer/import/members/<int:pk>/status/",
        officer_csv_import.members_job_status,
        name="officer-import-register-job-status",
    ),
    path(
        "officer/import/results/",
        officer_csv_import.results_upload,
        name="officer-import-results",
    ),
    path(
        "officer/import/results/preview/",
        officer_csv_import.results_preview,
        name="officer-import-results-preview",
    ),
    path("officer/import/fide/", officer_fide.fide_upload, name="officer-fide"),
    path("officer/import/fide/preview/", officer_fide.fide_preview, name="officer-fide-preview"),
    path("officer/runs/", runs.run_list, name="runs"),
    path("officer/runs/<int:pk>/", runs.run_detail, name="run"),
    path("officer/runs/<int:pk>/status/", runs.run_status, name="run-status"),
    path("officer/runs/<int:pk>/retry/", runs.run_retry, name="run-retry"),
    path("officer/compare/", compare.compare_home, name="compare"),
    path("officer/compare/<int:pk>/", compare.compare_detail, name="compare-detail"),
    path("officer/compare/<int:pk>/status/", compare.compare_status, name="compare-status"),
    path("officer/compare/<int:pk>/publish/", compare.compare_publish, name="compare-publish"),
]
