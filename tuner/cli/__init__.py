"""The command line: one thin Typer module per command group, over the Python API."""
