"""A round-robin's results entered as a crosstable grid."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django import forms

from ..models import Member
from ..rules.results import GRID_AS_WHITE, WHITE_AS_GRID
from .results import KeyedResultField

GRID_CHOICES = [
    ("", ""),
    ("1", "1"),
    ("=", "½"),
    ("0", "0"),
    ("+", "+ (forfeit win)"),
    ("-", "− (forfeit loss)"),
    ("--", "−− (both forfeit)"),
]


class GridForm(forms.Form):
    """A round robin's crosstable: one cell a pair, the row player's score."""

    def __init__(self, *args, players: Sequence[Member], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        for i, row in enumerate(self.players):
            for col in self.players[i + 1 :]:
                self.fields[self.cell(row, col)] = KeyedResultField(
                    values=WHITE_AS_GRID,
                    choices=GRID_CHOICES,
                    required=False,
                    label=f"{row.name} v {col.name}",
                    error_messages={"invalid_choice": "Not a result: 1, ½ (or =), 0, +, − or −−."},
                    widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
                )

    @staticmethod
    def cell(row: Member, col: Member) -> str:
        return f"g_{row.pk}_{col.pk}"

    def results(self) -> dict[tuple[int, int], str]:
        """The cells filled in: (row, column) players' keys to the result with the row
        player as white (``results.GRID_AS_WHITE``)."""
        return {
            (row.pk, col.pk): GRID_AS_WHITE[value]
            for i, row in enumerate(self.players)
            for col in self.players[i + 1 :]
            if (value := self.cleaned_data.get(self.cell(row, col)))
        }

    def rows(self) -> Iterable[GridRow]:
        """The grid for the template: above the diagonal a field for each pair; below it
        the same game seen from the other side (the column player's cell, mirrored)."""
        for i, row in enumerate(self.players):
            cells = []
            for j, col in enumerate(self.players):
                if j > i:
                    cells.append(GridCell(field=self[self.cell(row, col)]))
                elif j < i:
                    above = self[self.cell(col, row)]
                    shown = MIRRORED.get(str(above.value() or ""), "")
                    cells.append(GridCell(mirror=above, shown=shown, opponent=col))
                else:
                    cells.append(GridCell())
            yield GridRow(row, short_name(row.name), cells)


#: The row player's score shown below the diagonal, from the cell above it.
MIRRORED = {"1": "0", "=": "½", "0": "1", "+": "−", "-": "+", "--": "−−"}


@dataclass
class GridCell:
    field: forms.BoundField | None = None
    mirror: forms.BoundField | None = None
    shown: str = ""
    opponent: Member | None = None


@dataclass
class GridRow:
    player: Member
    short: str
    cells: list[GridCell]


def short_name(name: str) -> str:
    """A name for a narrow column: "Tomasz Kowalski" is "T. Kowalski"."""
    words = name.split()
    if len(words) < 2:
        return name
    return f"{words[0][0]}. {words[-1]}"
