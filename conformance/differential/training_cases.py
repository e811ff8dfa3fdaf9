"""Short deterministic trainings, triggers, snapshots and iterators, for
any Chainer-like ``chainer`` module: run by ``test_training.py`` with
Kusari's drop-in and by ``oracle_training.py`` with Chainer 7.8.1.

Only NumPy is imported here. Every scenario returns a flat dict of
arrays (``name -> array``) that both sides write and the test compares.
"""
import itertools
import json
import os

import numpy

EPOCHS = 3
BATCH = 4
N_TRAIN, N_VALID, N_IN, N_HIDDEN, N_OUT = 10, 6, 4, 5, 3
SNAPSHOT_AT = 4
TEMPLATE = 'snapshot_iter_{.updater.iteration}'


# name: (shift extension class, positional args, keyword args); the
# optimizer's ``lr`` starts at 0.1 unless an ``init`` is given.
SHIFTS = {
    'exponential': ('ExponentialShift', ('lr', 0.5), {}),
    'exponential_init_target': ('ExponentialShift', ('lr', 0.5), {
        'init': 0.2, 'target': 0.04}),
    'exponential_optimizer': ('ExponentialShift', ('lr', 0.7), {
        'optimizer': True}),
    'inverse': ('InverseShift', ('lr', 0.5, 2.0), {}),
    'inverse_target': ('InverseShift', ('lr', 1.0, 1.5), {
        'init': 0.3, 'target': 0.1}),
    'linear': ('LinearShift', ('lr', (0.1, 0.01), (2, 7)), {}),
    'multistep': ('MultistepShift', ('lr', 0.3, [2, 5, 7], 0.2), {}),
    'polynomial_stop': ('PolynomialShift', ('lr', 0.5, 9), {}),
    'polynomial_early': ('PolynomialShift', ('lr', 2.0, 6), {}),
    'polynomial_target': ('PolynomialShift', ('lr', 2.0, 12), {
        'init': 0.2, 'target': 0.05}),
    'polynomial_target_end': ('PolynomialShift', ('lr', 2.0, 6), {
        'target': 0.01}),
    'step': ('StepShift', ('lr', 0.5, 3), {}),
    'step_target': ('StepShift', ('lr', 0.1, 2), {
        'init': 0.5, 'target': 0.02}),
    'warmup': ('WarmupShift', ('lr', 0.01, 4, 0.1), {}),
}

# Iterators walked without repeat, unshuffled and shuffled.
WALKS = list(itertools.product(
    ('SerialIterator', 'MultiprocessIterator', 'MultithreadIterator'),
    (False, True)))
STATES = {f'{cls}_shuffle_{shuffle}_state' for cls, shuffle in WALKS}

# Cases kept out of the compared set: case -> reason.
KNOWN_DIFFERENCES = {
    'polynomial_target_end': 'Chainer 7.8.1 bug: with a target, '
    'PolynomialShift divides by the value, 0 at max_count '
    '(ZeroDivisionError); Kusari sets the target',
    'MultiprocessIterator_shuffle_False_state': 'Chainer 7.8.1 bug: '
    'serialize copies the order, None without shuffle (AttributeError); '
    'Kusari saves the state',
    'MultithreadIterator_shuffle_False_state': 'Chainer saves _order=None '
    'without shuffle, an object array NPZ keeps only by pickling; Kusari '
    'saves no order (as for its other iterators)',
}

