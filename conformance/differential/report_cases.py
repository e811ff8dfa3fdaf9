"""What the training tools write, for any Chainer-like ``chainer``
module: run by ``test_reports.py`` with Kusari's drop-in and by
``oracle_reports.py`` with Chainer 7.8.1.

Only NumPy is imported here (and ``training_cases`` beside it). Every
scenario returns a flat dict ``name -> str`` (the text written, with
measured times masked) that both sides save and the test compares.
"""
import contextlib
import hashlib
import io
import json
import os
import re
import time
import warnings

import numpy

import training_cases

# Measured times and rates, masked in what is compared.
_ELAPSED = re.compile(r'("elapsed_time": )[-+.e0-9]+')
_RATE = re.compile(r' *[-+.e0-9a-z]+ iters/sec\. Estimated time to '
                   r'finish: [^.]*(\.[0-9]+)?\.')

# Cases kept out of the compared set: case -> reason.
KNOWN_DIFFERENCES = {
    'progress/options': 'Chainer 7.8.1 bug: ProgressBar ignores its out, '
    'bar_length and training_length (its bar draws on sys.stdout, 50 wide, '
    'over the stop trigger\'s length); Kusari honours them',
    'autoload/corrupt/resumed': 'Kusari choice: a damaged newest snapshot '
    'is renamed aside (.damaged) with a DamagedSnapshotWarning saying what '
    'is wrong, and the newest that loads resumes the run (here iteration '
    '2); Chainer lets the loader\'s error out (UnpicklingError here)',
    'autoload/truncated/resumed': 'Kusari choice, as autoload/corrupt '
    '(Chainer: BadZipFile)',
    'graph/dump/cg.dot': 'Kusari choice: SoftmaxCrossEntropy is labelled '
    'softmax_cross_entropy, the function called (see graph/label/*)',
    'graph/dump/styled.dot': 'as graph/dump/cg.dot',
    'graph/label/det': 'Kusari choice: F.det makes one node (Chainer: '
    'BatchDet, then Reshape)',
    'graph/label/squeeze': 'Kusari choice: F.squeeze makes a Reshape node',
    'graph/quoted_name': 'Chainer 7.8.1 bug: labels are not escaped, so '
    'a name with a quote or backslash makes invalid dot; Kusari escapes',
}
# Kusari choices: a node's label is also the name its errors start with,
# so the nodes of functions whose class Chainer names otherwise are
# labelled with the function a user called (softmax_cross_entropy, not
# SoftmaxCrossEntropy); Copy names its destination.
KNOWN_DIFFERENCES.update({
    f'graph/label/{name}': f'Kusari choice (see above): label {label}'
    for name, label in {
        'copy': "'Copy(@numpy)' (Chainer: 'Copy')",
        'inv': "'inv' (Chainer: 'Inv')",
        'einsum': "'einsum' (Chainer: 'EinSum')",
        'fft': "'fft' (Chainer: 'FFT')",
        'forget': "'forget' (Chainer: 'Forget')",
        'softmax_cross_entropy': "'softmax_cross_entropy' (Chainer: "
        "'SoftmaxCrossEntropy')",
        'max': "'max' (Chainer: 'Max')",
        'clip': "'clip' (Chainer: 'Clip')"}.items()})
# Chainer 7.8.1 bug: its queue writers save through a writer of their own
# that runs no cleanup, so n_retains keeps every snapshot; Kusari keeps
# the newest n_retains, as with every other writer.
KNOWN_DIFFERENCES.update({
    f'writer/{writer}Writer/{name}': 'Chainer 7.8.1 bug: n_retains is '
    'ignored by the queue writers' for writer in ('ThreadQueue',
                                                  'ProcessQueue')
    for name in ('files', 'iterations')})


def _reporter(chainer):
    """Reports values whose JSON and table forms differ in kind."""
    values = [0.1, 1234567.0, 1e-7, 2.0, -3.25, 1 / 3, 7e22, 0.0]

    @chainer.training.make_extension(
        trigger=(1, 'iteration'),
        priority=chainer.training.PRIORITY_WRITER + 1)
    def reporter(trainer):
        i = trainer.updater.iteration
        chainer.report({'a': values[i % len(values)],
                        'b/long_key_name_here': numpy.float32(i / 7),
                        'c': numpy.float64(i * 100.5)})
        if i % 3 == 0:
            chainer.report({'sometimes': i})
        if i == 5:
            chainer.report({'nan': float('nan'), 'inf': -float('inf')})
    return reporter


def _trainer(chainer, inputs, out, stop=(training_cases.EPOCHS, 'epoch')):
    return training_cases._trainer(chainer, inputs, out, stop=stop)


