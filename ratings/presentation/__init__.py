"""How pages show what the read side builds: tables, charts, figures, counts, filters."""
