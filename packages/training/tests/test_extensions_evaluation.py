"""Evaluator, MicroAverage, FailOnNonNumber and ParameterStatistics."""
import io
import json
import os

import numpy
import pytest

from kusari.array import configuration
from kusari.datasets import iterators
from kusari.links import Chain, reporter
from kusari.training import extension, make_extension, testing
from kusari.training import extensions as E

import _trainer_helpers as helpers


class _Probe(Chain):
    """Reports the mode it runs in and the batch mean."""

    def forward(self, x, t):
        reporter.report({
            'train': float(configuration.config.train),
            'backprop': float(configuration.config.enable_backprop),
            'x': float(x.mean())}, self)
        return x


def _test_iterator(values, batch_size=2):
    data = [(numpy.full(1, v, 'f'), numpy.int32(0)) for v in values]
    return iterators.SerialIterator(data, batch_size, repeat=False,
                                    shuffle=False)


def test_evaluator_runs_in_test_mode_and_reports_means():
    evaluator = E.Evaluator(_test_iterator([1, 2, 3, 4, 5]), _Probe())
    assert evaluator.default_name == 'validation'
    assert evaluator.trigger == (1, 'epoch')
    assert evaluator.priority == extension.PRIORITY_WRITER
    result = evaluator()
    assert result == {'main/train': 0., 'main/backprop': 0.,
                      'main/x': pytest.approx((1.5 + 3.5 + 5) / 3)}
    assert evaluator() == result  # the iterator is reset every time