def _read(path):
    with open(path) as stream:
        return stream.read()


def log_run(chainer, inputs, out):
    """LogReport files: default, by iteration with a name template, with
    keys and a postprocess."""
    E = chainer.training.extensions
    trainer = _trainer(chainer, inputs, out)
    trainer.extend(_reporter(chainer))
    trainer.extend(E.LogReport())
    trainer.extend(E.LogReport(trigger=(3, 'iteration'),
                               filename='log_it_{iteration}'),
                   name='by_iteration')

    def postprocess(entry):
        entry['extra'] = [1, 2.5, 'x']
    trainer.extend(E.LogReport(keys=['a', 'c', 'main/loss'],
                               trigger=(2, 'iteration'),
                               postprocess=postprocess,
                               filename='log_keys'), name='keys')
    trainer.run()
    return {name: _ELAPSED.sub(r'\1T', _read(os.path.join(out, name)))
            for name in sorted(os.listdir(out))}


class _Terminal(io.StringIO):
    """A stream that says it is a terminal: Kusari writes the escape codes
    that redraw in place only there (Chainer writes them everywhere), so
    the drawn text is compared on terminals."""

    def isatty(self):
        return True


def print_run(chainer, inputs, out):
    """PrintReport tables, with the LogReport given by name and as an
    object the PrintReport calls itself."""
    E = chainer.training.extensions
    entries = ['epoch', 'iteration', 'main/loss', 'main/accuracy', 'a',
               'b/long_key_name_here', 'c', 'sometimes', 'nan', 'inf',
               'missing']
    trainer = _trainer(chainer, inputs, out)
    trainer.extend(_reporter(chainer))
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    by_name, by_object = _Terminal(), _Terminal()
    trainer.extend(E.PrintReport(entries, out=by_name))
    trainer.extend(E.PrintReport(entries, log_report=E.LogReport(
        trigger=(1, 'epoch'), filename=None), out=by_object),
        name='by_object')
    trainer.run()
    return {'by_name': by_name.getvalue(),
            'by_object': by_object.getvalue()}


def progress_run(chainer, inputs, out):
    """ProgressBar lines over an epoch- and an iteration-long run.

    Chainer 7.8.1 draws on the ``sys.stdout`` of the time the extension
    is made, whatever ``out`` says: both are given the same stream."""
    E = chainer.training.extensions
    result = {}
    for name, stop, interval in (
            ('epochs', (training_cases.EPOCHS, 'epoch'), 2),
            ('iterations', (7, 'iteration'), 1)):
        stream = _Terminal()
        with contextlib.redirect_stdout(stream):
            trainer = _trainer(chainer, inputs, os.path.join(out, name),
                               stop)
            trainer.extend(E.ProgressBar(update_interval=interval,
                                         out=stream))
            trainer.run()
        result[name] = _RATE.sub('RATE', stream.getvalue())
    stream = _Terminal()
    with contextlib.redirect_stdout(_Terminal()):
        trainer = _trainer(chainer, inputs, os.path.join(out, 'options'),
                           (4, 'iteration'))
        trainer.extend(E.ProgressBar(
            training_length=(10, 'iteration'), update_interval=2,
            bar_length=20, out=stream))
        trainer.run()
    result['options'] = _RATE.sub('RATE', stream.getvalue())
    return result


def _files(out):
    return json.dumps(sorted(os.listdir(out)))


def _iteration_written(path):
    with numpy.load(path) as snapshot:
        return int(snapshot['updater/iteration'])


def _write_snapshots(chainer, inputs, out, stop, recorder=True, **kwargs):
    """A run writing a snapshot of the trainer every iteration, with
    distinct modification times; with the ``recorder`` extension of the
    runs that resume it unless told otherwise."""
    E = chainer.training.extensions

    @chainer.training.make_extension(trigger=(1, 'iteration'), priority=-200)
    def pause(trainer):
        time.sleep(0.02)

    trainer = _trainer(chainer, inputs, out, stop)
    trainer.extend(E.snapshot(**kwargs), trigger=(1, 'iteration'))
    trainer.extend(pause)
    if recorder:
        trainer.extend(training_cases._recorder(chainer, [], id))
    trainer.run()


def _autoload(chainer, inputs, out, **kwargs):
    """The iteration a new trainer resumes from with autoload, or the
    name of the error it raises."""
    trainer = _trainer(chainer, inputs, out, (8, 'iteration'))
    trainer.extend(chainer.training.extensions.snapshot(
        autoload=True, **kwargs), trigger=(1, 'iteration'))
    seen = []
    trainer.extend(training_cases._recorder(
        chainer, seen, lambda t: t.updater.iteration))
    try:
        trainer.run()
    except Exception as caught:  # compared by name with Chainer's
        return type(caught).__name__
    return str(seen[0] - 1)


