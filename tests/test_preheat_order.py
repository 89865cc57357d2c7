"""The order of `workbench app`'s preheats (server.preheat_order): a turn each, `limit` at a time, in the landing
page's order, a page nobody has yet before another's refill, and at once the page a visitor waits for."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from workbench.server import patches, preheat_order
from workbench.server.preheat_order import PreheatQueue


class Preheats:
    """Fake preheats: each `start` returns a kernel id and a notebook task that ends only when told."""

    def __init__(self, queue: PreheatQueue) -> None:
        self.queue = queue
        self.tasks: dict[str, asyncio.Future[None]] = {}
        self.runs: list[asyncio.Task[dict[str, Any]]] = []

    def ask(self, name: str, fail: bool = False) -> asyncio.Task[dict[str, Any]]:
        number = len(self.runs)

        async def start() -> dict[str, Any]:
            if fail:
                raise RuntimeError("the kernel did not start")
            kernel = f"{name}-{number}"
            self.tasks[kernel] = asyncio.get_running_loop().create_future()
            return {"kernel_id": kernel, "task": self.tasks[kernel]}

        run = asyncio.ensure_future(self.queue.run(name, start))
        self.runs.append(run)
        return run


def asked(order: list[str], limit: int, *names: str) -> tuple[PreheatQueue, Preheats]:
    """A queue over `order`, `limit` preheats at a time, and the preheats of `names` asked for at once."""
    preheats = Preheats(PreheatQueue(order, limit))
    for name in names:
        preheats.ask(name)
    return preheats.queue, preheats


def in_a_loop_of_its_own(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """asyncio.run in a thread of its own: in the whole suite the browser tests' Playwright keeps an event loop
    running in this thread."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, scenario()).result()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_preheats_asked_at_once_start_one_a_turn_in_page_order_each_when_the_last_page_is_built():
    async def scenario() -> None:
        queue, preheats = asked(["monster", "solos", "fight"], 1, "fight", "solos", "monster")
        await settle()
        assert queue.started == ["monster"]
        queue.built("monster-2")
        await settle()
        assert queue.started == ["monster", "solos"]
        assert preheats.runs[2].done()  # the monster page's pool holds its kernel from now on
        queue.built("solos-1")
        await settle()
        assert queue.started == ["monster", "solos", "fight"]
        queue.built("fight-0")
        await settle()
        assert all(run.done() for run in preheats.runs) and queue.running == 0

    in_a_loop_of_its_own(scenario)


def test_two_cores_run_two_preheats_at_once():
    async def scenario() -> None:
        queue, preheats = asked(["a", "b", "c"], 2, "a", "b", "c")
        await settle()
        assert queue.started == ["a", "b"]
        queue.built("b-1")
        await settle()
        assert queue.started == ["a", "b", "c"]

    in_a_loop_of_its_own(scenario)


def test_the_page_a_visitor_waits_for_starts_at_once():
    async def scenario() -> None:
        queue, preheats = asked(["a", "b", "c"], 1, "a", "b", "c")
        await settle()
        queue.want("c")
        await settle()
        assert queue.started == ["a", "c"]  # beyond the limit: the visitor does not wait for a's turn
        queue.want("c")  # asked again: nothing more to start
        queue.built("a-0")
        await settle()
        assert queue.started == ["a", "c"]  # c's turn still counts: one a core
        queue.built("c-2")
        await settle()
        assert queue.started == ["a", "c", "b"]

    in_a_loop_of_its_own(scenario)


def test_a_page_not_preheated_yet_goes_before_another_pages_refill():
    async def scenario() -> None:
        queue = PreheatQueue(["a", "b"], limit=1)
        preheats = Preheats(queue)
        preheats.ask("a")
        await settle()
        preheats.ask("b")
        preheats.ask("a")  # a was visited: its pool refills
        await settle()
        queue.built("a-0")
        await settle()
        assert queue.started == ["a", "b"]

    in_a_loop_of_its_own(scenario)


def test_a_notebook_that_does_not_wait_for_its_visit_holds_its_turn_until_it_has_run():
    async def scenario() -> None:
        queue, preheats = asked(["a", "b"], 1, "a", "b")
        await settle()
        assert queue.started == ["a"]
        preheats.tasks["a-0"].set_result(None)
        await settle()
        assert queue.started == ["a", "b"]

    in_a_loop_of_its_own(scenario)


