"""The file formats the club reads and writes, readers and writers only (saving goes
through ``ratings.services``): FIDE's tournament report file (``trf`` reads it,
``trf_export`` writes it), PGN (``pgn``), and the rating list's CSV (``list_csv``, its
cells made safe for spreadsheets by ``csvsafe``)."""
