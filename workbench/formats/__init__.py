"""Stat block files other Draw Steel tools read and write: Forge Steel, Foundry VTT, the Steel Compendium.

One module per format (`forge_steel`, `foundry`, `steel_compendium`), each turning a Monster into the tool's
JSON and back; `reader` tells the format from a file's content; `record` is what travels beside each tool's
own fields so that a round trip loses nothing; `identity` gives the stable ids. Printing and the text formats
(Markdown, HTML, PDF, PNG) are the render layer's (`workbench.export.exporter`), which sits above this one.
"""
