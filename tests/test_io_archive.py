"""A compressed source read within its caps: a gzip bomb refused as soon as the ratio shows, an ordinary
archive that compresses well still read."""

from __future__ import annotations

import io
import json
import tarfile
import time
import zlib
from pathlib import Path

import pytest

from workbench.errors import InvalidInput
from workbench.io import archive
from workbench.io.archive import MAX_RATIO, RATIO_FLOOR, SourceRules, source_files

RULES = SourceRules(accepts="an archive", file="stat block file", limit=lambda path: 1 << 20)


def _bomb(path: Path, unpacked: int) -> Path:
    """A .tar.gz holding one member of `unpacked` zero bytes, compressed as it is written."""
    info = tarfile.TarInfo("big.json")
    info.size = unpacked
    pack = zlib.compressobj(6, zlib.DEFLATED, 31)
    with open(path, "wb") as out:
        out.write(pack.compress(info.tobuf()))
        block = b"\0" * (1 << 20)
        for _ in range(unpacked >> 20):
            out.write(pack.compress(block))
        out.write(pack.flush())
    return path


def test_a_gzip_bomb_is_refused_as_soon_as_the_ratio_shows(tmp_path):
    bomb = _bomb(tmp_path / "bomb.tar.gz", 16 << 20)
    started = time.monotonic()
    with pytest.raises(InvalidInput) as caught:
        list(source_files(bomb, RULES))
    assert time.monotonic() - started < 2
    assert "compression bomb" in str(caught.value) and len(str(caught.value).splitlines()) == 1
    assert RATIO_FLOOR < 16 << 20


def test_an_archive_that_compresses_well_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "RATIO_FLOOR", 1024)
    data = json.dumps({"name": "Orc", "abilities": [{"text": "x"}] * 2000}).encode()
    target = tmp_path / "fine.tar.gz"
    with tarfile.open(target, "w:gz") as out:
        info = tarfile.TarInfo("orc.json")
        info.size = len(data)
        out.addfile(info, io.BytesIO(data))
    assert len(data) / target.stat().st_size < MAX_RATIO
    assert [f.data for f in source_files(target, RULES)] == [data]


def _zip_bomb(path: Path, members: int, each: int) -> Path:
    """A .zip of `members` members of `each` zero bytes (about 1000 to 1 each), every one within a file's cap."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for number in range(members):
            out.writestr(f"part-{number}.json", b"\0" * each)
    return path


def test_a_zip_bomb_is_refused_as_soon_as_the_ratio_shows(tmp_path):
    bomb = _zip_bomb(tmp_path / "bomb.zip", 200, 1 << 20)  # 200 MiB out of about 200 KiB, under the total cap
    assert 200 << 20 < archive.MAX_TOTAL_BYTES
    started = time.monotonic()
    with pytest.raises(InvalidInput) as caught:
        list(source_files(bomb, RULES))
    assert time.monotonic() - started < 2
    assert "compression bomb" in str(caught.value) and len(str(caught.value).splitlines()) == 1


def test_a_zip_that_compresses_well_is_read(tmp_path, monkeypatch):
    import zipfile

    monkeypatch.setattr(archive, "RATIO_FLOOR", 1024)
    data = json.dumps({"name": "Orc", "abilities": [{"text": f"strike {i}"} for i in range(2000)]}).encode()
    assert len(data) / len(zlib.compress(data)) < MAX_RATIO  # well compressed, as JSON is, yet no bomb
    target = tmp_path / "fine.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("orc.json", data)
        out.writestr("goblin.json", data)
    assert [f.data for f in source_files(target, RULES)] == [data, data]
