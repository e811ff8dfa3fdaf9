"""Every record through every generic check, for each of its dtypes, on
the ``--device`` device."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

# Importing the records package registers every record.
import records  # noqa: F401
from harness import checks
from harness import strategies
from harness.profiles import conformance_settings
from harness.record import chosen


def _cases(applies=lambda record: True):
    return [pytest.param(record, dtype, id=f'{record.name}-{dtype.name}')
            for record in chosen() if applies(record)
            for dtype in record.dtypes]


def _run(check, record, dtype, device, data, *with_draw):
    with device:
        case = checks.draw_case(data.draw, record, dtype, device)
        check(case, *with_draw)


@pytest.mark.parametrize('record, dtype', _cases())
@conformance_settings
@given(data=st.data())
def test_outputs(record, dtype, device, data):
    _run(checks.check_outputs, record, dtype, device, data)


@pytest.mark.parametrize(
    'record, dtype', _cases(lambda record: record.reference is not None))
@conformance_settings
@given(data=st.data())
def test_forward(record, dtype, device, data):
    _run(checks.check_forward, record, dtype, device, data)


@pytest.mark.parametrize('record, dtype', _cases())
@conformance_settings
@given(data=st.data())
def test_backward(record, dtype, device, data):
    _run(checks.check_backward, record, dtype, device, data, data.draw)


@pytest.mark.parametrize('record, dtype', _cases())
@conformance_settings
@given(data=st.data())
def test_backward_subset(record, dtype, device, data):
    with device:
        case = checks.draw_case(data.draw, record, dtype, device)
        if len(checks.subset_candidates(case)) < 2:
            pytest.skip('fewer than two inputs take a gradient')
        checks.check_backward_subset(case, data.draw)


@pytest.mark.parametrize(
    'record, dtype', _cases(lambda record: record.double_backprop))
@conformance_settings
@given(data=st.data())
def test_graph_path(record, dtype, device, data):
    _run(checks.check_graph_path, record, dtype, device, data, data.draw)


@pytest.mark.parametrize('record, dtype', _cases())
@conformance_settings
@given(data=st.data())
def test_reused_inputs(record, dtype, device, data):
    _run(checks.check_reused_inputs, record, dtype, device, data, data.draw)


@pytest.mark.parametrize(
    'record, dtype', _cases(lambda record: record.any_layout))
@conformance_settings
@given(data=st.data())
def test_layouts(record, dtype, device, data):
    _run(checks.check_layouts, record, dtype, device, data, data.draw)


@pytest.mark.parametrize(
    'record, dtype', _cases(lambda record: record.double_backprop))
@conformance_settings
@given(data=st.data())
def test_double_backward(record, dtype, device, data):
    _run(checks.check_double_backward, record, dtype, device, data,
         data.draw)


@pytest.mark.parametrize(
    'record, dtype', _cases(lambda record: record.double_backprop))
@conformance_settings
@given(data=st.data())
def test_double_backward_subset(record, dtype, device, data):
    _run(checks.check_double_backward_subset, record, dtype, device, data,
         data.draw)


@pytest.mark.parametrize('record, dtype', _cases())
@conformance_settings
@given(data=st.data())
def test_no_graph_without_backprop(record, dtype, device, data):
    _run(checks.check_no_graph, record, dtype, device, data)


@pytest.mark.parametrize(
    'record, dtype', _cases(lambda record: record.zero_size))
@conformance_settings
@given(data=st.data())
def test_zero_size(record, dtype, device, data):
    with strategies.zero_size_shapes(), device:
        case = checks.draw_case(data.draw, record, dtype, device)
    with device:
        checks.check_zero_size(case, data.draw)
