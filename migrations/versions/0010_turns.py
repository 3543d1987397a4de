"""Play by turns: when a sleeping match must wake (``match_owners.wake_at``, the deadline
its owner last knew at ``wake_seq``: an idle match by turns leaves memory and is loaded
again at its deadline, or once its log moved past ``wake_seq``), and each account's address
for "your move" mail (``email``, confirmed or not: the SHA-256 of the one-time token its
confirmation link carries; ``mail_key``, the random key of its unsubscribe links; and
whether it unsubscribed).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match_owners", sa.Column("wake_at", sa.BigInteger(), nullable=True))
    op.add_column("match_owners", sa.Column("wake_seq", sa.Integer(), nullable=True))
    with op.batch_alter_table("accounts") as batch:  # SQLite adds unique columns by copying the table
        batch.add_column(sa.Column("email", sa.String(320), nullable=True))
        batch.add_column(sa.Column("email_confirmed", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("email_token_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("mail_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("mail_off", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.create_unique_constraint("uq_accounts_email_token_hash", ["email_token_hash"])
        batch.create_unique_constraint("uq_accounts_mail_key", ["mail_key"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_mail_key", type_="unique")
        batch.drop_constraint("uq_accounts_email_token_hash", type_="unique")
        batch.drop_column("mail_off")
        batch.drop_column("mail_key")
        batch.drop_column("email_token_hash")
        batch.drop_column("email_confirmed")
        batch.drop_column("email")
    with op.batch_alter_table("match_owners") as batch:
        batch.drop_column("wake_seq")
        batch.drop_column("wake_at")
