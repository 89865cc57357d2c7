"""The rules as data: the files of `data/` read and validated (ruleset, encounter tables, feature book, lore)."""
