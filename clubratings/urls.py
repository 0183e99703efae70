from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path, reverse_lazy
from django.views.generic import RedirectView

from ratings.api import api, not_found

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # One login page for officers and administrators; the admin's `next` comes along.
    path("admin/login/", RedirectView.as_view(url=reverse_lazy("login"), query_string=True)),
    path("admin/", admin.site.urls),
    # The open read API (ratings/api/); its docs page is ratings:api-docs, api/v1/docs/.
    path("api/v1/", api.urls),
    path("", include("ratings.urls")),
    # Any other path under api/ (/api/v1/events/abc, /api/v2/): JSON, not the site's page.
    re_path(r"^api/(?P<rest>.*)$", not_found),
]
