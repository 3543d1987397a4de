"""Ratings: each account's OpenSkill rating per game, the rated matches in the order they
are folded in, each account's rating after each of them (its chart), and whether a match
is rated at all (``matches.rated``, a match option kept outside the games).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # matches made before ratings existed were never rated: false for them, true by default after
    op.add_column("matches", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=False),
    )
    op.create_index("ix_rated_matches_game_order", "rated_matches", ["game", "finished_at", "match_id"])
    op.create_table(
        "rating_changes",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("finished_at", sa.BigInteger(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_changes_account_game", "rating_changes", ["account_id", "game", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_account_game", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_rated_matches_game_order", table_name="rated_matches")
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_game_ordinal", table_name="ratings")
    op.drop_table("ratings")
    op.drop_column("matches", "rated")  # no foreign key: a plain DROP COLUMN (see 0002)
