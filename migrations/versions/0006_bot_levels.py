"""Each bot seat plays at a level: ``seats.bot_level`` (easy, normal, hard; NULL for humans).

Revision ID: 0006
Revises: 0005
Create Date: 2024-07-15
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN on both databases (no table rebuild on SQLite); the bots of
    # matches made before levels existed played at today's level, normal
    op.add_column("seats", sa.Column("bot_level", sa.String(16), nullable=True))
    op.execute(sa.text("UPDATE seats SET bot_level = 'normal' WHERE bot"))


def downgrade() -> None:
    # ALTER TABLE … DROP COLUMN (SQLite 3.35+), never a batch rebuild (see 0002)
    op.drop_column("seats", "bot_level")
