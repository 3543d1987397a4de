"""Keep only the newest snapshot of each match: recovery starts from it (the server now
deletes older ones as it saves a new one; this clears what earlier versions kept).

Revision ID: 0004
Revises: 0003
Create Date: 2024-08-15
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DELETE FROM snapshots WHERE seq < "
               "(SELECT MAX(newest.seq) FROM snapshots AS newest WHERE newest.match_id = snapshots.match_id)")


def downgrade() -> None:
    pass  # nothing to restore: a match without its old snapshots replays from the newest one or its seed
