"""`workbench app`: its refusals (exit 2, one line on stderr) and the Voilà command it runs.

Starting the server for real, as root too, is covered by tests/browser/ (every browser test runs against
a server started with `workbench app --port P`). The refusals come before the command replaces itself with
Voilà (`os.execve`), so they run in this process (tests/cli_process.py refuses `os.exec*` there: a refusal
that went missing fails its test instead of replacing the test run); one runs the console entry point.
"""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
from cli_process import run_cli, run_entry_point

from workbench.server.app import (
    HOST,
    IOPUB_WAIT_S,
    NOTEBOOKS_DIR,
    SOCKET_PATH_ROOM,
    TOKEN_ENV,
    _check_port,
    free_port,
    guard_settings,
    kernel_transport_arguments,
    voila_command,
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("app", *args)


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("--port", "0"), "--port"),  # below 1
        (("--port", "70000"), "--port"),  # above 65535
    ],
)
def test_refusals_name_the_argument(args, flag):
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"workbench app: error: {flag}: "), result.stderr


def test_a_cache_path_that_is_a_file_is_refused_with_its_path(tmp_path: Path, monkeypatch):
    """The served copy goes under $XDG_CACHE_HOME; a file there is named in one line, not a raw OSError."""
    cache = tmp_path / "cache-is-a-file"
    cache.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv(TOKEN_ENV, "t" * 48)
    result = run("--no-preheat")
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench app: error: the app's folder "), result.stderr
    assert str(cache) in lines[0] and "a part of the path is a file, not a folder" in lines[0] and "XDG_CACHE_HOME" in lines[0]


def test_the_server_keeps_its_pages_to_those_with_the_token_and_its_own_origin():
    """The settings Voilà serves with: no Referer to other sites, a page that asks for the token instead of a
    login form, an access log without query strings, and the identity provider without /login or /logout that
    checks the Origin of a request carrying the token too."""
    from workbench.server.app import NEEDS_TOKEN_PAGE, GuardedIdentityProvider, log_request

    settings = guard_settings(8123)
    assert settings["headers"] == {"Referrer-Policy": "no-referrer"}
    assert settings["login_url"] == NEEDS_TOKEN_PAGE and settings["log_function"] is log_request
    assert GuardedIdentityProvider(token="t" * 48).get_handlers() == []
    assert GuardedIdentityProvider(token="t" * 48).should_check_origin(object())


def test_the_access_log_never_holds_the_token(caplog):
    from types import SimpleNamespace

    from workbench.server.app import log_request

    token = "s3cret" * 8
    request = SimpleNamespace(method="GET", path="/voila/render/monster.ipynb", uri=f"/voila/render/x?token={token}",
                              query=f"token={token}", remote_ip="127.0.0.1", request_time=lambda: 0.012)
    with caplog.at_level("INFO", logger="tornado.access"):
        log_request(SimpleNamespace(get_status=lambda: 200, request=request))
    assert "GET /voila/render/monster.ipynb" in caplog.text and token not in caplog.text


def test_the_servers_log_records_hide_the_token(caplog, monkeypatch):
    import logging

    from workbench.server.app import hide_in_logs

    monkeypatch.setattr(logging, "_logRecordFactory", logging.getLogRecordFactory())  # restored after the test
    token = "s3cret" * 8
    hide_in_logs(token)
    with caplog.at_level("WARNING", logger="tornado.general"):
        logging.getLogger("tornado.general").warning("%d %s: Kernel does not exist", 404, f"GET /api/k?token={token}")
    assert "404 GET /api/k?token=[token]: Kernel does not exist" in caplog.text and token not in caplog.text


def test_a_closed_pages_kernel_is_shut_down_within_a_minute_and_a_half(monkeypatch):
    """A visit's kernel with no page connected is shut down once idle for CULL_IDLE_S (checked every
    CULL_INTERVAL_S); a connected page keeps its kernel. The server's own test: tests/browser/."""
    from workbench.server.app import CULL_IDLE_S, CULL_INTERVAL_S, GRACE_ENV

    monkeypatch.delenv(GRACE_ENV, raising=False)
    options = dict(a.removeprefix("--").split("=", 1) for a in voila_command(Path("."), 1) if "=" in a)
    assert int(options["MappingKernelManager.cull_idle_timeout"]) == CULL_IDLE_S
    assert int(options["MappingKernelManager.cull_interval"]) == CULL_INTERVAL_S
    assert CULL_IDLE_S + CULL_INTERVAL_S <= 90 and options["MappingKernelManager.cull_connected"] == "False"


