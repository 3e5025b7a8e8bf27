"""Sums of money columns, exact on every database.

Every amount column holds at most 4 decimals (``max_digits=14, decimal_places=4``: ``ledger.bounds``). PostgreSQL
adds ``numeric`` exactly. SQLite keeps a decimal column as REAL and its ``SUM`` adds binary floats, so 0.1 + 0.2 -
0.3 comes back as 5.55e-17, not 0 (a night's totals then failed to sum to zero). There ``MoneySum`` adds whole
ten-thousandths as 64-bit integers, which is exact, and gives them back as a Decimal of 4 places. Django reads a
SQLite aggregate through a 15-digit context, so that sum stays exact below 10^11 in absolute value.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import DecimalField, Sum

SCALE = 4  # the amount columns' decimal places


class MoneySum(Sum):
    """``Sum`` of an amount column (4 decimals), exact on SQLite as on PostgreSQL; None over no rows, as ``Sum``."""

    def __init__(self, expression: Any, **extra: Any) -> None:
        super().__init__(expression, output_field=DecimalField(max_digits=30, decimal_places=SCALE), **extra)

    def as_sqlite(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        exact = self.copy()  # the template on a copy, so that Aggregate.as_sql can still wrap it with FILTER
        exact.template = f"SUM(CAST(ROUND(%(expressions)s * {10 ** SCALE}) AS INTEGER))"
        return exact.as_sql(compiler, connection, **extra_context)

    def get_db_converters(self, connection: Any) -> list[Any]:
        converters = super().get_db_converters(connection)
        if connection.vendor == "sqlite":
            converters.append(_from_ten_thousandths)
        return converters


def _from_ten_thousandths(value: Decimal | None, expression: Any, connection: Any) -> Decimal | None:
    return None if value is None else Decimal(value).scaleb(-SCALE)
