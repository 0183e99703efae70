from .views import officer, public, runs

app_name = "ratings"

urlpatterns = [*public.urlpatterns, *officer.urlpatterns, *runs.urlpatterns]
