"""The order in which `workbench app` preheats its pages: one per core at a time, in the landing page's order,
and at once the page a visitor is waiting for.

Why: Voilà starts every page's preheated kernel at once when the server starts. The six page notebooks then
share the cores and are all ready together, several seconds after the start; a Director who opened the first
page on the landing page right away waited for all six. In turn, the first pages are ready first.

How: `patches.order_preheats` wraps Voilà's kernel manager with `ordered_factory`. A page's preheat takes a turn
(`PreheatQueue.run`) and holds it until the page is built: its kernel then connects to Voilà's request-info
websocket to wait for the visit (`visit.wait_for_visit`), which `built` hears. A notebook that does not wait for its
visit holds the turn until it has run, and none holds it longer than `TURN_S`. A visitor who asks for a page whose
preheat is still waiting for its turn gets it started at once (`want`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

__all__ = ["TURN_S", "PreheatQueue", "new_queue", "ordered_factory"]

TURN_S = 120.0  # the longest a preheat holds its turn (a page that never gets built must not stop the others)


class PreheatQueue:
    """Preheats run `limit` at a time; of the waiting ones, a page preheated fewer times starts first (a page
    not ready at all before another's refill after a visit), then the first in `order` (names not in it last)."""

    def __init__(self, order: Sequence[str], limit: int) -> None:
        self._rank = {name: index for index, name in enumerate(order)}
        self._limit = max(1, limit)
        self.running = 0
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}
        self._built: dict[str, asyncio.Future[None]] = {}  # kernel id -> done when the page is built
        self.started: list[str] = []  # the names, in the order their preheats started

    async def run(self, name: str, start: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """Start `name`'s preheat (`start()`: Voilà's, which returns its kernel id and its notebook's task)
        in its turn, and keep the turn until the page is built."""
        turn = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(name, []).append(turn)
        asyncio.get_running_loop().call_soon(self._next)  # after every preheat asked for at once has queued
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the turn was given just as the preheat was cancelled
            raise
        try:
            self.started.append(name)
            content = await start()
            await self._until_built(content["kernel_id"], content["task"])
            return content
        finally:
            self._release()

    def want(self, name: str) -> None:
        """A visitor waits for `name`: if its preheat is waiting for a turn, it starts now."""
        self._give(name)

    def built(self, kernel_id: str) -> None:
        """The kernel `kernel_id` has built its page and waits for its visitor."""
        self._built.setdefault(kernel_id, asyncio.get_running_loop().create_future())
        if not self._built[kernel_id].done():
            self._built[kernel_id].set_result(None)

    async def _until_built(self, kernel_id: str, task: asyncio.Future[Any]) -> None:
        built = self._built.setdefault(kernel_id, asyncio.get_running_loop().create_future())
        try:
            await asyncio.wait({built, task}, timeout=TURN_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._built.pop(kernel_id, None)

    def _next(self) -> None:
        while self.running < self._limit:
            names = [name for name, turns in self._waiting.items() if turns]
            if not names:
                return
            self._give(min(names, key=lambda name: (self.started.count(name), self._rank.get(name, len(self._rank)))))

    def _give(self, name: str) -> None:
        turns = self._waiting.get(name, [])
        while turns:
            turn = turns.pop(0)
            if not turn.done():
                self.running += 1
                turn.set_result(None)
                return

    def _release(self) -> None:
        self.running -= 1
        self._next()


def new_queue(order: Sequence[str], limit: int | None = None) -> PreheatQueue:
    """The queue of `workbench app`'s preheats (`limit`: the machine's cores by default); `patches.order_preheats`
    makes Voilà start its preheated kernels through it."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return PreheatQueue(order, limit or cores)


def ordered_factory(factory: Callable[..., type], queue: PreheatQueue) -> Callable[..., type]:
    """Voilà's kernel-manager factory, whose preheating class starts its pool's kernels through `queue` (its
    `_initialize` and `get_rendered_notebook` are Voilà's, as `patches.NEEDS` lists)."""

    def in_order(*args: Any, **kwargs: Any) -> type:
        base: type = factory(*args, **kwargs)
        if not hasattr(base, "get_rendered_notebook"):
            return base  # preheating off: Voilà's class unchanged

        class OrderedKernelManager(base):  # type: ignore[misc]
            async def _initialize(self, notebook_path: str, kernel_id: str | None = None,
                                  **options: Any) -> Any:
                own = super()._initialize
                if kernel_id is not None:  # a restart: the kernel is there already
                    return await own(notebook_path, kernel_id, **options)
                return await queue.run(notebook_path, lambda: own(notebook_path, None, **options))

            async def get_rendered_notebook(self, notebook_name: str, *args: Any, **options: Any) -> Any:
                queue.want(notebook_name)
                return await super().get_rendered_notebook(notebook_name, *args, **options)

        OrderedKernelManager.__name__ = OrderedKernelManager.__qualname__ = base.__name__
        return OrderedKernelManager

    return in_order