# name: (trigger class, args): extension triggers over the main run,
# whose observation ``v`` follows VALUES (one per iteration).
VALUES = [3.0, 1.0, 2.0, 0.5, 0.7, 0.9, 0.4, 2.0, 3.0]
TRIGGERS = {
    'interval_iteration': ('IntervalTrigger', (2, 'iteration'), {}),
    'interval_epoch': ('IntervalTrigger', (1, 'epoch'), {}),
    'interval_half_epoch': ('IntervalTrigger', (0.5, 'epoch'), {}),
    'interval_fraction': ('IntervalTrigger', (0.7, 'epoch'), {}),
    'manual_iteration': ('ManualScheduleTrigger', ([2, 5, 9], 'iteration'),
                         {}),
    'manual_epoch': ('ManualScheduleTrigger', ([0.5, 1, 2.4], 'epoch'), {}),
    'min_value': ('MinValueTrigger', ('v', (2, 'iteration')), {}),
    'max_value': ('MaxValueTrigger', ('v', (1, 'iteration')), {}),
    'best_value': ('BestValueTrigger', (
        'v', lambda best, value: value < best - 0.5, (1, 'iteration')), {}),
    'early_stopping': ('EarlyStoppingTrigger', (), {
        'monitor': 'v', 'patients': 2, 'check_trigger': (1, 'iteration'),
        'max_trigger': (8, 'iteration')}),
    'early_stopping_max': ('EarlyStoppingTrigger', (), {
        'monitor': 'v', 'patients': 10, 'mode': 'max',
        'check_trigger': (2, 'iteration'), 'max_trigger': (6, 'iteration')}),
    'once': ('OnceTrigger', (), {}),
}
# The same EarlyStoppingTrigger as the stop trigger of a whole run.
STOPS = {
    'early_stop_min': {'monitor': 'v', 'patients': 2,
                       'check_trigger': (1, 'iteration'),
                       'max_trigger': (9, 'iteration')},
    'early_stop_patience': {'monitor': 'v', 'patients': 4, 'mode': 'max',
                            'check_trigger': (1, 'iteration'),
                            'max_trigger': (9, 'iteration')},
}


def shared_inputs(seed=0):
    """The parameters and data of every scenario, drawn once."""
    rng = numpy.random.RandomState(seed)
    return {
        'W1': rng.uniform(-1, 1, (N_HIDDEN, N_IN)).astype(numpy.float32),
        'b1': rng.uniform(-1, 1, N_HIDDEN).astype(numpy.float32),
        'W2': rng.uniform(-1, 1, (N_OUT, N_HIDDEN)).astype(numpy.float32),
        'b2': rng.uniform(-1, 1, N_OUT).astype(numpy.float32),
        'x': rng.uniform(-1, 1, (N_TRAIN, N_IN)).astype(numpy.float32),
        't': rng.randint(0, N_OUT, N_TRAIN).astype(numpy.int32),
        'xv': rng.uniform(-1, 1, (N_VALID, N_IN)).astype(numpy.float32),
        'tv': rng.randint(0, N_OUT, N_VALID).astype(numpy.int32),
    }


def _model(chainer, inputs):
    L, F = chainer.links, chainer.functions

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(N_IN, N_HIDDEN, initialW=inputs['W1'],
                                   initial_bias=inputs['b1'])
                self.l2 = L.Linear(N_HIDDEN, N_OUT, initialW=inputs['W2'],
                                   initial_bias=inputs['b2'])

        def forward(self, x):
            return self.l2(F.tanh(self.l1(x)))

    return L.Classifier(MLP())


def _trainer(chainer, inputs, out, shuffle=False, stop=(EPOCHS, 'epoch'),
             record=None):
    """A Trainer of the tiny Classifier with MomentumSGD; ``record`` (a
    list) receives the x of every batch."""
    model = _model(chainer, inputs)
    optimizer = chainer.optimizers.MomentumSGD(lr=0.1, momentum=0.9)
    optimizer.setup(model)
    dataset = chainer.datasets.TupleDataset(inputs['x'], inputs['t'])
    iterator = chainer.iterators.SerialIterator(dataset, BATCH,
                                                shuffle=shuffle)

    def converter(batch, device=None):
        arrays = chainer.dataset.concat_examples(batch, device)
        if record is not None:
            record.append(numpy.array(arrays[0]))
        return arrays

    updater = chainer.training.updaters.StandardUpdater(
        iterator, optimizer, converter=converter)
    return chainer.training.Trainer(updater, stop, out=out)


def _recorder(chainer, record, read):
    """An extension that appends ``read(trainer)`` to ``record`` at every
    iteration, after the other extensions."""
    @chainer.training.make_extension(trigger=(1, 'iteration'), priority=0)
    def recorder(trainer):
        record.append(read(trainer))
    return recorder


def _reporter(chainer):
    """Reports ``v`` (VALUES) and the counts of MicroAverage first."""
    @chainer.training.make_extension(
        trigger=(1, 'iteration'),
        priority=chainer.training.PRIORITY_WRITER + 1)
    def reporter(trainer):
        iteration = trainer.updater.iteration
        chainer.report({'v': VALUES[(iteration - 1) % len(VALUES)],
                        'correct': iteration % 3, 'total': 4})
    return reporter


def _params(model, prefix):
    return {f'{prefix}{name}': numpy.array(param.array)
            for name, param in model.namedparams()}


