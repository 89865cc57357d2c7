"""`workbench app`: the workbench's app pages and lessons as web pages on 127.0.0.1 (the server is
`workbench.server`; this module only reads the command line)."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli import bounded_int

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "app", help="serve the notebooks as web apps with Voilà on 127.0.0.1 (a landing page lists them)"
    )
    parser.add_argument("--port", type=bounded_int(0), default=None, help="TCP port (default: a free one)")
    parser.add_argument("--notebooks", type=Path, default=None,
                        help="folder of lessons to serve beside the pages (default: the checkout's notebooks/)")
    parser.add_argument("--no-preheat", dest="preheat", action="store_false",
                        help="start a page's kernel only when it is opened (slower pages, ~1 GB less memory)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> None:
    from workbench.server.app import start

    start(args.notebooks, args.port, preheat=args.preheat)
