"""How long a Director waits to add a full-size bestiary archive, and for an adventure's table after a change.

Adding: the Steel Compendium's bestiary has 416 stat blocks; the project ships 49. This script writes a
416-stat-block archive (.zip and .tar.gz) by copying the sample's files with new names, and times
`add_bestiary` on each, from a file and from a local HTTP server — goal < 3 s. Then `gather_bestiary` (the sample,
that bestiary and an empty library: what `workbench suggest` lists), read afresh and read again unchanged.

The adventure: ten encounters for five level 3 heroes with a respite after the fifth; one encounter's objective
changes and `plan` recomputes every encounter's arrival Victories, strength, band and warnings — goal < 100 ms.

Run: .venv/bin/python benchmarks/bench_adventure.py
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import tarfile
import tempfile
import threading
import zipfile
from pathlib import Path

from timing import load_average, timed
from timing import report as show

from workbench.encounter.adventure import Adventure, plan
from workbench.encounter.encounter import Encounter
from workbench.encounter.objective import choose_objective
from workbench.encounter.party import make_party
from workbench.formats.bestiary import SAMPLE_DIR
from workbench.workspace import added_bestiary
from workbench.workspace.added_bestiary import add_bestiary
from workbench.workspace.shelf import gather_bestiary

SIZE = 416


def write_bestiary(folder: Path) -> None:
    files = sorted(SAMPLE_DIR.rglob("*.json"))
    for number in range(SIZE):
        source = files[number % len(files)]
        data = json.loads(source.read_text(encoding="utf-8"))
        data["name"] = f"{data['name']} {number}"
        (folder / f"{number:03}.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "LICENSE").write_bytes((SAMPLE_DIR / "LICENSE").read_bytes())


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    print(f"load average {load_average()}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        source = root / "Monsters"
        source.mkdir()
        write_bestiary(source)
        zip_path = root / "www" / "bestiary.zip"
        zip_path.parent.mkdir()
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as z:
            for path in sorted(source.iterdir()):
                z.write(path, f"Monsters/{path.name}")
        tar_path = root / "www" / "bestiary.tar.gz"
        with tarfile.open(tar_path, "w:gz") as t:
            t.add(source, arcname="Monsters")
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root / "www")))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/bestiary.zip"
        counter = iter(range(10_000))
        for label, what in (("folder", source), (".zip", zip_path), (".tar.gz", tar_path), ("URL (.zip)", url)):
            def add(what: object = what) -> None:
                added = add_bestiary(str(what), root / "bestiaries", name=f"b{next(counter)}")
                assert len(added.monsters) == SIZE, len(added.monsters)
            show(f"add_bestiary, {SIZE} stat blocks, {label}", timed(add, 5))
        server.shutdown()
        for folder in sorted((root / "bestiaries").iterdir())[1:]:
            shutil.rmtree(folder)

        def cold() -> None:
            added_bestiary._LOADED.clear()
            gather_bestiary(root / "bestiaries", root / "library")

        show(f"gather_bestiary (sample + {SIZE} added + library)", timed(cold, 5))
        show("  the same, the bestiary unchanged since the last", timed(
            lambda: gather_bestiary(root / "bestiaries", root / "library"), 5))

    party = make_party(heroes=5, level=3)
    specs = ("7 x level 3 platoon brute", "level 4 leader", "8 x level 3 minion harrier", "level 3 solo",
             "4 x level 3 platoon brute")
    encounters = tuple(Encounter(name=f"E{i}", party=party).adding(specs[i % len(specs)]) for i in range(10))
    day = Adventure(party=party, encounters=encounters, respites=(5,))
    objectives = (choose_objective("get_the_thing"), choose_objective("diminish_numbers"))
    state = {"n": 0}

    def change_and_plan() -> None:
        state["n"] += 1
        changed = day.replacing(0, encounters[0].model_copy(update={"objectives": (objectives[state["n"] % 2],)}))
        plan(changed)

    show("plan of 10 encounters after an objective changes", timed(change_and_plan, 50))


if __name__ == "__main__":
    main()