def autoload_run(chainer, inputs, out):
    """Which snapshot autoload picks among several, with n_retains, and
    with a corrupt or a truncated newest file."""
    result = {}
    plain = os.path.join(out, 'plain')
    _write_snapshots(chainer, inputs, plain, (4, 'iteration'))
    result['plain/files'] = _files(plain)
    result['plain/resumed'] = _autoload(chainer, inputs, plain)
    retained = os.path.join(out, 'retained')
    _write_snapshots(chainer, inputs, retained, (5, 'iteration'),
                     n_retains=2)
    result['retained/files'] = _files(retained)
    # Older by mtime but larger by name: autoload goes by time.
    latest = os.path.join(retained, 'snapshot_iter_5')
    os.utime(latest, ns=(1, 1))
    result['retained/resumed'] = _autoload(chainer, inputs, retained)
    for name, damage in (('corrupt', b'not a snapshot'),
                         ('truncated', None)):
        folder = os.path.join(out, name)
        _write_snapshots(chainer, inputs, folder, (3, 'iteration'))
        path = os.path.join(folder, 'snapshot_iter_3')
        if damage is None:
            with open(path, 'rb') as stream:
                damage = stream.read()[:200]
        with open(path, 'wb') as stream:
            stream.write(damage)
        result[f'{name}/resumed'] = _autoload(chainer, inputs, folder)
    other = os.path.join(out, 'other_names')
    _write_snapshots(chainer, inputs, other, (2, 'iteration'),
                     filename='snap_{.updater.iteration}.npz')
    with open(os.path.join(other, 'snap_notes.txt'), 'w') as stream:
        stream.write('not matched: the suffix differs')
    result['other_names/resumed'] = _autoload(
        chainer, inputs, other, filename='snap_{.updater.iteration}.npz')
    added = os.path.join(out, 'added_extension')
    _write_snapshots(chainer, inputs, added, (2, 'iteration'),
                     recorder=False)
    result['added_extension/resumed'] = _autoload(chainer, inputs, added)
    return result


def filename_run(chainer, inputs, out):
    """Snapshot files named by templates and callables."""
    E = chainer.training.extensions
    trainer = _trainer(chainer, inputs, out)
    model = trainer.updater.get_optimizer('main').target
    trainer.extend(E.snapshot(filename='epoch_{.updater.epoch}'),
                   trigger=(1, 'epoch'))
    trainer.extend(E.snapshot(
        filename=lambda t: f'called_{t.updater.iteration:03d}.npz'),
        trigger=(3, 'iteration'))
    trainer.extend(E.snapshot_object(
        model, 'model_{0.updater.epoch}_{0.updater.iteration}'),
        trigger=(4, 'iteration'))
    trainer.extend(E.snapshot_object(
        model, lambda t: 'model_called', n_retains=-1),
        trigger=(1, 'epoch'))
    trainer.extend(E.snapshot(filename='kept_{.updater.iteration}',
                              n_retains=2), trigger=(2, 'iteration'))
    trainer.run()
    result = {'files': _files(out)}
    for name in ('epoch_3', 'called_006.npz'):
        result[f'{name}/iteration'] = str(_iteration_written(
            os.path.join(out, name)))
    with numpy.load(os.path.join(out, 'model_called')) as snapshot:
        result['model_called/keys'] = json.dumps(sorted(snapshot.files))
    for name, kwargs in RETAINS.items():
        folder = os.path.join(out, name)
        trainer = _trainer(chainer, inputs, folder, (6, 'iteration'))
        try:
            with warnings.catch_warnings():  # Kusari's: all are kept
                warnings.simplefilter('ignore', UserWarning)
                extension = E.snapshot(**kwargs)
            trainer.extend(extension, trigger=(1, 'iteration'))
            trainer.run()
            result[f'{name}/files'] = _files(folder)
        except Exception as caught:  # compared by name with Chainer's
            result[f'{name}/files'] = type(caught).__name__
    return result


# n_retains Chainer's documentation leaves without a cleanup.
RETAINS = {
    'retains_zero': {'n_retains': 0},
    'retains_with_callable': {'n_retains': 2, 'filename': lambda t: (
        f'called_{t.updater.iteration}')},
}


WRITERS = ('SimpleWriter', 'ThreadWriter', 'ProcessWriter',
           'ThreadQueueWriter', 'ProcessQueueWriter')


