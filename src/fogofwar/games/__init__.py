"""The rule sets fogofwar ships; importing this package registers them."""

from . import specter_ops, zero_dark

__all__ = ["specter_ops", "zero_dark"]
