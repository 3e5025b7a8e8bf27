"""Sockets of the live pages: only check who may listen to a night, then forward its events."""
from __future__ import annotations

from typing import Any, Awaitable, Callable, ParamSpec, TypeVar

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from ledger.models import NightLink
from ledger import rights
from ledger.services.events import group_name, members_name

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
