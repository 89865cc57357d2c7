"""The "Add a bestiary" control driven as a Director would: a link typed (served here from a local HTTP server in a
thread, never the internet), a folder typed, a file uploaded; the progress bar from the first file, the failing
files named, the offline message in plain words, and the encounter page's browser filled with the monsters and
their attribution."""

from __future__ import annotations

import datetime
import functools
import http.server
import io
import json
import os
import socket
import tarfile
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest
from widget_tree import inner

from workbench.apps import pages
from workbench.apps.bestiary_add import SHOWN_FAILURES, BestiaryAdder, upload_name
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.formats.stat_block import stat_block_data
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME
from workbench.workspace.folder import bestiaries_folder

LICENCE = "Test monsters made by the workbench tests, free to use for anything."
BROKEN = "Broken/<b>broken</b>.json"  # a file name that would be markup if it were not escaped


def stat_block_files() -> list[Path]:
    return sorted(SAMPLE_DIR.rglob("*.json"))[:5]


def renamed(path: Path, name: str) -> bytes:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["name"] = name
    return json.dumps(data).encode("utf-8")


def archive_bytes(kind: str, *, broken: int = 1, prefix: str = "Test") -> bytes:
    """A bestiary archive made here: five sample stat blocks renamed, `broken` files that do not read, a LICENSE."""
    members = {f"monsters/{p.name}": renamed(p, f"{prefix} {i}") for i, p in enumerate(stat_block_files())}
    for number in range(broken):
        name = BROKEN if number == 0 else f"Broken/broken-{number}.json"
        members[name] = b'{"type": "statblock", "name": '
    members["LICENSE"] = (LICENCE + "\n\nThe rest of the licence.\n").encode("utf-8")
    buffer = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buffer, "w") as z:
            for name, data in members.items():
                z.writestr(name, data)
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz") as t:
            for name, data in members.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


