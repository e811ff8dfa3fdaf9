"""LogReport, PrintReport, ProgressBar, observe_value / observe_lr,
DumpGraph and unchain_variables."""
import io
import json
import os
import subprocess
import sys

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import variable
from kusari.links import reporter
from kusari.serializers import DictionarySerializer, NpzDeserializer
from kusari.training import make_extension, testing, extension
from kusari.training import extensions as E

import _trainer_helpers as helpers


class Terminal(io.StringIO):
    """Output that says it is an interactive terminal."""

    def isatty(self):
        return True


def _reporting(values_of):
    """An extension reporting ``values_of(iteration)`` every iteration."""
    @make_extension(priority=extension.PRIORITY_WRITER)
    def report(trainer):
        reporter.report(values_of(trainer.updater.iteration))
    return report


@pytest.fixture
def trainer(tmp_path):
    trainer = testing.get_trainer_with_mock_updater((6, 'iteration'),
                                                    iter_per_epoch=2)
    trainer.out = str(tmp_path)
    return trainer


def test_log_report_writes_means_per_interval(trainer, tmp_path):
    trainer.extend(_reporting(lambda i: {'loss': float(i),
                                         'skip': numpy.ones(2)}))
    log_report = E.LogReport(trigger=(1, 'epoch'))
    trainer.extend(log_report)
    trainer.run()
    with open(tmp_path / 'log') as stream:
        log = json.load(stream)
    assert [entry['loss'] for entry in log] == [1.5, 3.5, 5.5]
    assert [entry['epoch'] for entry in log] == [1, 2, 3]
    assert [entry['iteration'] for entry in log] == [2, 4, 6]
    assert all(entry['elapsed_time'] >= 0 for entry in log)
    assert all('skip' not in entry for entry in log)
    assert log_report.log == log
    assert [n for n in os.listdir(tmp_path) if n != 'log'] == []


def test_log_report_keys_postprocess_and_filename(trainer, tmp_path):
    trainer.extend(_reporting(lambda i: {'a': 1., 'b': 2.}))

    def postprocess(entry):
        entry['c'] = entry['a'] * 10

    trainer.extend(E.LogReport(keys=['a'], trigger=(3, 'iteration'),
                               postprocess=postprocess,
                               filename='log_{iteration}'))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ['log_3', 'log_6']
    with open(tmp_path / 'log_6') as stream:
        log = json.load(stream)
    assert set(log[0]) == {'a', 'c', 'epoch', 'iteration', 'elapsed_time'}
    assert log[1]['c'] == 10.


def test_log_report_without_file_and_old_argument(trainer, tmp_path):
    trainer.extend(E.LogReport(filename=None, log_name=None))
    trainer.run()
    assert os.listdir(tmp_path) == []
    with pytest.raises(TypeError, match='unexpected keyword'):
        E.LogReport(trigers=(1, 'epoch'))


def test_log_report_removes_temporary_files_a_killed_run_left(trainer,
                                                               tmp_path):
    for name in ('.log_2.0123abcd.tmp', '.other.0123abcd.tmp', '.log_2'):
        (tmp_path / name).write_text('partial')
    trainer.extend(E.LogReport(filename='log_{iteration}'))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == [
        '.log_2', '.other.0123abcd.tmp', 'log_2', 'log_4', 'log_6']


def test_log_report_serialization_keeps_the_running_summary(trainer):
    trainer.extend(_reporting(lambda i: {'loss': float(i)}))
    log_report = E.LogReport(trigger=(4, 'iteration'), filename=None)
    trainer.extend(log_report)
    trainer.stop_trigger = testing.get_trainer_with_mock_updater(
        (2, 'iteration')).stop_trigger
    trainer.run()
    saver = DictionarySerializer()
    log_report.serialize(saver)
    loaded = E.LogReport(trigger=(4, 'iteration'), filename=None)
    loaded.serialize(NpzDeserializer(saver.target))
    assert loaded._summary.compute_mean() == {'loss': 1.5}


