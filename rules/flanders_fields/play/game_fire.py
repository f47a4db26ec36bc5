"""What the firer and the target forbid of a shot in a Flanders Fields game (issue 37, wt37c): a suppressed,
abandoned or limbered firer, a shot that is not possible, an MG's target that is not the nearest troops."""

from __future__ import annotations

from rules.core.acts import Act
from rules.core.errors import Refusal
from rules.core.records import Snapshot


def fire_forbidden(snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
    """The refusals the firer's state and its target give `act` on the table as `snapshot` reads it (none:
    allowed). A stand card's probe asks it with no target (`target_id` None): only the firer is checked."""
    return ()
