"""Adding a bestiary to the workspace: a folder, a .zip, a .tar.gz or a URL (served here from a local HTTP server,
never the internet), read through the importer, kept with its licence and attribution; unsafe archives refused
member by member; the monsters then listed with the sample and the library (workbench.workspace.added_bestiary, .shelf, .migration; the source read by workbench.io.archive)."""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import socket
import tarfile
import threading
import warnings
import zipfile
from pathlib import Path

import pytest
from cli_process import run_cli

import workbench as wb
from workbench.errors import InvalidInput
from workbench.formats.bestiary import SAMPLE_DIR, load_bestiary
from workbench.io import archive as source_archive
from workbench.monster.library import save_monster
from workbench.workspace import added_bestiary, migration, shelf
from workbench.workspace.added_bestiary import (
    add_bestiary,
    bestiary_name,
    list_bestiaries,
    load_added_bestiary,
    remove_bestiary,
)
from workbench.workspace.migration import move_old_monsters, old_library_monsters
from workbench.workspace.shelf import gather_bestiary, workspace_bestiary

ATTRIBUTION = "Kobold Press-free test data, made by the workbench's tests under no licence at all."


def stat_blocks() -> list[Path]:
    return sorted(SAMPLE_DIR.rglob("*.json"))


def sample_source(folder: Path, *, licence: bool = True) -> Path:
    """A bestiary folder made here: every sample stat block, a broken file, a non-stat-block JSON, a licence."""
    for path in stat_blocks():
        target = folder / path.relative_to(SAMPLE_DIR)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    (folder / "Broken").mkdir()
    (folder / "Broken" / "broken.json").write_text('{"type": "statblock", "name": ', encoding="utf-8")
    (folder / "index.json").write_text(json.dumps({"files": ["a", "b"]}), encoding="utf-8")
    (folder / "notes.txt").write_text("not read", encoding="utf-8")
    if licence:
        (folder / "LICENSE").write_text(ATTRIBUTION + "\n\nThe rest of the licence.\n", encoding="utf-8")
    return folder


def zipped(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"bestiary-main/{path.relative_to(folder).as_posix()}")
    return target


def tarred(folder: Path, target: Path) -> Path:
    with tarfile.open(target, "w:gz") as archive:
        archive.add(folder, arcname="bestiary-main")
    return target


def test_a_folder_is_read_through_the_importer_with_its_licence(tmp_path):
    source = sample_source(tmp_path / "Monsters")
    added = add_bestiary(source, tmp_path / "bestiaries")
    assert added.name == "Monsters"
    assert len(added.monsters) == len(stat_blocks())
    assert [f.file for f in added.failures] == ["Broken/broken.json"]
    assert "index.json" in [f.file for f in added.skipped]
    assert added.attribution == ATTRIBUTION  # the licence's first paragraph
    folder = Path(added.folder)
    assert (folder / "sources" / "LICENSE").read_text(encoding="utf-8").startswith(ATTRIBUTION)
    assert ATTRIBUTION in (folder / "ATTRIBUTION.txt").read_text(encoding="utf-8")
    assert load_added_bestiary(folder) == added
    # the published stat blocks stay readable by the calibration's own reader
    assert len(load_bestiary(folder / "sources").monsters) == len(stat_blocks())


def test_a_bestiary_of_hundreds_loads_back_whole(tmp_path):
    """Its bestiary.json is past the 1 MiB the workbench's other files are held to."""
    source = tmp_path / "many"
    source.mkdir()
    files = stat_blocks()
    for number in range(300):
        data = json.loads(files[number % len(files)].read_text(encoding="utf-8"))
        data["name"] = f"{data['name']} {number}"
        (source / f"{number:03}.json").write_text(json.dumps(data), encoding="utf-8")
    added = add_bestiary(source, tmp_path / "b", attribution=ATTRIBUTION)
    assert (Path(added.folder) / "bestiary.json").stat().st_size > 1_048_576
    found, problems = list_bestiaries(tmp_path / "b")
    assert problems == () and len(found[0].monsters) == 300


