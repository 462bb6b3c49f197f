from collections.abc import Mapping, Sequence

from f2lay._f2lay import ref as ref


class Error(ValueError):
    """A refused request or bad layout; from f2lay.ask, the oracle's answer is .response."""
    response: dict[str, object]

class LinearLayout:
    """
    A linear layout on f2lay::opt (bit-packed), with the API of Triton's binding.
    """

    def __init__(self) -> None:
        """The empty layout: no in dims, no out dims."""

    @staticmethod
    def from_bases(bases: Sequence[tuple[str, Sequence[Sequence[int]]]], out_dim_names: Sequence[str], out_dim_sizes: Sequence[int] | None = None, require_surjective: bool = True) -> LinearLayout:
        """
        bases: [(in dim, [[value per out dim], ...]), ...]. Without out_dim_sizes each size is the smallest power of two above the dim's largest value, and the layout must be surjective.
        """

    @staticmethod
    def identity_1d(size: int, inDim: str, outDim: str) -> LinearLayout:
        """in=2^i -> out=2^i; size 0 gives the empty layout"""

    @staticmethod
    def zeros_1d(size: int, inDim: str, outDim: str, outDimSize: int = 1) -> LinearLayout:
        """every input maps to 0, in an out dim of size outDimSize"""

    @staticmethod
    def strided_1d(size: int, stride: int, inDim: str, outDim: str) -> LinearLayout:
        """in=2^i -> out=stride*2^i, in an out dim of size size*stride"""

    def compose(self, arg: LinearLayout, /) -> LinearLayout:
        """x -> arg(self(x)) (Def 4.2)"""

    def invert_and_compose(self, arg0: LinearLayout, /, *, triton: str = '3.9') -> LinearLayout:
        """C with arg(C(x)) == self(x) (§5.4)"""

    def invert(self, *, triton: str = '3.9') -> LinearLayout:
        """the inverse of an invertible layout"""

    def pseudoinvert(self, *, triton: str = '3.9') -> LinearLayout:
        """the right inverse of a surjective layout (Def 4.5)"""

    def is_surjective(self) -> bool: ...

    def is_injective(self) -> bool: ...

    def is_invertible(self) -> bool: ...

    def get_in_dim_names(self) -> list[str]: ...

    def get_out_dim_names(self) -> list[str]: ...

    @property
    def bases(self) -> list:
        """[(in dim, [[value per out dim], ...]), ...]"""

    @property
    def out_dims(self) -> list:
        """[(out dim, size), ...]"""

    @property
    def num_in_dims(self) -> int: ...

    @property
    def num_out_dims(self) -> int: ...

    def apply(self, inputs: dict) -> dict:
        """{in dim: value} for every in dim -> {out dim: value}"""

    def get_matrix_view(self) -> list[list[int]]:
        """rows are output bits, columns input bits"""

    def get_distributed_view(self, arg: bool, /) -> str:
        """Triton's text of a distributed layout (register, lane, warp, block)"""

    def get_shared_view(self, arg: bool, /) -> str:
        """Triton's text of a shared-memory layout (offset, block)"""

    def __mul__(self, arg: LinearLayout, /) -> LinearLayout:
        """the product (Def 4.3)"""

    def __imul__(self, arg: LinearLayout, /) -> object: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __ne__(self, other: object, /) -> bool: ...

    def __repr__(self) -> str: ...

    def __str__(self) -> str: ...

    def transpose_ins(self, new_in_dims: Sequence[str]) -> LinearLayout: ...

    def transpose_outs(self, new_out_dims: Sequence[str]) -> LinearLayout: ...

    def reshape_ins(self, new_in_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """new_in_dims: [(name, size), ...]"""

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """new_out_dims: [(name, size), ...]"""

    def flatten_ins(self) -> LinearLayout: ...

    def flatten_outs(self) -> LinearLayout: ...

    def sublayout(self, in_dim_names: Sequence[str], out_dim_names: Sequence[str]) -> LinearLayout: ...

    def concat_ins(self, arg: LinearLayout, /) -> LinearLayout: ...

    def concat_outs(self, arg: LinearLayout, /) -> LinearLayout: ...

    def divide_left(self, arg: LinearLayout, /) -> LinearLayout | None:
        """C with arg * C == self (Def 4.4), or None"""

    def get_free_variable_masks(self) -> dict: ...

    def get_num_consecutive_in_out(self) -> int: ...

    def rank(self) -> int: ...

    @staticmethod
    def from_text(text: str, format: str | None = None) -> LinearLayout:
        """
        a layout in JSON, Triton's toString text or the MLIR attribute (format "json", "triton" or "mlir"; detected when None), as f2lay convert reads it
        """

    def to_text(self, format: str = 'json') -> str:
        """the layout as f2lay convert --to FORMAT writes it"""

    @staticmethod
    def from_triton(layout: object) -> LinearLayout:
        """the same layout from Triton's LinearLayout (its bases and out dims)"""

    def to_triton(self) -> object:
        """the same layout as Triton's LinearLayout (Triton must be installed)"""

    def __getstate__(self) -> str: ...

    def __setstate__(self, arg: str, /) -> None: ...

def call_floor(layout: LinearLayout) -> None: ...

def answer_line(line: str, impl: str = 'opt') -> str:
    """
    One oracle request line answered as `f2lay oracle --impl IMPL` answers it (one line).
    """

def audit_json(ttgir: str, triton: str = '3.9', arguments: Mapping[str, int] = {}, grid: Sequence[int] = [], program: Sequence[int] = []) -> str:
    """
    `f2lay audit --json` in process: the report of a TTGIR module, as JSON text.
    """

def show_svg(input: str, element_bytes: int = 0, warp: int = 0, instruction: int = 0) -> str:
    """
    `f2lay show --svg` in process: the SVG picture of a layout or request (JSON text); element_bytes 0 means the request's own or 4.
    """
