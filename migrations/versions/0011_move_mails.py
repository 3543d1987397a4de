"""The "your move" mails sent (``move_mails``): one row per move mailed — the move of a seat
that began with change ``since_seq`` — so that a move is mailed once, across restarts and
processes.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "move_mails",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("since_seq", sa.Integer(), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("move_mails")