def test_a_page_never_built_gives_up_its_turn_after_the_time_limit(monkeypatch):
    monkeypatch.setattr(preheat_order, "TURN_S", 0.05)

    async def scenario() -> None:
        queue, preheats = asked(["a", "b"], 1, "a", "b")
        await asyncio.sleep(0.2)
        assert queue.started == ["a", "b"]

    in_a_loop_of_its_own(scenario)


def test_a_kernel_that_fails_to_start_gives_up_its_turn_and_voila_hears_the_error():
    async def scenario() -> None:
        queue = PreheatQueue(["a", "b"], limit=1)
        preheats = Preheats(queue)
        failing = preheats.ask("a", fail=True)
        preheats.ask("b")
        await settle()
        assert queue.started == ["a", "b"]
        with pytest.raises(RuntimeError, match="did not start"):
            await failing

    in_a_loop_of_its_own(scenario)


def test_a_preheat_cancelled_while_waiting_for_its_turn_leaves_the_queue_working():
    async def scenario() -> None:
        queue = PreheatQueue(["a", "b", "c"], limit=1)
        preheats = Preheats(queue)
        preheats.ask("a")
        waiting = preheats.ask("b")
        preheats.ask("c")
        await settle()
        waiting.cancel()
        await settle()
        queue.built("a-0")
        await settle()
        assert queue.started == ["a", "c"] and queue.running == 1

    in_a_loop_of_its_own(scenario)


class FakeVoilaKernelManager:
    """The two methods of Voilà's preheating kernel manager that the ordered one wraps."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None]] = []

    async def _initialize(self, notebook_path: str, kernel_id: str | None = None, **options: Any) -> dict[str, Any]:
        self.calls.append((notebook_path, kernel_id))
        task = asyncio.get_running_loop().create_future()
        task.set_result(None)  # its notebook has run
        return {"kernel_id": kernel_id or f"k-{notebook_path}", "task": task, **options}

    async def get_rendered_notebook(self, notebook_name: str) -> str:
        return f"rendered {notebook_name}"


def test_voilas_preheating_kernel_manager_starts_its_pools_through_the_queue_and_restarts_directly():
    queue = PreheatQueue(["a", "b"], limit=1)
    manager_class = preheat_order.ordered_factory(lambda *args, **kwargs: FakeVoilaKernelManager, queue)()
    assert manager_class.__name__ == "FakeVoilaKernelManager"  # Voilà's configuration still finds its class

    async def scenario() -> None:
        manager = manager_class()
        content = await manager._initialize("b", path="pages")
        assert content["kernel_id"] == "k-b" and content["path"] == "pages" and queue.started == ["b"]
        await manager._initialize("a", "k-old")  # a restarted kernel: no turn taken
        assert queue.started == ["b"] and manager.calls[-1] == ("a", "k-old")
        assert await manager.get_rendered_notebook("a") == "rendered a"

    in_a_loop_of_its_own(scenario)


def test_without_preheating_voilas_class_is_left_as_it_is():
    class Plain:
        pass

    assert preheat_order.ordered_factory(lambda *args, **kwargs: Plain, PreheatQueue([], 1))() is Plain


def test_install_wraps_voilas_factory_and_hears_each_kernel_connect_for_its_visit(monkeypatch):
    import voila.app
    from voila.request_info_handler import RequestInfoSocketHandler

    monkeypatch.setattr(voila.app, "voila_kernel_manager_factory", voila.app.voila_kernel_manager_factory)
    monkeypatch.setattr(RequestInfoSocketHandler, "open", RequestInfoSocketHandler.open)
    opened: list[str] = []
    monkeypatch.setattr(RequestInfoSocketHandler, "open", lambda handler, kernel_id: opened.append(kernel_id))
    queue = preheat_order.new_queue(["a"], limit=1)
    patches.order_preheats(queue, preheat_order.ordered_factory)

    async def scenario() -> None:
        preheats = Preheats(queue)
        run = preheats.ask("a")
        await settle()
        RequestInfoSocketHandler.open(object(), "a-0")  # the kernel built its page and waits for the visit
        await settle()
        assert opened == ["a-0"] and run.done()

    in_a_loop_of_its_own(scenario)
    assert voila.app.voila_kernel_manager_factory.__name__ == "in_order"
