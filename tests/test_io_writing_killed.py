"""Every kind of save killed at every step: a forked child does the save with its file-system calls counted and
ends itself (`os._exit`, as kill -9 would) at call N, for N = 1, 2, ... until the save finishes first. After
each kill the file holds the old or the new content, never neither, and the next save into the folder leaves
nothing behind but the folder's lock and journal."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import workbench as wb
from workbench.encounter.adventure import Adventure, load_adventure
from workbench.encounter.encounter import Encounter, creature_from_monster
from workbench.encounter.files import load_encounter, save_encounter
from workbench.encounter.party import make_party
from workbench.fight.fight import Fight, load_fight
from workbench.io.lock import JOURNAL_NAME, LOCK_NAME
from workbench.io.writing import write_atomic
from workbench.monster import library as lib
from workbench.workspace.added_bestiary import add_bestiary, list_bestiaries, load_added_bestiary

# every call that changes the file system, or opens what a save writes through
STEPS = ("open", "write", "pwrite", "fsync", "close", "fchmod", "ftruncate", "link", "replace", "rename", "unlink",
         "mkdir", "rmdir")
FAILED = 78


def _save_copying_each_step(folder: Path, save: Callable[[], object], copies: Path) -> int:
    """Run `save` in a forked child that copies `folder` to `copies/NNNN` just before its N-th file-system
    call: each copy is the folder as a kill at that step would leave it. The child's exit code."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            count, busy = [0], [False]

            def counting(real: Callable[..., object]) -> Callable[..., object]:
                def call(*args: object, **kwargs: object) -> object:
                    if not busy[0]:  # the copy's own calls are not the save's
                        busy[0] = True
                        try:
                            count[0] += 1
                            if folder.exists():
                                shutil.copytree(folder, copies / f"{count[0]:04}", symlinks=True)
                            else:
                                (copies / f"{count[0]:04}").mkdir(parents=True)
                        finally:
                            busy[0] = False
                    return real(*args, **kwargs)

                return call

            for name in STEPS:
                setattr(os, name, counting(getattr(os, name)))
            save()
        except BaseException:
            os._exit(FAILED)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


Snapshot = dict[str, bytes]


def _snapshot(folder: Path) -> Snapshot:
    """Every file under `folder` by its relative path (hidden ones too), but the folder's lock and journal."""
    if not folder.exists():
        return {}
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in (LOCK_NAME, JOURNAL_NAME)}


def _next_save(folder: Path) -> None:
    """Another save into the folder, of another file, then that file removed: what the journal names is settled."""
    other = folder / "next save.txt"
    write_atomic(other, "x", overwrite=True)
    other.unlink()


def _kill_at_every_step(
    folder: Path,
    before: Callable[[], object],
    save: Callable[[], object],
    *,
    whole: bool = True,
    settle: Callable[[Path], object] = _next_save,
) -> int:
    """`save` killed at every step in turn, the folder as `before` left it. After each kill and the next save
    into the folder (`settle`), the folder holds exactly its files before or after the save (or, not `whole`,
    each file as it was before or after): nothing lost, nothing left. The number of steps."""
    copies = folder.with_name(folder.name + " killed")
    folder.mkdir(parents=True)
    before()
    old = _snapshot(folder)
    assert _save_copying_each_step(folder, save, copies) == 0
    new = _snapshot(folder)
    assert new != old
    steps = sorted(copies.iterdir())
    for killed in steps:
        settle(killed)
        found = _snapshot(killed)
        if whole:
            assert found in (old, new), f"killed at step {killed.name}: {sorted(found)}"
        else:
            assert set(found) <= set(old) | set(new), f"killed at step {killed.name}: {sorted(found)}"
            assert all(found[name] in (old.get(name), new.get(name)) for name in found)
            assert set(old) & set(new) <= set(found), f"killed at step {killed.name}: a file lost"
    return len(steps)


def _monster(name: str, level: int) -> wb.Monster:
    return wb.build_monster(level, "platoon", "brute").model_copy(update={"name": name})


ORC_1, ORC_2, GOBLIN_3 = _monster("Orc", 1), _monster("Orc", 2), _monster("Goblin", 3)


def test_a_monster_saved_over_its_old_file(tmp_path):
    folder = tmp_path / "library"
    steps = _kill_at_every_step(folder, lambda: lib.save_monster(ORC_1, folder=folder),
                                lambda: lib.save_monster(ORC_2, folder=folder, overwrite=True))
    assert steps >= 5
    assert lib.load_monster("Orc", folder).level == 2


