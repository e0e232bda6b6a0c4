import math


class ShapeError(ValueError):
    """A shape that cannot exist."""


def area(kind, size):
    if kind not in ("circle", "square"):
        raise ShapeError(f"unknown shape kind: {kind!r}")
    return math.pi * size * size if kind == "circle" else size * size


class Circle:
    def __init__(self, radius):
        if radius < 0:
            raise ValueError("radius must not be negative")
        self.radius = radius

    def scale(self, factor):
        raise NotImplementedError("Circle.scale is not implemented in this version")

    def _private(self):
        raise RuntimeError("not a public method")


def _helper():
    raise RuntimeError("not public")