def test_a_port_in_use_is_refused():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind((HOST, 0))
        busy.listen()
        port = busy.getsockname()[1]
        # the console entry point itself, in a fresh process; the other refusals run the command in this one
        result = run_entry_point("app", "--port", str(port), timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"workbench app: error: --port: got {port} (already in use); accepts a TCP port free on {HOST}"
    )


def test_a_port_whose_server_just_stopped_is_taken_again_at_once():
    # The server closes its side of a connection first, as a stopped server does: the port waits in TIME_WAIT.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((HOST, 0))
        server.listen()
        port = server.getsockname()[1]
        client = socket.create_connection((HOST, port))
        accepted, _ = server.accept()
        accepted.close()
        client.recv(1)
        client.close()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as plain, pytest.raises(OSError):
        plain.bind((HOST, port))  # what the check did: refused while the port waits
    assert _check_port(port) == port


def test_free_port_can_be_bound():
    port = free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, port))


def test_voila_serves_the_notebooks_folder_on_localhost_only():
    command = voila_command(NOTEBOOKS_DIR, 8123, python="python")
    assert command[:5] == ["python", "-m", "workbench.server.app", "serve", str(NOTEBOOKS_DIR)]
    assert f"--Voila.ip={HOST}" in command and HOST == "127.0.0.1"
    assert "--Voila.port=8123" in command
    assert "--Voila.port_retries=0" in command  # never another port than the one printed
    assert "--no-browser" not in command  # where Voilà would open one, `serve` prints the address
    assert "--KernelManager.shutdown_wait_time=1.0" in command  # Ctrl-C never waits on a busy kernel for long
    assert f"--NotebookNotary.data_dir={NOTEBOOKS_DIR.parent / 'notary'}" in command  # site.sign_served's notary
    assert "--MappingKernelManager.cull_connected=False" in command  # a closed tab's kernel goes, an open one stays
    assert any(part.startswith("--MappingKernelManager.cull_idle_timeout=") for part in command)
    # kernels on Unix sockets: no port race with the machine's outgoing connections (tests/browser checks it live)
    assert ("--KernelManager.transport=ipc" in command) is (os.name == "posix")
    assert command[-len(kernel_transport_arguments()):] == kernel_transport_arguments()
    assert sorted(p.name for p in NOTEBOOKS_DIR.glob("*.ipynb"))  # the checkout has notebooks to serve


def test_a_pages_cell_waits_a_minute_for_its_output_after_its_reply():
    """nbclient goes on without a cell's output 4 s after its reply by default: a tool's hundreds of widget messages
    arrive after the reply, and on a busy machine the page came without its tool. The option reaches Voilà's
    executor under its real name (a misspelt option would be ignored)."""
    import nbformat
    from traitlets.config.loader import KVArgParseConfigLoader
    from voila.execute import VoilaExecutor

    options = [part for part in voila_command(NOTEBOOKS_DIR, 8123) if part.startswith("--VoilaExecutor.")]
    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=KVArgParseConfigLoader(options).load_config())
    assert executor.iopub_timeout == IOPUB_WAIT_S >= 60 > VoilaExecutor.class_traits()["iopub_timeout"].default_value


def test_the_token_never_appears_on_the_command_line():
    assert not any("token" in part.lower() for part in voila_command(NOTEBOOKS_DIR, 8123))


def test_the_guard_refuses_remote_hosts_and_foreign_origins():
    settings = guard_settings(8123)
    assert settings["allow_remote_access"] is False  # Voilà's own default is True
    assert settings["allow_origin"] == ""
    pattern = settings["allow_origin_pat"]
    assert pattern.match("http://127.0.0.1:8123") and pattern.match("http://localhost:8123")
    for foreign in ("http://evil.example", "http://127.0.0.1:8124", "http://127.0.0.1:8123.evil.example",
                    "http://localhost:81234"):
        assert not pattern.match(foreign), foreign


