"""Everything that serves the workbench's pages: `workbench app` and the work it does in its kernels.

It starts Voilà with the token, Host and Origin checks (`app`), puts the served folder and landing page together
(`site`), starts kernels forked from a zygote (`kernel_zygote`) and preheats one for the workbench page (`visit`),
and in each kernel installs the server's ways of building pages and drawing charts (`kernel_start`, `charts`,
`page_renderer`, `figure_view.js`). Every change it makes to another project's classes is in `patches`, which
also lists those the page template's JavaScript makes. Only `workbench.cli` imports this package:
the apps ask `workbench.apps.serving`, which the server fills in.
"""

__all__: list[str] = []
