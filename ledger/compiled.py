"""Queries compiled once: a hot read's SQL built by the ORM on the first call, then only given new values.

The ORM builds and compiles a query anew on every call: for a night read with its visibility rule and a few
subqueries that is about a millisecond of CPU, more than the database takes to answer it (bench/README.md,
issue 10). `CompiledQuery` builds the queryset once per database connection with stand-in values, keeps its
SQL, where each stand-in sits among the parameters, and the ORM's own converters for each column, and from then
on binds the real values and builds the instance as the ORM would (`Model.from_db`, then the annotations).

Only plain querysets of one model (fields, annotations; no select_related or prefetch) are supported, and
every value that changes between calls must be one of the stand-ins; anything else raises at the first call.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Callable, Generic, TypeVar

from django.db import connections, models, router

M = TypeVar("M", bound=models.Model)

#: Stand-ins for the values bound at each call: integers no id ever takes.
_STAND_INS = (-7_654_321, -7_654_322, -7_654_323, -7_654_324)


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple[Any, ...]
    slots: dict[int, str]  # parameter index -> the name of the value bound there
    fields: list[str]  # attnames of the model's columns, in the row's order
    field_columns: list[int]
    annotations: list[tuple[str, int]]
    converters: dict[int, tuple[list[Any], Any]]


class CompiledQuery(Generic[M]):
    """`build(**values)` returns the queryset; `first(**values)` runs it and returns its first row's instance."""

    def __init__(self, model: type[M], build: Callable[..., "models.QuerySet[M]"], *names: str) -> None:
        if len(names) > len(_STAND_INS):
            raise ValueError("too many values")
        self.model, self.build, self.names = model, build, names
        self._plans: weakref.WeakKeyDictionary[Any, _Plan] = weakref.WeakKeyDictionary()

    def _plan(self, connection: Any) -> _Plan:
        stand_ins = dict(zip(self.names, _STAND_INS))
        query = self.build(**stand_ins).query
        if query.select_related:
            raise ValueError("select_related is not supported")
        compiler = query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        slots = {i: name for i, p in enumerate(params) for name, s in stand_ins.items() if p == s}
        missing = set(self.names) - set(slots.values())
        if missing:
            raise ValueError(f"not bound in the SQL: {sorted(missing)}")
        info = compiler.klass_info
        columns = list(info["select_fields"]) if info else []
        fields = [compiler.select[i][0].target.attname for i in columns]
        converters = compiler.get_converters([s[0] for s in compiler.select])
        return _Plan(sql, tuple(params), slots, fields, columns, list(compiler.annotation_col_map.items()),
                     converters)

    def first(self, **values: int) -> M | None:
        alias = router.db_for_read(self.model)
        connection = connections[alias]
        plan = self._plans.get(connection)
        if plan is None:
            plan = self._plans[connection] = self._plan(connection)
        params = [values[plan.slots[i]] if i in plan.slots else p for i, p in enumerate(plan.params)]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        row = list(row)
        for i, (functions, expression) in plan.converters.items():
            for convert in functions:
                row[i] = convert(row[i], expression, connection)
        instance = self.model.from_db(alias, plan.fields, [row[i] for i in plan.field_columns])
        for name, i in plan.annotations:
            setattr(instance, name, row[i])
        return instance
