"""Hypothesis' entry point (pyproject.toml): st.from_type(f2lay.LinearLayout) and
st.from_type(f2lay.ref.LinearLayout) draw f2lay.strategies.linear_layouts(). Hypothesis runs
it while it is being imported, maybe from f2lay.strategies' own import, so the strategy is
looked up only when drawn (st.deferred)."""


def setup():
    from hypothesis import strategies as st

    from . import LinearLayout, ref

    def linear_layouts(ref_impl):
        def make():
            from .strategies import linear_layouts as layouts
            return layouts(ref_impl=ref_impl)
        return st.deferred(make)

    st.register_type_strategy(LinearLayout, linear_layouts(False))
    st.register_type_strategy(ref.LinearLayout, linear_layouts(True))