def test_a_group_of_monsters_saved_all_or_none(tmp_path):
    folder = tmp_path / "library"
    group = [("Orc", ORC_2), ("Goblin", GOBLIN_3)]
    steps = _kill_at_every_step(folder, lambda: lib.save_monster(ORC_1, folder=folder),
                                lambda: lib.save_monsters(group, folder, overwrite=True))
    assert steps >= 8
    assert [lib.load_monster(name, folder).level for name in ("Orc", "Goblin")] == [2, 3]


def test_a_renamed_monster_is_under_one_name_never_both_or_neither(tmp_path):
    folder = tmp_path / "library"
    steps = _kill_at_every_step(folder, lambda: lib.save_monster(ORC_1, folder=folder),
                                lambda: lib.rename_monster("Orc", "Orc chief", folder))
    assert steps >= 3
    assert lib.list_monsters(folder) == ["Orc chief"]


def _encounter(orcs: int) -> Encounter:
    enc = Encounter(party=make_party(heroes=4, level=1))
    return enc.adding(creature_from_monster(ORC_1, orcs))


def test_an_encounter_and_an_adventure_saved_over_their_old_files(tmp_path):
    folder = tmp_path / "plans"
    encounter_file, adventure_file = folder / "fight.json", folder / "day.json"
    party = make_party(heroes=4, level=1)

    def before():
        save_encounter(_encounter(1), encounter_file)
        Adventure(party=party, encounters=(_encounter(1),)).save(adventure_file)

    later, day = _encounter(2), Adventure(party=party, encounters=(_encounter(2),))

    def save():
        save_encounter(later, encounter_file, overwrite=True)
        day.save(adventure_file, overwrite=True)

    assert _kill_at_every_step(folder, before, save, whole=False) >= 10
    assert load_encounter(encounter_file) == later and load_adventure(adventure_file) == day


def test_a_fight_saved_over_its_old_file(tmp_path):
    folder = tmp_path / "fights"
    path = folder / "fight.json"
    fight = Fight(_encounter(1))
    fight.start_round()
    assert _kill_at_every_step(folder, lambda: Fight(_encounter(1)).save(path), lambda: fight.save(path)) >= 5
    assert len(load_fight(path).events) == 1


def _stat_block_source(folder: Path, level: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = wb.export_monster(_monster("Orc", level), "steel-compendium")
    (folder / "orc.json").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("replace", [False, True])
def test_a_bestiary_added_or_replaced(tmp_path, replace):
    root = tmp_path / "bestiaries"
    old, new = _stat_block_source(tmp_path / "old", 1), _stat_block_source(tmp_path / "new", 4)

    def before():
        if replace:
            add_bestiary(old, root, name="Orcs")

    steps = _kill_at_every_step(root, before, lambda: add_bestiary(new, root, name="Orcs", replace=replace),
                                settle=list_bestiaries)  # a listing settles what a killed add left
    assert steps >= 10
    assert {m.level for m in load_added_bestiary(root / "Orcs").monsters} == {4}


def _dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_what_dead_writers_left_goes_with_the_next_write_and_a_live_one_s_stays(tmp_path):
    dead, alive = _dead_pid(), os.getppid()
    left = [tmp_path / f".other.json.{dead}-0123abcd.tmp", tmp_path / f".Orcs.{dead}-0123abcd.build"]
    kept = [tmp_path / f".other.json.{alive}-0123abcd.tmp", tmp_path / f".mine.{dead}-0123abcd.txt"]
    left[0].write_text("half")
    (left[1] / "sources").mkdir(parents=True)
    for path in kept:
        path.write_text("theirs")
    write_atomic(tmp_path / "export.md", "x", lock=False)  # a write without the lock, as an export
    assert not any(p.exists() for p in left) and all(p.exists() for p in kept)


def test_a_refused_save_leaves_nothing(tmp_path):
    lib.save_monster(ORC_1, folder=tmp_path)
    (tmp_path / "Goblin.json").write_text("a file of the Director's, not a monster")
    for refused in (lambda: lib.save_monster(ORC_2, folder=tmp_path),
                    lambda: lib.save_monster(ORC_2, "Goblin", folder=tmp_path, overwrite=True)):
        with pytest.raises((lib.NameTaken, lib.LibraryError)):
            refused()
    assert sorted(_snapshot(tmp_path)) == ["Goblin.json", "Orc.json"]
