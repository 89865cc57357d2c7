"""How long reading one pasted stat block takes (`wb.parse_stat_block_text`), goal under 50 ms a block.

The texts are the workbench's Markdown of each sample stat block (the same parts a book or PDF copy holds,
in more lines); each is parsed `repeat` times and the median, 95th percentile and slowest are reported.

Run: .venv/bin/python benchmarks/bench_book_text.py [repeat]
"""

from __future__ import annotations

import statistics
import sys
import time

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


if __name__ == "__main__":
    main()