def test_evaluator_in_a_trainer_reports_validation_keys(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (8, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    test = iterators.SerialIterator(helpers.dataset(10), 4, repeat=False,
                                    shuffle=False)
    hooked = []
    trainer.extend(E.Evaluator(test, model,
                               eval_hook=lambda e: hooked.append(e)),
                   trigger=(4, 'iteration'))
    trainer.extend(E.LogReport(trigger=(4, 'iteration')))
    trainer.run()
    with open(tmp_path / 'log') as stream:
        log = json.load(stream)
    assert {'validation/main/loss', 'validation/main/accuracy',
            'validation/main/predictor/sum_y', 'main/loss'} <= set(log[0])
    assert len(hooked) == 2


def test_evaluator_eval_func_converter_device_and_targets():
    seen = []

    def converter(batch, device):
        seen.append(device)
        return numpy.stack([x for x, _ in batch])

    probe = _Probe()
    evaluator = E.Evaluator(
        {'main': _test_iterator([1, 2])}, {'main': probe, 'other': Chain()},
        converter=converter, device=-1,
        eval_func=lambda x: reporter.report({'n': float(len(x))}))
    assert evaluator() == {'n': 2.}
    assert seen == [-1]
    assert evaluator.get_target('main') is probe
    assert set(evaluator.get_all_targets()) == {'main', 'other'}
    assert evaluator.get_iterator('main') is \
        evaluator.get_all_iterators()['main']


def test_evaluator_builds_no_graph():
    graphs = []

    class Loss(Chain):
        def forward(self, x, t):
            from kusari.autograd import variable
            y = variable.Variable(x) * 2
            graphs.append(y.creator)
            return y

    E.Evaluator(_test_iterator([1]), Loss())()
    assert graphs == [None]
    assert configuration.config.enable_backprop


def test_evaluator_progress_bar(capsys):
    E.Evaluator(_test_iterator([1, 2, 3]), _Probe(), progress_bar=True)()
    out = capsys.readouterr().out
    assert 'validation [' in out and '100.00%' in out


def test_evaluator_bad_arguments():
    with pytest.raises(TypeError, match="target 'main' must be a Link"):
        E.Evaluator(_test_iterator([1]), lambda x: x)
    with pytest.raises(ValueError, match="'main' entry"):
        E.Evaluator({'test': _test_iterator([1])}, _Probe())
    with pytest.raises(TypeError, match='unexpected keyword'):
        E.Evaluator(_test_iterator([1]), _Probe(), progress=True)
    with pytest.raises(KeyError, match="no eval_func and no 'main' target"):
        E.Evaluator(_test_iterator([1]), {}).evaluate()


def test_evaluator_with_eval_func_needs_no_target():
    # As in Chainer: Evaluator(iterator, {}, eval_func=model).
    def eval_func(x, t):
        reporter.report({'x': float(x.mean())})
    result = E.Evaluator(_test_iterator([1, 2, 3]), {},
                         eval_func=eval_func)()
    assert result == {'x': pytest.approx((1.5 + 3) / 2)}


def test_evaluator_warns_of_a_repeating_iterator():
    with pytest.warns(UserWarning, match="iterator 'main' is set to True"):
        E.Evaluator(iterators.SerialIterator([1, 2], 1), _Probe())


def test_micro_average(tmp_path):
    trainer = testing.get_trainer_with_mock_updater((4, 'iteration'),
                                                    iter_per_epoch=2)
    trainer.out = str(tmp_path)
    counts = {1: (1, 2), 2: (3, 4), 3: (0, 1), 4: (1, 1)}

    @make_extension(priority=extension.PRIORITY_WRITER)
    def report(trainer):
        correct, total = counts[trainer.updater.iteration]
        reporter.report({'correct': correct, 'total': total})

    seen = []
    trainer.extend(report)
    trainer.extend(E.MicroAverage('correct', 'total', 'accuracy'))
    trainer.extend(lambda t: seen.append(t.observation.get('accuracy')),
                   name='seen')
    trainer.run()
    assert seen == [None, 4 / 6, None, 1 / 2]
    assert E.MicroAverage('a', 'b', 'c').priority == \
        extension.PRIORITY_EDITOR


def test_fail_on_nonnumber_stops_with_snapshot_and_log_intact(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (20, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    trainer.extend(E.snapshot(), trigger=(2, 'iteration'))

    @make_extension(priority=extension.PRIORITY_WRITER)
    def poison(trainer):
        # After iteration 5 the loss becomes infinite.
        if trainer.updater.iteration == 5:
            model.predictor.l2.b.array[...] = numpy.inf

    trainer.extend(poison)
    trainer.extend(E.FailOnNonNumber())
    with pytest.raises(RuntimeError, match=r"FailOnNonNumber: the "
                                           r"parameter /predictor/l2/b of "
                                           r"the optimizer 'main' holds NaN "
                                           r"or infinity at iteration 5"):
        trainer.run(show_loop_exception_msg=False)
    assert sorted(os.listdir(tmp_path)) == [
        'log', 'snapshot_iter_2', 'snapshot_iter_4']
    with open(tmp_path / 'log') as stream:
        assert [e['iteration'] for e in json.load(stream)] == [2, 4]
    stored = numpy.load(str(tmp_path / 'snapshot_iter_4'))
    assert numpy.isfinite(
        stored['updater/model:main/predictor/l2/b']).all()


def test_parameter_statistics(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (1, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    statistics = E.ParameterStatistics(model.predictor.l1, prefix='ps',
                                       trigger=(1, 'iteration'))
    trainer.extend(statistics)
    seen = []
    trainer.extend(lambda t: seen.append(dict(t.observation)), name='seen')
    trainer.run()
    observed = seen[0]
    W = model.predictor.l1.W
    assert observed['ps/l1/W/data/mean'] == pytest.approx(W.array.mean())
    assert observed['ps/l1/W/grad/max'] == pytest.approx(W.grad.max())
    assert observed['ps/l1/b/data/zeros'] == (
        model.predictor.l1.b.array == 0).sum()
    numpy.testing.assert_allclose(
        [observed[f'ps/l1/W/data/percentile/{i}'] for i in range(7)],
        numpy.percentile(W.array, (0.13, 2.28, 15.87, 50, 84.13, 97.72,
                                   99.87)), rtol=1e-6)
    assert statistics.default_name == 'parameter_statistics'


def test_parameter_statistics_options(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (1, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    model.predictor.l2.b.array[0] = numpy.nan
    statistics = E.ParameterStatistics(
        [model.predictor.l2], statistics={'sum': lambda x: x.sum()},
        report_grads=False, trigger=lambda trainer: True,
        skip_nan_params=True)
    statistics.register_statistics('size', lambda x: x.size)
    statistics(trainer)  # no current reporter: nothing to report to
    observation = {}
    with trainer.reporter.scope(observation):
        statistics(trainer)
    # A parameter holding NaN gets a single NaN per statistic (as Chainer).
    assert set(observation) == {'l2/W/data/sum', 'l2/W/data/size',
                                'l2/b/data/sum', 'l2/b/data/size'}
    assert numpy.isnan(observation['l2/b/data/size'])
    assert observation['l2/W/data/size'] == model.predictor.l2.W.size
    with pytest.raises(TypeError, match="statistics must be a dict"):
        E.ParameterStatistics(model, statistics='all')


def test_parameter_statistics_reports_the_mean_over_its_interval(tmp_path):
    # Collected at every iteration, reported (as their mean) at the trigger:
    # Chainer 7.8.1's behaviour, found by the differential check.
    trainer = helpers.make_trainer(tmp_path, (4, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    trainer.extend(E.ParameterStatistics(
        model.predictor.l1, statistics={'mean': lambda x: x.mean()},
        report_grads=False, trigger=(2, 'iteration')))
    means, seen = [], []
    trainer.extend(lambda t: means.append(
        float(model.predictor.l1.b.array.mean())), name='means')
    trainer.extend(lambda t: seen.append(
        t.observation.get('l1/b/data/mean')), name='seen')
    trainer.run()
    assert seen[0::2] == [None, None]
    assert seen[1::2] == pytest.approx(
        [(means[0] + means[1]) / 2, (means[2] + means[3]) / 2])


def test_print_report_of_fail_is_not_affected():
    # PrintReport over a LogReport that was never triggered prints only the
    # header.
    trainer = testing.get_trainer_with_mock_updater((1, 'iteration'))
    out = io.StringIO()
    trainer.extend(E.LogReport(filename=None))
    trainer.extend(E.PrintReport(['epoch'], out=out))
    trainer.run()
    assert out.getvalue() == 'epoch     \n'  # padded as in Chainer
