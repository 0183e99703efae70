"""Names: what a member's or an event's name may hold, and players' names as the club
writes them ("Given Surname", whatever order a file uses). No Django: the TRF reader
uses it too."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Invisible characters that hide or reorder text: zero-width space, word joiner, byte
#: order mark, and the bidirectional marks, embeddings, overrides and isolates (a name
#: written backwards on the page, "Trojan source"). The zero-width joiner and non-joiner
#: stay allowed: Persian and the Indic scripts spell names with them.
HIDDEN = frozenset(
    "\u200b\u200e\u200f\u2060\ufeff\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def hidden_characters(text: str) -> list[str]:
    """The control characters (line breaks, tabs, escapes, DEL...) and the hiding or
    reordering ones in ``text``, each once, in order."""
    found: dict[str, None] = {}
    for char in text:
        if char in HIDDEN or unicodedata.category(char) == "Cc":
            found[char] = None
    return list(found)


def name_problem(name: str) -> str | None:
    """What is wrong with a member's or an event's name, or None. A name made only of
    spaces, zero-width or control characters looks blank on every page and list; one
    holding a control or reordering character shows differently from what is stored
    (an escape sequence in a terminal, a line break in a CSV, a name written backwards)."""
    if name and not any(char.isalnum() for char in name):
        return (
            "A name must contain letters (this one is only spaces, marks or invisible characters)."
        )
    hidden = hidden_characters(name)
    if hidden:
        codes = ", ".join(f"U+{ord(char):04X}" for char in hidden)
        return f"A name cannot hold control or invisible characters (here {codes})."
    return None


#: Academic and professional titles files put in a name ("Müller,Hans,Dr.", "Novák, Jan
#: Ing."): not part of the name the club lists, so left out. Compared without case or
#: the final dot; the short German/Czech ones only with their dot ("Ing." but not "Ing",
#: which is a given name too).
ACADEMIC_TITLES = frozenset(
    {"dr", "prof", "mgr", "bc", "mudr", "rndr", "phdr", "judr", "paeddr", "dipl-ing", "phd"}
)
ACADEMIC_DOTTED = frozenset({"ing.", "mag.", "dipl.", "dipl.-ing.", "ph.d.", "doz.", "di."})
#: Suffixes that belong to the name and tell people apart (father and son): kept, last.
SUFFIXES = {
    "jr": "Jr.",
    "jr.": "Jr.",
    "jun.": "Jr.",
    "sr": "Sr.",
    "sr.": "Sr.",
    "sen.": "Sr.",
    "ii": "II",
    "iii": "III",
    "iv": "IV",
}
#: Words of a surname written in lower case inside it ("van der Berg", "de la Cruz").
PARTICLES = frozenset({"van", "der", "den", "de", "von", "da", "di", "du", "del", "la", "le"})


@dataclass(frozen=True)
class PersonName:
    """A player's name read apart: surname, given names and suffix (an academic title
    dropped). ``club`` is how the club writes it, ``fide`` how a tournament file does;
    reading either gives the same name back, however many times it goes round."""

    surname: str
    given: str = ""
    suffix: str = ""

    @property
    def club(self) -> str:
        return " ".join(part for part in (self.given, self.surname, self.suffix) if part)

    @property
    def fide(self) -> str:
        if not self.given:
            return " ".join(part for part in (self.surname, self.suffix) if part)
        name = f"{self.surname}, {self.given}"
        return f"{name}, {self.suffix}" if self.suffix else name


def _title(word: str) -> bool:
    folded = word.casefold()
    return folded.rstrip(".") in ACADEMIC_TITLES or folded in ACADEMIC_DOTTED


def _suffix(word: str) -> str | None:
    return SUFFIXES.get(word.casefold())


def _surname_case(surname: str) -> str:
    """ "MIRZOEV" is "Mirzoev", "VAN DER BERG" "van der Berg": capitals mark a surname in
    FIDE's style, they are not how it is spelled."""
    words = surname.title().split()
    return " ".join(
        w.lower() if w.lower() in PARTICLES and i < len(words) - 1 else w
        for i, w in enumerate(words)
    )


