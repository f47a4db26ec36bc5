"""The club's result-signing key is written whole or not at all (issue 63): a full disk during the first
bundle export left a 0-byte key, and every export after it was a bare 500. The write is refused for real by
the system (a file-size limit, RLIMIT_FSIZE, on a child process: the key's 119 bytes do not fit in 64), then
the key is made once there is room, owner-only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.club import signing

CHILD = """
import resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of the process ending
resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))
from app.club import signing
try:
    signing.result_key(Path(sys.argv[1]))
except OSError as e:
    print("refused", e.errno)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX's")
def test_a_key_that_does_not_fit_leaves_no_key_file(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("refused"), done.stderr
    assert list((tmp_path / "club").iterdir()) == []  # neither the key cut short nor its temporary file
    key = signing.result_key(tmp_path)
    path = tmp_path / "club" / signing.KEY_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    assert signing.public_hex(signing.result_key(tmp_path)) == signing.public_hex(key)  # made once
