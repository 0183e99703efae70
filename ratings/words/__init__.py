"""The club's words every layer says alike: counts in words (``counts.py``) and figures as
shown (``figures.py``). Plain Python, below the engine: no Django, nothing of the app."""
