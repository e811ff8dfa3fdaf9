"""The harness itself: strategies draw what they promise, records refuse
incomplete declarations."""
import numpy
import pytest
from hypothesis import Phase
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from harness import checks
from harness import profiles
from harness import record as record_module
from harness.profiles import conformance_settings
from harness import strategies
from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node

_CPU = backend.CpuDevice()


@conformance_settings
@given(st.data())
def test_shapes_respect_bounds(data):
    shape = data.draw(strategies.shapes(min_dims=1, max_dims=3, min_side=2,
                                        max_side=4))
    assert 1 <= len(shape) <= 3
    assert all(2 <= side <= 4 for side in shape)


@conformance_settings
@given(st.data())
def test_zero_size_shapes_are_empty(data):
    with strategies.zero_size_shapes():
        shape = data.draw(strategies.shapes())
    assert len(shape) >= 1 and 0 in shape


@conformance_settings
@given(st.data())
def test_broadcastable_shapes_broadcast_to_the_shape(data):
    shape = data.draw(strategies.shapes())
    operand = data.draw(strategies.broadcastable_shapes(shape))
    assert numpy.broadcast_shapes(operand, shape) == shape


@conformance_settings
@given(st.data(), st.integers(1, 4))
def test_mutually_broadcastable_gives_exactly_the_shape(data, n):
    shape = data.draw(strategies.shapes())
    operands = data.draw(strategies.mutually_broadcastable(n, shape))
    assert len(operands) == n
    assert numpy.broadcast_shapes(*operands) == shape


@conformance_settings
@given(st.data())
def test_floats_keep_away_from_kinks(data):
    x = data.draw(strategies.floats(away_from=[0.0, 1.0], margin=0.2,
                                    dtype=strategies.dtypes()))
    assert x.dtype in strategies.FLOAT_DTYPES
    values = x.astype(numpy.float64)
    # Rounding to the dtype moves a value of magnitude <= 2 by <= eps.
    slack = numpy.finfo(x.dtype).eps
    for kink in (0.0, 1.0):
        assert (abs(values - kink) >= 0.2 - slack).all()
    assert (values >= -2.0 - slack).all() and (values <= 2.0 + slack).all()


@conformance_settings
@given(st.data())
def test_positive_floats(data):
    x = data.draw(strategies.floats(positive=True, margin=0.3))
    assert (x >= 0.3).all()


def test_floats_refuse_kinks_without_room():
    with pytest.raises(ValueError, match='closer than twice the margin'):
        strategies.floats(away_from=[0.0, 0.1], margin=0.1)


def test_record_needs_a_reason_to_turn_a_check_off(monkeypatch):
    monkeypatch.setattr(record_module, 'RECORDS', {})
    with pytest.raises(ValueError, match='reason'):
        record_module.record('f', abs, inputs=(strategies.floats(),))


def test_record_tolerance_overrides_merge(monkeypatch):
    monkeypatch.setattr(record_module, 'RECORDS', {})
    entry = record_module.record(
        'f', abs, reference=numpy.abs, inputs=(strategies.floats(),),
        tolerances={numpy.float16: {'forward': {'atol': 0.5}}})
    assert entry.tolerance(numpy.float16, 'forward') == {
        'atol': 0.5, 'rtol': 1e-2}
    assert entry.tolerance(numpy.float32, 'forward') == (
        record_module.DEFAULT_TOLERANCES[numpy.dtype('float32')]['forward'])


class _GraphPathDoubles(function_node.FunctionNode):
    """The identity whose backward, when it builds a graph, doubles."""

    def forward(self, inputs):
        return inputs[0].copy(),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return gy * 2 if configuration.config.enable_backprop else gy,


class _Overwrites(function_node.FunctionNode):
    """The identity whose gradient replaces the one already summed for
    its input instead of adding to it."""

    def forward(self, inputs):
        return inputs[0].copy(),

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        return grad_outputs


def _memory_order(x):
    """The identity on the values in memory order: right for C order
    only."""
    return x * x.xp.ravel(x.array, order='K').reshape(x.shape)


@pytest.mark.parametrize('func, check, message', [
    (lambda x: _GraphPathDoubles().apply((x,))[0], checks.check_graph_path,
     'built as a graph differs'),
    (lambda x: _Overwrites().apply((x,))[0], checks.check_reused_inputs,
     'not twice that of one'),
    (_memory_order, checks.check_layouts, 'depends on the layout'),
])
def test_generic_checks_fail_on_broken_functions(monkeypatch, func, check,
                                                  message):
    monkeypatch.setattr(record_module, 'RECORDS', {})
    # Only F order reorders memory for every drawn example.
    monkeypatch.setattr(checks, 'LAYOUTS', ('fortran',))
    broken = record_module.record(
        'broken', func, reference=lambda x: x,
        inputs=(strategies.floats(shape=(3, 2)),))

    @settings(max_examples=20, deadline=None, database=None,
              derandomize=True)
    @given(st.data())
    def run(data):
        case = checks.draw_case(data.draw, broken, numpy.float64, _CPU)
        check(case, data.draw)

    with pytest.raises(AssertionError, match=message):
        run()


@pytest.mark.parametrize('layout', checks.LAYOUTS)
def test_laid_out_keeps_the_values_in_another_layout(layout):
    x = numpy.arange(6.0).reshape(2, 3)
    view = checks.laid_out(x, layout, axis=1)
    expected = numpy.broadcast_to(x[:, :1], x.shape) \
        if layout == 'broadcast' else x
    numpy.testing.assert_array_equal(view, expected)
    strides = {'contiguous': (24, 8), 'fortran': (8, 16),
               'reversed': (-24, -8), 'strided': (96, 16),
               'offset': (24, 8), 'broadcast': (8, 0)}[layout]
    assert view.strides == strides
    if layout == 'offset':  # one element into a buffer of seven
        assert view.base.size == 7
        assert view.ctypes.data == view.base.ctypes.data + 8


def test_a_run_can_collect_only_some_records(monkeypatch):
    import records  # noqa: F401  (registers every record)
    monkeypatch.setattr(record_module, '_CHOSEN', None)
    assert record_module.chosen() == list(record_module.RECORDS.values())
    record_module.choose(['tanh', 'relu'])
    assert [entry.name for entry in record_module.chosen()] == [
        name for name in record_module.RECORDS if name in ('relu', 'tanh')]


def test_no_shrink_keeps_ci_examples_and_drops_only_shrinking():
    unshrunk = profiles.PROFILES['no-shrink']
    ci = profiles.PROFILES['ci']
    assert Phase.shrink not in unshrunk.phases
    assert Phase.generate in unshrunk.phases
    assert (unshrunk.max_examples, unshrunk.derandomize) == (
        ci.max_examples, ci.derandomize)


def test_no_shrink_reaches_the_run_s_other_hypothesis_tests(monkeypatch):
    monkeypatch.setitem(profiles._chosen, 'name', profiles._chosen['name'])
    previous = settings.get_current_profile_name()
    try:
        profiles.choose('no-shrink')
        assert Phase.shrink not in settings.default.phases
    finally:
        settings.load_profile(previous)
    assert Phase.shrink in settings.default.phases
