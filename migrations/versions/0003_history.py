"""Match history: find a name's seats, and the newest finished matches, by index.

Revision ID: 0003
Revises: 0002
Create Date: 2024-08-01
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # GET /api/players/{name}/matches looks seats up by name; the lobby lists the most
    # recently finished matches (by finished_at, not created_at)
    op.create_index("ix_seats_name", "seats", ["name"])
    op.create_index("ix_matches_status_finished", "matches", ["status", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_matches_status_finished", table_name="matches")
    op.drop_index("ix_seats_name", table_name="seats")
