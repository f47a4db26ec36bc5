"""access

Revision ID: 0004
Revises: 0003

Devices and access: token revocation and device list, archived games (filled by the access work of issue 12)
"""

from collections.abc import Sequence

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
