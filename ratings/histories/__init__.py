"""Generated club histories for measuring: ``generated.py`` draws a big, made-up club
history from one seed (``manage.py generate_history``) and writes it past the model layer
(``bulk_load.py``); ``tournament.py`` draws a tournament report for the bench's import
(``manage.py bench``). Only commands, scripts and tests import it: no service, page or
view does.
"""
