"""The notebooks' kernels under nbval talk over Unix sockets (tests/conftest.py), as `workbench app`'s do: over
TCP, a port picked free can be taken by another connection before the kernel binds it, and the kernel fails
to start ("Address already in use"), which the parallel suite met."""

from __future__ import annotations

from pathlib import Path

from nbval.kernel import CURRENT_ENV_KERNEL_NAME, start_new_kernel

from workbench.server.app import kernel_socket_folder

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_a_notebooks_kernel_talks_over_unix_sockets_at_absolute_paths():
    # as nbval's RunningKernel starts one (--nbval-current-env), in the notebooks' folder
    manager, client = start_new_kernel(kernel_name=CURRENT_ENV_KERNEL_NAME, cwd=str(NOTEBOOKS))
    try:
        info = manager.get_connection_info()
        unix = kernel_socket_folder() is not None  # POSIX, with a folder short enough: as workbench app decides
        assert info["transport"] == ("ipc" if unix else "tcp")
        if unix:
            assert Path(info["ip"]).is_absolute()  # read alike by the kernel (in notebooks/) and by this process
            for channel in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"):
                assert Path(f"{info['ip']}-{info[channel]}").is_socket()
        reply = client.execute_interactive("1 + 1", timeout=60, output_hook=lambda message: None)
        assert reply["content"]["status"] == "ok"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