class _CountingHandler(http.server.SimpleHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:
        type(self).requests.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def served(tmp_path):
    """A local HTTP server in a thread serving tmp_path/www: (folder, base URL, the paths requested)."""
    www = tmp_path / "www"
    www.mkdir()
    handler = type("Handler", (_CountingHandler,), {"requests": []})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(www)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{server.server_address[1]}", handler.requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(autouse=True)
def desk(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no old library folder of the machine's user


class Bar:
    """Every state the progress bar was drawn in, as (description, value, max, shown)."""

    def __init__(self, adder: BestiaryAdder) -> None:
        self.states: list[tuple[str, int, int, bool]] = []
        self.adder = adder
        adder.progress.observe(self._changed, names=["value", "description"])

    def _changed(self, _change: object) -> None:
        bar = self.adder.progress
        self.states.append((bar.description, bar.value, bar.max, bar.layout.display != "none"))


def plain(text: str) -> None:
    """What a Director reads: no Python repr, None, traceback or field code name."""
    for word in ("None", "Traceback", "InvalidInput", "got '", "source:"):
        assert word not in text


def press(adder: BestiaryAdder) -> None:
    """Press "Add the bestiary" and wait for the adding (it runs in a thread of its own) to end."""
    adder.add.click()
    adder.wait(60)


def test_a_link_is_fetched_only_at_the_press_with_a_bar_from_the_first_file(tmp_path, served):
    www, base, requests = served
    (www / "monsters.zip").write_bytes(archive_bytes("zip"))
    added: list[object] = []
    adder = BestiaryAdder(on_added=added.append)
    bar = Bar(adder)
    adder.source.value = f"{base}/monsters.zip"
    assert requests == [] and not bestiaries_folder().exists()  # typing fetches nothing
    press(adder)
    assert requests == ["/monsters.zip"]
    reads = [s for s in bar.states if s[0].startswith("Reading")]
    total = len(stat_block_files()) + 1  # the broken file is read too
    assert reads[0] == (f"Reading 0 of {total} files", 0, total, True)  # drawn at the first file
    assert reads[-1] == (f"Reading {total} of {total} files", total, total, True)
    assert bar.states[0][0].startswith("Downloading") and bar.states[0][3]
    said = adder.message.value
    assert f"Added monsters: {len(stat_block_files())} monsters" in said
    assert LICENCE in said
    assert "1 file(s) could not be read" in said and "Broken/&lt;b&gt;broken&lt;/b&gt;.json" in said
    assert "<b>broken</b>" not in said
    plain(said)
    assert [b.name for b in added] == ["monsters"]  # type: ignore[attr-defined]
    assert (bestiaries_folder() / "monsters" / "bestiary.json").is_file()
    assert not adder.add.disabled


def test_offline_the_message_says_what_to_do_in_plain_words(served):
    _www, base, _requests = served
    adder = BestiaryAdder()
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for url, why in ((f"http://127.0.0.1:{port}/b.zip", "no connection"), (f"{base}/missing.zip", "404")):
        adder.source.value = url
        press(adder)
        said = adder.message.value
        assert f"Could not fetch {url}" in said and why in said
        assert "download the file in a browser" in said and "Upload" in said
        plain(said)
    assert not bestiaries_folder().exists() or list(bestiaries_folder().iterdir()) == []


@pytest.mark.parametrize(("kind", "file"), [("tar", "Steel Beasts.tar.gz"), ("zip", "steel-beasts.zip")])
def test_an_uploaded_archive_is_added_under_its_file_name(kind, file):
    adder = BestiaryAdder()
    data = archive_bytes(kind, broken=0)
    adder.upload.value = ({"name": file, "type": "application/octet-stream", "size": len(data),
                           "content": memoryview(data), "last_modified": datetime.datetime.now(datetime.UTC)},)
    press(adder)
    name = file.split(".", 1)[0]
    assert f"Added {name}: {len(stat_block_files())} monsters" in adder.message.value
    kept = json.loads((bestiaries_folder() / name / "bestiary.json").read_text(encoding="utf-8"))
    assert kept["source"] == f"uploaded file {file}" and kept["attribution"] == LICENCE
    assert adder.upload.value == ()  # done: the next press does not add it again
    assert "could not be read" not in adder.message.value


def test_a_folder_typed_and_a_name_given(tmp_path):
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(io.BytesIO(archive_bytes("zip", broken=SHOWN_FAILURES + 3))) as z:
        z.extractall(folder)
    adder = BestiaryAdder()
    adder.source.value = f"  {folder}  "
    adder.name.value = "My Beasts"
    press(adder)
    said = adder.message.value
    assert "Added My Beasts" in said and f"{SHOWN_FAILURES + 3} file(s) could not be read" in said
    assert said.count('class="wb-added-failed-file"') == SHOWN_FAILURES and "and 3 more" in said
    press(adder)  # the same name again: refused in words, the first kept
    assert "My Beasts" in adder.message.value and "Added" not in adder.message.value
    plain(adder.message.value)
    adder.replace.value = True
    press(adder)
    assert "Added My Beasts" in adder.message.value


def test_nothing_chosen_or_a_bad_folder_is_said_in_words(tmp_path):
    adder = BestiaryAdder()
    press(adder)
    assert "Type a folder or a link, or upload" in adder.message.value
    adder.source.value = str(tmp_path / "nowhere")
    press(adder)
    assert "No such file or folder" in adder.message.value
    plain(adder.message.value)


def opened_adder(page: Any) -> BestiaryAdder:
    """The encounter page's adder, its fold opened as a Director opens it (it is made then)."""
    fold = inner(page, "wb-bestiary-adder-fold")
    assert not [w for w in fold.children[0].children if isinstance(w, BestiaryAdder)]
    fold.selected_index = 0
    return inner(fold, BestiaryAdder)


def test_a_bestiary_added_on_the_encounter_page_fills_its_picker_with_attribution(served):
    www, base, _requests = served
    (www / "beasts.tar.gz").write_bytes(archive_bytes("tar", prefix="Served"))
    page = pages.encounter_page()
    editor = inner(page, "wb-encounter-app")
    browser = editor.browser
    assert "Served 0" not in {m.name for m in browser.bestiary.monsters}
    adder = opened_adder(page)
    adder.source.value = f"{base}/beasts.tar.gz"
    press(adder)
    names = {label for label, _ in browser.rows.options}
    assert any(label.startswith("Served 0") and label.endswith("· beasts") for label in names)
    assert len(browser.bestiary.monsters) == 49 + len(stat_block_files())
    assert f"beasts ({len(stat_block_files())} monsters): {LICENCE}" in browser.counts.value
    kept = len(stat_block_files())  # the adder's count and the picker's agree, in words
    assert f"Of its {kept} monsters: {kept} Steel Compendium stat blocks in the bestiary picker." in adder.message.value
    assert "Published sample (Steel Compendium) (49 monsters): The Steel Compendium" in browser.counts.value
    assert editor.bestiary is browser.bestiary  # suggestions come from it too
    browser.search.value = "Served 1"
    browser.rows.value = browser.rows.options[0][1]
    assert "Served 1" in browser.stat_block.value
    assert stat_block_data(browser.bestiary, browser.picked) is not None  # whole, read again from the kept file


def test_the_page_says_where_the_workspace_is_and_opens_another(tmp_path):
    page = pages.fight_page()
    bar = inner(page, "wb-workspace-bar")
    assert page.children[0] is bar
    assert str(tmp_path / "desk") in bar.children[0].value
    folder, button = bar.children[1].children
    (tmp_path / "a-file").write_text("x")
    folder.value = str(tmp_path / "a-file")
    button.click()
    assert "It is a file, not a folder" in bar.children[2].value
    assert os.environ["WORKBENCH_HOME"] == str(tmp_path / "desk")
    folder.value = str(tmp_path / "other desk")
    button.click()
    assert os.environ["WORKBENCH_HOME"] == str(tmp_path / "other desk") and (tmp_path / "other desk").is_dir()
    again = page.children[0]
    assert again is not bar and str(tmp_path / "other desk") in again.children[0].value
    assert "Opened" in again.children[2].value
    assert inner(page, "wb-fight") is not None
    new_folder, new_button = again.children[1].children
    new_folder.value = str(tmp_path / "no" / "such" / "tree")
    new_button.click()
    assert "There is no folder" in again.children[2].value
    assert not (tmp_path / "no").exists()


def test_an_uploaded_file_name_never_leaves_the_temporary_copy(tmp_path):
    adder = BestiaryAdder()
    data = archive_bytes("zip", broken=0)
    adder.upload.value = ({"name": "../../outside.zip", "type": "application/zip", "size": len(data),
                           "content": memoryview(data), "last_modified": datetime.datetime.now(datetime.UTC)},)
    press(adder)
    assert "Added outside:" in adder.message.value
    assert not (tmp_path / "outside.zip").exists() and not Path("outside.zip").exists()
    assert [p.name for p in bestiaries_folder().iterdir() if p.name not in (LOCK_NAME, JOURNAL_NAME)] == ["outside"]


@pytest.mark.parametrize(("given", "shown"), [
    ("..", "upload.zip"),
    ("../..", "upload.zip"),
    ("beasts\0.zip", "beasts.zip"),
    ("C:\\Users\\me\\..\\beasts.zip", "beasts.zip"),
    (".hidden.zip", "hidden.zip"),
    ("a" * 300 + ".zip", "a" * 96 + ".zip"),
    ("a" * 300, "a" * 100),
    (None, "upload.zip"),
])
def test_an_upload_name_is_reduced_to_a_safe_base_name(given, shown):
    assert upload_name(given) == shown


@pytest.mark.parametrize("given", ["..", "be\0asts.zip", "b" * 300 + ".zip", "\r\n"])
def test_an_upload_under_a_hostile_name_is_added_or_refused_on_the_page(given):
    adder = BestiaryAdder()
    data = archive_bytes("zip", broken=0)
    adder.upload.value = ({"name": given, "type": "application/zip", "size": len(data),
                           "content": memoryview(data), "last_modified": datetime.datetime.now(datetime.UTC)},)
    press(adder)  # raises nothing out of the handler
    assert "Added " in adder.message.value
    assert all("\0" not in p.name and len(p.name) <= 120 for p in bestiaries_folder().iterdir())


class _SlowHandler(http.server.BaseHTTPRequestHandler):
    """A large file sent a kilobyte at a time, until the client goes or the test ends."""

    stop: threading.Event

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        self.send_response(200)
        self.send_header("Content-Length", str(10 << 20))
        self.end_headers()
        while not self.stop.is_set():
            try:
                self.wfile.write(b"\0" * 1024)
                self.wfile.flush()
            except OSError:
                return
            self.stop.wait(0.01)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_the_kernel_is_free_while_it_downloads_and_cancel_keeps_nothing():
    stop = threading.Event()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), type("Slow", (_SlowHandler,), {"stop": stop}))
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    adder = BestiaryAdder()
    downloading = threading.Event()
    adder.progress.observe(lambda change: downloading.set() if str(change["new"]).startswith("Downloading")
                           else None, names="description")
    try:
        adder.source.value = f"http://127.0.0.1:{server.server_address[1]}/big.zip"
        adder.add.click()  # returns at once: the download goes on in its thread
        assert adder.worker is not None and adder.worker.is_alive()
        assert downloading.wait(10)
        assert adder.add.disabled and adder.cancel.layout.display == "" and adder.worker.is_alive()
        adder.cancel.click()
        adder.wait(10)
        assert not adder.worker.is_alive()
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
    assert "Cancelled: nothing was added." in adder.message.value
    assert not adder.add.disabled and adder.cancel.layout.display == "none"
    kept = [p.name for p in bestiaries_folder().iterdir()] if bestiaries_folder().exists() else []
    assert [name for name in kept if name not in (LOCK_NAME, JOURNAL_NAME)] == []


