"""A finished match remembers its rematch: ``matches.rematch_id``.

Revision ID: 0002
Revises: 0001
Create Date: 2024-07-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN on both databases (no table rebuild on SQLite); unique: a match
    # is the rematch of one match at most, and joins look a rematch's players up by it
    op.add_column("matches", sa.Column("rematch_id", sa.String(32), nullable=True))
    op.create_index("uq_matches_rematch_id", "matches", ["rematch_id"], unique=True)


def downgrade() -> None:
    # ALTER TABLE … DROP COLUMN (SQLite 3.35+), never a batch rebuild: dropping the old
    # ``matches`` table would cascade to every seat, action and chat line
    op.drop_index("uq_matches_rematch_id", table_name="matches")
    op.drop_column("matches", "rematch_id")
