"""plotly figures: data in, figure out; a chart never displays itself."""
