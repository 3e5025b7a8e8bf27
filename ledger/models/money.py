"""Sums of money columns, exact on every database.

Every amount column holds at most 4 decimals (``max_digits=14, decimal_places=4``: ``ledger.bounds``). PostgreSQL
adds ``numeric`` exactly. SQLite keeps a decimal column as REAL and its ``SUM`` adds binary floats, so 0.1 + 0.2 -
0.3 comes back as 5.55e-17, not 0 (a night's totals then failed to sum to zero). There ``MoneySum`` adds whole
ten-thousandths as 64-bit integers, which is exact, and divides them back in the SQL. Django reads a SQLite
expression's decimal through a 15-digit context, quantized here to 4 places, so that sum stays exact below 10^11 in
absolute value.
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
        sql, params = exact.as_sql(compiler, connection, **extra_context)
        # Scaled back inside the SQL, so that the sum reads as an amount wherever it goes (Coalesce, default=,
        # arithmetic between sums): n / 10000.0 is the double nearest the decimal, which SQLite's decimal
        # converter reads to 15 digits and quantizes to 4 places, so exact below 10^11.
        return f"({sql} / {10 ** SCALE}.0)", params

    def get_db_converters(self, connection: Any) -> list[Any]:
        converters = super().get_db_converters(connection)
        if connection.vendor == "sqlite":  # SQLite reads an expression to 15 digits: 0.300000000000000 -> 0.3000
            converters.append(_to_places)
        return converters


def _to_places(value: Decimal | None, expression: Any, connection: Any) -> Decimal | None:
    return None if value is None else value.quantize(Decimal(1).scaleb(-SCALE))