def test_a_bestiary_added_is_removed_on_the_encounter_page_and_its_picker_follows(tmp_path):
    folder = tmp_path / "unpacked"
    with zipfile.ZipFile(io.BytesIO(archive_bytes("zip", prefix="Gone"))) as z:
        z.extractall(folder)
    page = pages.encounter_page()
    browser = inner(page, "wb-encounter-app").browser
    adder = opened_adder(page)
    assert adder.added.options == () and adder.remove.disabled
    adder.source.value = str(folder)
    adder.name.value = "Gone Beasts"
    press(adder)
    kept = len(stat_block_files())
    assert [label for label, _ in adder.added.options] == [f"Gone Beasts ({kept} monsters)"]
    assert len(browser.bestiary.monsters) == 49 + kept
    adder.remove.click()  # nothing picked: said beside the button, nothing removed
    assert "Pick a bestiary" in adder.removed.value and (bestiaries_folder() / "Gone Beasts").is_dir()
    adder.added.value = "Gone Beasts"
    adder.remove.click()
    assert f"Removed Gone Beasts: its {kept} monsters" in adder.removed.value
    assert not (bestiaries_folder() / "Gone Beasts").exists() and adder.added.options == ()
    assert len(browser.bestiary.monsters) == 49 and "Gone 0" not in {m.name for m in browser.bestiary.monsters}
    plain(adder.removed.value)


def test_a_stat_block_added_twice_is_counted_where_it_went(tmp_path):
    folder = tmp_path / "twice"
    folder.mkdir()
    one = stat_block_files()[0]
    for name in ("a.json", "b.json"):
        (folder / name).write_bytes(renamed(one, "Twin Goblin"))
    page = pages.encounter_page()
    adder = opened_adder(page)
    adder.source.value = str(folder)
    press(adder)
    assert ("Of its 2 monsters: 1 Steel Compendium stat block in the bestiary picker; 1 the same stat block as "
            "another one, listed once.") in adder.message.value
    browser = inner(page, "wb-encounter-app").browser
    assert [m.name for m in browser.bestiary.monsters].count("Twin Goblin") == 1
