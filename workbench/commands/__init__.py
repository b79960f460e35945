"""Sub-commands of the ``workbench`` command line, one module each (see cli.py)."""
