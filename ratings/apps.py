from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Club ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # In ready(), as Django asks: the receivers import the models, which the app
        # registry loads only after this module; importing them connects them.
        from . import signals  # noqa: F401
