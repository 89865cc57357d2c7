"""Printed stat blocks (workbench/export/printout.py): PDF pages and PNG cards from a headless Chromium.

The PDF's text is read back with pdftotext (Debian's poppler-utils, installed by `make pdftotext`), its
fonts and pages with pdffonts and pdfinfo, so these tests check what a printer would get, not the HTML.
"""

from __future__ import annotations

import re
import struct
import subprocess
import zlib

import pytest

import workbench as wb
from workbench.export.printout import (
    PAGE_SIZES,
    PrintUnavailable,
    _launch_problem,
    png_dpi,
    print_html,
    print_pdf,
    print_png,
    with_dpi,
)


def _tool(name: str, pdf: bytes, tmp_path, *args: str) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    return subprocess.run([name, *args, str(path), *(["-"] if name == "pdftotext" else [])], capture_output=True,
                          text=True, check=True).stdout


def _monster(name: str = "Cave Ogre", level: int = 5) -> wb.Monster:
    return wb.build_monster(level=level, organization="elite", role="brute").model_copy(update={
        "name": name, "keywords": ("Giant",), "signature_name": "Club Sweep",
        "traits": (wb.Trait(name="Thick Hide", text="The ogre ignores the first 3 damage each round."),)})


def test_the_pdf_holds_the_name_every_ability_name_and_every_number(tmp_path):
    monster = _monster()
    text = _tool("pdftotext", print_pdf(monster, "a4"), tmp_path, "-layout")
    words = " ".join(text.split())
    assert "Cave Ogre" in words and "Giant" in words
    for name in ("Club Sweep", "Thick Hide"):
        assert name in words
    numbers = {monster.level, monster.ev, monster.stamina, monster.free_strike, *monster.damage.as_tuple(),
               *monster.potency.as_tuple()}
    found = set(map(int, re.findall(r"\d+", text)))
    assert numbers <= found
    assert f"+{monster.highest_characteristic}" in words


def test_a_script_in_a_name_prints_as_text(tmp_path):
    text = _tool("pdftotext", print_pdf(_monster("<script>alert(1)</script> Imp")), tmp_path)
    assert "<script>alert(1)</script> Imp" in " ".join(text.split())


def test_a_library_prints_one_monster_per_page_with_fonts_embedded(tmp_path):
    monsters = [_monster(f"Ogre {n}", level=n) for n in range(1, 5)]
    pdf = print_pdf(monsters, "letter")
    info = _tool("pdfinfo", pdf, tmp_path)
    assert re.search(r"Pages:\s+4\b", info)
    assert re.search(r"Page size:\s+612(\.\d+)? x 792(\.\d+)? pts \(letter\)", info)
    fonts = _tool("pdffonts", pdf, tmp_path).splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts)  # the "emb" column
    pages = [_tool("pdftotext", pdf, tmp_path, "-f", str(n), "-l", str(n)) for n in (1, 2, 3, 4)]
    assert ["Ogre 1" in p for p in pages] == [True, False, False, False]
    assert ["Ogre 4" in p for p in pages] == [False, False, False, True]


@pytest.mark.parametrize("page, width, height", [("a4", 595, 842), ("card", 360, 504)])
def test_page_sizes(tmp_path, page, width, height):
    info = _tool("pdfinfo", print_pdf(_monster(), page), tmp_path)
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    assert size and (round(float(size.group(1))), round(float(size.group(2)))) == (width, height)
    assert re.search(r"Pages:\s+1\b", info)  # a card holds the whole block: it is scaled down to fit


def test_a_long_block_still_fits_one_card(tmp_path):
    traits = tuple(wb.Trait(name=f"Trait {n}", text="A long paragraph of rules text. " * 12) for n in range(8))
    monster = _monster().model_copy(update={"traits": traits})
    pdf = print_pdf(monster, "card")
    assert re.search(r"Pages:\s+1\b", _tool("pdfinfo", pdf, tmp_path))
    assert "Trait 7" in _tool("pdftotext", pdf, tmp_path)


def test_the_png_is_at_least_150_dpi_and_says_so():
    png = print_png(_monster(), dpi=150)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    across, down = png_dpi(png)
    assert 150 <= across < 150.05 and across == down  # PNG stores pixels per metre: rounded up, never below
    width = struct.unpack(">I", png[16:20])[0]
    card_inches = (PAGE_SIZES["card"].width_mm - 2 * PAGE_SIZES["card"].margin_mm) / 25.4
    assert width >= 150 * card_inches - 2  # the pixels are there, not only the label
    assert 300 <= png_dpi(print_png(_monster(), dpi=300))[0] < 300.05


def test_with_dpi_writes_one_valid_phys_chunk():
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data  # noqa: E731
                                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b"")
    once = with_dpi(png, 200)
    assert png_dpi(png) is None and 200 <= png_dpi(once)[0] < 200.05
    assert with_dpi(once, 200) == once and once.count(b"pHYs") == 1


@pytest.mark.parametrize("bad", [149, 601, 200.0, True, "300"])
def test_a_dpi_outside_150_to_600_is_refused(bad):
    with pytest.raises(wb.InvalidInput) as caught:
        print_png(_monster(), dpi=bad)
    assert caught.value.field == "dpi"


def test_an_unknown_page_size_is_refused_naming_the_sizes():
    with pytest.raises(wb.InvalidInput) as caught:
        print_html(_monster(), "tabloid")
    assert caught.value.field == "page" and "a4, letter, card" in caught.value.accepts


def test_the_printed_document_is_escaped_and_loads_nothing():
    page = print_html(_monster("<img src=x onerror=alert(1)>"))
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "http://" not in page and "https://" not in page


@pytest.mark.parametrize(
    "message, names",
    [
        ("chrome: error while loading shared libraries: libnss3.so: cannot open shared object file", "libnss3.so"),
        ("Executable doesn't exist at /root/.cache/ms-playwright/chromium/chrome", "make browser"),
        ("Browser closed unexpectedly", "make browser"),
    ],
)
def test_a_browser_that_cannot_start_is_explained_with_what_to_install(message, names):
    assert names in _launch_problem(message, "/usr/bin/chromium")
    assert issubclass(PrintUnavailable, wb.WorkbenchError)


def test_the_first_system_chromium_found_prints(monkeypatch, tmp_path):
    """$WORKBENCH_CHROMIUM, else Debian's headless shell, else Debian's chromium; none: Playwright's own build."""
    from workbench.export import printout

    shell, desktop = tmp_path / "chromium-headless-shell", tmp_path / "chromium"
    desktop.touch()
    monkeypatch.setattr(printout, "SYSTEM_CHROMIUMS", (shell, desktop))
    assert printout.chromium_launch_options()["executable_path"] == str(desktop)
    shell.touch()
    assert printout.chromium_launch_options()["executable_path"] == str(shell)
    monkeypatch.setattr(printout, "SYSTEM_CHROMIUMS", (tmp_path / "nothing",))
    assert "executable_path" not in printout.chromium_launch_options()
    assert printout.chromium_launch_options()["headless"] is True
