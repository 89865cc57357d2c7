"""plotly figures: data in, figure out; a chart never displays itself.

In a kernel Voilà started, figures shown as cell outputs go through `page_renderer` (plain HTML drawn by
plotly.js): JupyterLab's plotly renderer raises a page error under Voilà.
"""

from workbench.charts.page_renderer import follow_voila

follow_voila()
