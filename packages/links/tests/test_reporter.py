"""Reporter, report, report_scope, Summary and DictSummary."""
import numpy
import pytest
from hypothesis import given, strategies as st

from kusari.array import configuration
from kusari.autograd import Variable
from kusari.links import (DictSummary, Reporter, Summary,
                          get_current_reporter, report, report_scope)
from kusari.serializers import DictionarySerializer, NpzDeserializer
from links_fakes import MLP, Model


def test_observer_prefix():
    reporter = Reporter()
    observer = object()
    reporter.add_observer('my_observer:', observer)
    observation = {}
    with reporter.scope(observation):
        reporter.report({'x': 1}, observer)
        report({'y': 2}, observer)
        report({'z': 3})
    assert observation == {'my_observer:/x': 1, 'my_observer:/y': 2,
                           'z': 3}


def test_naming_rule_through_namedlinks():
    model = Model()
    reporter = Reporter()
    reporter.add_observer('main', model)
    reporter.add_observers('main', model.namedlinks(skipself=True))
    observation = {}
    with reporter.scope(observation):
        report({'loss': 1.}, model)
        report({'sum_y': 2.}, model.predictor)
        report({'w': 3.}, model.predictor.l1)
    assert sorted(observation) == [
        'main/loss', 'main/predictor/l1/w', 'main/predictor/sum_y']


def test_evaluator_style_prefix():
    model = MLP()
    reporter = Reporter()
    reporter.add_observer('validation/main', model)
    observation = {}
    with reporter.scope(observation):
        report({'accuracy': 0.5}, model)
    assert observation == {'validation/main/accuracy': 0.5}


def test_unregistered_observer():
    reporter = Reporter()
    with pytest.raises(KeyError, match='not registered'):
        reporter.report({'x': 1}, object())


def test_no_current_reporter():
    report({'ignored': 1})
    with pytest.raises(RuntimeError, match='no reporter'):
        get_current_reporter()
    with pytest.raises(RuntimeError, match='no reporter'):
        with report_scope({}):
            pass


def test_scopes_nest_and_restore():
    outer, inner = Reporter(), Reporter()
    first, second, third = {}, {}, {}
    with outer.scope(first):
        assert get_current_reporter() is outer
        with inner.scope(second):
            assert get_current_reporter() is inner
            with report_scope(third):
                report({'a': 1})
            report({'b': 2})
        report({'c': 3})
    assert (first, second, third) == ({'c': 3}, {'b': 2}, {'a': 1})
    assert outer.observation == {}


def test_reported_variable_loses_its_graph():
    x = Variable(numpy.ones(2, numpy.float32))
    y = x * 2
    observation = {}
    with Reporter().scope(observation):
        report({'y': y})
    kept = observation['y']
    assert kept is not y and kept.array is y.array
    assert kept.creator is None and y.creator is not None


def test_keep_graph_on_report():
    y = Variable(numpy.ones(2, numpy.float32)) * 2
    observation = {}
    with configuration.using_config('keep_graph_on_report', True):
        with Reporter().scope(observation):
            report({'y': y})
    assert observation['y'] is y


def test_summary_statistics():
    summary = Summary()
    for value in (1., numpy.float32(3), Variable(numpy.asarray(5.))):
        summary.add(value)
    mean, std = summary.make_statistics()
    assert summary.compute_mean() == pytest.approx(3)
    assert mean == pytest.approx(3) and std == pytest.approx(
        numpy.std([1, 3, 5]))
    weighted = Summary()
    weighted.add(1., weight=3)
    weighted.add(5., weight=1)
    assert weighted.compute_mean() == pytest.approx(2)


@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=20))
def test_summary_matches_numpy(values):
    summary = Summary()
    for value in values:
        summary.add(value)
    mean, std = summary.make_statistics()
    assert mean == pytest.approx(numpy.mean(values), abs=1e-6)
    assert std == pytest.approx(numpy.std(values), abs=1e-3, rel=1e-3)
    assert not numpy.isnan(std)


def test_summary_sums_float32_values_in_float64():
    # As Chainer's on NumPy 1 (found by the differential check): the
    # running sums, and so the means and the snapshot, are float64.
    summary = Summary()
    values = numpy.full(1000, 0.1, numpy.float32)
    for value in values:
        summary.add(Variable(numpy.asarray(value)))
    assert summary.compute_mean().dtype == numpy.float64
    assert summary.compute_mean() == pytest.approx(
        numpy.float64(values[0]), rel=1e-13)


def test_dict_summary():
    summary = DictSummary()
    summary.add({'a': 1., 'b': (numpy.float32(2), 3), 'c': numpy.ones(3)})
    summary.add({'a': Variable(numpy.asarray(3.))})
    assert summary.compute_mean() == {'a': 2., 'b': 2.}
    stats = summary.make_statistics()
    assert sorted(stats) == ['a', 'a.std', 'b', 'b.std']
    assert stats['a.std'] == pytest.approx(1)
    with pytest.raises(ValueError, match="weight of 'x'"):
        summary.add({'x': (1., numpy.ones(2))})


def test_summaries_serialize_round_trip():
    summary = DictSummary()
    summary.add({'loss': 1., 'acc': 0.5})
    summary.add({'loss': 3.})
    target = {}
    DictionarySerializer(target).save(summary)
    loaded = DictSummary()
    loaded.add({'stale': 10.})
    NpzDeserializer(target).load(loaded)
    assert loaded.make_statistics() == summary.make_statistics()
    plain = Summary()
    plain.add(2.)
    store = {}
    DictionarySerializer(store).save(plain)
    again = Summary()
    NpzDeserializer(store).load(again)
    assert again.compute_mean() == 2.


def test_serialize_with_missing_keys_warns():
    old = DictSummary()
    old.add({'c': 4.})
    with pytest.warns(UserWarning, match='no names'):
        NpzDeserializer({}).load(old)
    old.add({'a': 1.})
    assert set(old.compute_mean()) == {'a'}  # started afresh
    with pytest.warns(UserWarning, match='incomplete'):
        NpzDeserializer({}).load(Summary())
