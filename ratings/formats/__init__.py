"""The file formats the club reads and writes, readers and writers only (saving goes
through ``ratings.services``): FIDE's tournament report file (``trf`` reads it,
``trf_export`` writes it), PGN (``pgn``), tournament files read into their events
(``tournament_files``), the CSV files (``list_csv`` the rating list's, its cells made safe
for spreadsheets by ``csvsafe``; ``members_csv`` and ``results_csv`` the imports'), and the
club file's JSON document (``club_file``)."""
