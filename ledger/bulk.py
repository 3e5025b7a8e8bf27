"""Plain INSERTs and UPDATEs for recording a hand, the one write path measured against a floor (issue 10).

`Model.save` and `QuerySet.bulk_create` do more than a hand's rows need: signals, checks of related objects, the
statement compiled anew each time and, for bulk_create on PostgreSQL, one array per column for its UNNEST form.
For a hand (a hand row, a revision, a few payments, four seat results, an audit entry, the Idempotency-Key's row)
that was over a third of recording's CPU (bench/README.md). These helpers compile each statement's text once per
model, shape and database, and prepare every value with its field's own `pre_save` (so `auto_now_add` is set as
`save` sets it) and `get_db_prep_save`. The models written here have no signal receivers.
"""
from __future__ import annotations

from typing import Any, Sequence, cast

from django.db import connections, models, router

_SQL: dict[tuple[Any, ...], str] = {}


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _values(obj: models.Model, fields: list[models.Field[Any, Any]], connection: Any, *, add: bool = True) -> list[Any]:
    return [field.get_db_prep_save(field.pre_save(obj, add), connection) for field in fields]


def _saved(obj: models.Model, alias: str) -> None:
    obj._state.adding, obj._state.db = False, alias


def insert_all(objs: Sequence[models.Model]) -> None:
    """INSERT these unsaved objects, all of one model, in one statement; their ids are not read back."""
    if not objs:
        return
    model = type(objs[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    fields = _fields(model)
    key = ("insert", alias, model, len(objs))
    if key not in _SQL:
        qn = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        _SQL[key] = (f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
                     f"VALUES {', '.join([row] * len(objs))}")
    params = [value for obj in objs for value in _values(obj, fields, connection)]
    with connection.cursor() as cursor:
        cursor.execute(_SQL[key], params)
    for obj in objs:
        _saved(obj, alias)


def insert(obj: models.Model, *, unless_exists: tuple[str, ...] = ()) -> bool:
    """INSERT one unsaved object and set its id (``RETURNING``, which SQLite 3.35+ and PostgreSQL have).

    With `unless_exists` (the fields of a unique constraint), nothing is inserted when a row with the same values
    exists (``ON CONFLICT … DO NOTHING``; on PostgreSQL it waits for a transaction still inserting one): returns
    False, and the object stays unsaved.
    """
    model = type(obj)
    alias = router.db_for_write(model)
    connection = connections[alias]
    fields = _fields(model)
    key = ("insert_one", alias, model, unless_exists)
    if key not in _SQL:
        qn = connection.ops.quote_name
        targets = ", ".join(qn(str(getattr(model._meta.get_field(name), "column"))) for name in unless_exists)
        conflict = f" ON CONFLICT ({targets}) DO NOTHING" if unless_exists else ""
        _SQL[key] = (f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
                     f"VALUES ({', '.join(['%s'] * len(fields))}){conflict} RETURNING {qn(model._meta.pk.column)}")
    with connection.cursor() as cursor:
        cursor.execute(_SQL[key], _values(obj, fields, connection))
        row = cursor.fetchone()
    if row is None:
        return False
    obj.pk = row[0]
    _saved(obj, alias)
    return True


def update(obj: models.Model, names: Sequence[str]) -> None:
    """UPDATE these fields of a saved object by its id (what ``save(update_fields=names)`` writes)."""
    model = type(obj)
    alias = router.db_for_write(model)
    connection = connections[alias]
    fields = [cast("models.Field[Any, Any]", model._meta.get_field(name)) for name in names]
    key = ("update", alias, model, tuple(names))
    if key not in _SQL:
        qn = connection.ops.quote_name
        _SQL[key] = (f"UPDATE {qn(model._meta.db_table)} SET {', '.join(f'{qn(str(f.column))} = %s' for f in fields)} "
                     f"WHERE {qn(model._meta.pk.column)} = %s")
    with connection.cursor() as cursor:
        cursor.execute(_SQL[key], [*_values(obj, fields, connection, add=False), obj.pk])  # as save(): auto_now_add kept


#: One step of `insert_linked`: unsaved objects of one model, and which of their foreign keys take the new id of the
#: (single) object of an earlier step, by that step's index.
Step = tuple[Sequence[models.Model], dict[str, int]]


def insert_linked(steps: Sequence[Step]) -> None:
    """INSERT objects that refer to each other's new ids (a hand, its revision, the revision's payments…).

    On PostgreSQL in one statement: one data-modifying ``WITH`` per step, each taking its parents' ids from the
    steps before (``INSERT … SELECT s0.id, …``), every value cast to its column's type. Elsewhere one statement a
    step. Either way the single objects get their ids and every object its parents' ids; a step with no objects
    is skipped (and may not be a parent).
    """
    steps = [(objs, parents) for objs, parents in steps]
    model = type(steps[0][0][0])
    connection = connections[router.db_for_write(model)]
    if connection.vendor != "postgresql":
        for objs, parents in steps:
            _link(objs, parents, steps)
            if len(objs) == 1:
                insert(objs[0])
            else:
                insert_all(objs)
        return
    sql, params, singles = _linked_sql(steps, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = cursor.fetchone()
    for i, pk in zip(singles, ids):
        steps[i][0][0].pk = pk
        _saved(steps[i][0][0], connection.alias)
    for objs, parents in steps:
        _link(objs, parents, steps)
        for obj in objs:
            _saved(obj, connection.alias)


def _link(objs: Sequence[models.Model], parents: dict[str, int], steps: Sequence[Step]) -> None:
    for name, index in parents.items():
        parent = steps[index][0][0]
        for obj in objs:
            setattr(obj, name, parent)


def _linked_sql(steps: Sequence[Step], connection: Any) -> tuple[str, list[Any], list[int]]:
    qn = connection.ops.quote_name
    ctes: list[str] = []
    params: list[Any] = []
    singles: list[int] = []
    for i, (objs, parents) in enumerate(steps):
        if not objs:
            continue
        model = type(objs[0])
        fields = _fields(model)
        linked = {model._meta.get_field(name).name: index for name, index in parents.items()}
        if any(len(steps[index][0]) != 1 for index in linked.values()):
            raise ValueError("a parent step must hold one object")
        own = [f for f in fields if f.name not in linked]
        cast = {f: f"CAST(%s AS {f.db_type(connection)})" for f in own}
        sources = [f"s{index}" for index in sorted(set(linked.values()))]
        if len(objs) == 1:
            exprs = [f"s{linked[f.name]}.{qn(model._meta.pk.column)}" if f.name in linked else cast[f] for f in fields]
            values = _values(objs[0], own, connection)
            select = f"SELECT {', '.join(exprs)}" + (f" FROM {', '.join(sources)}" if sources else "")
            singles.append(i)
        else:
            row = "(" + ", ".join(cast[f] for f in own) + ")"
            names = {f: f"v{k}" for k, f in enumerate(own)}
            exprs = [f"s{linked[f.name]}.{qn(model._meta.pk.column)}" if f.name in linked else f"v.{names[f]}"
                     for f in fields]
            values = [value for obj in objs for value in _values(obj, own, connection)]
            select = (f"SELECT {', '.join(exprs)} FROM (VALUES {', '.join([row] * len(objs))}) "
                      f"AS v({', '.join(names.values())})" + "".join(f", {s}" for s in sources))
        params += values
        columns = ", ".join(qn(f.column) for f in fields)
        ctes.append(f"s{i} AS (INSERT INTO {qn(model._meta.db_table)} ({columns}) {select} "
                    f"RETURNING {qn(model._meta.pk.column)})")
    ids = ", ".join(f"(SELECT {qn(type(steps[i][0][0])._meta.pk.column)} FROM s{i})" for i in singles)
    return f"WITH {', '.join(ctes)} SELECT {ids}", params, singles
