"""The page template's files compiled once per server, not once per page served.

Why: Voilà renders each page (a visit, a preheated kernel's page, a lesson) with a new nbconvert exporter, and
each exporter makes a new Jinja environment, which parses and compiles every file of the template again
(index.html.j2, base.html.j2, display_priority.j2, ...): a large part of the server's own CPU per page.

How: `patches.compile_templates_once` gives every exporter's environment one `CompiledTemplates`, Jinja's bytecode
cache kept in memory. A new environment then takes a file's compiled code from it instead of compiling the file. The
code is kept with a checksum of the file's source, so an edited template is compiled again; and apart for async and
plain environments, whose compiled code differs.
"""

from __future__ import annotations

from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket

__all__ = ["CompiledTemplates"]


class CompiledTemplates(BytecodeCache):
    """Jinja's bytecode cache in this process's memory (its own caches write files or need a server)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        return super().get_bucket(environment, f"{name}|async={environment.is_async}", filename, source)

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # Jinja drops it if the source's checksum differs

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()