def _log(entries, prefix):
    """Log entries as arrays: the sorted keys (JSON) and the values."""
    out = {}
    for i, entry in enumerate(entries):
        keys = sorted(k for k in entry if k != 'elapsed_time')
        out[f'{prefix}{i}/keys'] = numpy.array(json.dumps(keys))
        out[f'{prefix}{i}/values'] = numpy.array(
            [float(entry[k]) for k in keys])
    out[f'{prefix}count'] = numpy.array(len(entries))
    return out


def main_run(chainer, inputs, out, shuffle):
    """The full training with every reporting extension and the
    extension triggers of TRIGGERS."""
    E, T = chainer.training.extensions, chainer.training.triggers
    batches, lrs, fired = [], [], {name: [] for name in TRIGGERS}
    trainer = _trainer(chainer, inputs, out, shuffle, record=batches)
    model = trainer.updater.get_optimizer('main').target
    valid = chainer.datasets.TupleDataset(inputs['xv'], inputs['tv'])
    trainer.extend(_reporter(chainer))
    # A shuffled validation iterator draws from NumPy's global random
    # state too, between the training iterator's draws.
    trainer.extend(E.Evaluator(chainer.iterators.SerialIterator(
        valid, 4, repeat=False, shuffle=shuffle), model),
        trigger=(2, 'iteration'))
    trainer.extend(E.observe_lr())
    trainer.extend(E.observe_value(
        'w_sum', lambda t: float(model.predictor.l1.W.array.sum())))
    trainer.extend(E.MicroAverage('correct', 'total', 'micro'))
    trainer.extend(E.ParameterStatistics(model, trigger=(2, 'iteration')))
    trainer.extend(E.FailOnNonNumber())
    trainer.extend(E.LogReport(trigger=(1, 'epoch'), log_name=None))
    trainer.extend(E.LogReport(trigger=(2, 'iteration'), log_name=None),
                   name='log_iter')
    for name, (cls, args, kwargs) in TRIGGERS.items():
        trainer.extend(_recorder(
            chainer, fired[name], lambda t: t.updater.iteration),
            name=f'fire_{name}', trigger=getattr(T, cls)(*args, **kwargs))
    trainer.extend(_recorder(chainer, lrs, lambda t: (
        t.updater.iteration, t.updater.epoch_detail,
        t.updater.previous_epoch_detail, t.updater.is_new_epoch)))
    trainer.run()
    result = {'batches': numpy.concatenate(batches),
              'progress': numpy.array(lrs, dtype=float)}
    result.update(_params(model, 'param'))
    result.update(_log(trainer.get_extension('LogReport').log, 'log_epoch/'))
    result.update(_log(trainer.get_extension('log_iter').log, 'log_iter/'))
    for name, iterations in fired.items():
        result[f'fire/{name}'] = numpy.array(iterations, dtype=int)
    return result


def shift_run(chainer, inputs, out, name):
    """The lr at every iteration under one shift extension of SHIFTS."""
    cls, args, kwargs = SHIFTS[name]
    trainer = _trainer(chainer, inputs, out)
    optimizer = trainer.updater.get_optimizer('main')
    if kwargs.get('optimizer'):
        kwargs = dict(kwargs, optimizer=optimizer)
    lrs = [optimizer.lr]
    trainer.extend(getattr(chainer.training.extensions, cls)(*args,
                                                               **kwargs))
    trainer.extend(_recorder(chainer, lrs, lambda t: optimizer.lr))
    trainer.run()
    return {'lr': numpy.array(lrs)}


def stop_run(chainer, inputs, out, name):
    """The iteration an EarlyStoppingTrigger of STOPS stops a run at."""
    trainer = _trainer(chainer, inputs, out, stop=(
        chainer.training.triggers.EarlyStoppingTrigger(**STOPS[name])))
    trainer.extend(_reporter(chainer))
    trainer.run()
    return {'iteration': numpy.array(trainer.updater.iteration)}


def fail_run(chainer, inputs, out):
    """Where FailOnNonNumber stops a run whose 6th example holds NaN."""
    x = inputs['x'].copy()
    x[5, 0] = numpy.nan
    trainer = _trainer(chainer, dict(inputs, x=x), out)
    trainer.extend(chainer.training.extensions.FailOnNonNumber())
    try:
        trainer.run(show_loop_exception_msg=False)
        error = 'none'
    except Exception as caught:  # compared by name with Chainer's
        error = type(caught).__name__
    return {'error': numpy.array(error),
            'iteration': numpy.array(trainer.updater.iteration)}


