"""ipywidgets apps: each a function of a ruleset that returns a widget; glue only, no game logic."""