def writer_run(chainer, inputs, out):
    """The same snapshots through every writer, the 3 newest kept: file
    names and keys, and the iteration each holds."""
    writers = chainer.training.extensions.snapshot_writers
    result = {}
    for name in WRITERS:
        folder = os.path.join(out, name)
        trainer = _trainer(chainer, inputs, folder)
        trainer.extend(chainer.training.extensions.snapshot(
            writer=getattr(writers, name)(), n_retains=3),
            trigger=(2, 'iteration'))
        trainer.run()
        files = sorted(os.listdir(folder))
        result[f'{name}/files'] = json.dumps(files)
        with numpy.load(os.path.join(folder, files[-1])) as snapshot:
            # Kusari's snapshots also hold the state of the random number
            # generators (docs/guide/trainer.md), which Chainer ignores.
            result[f'{name}/keys'] = json.dumps(sorted(
                key for key in snapshot.files
                if not key.startswith('random_state/')))
        result[f'{name}/iterations'] = json.dumps([_iteration_written(
            os.path.join(folder, file)) for file in files])
    return result


def canonical_dot(text):
    """Dot text with every node id replaced by a name made of the node's
    attributes and those of everything upstream of it, and the statements
    sorted (Chainer collects the nodes in a set, in no fixed order)."""
    head, _, body = text.partition(';')
    attributes, inputs, edges = {}, {}, []
    for statement in body.rstrip('}').split(';'):
        node = re.fullmatch(r'([0-9]+) \[(.*)\]', statement)
        edge = re.fullmatch(r'([0-9]+) -> ([0-9]+)', statement)
        if node:
            attributes[node.group(1)] = node.group(2)
        elif edge:
            edges.append(edge.groups())
            inputs.setdefault(edge.group(2), []).append(edge.group(1))
        else:
            assert not statement, statement
    names = {}

    def name(node):
        if node not in names:
            upstream = sorted(name(tail) for tail in inputs.get(node, ()))
            names[node] = hashlib.sha1(repr(
                (attributes.get(node), upstream)).encode()).hexdigest()[:8]
        return names[node]

    lines = [f'{name(node)} [{value}];'
             for node, value in attributes.items()]
    lines += [f'{name(a)} -> {name(b)};' for a, b in edges]
    return head + ';\n' + '\n'.join(sorted(lines)) + '\n}'


def _graph_outputs(chainer, inputs):
    F = chainer.functions
    x = chainer.Variable(inputs['x'][:2], name='x')
    w = chainer.Variable(inputs['W1'], name='w')
    h = F.linear(x, w)
    h.name = 'h'
    y = F.tanh(h) + F.sigmoid(h)
    z = F.sum(y * y)
    parts = F.split_axis(y, 2, axis=0)
    return x, h, y, z, parts


def _labels(chainer, inputs):
    """The labels of the nodes some functions create, by name."""
    F = chainer.functions
    x = chainer.Variable(inputs['x'][:3, :3].astype(numpy.float64))
    t = numpy.array([0, 2, 1], numpy.int32)
    made = {
        'add_constant': x + 1, 'radd': 2. + x, 'sub_constant': x - 1,
        'rsub': 1 - x, 'mul': x * x, 'mul_constant': x * 2,
        'div': x / (x + 5), 'rdiv': 1 / (x + 5), 'pow_constant': x ** 2,
        'rpow': 2 ** x, 'neg': -x, 'abs': abs(x), 'matmul': x @ x,
        'getitem': x[1:], 'transpose': F.transpose(x), 'copy': F.copy(
            x, -1), 'inv': F.inv(x), 'det': F.det(x), 'einsum': F.einsum(
            'ij,jk->ik', x, x), 'fft': F.fft((x, x))[0],
        'forget': F.forget(F.tanh, x), 'softmax_cross_entropy':
        F.softmax_cross_entropy(x, t), 'mean_squared_error':
        F.mean_squared_error(x, x * 2), 'sigmoid_cross_entropy':
        F.sigmoid_cross_entropy(x, (x.array > 0).astype(numpy.int32)),
        'lstm': F.lstm(x, F.concat([x, x, x, x], axis=1))[0],
        'reshape': F.reshape(x, (9,)), 'cast': F.cast(x, numpy.float32),
        'sum': F.sum(x), 'max': F.max(x), 'relu': F.relu(x),
        'softmax': F.softmax(x), 'dropout': F.dropout(x, 0.),
        'broadcast_to': F.broadcast_to(x[:1], (3, 3)),
        'concat': F.concat([x, x]), 'where': F.where(x.array > 0, x, -x),
        'batch_normalization': F.batch_normalization(
            x, numpy.ones(3), numpy.zeros(3)),
        'linear': F.linear(x, x), 'exp': F.exp(x), 'log': F.log(x + 2),
        'square': F.square(x), 'sqrt': F.sqrt(x + 2), 'clip': F.clip(
            x, -.5, .5), 'squeeze': F.squeeze(x[:1]), 'tile': F.tile(x, 2),
    }
    return {f'label/{name}': variable.creator_node.label
            for name, variable in made.items()}


