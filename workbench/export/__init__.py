"""Every way a monster leaves the workbench: the tools' files, Markdown, HTML and the printed card.

`exporter` picks the writer for a format name (the tools' JSON comes from `workbench.formats`, the text and
pages from `workbench.render`); `printout` prints the stat block to PDF or PNG through a headless Chromium.
"""