def read_name(name: str, *, fide_order: bool = False) -> PersonName:
    """A name as a file writes it: ``Surname, Given``, ``Surname,Given,Dr.``, ``Surname,
    Given Dr``, ``SURNAME Given`` (capitals mark the surname), ``Surname, Given, Jr.``.

    With ``fide_order`` (a file's name) capitals mark the surname, and a name without a
    comma or capitals is left as one surname (its order unknown: a file's "Mirzoev Azer"
    stays "Mirzoev Azer"); without it (the club's own name) the last word is the surname."""
    name = " ".join(name.split())
    suffix = ""
    if "," in name:
        first, given_field, *more = (field.strip() for field in name.split(","))
        surname_words = [w for w in first.split() if not _title(w)]
        given_words = [w for w in given_field.split() if not _title(w)]
        # A suffix has a field of its own ("Smith, John, Jr."), as ``PersonName.fide``
        # writes it: in the given names' field "Iv" or "Jr" may be a given name.
        for word in (w for field in more for w in field.split()):
            if _title(word):
                continue
            if (found := _suffix(word)) is not None:
                suffix = found
                continue
            given_words.append(word)
        # "Smith Jr., John"; a surname of one word is that surname, even "Jr" ("Jr, Aa,
        # Jr." is Aa Jr, junior: the club's "Aa Jr Jr." written as a file writes it).
        if len(surname_words) > 1 and _suffix(surname_words[-1]):
            suffix = _suffix(surname_words.pop()) or suffix
        surname, given = " ".join(surname_words), " ".join(given_words)
        if not surname or not given:
            return PersonName(surname or given, "", suffix)
        if surname.isupper() and not given.isupper():
            surname = _surname_case(surname)
        return PersonName(surname, given, suffix)
    words = [w for w in name.split() if not _title(w)]
    if len(words) > 1 and (found := _suffix(words[-1])) is not None:
        suffix = found
        words.pop()
    capitals = 0
    while fide_order and capitals < len(words) and _all_capitals(words[capitals]):
        capitals += 1
    if 0 < capitals < len(words):  # "MIRZOEV Azer", "VAN DER BERG Anna"
        surname = _surname_case(" ".join(words[:capitals]))
        return PersonName(surname, " ".join(words[capitals:]), suffix)
    if fide_order or len(words) < 2:
        return PersonName(" ".join(words), "", suffix)
    return PersonName(words[-1], " ".join(words[:-1]), suffix)


def _all_capitals(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def given_surname(name: str) -> str:
    """A file's player name as the club writes it, given name first: "Mirzoev, Azer",
    "MIRZOEV, Azer" and "MIRZOEV Azer" are "Azer Mirzoev", "Müller,Hans,Dr." is "Hans
    Müller", "Smith, John, Jr." "John Smith Jr.". A name whose order cannot be told is
    left as written."""
    return read_name(name, fide_order=True).club


def fide_name(name: str) -> str:
    """The club's "Given Surname" as a file writes it ("Surname, Given"): split at the last
    word, a suffix kept last ("Smith, John, Jr."); one word, or a name already holding a
    comma, as it is read."""
    return read_name(name).fide


#: The names pairing programs give the "player" an odd player is paired with for a bye
#: (a round robin's empty seat): English, German, French, Spanish, Dutch, Czech, Polish.
BYE_PLACEHOLDERS = (
    "bye",
    "spielfrei",
    "freilos",
    "frei",
    "exempt",
    "libre",
    "descanso",
    "descansa",
    "pauze",
    "pause",
    "volno",
    "wolny los",
    "no opponent",
)
_BYE_PLACEHOLDER = re.compile(
    r"^\W*(?:" + "|".join(re.escape(w) for w in BYE_PLACEHOLDERS) + r")\W*\d*\W*$"
)


def is_bye_placeholder(name: str) -> bool:
    """A name that stands for no one: "spielfrei", "BYE", "Bye 2", "(frei)"."""
    return bool(_BYE_PLACEHOLDER.match(" ".join(name.split()).casefold()))


# -- one person, however a name is written ----------------------------------------------

_WORD = re.compile(r"\w+")


def folded(text: str) -> str:
    """``text`` without case or accents, for comparing: "José" and "JOSE" are "jose",
    "Straße" is "strasse". Marks are taken off the letters they sit on (NFKD), so a name
    typed without them on one keyboard finds the one written with them on another."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_key(name: str) -> str:
    """Who a name says, for matching a player to a member at every door (the members file,
    a tournament file, a pasted round, the calculator, the members page): its words without
    case or accents, in any order, an academic title left out and a suffix read alike
    ("Garcia, Rosa", "Rosa García" and "GARCÍA Rosa" are one key; "Müller,Hans,Dr." is
    "Hans Müller")."""
    return " ".join(sorted(_WORD.findall(folded(given_surname(name)))))


def name_words(text: str) -> list[str]:
    """The words a search typed means, folded as ``name_key`` folds a name: each is found
    inside the key of every name that holds it ("jos alv" finds José Alvarez)."""
    return _WORD.findall(folded(text))


def written_in_files(file_name: str) -> str:
    """The name a file gave a player, kept when the club's "Given Surname" would not give
    it back: "Mirzoev Azer" (the surname first, no comma, as Swiss-Manager writes it)
    cannot be told from a given name first, so it is written back as it came; "Mirzoev,
    Azer" comes back by itself and needs no keeping (empty)."""
    file_name = " ".join(file_name.split())
    if fide_name(given_surname(file_name)) == read_name(file_name, fide_order=True).fide:
        return ""
    return file_name