def test_a_damaged_bestiary_is_named_and_the_others_listed(tmp_path):
    source = sample_source(tmp_path / "src")
    add_bestiary(source, tmp_path / "b", name="Good")
    damaged = add_bestiary(source, tmp_path / "b", name="Damaged")
    manifest = Path(damaged.folder) / "bestiary.json"
    assert list_bestiaries(tmp_path / "b")[1] == ()
    manifest.write_text('{"format": "drawsteel-workbench/bestiary", "name": 5', encoding="utf-8")
    found, problems = list_bestiaries(tmp_path / "b")
    assert [b.name for b in found] == ["Good"]
    assert [folder for folder, _ in problems] == ["Damaged"]
    listed = gather_bestiary(tmp_path / "b", None, sample=False)
    assert [s.name for s in listed.shelves] == ["Good"] and listed.problems[0][0] == "bestiary Damaged"


def test_forge_steel_groups_and_foundry_actors_are_read_too(tmp_path):
    ogre = wb.build_monster(level=3, organization="elite", role="brute").model_copy(update={"name": "Test Ogre"})
    runner = wb.build_monster(level=2, organization="platoon", role="harrier").model_copy(
        update={"name": "Test Runner"})
    source = tmp_path / "mixed"
    source.mkdir()
    (source / "pair.ds-monster-group").write_text(str(wb.export_monsters([ogre, runner], "forge-steel")),
                                                  encoding="utf-8")
    (source / "ogre-actor.json").write_text(str(wb.export_monster(ogre, "foundry")), encoding="utf-8")
    added = add_bestiary(source, tmp_path / "b", attribution=ATTRIBUTION)
    assert sorted(m.name for m in added.monsters) == ["Test Ogre", "Test Ogre", "Test Runner"]
    assert added.attribution == ATTRIBUTION and added.failures == ()


@pytest.mark.parametrize("pack", [zipped, tarred])
def test_archives_are_read(tmp_path, pack):
    source = sample_source(tmp_path / "src")
    archive = pack(source, tmp_path / ("bestiary-main.zip" if pack is zipped else "bestiary-main.tar.gz"))
    added = add_bestiary(archive, tmp_path / "bestiaries")
    assert added.name == "bestiary-main"
    assert len(added.monsters) == len(stat_blocks())
    assert [f.file for f in added.failures] == ["bestiary-main/Broken/broken.json"]
    assert added.attribution == ATTRIBUTION


def test_an_unsafe_zip_is_read_member_by_member(tmp_path):
    goblin = stat_blocks()[0].read_bytes()
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("../escape.json", goblin)
        z.writestr("/absolute.json", goblin)
        z.writestr("C:/drive.json", goblin)
        link = zipfile.ZipInfo("link.json")
        link.external_attr = (0o120777 << 16)  # a symbolic link
        z.writestr(link, "/etc/passwd")
        z.writestr("ok/goblin.json", goblin)
    added = add_bestiary(archive, tmp_path / "bestiaries")
    assert len(added.monsters) == 1
    refused = {f.file: f.reason for f in added.skipped}
    assert "outside the archive" in refused["../escape.json"]
    assert "outside the archive" in refused["/absolute.json"]
    assert "outside the archive" in refused["C:/drive.json"]
    assert "link" in refused["link.json"]
    assert not (tmp_path / "escape.json").exists() and not (tmp_path / "bestiaries" / "escape.json").exists()
    assert sorted(p.relative_to(added.folder).as_posix() for p in Path(added.folder).rglob("*.json")) == [
        "bestiary.json", "sources/ok/goblin.json"]


def test_an_unsafe_tar_is_read_member_by_member(tmp_path):
    goblin = stat_blocks()[0].read_bytes()
    archive = tmp_path / "evil.tar.gz"
    with tarfile.open(archive, "w:gz") as t:
        for name in ("../../escape.json", "ok/goblin.json"):
            info = tarfile.TarInfo(name)
            info.size = len(goblin)
            t.addfile(info, io.BytesIO(goblin))
        link = tarfile.TarInfo("passwd.json")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        t.addfile(link)
        hard = tarfile.TarInfo("hard.json")
        hard.type, hard.linkname = tarfile.LNKTYPE, "ok/goblin.json"
        t.addfile(hard)
    added = add_bestiary(archive, tmp_path / "bestiaries")
    assert [m.name for m in added.monsters] == [wb.import_monster(stat_blocks()[0]).name]
    refused = {f.file: f.reason for f in added.skipped}
    assert "outside the archive" in refused["../../escape.json"]
    assert "link" in refused["passwd.json"] and "link" in refused["hard.json"]
    assert not list(tmp_path.rglob("escape.json"))


