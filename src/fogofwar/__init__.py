"""fogofwar: a digital umpire for tabletop wargames."""

__version__ = "0.1.0"

__all__ = ["__version__"]
