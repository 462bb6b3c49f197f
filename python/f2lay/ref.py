"""The reference model, f2lay::ref: written to be read (reference/linear_layout.h),
with the API of f2lay.LinearLayout."""
from ._f2lay import ref as _ref

LinearLayout = _ref.LinearLayout

__all__ = ["LinearLayout"]
