"""The rule sets fogofwar ships; importing this package registers them."""

from . import rock_n_roll, specter_ops, warfighter, zero_dark

__all__ = ["rock_n_roll", "specter_ops", "warfighter", "zero_dark"]
