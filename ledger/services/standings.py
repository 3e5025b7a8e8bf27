"""The night standings (`NightStanding`: what each night brought each player), kept in the transaction of every
change that moves them, so statistics read one row per night and player however many hands there are.

Two ways to keep them, both plain ORM:

- a hand recorded *adds* its seat results to the seated players' lines, read with the seating (`seated_lines`,
  under the night's row lock) and written back with one upsert (`add_recorded`): the hot path, whatever the size
  of the night; a hand corrected or voided adds and takes away seat results with one ``UPDATE`` (`add_hand`);
- every other change that moves them (a player seated, a night closed with its fee shares, a penalty or
  adjustment, a merge of two names, a restored backup) *recomputes* the nights it touched from the rows they sum
  (`refresh`): rare writes, each bounded by its nights.

`computed` is that recomputation, read-only: `manage.py check_ledger` compares it with what is kept.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Case, Count, DecimalField, F, FilteredRelation, IntegerField, Q, Sum, Value, When
from django.db.models.expressions import BaseExpression
from django.db.models.functions import Round

from ledger.models import FeeShare, MoneySum, NightStanding, Player, Seating, SeatResult
from ledger.selectors.stats import counted_adjustments, counted_results

#: The columns of a standing, in the order `computed` gives them; the first six are summed from the hands.
COLUMNS = ("hands", "wins", "won_hands", "self_draws", "deal_in_hands", "hands_net", "fee", "adjusted")
HAND_COLUMNS = COLUMNS[:6]
_AMOUNT: Any = DecimalField(max_digits=16, decimal_places=4)

Line = tuple[int, int, int, int, int, Decimal, Decimal, Decimal]


def seat(night_id: int, player_ids: Iterable[int]) -> None:
    """Give the players a line of the night if they have none yet (seated at a new night, or at a seat change)."""
    NightStanding.objects.bulk_create([NightStanding(night_id=night_id, player_id=pk) for pk in player_ids],
                                      ignore_conflicts=True)


@dataclass(frozen=True)
class Seated:
    """A seat of a night now: who sits there, and their line of the night (None if they have none yet)."""

    player: Player
    line: NightStanding | None


def seated_lines(night_id: int, group_id: int, also: Mapping[str, BaseExpression] | None = None
                 ) -> tuple[list[Seated], dict[str, Any]]:
    """The night's seats, in order, each with its player (id and name) and the player's line of the night, in one
    query (the seating, its players and their lines of this night, joined); with the values of `also`, expressions
    about the night as a whole (uncorrelated subqueries, the same on every seat), read by the same statement."""
    lines = FilteredRelation("player__standings", condition=Q(player__standings__night_id=night_id))
    also = dict(also or {})
    rows = list(Seating.objects.filter(night_id=night_id).annotate(line=lines, **also).order_by("seat")
                .values("player_id", "player__name", *(f"line__{c}" for c in COLUMNS), *also))
    seated = [Seated(player=Player(pk=r["player_id"], name=r["player__name"], group_id=group_id),
                     line=None if r["line__hands"] is None else NightStanding(
                         night_id=night_id, player_id=r["player_id"], **{c: r[f"line__{c}"] for c in COLUMNS}))
              for r in rows]
    return seated, {name: rows[0][name] if rows else None for name in also}


def add_recorded(night_id: int, seated: list[Seated], seats: Iterable[SeatResult]) -> None:
    """Add a recorded hand's seat results to the seated players' lines as `seated_lines` read them (under the
    night's row lock, which every writer of the night's lines holds) and write the new values back with one
    ``INSERT … ON CONFLICT DO UPDATE`` (`bulk_create(update_conflicts=True)`). Should a seated player have had no
    line (night_create and seat_change give them one; a derived row must never drift), the night is recomputed."""
    lines = {s.player.pk: s.line for s in seated}
    written = []
    for row in seats:
        line = lines.get(row.player_id) or NightStanding(night_id=night_id, player_id=row.player_id)
        line.hands += 1
        line.wins += row.wins
        line.won_hands += 1 if row.won else 0
        line.self_draws += row.self_draws
        line.deal_in_hands += 1 if row.dealt_in else 0
        line.hands_net += row.net
        written.append(line)
    NightStanding.objects.bulk_create(written, update_conflicts=True, unique_fields=["night", "player"],
                                      update_fields=list(HAND_COLUMNS))
    if None in lines.values():
        refresh([night_id])


def add_hand(night_id: int, seats: Iterable[SeatResult], *, taken: Iterable[SeatResult] = ()) -> None:
    """Add a hand revision's seat results to the night's lines and take away those of `taken` (a correction's old
    revision; a voided hand's current one, with no `seats`): one UPDATE, under the night's row lock the caller
    holds. Should a line be missing (nothing writes seat results for a player without one), the night is recomputed
    instead. A line that drifted otherwise (edited by hand) is what `manage.py check_ledger` reports."""
    deltas: dict[int, list[int | Decimal]] = {}
    for sign, rows in ((1, seats), (-1, taken)):
        for row in rows:
            line = deltas.setdefault(row.player_id, [0, 0, 0, 0, 0, Decimal(0)])
            for i, value in enumerate((1, row.wins, 1 if row.won else 0, row.self_draws, 1 if row.dealt_in else 0,
                                       row.net)):
                line[i] += sign * value
    if not deltas:
        return

    def plus(column: str, i: int) -> Any:
        field = _AMOUNT if column == "hands_net" else IntegerField()
        whens = [When(player_id=pk, then=Value(line[i], output_field=field)) for pk, line in deltas.items()]
        added = F(column) + Case(*whens, default=Value(0, output_field=field), output_field=field)
        # SQLite adds a decimal column as binary floats: rounded back to the amount's 4 places, so no drift builds up.
        return Round(added, _AMOUNT.decimal_places, output_field=field) if column == "hands_net" else added

    updated = (NightStanding.objects.filter(night_id=night_id, player_id__in=sorted(deltas))
               .update(**{column: plus(column, i) for i, column in enumerate(HAND_COLUMNS)}))
    if updated != len(deltas):
        refresh([night_id])


def computed(night_ids: Iterable[int]) -> dict[tuple[int, int], Line]:
    """(night id, player id) -> the line recomputed from the seat results, fee shares, penalties and adjustments
    that count, and the seating: four grouped queries whatever the nights."""
    ids = sorted(set(night_ids))
    lines: dict[tuple[int, int], list[int | Decimal]] = {}

    def line(night_id: int, player_id: int) -> list[int | Decimal]:
        return lines.setdefault((night_id, player_id), [0, 0, 0, 0, 0, Decimal(0), Decimal(0), Decimal(0)])

    for night_id, player_id in Seating.objects.filter(night_id__in=ids).values_list("night_id", "player_id"):
        line(night_id, player_id)
    for r in (counted_results().filter(revision__hand__night_id__in=ids).order_by()
              .values("player_id", night_id=F("revision__hand__night_id"))
              .annotate(n=Count("pk"), w=Sum("wins"), wh=Count("pk", filter=Q(won=True)), sd=Sum("self_draws"),
                        di=Count("pk", filter=Q(dealt_in__gt=0)), net=MoneySum("net"))):
        line(r["night_id"], r["player_id"])[:6] = [r["n"], r["w"], r["wh"], r["sd"], r["di"], r["net"]]
    for night_id, player_id, amount in FeeShare.objects.filter(night_id__in=ids).values_list("night_id", "player_id",
                                                                                            "amount"):
        line(night_id, player_id)[6] = amount
    for r in (counted_adjustments().filter(adjustment__night_id__in=ids).order_by()
              .values("player_id", night_id=F("adjustment__night_id")).annotate(s=MoneySum("net"))):
        line(r["night_id"], r["player_id"])[7] = r["s"]
    return {key: tuple(values) for key, values in lines.items()}  # type: ignore[misc]


def refresh(night_ids: Iterable[int]) -> None:
    """Recompute the nights' lines from what they sum (`computed`) and store them in place of the old ones."""
    ids = sorted(set(night_ids))
    if not ids:
        return
    lines = computed(ids)
    NightStanding.objects.filter(night_id__in=ids).delete()
    NightStanding.objects.bulk_create(
        [NightStanding(night_id=night_id, player_id=player_id, **dict(zip(COLUMNS, values)))
         for (night_id, player_id), values in sorted(lines.items())], batch_size=500)


def kept(night_ids: Iterable[int]) -> dict[tuple[int, int], Line]:
    """The lines as kept, in the shape of `computed` (for comparing the two)."""
    rows = NightStanding.objects.filter(night_id__in=sorted(set(night_ids))).values_list("night_id", "player_id",
                                                                                       *COLUMNS)
    return {(r[0], r[1]): tuple(r[2:]) for r in rows}


def differences(night_ids: Iterable[int]) -> list[tuple[int, int, Line | None, Line | None]]:
    """(night id, player id, kept, computed) wherever the two differ; a line of zeros counts as no line (a player
    seated and replaced before their first hand keeps one)."""
    ids = list(night_ids)
    kept_lines, computed_lines = _nonzero(kept(ids)), _nonzero(computed(ids))
    return [(n, p, kept_lines.get((n, p)), computed_lines.get((n, p)))
            for n, p in sorted(set(kept_lines) | set(computed_lines))
            if kept_lines.get((n, p)) != computed_lines.get((n, p))]


def _nonzero(lines: dict[tuple[int, int], Line]) -> dict[tuple[int, int], Line]:
    return {key: line for key, line in lines.items() if any(line)}


__all__ = ["COLUMNS", "HAND_COLUMNS", "Seated", "add_hand", "add_recorded", "computed", "differences", "kept", "refresh", "seat",
           "seated_lines"]