# Triggers of the snapshot scenario whose fires are compared, resumed too.
RESUMED_TRIGGERS = {
    'once': ('OnceTrigger', (), {}),
    'once_on_resume': ('OnceTrigger', (), {'call_on_resume': True}),
    'interval': ('IntervalTrigger', (3, 'iteration'), {}),
    'min_value': ('MinValueTrigger', ('main/loss', (2, 'iteration')), {}),
    'max_value': ('MaxValueTrigger', ('main/loss', (1, 'epoch')), {}),
    'best_value': TRIGGERS['best_value'][:1] + (
        ('main/loss',) + TRIGGERS['best_value'][1][1:], {}),
}


def statistics_run(chainer, inputs):
    """ParameterStatistics over a model holding NaN, with and without
    skip_nan_params, reporting at every call."""
    model = _model(chainer, inputs)
    model.predictor.l1.W.array[0, 0] = numpy.nan
    result = {}
    for skip in (True, False):
        extension = chainer.training.extensions.ParameterStatistics(
            model, report_grads=False, trigger=lambda trainer: True,
            skip_nan_params=skip)
        observation = {}
        with chainer.Reporter().scope(observation):
            extension(None)
        result.update({f'skip_{skip}/{key}': numpy.array(value)
                       for key, value in observation.items()})
    return result


def snapshot_trainer(chainer, inputs, out):
    """The trainer of the snapshot scenario, and the fires of its
    RESUMED_TRIGGERS (a dict of lists): shuffled, with a LogReport, a
    shift, a snapshot at SNAPSHOT_AT and one of the model every epoch."""
    E, T = chainer.training.extensions, chainer.training.triggers
    trainer = _trainer(chainer, inputs, out, shuffle=True)
    trainer.extend(E.LogReport(trigger=(1, 'iteration'), log_name=None))
    trainer.extend(E.ExponentialShift('lr', 0.8))
    trainer.extend(E.snapshot(filename=TEMPLATE),
                   trigger=(SNAPSHOT_AT, 'iteration'))
    trainer.extend(E.snapshot(filename='kept_{.updater.iteration}',
                              n_retains=2), trigger=(2, 'iteration'))
    trainer.extend(E.snapshot_object(
        trainer.updater.get_optimizer('main').target,
        'model_epoch_{.updater.epoch}'), trigger=(1, 'epoch'))
    fired = {name: [] for name in RESUMED_TRIGGERS}
    for name, (cls, args, kwargs) in RESUMED_TRIGGERS.items():
        trainer.extend(_recorder(
            chainer, fired[name], lambda t: t.updater.iteration),
            name=name, trigger=getattr(T, cls)(*args, **kwargs))
    return trainer, fired


def _result(trainer, fired):
    result = _params(trainer.updater.get_optimizer('main').target, 'param')
    result.update({f'fire/{name}': numpy.array(iterations, dtype=int)
                   for name, iterations in fired.items()})
    return result


def snapshot_run(chainer, inputs, out):
    """The uninterrupted shuffled run after ``numpy.random.seed(0)``: its
    final parameters, its fires, and the snapshots it wrote."""
    numpy.random.seed(0)
    trainer, fired = snapshot_trainer(chainer, inputs, out)
    states = []
    trainer.extend(_recorder(chainer, states, lambda t: (
        numpy.random.get_state())), trigger=(SNAPSHOT_AT, 'iteration'))
    trainer.run()
    result = _result(trainer, fired)
    _, keys, position, has_gauss, gauss = states[0]
    result.update({'rng/keys': keys, 'rng/position': numpy.array(
        [position, has_gauss]), 'rng/gauss': numpy.array(gauss)})
    for name, file in (('snapshot', f'snapshot_iter_{SNAPSHOT_AT}'),
                       ('model_snapshot', 'model_epoch_2')):
        with numpy.load(os.path.join(out, file)) as snapshot:
            result.update({f'{name}/{key}': snapshot[key]
                           for key in snapshot.files})
    result['files'] = numpy.array(json.dumps(sorted(os.listdir(out))))
    return result


