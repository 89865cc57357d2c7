"""How long reading one pasted stat block takes (`wb.parse_stat_block_text`), goal under 50 ms a block; and a
100 KB paste (the most a paste takes) in the shapes that once took seconds, goal under 1 s each.

The texts are the workbench's Markdown of each sample stat block (the same parts a book or PDF copy holds,
in more lines); each is parsed `repeat` times and the median, 95th percentile and slowest are reported. The
100 KB pastes (a run of 97,000 spaces, no-break spaces, tabs in the name, a block repeated, a keyword list of
7,500 entries, 1,900 traits) are each read `repeat` times: the slowest time and the peak memory (tracemalloc)
are reported, and whether the monster it gives saves (a library file over the 1 MiB read limit is refused).

Run: .venv/bin/python benchmarks/bench_book_text.py [repeat]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import tracemalloc

from timing import load_average, percentile

import workbench as wb
from workbench.formats.bestiary import SAMPLE_DIR


def main() -> None:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    texts = [wb.export_monster(wb.read_stat_block(p), "markdown") for p in sorted(SAMPLE_DIR.rglob("*.json"))]
    wb.parse_stat_block_text(texts[0])  # the first call builds the model's validators
    times = []
    for _ in range(repeat):
        for text in texts:
            start = time.perf_counter()
            wb.parse_stat_block_text(text)
            times.append(time.perf_counter() - start)
    print(f"load average {load_average()}")
    print(f"{len(texts)} stat blocks x {repeat}: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {percentile(times, 0.95) * 1000:.1f} ms, slowest {max(times) * 1000:.1f} ms")
    large_pastes(texts[3], repeat)


def _pastes(block: str) -> dict[str, str]:
    head = block.split("**With Captain**")[0]
    return {
        "a run of 97,000 spaces": block.split("\n", 1)[0] + " " * 97_000 + "\n" + block,
        "no-break spaces": (block.replace(" ", "\u00a0" * 40) * 6)[:99_000],
        "tabs in the name": "Goblin" + "\t" * 95_000 + " Sneak\n" + block,
        "the block repeated": (block + "\n\n") * (99_000 // (len(block) + 2)),
        "7,500 keywords": block.replace("*Bugbear, Fey, Goblin, Humanoid*",
                                        "*" + ", ".join(f"Kindred{i}" for i in range(7_500)) + "*"),
        "1,900 traits": head + "#### Traits\n\n" + "".join(f"- **T{i}** " + "\x01" * 40 + "\n" for i in range(1900)),
    }


def large_pastes(block: str, repeat: int) -> None:
    """Each 100 KB paste read `repeat` times: the slowest, the peak memory, and what saving its monster does."""
    folder = tempfile.mkdtemp(prefix="wb-bench-paste-")
    for label, text in _pastes(block).items():
        times, outcome = [], ""
        for _ in range(repeat):
            start = time.perf_counter()
            try:
                monster = wb.parse_stat_block_text(text)
            except wb.InvalidInput as exc:
                monster, outcome = None, f"refused ({exc.reason or exc.accepts})"[:60]
            times.append(time.perf_counter() - start)
        tracemalloc.start()
        try:
            wb.parse_stat_block_text(text)
        except wb.InvalidInput:
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        if monster is not None:
            try:
                wb.save_monster(monster, "Pasted", folder, overwrite=True)
                outcome = "saved and read back" if wb.load_monster("Pasted", folder) else ""
            except wb.InvalidInput as exc:
                outcome = "save refused: " + (exc.reason or "")[:40]
        print(f"100 KB paste, {label:<22} {len(text):>7,} chars: slowest {max(times) * 1000:6.1f} ms, "
              f"peak {peak / 1_048_576:5.1f} MiB; {outcome}")


if __name__ == "__main__":
    main()
