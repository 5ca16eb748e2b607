"""Implementations of the ``fogofwar`` sub-commands (kept out of cli.py so that the
command line starts fast and each command imports only what it needs)."""
