"""A page built before its visit (Voilà's preheated kernels): it is built again at the visit exactly when the
Director's folder changed in between, waits only in a preheated kernel, and points charts at the server's
copy of plotly's JavaScript only under `workbench app`."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from workbench.apps.pages import fight_page, solos_page
from workbench.encounter.encounter import Encounter
from workbench.encounter.party import make_party
from workbench.server import visit
from workbench.server.page_renderer import BUNDLE_VARIABLE
from workbench.workspace.state import Workspace, save_workspace


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    monkeypatch.delenv(visit.PREHEAT_VARIABLE, raising=False)
    monkeypatch.delenv(BUNDLE_VARIABLE, raising=False)


def _level(page) -> int:
    """The solos page's Level slider (the page opens at the party's level)."""
    stack = [page]
    while stack:
        w = stack.pop(0)
        if isinstance(w, widgets.IntSlider) and w.description == "Level":
            return w.value
        stack.extend(getattr(w, "children", ()))
    raise AssertionError("no Level slider")


def test_a_page_is_built_again_when_another_page_saved_meanwhile():
    """The solos page was preheated for a level 1 party; before the visit the encounter page saved a level 7
    party: the visitor sees level 7."""
    def another_page_saves() -> None:
        save_workspace(Workspace(encounter=Encounter(party=make_party(heroes=4, level=7))))

    built = []

    def build():
        built.append(solos_page())
        return built[-1]

    page = visit.page_for_visit(build, wait=another_page_saves)
    assert len(built) == 2 and page is built[1]
    assert _level(built[0]) == 1 and _level(page) == 7
    assert built[0].comm is None  # the page built before the visit is closed, its widgets with it
    assert all(child.comm is None for child in built[0].children)


def test_an_unchanged_folder_keeps_the_page_built_before_the_visit():
    save_workspace(Workspace(encounter=Encounter(party=make_party(heroes=4, level=3))))
    built = []
    page = visit.page_for_visit(lambda: built.append(fight_page()) or built[-1], wait=lambda: None)
    assert built == [page] and page.comm is not None


def test_outside_a_preheated_kernel_nothing_waits(monkeypatch):
    monkeypatch.setenv(visit.PREHEAT_VARIABLE, "False")  # a kernel Voilà started for the visit
    visit.wait_for_visit()  # returns at once: no server to ask
    assert not visit.preheated()


def test_a_preheated_kernel_waits_once_for_its_visit(monkeypatch):
    calls = []
    monkeypatch.setattr(visit, "request_from_server",
                        lambda: calls.append(1) or {visit.VISITED_VARIABLE: "voila/0.5"})
    monkeypatch.setenv(visit.PREHEAT_VARIABLE, "True")
    assert visit.preheated()
    visit.wait_for_visit()
    visit.wait_for_visit()  # the page is visited now: nothing more to wait for
    assert calls == [1] and not visit.preheated()
    assert visit.os.environ[visit.VISITED_VARIABLE] == "voila/0.5"  # the visit's request, for the page


class Left(Exception):
    """What the test's `os._exit` raises instead of ending the test process."""


@pytest.fixture
def preheated_kernel(monkeypatch):
    """A preheated kernel whose `os._exit` is recorded, and whose ipykernel is `kernel` (None: not started)."""
    from ipykernel.kernelbase import Kernel

    monkeypatch.setenv(visit.PREHEAT_VARIABLE, "True")
    monkeypatch.delenv(visit.VISITED_VARIABLE, raising=False)

    def leave(status: int) -> None:
        raise Left(status)

    monkeypatch.setattr(visit.os, "_exit", leave)
    kernel = type("FakeKernel", (), {"_shutdown_message": None})()
    monkeypatch.setattr(Kernel, "initialized", classmethod(lambda cls: True))
    monkeypatch.setattr(Kernel, "instance", classmethod(lambda cls: kernel))
    return kernel


def _no_visit(monkeypatch) -> None:
    monkeypatch.setattr(visit, "request_from_server", lambda: None)  # returned with no request handed over


def test_a_preheated_kernel_shut_down_before_any_visit_leaves_at_once(monkeypatch, preheated_kernel):
    import threading

    _no_visit(monkeypatch)
    # the shutdown request arrives a moment after the wait ended (the server closed the connection first)
    threading.Timer(0.2, lambda: setattr(preheated_kernel, "_shutdown_message", {"msg_type": "shutdown_reply"})
                    ).start()
    with pytest.raises(Left) as left:
        visit.wait_for_visit()
    assert left.value.args == (0,)


def test_a_visited_kernel_builds_its_page_even_when_asked_to_shut_down_meanwhile(monkeypatch, preheated_kernel):
    monkeypatch.setattr(visit, "request_from_server", lambda: {visit.VISITED_VARIABLE: "voila/0.5"})
    preheated_kernel._shutdown_message = {"msg_type": "shutdown_reply"}
    visit.wait_for_visit()  # returns: the visitor's page goes on


def test_a_kernel_that_missed_its_request_but_runs_on_builds_its_page(monkeypatch, preheated_kernel):
    """The wait gave up (a server that did not take the connection within `REQUEST_PATIENCE_S`): the page is
    built, as before, and the kernel stays for its visitor."""
    _no_visit(monkeypatch)
    monkeypatch.setattr(visit, "SHUTDOWN_WAIT_S", 0.2)
    visit.wait_for_visit()
    assert not visit.shutting_down()


