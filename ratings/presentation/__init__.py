"""How pages show what the read side builds: tables, charts, filters."""
