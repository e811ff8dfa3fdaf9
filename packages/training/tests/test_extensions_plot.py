"""PlotReport and VariableStatisticsPlot (matplotlib is the optional
``plot`` extra: without it they warn and keep their data)."""
import os

import numpy
import pytest

from kusari.links import reporter
from kusari.serializers import DictionarySerializer, NpzDeserializer
from kusari.training import extension, make_extension, testing
from kusari.training import extensions as E
from kusari.training.extensions import _plot

import _trainer_helpers as helpers

needs_matplotlib = pytest.mark.skipif(
    not _plot.available(),
    reason='matplotlib (the kusari-training[plot] extra) is not installed')


def _trainer(tmp_path, n=6):
    trainer = testing.get_trainer_with_mock_updater((n, 'iteration'),
                                                    iter_per_epoch=2)
    trainer.out = str(tmp_path)

    @make_extension(priority=extension.PRIORITY_WRITER)
    def report(trainer):
        reporter.report({'loss': 1. / trainer.updater.iteration})

    trainer.extend(report)
    return trainer


def _quiet(make):
    if _plot.available():
        return make()
    with pytest.warns(UserWarning, match='matplotlib is not installed'):
        return make()


def test_plot_report_keeps_interval_means(tmp_path):
    trainer = _trainer(tmp_path)
    plot = _quiet(lambda: E.PlotReport('loss', x_key='epoch'))
    trainer.extend(plot)
    trainer.run()
    numpy.testing.assert_allclose(
        plot._data['loss'], [(1, (1 + 1 / 2) / 2), (2, (1 / 3 + 1 / 4) / 2),
                             (3, (1 / 5 + 1 / 6) / 2)])
    assert E.PlotReport.available() == os.path.exists(tmp_path / 'plot.png')
    saver = DictionarySerializer()
    plot.serialize(saver)
    loaded = _quiet(lambda: E.PlotReport(['loss'], x_key='epoch'))
    loaded.serialize(NpzDeserializer(saver.target))
    assert loaded._data == plot._data


@pytest.mark.skipif(_plot.available(), reason='matplotlib is installed')
def test_without_matplotlib_the_warning_says_how_to_install():
    with pytest.warns(UserWarning, match=r'pip install '
                                         r'"kusari-training\[plot\]"'):
        E.VariableStatisticsPlot(helpers.MLP())


def test_plot_report_bad_arguments():
    with pytest.raises(ValueError, match="x_key must be"):
        E.PlotReport(['loss'], x_key='time')
    with pytest.raises(ValueError, match='filename or file_name'):
        E.PlotReport(['loss'], filename='a.png', file_name='b.png')


@needs_matplotlib
def test_plot_report_draws_a_png(tmp_path):
    trainer = _trainer(tmp_path)
    drawn = []
    trainer.extend(E.PlotReport(
        ['loss', 'never'], trigger=(2, 'iteration'), file_name='loss.png',
        postprocess=lambda figure, axes, summary: drawn.append(axes)))
    trainer.run()
    assert (tmp_path / 'loss.png').read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    assert len(drawn) == 3
    assert [n for n in os.listdir(tmp_path) if n.endswith('.tmp')] == []


def test_variable_statistics_plot_samples(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (5, 'iteration'))
    model = trainer.updater.get_optimizer('main').target
    plot = _quiet(lambda: E.VariableStatisticsPlot(
        model.predictor.l1, trigger=(1, 'iteration'), max_sample_size=3,
        percentile_sigmas=(0, 50, 100)))
    trainer.extend(plot)
    trainer.run()
    assert [point[0] for point in plot._samples] == [2, 4, 5]
    W = model.predictor.l1.W.array
    b = model.predictor.l1.b.array
    values = numpy.concatenate([W.ravel(), b.ravel()])
    expected = [values.min(), numpy.median(values), values.max(),
                values.mean(), values.std()]
    numpy.testing.assert_allclose(plot._samples[-1][1:6], expected,
                                  rtol=1e-5)
    assert len(plot._samples[-1]) == 1 + 2 * 5
    assert (tmp_path / 'statistics.png').exists() == _plot.available()


def test_variable_statistics_plot_bad_arguments():
    with pytest.raises(TypeError, match='targets must be Variables or '
                                        'Links'):
        E.VariableStatisticsPlot([3])
    with pytest.raises(ValueError, match='nothing to plot'):
        E.VariableStatisticsPlot(helpers.MLP(), report_data=False,
                                 report_grad=False)


@pytest.mark.parametrize('make, name', [
    (lambda: E.PlotReport(['loss'], filename='loss.png'), 'loss.png'),
    (lambda: E.VariableStatisticsPlot(helpers.MLP()), 'statistics.png'),
])
def test_plots_remove_temporary_files_a_killed_run_left(tmp_path, make,
                                                         name):
    kept = ['.other.png.0123abcd.tmp', f'.{name}']
    for partial in [f'.{name}.0123abcd.tmp'] + kept:
        (tmp_path / partial).write_bytes(b'partial')
    trainer = _trainer(tmp_path, n=1)
    trainer.extend(_quiet(make), trigger=(2, 'iteration'))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == sorted(kept)
