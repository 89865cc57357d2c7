"""Stat blocks and reports as text, Markdown, HTML and JSON. All user text is escaped where it becomes HTML."""