def test_print_report_prints_a_table(trainer):
    trainer.extend(_reporting(lambda i: {'main/loss': i * 1.25,
                                         'big': 1000000.123456}))
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    out = Terminal()
    trainer.extend(E.PrintReport(['epoch', 'main/loss', 'big', 'missing',
                                  'elapsed_time'], out=out))
    trainer.run()
    lines = out.getvalue().split('\n')
    assert lines[0] == ('epoch       main/loss   big         missing     '
                        'elapsed_time')
    assert lines[1].startswith('\033[J1           1.875       1e+06       '
                               '            ')
    assert len(lines[1]) == len('\033[J') + 12 * 4 + 14
    assert lines[3].startswith('\033[J3           6.875')
    assert lines[4] == ''


def test_print_report_writes_no_escape_codes_to_a_file(trainer):
    trainer.extend(_reporting(lambda i: {'main/loss': i * 1.25}))
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    out = io.StringIO()
    trainer.extend(E.PrintReport(['epoch', 'main/loss'], out=out))
    trainer.run()
    lines = out.getvalue().split('\n')
    assert lines[1] == '1           1.875       '
    assert '\033' not in out.getvalue()


def test_print_report_header_pads_the_last_column_too(trainer):
    # As Chainer's: every title padded to its column's width.
    out = io.StringIO()
    trainer.extend(E.LogReport(trigger=(3, 'iteration')))
    trainer.extend(E.PrintReport(['epoch', 'x'], out=out))
    trainer.run()
    assert out.getvalue().split('\n')[0] == 'epoch       x         '


def test_print_report_writes_to_a_stream_without_flush(trainer):
    class WriteOnly:
        def __init__(self):
            self.text = ''

        def write(self, text):
            self.text += text
    out = WriteOnly()
    trainer.extend(E.LogReport(trigger=(3, 'iteration')))
    trainer.extend(E.PrintReport(['epoch'], out=out))
    trainer.run()
    assert out.text.startswith('epoch')


def test_print_report_with_its_own_log_report(trainer):
    out = io.StringIO()
    trainer.extend(_reporting(lambda i: {'x': 1.}))
    trainer.extend(E.PrintReport(
        ['iteration', 'x'], log_report=E.LogReport(trigger=(3, 'iteration'),
                                                   filename=None), out=out))
    trainer.run()
    assert out.getvalue().count('\n') == 3
    with pytest.raises(TypeError, match='log_report must be a LogReport'):
        E.PrintReport(['x'], log_report=3)(trainer)


def test_progress_bar_draws_progress(trainer):
    out = Terminal()
    trainer.extend(E.ProgressBar(update_interval=3, out=out))
    trainer.run()
    text = out.getvalue()
    assert text.count('\033[4A') == 2
    assert '     total [#########################' in text
    assert '100.00%' in text
    assert '         6 iter, 3 epoch / 6 iterations' in text
    assert 'iters/sec. Estimated time to finish:' in text
    assert text.endswith('\033[J')


