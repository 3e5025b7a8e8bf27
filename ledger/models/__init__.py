"""The ledger's tables, one module per entity, all of one app (`ledger`); every model is importable from
here (`from ledger.models import Night`)."""
from ledger.models.players import Player as Player, PlayerQuerySet as PlayerQuerySet
from ledger.models.nights import night_day as night_day, Night as Night, NightPage as NightPage, NightQuerySet as NightQuerySet, page_of as page_of, SEATS as SEATS, Seating as Seating
from ledger.models.hands import Hand as Hand, HandRevision as HandRevision, SeatResult as SeatResult, WinResult as WinResult, seat_results as seat_results, win_amounts as win_amounts, win_results as win_results
from ledger.models.adjustments import Adjustment as Adjustment, AdjustmentSeat as AdjustmentSeat, Confirmation as Confirmation
from ledger.models.audit import AuditEntry as AuditEntry
from ledger.models.groups import Evening as Evening, FeeShare as FeeShare, Group as Group  # noqa: E402
from ledger.models.groups import GroupLink as GroupLink, GroupMember as GroupMember  # noqa: E402
from ledger.models.groups import Settlement as Settlement, SettlementTransfer as SettlementTransfer  # noqa: E402
from ledger.web.idempotency import IdempotencyRecord as IdempotencyRecord  # noqa: E402  (exactly-once API writes)
from ledger.web.counters import RateCounter as RateCounter  # noqa: E402  (the rate limits' counters)
from ledger.models.sharing import AccountLanguage as AccountLanguage, NightLink as NightLink  # noqa: E402
from ledger.models.standings import NightStanding as NightStanding  # noqa: E402  (derived: services.standings)
from ledger.models.money import MoneySum as MoneySum  # noqa: E402  (exact sums of amounts, SQLite included)