GRAPHS = {
    'default': {},
    'plain': {'variable_style': None, 'function_style': None},
    'dict_style': {'variable_style': {'color': 'red'},
                   'function_style': {'shape': 'ellipse', 'label': 'F'}},
    'rankdir_lr': {'rankdir': 'LR'},
    'no_names': {'show_name': False},
    'remove_variable': {'remove_variable': True},
}


def graph_run(chainer, inputs, out):
    """build_computational_graph(...).dump() for a small graph in every
    GRAPHS form, and the file DumpGraph writes in a training."""
    build = chainer.computational_graph.build_computational_graph
    x, h, y, z, parts = _graph_outputs(chainer, inputs)
    result = {}
    for name, kwargs in GRAPHS.items():
        result[f'z/{name}'] = canonical_dot(build([z], **kwargs).dump())
    result['parts'] = canonical_dot(build(list(parts)).dump())
    result['one_part'] = canonical_dot(build(parts[0]).dump())
    result['function_node'] = canonical_dot(build(
        [z.creator_node]).dump())
    result.update(_labels(chainer, inputs))
    quoted = chainer.functions.identity(chainer.Variable(
        inputs['x'][:1], name='say "hi" \\ bye'))
    result['quoted_name'] = canonical_dot(build(quoted).dump())
    for name, make in (
            ('split_kept', lambda: build(z, remove_split=False)),
            ('bad_rankdir', lambda: build(z, rankdir='XY')),
            ('png', lambda: build(z).dump('png'))):
        try:
            make()
            result[f'error/{name}'] = 'none'
        except Exception as caught:  # compared by name with Chainer's
            result[f'error/{name}'] = type(caught).__name__
    E = chainer.training.extensions
    trainer = _trainer(chainer, inputs, out, (2, 'iteration'))
    trainer.extend(E.DumpGraph('main/loss'))
    trainer.extend(E.DumpGraph('main/loss', filename='styled.dot',
                               variable_style={'shape': 'box'},
                               function_style={'color': 'blue'}),
                   name='styled')
    trainer.run()
    for name in ('cg.dot', 'styled.dot'):
        result[f'dump/{name}'] = canonical_dot(_read(os.path.join(out,
                                                                  name)))
    result['dump/files'] = _files(out)
    return result


def plot_run(chainer, inputs, out):
    """The files PlotReport and VariableStatisticsPlot write (not their
    bytes)."""
    E = chainer.training.extensions
    trainer = _trainer(chainer, inputs, out)
    model = trainer.updater.get_optimizer('main').target
    trainer.extend(E.LogReport(trigger=(2, 'iteration')))
    trainer.extend(E.PlotReport(['main/loss'], 'iteration',
                                trigger=(2, 'iteration')))
    trainer.extend(E.PlotReport(['main/loss', 'main/accuracy'], 'epoch',
                                filename='acc.png'), name='acc')
    trainer.extend(E.PlotReport(['missing'], filename='never.png'),
                   name='never')
    trainer.extend(E.VariableStatisticsPlot(model))
    trainer.extend(E.VariableStatisticsPlot(
        model.predictor.l1, filename='l1.png', trigger=(1, 'epoch')),
        name='l1')
    trainer.run()
    return {'available': str(E.PlotReport.available()),
            'files': _files(out)}


SCENARIOS = {
    'log': log_run,
    'print': print_run,
    'progress': progress_run,
    'autoload': autoload_run,
    'filename': filename_run,
    'writer': writer_run,
    'graph': graph_run,
    'plot': plot_run,
}


def evaluate(chainer, inputs, workdir):
    """Every scenario, in a fresh subfolder of ``workdir`` each: a flat
    dict ``'<scenario>/<name>' -> str``."""
    result = {}
    for scenario, run in SCENARIOS.items():
        if scenario in KNOWN_DIFFERENCES:
            continue
        folder = os.path.join(workdir, scenario)
        os.makedirs(folder)
        result.update({f'{scenario}/{name}': text for name, text
                       in run(chainer, inputs, folder).items()})
    return result
