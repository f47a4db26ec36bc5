"""Re-record golden play scripts (all, or those named) on the rules as they are now: only for an intended change.

python -m tests.rules.golden_play [mons-1914-turn ...]
"""

import sys

from tests.rules.golden_play import HERE, record, scripts

names = sys.argv[1:]
record([HERE / f"{n}.json" for n in names] if names else scripts())
