"""One owner per match: the live server processes and which one drives each match.

Revision ID: 0005
Revises: 0004
Create Date: 2024-08-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a process is alive while ``expires_at`` (database clock, ms) is in the future
    op.create_table(
        "processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("started_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
    )
    # no foreign key to ``processes``: an owner whose row is gone counts as dead
    op.create_table(
        "match_owners",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=True),
        sa.Column("standins", sa.JSON(), nullable=False),
        sa.Column("since", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_match_owners_owner", "match_owners", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_match_owners_owner", table_name="match_owners")
    op.drop_table("match_owners")
    op.drop_table("processes")
