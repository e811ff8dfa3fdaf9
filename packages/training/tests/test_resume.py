"""Resume exactness: a run interrupted (even by SIGKILL) and resumed from
its latest snapshot ends exactly where an uninterrupted run ends:
parameters, optimizer state, iterator position, triggers, extensions and
log, bit for bit (the wall-clock times aside)."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy
import pytest

from kusari.datasets import iterators
from kusari.serializers import DictionarySerializer, atomic

import _resume_training as script

SCRIPT = os.path.abspath(script.__file__)
TIMEOUT = 60


def _state(trainer_or_path):
    """Every saved value but the wall-clock times (of the trainer and in
    the log)."""
    if isinstance(trainer_or_path, str):
        with numpy.load(trainer_or_path) as stored:
            values = {key: stored[key] for key in stored.files}
    else:
        saver = DictionarySerializer()
        saver.save(trainer_or_path)
        values = saver.target
    values.pop('_snapshot_elapsed_time')
    for key in values:
        if key.endswith('/_log'):
            entries = json.loads(str(values[key]))
            for entry in entries:
                entry.pop('elapsed_time')
            values[key] = numpy.asarray(json.dumps(entries))
    return values


def _log(path):
    with open(path) as stream:
        entries = json.load(stream)
    for entry in entries:
        entry.pop('elapsed_time')
    return entries


def _assert_same_state(a, b):
    assert sorted(a) == sorted(b)
    for key in a:
        left, right = numpy.asarray(a[key]), numpy.asarray(b[key])
        assert left.dtype == right.dtype, key
        assert left.tobytes() == right.tobytes(), key


def test_in_process_resume_is_exact(tmp_path):
    straight = script.build(str(tmp_path / 'straight'), 60, 9)
    straight.run()

    first = script.build(str(tmp_path / 'resumed'), 40, 9)
    first.run()  # stops at 40, past the snapshot at 36
    resumed = script.build(str(tmp_path / 'resumed'), 60, 9)
    resumed.run()

    _assert_same_state(_state(straight), _state(resumed))
    assert _log(str(tmp_path / 'straight' / 'log')) == _log(
        str(tmp_path / 'resumed' / 'log'))
    assert _log(str(tmp_path / 'straight' / 'log'))[-1]['iteration'] == 56


@pytest.mark.parametrize('iterator_class', [
    iterators.SerialIterator, iterators.MultithreadIterator,
    iterators.MultiprocessIterator])
def test_in_process_resume_of_a_noisy_run_is_exact(tmp_path, iterator_class):
    # Dropout and the shuffled orders draw from numpy.random; a batch
    # prefetched across the end of an epoch would draw the next order
    # before the snapshot of iteration 14.
    numpy.random.seed(3)
    straight = script.build_noisy(str(tmp_path / 'straight'),
                                  iterator_class=iterator_class)
    straight.run()

    numpy.random.seed(3)
    first = script.build_noisy(str(tmp_path / 'resumed'), (14, 'iteration'),
                               iterator_class=iterator_class)
    first.run()
    numpy.random.seed(4)  # the snapshot restores the generator
    resumed = script.build_noisy(str(tmp_path / 'resumed'),
                                 iterator_class=iterator_class)
    resumed.run()

    assert straight.updater.iteration == 23
    _assert_same_state(_state(straight), _state(resumed))
    assert _log(str(tmp_path / 'straight' / 'log')) == _log(
        str(tmp_path / 'resumed' / 'log'))


@pytest.mark.gpu
def test_in_process_resume_of_a_noisy_run_on_a_gpu_is_exact(tmp_path):
    # Dropout draws from CuPy's generator, which each snapshot reseeds.
    import cupy
    runs = {}
    for name, stops in (('straight', [(3, 'epoch')]),
                        ('resumed', [(14, 'iteration'), (3, 'epoch')])):
        numpy.random.seed(3)
        cupy.random.seed(3)
        for i, stop in enumerate(stops):
            if i:
                cupy.random.seed(4)  # the snapshot restores the generator
            trainer = script.build_noisy(str(tmp_path / name), stop,
                                         device='@cupy:0')
            trainer.run()
        # Captured at once: a capture reseeds CuPy's (global) generator
        # from itself, so a later capture of the other run would differ.
        runs[name] = trainer.updater.iteration, _state(trainer)
    assert runs['straight'][0] == 23
    _assert_same_state(runs['straight'][1], runs['resumed'][1])


def _start(out, arguments, delay):
    env = dict(os.environ, RESUME_TEST_DELAY=str(delay), CHAINER_SEED='0')
    return subprocess.Popen(
        [sys.executable, SCRIPT, out, *map(str, arguments)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _run_and_kill_at(out, arguments, kill_at, wait=0.0, delay=0.002):
    """Run the script; SIGKILL it ``wait`` seconds after it reports
    ``kill_at`` (None: let it finish). Return the first and the last
    iteration it reported."""
    process = _start(out, arguments, delay)
    first = last = None
    try:
        for line in process.stdout:
            last = int(line)
            first = first or last
            if kill_at is not None and last >= kill_at:
                time.sleep(wait)
                os.kill(process.pid, signal.SIGKILL)
                break
        process.wait(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if kill_at is None:
        assert process.returncode == 0, process.stderr.read()
    return first, last


@pytest.mark.slow
def test_runs_killed_by_sigkill_resume_exactly(tmp_path):
    iterations, every = 300, 20
    straight = str(tmp_path / 'straight')
    assert _run_and_kill_at(straight, (iterations, every), None) == (
        1, iterations)

    killed = str(tmp_path / 'killed')
    runs = [_run_and_kill_at(killed, (iterations, every), kill_at)
            for kill_at in (13, 95, 141, 217, 270, None)]
    assert runs[0][0] == 1 and runs[-1][1] == iterations
    # Each later run started right after the newest snapshot taken before
    # the previous run was killed: it resumed, it did not start over.
    for (_, killed_at), (first, _) in zip(runs, runs[1:]):
        assert (first - 1) % every == 0
        assert killed_at - every <= first - 1 <= killed_at

    _assert_same_state(_state(os.path.join(straight, 'final.npz')),
                       _state(os.path.join(killed, 'final.npz')))
    assert _log(os.path.join(straight, 'log')) == _log(
        os.path.join(killed, 'log'))
    best = [os.path.join(d, 'best') for d in (straight, killed)]
    _assert_same_state(_state_of_file(best[0]), _state_of_file(best[1]))
    snapshots = sorted(name for name in os.listdir(killed)
                       if name.startswith('snapshot_iter_'))
    assert snapshots == ['snapshot_iter_280', 'snapshot_iter_300']


def _state_of_file(path):
    with numpy.load(path) as stored:
        return {key: stored[key] for key in stored.files}


def kill_a_noisy_run_at_random_moments(tmp_path, rng, n_kills=10):
    """Run :func:`_resume_training.build_noisy`'s training (3 shuffled
    epochs through dropout, a snapshot every iteration) straight, and again
    killed by SIGKILL at ``n_kills`` random moments, each run resuming from
    the newest snapshot; assert both end bit for bit alike."""
    straight = str(tmp_path / 'straight')
    assert _run_and_kill_at(straight, ('noisy',), None, delay=0.01) == (
        1, 23)
    killed = str(tmp_path / 'killed')
    kill_at = numpy.sort(rng.choice(numpy.arange(1, 23), n_kills,
                                    replace=False))
    runs = [_run_and_kill_at(killed, ('noisy',), at, rng.uniform(0, 0.015),
                             delay=0.01) for at in kill_at]
    runs.append(_run_and_kill_at(killed, ('noisy',), None, delay=0.01))
    assert runs[-1][1] == 23
    for (_, reported), (first, _) in zip(runs, runs[1:]):
        # Resumed from the snapshot of the last iteration reported before
        # the kill, or a later one: never from an older one.
        assert first >= reported
    _assert_same_state(_state(os.path.join(straight, 'final.npz')),
                       _state(os.path.join(killed, 'final.npz')))
    assert _log(os.path.join(straight, 'log')) == _log(
        os.path.join(killed, 'log'))
    # The last run removed what writes cut short by a kill left.
    assert not [name for name in os.listdir(killed)
                if atomic.is_temporary(name)]


@pytest.mark.slow
def test_a_shuffled_run_with_dropout_killed_at_random_resumes_exactly(
        tmp_path):
    kill_a_noisy_run_at_random_moments(tmp_path, numpy.random.RandomState(0))