@pytest.mark.parametrize("token", ["short", "x" * 15, "é" * 20, "a b\tc" * 5])
def test_a_weak_token_is_refused(token, monkeypatch):
    monkeypatch.setenv(TOKEN_ENV, token)
    result = run()
    assert result.returncode == 2 and result.stdout == ""
    assert f"${TOKEN_ENV} must be 16 or more printable ASCII characters" in result.stderr


def test_each_page_asked_for_and_nothing_else_gets_one_preheated_kernel():
    from workbench.server.app import PREHEAT_OPTION, kernel_pools, preheat_arguments

    options = preheat_arguments(["monster.ipynb", "fight.ipynb"])
    assert "--VoilaConfiguration.preheat_kernel=True" in options
    assert "--VoilaConfiguration.default_pool_size=0" in options
    files = [a.removeprefix(PREHEAT_OPTION) for a in options if a.startswith(PREHEAT_OPTION)]
    assert files == ["monster.ipynb", "fight.ipynb"]
    assert not any(a.startswith("--VoilaKernelManager") for a in options)  # a dict there: a deprecation warning
    assert kernel_pools(files) == {"default": {"pool_size": 0}, "monster.ipynb": {"pool_size": 1},
                                   "fight.ipynb": {"pool_size": 1}}


def test_the_preheated_kernels_request_socket_needs_the_token_this_host_and_this_origin():
    """Voilà's /voila/query/<kernel> websocket hands a preheated kernel its visitor's request (token included):
    without the server's token, from a foreign Host, or with a foreign or no Origin it is refused; the kernel's
    own connection (visit.request_from_server: the token, 127.0.0.1 and its Origin) is not."""
    from types import SimpleNamespace

    from tornado.web import HTTPError
    from voila.request_info_handler import RequestInfoSocketHandler

    from workbench.server import patches

    token = "t" * 48

    def request(host="127.0.0.1:8123", origin="http://127.0.0.1:8123", header=f"token {token}", query=""):
        headers = {key: value for key, value in (("Origin", origin), ("Authorization", header)) if value}
        return SimpleNamespace(request=SimpleNamespace(host=host, headers=headers),
                               get_argument=lambda name, default: query or default)

    saved = RequestInfoSocketHandler.prepare, RequestInfoSocketHandler.check_origin
    try:
        patches.guard_request_info(8123, token, guard_settings(8123)["allow_origin_pat"])
        refused = [request(host=host) for host in ("evil.example:8123", "127.0.0.1:8124", "192.0.2.7:8123")]
        refused += [request(header=None), request(header="token wrong"), request(header=f"token {token}x"),
                    request(origin=None), request(origin="http://evil.example"), request(origin="null")]
        for handler in refused:
            with pytest.raises(HTTPError) as refusal:
                RequestInfoSocketHandler.prepare(handler)
            assert refusal.value.status_code == 403
        for handler in (request(), request(host="localhost:8123", origin="http://localhost:8123"),
                        request(header=None, query=token)):
            RequestInfoSocketHandler.prepare(handler)  # no refusal
        assert not RequestInfoSocketHandler.check_origin(SimpleNamespace(), "http://evil.example")
        assert RequestInfoSocketHandler.check_origin(SimpleNamespace(), "http://127.0.0.1:8123")
    finally:
        RequestInfoSocketHandler.prepare, RequestInfoSocketHandler.check_origin = saved


