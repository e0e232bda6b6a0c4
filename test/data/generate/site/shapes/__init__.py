"""A small installed distribution for `raiselint records generate`."""
from .core import Circle, area

__all__ = ["Circle", "area"]
