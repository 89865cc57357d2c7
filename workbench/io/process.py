"""Whether a process is still running, asked of the system by its id.

A file a process leaves behind names it by its id (a save's temporary file, a server's pid file, a kernel
forked from the zygote); what may be removed or reported as stopped depends on whether that process runs.
The id is read from a file name or a file anyone could have written, so any number is answered, never raised
on: one that no process can have (0, negative, past the system's range) is no running process.
"""

from __future__ import annotations

import os

__all__ = ["process_alive"]

_LARGEST_PID = 2**31 - 1  # a process id is a C int; os.kill raises OverflowError past it


def process_alive(pid: int) -> bool:
    """True while a process with id `pid` exists: this one, another of ours, or another user's (the system
    then refuses to signal it, which still says it is there). Signal 0 only asks; nothing is sent."""
    if pid == os.getpid():
        return True
    if os.name == "nt":  # Windows has no harmless probe: os.kill there ends the process; assume it runs
        return True
    if isinstance(pid, bool) or not isinstance(pid, int) or not 0 < pid <= _LARGEST_PID:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: a process of another user has that id
        return True
    return True
