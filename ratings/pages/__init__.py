"""The read side: what each page shows, built as plain data (dicts and lists).

One module per page family. Each function takes keyword arguments, the reader among them
(``viewer``: the request's user), and applies the publication rule (``ratings.rules.publication``)
while it builds, so a view, the API and a CSV export of the same page carry the same
figures and withhold the same ones. Nothing here writes; writes are ``ratings.services``'.
"""
