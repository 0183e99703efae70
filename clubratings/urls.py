from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path, reverse_lazy
from django.views.generic import RedirectView

from ratings.api import api, not_found
from ratings.forms.accounts import ClubPasswordResetForm, ClubSetPasswordForm

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A forgotten password, reset by email (Django's views, the site's templates in
    # templates/registration/). The new password does not log in by itself: the login
    # page, where django-axes' lock-out holds, is the one way in.
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=ClubPasswordResetForm),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(form_class=ClubSetPasswordForm),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # An invitation (services/accounts.py ``person_invite``): the reset's token and form,
    # on the invited person's own page; the password chosen, they log in as anyone does.
    path(
        "accounts/invitation/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="registration/invitation_accept.html",
            form_class=ClubSetPasswordForm,
            success_url=reverse_lazy("password_reset_complete"),
        ),
        name="invitation_accept",
    ),
    # One login page for officers and administrators; the admin's `next` comes along.
    path("admin/login/", RedirectView.as_view(url=reverse_lazy("login"), query_string=True)),
    path("admin/", admin.site.urls),
    # The open read API (ratings/api/); its docs page is ratings:api-docs, api/v1/docs/.
    path("api/v1/", api.urls),
    path("", include("ratings.urls")),
    # Any other path under api/ (/api/v1/events/abc, /api/v2/): JSON, not the site's page.
    re_path(r"^api/(?P<rest>.*)$", not_found),
]