def test_caps_on_size_and_count(tmp_path, monkeypatch):
    source = sample_source(tmp_path / "src")
    archive = zipped(source, tmp_path / "b.zip")
    sizes = sorted(p.stat().st_size for p in stat_blocks())
    limit = sizes[len(sizes) // 2]  # half the stat blocks fit, half are past the cap
    monkeypatch.setattr(added_bestiary, "MAX_FILE_BYTES", limit)
    added = add_bestiary(archive, tmp_path / "one")
    assert len(added.monsters) == sum(size <= limit for size in sizes)
    assert sum("too large" in f.reason for f in added.skipped) == sum(size > limit for size in sizes)
    monkeypatch.setattr(added_bestiary, "MAX_FILE_BYTES", 1)
    with pytest.raises(InvalidInput, match="no monster could be read"):
        add_bestiary(archive, tmp_path / "two")
    assert not (tmp_path / "two").exists() or not any((tmp_path / "two").iterdir())
    monkeypatch.setattr(source_archive, "MAX_MEMBERS", 10)
    with pytest.raises(InvalidInput, match="more than 10 files"):
        add_bestiary(archive, tmp_path / "three")
    monkeypatch.setattr(source_archive, "MAX_MEMBERS", 50_000)
    monkeypatch.setattr(added_bestiary, "MAX_FILE_BYTES", limit)
    monkeypatch.setattr(source_archive, "MAX_TOTAL_BYTES", limit * 3)
    with pytest.raises(InvalidInput, match="KiB of stat block files"):
        add_bestiary(source, tmp_path / "four")


def test_a_link_out_of_a_folder_is_not_followed(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_bytes(stat_blocks()[0].read_bytes())
    source = tmp_path / "src"
    source.mkdir()
    (source / "inside.json").write_bytes(stat_blocks()[1].read_bytes())
    os.symlink(outside, source / "outside-link.json")
    added = add_bestiary(source, tmp_path / "b")
    assert len(added.monsters) == 1
    assert "outside the folder" in {f.file: f.reason for f in added.skipped}["outside-link.json"]


def test_a_name_taken_is_kept_unless_replaced(tmp_path):
    source = sample_source(tmp_path / "src")
    first = add_bestiary(source, tmp_path / "b", name="Keep")
    before = (Path(first.folder) / "bestiary.json").read_bytes()
    with pytest.raises(InvalidInput, match="exists"):
        add_bestiary(source, tmp_path / "b", name="Keep")
    assert (Path(first.folder) / "bestiary.json").read_bytes() == before
    (source / "Broken" / "broken.json").unlink()
    again = add_bestiary(source, tmp_path / "b", name="Keep", replace=True)
    assert again.failures == ()
    assert [p.name for p in (tmp_path / "b").iterdir() if p.is_dir()] == ["Keep"]  # no hidden folder left behind
    with pytest.raises(InvalidInput) as caught:
        add_bestiary(source, tmp_path / "b", name="../out")
    assert caught.value.field == "name"


def test_a_source_with_no_monster_is_refused_and_nothing_added(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("nothing", encoding="utf-8")
    with pytest.raises(InvalidInput, match="no monster could be read"):
        add_bestiary(empty, tmp_path / "b")
    assert not (tmp_path / "b").exists() or not list((tmp_path / "b").iterdir())
    with pytest.raises(InvalidInput, match="no such file"):
        add_bestiary(tmp_path / "missing.zip", tmp_path / "b")
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InvalidInput, match="neither"):
        add_bestiary(tmp_path / "notes.txt", tmp_path / "b")


@pytest.mark.parametrize(
    "source, name",
    [
        ("https://example.org/archive/refs/heads/main.zip", "main"),
        ("/home/d/Monsters/", "Monsters"),
        ("data-bestiary-json-main.tar.gz", "data-bestiary-json-main"),
        ("Café monsters!.zip", "Caf monsters"),  # what a name may not hold becomes a space
        ("../..", "bestiary"),
    ],
)
def test_default_names(source, name):
    assert bestiary_name(source) == name


@pytest.fixture
def served(tmp_path):
    """A local HTTP server (in a thread) serving tmp_path/www; yields its base URL."""
    www = tmp_path / "www"
    www.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(www))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_a_url_is_fetched_with_progress_from_the_first_file(tmp_path, served):
    www, base = served
    tarred(sample_source(tmp_path / "src"), www / "bestiary.tar.gz")
    calls: list[tuple[str, int, int]] = []
    added = add_bestiary(f"{base}/bestiary.tar.gz", tmp_path / "b", progress=lambda *a: calls.append(a))
    assert added.name == "bestiary" and len(added.monsters) == len(stat_blocks())
    assert added.source == f"{base}/bestiary.tar.gz"
    assert calls[0][:2] == ("download", 0)
    reads = [c for c in calls if c[0] == "read"]
    total = len(stat_blocks()) + 2  # the broken file and the index are read too
    assert reads[0] == ("read", 0, total) and reads[1] == ("read", 1, total) and reads[-1] == ("read", total, total)


def test_a_url_that_cannot_be_reached_names_the_manual_route(tmp_path, served):
    _www, base = served
    with pytest.raises(InvalidInput, match="404") as caught:
        add_bestiary(f"{base}/missing.zip", tmp_path / "b")
    assert "download the file" in str(caught.value)
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(InvalidInput) as caught:
        add_bestiary(f"http://127.0.0.1:{port}/b.zip", tmp_path / "b")
    assert caught.value.field == "source" and "download the file" in str(caught.value)
    assert "workbench bestiary add FILE" in str(caught.value)


def test_the_workspace_lists_sample_bestiaries_and_library_together(tmp_path):
    add_bestiary(sample_source(tmp_path / "src"), tmp_path / "bestiaries", name="Added")
    library = tmp_path / "monsters"
    save_monster(wb.build_monster(level=2, organization="elite", role="brute").model_copy(
        update={"name": "Homebrew Ogre"}), folder=library)
    found = gather_bestiary(tmp_path / "bestiaries", library)
    assert [(s.name, s.kind, s.count) for s in found.shelves] == [
        ("Published sample (Steel Compendium)", "sample", len(stat_blocks())),
        ("Added", "bestiary", len(stat_blocks())),
        ("Your library", "library", 1),
    ]
    assert len(found) == 2 * len(stat_blocks()) + 1
    assert any(line.startswith("Added (49 monsters): " + ATTRIBUTION) for line in found.attribution_lines())
    assert "Homebrew Ogre" in {m.name for m in found.monsters}
    assert list_bestiaries(tmp_path / "bestiaries")[0][0].name == "Added"


def test_cli_add_then_suggest_shows_the_attribution(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    archive = zipped(sample_source(tmp_path / "src"), tmp_path / "Goblin Warren.zip")
    result = run_cli("bestiary", "add", str(archive))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == f"Reading files: 0/{len(stat_blocks()) + 2}"
    assert "Added Goblin Warren: 49 monsters" in result.stdout
    assert "1 file(s) failed" in result.stdout and "broken.json" in result.stdout
    assert (tmp_path / "home" / "bestiaries" / "Goblin Warren" / "bestiary.json").is_file()
    listed = run_cli("bestiary", "list", "--json")
    data = json.loads(listed.stdout)
    assert [(b["name"], b["monsters"], b["attribution"]) for b in data["bestiaries"]] == [
        ("Goblin Warren", 49, ATTRIBUTION)]
    suggested = run_cli("suggest", "--heroes", "5", "--level", "3", "--difficulty", "hard", "--count", "1")
    assert suggested.returncode == 0
    assert f"Goblin Warren (49 monsters): {ATTRIBUTION}" in suggested.stdout


def test_cli_refusals_are_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    for args, name in ((("add",), "SOURCE"), (("add", str(tmp_path / "none.zip")), "SOURCE"),
                       (("list", "extra"), "SOURCE"), (("rename", "x"), "ACTION"), (("remove",), "NAME"),
                       (("remove", "none-such"), "name")):
        result = run_cli("bestiary", *args)
        assert result.returncode == 2 and result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1 and name in result.stderr


def test_old_library_folders_are_offered_and_nothing_is_overwritten(tmp_path):
    old, here = tmp_path / "old", tmp_path / "monsters"
    ogre = wb.build_monster(level=2, organization="elite", role="brute")
    save_monster(ogre.model_copy(update={"name": "Moved"}), folder=old)
    save_monster(ogre.model_copy(update={"name": "Twice"}), folder=old)
    save_monster(ogre.model_copy(update={"name": "Clash"}), folder=old)
    save_monster(ogre.model_copy(update={"name": "Clash", "level": 3}), folder=here)
    here.joinpath("Twice.json").write_bytes(old.joinpath("Twice.json").read_bytes())
    clash_here = here.joinpath("Clash.json").read_bytes()
    offered = {m.name: m.status for m in old_library_monsters(here, [old])}
    assert offered == {"Moved.json": "move", "Twice.json": "same", "Clash.json": "conflict"}
    moved, kept = move_old_monsters(here, [old])
    assert sorted(m.name for m in moved) == ["Moved.json", "Twice.json"]
    assert [m.name for m in kept] == ["Clash.json"]
    assert sorted(p.name for p in old.glob("*.json")) == ["Clash.json"]  # kept where it was
    assert here.joinpath("Clash.json").read_bytes() == clash_here  # not overwritten
    assert wb.load_monster("Moved", folder=here).name == "Moved"


def test_cli_workspace_names_the_old_folders_and_moves_on_request(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # ~/drawsteel-homebrew is the old installed library
    checkout = tmp_path / "checkout-homebrew"
    monkeypatch.setattr(migration, "OLD_CHECKOUT_FOLDER", checkout)  # the old library of a checkout
    ogre = wb.build_monster(level=2, organization="elite", role="brute")
    save_monster(ogre.model_copy(update={"name": "From Checkout"}), folder=checkout)
    save_monster(ogre.model_copy(update={"name": "From Home"}), folder=tmp_path / "user" / "drawsteel-homebrew")
    save_monster(ogre.model_copy(update={"name": "From Home", "level": 4}), folder=tmp_path / "desk" / "monsters")
    shown = run_cli("workspace")
    assert shown.returncode == 0
    assert f"Workspace: {tmp_path / 'desk'}" in shown.stdout
    assert "2 monster(s) saved in an old library folder" in shown.stdout
    assert "From Checkout.json: can be moved" in shown.stdout
    assert "From Home.json: the library has a different monster of that name" in shown.stdout
    moved = json.loads(run_cli("workspace", "--move", "--json").stdout)
    assert [m["name"] for m in moved["moved"]] == ["From Checkout.json"]
    assert [m["name"] for m in moved["kept"]] == ["From Home.json"]
    assert moved["monsters"] == 2
    assert wb.load_monster("From Home", folder=tmp_path / "desk" / "monsters").level == 4  # not overwritten
    assert (tmp_path / "user" / "drawsteel-homebrew" / "From Home.json").is_file()  # nor lost
    assert not (checkout / "From Checkout.json").exists()


def test_monsters_left_in_an_old_folder_are_offered_with_the_workspace(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "desk"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setattr(migration, "OLD_CHECKOUT_FOLDER", tmp_path / "checkout-homebrew")
    lesson = wb.build_monster(level=2, organization="elite", role="brute").model_copy(update={"name": "Lesson Ogre"})
    save_monster(lesson, folder=tmp_path / "checkout-homebrew")
    found = workspace_bestiary()
    assert "Lesson Ogre" in {m.name for m in found.monsters}
    shelf = next(e.shelf for e in found.entries if e.monster.name == "Lesson Ogre")
    assert str(tmp_path / "checkout-homebrew") in shelf and "workspace --move" in shelf
    assert move_old_monsters(tmp_path / "desk" / "monsters")[0]
    again = workspace_bestiary()
    assert [e.shelf for e in again.entries if e.monster.name == "Lesson Ogre"] == ["Your library"]


def test_published_stat_blocks_for_the_calibration_count_each_once(tmp_path):
    """The sample added as a bestiary too is not weighed twice; a Forge Steel file is no published stat block."""
    add_bestiary(sample_source(tmp_path / "src"), tmp_path / "b", name="Again")
    extra = tmp_path / "extra"
    extra.mkdir()
    data = json.loads(stat_blocks()[0].read_text(encoding="utf-8"))
    data["name"] = "Only Here"
    (extra / "only.json").write_text(json.dumps(data), encoding="utf-8")
    ogre = wb.build_monster(level=3, organization="elite", role="brute").model_copy(update={"name": "Forge Ogre"})
    (extra / "ogre.ds-monster-group").write_text(str(wb.export_monsters([ogre], "forge-steel")), encoding="utf-8")
    add_bestiary(extra, tmp_path / "b", name="Extra", attribution=ATTRIBUTION)
    published = shelf.published_stat_blocks(tmp_path / "b")
    names = [m.name for m in published.monsters]
    assert len(names) == len(stat_blocks()) + 1 and "Only Here" in names and "Forge Ogre" not in names
    assert published.failures == ()


def test_a_path_twice_in_an_archive_is_read_once(tmp_path):
    first, second = stat_blocks()[0].read_bytes(), stat_blocks()[1].read_bytes()
    archive = tmp_path / "twice.zip"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it is asked to write
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("a/monster.json", first)
            z.writestr("a/monster.json", second)
            z.writestr("LICENSE", ATTRIBUTION)
            z.writestr("LICENSE", "another")
    added = add_bestiary(archive, tmp_path / "b")
    assert [m.name for m in added.monsters] == [wb.import_monster(stat_blocks()[0]).name]
    assert "the first is read" in {f.file: f.reason for f in added.skipped}["a/monster.json"]
    assert added.attribution == ATTRIBUTION and added.licence_files == ("sources/LICENSE",)


def test_a_zip_declaring_too_many_files_is_refused_before_it_is_listed(tmp_path, monkeypatch):
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for number in range(12):
            z.writestr(f"f{number}.txt", "x")
    monkeypatch.setattr(source_archive, "MAX_MEMBERS", 10)
    listed: list[int] = []
    monkeypatch.setattr(zipfile.ZipFile, "infolist", lambda self: listed.append(1) or [])
    with pytest.raises(InvalidInput, match="more than 10 files"):
        add_bestiary(archive, tmp_path / "b")
    assert listed == []  # refused from the end record, before zipfile lists the entries
    monkeypatch.setattr(source_archive, "MAX_ARCHIVE_BYTES", archive.stat().st_size - 1)
    with pytest.raises(InvalidInput, match="larger than"):
        add_bestiary(archive, tmp_path / "b")


@pytest.mark.parametrize(
    "licence, attribution",
    [
        ("# Game Rules\n\nUsed under license of a publisher.\n\n# Code\n\nMIT", "Used under license of a publisher."),
        ("Game Rules\n==========\n\nUsed under\nlicense.\r\n\r\nMore.", "Used under license."),  # wrapped, CRLF
        ("Plain text licence, one paragraph.", "Plain text licence, one paragraph."),
        ("# Only a heading", ""),
    ],
)
def test_the_attribution_is_the_licences_first_paragraph_of_prose(tmp_path, licence, attribution):
    source = tmp_path / "src"
    source.mkdir()
    (source / "goblin.json").write_bytes(stat_blocks()[0].read_bytes())
    (source / "LICENSE.md").write_text(licence, encoding="utf-8")
    assert add_bestiary(source, tmp_path / "b").attribution == attribution


# ---------------------------------------------------------------- writes go through the safe-write path


def test_a_link_planted_at_the_bestiarys_place_is_refused_and_nothing_is_written_through_it(tmp_path):
    source = sample_source(tmp_path / "src")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "theirs.txt").write_text("not the workbench's", encoding="utf-8")
    root = tmp_path / "b"
    root.mkdir()
    os.symlink(outside, root / "Planted")
    for replace in (False, True):
        with pytest.raises(InvalidInput) as caught:
            add_bestiary(source, root, name="Planted", replace=replace)
        assert caught.value.field in ("name", "into")
        assert len(str(caught.value).splitlines()) == 1
    os.symlink(tmp_path / "nowhere", root / "Dangling")
    with pytest.raises(InvalidInput) as caught:
        add_bestiary(source, root, name="Dangling", replace=True)
    assert "symbolic link" in str(caught.value) and "Errno" not in str(caught.value)
    assert (root / "Planted").is_symlink() and (root / "Dangling").is_symlink()  # left as they were
    assert sorted(p.name for p in outside.iterdir()) == ["theirs.txt"]  # nothing written outside
    assert not (tmp_path / "nowhere").exists()
    assert [p.name for p in root.iterdir() if p.is_dir() and not p.is_symlink()] == []  # nothing left building


def test_a_copy_that_fails_half_way_leaves_no_file_in_the_library(tmp_path, monkeypatch):
    old, here = tmp_path / "old", tmp_path / "monsters"
    save_monster(wb.build_monster(level=2, organization="elite", role="brute").model_copy(
        update={"name": "Moved"}), folder=old)
    here.mkdir()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    moved, kept = move_old_monsters(here, [old])
    monkeypatch.undo()
    assert moved == () and [m.name for m in kept] == ["Moved.json"]
    assert old.joinpath("Moved.json").exists()  # the old file stays
    assert [p.name for p in here.iterdir() if not p.name.startswith(".")] == []  # no half-made copy
    assert not [p for p in here.iterdir() if p.name.endswith(".tmp")]


def test_a_link_in_the_library_leading_out_is_no_copy_of_an_old_monster(tmp_path):
    old, here, outside = tmp_path / "old", tmp_path / "monsters", tmp_path / "outside"
    save_monster(wb.build_monster(level=2, organization="elite", role="brute").model_copy(
        update={"name": "Twin"}), folder=old)
    outside.mkdir()
    here.mkdir()
    outside.joinpath("Twin.json").write_bytes(old.joinpath("Twin.json").read_bytes())
    os.symlink(outside / "Twin.json", here / "Twin.json")
    assert {m.name: m.status for m in old_library_monsters(here, [old])} == {"Twin.json": "conflict"}
    moved, kept = move_old_monsters(here, [old])
    assert moved == () and old.joinpath("Twin.json").exists()  # the Director's file is not removed for a link


def test_a_bestiary_is_removed_by_name_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_HOME", str(tmp_path / "home"))
    into = tmp_path / "home" / "bestiaries"
    kept = add_bestiary(sample_source(tmp_path / "Kept"), into)
    gone = add_bestiary(sample_source(tmp_path / "Goblin Warren"), into)
    (into / "not-one").mkdir()  # a folder the workbench did not add
    (into / "linked").symlink_to(Path(kept.folder))
    for name in ("not-one", "linked", "../home", "Nowhere"):
        with pytest.raises(InvalidInput, match="name"):
            remove_bestiary(name, into)
    assert (into / "not-one").is_dir() and Path(kept.folder).is_dir() and Path(gone.folder).is_dir()
    (into / "linked").unlink()
    result = run_cli("bestiary", "remove", "Goblin Warren")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Removed Goblin Warren: its 49 monsters, sources and licence are no longer in")
    assert not Path(gone.folder).exists() and not [p for p in into.iterdir() if p.name.startswith(".removing")]
    assert [b.name for b in list_bestiaries(into)[0]] == ["Kept"]
    again = run_cli("bestiary", "remove", "Goblin Warren")
    assert again.returncode == 2 and "no such bestiary" in again.stderr and "Kept" in again.stderr
    # the refusal names the argument as the command line has it (SOURCE), not the --name of `add`
    assert "SOURCE: got 'Goblin Warren'" in again.stderr and "--name" not in again.stderr
    bare = run_cli("bestiary", "remove")
    assert bare.returncode == 2 and "SOURCE" in bare.stderr and "remove needs a NAME" in bare.stderr