@pytest.fixture
def query_server(monkeypatch):
    """A websocket server standing in for Voilà's `/voila/query/<kernel>`: `serve(handler)` starts it with
    `handler(connection)` and points this kernel's Voilà variables at it; the paths asked are in `asked`."""
    import threading

    from websockets.sync.server import serve

    servers, asked = [], []

    def start(handler, process_request=None):
        def record(connection):
            headers = connection.request.headers
            asked.append((connection.request.path, headers.get("Origin"), headers.get("Authorization")))
            handler(connection)

        server = serve(record, "127.0.0.1", 0, process_request=process_request)
        servers.append(server)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        monkeypatch.setenv("VOILA_APP_PORT", str(server.socket.getsockname()[1]))
        return asked

    monkeypatch.setenv("VOILA_SERVER_URL", "/base/")
    monkeypatch.setenv("VOILA_KERNEL_ID", "kernel-1")
    yield start
    for server in servers:
        server.shutdown()


REQUEST = {"SERVER_SOFTWARE": "voila/0.5.13", "QUERY_STRING": "token=abc", "SCRIPT_NAME": "/voila/render/x.ipynb"}


def test_the_visit_request_arrives_whole_over_voilas_query_websocket(query_server, monkeypatch):
    import json

    asked = query_server(lambda connection: connection.send(json.dumps(REQUEST)))
    monkeypatch.setenv(visit.TOKEN_VARIABLE, "the-servers-token")
    assert visit.request_from_server() == REQUEST
    port = visit.os.environ["VOILA_APP_PORT"]  # the kernel shows the server's token and its own address as Origin
    assert asked == [("/base/voila/query/kernel-1", f"http://127.0.0.1:{port}", "token the-servers-token")]


def test_the_request_is_asked_where_and_as_voilas_own_wait_asks_it(query_server, monkeypatch):
    """Voilà's `wait_for_request` (which the pages do not import) against the same server: the same address,
    and the same variables set."""
    import asyncio
    import json

    import voila.utils

    asked = query_server(lambda connection: connection.send(json.dumps(REQUEST)))
    for key in REQUEST:
        monkeypatch.setenv(key, "")  # restored after the test: Voilà's wait sets them in os.environ
    monkeypatch.setenv(visit.PREHEAT_VARIABLE, "True")
    # Voilà's wait leaves its event loop open, and its ResourceWarning would surface in whichever test
    # happens to collect it: the loops it makes are kept here and closed once it returns.
    loops: list[asyncio.AbstractEventLoop] = []
    make_loop = asyncio.new_event_loop

    def new_event_loop() -> asyncio.AbstractEventLoop:
        loops.append(make_loop())
        return loops[-1]

    with monkeypatch.context() as patch:
        patch.setattr(voila.utils.asyncio, "new_event_loop", new_event_loop)
        voila.utils.wait_for_request()
    for loop in loops:
        loop.close()
    assert loops, "Voilà's wait no longer makes an event loop of its own"
    assert {key: visit.os.environ[key] for key in REQUEST} == visit.request_from_server()
    assert asked[0][0] == asked[1][0]


def test_a_server_too_busy_to_take_the_connection_in_time_is_asked_again(query_server, monkeypatch):
    """A loaded server takes longer than one try to answer the handshake: the kernel asks again and gets its
    visit, rather than keep a page built before it, idle in the pool."""
    import json
    import time

    monkeypatch.setattr(visit, "REQUEST_OPEN_TIMEOUT_S", 0.3)
    tries = []

    def slow_the_first(connection, request):
        tries.append(request.path)
        if len(tries) == 1:
            time.sleep(1.0)  # the first handshake answered after the kernel's try has timed out
        return None

    query_server(lambda connection: connection.send(json.dumps(REQUEST)), process_request=slow_the_first)
    assert visit.request_from_server() == REQUEST
    assert len(tries) >= 2


def test_a_request_kept_for_a_lost_connection_arrives_when_the_kernel_connects_again(query_server, monkeypatch):
    """Voilà lost track of the kernel's connection and kept the visit's request for its next one: the waiting
    kernel connects again and gets it, instead of waiting on a connection nothing will ever write to."""
    import json
    import threading

    monkeypatch.setattr(visit, "REQUEST_RECHECK_S", 0.2)
    lost = threading.Event()

    def answer_the_second(connection):
        if lost.is_set():
            connection.send(json.dumps(REQUEST))
        else:
            lost.set()  # the first connection is never written to
            connection.recv()  # until the kernel closes it

    asked = query_server(answer_the_second)
    got = []
    waiting = threading.Thread(target=lambda: got.append(visit.request_from_server()), daemon=True)
    waiting.start()
    waiting.join(10)
    assert got == [REQUEST] and len(asked) == 2


def test_a_wait_closed_with_no_visit_or_a_server_not_there_is_no_request(query_server, monkeypatch):
    asked = query_server(lambda connection: connection.close())
    assert visit.request_from_server() is None and len(asked) == 1
    from workbench.server.app import free_port

    monkeypatch.setenv("VOILA_APP_PORT", str(free_port()))  # nothing listens there
    assert visit.request_from_server() is None


def test_charts_load_plotly_from_the_server_only_under_workbench_app(monkeypatch):
    """Without a served bundle the server's charts carry plotly's JavaScript; with one they import it, and
    plotly's own FigureWidget is left as it is (the server changes no class of plotly's)."""
    import plotly.graph_objects as go

    from workbench.server.charts import ServedCharts

    figure = go.Figure(go.Bar(y=[1]))
    assert len(str(ServedCharts().widget(figure)._esm)) > 1_000_000  # no workbench app: carried
    monkeypatch.setenv(BUNDLE_VARIABLE, "voila/static/plotly-widget-9.js?v=9")
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    shim = ServedCharts().widget(figure)._esm
    assert '"/base/voila/static/plotly-widget-9.js?v=9"' in shim and len(shim) < 1000
    assert "export default" in shim
    assert len(str(go.FigureWidget(figure)._esm)) > 1_000_000
