"""Sign-in attempts limited across processes: one row per limited key (a SHA-256), the
time its next attempt is due (GCRA).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempts",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("tat", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_attempts_tat", "attempts", ["tat"])


def downgrade() -> None:
    op.drop_index("ix_attempts_tat", table_name="attempts")
    op.drop_table("attempts")