def test_progress_bar_prints_plain_lines_elsewhere(trainer):
    out = io.StringIO()
    trainer.extend(E.ProgressBar(update_interval=3, out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and '\033' not in out.getvalue()
    assert lines[0].startswith('3 iter, 1 epoch / 6 iterations: total '
                               '50.00%, this epoch 50.00%, ')
    assert lines[1].startswith('6 iter, 3 epoch / 6 iterations: total '
                               '100.00%, this epoch 0.00%, ')
    assert 'iters/sec, estimated time to finish: 0:00:00' in lines[1]


def test_a_run_with_stdout_in_a_file_has_no_escape_codes(tmp_path):
    script = tmp_path / 'train.py'
    script.write_text(
        'from kusari.training import testing, extensions as E\n'
        'trainer = testing.get_trainer_with_mock_updater('
        '(4, "iteration"), iter_per_epoch=2)\n'
        f'trainer.out = {str(tmp_path)!r}\n'
        'trainer.extend(E.LogReport(trigger=(1, "iteration")))\n'
        'trainer.extend(E.PrintReport(["epoch", "iteration"]))\n'
        'trainer.extend(E.ProgressBar(update_interval=1))\n'
        'trainer.run()\n')
    log = tmp_path / 'log.txt'
    with open(log, 'w') as f:
        subprocess.run([sys.executable, str(script)], stdout=f, check=True)
    text = log.read_text()
    assert '4 iter, 2 epoch / 4 iterations' in text
    assert '\033' not in text


def test_progress_bar_total_stops_at_100_percent(trainer):
    # A training run past the given length shows 100%, as Chainer's.
    out = Terminal()
    trainer.extend(E.ProgressBar(training_length=(3, 'iteration'),
                                 update_interval=2, out=out))
    trainer.run()
    text = out.getvalue()
    assert text.count('] 100.00%') == 2
    assert '133.33%' not in text and '200.00%' not in text


def test_progress_bar_needs_a_training_length(tmp_path):
    trainer = testing.get_trainer_with_mock_updater(lambda t: t.updater
                                                    .iteration >= 2)
    trainer.out = str(tmp_path)
    trainer.extend(E.ProgressBar(out=io.StringIO()))
    with pytest.raises(ValueError, match='give training_length'):
        trainer.run(show_loop_exception_msg=False)


def test_observe_value_and_lr(trainer):
    seen = []
    trainer.extend(E.observe_value('it', lambda t: t.updater.iteration))
    trainer.extend(E.observe_lr())
    trainer.extend(lambda t: seen.append(dict(t.observation)), name='seen',
                   trigger=(1, 'epoch'))
    trainer.run()
    assert seen == [{'it': 2, 'lr': 0.01}, {'it': 4, 'lr': 0.01},
                    {'it': 6, 'lr': 0.01}]
    assert E.observe_lr().default_name == '_observe_value'
    assert E.observe_lr().priority == extension.PRIORITY_WRITER


def test_dump_graph_writes_a_dot_file_once(tmp_path):
    trainer = helpers.make_trainer(tmp_path, (3, 'iteration'))
    flag = configuration.config.keep_graph_on_report
    trainer.extend(E.DumpGraph('main/loss'))
    trainer.run()
    text = (tmp_path / 'cg.dot').read_text()
    assert text.startswith('digraph graphname')
    assert 'softmax_cross_entropy' in text and 'LinearFunction' in text
    assert '#6495ED' in text and 'octagon' in text
    assert configuration.config.keep_graph_on_report == flag
    assert trainer.get_extension('dump_graph')._dumped


def test_dump_graph_removes_temporary_files_a_killed_run_left(tmp_path):
    for name in ('.cg.dot.0123abcd.tmp', '.other.0123abcd.tmp'):
        (tmp_path / name).write_text('partial')
    trainer = helpers.make_trainer(tmp_path, (1, 'iteration'))
    trainer.extend(E.DumpGraph('main/loss'))
    trainer.run()
    assert '.cg.dot.0123abcd.tmp' not in os.listdir(tmp_path)
    assert '.other.0123abcd.tmp' in os.listdir(tmp_path)


def test_dump_graph_renders_a_png_where_graphviz_is_installed(
        tmp_path, monkeypatch):
    from kusari.training.extensions import computational_graph
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    monkeypatch.setenv('PATH', str(bin_dir))
    assert not computational_graph.is_graphviz_available()
    # A stand-in dot: copies its input to the -o file.
    dot = bin_dir / 'dot'
    dot.write_text(f'#!{sys.executable}\nimport shutil, sys\n'
                   f'shutil.copy(sys.argv[2], sys.argv[4])\n')
    dot.chmod(0o755)
    assert computational_graph.is_graphviz_available()
    out = tmp_path / 'out'
    trainer = helpers.make_trainer(out, (2, 'iteration'))
    trainer.extend(E.DumpGraph('main/loss', filename='graph.dot'))
    trainer.run()
    assert (out / 'graph.png').read_text() == (out / 'graph.dot').read_text()


def test_dump_graph_needs_a_variable(trainer):
    trainer.extend(_reporting(lambda i: {'main/loss': 1.}))
    trainer.extend(E.DumpGraph('main/loss', filename='g.dot'))
    with pytest.raises(TypeError, match="DumpGraph: the reported "
                                        "'main/loss' must be a Variable"):
        trainer.run(show_loop_exception_msg=False)
    assert not configuration.config.keep_graph_on_report


def test_unchain_variables(trainer):
    x = variable.Variable(numpy.ones(2, 'f'))
    ys = []

    @make_extension(priority=extension.PRIORITY_WRITER)
    def report(trainer):
        y = x * 2
        ys.append(y)
        trainer.observation['y'] = y

    trainer.extend(report)
    trainer.extend(E.unchain_variables())
    trainer.run()
    assert all(y.creator is None for y in ys)
