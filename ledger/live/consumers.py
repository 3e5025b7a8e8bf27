"""Sockets of the live pages: only check who may listen to a night, then forward its events."""
from __future__ import annotations

from typing import Any, Awaitable, Callable, ParamSpec, TypeVar

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from ledger.models import Night, NightLink
from ledger import rights
from ledger.services.events import evening_name, group_name, members_name, money_name

P = ParamSpec("P")
R = TypeVar("R")


def in_db_thread(fn: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """Channels' `database_sync_to_async` (the call runs in a thread, old connections closed around it), typed:
    Channels ships no type information."""
    wrapped: Callable[P, Awaitable[R]] = database_sync_to_async(fn)
    return wrapped


#: Close code for a socket that may not (or may no longer) listen.
FORBIDDEN = 4403


class NightConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc,unused-ignore]  # Channels has no types
    """`/ws/nights/<pk>/` for members of the night, `/ws/view/<token>/` for holders of a live view link."""

    night_id: int | None = None
    group_id: int | None = None
    link_id: int | None = None
    user_id: int | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        if "token" in kwargs:
            self.night_id, self.link_id = await self._view_link(kwargs["token"])
        else:
            self.night_id = await self._member_night(int(kwargs["pk"]))
        if self.night_id is None:
            # Closing before the handshake would reach the browser as a bare 1006 (abnormal closure), which
            # live.js cannot tell from a network failure; accepting first lets it read 4403 and stop knocking.
            await self.accept()
            await self.close(code=FORBIDDEN)
            return
        await self.channel_layer.group_add(group_name(self.night_id), self.channel_name)
        if self.group_id is not None:  # a member's socket: told when the group's membership changes
            await self.channel_layer.group_add(members_name(self.group_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.night_id is not None:
            await self.channel_layer.group_discard(group_name(self.night_id), self.channel_name)
        if self.group_id is not None:
            await self.channel_layer.group_discard(members_name(self.group_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Listeners have nothing to say: any frame is ignored, before it is read (a frame that is not JSON, or
        binary, would otherwise raise in decode_json and drop the socket with a traceback)."""

    async def night_event(self, message: dict[str, Any]) -> None:
        await self.send_json(message["event"])

    async def access_revoked(self, message: dict[str, Any]) -> None:
        if self.link_id is not None and message.get("link_id") == self.link_id:
            await self.close(code=FORBIDDEN)
        elif self.user_id is not None and message.get("user_id") == self.user_id and self.night_id is not None:
            # Taken out of the night or of its group: closed unless the user still sees the night another way.
            if await self._member_night(self.night_id) is None:
                await self.close(code=FORBIDDEN)

    async def access_changed(self, message: dict[str, Any]) -> None:
        if self.user_id is not None and message.get("user_id") == self.user_id:
            await self.send_json({"kind": "role_changed", "night": self.night_id})

    @in_db_thread
    def _member_night(self, pk: int) -> int | None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        self.user_id = user.pk
        found = rights.visible_nights(user).filter(pk=pk).values_list("group_id", flat=True).first()
        if found is None:
            return None
        self.group_id = found
        return pk

    @in_db_thread
    def _view_link(self, token: str) -> tuple[int | None, int | None]:
        link = NightLink.objects.active().filter(kind=NightLink.Kind.VIEW, token=token).first()
        return (link.night_id, link.pk) if link else (None, None)


class EveningConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc,unused-ignore]  # Channels has no types
    """`/ws/evenings/<pk>/` for the members of the evening's group (who see its page): what happens at any of its
    tables (it listens to each table's night group, to the evening's own for a table added, and to the group's money
    for settlements and paid marks anywhere in the group) is forwarded, and the page fetches itself anew."""

    evening_id: int | None = None
    group_id: int | None = None
    user_id: int | None = None
    nights: list[int]

    async def connect(self) -> None:
        self.nights = []
        self.evening_id = await self._visible(int(self.scope["url_route"]["kwargs"]["pk"]))
        if self.evening_id is None:
            await self.accept()  # then 4403, which the page reads as "stop knocking" (see NightConsumer.connect)
            await self.close(code=FORBIDDEN)
            return
        # The evening's own group first: a table added while its tables are read is then told here, not lost.
        await self.channel_layer.group_add(evening_name(self.evening_id), self.channel_name)
        self.nights = await self._tables(self.evening_id)
        for name in self._listens_to()[1:]:
            await self.channel_layer.group_add(name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for name in self._listens_to():
            await self.channel_layer.group_discard(name, self.channel_name)

    def _listens_to(self) -> list[str]:
        """The evening's own group (first), its group's members' (told when membership changes), its group's money and
        each table's."""
        if self.evening_id is None or self.group_id is None:
            return []
        return [evening_name(self.evening_id), members_name(self.group_id), money_name(self.group_id),
                *map(group_name, self.nights)]

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Listeners have nothing to say (see NightConsumer.receive)."""

    async def night_event(self, message: dict[str, Any]) -> None:
        event = message["event"]
        await self.send_json({"kind": event["kind"], "night": event.get("night")})

    async def evening_table(self, message: dict[str, Any]) -> None:
        """A table was added to the evening: follow it too."""
        if message["night"] not in self.nights:
            self.nights.append(message["night"])
            await self.channel_layer.group_add(group_name(message["night"]), self.channel_name)
        await self.send_json({"kind": "table_added", "night": message["night"]})

    async def access_revoked(self, message: dict[str, Any]) -> None:
        """Someone was taken out of the group or of one of its tables: this socket closes if it was its user and
        the evening is no longer theirs to see."""
        if self.user_id is not None and message.get("user_id") == self.user_id and self.evening_id is not None:
            if await self._visible(self.evening_id) is None:
                await self.close(code=FORBIDDEN)

    async def access_changed(self, message: dict[str, Any]) -> None:
        """The user's role changed: the page fetched anew shows what they may now do."""
        if message.get("user_id") == self.user_id:
            await self.send_json({"kind": "role_changed", "night": None})

    @in_db_thread
    def _visible(self, pk: int) -> int | None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        self.user_id = user.pk
        found = rights.visible_evenings(user).filter(pk=pk).values_list("group_id", flat=True).first()
        if found is None:
            return None
        self.group_id = found
        return pk

    @in_db_thread
    def _tables(self, evening_id: int) -> list[int]:
        return list(Night.objects.filter(evening_id=evening_id).values_list("pk", flat=True))
