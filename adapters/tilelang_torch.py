"""TileLang without PyTorch, for tilelang_check.py.

TileLang 0.1.15's `import tilelang` imports torch unconditionally (its
__init__ preloads it before opening libtilelang.so, and tilelang.language,
which tilelang.layout imports, builds dtype tables from torch's dtypes), but
the layouts this adapter reads are TileLang's C++ (libtilelang.so, through
TVM's FFI) and never call torch. The torch wheel is over 500 MB, so the
adapters' environment does not install it (requirements-nodeps.txt).

stand_in_if_missing() puts a small stand-in module under the name "torch"
while TileLang is imported, where no real torch is installed: the names
TileLang 0.1.15 reads at import time (dtype objects for its tables, the
classes its annotations and isinstance checks name, and "no CUDA, no ROCm, no
MPS, no NPU" for its device probes) and nothing else; any other name raises
AttributeError, so a TileLang release that needs more fails loudly instead of
computing with a fake. Afterwards the name is removed from sys.modules again,
so that nothing imported later (Triton, ...) mistakes it for PyTorch. With a
real torch installed it does nothing."""
import contextlib
import importlib.util
import sys
import types


class _Dtype:
    """A torch dtype stand-in: a distinct, hashable object with its name."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name} (stand-in)"


# The dtype names TileLang 0.1.15 reads at import (tilelang/language/dtypes.py
# and fp8.py): each its own object, as in torch, except torch's aliases.
_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "bfloat16", "float8_e4m3fn", "float8_e4m3fnuz",
           "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2"]
_ALIASES = {"short": "int16", "int": "int32", "long": "int64", "half": "float16",
            "float": "float32", "double": "float64", "uchar": "uint8"}


class _StandIn(types.ModuleType):
    def __getattr__(self, name):
        raise AttributeError(f"torch.{name}: not in tilelang_torch's stand-in for PyTorch "
                             "(this TileLang needs more of torch than 0.1.15 did)")


def _namespace(name, **attrs):
    module = _StandIn(name)
    module.__dict__.update(attrs)
    return module


def _make():
    torch = _StandIn("torch")
    torch.__dict__.update(
        __version__="0+stand-in", __path__=[],
        dtype=_Dtype, Tensor=type("Tensor", (), {}), device=type("device", (), {}),
        cuda=_namespace("torch.cuda", is_available=lambda: False, Event=type("Event", (), {})),
        npu=_namespace("torch.npu", is_available=lambda: False),
        backends=_namespace("torch.backends", mps=_namespace(
            "torch.backends.mps", is_available=lambda: False)),
        version=_namespace("torch.version", cuda=None, hip=None))
    for name in _DTYPES:
        setattr(torch, name, _Dtype(name))
    for alias, name in _ALIASES.items():
        setattr(torch, alias, getattr(torch, name))
    return torch


@contextlib.contextmanager
def stand_in_if_missing():
    """Runs the body with a stand-in torch where none is installed; yields
    True where it stood in, False where the real torch is used."""
    if "torch" in sys.modules or importlib.util.find_spec("torch") is not None:
        yield False
        return
    # TVM's FFI probes torch at its own import and takes its optional torch
    # paths (DLPack exchange, streams) when it finds one: imported first, it
    # sees none.
    with contextlib.suppress(ImportError):
        import tvm_ffi  # noqa: F401
    sys.modules["torch"] = _make()
    try:
        yield True
    finally:
        sys.modules.pop("torch", None)