def resume_run(chainer, inputs, out, path, rng):
    """The final parameters and the fires of the snapshot scenario resumed
    from the snapshot at ``path``, with NumPy's global random state
    ``rng`` (the ``rng/...`` arrays of ``snapshot_run``) as it was at
    SNAPSHOT_AT."""
    trainer, fired = snapshot_trainer(chainer, inputs, out)
    chainer.serializers.load_npz(path, trainer)
    position, has_gauss = (int(v) for v in rng['position'])
    numpy.random.set_state(('MT19937', rng['keys'], position, has_gauss,
                            float(rng['gauss'])))
    trainer.run()
    return _result(trainer, fired)


def _walk(chainer, cls, data, shuffle):
    """The batches (padded with -1) of 5 calls of a non-repeating
    iterator ``cls`` and its saved state after the third (a case of
    STATES)."""
    kwargs = {'MultiprocessIterator': {'n_processes': 2},
              'MultithreadIterator': {'n_threads': 2}}.get(cls, {})
    it = getattr(chainer.iterators, cls)(data, 3, repeat=False,
                                         shuffle=shuffle, **kwargs)
    prefix = f'{cls}_shuffle_{shuffle}'
    batches, state = [], {}
    try:
        for i in range(5):
            try:
                batch = it.next()
            except StopIteration:
                batch = []
            batches.append(batch + [-1] * (3 - len(batch)))
            if i == 2 and f'{prefix}_state' not in KNOWN_DIFFERENCES:
                saver = chainer.serializers.DictionarySerializer()
                it.serialize(saver)
                state = {f'{prefix}/state/{key}': numpy.asarray(value)
                         for key, value in saver.target.items()}
    finally:
        it.finalize()
    return dict(state, **{f'{prefix}/batches': numpy.array(batches)})


def iterator_run(chainer):
    """SerialIterator progress over uneven batches, concat_examples with
    padding, and the batches and saved state of the three iterators
    (WALKS) after ``numpy.random.seed(0)``."""
    result = {}
    data = list(range(7))
    for repeat in (True, False):
        it = chainer.iterators.SerialIterator(data, 3, repeat=repeat,
                                              shuffle=False)
        rows = []
        for _ in range(5 if repeat else 3):
            batch = it.next()
            rows.append([len(batch), batch[0], it.epoch, it.epoch_detail,
                         it.previous_epoch_detail
                         if it.previous_epoch_detail is not None else -1,
                         it.is_new_epoch, it.current_position])
        try:
            it.next()
            rows.append([-1] * 7)
        except StopIteration:
            rows.append([-2] * 7)
        result[f'serial_repeat_{repeat}'] = numpy.array(rows, dtype=float)
    for cls, shuffle in WALKS:
        numpy.random.seed(0)
        result.update(_walk(chainer, cls, data, shuffle))
    ragged = [(numpy.arange(n, dtype=numpy.float32).reshape(n, 1) + n,
               numpy.int32(n)) for n in (1, 3, 2)]
    for name, padding in (('pad_0', 0), ('pad_neg', -1),
                          ('pad_tuple', (-5, 9))):
        x, t = chainer.dataset.concat_examples(ragged, padding=padding)
        result[f'concat_{name}/x'], result[f'concat_{name}/t'] = x, t
    dicts = [{'a': numpy.ones(n), 'b': n} for n in (2, 1)]
    batch = chainer.dataset.concat_examples(dicts, padding=7)
    result['concat_dict/a'] = batch['a']
    result['concat_dict/b'] = numpy.array(batch['b'])
    return result


def evaluate(chainer, inputs, workdir):
    """Every scenario, in a fresh subfolder of ``workdir`` each."""
    def folder(name):
        path = os.path.join(workdir, name)
        os.makedirs(path)
        return path

    result = {}

    def add(prefix, values):
        result.update({f'{prefix}/{k}': v for k, v in values.items()})

    add('main', main_run(chainer, inputs, folder('main'), shuffle=False))
    numpy.random.seed(0)
    add('main_shuffled', main_run(chainer, inputs, folder('main_shuffled'),
                                  shuffle=True))
    for name in sorted(set(SHIFTS) - set(KNOWN_DIFFERENCES)):
        add(f'shift_{name}', shift_run(chainer, inputs, folder(name), name))
    for name in STOPS:
        add(f'stop_{name}', stop_run(chainer, inputs, folder(name), name))
    add('fail', fail_run(chainer, inputs, folder('fail')))
    add('snapshot', snapshot_run(chainer, inputs, folder('snapshot')))
    add('iterators', iterator_run(chainer))
    add('statistics', statistics_run(chainer, inputs))
    return result