def test_a_visits_request_is_kept_for_its_kernel_whatever_became_of_the_connection_it_was_written_to():
    """A preheated kernel waits for its visit's request over /voila/query/<kernel>, connecting again every few
    seconds (visit.request_from_server); a request written as one connection closed, or after a closing
    connection deleted another's registration, must still reach it: else the visitor's page loads for ever."""
    from tornado.websocket import WebSocketClosedError
    from voila.request_info_handler import RequestInfoSocketHandler as Handler

    from workbench.server import patches

    class Connection(Handler):  # the handler of one connection, its socket left out
        def __init__(self, closed: bool = False) -> None:
            self.closed, self.got = closed, []

        def write_message(self, message: object, binary: bool = False) -> None:
            if self.closed:
                raise WebSocketClosedError()
            self.got.append(message)

    saved = {name: Handler.__dict__[name] for name in ("open", "on_close", "send_updates")}
    waiters, cache = dict(Handler._waiters), dict(Handler._cache)
    try:
        patches.keep_visit_requests()
        closing = Connection(closed=True)  # the kernel closed it to connect again, as the request was written
        Handler.open(closing, "k1")
        Handler.send_updates({"kernel_id": "k1", "payload": "visit 1"})
        again = Connection()
        Handler.open(again, "k1")
        assert again.got == ["visit 1"]
        # a connection closing after its kernel connected again forgets itself, not another kernel's connection
        first, other, second = Connection(), Connection(), Connection()
        Handler.open(first, "k2")
        Handler.open(other, "k3")
        Handler.open(second, "k2")
        Handler.on_close(first)
        assert Handler._waiters["k2"] is second and Handler._waiters["k3"] is other
        Handler.send_updates({"kernel_id": "k3", "payload": "visit 3"})
        assert other.got == ["visit 3"]
        for n in range(patches.KEPT_REQUESTS + 5):  # one a visit: only the newest are kept
            Handler.send_updates({"kernel_id": f"visit-{n}", "payload": n})
        assert len(Handler._cache) == patches.KEPT_REQUESTS and "visit-0" not in Handler._cache
    finally:
        for name, value in saved.items():
            setattr(Handler, name, value)
        Handler._waiters.clear()
        Handler._waiters.update(waiters)
        Handler._cache.clear()
        Handler._cache.update(cache)


def test_an_app_page_loads_no_static_plotly_renderer_and_a_lesson_keeps_it():
    from workbench.server.app import app_page_config

    def config() -> dict:
        return {"federated_extensions": [{"name": "jupyterlab-plotly"}, {"name": "anywidget"}]}

    page = app_page_config(config(), notebook_path="solos.ipynb", base_url="/")
    assert [e["name"] for e in page["federated_extensions"]] == ["anywidget"]  # its charts are FigureWidgets
    lesson = app_page_config(config(), notebook_path="02_scaling_formulas.ipynb", base_url="/")
    assert [e["name"] for e in lesson["federated_extensions"]] == ["jupyterlab-plotly", "anywidget"]


def test_kernel_sockets_go_under_a_folder_short_enough_for_a_socket_path():
    """A Unix socket's path fits in 104 bytes on macOS: Voilà's is the folder + 65 bytes, and macOS's per-user
    temporary folder (/var/folders/xx/<28 characters>/T) is too long, so /tmp is used there instead. Windows
    has no Unix sockets: its kernels keep TCP."""
    assert kernel_transport_arguments("/tmp", system="nt") == []
    assert kernel_transport_arguments("/tmp", system="posix") == ["--KernelManager.transport=ipc", "--Voila.connection_dir_root=/tmp"]
    mac = "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T"
    assert kernel_transport_arguments(mac, system="posix") == ["--KernelManager.transport=ipc", "--Voila.connection_dir_root=/tmp"]
    longest = f"/var/{'x' * (SOCKET_PATH_ROOM - 5)}"
    assert len(longest) == SOCKET_PATH_ROOM and len(f"{longest}/voila_abcdefgh/kernel-{'0' * 36}-ipc-5") == 103
    short = tempfile.mkdtemp(dir="/tmp", prefix="k")  # a temporary folder short enough is used as it is
    try:
        assert kernel_transport_arguments(short, system="posix")[-1] == f"--Voila.connection_dir_root={short}"
    finally:
        os.rmdir(short)


def test_another_grace_is_checked_four_times_over_and_a_bad_one_is_refused_by_name(monkeypatch):
    from workbench.errors import InvalidInput
    from workbench.server.app import GRACE_ENV

    monkeypatch.setenv(GRACE_ENV, "16")
    options = dict(a.removeprefix("--").split("=", 1) for a in voila_command(Path("."), 1) if "=" in a)
    assert (options["MappingKernelManager.cull_idle_timeout"], options["MappingKernelManager.cull_interval"]) == (
        "16", "4")
    for bad in ("ten", "3", "-5", "1e9", "99999", "²", "9" * 5000):  # int() refuses "²", raises past 4,300 digits
        monkeypatch.setenv(GRACE_ENV, bad)
        with pytest.raises(InvalidInput, match=GRACE_ENV):
            voila_command(Path("."), 1)
