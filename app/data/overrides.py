"""The referee's override of the rules of play as the act pipeline carries it to the log (app.services.acts,
app.services.turns)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Overridden:
    """The referee's override of the rules of play, logged with the act: by whom, and every rule of play it
    overrode, in words (the answer's OverriddenOut)."""

    by: str
    refused: str

    def logged(self) -> dict[str, str]:
        return {"by": self.by, "refused": self.refused}

    @staticmethod
    def merged(*records: Overridden | None) -> Overridden | None:
        """The override records of one act as one: by the first's seat, every rule they overrode."""
        kept = [r for r in records if r]
        if not kept:
            return None
        return Overridden(kept[0].by, " ".join(dict.fromkeys(r.refused for r in kept)))
